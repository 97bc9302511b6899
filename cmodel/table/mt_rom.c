/* SPDX-License-Identifier: Apache-2.0
 * mt_rom: ROM image writers and readers. */
#include "table/mt_rom.h"
#include "table/mt_json.h"
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const fmt_names[] = {"hex", "mif", "coe", "mem", "bin", "h"};

int mt_rom_format(const char *name) {
  for (int i = 0; i < MT_ROM_NFORMATS; i++)
    if (!strcmp(name, fmt_names[i])) return i;
  return -1;
}
const char *mt_rom_format_name(int fmt) { return fmt >= 0 && fmt < MT_ROM_NFORMATS ? fmt_names[fmt] : "?"; }


/* word as ceil(width/4) hex digits, most significant first */
static void word_hex(const mt_layout *ly, const uint64_t *w, char *out) {
  int nd = (ly->width + 3) / 4;
  for (int d = 0; d < nd; d++) {
    int bit = (nd - 1 - d) * 4;
    unsigned v = (unsigned)((w[bit / 64] >> (bit % 64)) & 0xF);
    out[d] = "0123456789abcdef"[v];
  }
  out[nd] = 0;
}
static int nbytes(const mt_layout *ly) { return (ly->width + 7) / 8; }
static unsigned word_byte(const uint64_t *w, int i) { return (unsigned)((w[i / 8] >> (8 * (i % 8))) & 0xFF); }

static int write_image(const mt_layout *ly, int fmt, const char *path, const uint64_t *words, int depth, int node,
                       const char *what, mt_err *e) {
  FILE *f = fopen(path, fmt == MT_ROM_BIN ? "wb" : "w");
  if (!f) return mt_fail(e, "%s: cannot create: %s", path, strerror(errno));
  const int nw = mt_layout_words(ly), W = ly->width, D = depth;
  char hex[MT_LAYOUT_MAX_WORDS * 16 + 1];
  switch (fmt) {
  case MT_ROM_HEX:
    fprintf(f, "// multitree schedule table, node %d: %s\n// %s layout, %d bits x %d words (layout.json)\n", node, what, ly->compact ? "compact" : "full", W, D);
    for (int i = 0; i < D; i++) {
      word_hex(ly, words + (size_t)i * nw, hex);
      fprintf(f, "%s\n", hex);
    }
    break;
  case MT_ROM_MIF:
    fprintf(f, "-- multitree schedule table, node %d: %s\nWIDTH=%d;\nDEPTH=%d;\nADDRESS_RADIX=UNS;\nDATA_RADIX=HEX;\nCONTENT BEGIN\n", node, what, W, D);
    for (int i = 0; i < D; i++) {
      word_hex(ly, words + (size_t)i * nw, hex);
      fprintf(f, "    %d : %s;\n", i, hex);
    }
    fprintf(f, "END;\n");
    break;
  case MT_ROM_COE:
    fprintf(f, "; multitree schedule table, node %d: %s (%d bits x %d words)\nmemory_initialization_radix=16;\nmemory_initialization_vector=\n", node, what, W, D);
    for (int i = 0; i < D; i++) {
      word_hex(ly, words + (size_t)i * nw, hex);
      fprintf(f, "%s%s\n", hex, i == D - 1 ? ";" : ",");
    }
    break;
  case MT_ROM_MEM:
    if (W > 256) {
      fclose(f);
      return mt_fail(e, "Lattice .mem holds words up to 256 bits; this layout has %d (use --compact or another format)", W);
    }
    fprintf(f, "#Format=Hex\n#Depth=%d\n#Width=%d\n#AddrRadix=3\n#DataRadix=3\n#Data\n", D, W);
    for (int i = 0; i < D; i++) {
      word_hex(ly, words + (size_t)i * nw, hex);
      fprintf(f, "%s\n", hex);
    }
    fprintf(f, "# multitree schedule table, node %d: %s\n", node, what);
    break;
  case MT_ROM_BIN:
    for (int i = 0; i < D; i++)
      for (int b = 0; b < nbytes(ly); b++) fputc((int)word_byte(words + (size_t)i * nw, b), f);
    break;
  case MT_ROM_CHDR:
    fprintf(f, "/* multitree schedule table, node %d: %s.\n * %s layout (layout.json); word i is bytes [i][0..%d], least significant first. */\n",
            node, what, ly->compact ? "compact" : "full", nbytes(ly) - 1);
    fprintf(f, "#include <stdint.h>\n#define MT_ROM_NODE%d_WIDTH %d\n#define MT_ROM_NODE%d_DEPTH %d\n", node, W, node, D);
    fprintf(f, "static const uint8_t mt_rom_node%d[%d][%d] = {\n", node, D, nbytes(ly));
    for (int i = 0; i < D; i++) {
      fprintf(f, "  {");
      for (int b = 0; b < nbytes(ly); b++) fprintf(f, "%s0x%02x", b ? "," : "", word_byte(words + (size_t)i * nw, b));
      fprintf(f, "}%s\n", i == D - 1 ? "" : ",");
    }
    fprintf(f, "};\n");
    break;
  default:
    fclose(f);
    return mt_fail(e, "unknown ROM format %d", fmt);
  }
  if (fclose(f)) return mt_fail(e, "%s: write error", path);
  return 0;
}

