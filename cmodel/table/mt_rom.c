/* SPDX-License-Identifier: Apache-2.0
 * mt_rom: ROM image writers and readers. */
#include "table/mt_rom.h"
#include "table/mt_json.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "util/mt_io.h"
#include "util/mt_num.h"

static const char *const fmt_names[] = {"hex", "mif", "coe", "mem", "bin", "h", "bram"};

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
  mt_out out;
  FILE *f = mt_out_open(&out, path, fmt == MT_ROM_BIN ? "wb" : "w");
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
  case MT_ROM_BRAM: /* no header: ecpbram and icebram parse hexadecimal digits only */
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
      mt_out_close(&out, 0);
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
    mt_out_close(&out, 0);
    return mt_fail(e, "unknown ROM format %d", fmt);
  }
  if (mt_out_close(&out, 1)) return mt_fail(e, "%s: write error: %s", path, strerror(errno));
  return 0;
}

/* every field's name, lsb and width, as layout.json lists them */
static json_t *fields_json(const mt_layout *ly) {
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
  return fl;
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
  json_object_set_new(o, "fields", fields_json(ly));
  return o;
}

int mt_rom_write_dir(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, int fmt, const char *dir, mt_err *e) {
  return mt_rom_write_dir_depth(s, tb, ly, fmt, mt_layout_depth(tb), dir, e);
}

int mt_rom_write_dir_depth(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, int fmt, int depth, const char *dir, mt_err *e) {
  if (fmt < 0 || fmt >= MT_ROM_NFORMATS) return mt_fail(e, "unknown ROM format");
  if (depth < mt_layout_depth(tb))
    return mt_fail(e, "the tables need %d words (the longest table and its END word), the images hold %d", mt_layout_depth(tb), depth);
  if (mkdir(dir, 0777) && errno != EEXIST) return mt_fail(e, "%s: cannot create directory: %s", dir, strerror(errno));
  const int D = depth, nw = mt_layout_words(ly);
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
  mt_out out;
  FILE *f = mt_out_open(&out, path, "w");
  int rc = !f || mt_out_close(&out, !json_dumpf(lj, f, JSON_INDENT(1)));
  json_decref(lj);
  if (rc) return mt_fail(e, "%s: cannot write: %s", path, strerror(errno));
  return 0;
}


/* ---------------- reading a directory back ---------------- */

/* The integer field k of o into *v: 0, or -1 with the reason in e (missing, or of another type). */
static int jint(json_t *o, const char *path, const char *k, long long *v, mt_err *e) {
  json_t *x = json_object_get(o, k);
  if (json_is_integer(x)) {
    *v = json_integer_value(x);
    return 0;
  }
  if (!x) return mt_fail(e, "%s: field '%s' is missing (an integer expected)", path, k);
  const char *ty = json_is_string(x) ? "a string" : json_is_real(x) ? "a real number"
    : json_is_boolean(x)                                            ? "a boolean"
    : json_is_null(x)                                               ? "null"
                                                                    : "an object or array";
  return mt_fail(e, "%s: field '%s' is %s where an integer is expected", path, k, ty);
}

/* A file node<k>.<ext> of the image format that layout.json does not account for (k >= N,
 * or k spelled with leading zeros) means a directory mixed from two schedules. */
static int stray_images(const char *dir, int fmt, int N, mt_err *e) {
  DIR *d = opendir(dir);
  if (!d) return mt_fail(e, "%s: cannot open directory: %s", dir, strerror(errno));
  const struct dirent *de;
  while ((de = readdir(d))) {
    const char *nm = de->d_name;
    if (strncmp(nm, "node", 4) || !isdigit((unsigned char)nm[4])) continue;
    const char *end = nm + 4 + strspn(nm + 4, "0123456789"), *dg = nm + 4;
    if (*end != '.' || strcmp(end + 1, fmt_names[fmt])) continue;
    int k;
    /* node<k>, k < N without leading zeros: an image of this schedule */
    if (N > 0 && !mt_scan_int(&dg, &k, N - 1) && dg == end && (nm[4] != '0' || end == nm + 5)) continue;
    mt_fail(e, "%s/%s: an image layout.json does not account for (it lists %d nodes: node0.%s .. node%d.%s)", dir, nm, N, fmt_names[fmt], N - 1,
            fmt_names[fmt]);
    closedir(d);
    return -1;
  }
  closedir(d);
  return 0;
}

