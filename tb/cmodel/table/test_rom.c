/* SPDX-License-Identifier: Apache-2.0
 * test_rom: every ROM format and both layouts round-trip to identical tables; the bit
 * layout puts fields where layout.json says; damaged images are refused. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include "table/mt_layout.h"
#include "table/mt_rom.h"
#include "plan/mt_sched.h"
#include "mt_test.h"

static int same_tables(const mt_tables *a, const mt_tables *b) {
  if (a->n_nodes != b->n_nodes) return 0;
  for (int n = 0; n < a->n_nodes; n++) {
    if (a->count[n] != b->count[n]) return 0;
    const mt_entry *x = mt_node_entries(a, n), *y = mt_node_entries(b, n);
    for (int i = 0; i < a->count[n]; i++) {
      if (x[i].op != y[i].op || x[i].step != y[i].step || x[i].addr != y[i].addr || x[i].size != y[i].size) return 0;
      if (x[i].op == MT_OP_NOP) continue;
      if (x[i].flow != y[i].flow || x[i].has_parent != y[i].has_parent || x[i].nchild != y[i].nchild) return 0;
      if (x[i].has_parent && (x[i].parent.node != y[i].parent.node || x[i].parent.port != y[i].parent.port || x[i].parent.eject != y[i].parent.eject)) return 0;
      for (int c = 0; c < x[i].nchild; c++)
        if (x[i].child[c].node != y[i].child[c].node || x[i].child[c].port != y[i].child[c].port || x[i].child[c].eject != y[i].child[c].eject) return 0;
    }
  }
  return 1;
}

/* may_refuse: the compact layout may be refused (routed transfers, differing NOP estimates) */
static void roundtrip_ok(const char *topo, const char *algo, uint64_t bytes, int compact, int may_refuse) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e;
  CHECK(mt_topo_from_name(&t, topo, &e) == 0, "%s", e.msg);
  CHECK(mt_plan(&s, &t, algo, bytes, 4, &e) == 0, "%s", e.msg);
  CHECK(mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  int rc = mt_layout_for(&s, &tb, compact, &ly, &e);
  if (rc && may_refuse && compact) CHECK(strstr(e.msg, "one-hop") || strstr(e.msg, "NOP estimates differ"), "%s %s compact: %s", topo, algo, e.msg);
  else CHECK(rc == 0, "%s %s compact=%d: %s", topo, algo, compact, e.msg);
  for (int f = 0; rc == 0 && f < MT_ROM_NFORMATS; f++) {
    char dir[256];
    snprintf(dir, sizeof dir, "build/test_rom/%s_%s_%s_%s", algo, topo + 0, compact ? "compact" : "full", mt_rom_format_name(f));
    for (char *p = dir + 15; *p; p++)
      if (*p == ':' || *p == ',') *p = '_';
    mkdir("build", 0777);
    mkdir("build/test_rom", 0777);
    if (f == MT_ROM_MEM && ly.width > 256) {
      CHECK(mt_rom_write_dir(&s, &tb, &ly, f, dir, &e) != 0 && strstr(e.msg, "256"), "mem must refuse %d-bit words", ly.width);
      continue;
    }
    CHECK(mt_rom_write_dir(&s, &tb, &ly, f, dir, &e) == 0, "%s: %s", dir, e.msg);
    mt_topo t2;
    mt_layout ly2;
    mt_tables tb2;
    int r2 = mt_rom_read_dir(dir, &t2, &ly2, &tb2, &e);
    CHECK(r2 == 0, "%s: %s", dir, e.msg);
    if (r2) continue;
    CHECK(ly2.width == ly.width, "%s: width %d vs %d", dir, ly2.width, ly.width);
    CHECK(same_tables(&tb, &tb2), "%s: decoded tables differ", dir);
    mt_tables_free(&tb2);
    mt_topo_free(&t2);
  }
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

static void roundtrip(const char *topo, const char *algo, uint64_t bytes, int compact) { roundtrip_ok(topo, algo, bytes, compact, 0); }

/* Field placement, by hand: mesh:2x2, 1024 bytes, full layout. N=4: flow 2 bits, step
 * bits(2N-2=6)=3, id 2, ports 4 -> port 3 bits, L=4 -> eject 2 bits, slot 1+2+3+2=8,
 * C=2 children, addr bits(1023)=10, size bits(1024)=11: 2+2+3+8+16+10+11 = 52 bits.
 * Node 0's first entry reduce(3, parent 1 via port 0, eject 1, step 1, addr 768, size 256). */
static void test_fields(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e;
  CHECK(mt_topo_from_name(&t, "mesh:2x2", &e) == 0 && mt_plan(&s, &t, "multitree", 1024, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 0, &ly, &e) == 0, "%s", e.msg);
  CHECK(ly.width == 52, "width %d, want 52", ly.width);
  uint64_t w[MT_LAYOUT_MAX_WORDS];
  mt_layout_encode(&ly, mt_node_entries(&tb, 0), w);
  uint64_t want = 1ull /* op reduce, bits 0-1 */
    | 3ull << 2        /* flow 3, bits 2-3 */
    | 1ull << 4        /* step 1, bits 4-6 */
    | 1ull << 7        /* parent valid, bit 7 */
    | 1ull << 8        /* parent node 1, bits 8-9 */
    | 0ull << 10       /* parent port 0 (+X), bits 10-12 */
    | 1ull << 13       /* parent eject 1 (node 1's -X input), bits 13-14 */
                       /* 2 child slots empty, bits 15-30 */
    | 768ull << 31     /* addr, bits 31-40 */
    | 256ull << 41;    /* size, bits 41-51 */
  CHECK(w[0] == want, "word %016llx want %016llx", (unsigned long long)w[0], (unsigned long long)want);
  mt_layout_encode(&ly, NULL, w);
  CHECK(w[0] == 3, "END word %llx", (unsigned long long)w[0]);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

static void test_damaged(void) {
  /* a truncated image must be refused (it would load as X in simulation) */
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e;
  CHECK(mt_topo_from_name(&t, "torus:4x4", &e) == 0 && mt_plan(&s, &t, "multitree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 0, &ly, &e) == 0, "%s", e.msg);
  mkdir("build", 0777);
  mkdir("build/test_rom", 0777);
  const char *dir = "build/test_rom/damaged";
  CHECK(mt_rom_write_dir(&s, &tb, &ly, MT_ROM_HEX, dir, &e) == 0, "%s", e.msg);
  FILE *f = fopen("build/test_rom/damaged/node3.hex", "r+");
  CHECK(f != NULL, "open node3.hex");
  if (f) {
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fclose(f);
    CHECK(truncate("build/test_rom/damaged/node3.hex", len / 2) == 0, "truncate");
  }
  mt_topo t2;
  mt_layout ly2;
  mt_tables tb2;
  CHECK(mt_rom_read_dir(dir, &t2, &ly2, &tb2, &e) != 0 && strstr(e.msg, "node3.hex"), "truncated image accepted: %s", e.msg);
  /* compact layout refuses routed (multi-hop) schedules and switch networks */
  mt_tables_free(&tb);
  mt_sched_free(&s);
  CHECK(mt_plan(&s, &t, "dbtree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 1, &ly, &e) != 0 && strstr(e.msg, "one-hop"), "compact dbtree accepted: %s", e.msg);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* ---- damaged images: every class of damage, every format (issue #11 item 8) ----
 * A good directory is written for mesh:2x3 multitree 4096 bytes (6 nodes, depth 12, node 0
 * has 9 entries, END at word 9 and two padding words; node 2 starts with a NOP and fills all
 * 12 words), then one file is damaged and mt_rom_read_dir must refuse it with the given
 * text (or, want == NULL, decode the same tables). Word i is on line i + first[fmt]. */

typedef struct {
  int fmt, compact, node; /* node: the image damaged */
  const char *file;       /* NULL: node<node>.<ext>, else a file in the directory */
  char op;                /* see damage() */
  int line;               /* 1-based; < 0 counts from the end (-1 the last line) */
  const char *a, *b;
  const char *want; /* ":L: reason" = "node<k>.<ext>:L: reason"; NULL: must decode identically */
} dmg_case;

static const int first_line[MT_ROM_NFORMATS] = {3, 7, 4, 7, 0, 7, 1}; /* line of word 0 */

static char *read_all(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = calloc((size_t)len + 1, 1);
  *n = fread(b, 1, (size_t)len, f);
  fclose(f);
  return b;
}
static void write_all(const char *path, const char *b, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(b, 1, n, f);
  fclose(f);
}
/* $WIDE: a word one digit wider than the layout, $ZERO: a zero word */
static void expand(const char *in, int width, char *out, size_t cap) {
  int nd = (width + 3) / 4;
  size_t o = 0;
  for (const char *p = in; *p && o + nd + 2 < cap;) {
    if (!strncmp(p, "$WIDE", 5) || !strncmp(p, "$ZERO", 5)) {
      out[o++] = p[1] == 'W' ? '1' : '0';
      for (int i = 0; i < nd - (p[1] == 'W' ? 0 : 1); i++) out[o++] = '0';
      p += 5;
    } else out[o++] = *p++;
  }
  out[o] = 0;
}
/* start and end offsets of line `ln` (1-based, < 0 from the end) */
static int line_span(const char *b, size_t n, int ln, size_t *s, size_t *e) {
  int total = 0;
  for (size_t i = 0; i < n; i++) total += b[i] == '\n';
  if (ln < 0) ln = total + 1 + ln;
  size_t p = 0;
  for (int l = 1; l < ln && p < n; p++)
    if (b[p] == '\n') l++;
  if (ln < 1 || p >= n) return -1;
  *s = p;
  while (p < n && b[p] != '\n') p++;
  *e = p < n ? p + 1 : p;
  return 0;
}

/* Apply the damage: 'r' replace line by a, 'd' delete line, 'i' insert a before line,
 * 'D' line := line atoi(a), 's' first a -> b, 'A' append a, 'W' whole file := a, 't' cut at
 * half, 'T' cut the last byte, 'e' empty, 'c' LF -> CRLF, 'n' NUL in the middle, 'o' bin:
 * byte `line` |= strtol(a), 'Z' bin: word `line` zeroed, 'm' remove, 'x' copy to a,
 * 'M' word `line` := entry of the image mutated by a (mutate()). */
static int damage(const char *path, const dmg_case *c, int width, const char *dir) {
  size_t n, s, e, s2, e2;
  char *b = read_all(path, &n);
  if (!b) return -1;
  char a[512], bb[512];
  expand(c->a ? c->a : "", width, a, sizeof a);
  expand(c->b ? c->b : "", width, bb, sizeof bb);
  char *o = calloc(2 * n + 2 * sizeof a + 16, 1);
  size_t m = 0;
  int rc = 0;
  switch (c->op) {
  case 'r':
  case 'd':
  case 'i':
  case 'D':
    if (line_span(b, n, c->line, &s, &e)) {
      rc = -1;
      break;
    }
    memcpy(o, b, s);
    m = s;
    if (c->op == 'D') {
      if (line_span(b, n, atoi(c->a), &s2, &e2)) {
        rc = -1;
        break;
      }
      memcpy(o + m, b + s2, e2 - s2);
      m += e2 - s2;
    } else if (c->op != 'd') m += (size_t)sprintf(o + m, "%s\n", a);
    memcpy(o + m, b + (c->op == 'i' ? s : e), n - (c->op == 'i' ? s : e));
    m += n - (c->op == 'i' ? s : e);
    break;
  case 's': {
    char *q = strstr(b, a);
    if (!q) {
      rc = -1;
      break;
    }
    memcpy(o, b, (size_t)(q - b));
    m = (size_t)(q - b);
    m += (size_t)sprintf(o + m, "%s", bb);
    memcpy(o + m, q + strlen(a), n - (size_t)(q - b) - strlen(a));
    m += n - (size_t)(q - b) - strlen(a);
    break;
  }
  case 'A':
    memcpy(o, b, n);
    m = n + (size_t)sprintf(o + n, "%s", a);
    break;
  case 'W': m = (size_t)sprintf(o, "%s", a); break;
  case 't': m = n / 2, memcpy(o, b, m); break;
  case 'T': m = n - 1, memcpy(o, b, m); break;
  case 'e': m = 0; break;
  case 'c':
    for (size_t i = 0; i < n; i++) {
      if (b[i] == '\n') o[m++] = '\r';
      o[m++] = b[i];
    }
    break;
  case 'n':
    memcpy(o, b, n);
    o[n / 2] = 0;
    m = n;
    break;
  case 'o':
  case 'Z':
    memcpy(o, b, n);
    m = n;
    if (c->op == 'o') o[c->line] = (char)(o[c->line] | strtol(c->a, NULL, 0));
    else memset(o + (size_t)c->line * (size_t)((width + 7) / 8), 0, (size_t)((width + 7) / 8));
    break;
  case 'm':
    unlink(path);
    free(o);
    free(b);
    return 0;
  case 'x': {
    char p2[512];
    snprintf(p2, sizeof p2, "%s/%s", dir, c->a);
    write_all(p2, b, n);
    free(o);
    free(b);
    return 0;
  }
  default: rc = -1;
  }
  if (!rc) write_all(path, o, m);
  free(o);
  free(b);
  return rc;
}

/* 'M': word `line` of a hex image := its entry, mutated */
static int mutate(const char *path, const dmg_case *c, const mt_layout *ly, const mt_tables *tb) {
  mt_entry en = mt_node_entries(tb, c->node)[c->line];
  mt_slot kids[16];
  if (en.nchild) memcpy(kids, en.child, (size_t)en.nchild * sizeof(mt_slot));
  en.child = kids;
  if (!strcmp(c->a, "port")) en.parent.port = ly->compact ? 1 : ly->ports + 2; /* compact: node 0's -X leads nowhere */
  else if (!strcmp(c->a, "self")) en.parent.node = c->node;
  else if (!strcmp(c->a, "step")) en.step = tb->steps + 1;
  else if (!strcmp(c->a, "flow")) en.flow = tb->n_flows;
  else if (!strcmp(c->a, "chunk")) en.addr = ly->bytes - 8;
  else if (!strcmp(c->a, "nopflow")) en.flow = 1; /* a NOP carries no flow */
  uint64_t w[MT_LAYOUT_MAX_WORDS];
  mt_layout_encode(ly, &en, w);
  char hex[MT_LAYOUT_MAX_WORDS * 16 + 1];
  int nd = (ly->width + 3) / 4;
  for (int d = 0; d < nd; d++) {
    int bit = (nd - 1 - d) * 4;
    hex[d] = "0123456789abcdef"[(w[bit / 64] >> (bit % 64)) & 0xF];
  }
  hex[nd] = 0;
  dmg_case r = *c;
  r.op = 'r';
  r.line = c->line + first_line[MT_ROM_HEX];
  r.a = hex;
  return damage(path, &r, ly->width, NULL);
}

static void clear_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  const struct dirent *de;
  char p[600];
  while ((de = readdir(d)))
    if (de->d_name[0] != '.') {
      snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
      unlink(p);
    }
  closedir(d);
}

enum { HEX = MT_ROM_HEX,
       MIF = MT_ROM_MIF,
       COE = MT_ROM_COE,
       MEM = MT_ROM_MEM,
       BIN = MT_ROM_BIN,
       CH = MT_ROM_CHDR,
       BR = MT_ROM_BRAM };
#define L "layout.json"
static const dmg_case dmg_cases[] = {
  /* every format: CRLF line endings are legal; truncated, empty, NUL byte refused */
  {HEX, 0, 0, NULL, 'c', 0, NULL, NULL, NULL},
  {BR, 0, 0, NULL, 'c', 0, NULL, NULL, NULL},
  /* bram: the words alone (ecpbram and icebram parse nothing else), each of the full width */
  {BR, 0, 0, NULL, 'i', 1, "// node 0", NULL, ":1: unexpected '//' (a bram image holds hexadecimal words alone"},
  {BR, 0, 0, NULL, 'A', 0, "@0\n", NULL, ":13: unexpected '@0'"},
  {BR, 0, 0, NULL, 'r', 1, "0", NULL, ":1: '0' has 1 digits; every word of a bram image has 18 (layout.json width 70)"},
  {BR, 0, 0, NULL, 'd', 4, NULL, NULL, "the image ends with 11 of its 12 words"},
  {BR, 0, 0, NULL, 'A', 0, "$ZERO\n", NULL, ":13: '000000000000000000' is a word beyond the last address 11"},
  {MIF, 0, 0, NULL, 'c', 0, NULL, NULL, NULL},
  {COE, 0, 0, NULL, 'c', 0, NULL, NULL, NULL},
  {MEM, 0, 0, NULL, 'c', 0, NULL, NULL, NULL},
  {CH, 0, 0, NULL, 'c', 0, NULL, NULL, NULL},
  {MIF, 1, 0, NULL, 'c', 0, NULL, NULL, NULL},
  {HEX, 0, 0, NULL, 't', 0, NULL, NULL, "of its 12 words (layout.json depth"},
  {MIF, 0, 0, NULL, 't', 0, NULL, NULL, "no END; (the file ends inside CONTENT: truncated?)"},
  {COE, 0, 0, NULL, 't', 0, NULL, NULL, "the vector has no closing ';'"},
  {MEM, 0, 0, NULL, 't', 0, NULL, NULL, "of its 12 words (layout.json depth"},
  {CH, 0, 0, NULL, 't', 0, NULL, NULL, ":10: row 3: '0x' is not a byte"}, /* cut after "0x" */
  {BIN, 0, 0, NULL, 'T', 0, NULL, NULL, "node0.bin: 107 bytes, expected 12 words of 9 bytes"},
  {HEX, 0, 0, NULL, 'e', 0, NULL, NULL, "node0.hex: empty file"},
  {MIF, 0, 0, NULL, 'e', 0, NULL, NULL, "node0.mif: empty file"},
  {COE, 0, 0, NULL, 'e', 0, NULL, NULL, "node0.coe: empty file"},
  {MEM, 0, 0, NULL, 'e', 0, NULL, NULL, "node0.mem: empty file"},
  {CH, 0, 0, NULL, 'e', 0, NULL, NULL, "node0.h: empty file"},
  {BIN, 0, 0, NULL, 'e', 0, NULL, NULL, "node0.bin: empty file"},
  {HEX, 0, 0, NULL, 'n', 0, NULL, NULL, "a NUL byte: not a text image"},
  {MIF, 0, 0, NULL, 'n', 0, NULL, NULL, "a NUL byte: not a text image"},
  /* a missing word: the reproducers (MIF address line deleted; hex "@b" + END) */
  {MIF, 0, 0, NULL, 'd', 12, NULL, NULL, ":12: no word for address 5 before this one, address 6"},
  {MIF, 1, 0, NULL, 'd', 12, NULL, NULL, ":12: no word for address 5 before this one, address 6"},
  {HEX, 0, 0, NULL, 'W', 0, "@b\n3\n", NULL, ":2: no word for addresses 0..10 before this one, address 11"},
  {HEX, 0, 0, NULL, 'd', 8, NULL, NULL, "the image ends with 11 of its 12 words"},
  {COE, 0, 0, NULL, 'd', 9, NULL, NULL, "the image ends with 11 of its 12 words"},
  {MEM, 0, 0, NULL, 'd', 12, NULL, NULL, "the image ends with 11 of its 12 words"},
  {CH, 0, 0, NULL, 'd', 12, NULL, NULL, "the array has 11 rows, expected 12"},
  /* an extra word */
  {HEX, 0, 0, NULL, 'A', 0, "0\n", NULL, "is a word beyond the last address 11"},
  {MIF, 0, 0, NULL, 'i', -1, "    12 : 0;", NULL, "a word for address 12, outside 0..11"},
  {COE, 0, 0, NULL, 'r', -1, "$ZERO,\n0;", NULL, ":16: '0' is a word beyond the last address 11"},
  {MEM, 0, 0, NULL, 'i', -1, "0", NULL, ":19: '0' is a word beyond the last address 11"},
  {CH, 0, 0, NULL, 's', 0, "\n};", ",\n  {0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00,0x00}\n};", ":19: a row beyond the last address 11"},
  {BIN, 0, 0, NULL, 'A', 0, "x", NULL, "node0.bin: 109 bytes, expected 12 words of 9 bytes"},
  /* a word too wide for the width */
  {HEX, 0, 0, NULL, 'r', 3, "$WIDE", NULL, ":3: '1000000000000000000' has more than 70 bits"},
  {MIF, 0, 0, NULL, 'r', 7, "    0 : $WIDE;", NULL, "has more than 70 bits"},
  {COE, 0, 0, NULL, 'r', 4, "$WIDE,", NULL, ":4: '1000000000000000000' has more than 70 bits"},
  {MEM, 0, 0, NULL, 'r', 7, "$WIDE", NULL, "has more than 70 bits"},
  {MEM, 1, 0, NULL, 'r', 7, "$WIDE", NULL, "has more than 33 bits"},
  {CH, 0, 0, NULL, 's', 0, "0xab,0x51,0x05}", "0xab,0x51,0x45}", ":7: row 0: byte 8 = 0x45 sets bits above the width 70"},
  {BIN, 0, 0, NULL, 'o', 8, "0x40", NULL, "node0.bin: word 0 (byte 8 = 0x45) sets bits above the width 70"},
  /* a digit that is not hexadecimal, or unknown */
  {HEX, 0, 0, NULL, 's', 0, "0551ab000000010635", "0551ab00000001063g", ":3: '0551ab00000001063g' is not a hexadecimal word (digit 'g'"},
  {HEX, 0, 0, NULL, 's', 0, "0551ab000000010635", "0551ab0000000106xx", "would load as an unknown value"},
  {HEX, 0, 0, NULL, 's', 0, "0551ab000000010635", "0551ab00000001063\xc9", "(digit '\\xc9';"}, /* shown, not copied raw */
  {MIF, 0, 0, NULL, 's', 0, "0551ab000000010635", "0551ab00000001063g", ":7: '0551ab00000001063g' is not a hexadecimal word"},
  {COE, 0, 0, NULL, 's', 0, "0551ab000000010635", "0551ab00000001063g", "is not a hexadecimal word"},
  {MEM, 0, 0, NULL, 's', 0, "0551ab000000010635", "0551ab00000001063g", "is not a hexadecimal word"},
  {CH, 0, 0, NULL, 's', 0, "0x35", "35", ":7: row 0: '35' is not a byte (0x00..0xff)"},
  /* addresses: duplicate, out of range, ranges and several words per line (legal MIF) */
  {HEX, 0, 0, NULL, 'A', 0, "@0\n0551ab000000010635\n", NULL, ":16: address 0 is given a second word (the first on line 3)"},
  {HEX, 0, 0, NULL, 'A', 0, "@c\n", NULL, "address @c = 12 is outside 0..11"},
  {MIF, 0, 0, NULL, 's', 0, "    5 : ", "    4 : ", ":12: address 4 is given a second word (the first on line 11)"},
  {MIF, 0, 0, NULL, 's', 0, "    5 : ", "    99 : ", ":12: a word for address 99, outside 0..11"},
  {MIF, 0, 0, NULL, 's', 0, "    10 : $ZERO;\n    11 : $ZERO;\n", "    [10..11] : 0;\n", NULL},
  {MIF, 0, 0, NULL, 's', 0, "    10 : $ZERO;\n    11 : $ZERO;\n", "    10 : 0 0; -- two words\n% a block\ncomment %\n", NULL},
  {MIF, 0, 0, NULL, 's', 0, "    10 : $ZERO;\n", "    [9..10] : 0;\n", ":17: address 9 is given a second word (the first on line 16)"},
  {MIF, 0, 0, NULL, 's', 0, "    10 : $ZERO;\n    11 : $ZERO;\n", "    [10..11] : 0 0;\n", "the range [10..11] takes one word here"},
  {MIF, 0, 0, NULL, 's', 0, "    0 : 0551ab000000010635;", "    0 : 0551ab000000010635", ":8: missing ';' after the word for address 0"},
  /* text after the end */
  {MIF, 0, 0, NULL, 'A', 0, "garbage\n", NULL, ":20: text after END;: 'garbage'"},
  {COE, 0, 0, NULL, 'A', 0, "0\n", NULL, ":16: text after the vector's closing ';': '0'"},
  {CH, 0, 0, NULL, 'A', 0, "int x;\n", NULL, ":20: text after the array: 'int'"},
  {MEM, 0, 0, NULL, 'A', 0, "garbage\n", NULL, ":20: 'garbage' is a word beyond the last address 11"},
  /* COE separators */
  {COE, 0, 0, NULL, 'r', 4, "0551ab000000010635,,", NULL, ":4: an empty value"},
  {COE, 0, 0, NULL, 'r', -1, "$ZERO,;", NULL, "a ',' before the closing ';'"},
  {MEM, 0, 0, NULL, 'r', 7, "0551ab000000010635 0", NULL, ":7: a second word '0' on one line"},
  /* headers against layout.json */
  {MIF, 0, 0, NULL, 's', 0, "WIDTH=70", "WIDTH=71", ":2: WIDTH=71, but layout.json width is 70"},
  {MIF, 0, 0, NULL, 's', 0, "DEPTH=12", "DEPTH=13", ":3: DEPTH=13, but layout.json depth is 12"},
  {MIF, 0, 0, NULL, 's', 0, "ADDRESS_RADIX=UNS", "ADDRESS_RADIX=FOO", ":4: ADDRESS_RADIX=FOO is not a radix"},
  {MIF, 0, 0, NULL, 's', 0, "DATA_RADIX=HEX", "DATA_RADIX=BIN", ":5: DATA_RADIX=BIN: the decoder reads HEX data only"},
  {MIF, 0, 0, NULL, 'd', 3, NULL, NULL, ":5: the MIF header lacks DEPTH= before CONTENT BEGIN"},
  {MIF, 0, 0, NULL, 'i', 3, "WIDTH=70;", NULL, ":3: WIDTH is given twice (first on line 2)"},
  {MIF, 0, 0, NULL, 's', 0, "ADDRESS_RADIX=UNS", "ADDRESS_RADIX=HEX", ":17: a word for address 16, outside 0..11"}, /* "10" is now 0x10 */
  {MIF, 1, 0, NULL, 's', 0, "WIDTH=", "WIDTH=1", "but layout.json width is 33"},
  {COE, 0, 0, NULL, 's', 0, "radix=16", "radix=2", ":2: memory_initialization_radix=2: the decoder reads radix 16 only"},
  {COE, 0, 0, NULL, 'd', 2, NULL, NULL, ":2: memory_initialization_vector= before memory_initialization_radix="},
  {MEM, 0, 0, NULL, 's', 0, "#Depth=12", "#Depth=13", ":2: #Depth=13, but layout.json depth is 12"},
  {MEM, 0, 0, NULL, 's', 0, "#Width=70", "#Width=64", ":3: #Width=64, but layout.json width is 70"},
  {MEM, 0, 0, NULL, 's', 0, "#DataRadix=3", "#DataRadix=2", ":5: #DataRadix=2: the decoder reads 3 (hexadecimal) only"},
  {MEM, 0, 0, NULL, 's', 0, "#Format=Hex", "#Format=Bin", ":1: '#Format=Bin': the value must be Hex"},
  {MEM, 0, 0, NULL, 'd', 2, NULL, NULL, ":5: the .mem header lacks #Depth= before #Data"},
  {MEM, 0, 0, NULL, 'i', 1, "#Foo=1", NULL, ":1: '#Foo=1' is not a .mem header line"},
  {CH, 0, 0, NULL, 's', 0, "DEPTH 12", "DEPTH 13", ":5: DEPTH 13, but layout.json depth is 12"},
  {CH, 0, 0, NULL, 's', 0, "WIDTH 70", "WIDTH 72", ":4: WIDTH 72, but layout.json width is 70"},
  {CH, 0, 0, NULL, 's', 0, "[12][9]", "[12][10]", ":6: rows of 10 bytes, but layout.json width 70 takes 9"},
  {CH, 0, 0, NULL, 's', 0, "mt_rom_node0[", "mt_rom_node1[", ":6: the array must be named mt_rom_node0"},
  {CH, 0, 0, NULL, 's', 0, "MT_ROM_NODE0_WIDTH", "MT_ROM_NODE1_WIDTH", ":4: MT_ROM_NODE1_WIDTH names node 1; this is node 0's image"},
  {CH, 0, 0, NULL, 's', 0, "0x35,0x06,", "0x35,", ":7: row 0 has 8 bytes, expected 9"},
  {CH, 0, 0, NULL, 's', 0, "0x35,0x06,", "0x35,0x06,0x06,", ":7: row 0 has more than 9 bytes"},
  /* words that are not table entries, or not what they say */
  {HEX, 0, 0, NULL, 'r', 8, "$ZERO", NULL, ":8: word 5: step 0 is outside 1..6 (layout.json steps)"},
  {BIN, 0, 0, NULL, 'Z', 5, NULL, NULL, "node0.bin: word 5: step 0 is outside 1..6"},
  {HEX, 0, 0, NULL, 'r', 14, "1", NULL, ":14: word 11 after the END word (word 9) is not zero padding"},
  {HEX, 0, 2, NULL, 'D', 14, "13", NULL, "node2.hex: no END word in its 12 words"},
  {HEX, 0, 0, NULL, 'D', 5, "8", NULL, ":6: word 3: step 3 after an entry of step 4"},
  {HEX, 0, 2, NULL, 'M', 0, "nopflow", NULL, ":3: word 0: bits set outside the fields of its nop entry"},
  {HEX, 0, 0, NULL, 'M', 0, "port", NULL, ":3: word 0: parent: port 6 is outside 0..3"},
  {HEX, 1, 0, NULL, 'M', 0, "port", NULL, ":3: word 0: parent: port 1 leads to no single neighbour"},
  {HEX, 0, 0, NULL, 'M', 0, "self", NULL, ":3: word 0: parent: node 0 is not another node of 0..5"},
  {HEX, 0, 0, NULL, 'M', 0, "step", NULL, ":3: word 0: step 7 is outside 1..6"},
  {HEX, 0, 0, NULL, 'M', 0, "flow", NULL, ":3: word 0: node 0: entry names flow 6 of 6"},
  {HEX, 0, 0, NULL, 'M', 0, "chunk", NULL, ":3: word 0: its chunk of 680 bytes at 4088 is not inside the 4096-byte buffer"},
  /* the directory: a node file missing or extra */
  {HEX, 0, 0, NULL, 'm', 0, NULL, NULL, "node0.hex: cannot open"},
  {HEX, 0, 0, NULL, 'x', 0, "node6.hex", NULL, "node6.hex: an image layout.json does not account for (it lists 6 nodes"},
  {BIN, 0, 0, NULL, 'x', 0, "node01.bin", NULL, "node01.bin: an image layout.json does not account for"},
  /* layout.json fields out of range or inconsistent */
  {HEX, 0, 0, L, 's', 0, "\"width\": 70", "\"width\": 71", "width 71 disagrees with the layout derived from its fields (70"},
  {HEX, 0, 0, L, 's', 0, "\"depth\": 12", "\"depth\": 13", "the image ends with 12 of its 13 words"},
  {MIF, 0, 0, L, 's', 0, "\"depth\": 12", "\"depth\": 11", ":3: DEPTH=12, but layout.json depth is 11"},
  {HEX, 0, 0, L, 's', 0, "\"base_units\": 170", "\"base_units\": 171", "base_units = bytes/elem/flows"},
  {HEX, 1, 0, L, 's', 0, "\"rem_units\": 4", "\"rem_units\": 3", "rem_units = bytes/elem % flows"},
  {HEX, 0, 0, L, 's', 0, "\"elem\": 4", "\"elem\": 3", "bytes must be whole elements"},
  {HEX, 1, 0, L, 's', 0, "\"nop_bytes\": ", "\"nop_bytes\": 9", "exceeds bytes 4096"},
  {HEX, 0, 0, L, 's', 0, "\"lsb\": 2", "\"lsb\": 3", "the 'fields' list disagrees"},
  {HEX, 0, 0, L, 's', 0, "\"layout\": \"full\"", "\"layout\": \"fancy\"", "layout 'fancy' is neither full nor compact"},
  {HEX, 0, 0, L, 's', 0, "\"max_steps\": 10", "\"max_steps\": 11", "max_steps 11, but the layout makes it max(steps, 2*nodes-2) = 10"},
  {HEX, 0, 0, L, 's', 0, "\"steps\": 6", "\"steps\": 5", "step 6 is outside 1..5 (layout.json steps)"},
  {HEX, 0, 0, L, 's', 0, "\"depth\": 12", "\"depth\": 1", "field out of range"},
  {MEM, 0, 0, L, 's', 0, "\"image\": \"mem\"", "\"image\": \"rom\"", "unknown image format 'rom'"},
};
#undef L

static void test_damage_classes(void) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly[2];
  mt_err e;
  CHECK(mt_topo_from_name(&t, "mesh:2x3", &e) == 0 && mt_plan(&s, &t, "multitree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 0, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 0, &ly[0], &e) == 0 && mt_layout_for(&s, &tb, 1, &ly[1], &e) == 0, "%s", e.msg);
  CHECK(ly[0].width == 70 && mt_layout_depth(&tb) == 12 && tb.count[0] == 9 && tb.count[2] == 11, "the cases assume width 70, depth 12: %d %d",
        ly[0].width, mt_layout_depth(&tb));
  mkdir("build", 0777);
  mkdir("build/test_rom", 0777);
  int n = (int)(sizeof dmg_cases / sizeof dmg_cases[0]);
  int n_acc = 0, n_other = 0, n_bad = 0, n_good = 0;
  for (int i = 0; i < n; i++) {
    const dmg_case *c = &dmg_cases[i];
    const mt_layout *l = &ly[c->compact];
    char dir[128], path[400], name[64];
    snprintf(dir, sizeof dir, "build/test_rom/dmg%03d", i);
    mkdir(dir, 0777);
    clear_dir(dir);
    if (mt_rom_write_dir(&s, &tb, l, c->fmt, dir, &e)) {
      CHECK(0, "case %d: %s", i, e.msg);
      continue;
    }
    snprintf(name, sizeof name, "node%d.%s", c->node, mt_rom_format_name(c->fmt));
    snprintf(path, sizeof path, "%s/%s", dir, c->file ? c->file : name);
    int dr = c->op == 'M' ? mutate(path, c, l, &tb) : damage(path, c, l->width, dir);
    CHECK(dr == 0, "case %d: the damage did not apply to %s", i, path);
    mt_topo t2;
    mt_layout ly2;
    mt_tables tb2;
    e.msg[0] = 0;
    int rc = mt_rom_read_dir(dir, &t2, &ly2, &tb2, &e);
    if (!c->want) {
      n_good++;
      if (rc) printf("damage case %d (%s, must decode): refused: %s\n", i, name, e.msg);
      CHECK(rc == 0, "case %d (%s %c, must decode): %s", i, name, c->op, e.msg);
      if (!rc) {
        CHECK(same_tables(&tb, &tb2), "case %d: %s decodes to different tables", i, dir);
        mt_tables_free(&tb2);
        mt_topo_free(&t2);
      }
      continue;
    }
    n_bad++;
    char want[600];
    snprintf(want, sizeof want, "%s%s", c->want[0] == ':' ? name : "", c->want);
    if (!c->file && c->op != 'x') CHECK(strstr(e.msg, name), "case %d: the message does not name %s: %s", i, name, e.msg);
    n_acc += rc == 0;
    n_other += rc != 0 && !strstr(e.msg, want);
    if (rc == 0 || !strstr(e.msg, want)) printf("damage case %d (%s %s %c %s): %s\n", i, mt_rom_format_name(c->fmt), c->compact ? "compact" : "full", c->op, c->file ? c->file : name, rc ? "refused, other message" : "ACCEPTED");
    CHECK(rc != 0 && strstr(e.msg, want), "case %d (%s %s %c): want '%s', got %s: %s", i, mt_rom_format_name(c->fmt), c->compact ? "compact" : "full",
          c->op, want, rc ? "refused" : "ACCEPTED", e.msg);
    if (!rc) {
      mt_tables_free(&tb2);
      mt_topo_free(&t2);
    }
  }
  printf("damage cases: %d legal variants, %d damaged images: %d refused as expected, %d refused with another message, %d ACCEPTED\n", n_good, n_bad,
         n_bad - n_acc - n_other, n_other, n_acc);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

/* Round trip: every format x {full, compact} x {multitree, ring, hd} on torus:4x4 and
 * mesh:3x3 (hd needs 2^k nodes: dbtree there); combinations the compact layout cannot hold
 * are refused by mt_layout_for (checked in roundtrip()). */
static void test_roundtrip_matrix(void) {
  const char *topos[] = {"torus:4x4", "mesh:3x3"};
  const char *algos[][3] = {{"multitree", "ring", "hd"}, {"multitree", "ring", "dbtree"}};
  for (int ti = 0; ti < 2; ti++)
    for (int a = 0; a < 3; a++)
      for (int c = 0; c < 2; c++) roundtrip_ok(topos[ti], algos[ti][a], 1 << 20, c, 1);
}

/* rom --fit: a schedule's images in a wider hardware layout (configs/ni/fpga.cfg's widths) and
 * the hardware's table depth read back to the same tables; a depth below the tables' and a
 * narrower hardware field are refused. */
static void test_fit(void) {
  mt_topo t, t2;
  mt_sched s;
  mt_tables tb, tb2;
  mt_layout ly, hw, ly2;
  mt_err e;
  CHECK(mt_topo_from_name(&t, "torus:2x2", &e) == 0 && mt_plan(&s, &t, "multitree", 4096, 4, &e) == 0 && mt_sched_tables(&s, 3, &tb, &e) == 0, "%s", e.msg);
  CHECK(mt_layout_for(&s, &tb, 0, &ly, &e) == 0, "%s", e.msg);
  hw = ly;
  hw.flow_w = 3, hw.step_w = 4, hw.addr_w = 13, hw.size_w = 14, hw.children = 2;
  mt_layout_offsets(&hw);
  CHECK(hw.width == 60 && ly.width == 56, "widths %d %d", hw.width, ly.width);
  mt_layout narrow = hw;
  narrow.addr_w = ly.addr_w - 1;
  mt_layout_offsets(&narrow);
  mt_layout l3 = ly;
  CHECK(mt_layout_fit(&l3, &narrow, &e) != 0 && strstr(e.msg, "AddrW"), "a narrower AddrW accepted: %s", e.msg);
  CHECK(mt_layout_fit(&ly, &hw, &e) == 0 && ly.width == 60, "%s", e.msg);
  mkdir("build", 0777);
  mkdir("build/test_rom", 0777);
  const char *dir = "build/test_rom/fit_bram";
  CHECK(mt_rom_write_dir_depth(&s, &tb, &ly, MT_ROM_BRAM, 6, dir, &e) != 0 && strstr(e.msg, "need 7 words"), "depth 6 accepted: %s", e.msg);
  CHECK(mt_rom_write_dir_depth(&s, &tb, &ly, MT_ROM_BRAM, 512, dir, &e) == 0, "%s", e.msg);
  CHECK(mt_rom_read_dir(dir, &t2, &ly2, &tb2, &e) == 0, "%s", e.msg);
  CHECK(ly2.width == 60 && ly2.addr_w == 13 && ly2.children == 2, "read back width %d addr_w %d children %d", ly2.width, ly2.addr_w, ly2.children);
  CHECK(same_tables(&tb, &tb2), "fitted images decode to other tables");
  mt_tables_free(&tb2);
  mt_topo_free(&t2);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
}

int main(void) {
  roundtrip("mesh:2x2", "multitree", 1024, 0);
  roundtrip("mesh:2x2", "multitree", 1024, 1);
  roundtrip("torus:4x4", "multitree", 65536 + 12, 0);
  roundtrip("torus:4x4", "multitree", 65536 + 12, 1);
  roundtrip("mesh:3x5", "multitree", 12000, 1);
  roundtrip("mesh:3x5", "ring", 12000, 0); /* routed closing hop */
  roundtrip("torus:8x8", "multitree", 1 << 20, 1);
  roundtrip("fattree:4,2", "multitree", 4096, 0);
  roundtrip("torus:4x4", "dbtree", 4096, 0);
  test_fields();
  test_damaged();
  test_damage_classes();
  test_roundtrip_matrix();
  test_fit();
  return MT_TEST_END("test_rom");
}