static json_t *layout_json(const mt_sched *s, const mt_layout *ly, int fmt, int depth) {
  json_t *o = json_object();
  json_object_set_new(o, "format", json_string("multitree-rom/1"));
  json_object_set_new(o, "image", json_string(fmt_names[fmt]));
  json_object_set_new(o, "layout", json_string(ly->compact ? "compact" : "full"));
  json_object_set_new(o, "algorithm", json_string(s->algo));
  json_object_set_new(o, "topology", mt_json_topology(s->topo));
  json_object_set_new(o, "width", json_integer(ly->width));
  json_object_set_new(o, "depth", json_integer(depth));
  json_object_set_new(o, "nodes", json_integer(ly->n_nodes));
  json_object_set_new(o, "ports", json_integer(ly->ports));
  json_object_set_new(o, "local_ports", json_integer(ly->local_ports));
  json_object_set_new(o, "children", json_integer(ly->children));
  json_object_set_new(o, "flows", json_integer(ly->n_flows));
  json_object_set_new(o, "max_steps", json_integer(ly->max_steps));
  json_object_set_new(o, "steps", json_integer(s->steps));
  json_object_set_new(o, "bytes", json_integer((json_int_t)ly->bytes));
  json_object_set_new(o, "elem", json_integer(ly->elem));
  json_object_set_new(o, "base_units", json_integer((json_int_t)ly->base_units));
  json_object_set_new(o, "rem_units", json_integer((json_int_t)ly->rem_units));
  json_object_set_new(o, "nop_bytes", json_integer((json_int_t)ly->nop_bytes));
  json_t *fl = json_array();
#define FIELD(nm, lsb, w) \
  do { \
    json_t *x = json_object(); \
    json_object_set_new(x, "name", json_string(nm)); \
    json_object_set_new(x, "lsb", json_integer(lsb)); \
    json_object_set_new(x, "width", json_integer(w)); \
    json_array_append_new(fl, x); \
  } while (0)
  FIELD("op", ly->o_op, ly->op_w);
  FIELD("flow", ly->o_flow, ly->flow_w);
  FIELD("step", ly->o_step, ly->step_w);
  for (int c = -1; c < ly->children; c++) {
    char nm[48];
    int o2 = c < 0 ? ly->o_parent : ly->o_child + c * ly->slot_w;
    const char *base = c < 0 ? "parent" : "child";
    char idx[16] = "";
    if (c >= 0) snprintf(idx, sizeof idx, "%d", c);
    snprintf(nm, sizeof nm, "%s%s.valid", base, idx);
    FIELD(nm, o2, 1);
    o2 += 1;
    if (!ly->compact) {
      snprintf(nm, sizeof nm, "%s%s.node", base, idx);
      FIELD(nm, o2, ly->id_w);
      o2 += ly->id_w;
    }
    snprintf(nm, sizeof nm, "%s%s.port", base, idx);
    FIELD(nm, o2, ly->port_w);
    o2 += ly->port_w;
    snprintf(nm, sizeof nm, "%s%s.eject", base, idx);
    FIELD(nm, o2, ly->ej_w);
  }
  if (!ly->compact) {
    FIELD("addr", ly->o_addr, ly->addr_w);
    FIELD("size", ly->o_size, ly->size_w);
  }
#undef FIELD
  json_object_set_new(o, "fields", fl);
  return o;
}