/* Why a decoded entry is not what its word says or not a table entry (NULL: it is): every
 * bit set lies in a field the entry uses, its step is one of the schedule's and in order,
 * its slots name real ports, ejection ports and nodes, and its chunk lies in the buffer. */
static const char *entry_fault(const mt_layout *ly, int steps, int node, const uint64_t *w, const mt_entry *en, int prev_step, char *why,
                               size_t n) {
  uint64_t re[MT_LAYOUT_MAX_WORDS];
  mt_layout_encode(ly, en, re);
  if (memcmp(re, w, (size_t)mt_layout_words(ly) * 8)) {
    snprintf(why, n, "bits set outside the fields of its %s entry", mt_op_name(en->op));
    return why;
  }
  if (en->step < 1 || en->step > steps) snprintf(why, n, "step %d is outside 1..%d (layout.json steps)", en->step, steps);
  else if (en->step < prev_step) snprintf(why, n, "step %d after an entry of step %d (a table is in step order)", en->step, prev_step);
  else if (!ly->compact && en->op != MT_OP_NOP && (en->size == 0 || en->addr + en->size > ly->bytes))
    snprintf(why, n, "its chunk of %llu bytes at %llu is not inside the %llu-byte buffer", (unsigned long long)en->size, (unsigned long long)en->addr,
             (unsigned long long)ly->bytes);
  else if (en->op == MT_OP_NOP && en->size > ly->bytes)
    snprintf(why, n, "NOP size %llu exceeds the %llu-byte buffer", (unsigned long long)en->size, (unsigned long long)ly->bytes);
  else {
    for (int k = -1; k < en->nchild; k++) {
      const mt_slot *sl = k < 0 ? &en->parent : &en->child[k];
      char nm[24];
      if (k < 0 && !en->has_parent) continue;
      snprintf(nm, sizeof nm, k < 0 ? "parent" : "child %d", k);
      if (sl->port == MT_PORT_ROUTED && ly->compact) snprintf(why, n, "%s: a routed port (all ones) in the compact layout (one-hop only)", nm);
      else if (sl->port != MT_PORT_ROUTED && sl->port >= ly->ports)
        snprintf(why, n, "%s: port %d is outside 0..%d (all ones = routed)", nm, sl->port, ly->ports - 1);
      else if (sl->eject >= ly->local_ports) snprintf(why, n, "%s: ejection port %d is outside 0..%d (layout.json local_ports)", nm, sl->eject, ly->local_ports - 1);
      else if (!ly->compact && (sl->node >= ly->n_nodes || sl->node == node))
        snprintf(why, n, "%s: node %d is not another node of 0..%d", nm, sl->node, ly->n_nodes - 1);
      else if (ly->compact && sl->node < 0)
        snprintf(why, n, "%s: port %d leads to no single neighbour (the compact layout takes the node from the port)", nm, sl->port);
      else continue;
      return why;
    }
    return NULL;
  }
  return why;
}

/* ly widened to the field widths that layout.json's 'fields' list fl gives, where each is at
 * least ly's (images written in a hardware's layout: rom --fit, mt_layout_fit); else ly is
 * left as it is (the width and 'fields' checks then refuse the file). */
static void widen_to_fields(json_t *fl, mt_layout *ly) {
  static const char *const nm[] = {"flow", "step", "parent.node", "parent.port", "parent.eject", "addr", "size"};
  mt_layout hw = *ly;
  int *w[] = {&hw.flow_w, &hw.step_w, &hw.id_w, &hw.port_w, &hw.ej_w, &hw.addr_w, &hw.size_w};
  size_t i;
  json_t *x;
  json_array_foreach(fl, i, x) {
    const char *n = json_string_value(json_object_get(x, "name"));
    json_t *wj = json_object_get(x, "width");
    for (size_t k = 0; n && json_is_integer(wj) && k < sizeof nm / sizeof nm[0]; k++)
      if (!strcmp(n, nm[k]) && json_integer_value(wj) >= 1 && json_integer_value(wj) <= 32) *w[k] = (int)json_integer_value(wj);
  }
  mt_layout_offsets(&hw);
  mt_err e2;
  (void)mt_layout_fit(ly, &hw, &e2); /* leaves ly unchanged when a field is narrower */
}