int mt_rom_write_dir(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, int fmt, const char *dir, mt_err *e) {
  if (fmt < 0 || fmt >= MT_ROM_NFORMATS) return mt_fail(e, "unknown ROM format");
  if (mkdir(dir, 0777) && errno != EEXIST) return mt_fail(e, "%s: cannot create directory: %s", dir, strerror(errno));
  const int D = mt_layout_depth(tb), nw = mt_layout_words(ly);
  uint64_t *words = mt_xcalloc((size_t)D * nw, 8);
  char path[4096], what[400];
  snprintf(what, sizeof what, "%s on %s, %llu bytes", s->algo, s->topo->spec, (unsigned long long)s->bytes);
  for (int n = 0; n < tb->n_nodes; n++) {
    mt_layout_node_image(ly, tb, n, D, nw, words);
    snprintf(path, sizeof path, "%s/node%d.%s", dir, n, fmt_names[fmt]);
    if (write_image(ly, fmt, path, words, D, n, what, e)) {
      free(words);
      return -1;
    }
  }
  free(words);
  json_t *lj = layout_json(s, ly, fmt, D);
  snprintf(path, sizeof path, "%s/layout.json", dir);
  int rc = json_dump_file(lj, path, JSON_INDENT(1));
  json_decref(lj);
  if (rc) return mt_fail(e, "%s: cannot write", path);
  return 0;
}

/* ---------------- reading ---------------- */

static int parse_hexword(const mt_layout *ly, const char *tok, size_t len, uint64_t *w, const char *path, int idx, mt_err *e) {
  const int nw = mt_layout_words(ly);
  memset(w, 0, (size_t)nw * 8);
  int bit = 0;
  for (size_t i = len; i-- > 0;) {
    char c = tok[i];
    if (c == '_') continue;
    int v = isdigit((unsigned char)c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
      : (c >= 'A' && c <= 'F')                                           ? c - 'A' + 10
                                                                         : -1;
    if (v < 0) return mt_fail(e, "%s: word %d: '%.*s' is not hexadecimal", path, idx, (int)len, tok);
    for (int b = 0; b < 4; b++, bit++) {
      if (!((v >> b) & 1)) continue;
      if (bit >= ly->width) return mt_fail(e, "%s: word %d has more than %d bits", path, idx, ly->width);
      w[bit / 64] |= 1ull << (bit % 64);
    }
  }
  return 0;
}

static char *slurp(const char *path, size_t *len, mt_err *e) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    mt_fail(e, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = mt_xcalloc(cap, 1);
  size_t r;
  while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 >= cap) {
      cap *= 2;
      buf = mt_xrealloc(buf, cap);
    }
  }
  fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