/* Checks layout.json against its topology and itself, derives the layout into ly (widened to
 * its fields' widths when they are wider: widen_to_fields). */
static int read_layout(json_t *o, const char *path, mt_topo *t, mt_layout *ly, int *fmt, long long *depth, long long *steps, mt_err *e) {
  long long width, N, ports, L, C, F, bytes, elem, base, rem, nopb, msteps;
  json_t *fm = json_object_get(o, "format"), *im = json_object_get(o, "image"), *lay = json_object_get(o, "layout");
  if (!json_is_string(fm) || strcmp(json_string_value(fm), "multitree-rom/1") || !json_is_string(im) || !json_is_string(lay))
    return mt_fail(e, "%s: not a multitree-rom/1 layout file", path);
  if (jint(o, path, "width", &width, e) || jint(o, path, "depth", depth, e) || jint(o, path, "nodes", &N, e) || jint(o, path, "ports", &ports, e) ||
      jint(o, path, "local_ports", &L, e) || jint(o, path, "children", &C, e) || jint(o, path, "flows", &F, e) || jint(o, path, "steps", steps, e) ||
      jint(o, path, "bytes", &bytes, e) || jint(o, path, "elem", &elem, e) || jint(o, path, "base_units", &base, e) || jint(o, path, "rem_units", &rem, e) ||
      jint(o, path, "nop_bytes", &nopb, e) || jint(o, path, "max_steps", &msteps, e))
    return -1;
  if (N < 2 || N > MT_MAX_NODES || *depth < 2 || *depth > 1 << 20 || C < 1 || C > 4096 || F < 1 || elem < 1 || bytes < 1)
    return mt_fail(e, "%s: field out of range (nodes 2..%d, depth 2..2^20, children 1..4096, flows, elem, bytes >= 1)", path, MT_MAX_NODES);
  if ((*fmt = mt_rom_format(json_string_value(im))) < 0)
    return mt_fail(e, "%s: unknown image format '%s' (hex, mif, coe, mem, bin, h, bram)", path, json_string_value(im));
  const char *ls = json_string_value(lay);
  if (strcmp(ls, "full") && strcmp(ls, "compact")) return mt_fail(e, "%s: layout '%s' is neither full nor compact", path, ls);
  const int compact = !strcmp(ls, "compact");
  if (mt_json_topology_parse(json_object_get(o, "topology"), path, t, e)) return -1;
  /* the layout's sizes must be those of its topology (the decoder looks node ids up through
   * it) and in the ranges the writer can produce, else a field width goes out of range */
  const char *bad = NULL;
  if (N != t->n_nodes) bad = "nodes";
  else if (ports != mt_topo_node_ports(t)) bad = "ports";
  else if (L < 1 || L > 64) bad = "local_ports";
  else if (F > 1 << 20) bad = "flows";
  else if (*steps < 1 || msteps < *steps || msteps > 1 << 20) bad = *steps < 1 ? "steps" : "max_steps";
  else if (bytes > (1ll << 40)) bad = "bytes";
  else if (elem > 64) bad = "elem";
  else if (base < 0 || rem < 0 || rem >= F || nopb < 0) bad = base < 0 ? "base_units" : nopb < 0 ? "nop_bytes"
                                                                                                 : "rem_units";
  if (bad) {
    mt_fail(e, "%s: field '%s' does not fit topology %s (%d nodes, %d ports per node) or is out of range "
               "(nodes %lld, ports %lld, local_ports %lld: 1..64, flows %lld: 1..2^20, steps %lld <= max_steps %lld <= 2^20, "
               "bytes %lld: 1..2^40, elem %lld: 1..64, rem_units %lld < flows)",
            path, bad, t->spec, t->n_nodes, mt_topo_node_ports(t), N, ports, L, F, *steps, msteps, bytes, elem, rem);
    goto fail;
  }
  /* the chunk tiling and the NOP estimate follow from bytes, elem and flows */
  const long long units = bytes / elem;
  if (bytes % elem || units / F != base || units % F != rem || base < 1) {
    mt_fail(e, "%s: fields bytes %lld, elem %lld, flows %lld, base_units %lld, rem_units %lld disagree: bytes must be whole elements, "
               "base_units = bytes/elem/flows >= 1, rem_units = bytes/elem %% flows",
            path, bytes, elem, F, base, rem);
    goto fail;
  }
  if (nopb > bytes) {
    mt_fail(e, "%s: field nop_bytes %lld exceeds bytes %lld", path, nopb, bytes);
    goto fail;
  }
  if (compact && t->n_sw) {
    mt_fail(e, "%s: the compact layout is for direct networks; %s has switches", path, t->spec);
    goto fail;
  }
  mt_layout_make(ly, compact, (int)N, (int)ports, (int)L, (int)C, (int)F, (uint64_t)bytes, (int)msteps);
  ly->elem = (int)elem;
  ly->base_units = (uint64_t)base;
  ly->rem_units = (uint64_t)rem;
  ly->nop_bytes = (uint64_t)nopb;
  if (ly->width != width) widen_to_fields(json_object_get(o, "fields"), ly);
  if (ly->width != width || mt_layout_words(ly) > MT_LAYOUT_MAX_WORDS) {
    mt_fail(e, "%s: width %lld disagrees with the layout derived from its fields (%d; at most %d)", path, width, ly->width, 64 * MT_LAYOUT_MAX_WORDS);
    goto fail;
  }
  if (msteps != (*steps > 2 * N - 2 ? *steps : 2 * N - 2)) {
    mt_fail(e, "%s: max_steps %lld, but the layout makes it max(steps, 2*nodes-2) = %lld", path, msteps, *steps > 2 * N - 2 ? *steps : 2 * N - 2);
    goto fail;
  }
  if ((long long)*depth * mt_layout_words(ly) > 1 << 22) {
    mt_fail(e, "%s: depth %lld of %d-bit words is far beyond any schedule table", path, *depth, ly->width);
    goto fail;
  }
  if (*fmt == MT_ROM_MEM && ly->width > 256) {
    mt_fail(e, "%s: Lattice .mem holds words up to 256 bits; width is %d", path, ly->width);
    goto fail;
  }
  json_t *want = fields_json(ly), *have = json_object_get(o, "fields");
  int same = json_equal(want, have);
  json_decref(want);
  if (!same) {
    mt_fail(e, "%s: the 'fields' list disagrees with the layout derived from its sizes (a field's name, lsb or width was changed)", path);
    goto fail;
  }
  return 0;
fail:
  mt_topo_free(t);
  return -1;
}