int mt_rom_read_image(const char *path, int fmt, const mt_layout *ly, int depth, uint64_t *words, mt_err *e) {
  const int nw = mt_layout_words(ly);
  size_t len;
  char *buf = slurp(path, &len, e);
  if (!buf) return -1;
  memset(words, 0, (size_t)depth * nw * 8);
  int n = 0, rc = -1;
  char *p = buf;
  if (fmt == MT_ROM_BIN) {
    size_t nb = (size_t)nbytes(ly);
    if (len != nb * (size_t)depth) {
      mt_fail(e, "%s: %zu bytes, expected %d words of %zu bytes", path, len, depth, nb);
      goto out;
    }
    for (int i = 0; i < depth; i++)
      for (size_t b = 0; b < nb; b++) words[(size_t)i * nw + b / 8] |= (uint64_t)(unsigned char)buf[(size_t)i * nb + b] << (8 * (b % 8));
    rc = 0;
    goto out;
  }
  if (fmt == MT_ROM_CHDR) {
    char *q = strstr(buf, "] = {");
    if (!q) {
      mt_fail(e, "%s: no array initialiser found", path);
      goto out;
    }
    p = q + 5;
    int nb = nbytes(ly), b = 0;
    while (*p) {
      if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        char *end;
        unsigned long v = strtoul(p + 2, &end, 16);
        if (end == p + 2 || v > 255) {
          mt_fail(e, "%s: bad byte near '%.8s'", path, p);
          goto out;
        }
        if (n >= depth) {
          mt_fail(e, "%s: more than %d words", path, depth);
          goto out;
        }
        words[(size_t)n * nw + b / 8] |= (uint64_t)v << (8 * (b % 8));
        if (++b == nb) {
          b = 0;
          n++;
        }
        p = end;
      } else if (*p == ';') break;
      else p++;
    }
    if (n != depth || b) {
      mt_fail(e, "%s: %d whole words, expected %d", path, n, depth);
      goto out;
    }
    rc = 0;
    goto out;
  }
  if (fmt == MT_ROM_COE) {
    char *q = strstr(buf, "memory_initialization_vector");
    if (!q || !(q = strchr(q, '='))) {
      mt_fail(e, "%s: no memory_initialization_vector", path);
      goto out;
    }
    p = q + 1;
  } else if (fmt == MT_ROM_MIF) {
    char *q = strstr(buf, "CONTENT BEGIN");
    if (!q) {
      mt_fail(e, "%s: no CONTENT BEGIN", path);
      goto out;
    }
    p = q + 13;
  } else if (fmt == MT_ROM_MEM) {
    char *q = buf; /* the line that is exactly "#Data" (not "#DataRadix=") */
    while ((q = strstr(q, "#Data")) && q[5] != '\n' && q[5] != '\r') q += 5;
    if (!q) {
      mt_fail(e, "%s: no #Data line", path);
      goto out;
    }
    p = q + 5;
  }
  while (*p) {
    if (isspace((unsigned char)*p) || *p == ',') {
      p++;
      continue;
    }
    if ((p[0] == '/' && p[1] == '/') || *p == '#' || (fmt == MT_ROM_MIF && p[0] == '-' && p[1] == '-')) {
      while (*p && *p != '\n') p++;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      char *q = strstr(p + 2, "*/");
      if (!q) break;
      p = q + 2;
      continue;
    }
    if (fmt == MT_ROM_COE && *p == ';') break;
    if (fmt == MT_ROM_MIF && !strncmp(p, "END", 3)) break;
    if (fmt == MT_ROM_HEX && *p == '@') {
      char *end;
      long a = strtol(p + 1, &end, 16);
      if (end == p + 1 || a < 0 || a >= depth) {
        mt_fail(e, "%s: bad address '%.10s'", path, p);
        goto out;
      }
      n = (int)a;
      p = end;
      continue;
    }
    char *start = p;
    if (fmt == MT_ROM_MIF) {
      char *end;
      long a = strtol(p, &end, 10);
      if (end == p || *end == 0) {
        mt_fail(e, "%s: expected 'address : data;' near '%.12s'", path, p);
        goto out;
      }
      while (*end == ' ' || *end == '\t') end++;
      if (*end != ':' || a < 0 || a >= depth) {
        mt_fail(e, "%s: expected 'address : data;' near '%.12s'", path, p);
        goto out;
      }
      n = (int)a;
      p = end + 1;
      while (*p == ' ' || *p == '\t') p++;
      start = p;
    }
    while (*p && (isxdigit((unsigned char)*p) || *p == '_')) p++;
    if (p == start) {
      mt_fail(e, "%s: unexpected '%.10s'", path, p);
      goto out;
    }
    if (n >= depth) {
      mt_fail(e, "%s: more than %d words", path, depth);
      goto out;
    }
    if (parse_hexword(ly, start, (size_t)(p - start), words + (size_t)n * nw, path, n, e)) goto out;
    n++;
    if (fmt == MT_ROM_MIF) {
      while (*p == ' ' || *p == '\t') p++;
      if (*p != ';') {
        mt_fail(e, "%s: word %d: missing ';'", path, n - 1);
        goto out;
      }
      p++;
    }
  }
  if (n != depth && fmt != MT_ROM_MIF) {
    mt_fail(e, "%s: %d words, expected %d (a short image would load as X in simulation)", path, n, depth);
    goto out;
  }
  rc = 0;
out:
  free(buf);
  return rc;
}

static int jint(json_t *o, const char *k, long long *v) {
  json_t *x = json_object_get(o, k);
  if (!json_is_integer(x)) return -1;
  *v = json_integer_value(x);
  return 0;
}