int mt_rom_read_layout(const char *dir, mt_topo *t, mt_layout *ly, int *fmt, int *depth, int *steps, mt_err *e) {
  char path[4096];
  snprintf(path, sizeof path, "%s/layout.json", dir);
  json_error_t je;
  memset(t, 0, sizeof *t);
  size_t len;
  char *text = mt_read_file(path, MT_FILE_MAX, &len, e);
  if (!text) return -1;
  json_t *o = json_loadb(text, len, 0, &je);
  free(text);
  if (!o) return mt_fail(e, "%s:%d: %s", path, je.line, je.text);
  long long d = 0, st = 0;
  int rc = read_layout(o, path, t, ly, fmt, &d, &st, e);
  json_decref(o);
  *depth = (int)d;
  *steps = (int)st;
  return rc;
}

int mt_rom_read_dir(const char *dir, mt_topo *t, mt_layout *ly, mt_tables *tb, mt_err *e) {
  char path[4096];
  memset(tb, 0, sizeof *tb);
  int fmt = 0, depth = 0, steps = 0;
  if (mt_rom_read_layout(dir, t, ly, &fmt, &depth, &steps, e)) return -1;
  if (stray_images(dir, fmt, ly->n_nodes, e)) {
    mt_topo_free(t);
    return -1;
  }
  const int nw = mt_layout_words(ly), N = ly->n_nodes, D = (int)depth;
  uint64_t *words = mt_xcalloc((size_t)D * nw, 8);
  int *lines = mt_xcalloc((size_t)D, sizeof(int));
  mt_slot *sl = mt_xcalloc((size_t)ly->children, sizeof(mt_slot));
  int cap_e = 64, cap_s = 64;
  tb->n_nodes = N;
  tb->n_flows = ly->n_flows;
  tb->steps = (int)steps;
  tb->local_ports = ly->local_ports;
  tb->entries = mt_xcalloc((size_t)cap_e, sizeof(mt_entry));
  tb->slots = mt_xcalloc((size_t)cap_s, sizeof(mt_slot));
  tb->start = mt_xcalloc((size_t)N, sizeof(int));
  tb->count = mt_xcalloc((size_t)N, sizeof(int));
  int rc = -1;
  for (int n = 0; n < N; n++) {
    snprintf(path, sizeof path, "%s/node%d.%s", dir, n, fmt_names[fmt]);
    if (mt_rom_read_node(path, fmt, ly, D, n, words, lines, e)) goto out;
    tb->start[n] = tb->n_entries;
    int end = -1, prev = 0;
    for (int i = 0; i < D && end < 0; i++) {
      const uint64_t *w = words + (size_t)i * nw;
      char why[600];
      mt_entry en;
      int op = mt_layout_decode(ly, t, n, w, &en, sl, e);
      if (op == MT_OP_END) {
        end = i;
        break;
      }
      if (op < 0) snprintf(why, sizeof why, "%s", e->msg);
      if (op < 0 || entry_fault(ly, tb->steps, n, w, &en, prev, why, sizeof why)) {
        if (lines[i]) mt_fail(e, "%s:%d: word %d: %s", path, lines[i], i, why);
        else mt_fail(e, "%s: word %d: %s", path, i, why);
        goto out;
      }
      prev = en.step;
      if (tb->n_entries == cap_e) tb->entries = mt_xrealloc(tb->entries, (size_t)(cap_e *= 2) * sizeof(mt_entry));
      while (tb->n_slots + en.nchild > cap_s) tb->slots = mt_xrealloc(tb->slots, (size_t)(cap_s *= 2) * sizeof(mt_slot));
      memcpy(tb->slots + tb->n_slots, sl, (size_t)en.nchild * sizeof(mt_slot));
      en.child = NULL; /* pointed into tb->slots once all are read (it moves as it grows) */
      tb->entries[tb->n_entries++] = en;
      tb->n_slots += en.nchild;
    }
    if (end < 0) {
      mt_fail(e, "%s: no END word in its %d words (the NI would run past the table)", path, D);
      goto out;
    }
    for (int i = end + 1; i < D; i++)
      for (int k = 0; k < nw; k++)
        if (words[(size_t)i * nw + k]) {
          if (lines[i]) mt_fail(e, "%s:%d: word %d after the END word (word %d) is not zero padding", path, lines[i], i, end);
          else mt_fail(e, "%s: word %d after the END word (word %d) is not zero padding", path, i, end);
          goto out;
        }
    tb->count[n] = tb->n_entries - tb->start[n];
    if (tb->count[n] > tb->max_entries) tb->max_entries = tb->count[n];
  }
  for (int i = 0, s = 0; i < tb->n_entries; s += tb->entries[i++].nchild) {
    tb->entries[i].child = tb->slots + s;
    if (tb->entries[i].nchild > tb->max_children) tb->max_children = tb->entries[i].nchild;
  }
  rc = 0;
out:
  free(words);
  free(lines);
  free(sl);
  if (rc) {
    mt_tables_free(tb);
    mt_topo_free(t);
  }
  return rc;
}