int mt_rom_read_dir(const char *dir, mt_topo *t, mt_layout *ly, mt_tables *tb, mt_err *e) {
  char path[4096];
  snprintf(path, sizeof path, "%s/layout.json", dir);
  json_error_t je;
  json_t *o = json_load_file(path, 0, &je);
  memset(tb, 0, sizeof *tb);
  memset(t, 0, sizeof *t);
  if (!o) return mt_fail(e, "%s:%d: %s", path, je.line, je.text);
  int rc = -1;
  long long width, depth, N, ports, L, C, F, steps, bytes, elem, base, rem, nopb, msteps;
  json_t *fm = json_object_get(o, "format"), *im = json_object_get(o, "image"), *lay = json_object_get(o, "layout");
  if (!json_is_string(fm) || strcmp(json_string_value(fm), "multitree-rom/1") || !json_is_string(im) || !json_is_string(lay)) {
    mt_fail(e, "%s: not a multitree-rom/1 layout file", path);
    goto done;
  }
  if (jint(o, "width", &width) || jint(o, "depth", &depth) || jint(o, "nodes", &N) || jint(o, "ports", &ports) ||
      jint(o, "local_ports", &L) || jint(o, "children", &C) || jint(o, "flows", &F) || jint(o, "steps", &steps) ||
      jint(o, "bytes", &bytes) || jint(o, "elem", &elem) || jint(o, "base_units", &base) || jint(o, "rem_units", &rem) ||
      jint(o, "nop_bytes", &nopb) || jint(o, "max_steps", &msteps)) {
    mt_fail(e, "%s: a numeric field is missing", path);
    goto done;
  }
  if (N < 2 || N > MT_MAX_NODES || depth < 1 || depth > 1000000 || C < 1 || C > 4096 || F < 1 || elem < 1 || bytes < 1) {
    mt_fail(e, "%s: field out of range", path);
    goto done;
  }
  int fmt = mt_rom_format(json_string_value(im));
  if (fmt < 0) {
    mt_fail(e, "%s: unknown image format '%s'", path, json_string_value(im));
    goto done;
  }
  int compact = !strcmp(json_string_value(lay), "compact");
  if (mt_json_topology_parse(json_object_get(o, "topology"), path, t, e)) goto done;
  /* the layout's sizes must be those of its topology (the decoder looks node ids up through
   * it) and in the ranges the writer can produce, else a field width goes out of range */
  {
    const char *bad = NULL;
    if (N != t->n_nodes) bad = "nodes";
    else if (ports != t->max_ports) bad = "ports";
    else if (L < 1 || L > 64) bad = "local_ports";
    else if (F > 1 << 20) bad = "flows";
    else if (steps < 1 || msteps < steps || msteps > 1 << 20) bad = steps < 1 ? "steps" : "max_steps";
    else if (bytes > (1ll << 40)) bad = "bytes";
    else if (elem > 64) bad = "elem";
    else if (base < 0 || rem < 0 || rem >= F || nopb < 0) bad = base < 0 ? "base_units" : nopb < 0 ? "nop_bytes"
                                                                                                   : "rem_units";
    if (bad) {
      mt_fail(e, "%s: field '%s' does not fit topology %s (%d nodes, %d ports per node) or is out of range "
                 "(nodes %lld, ports %lld, local_ports %lld: 1..64, flows %lld: 1..2^20, steps %lld <= max_steps %lld <= 2^20, "
                 "bytes %lld: 1..2^40, elem %lld: 1..64, rem_units %lld < flows)",
              path, bad, t->spec, t->n_nodes, t->max_ports, N, ports, L, F, steps, msteps, bytes, elem, rem);
      mt_topo_free(t);
      goto done;
    }
  }
  mt_layout_make(ly, compact, (int)N, (int)ports, (int)L, (int)C, (int)F, (uint64_t)bytes, (int)msteps);
  ly->elem = (int)elem;
  ly->base_units = (uint64_t)base;
  ly->rem_units = (uint64_t)rem;
  ly->nop_bytes = (uint64_t)nopb;
  if (ly->width != width) {
    mt_fail(e, "%s: width %lld disagrees with the layout derived from its fields (%d)", path, width, ly->width);
    mt_topo_free(t);
    goto done;
  }
  const int nw = mt_layout_words(ly);
  uint64_t *words = mt_xcalloc((size_t)depth * nw, 8);
  tb->n_nodes = (int)N;
  tb->n_flows = (int)F;
  tb->steps = (int)steps;
  tb->local_ports = (int)L;
  tb->entries = mt_xcalloc((size_t)N * depth, sizeof(mt_entry));
  tb->slots = mt_xcalloc((size_t)N * depth * C, sizeof(mt_slot));
  tb->start = mt_xcalloc((size_t)N, sizeof(int));
  tb->count = mt_xcalloc((size_t)N, sizeof(int));
  for (int n = 0; n < N; n++) {
    snprintf(path, sizeof path, "%s/node%d.%s", dir, n, fmt_names[fmt]);
    if (mt_rom_read_image(path, fmt, ly, (int)depth, words, e)) {
      free(words);
      mt_tables_free(tb);
      mt_topo_free(t);
      goto done;
    }
    tb->start[n] = tb->n_entries;
    int ended = 0;
    for (int i = 0; i < depth; i++) {
      mt_entry *en = &tb->entries[tb->n_entries];
      int op = mt_layout_decode(ly, t, n, words + (size_t)i * nw, en, tb->slots + tb->n_slots, e);
      if (op < 0) {
        free(words);
        mt_tables_free(tb);
        mt_topo_free(t);
        goto done;
      }
      if (op == MT_OP_END) {
        ended = 1;
        break;
      }
      tb->n_slots += en->nchild;
      tb->n_entries++;
    }
    if (!ended) {
      mt_fail(e, "%s: no END word", path);
      free(words);
      mt_tables_free(tb);
      mt_topo_free(t);
      goto done;
    }
    tb->count[n] = tb->n_entries - tb->start[n];
    if (tb->count[n] > tb->max_entries) tb->max_entries = tb->count[n];
  }
  free(words);
  rc = 0;
done:
  json_decref(o);
  return rc;
}
