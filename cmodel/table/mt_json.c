/* SPDX-License-Identifier: Apache-2.0
 * mt_json: write and read "multitree-schedule/1" with jansson. */
#include "table/mt_json.h"
#include <limits.h>
#include <stdint.h>
#include "table/mt_json_split.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "util/mt_io.h"

static const char *kind_name(int k) {
  switch (k) {
  case MT_TOPO_TORUS: return "torus";
  case MT_TOPO_MESH: return "mesh";
  case MT_TOPO_FATTREE: return "fattree";
  case MT_TOPO_DGX2: return "dgx2";
  case MT_TOPO_BIGRAPH: return "bigraph";
  case MT_TOPO_DIMS: return "dims";
  case MT_TOPO_HIER: return "hier";
  default: return "file";
  }
}

json_t *mt_json_topology(const mt_topo *t) {
  json_t *jt = json_object();
  json_object_set_new(jt, "spec", json_string(t->spec));
  json_object_set_new(jt, "kind", json_string(kind_name(t->kind)));
  if (mt_topo_is_grid(t)) {
    json_t *d = json_array();
    for (int k = 0; k < t->ndims; k++) json_array_append_new(d, json_integer(t->dim[k]));
    json_object_set_new(jt, "dims", d);
  }
  json_object_set_new(jt, "nodes", json_integer(t->n_nodes));
  json_object_set_new(jt, "switches", json_integer(t->n_sw));
  json_t *jl = json_array();
  for (int i = 0; i < t->n_links; i++) {
    const mt_edge *l = &t->links[i];
    /* each physical link once: grids by src < dst direction +, others the stored pair's first half */
    int first = mt_topo_is_grid(t) ? (l->dir > 0) : (i % 2 == 0);
    if (!first) continue;
    json_t *a = json_array();
    json_array_append_new(a, json_integer(l->src));
    json_array_append_new(a, json_integer(l->dst));
    json_array_append_new(a, json_integer(l->mult));
    json_array_append_new(jl, a);
  }
  json_object_set_new(jt, "links", jl);
  return jt;
}

/* ---------------- writing ---------------- */

/* The file is formatted by hand into a buffer (jansson formats only the small head): building
 * and dumping a jansson object per entry and transfer took 20 s for the 517 MB of the
 * 1024-node torus schedule (issue #14 item 6). The bytes are those json_dump_file
 * (JSON_COMPACT) gives for the whole tree: keys in insertion order, integers in decimal. */
typedef struct {
  FILE *f;
  char *buf;
  size_t n, cap;
  int bad;
} jw;

static void jw_flush(jw *w) {
  if (w->n && fwrite(w->buf, 1, w->n, w->f) != w->n) w->bad = 1;
  w->n = 0;
}
/* room for `need` more bytes */
static inline char *jw_room(jw *w, size_t need) {
  if (w->n + need > w->cap) jw_flush(w);
  return w->buf + w->n;
}
static inline void jw_str(jw *w, const char *s, size_t len) {
  memcpy(jw_room(w, len), s, len);
  w->n += len;
}
#define JW_LIT(w, lit) jw_str(w, lit, sizeof lit - 1)
static inline void jw_int(jw *w, long long v) {
  char tmp[24], *p = tmp + sizeof tmp, *o = jw_room(w, sizeof tmp);
  unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
  do *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0) *--p = '-';
  size_t len = (size_t)(tmp + sizeof tmp - p);
  memcpy(o, p, len);
  w->n += len;
}
static inline void jw_port(jw *w, int port) {
  if (port == MT_PORT_ROUTED) JW_LIT(w, "\"routed\"");
  else jw_int(w, port);
}
static void jw_op(jw *w, int op) {
  const char *s = mt_op_name(op);
  jw_str(w, "\"", 1);
  jw_str(w, s, strlen(s));
  jw_str(w, "\"", 1);
}

/* one table entry as the schedule JSON has it */
static void entry_json(jw *w, const mt_entry *en) {
  JW_LIT(w, "{\"op\":");
  jw_op(w, en->op);
  JW_LIT(w, ",\"flow\":");
  jw_int(w, en->flow);
  JW_LIT(w, ",\"parent\":");
  if (en->has_parent) jw_int(w, en->parent.node);
  else JW_LIT(w, "null");
  JW_LIT(w, ",\"children\":[");
  for (int c = 0; c < en->nchild; c++) {
    if (c) JW_LIT(w, ",");
    jw_int(w, en->child[c].node);
  }
  JW_LIT(w, "],\"step\":");
  jw_int(w, en->step);
  JW_LIT(w, ",\"addr\":");
  jw_int(w, (long long)en->addr);
  JW_LIT(w, ",\"size\":");
  jw_int(w, (long long)en->size);
  if (en->has_parent) {
    JW_LIT(w, ",\"parent_port\":");
    jw_port(w, en->parent.port);
    JW_LIT(w, ",\"parent_eject\":");
    jw_int(w, en->parent.eject);
  }
  JW_LIT(w, ",\"child_ports\":[");
  for (int c = 0; c < en->nchild; c++) {
    if (c) JW_LIT(w, ",");
    jw_port(w, en->child[c].port);
  }
  JW_LIT(w, "],\"child_ejects\":[");
  for (int c = 0; c < en->nchild; c++) {
    if (c) JW_LIT(w, ",");
    jw_int(w, en->child[c].eject);
  }
  JW_LIT(w, "]}");
}

static void xfer_json(jw *w, const mt_sched *s, const mt_xfer *x) {
  JW_LIT(w, "{\"flow\":");
  jw_int(w, x->flow);
  JW_LIT(w, ",\"op\":");
  jw_op(w, x->op);
  JW_LIT(w, ",\"src\":");
  jw_int(w, x->src);
  JW_LIT(w, ",\"dst\":");
  jw_int(w, x->dst);
  JW_LIT(w, ",\"step\":");
  jw_int(w, x->step);
  JW_LIT(w, ",\"hops\":");
  jw_int(w, mt_sched_hops(s, x));
  JW_LIT(w, ",\"path\":[");
  jw_int(w, x->src);
  for (int k = 0; k < x->path_len; k++) {
    JW_LIT(w, ",");
    jw_int(w, s->topo->links[MT_XLINK(s, x, k)].dst);
  }
  JW_LIT(w, "]}");
}

/* The file is written a node and a transfer at a time, so that memory stays that of the
 * schedule: a whole jansson tree of a 2048-node ring schedule needed more than the machine's
 * 23 GB (issue #11, item 9). */
static int write_json(const mt_sched *s, const mt_tables *tb, int local_ports, const char *path, mt_err *e) {
  const mt_topo *t = s->topo;
  json_t *root = json_object();
  json_object_set_new(root, "format", json_string("multitree-schedule/1"));
  json_object_set_new(root, "algorithm", json_string(s->algo));
  json_t *jt = mt_json_topology(t);
  json_object_set_new(root, "topology", jt);
  json_object_set_new(root, "bytes", json_integer((json_int_t)s->bytes));
  json_object_set_new(root, "elem", json_integer(s->elem));
  json_object_set_new(root, "steps", json_integer(s->steps));
  json_object_set_new(root, "reduce_steps", json_integer(s->reduce_steps));
  json_object_set_new(root, "one_hop", json_boolean(s->one_hop));
  if (s->interleaved) json_object_set_new(root, "interleaved", json_true());       /* absent: false (files before Themis) */
  if (s->nop_link) json_object_set_new(root, "nop_estimate", json_string("link")); /* absent: "chunk" (files before bucket's) */
  json_object_set_new(root, "local_ports", json_integer(local_ports));
  json_t *jf = json_array();
  for (int f = 0; f < s->n_flows; f++) {
    json_t *o = json_object();
    json_object_set_new(o, "flow", json_integer(f));
    json_object_set_new(o, "root", json_integer(s->root[f]));
    json_object_set_new(o, "addr", json_integer((json_int_t)s->chunk[f].addr));
    json_object_set_new(o, "size", json_integer((json_int_t)s->chunk[f].size));
    json_array_append_new(jf, o);
  }
  json_object_set_new(root, "flows", jf);
  char *head = json_dumps(root, JSON_COMPACT);
  json_decref(root);
  mt_out out;
  jw w = {head ? mt_out_open(&out, path, "w") : NULL, NULL, 0, (size_t)1 << 20, 0};
  if (!w.f) {
    free(head);
    return mt_fail(e, "%s: cannot write: %s", path, strerror(errno));
  }
  w.buf = mt_xcalloc(w.cap, 1);
  jw_str(&w, head, strlen(head) - 1); /* without the closing brace: nodes and transfers follow */
  free(head);
  JW_LIT(&w, ",\"nodes\":[");
  mt_tables_gen *g = tb ? NULL : mt_tables_gen_new(s, local_ports);
  int rc = 0;
  for (int n = 0; n < s->n_nodes && !w.bad && !rc; n++) {
    const mt_entry *en = NULL;
    int cnt = 0;
    if (tb) {
      en = mt_node_entries(tb, n);
      cnt = tb->count[n];
    } else if ((rc = mt_tables_gen_node(g, n, &en, &cnt, e)))
      break;
    if (n) JW_LIT(&w, ",");
    JW_LIT(&w, "{\"id\":");
    jw_int(&w, n);
    JW_LIT(&w, ",\"entries\":[");
    for (int i = 0; i < cnt; i++, en++) {
      if (i) JW_LIT(&w, ",");
      entry_json(&w, en);
    }
    JW_LIT(&w, "]}");
  }
  JW_LIT(&w, "],\"transfers\":[");
  for (int i = 0; i < s->nx && !w.bad && !rc; i++) {
    if (i) JW_LIT(&w, ",");
    xfer_json(&w, s, &s->x[i]);
  }
  JW_LIT(&w, "]}");
  jw_flush(&w);
  free(w.buf);
  mt_tables_gen_free(g);
  if (mt_out_close(&out, !rc && !w.bad)) rc = rc ? rc : mt_fail(e, "%s: cannot write: %s", path, strerror(errno));
  return rc;
}

int mt_json_write(const mt_sched *s, const mt_tables *tb, const char *path, mt_err *e) { return write_json(s, tb, tb->local_ports, path, e); }

int mt_json_write_sched(const mt_sched *s, int local_ports, const char *path, mt_err *e) { return write_json(s, NULL, local_ports, path, e); }

/* ---------------- reading ---------------- */

typedef struct {
  const char *file;
  mt_err *e;
} rd;

static int get_int(rd *r, json_t *o, const char *key, const char *where, long long lo, long long hi, long long *out) {
  json_t *v = json_object_get(o, key);
  if (!v) return mt_fail(r->e, "%s: %s: missing field \"%s\"", r->file, where, key);
  if (!json_is_integer(v)) return mt_fail(r->e, "%s: %s.%s: expected an integer", r->file, where, key);
  long long x = json_integer_value(v);
  if (x < lo || x > hi) return mt_fail(r->e, "%s: %s.%s = %lld: out of range %lld..%lld", r->file, where, key, x, lo, hi);
  *out = x;
  return 0;
}

/* A port: 0..255 or "routed"; an ejection port: 0..255. Whether it is the right one for
 * the topology is mt_check's job; here only the type and range. */
static int get_port(rd *r, json_t *v, const char *where, int *out) {
  if (!v) return mt_fail(r->e, "%s: %s: missing (expected a port number 0..255 or \"routed\")", r->file, where);
  if (json_is_string(v) && !strcmp(json_string_value(v), "routed")) {
    *out = MT_PORT_ROUTED;
    return 0;
  }
  if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 255)
    return mt_fail(r->e, "%s: %s: expected a port number 0..255 or \"routed\"", r->file, where);
  *out = (int)json_integer_value(v);
  return 0;
}
static int get_eject(rd *r, json_t *v, const char *where, int *out) {
  if (!v) return mt_fail(r->e, "%s: %s: missing (expected an ejection port 0..255)", r->file, where);
  if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 255)
    return mt_fail(r->e, "%s: %s: expected an ejection port 0..255", r->file, where);
  *out = (int)json_integer_value(v);
  return 0;
}

static int op_from(const char *s) {
  if (!strcmp(s, "reduce")) return MT_OP_REDUCE;
  if (!strcmp(s, "gather")) return MT_OP_GATHER;
  if (!strcmp(s, "nop")) return MT_OP_NOP;
  return -1;
}

/* A pair of vertices linked twice (in either direction): parallel links are one entry
 * with a multiplicity, so a second entry would give the pair two ports. */
static int pair_cmp(const void *a, const void *b) {
  const long long *x = a, *y = b;
  return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : x[1] != y[1] ? (x[1] < y[1] ? -1 : 1)
                                                              : 0;
}
static int dup_link(const int (*ll)[3], size_t nl, const char *path, mt_err *e) {
  long long(*k)[2] = mt_xcalloc(nl + 1, sizeof *k);
  for (size_t i = 0; i < nl; i++) {
    int a = ll[i][0] < ll[i][1] ? ll[i][0] : ll[i][1], b = ll[i][0] ^ ll[i][1] ^ a;
    k[i][0] = (long long)a << 32 | (unsigned)b;
    k[i][1] = (long long)i;
  }
  qsort(k, nl, sizeof *k, pair_cmp);
  int rc = 0;
  for (size_t i = 1; i < nl && !rc; i++)
    if (k[i][0] == k[i - 1][0])
      rc = mt_fail(e, "%s: topology.links[%lld]: link %lld-%lld given twice (also links[%lld]; parallel links are one entry with a multiplicity)",
                   path, k[i][1], k[i][0] >> 32, k[i][0] & 0xffffffffll, k[i - 1][1]);
  free(k);
  return rc;
}

/* A topology library error, said to be about this file's "topology". */
static int topo_fail(const char *path, mt_err *e) {
  char m[sizeof e->msg];
  snprintf(m, sizeof m, "%s", e->msg);
  return mt_fail(e, "%s: topology: %s", path, m);
}

static const char *const topo_kinds = "torus, mesh, fattree, dgx2, bigraph, dims, hier, file";

/* Builds the topology a JSON object describes. "file": from its links (ends and
 * multiplicities range-checked as 64-bit values, a pair given twice refused); any other
 * kind: from "spec", and then every other field (kind, dims, nodes, switches, links) must be
 * what that spec builds, so that none is taken on trust. */
int mt_json_topology_parse(json_t *jt, const char *path, mt_topo *t, mt_err *e) {
  rd r = {path, e};
  int rc = -1;
  int(*ll)[3] = NULL;
  memset(t, 0, sizeof *t);
  if (!json_is_object(jt)) return mt_fail(e, "%s: missing object \"topology\"", path);
  json_t *spec = json_object_get(jt, "spec"), *kind = json_object_get(jt, "kind");
  if (!json_is_string(spec) || !json_is_string(kind)) return mt_fail(e, "%s: topology: \"spec\" and \"kind\" must be strings", path);
  const char *k = json_string_value(kind), *sp = json_string_value(spec);
  int known = 0;
  for (int q = MT_TOPO_TORUS; q <= MT_TOPO_HIER; q++) known |= !strcmp(k, kind_name(q));
  if (!known) return mt_fail(e, "%s: topology.kind \"%s\": unknown (allowed: %s)", path, k, topo_kinds);
  if (!strcmp(k, "file") && strncmp(sp, "file:", 5))
    return mt_fail(e, "%s: topology.spec \"%s\" with kind \"file\": a file topology's spec is \"file:PATH\" (a named one has its own kind)", path, sp);
  if (strcmp(k, "file")) {
    if (!strncmp(sp, "file:", 5)) return mt_fail(e, "%s: topology.spec \"%s\" names a file but kind is \"%s\" (a file topology has kind \"file\" and its links in the JSON)", path, sp, k);
    if (mt_topo_from_name(t, sp, e)) return topo_fail(path, e);
    json_t *want = mt_json_topology(t);
    const char *keys[] = {"kind", "dims", "nodes", "switches", "links"};
    for (int q = 0; q < 5 && rc; q++) {
      json_t *a = json_object_get(jt, keys[q]), *b = json_object_get(want, keys[q]);
      if (!a && !b) continue;
      if (!a || !b || !json_equal(a, b)) {
        char *wb = b ? json_dumps(b, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        mt_fail(e, "%s: topology.%s: %s is not what spec \"%s\" builds (%.60s%s)", path, keys[q], a ? "the value" : "missing field", sp,
                wb ? wb : "no such field", wb && strlen(wb) > 60 ? "..." : "");
        free(wb);
        json_decref(want);
        mt_topo_free(t);
        return -1;
      }
    }
    json_decref(want);
    return 0;
  }
  long long nn, ns;
  if (get_int(&r, jt, "nodes", "topology", 2, MT_MAX_NODES, &nn) || get_int(&r, jt, "switches", "topology", 0, 100000, &ns)) return -1;
  json_t *jl = json_object_get(jt, "links");
  if (!json_is_array(jl)) return mt_fail(e, "%s: topology.links: expected an array", path);
  if (json_object_get(jt, "dims")) return mt_fail(e, "%s: topology.dims: a \"file\" topology has no dims (only grids do)", path);
  size_t nl = json_array_size(jl);
  ll = mt_xcalloc(nl + 1, sizeof *ll);
  const long long nv = nn + ns, lo[3] = {0, 0, 1}, hi[3] = {nv - 1, nv - 1, 1024};
  static const char *const what[3] = {"first end", "second end", "multiplicity"};
  for (size_t i = 0; i < nl; i++) {
    json_t *a = json_array_get(jl, i);
    if (!json_is_array(a) || json_array_size(a) != 3) {
      mt_fail(e, "%s: topology.links[%zu]: expected [a, b, mult]", path, i);
      goto out;
    }
    for (int q = 0; q < 3; q++) {
      json_t *x = json_array_get(a, (size_t)q);
      long long v = json_is_integer(x) ? (long long)json_integer_value(x) : 0;
      if (!json_is_integer(x) || v < lo[q] || v > hi[q]) {
        mt_fail(e, "%s: topology.links[%zu][%d] (%s): expected an integer %lld..%lld (vertices: nodes 0..%lld, then switches)", path, i, q,
                what[q], lo[q], hi[q], nn - 1);
        goto out;
      }
      ll[i][q] = (int)v;
    }
    if (ll[i][0] == ll[i][1]) {
      mt_fail(e, "%s: topology.links[%zu]: a link from vertex %d to itself", path, i, ll[i][0]);
      goto out;
    }
  }
  if (dup_link(ll, nl, path, e)) goto out;
  snprintf(t->spec, sizeof t->spec, "%s", sp);
  rc = mt_topo_from_links(t, sp, (int)nn, (int)ns, (int)nl, (const int(*)[3])ll, e) ? topo_fail(path, e) : 0;
out:
  free(ll);
  return rc;
}

/* Node n's table (the element nodes[n]) appended to tb, whose arrays grow as needed; an
 * entry's child holds the offset of its slots in tb->slots (made a pointer once all are read). */
static int read_node(rd *r, const mt_sched *s, mt_tables *tb, json_t *node, int n, size_t *cap_e, size_t *cap_s) {
  const char *path = r->file;
  mt_err *e = r->e;
  const int N = tb->n_nodes;
  char where[96];
  long long v;
  snprintf(where, sizeof where, "nodes[%d]", n);
  json_t *ents = json_object_get(node, "entries");
  if (!json_is_array(ents)) return mt_fail(e, "%s: nodes[%d].entries: expected an array", path, n);
  if (get_int(r, node, "id", where, n, n, &v)) return -1;
  size_t ns = 0;
  for (size_t i = 0; i < json_array_size(ents); i++) {
    json_t *ch = json_object_get(json_array_get(ents, i), "children");
    if (json_is_array(ch)) ns += json_array_size(ch);
  }
  const size_t ne = json_array_size(ents);
  if ((size_t)tb->n_entries + ne > (size_t)INT_MAX || (size_t)tb->n_slots + ns > (size_t)INT_MAX)
    return mt_fail(e, "%s: nodes[%d]: more than %d table entries or children in all", path, n, INT_MAX);
  if ((size_t)tb->n_entries + ne > *cap_e) {
    *cap_e = 2 * *cap_e > (size_t)tb->n_entries + ne ? 2 * *cap_e : (size_t)tb->n_entries + ne;
    tb->entries = mt_xrealloc(tb->entries, *cap_e * sizeof(mt_entry));
  }
  if ((size_t)tb->n_slots + ns > *cap_s) {
    *cap_s = 2 * *cap_s > (size_t)tb->n_slots + ns ? 2 * *cap_s : (size_t)tb->n_slots + ns;
    tb->slots = mt_xrealloc(tb->slots, *cap_s * sizeof(mt_slot));
  }
  tb->start[n] = tb->n_entries;
  for (size_t i = 0; i < json_array_size(ents); i++) {
    snprintf(where, sizeof where, "nodes[%d].entries[%zu]", n, i);
    json_t *o = json_array_get(ents, i);
    mt_entry *en = &tb->entries[tb->n_entries++];
    json_t *jop = json_object_get(o, "op");
    if (!json_is_string(jop) || op_from(json_string_value(jop)) < 0)
      return mt_fail(e, "%s: %s.op: expected \"reduce\", \"gather\" or \"nop\"", path, where);
    en->op = op_from(json_string_value(jop));
    long long fl, st, ad, sz;
    if (get_int(r, o, "flow", where, 0, s->n_flows - 1, &fl) || get_int(r, o, "step", where, 1, s->steps, &st) ||
        get_int(r, o, "addr", where, 0, 0xFFFFFFFFll, &ad) || get_int(r, o, "size", where, 0, 0xFFFFFFFFll, &sz)) return -1;
    en->flow = (int)fl;
    en->step = (int)st;
    en->addr = (uint64_t)ad;
    en->size = (uint64_t)sz;
    json_t *par = json_object_get(o, "parent");
    if (!par)
      return mt_fail(e, "%s: %s: missing field \"parent\"", path, where);
    en->has_parent = !json_is_null(par);
    if (en->has_parent) {
      if (!json_is_integer(par) || json_integer_value(par) < 0 || json_integer_value(par) >= N)
        return mt_fail(e, "%s: %s.parent: expected null or a node id 0..%d", path, where, N - 1);
      en->parent.node = (int)json_integer_value(par);
      char w2[128];
      snprintf(w2, sizeof w2, "%s.parent_port", where);
      if (get_port(r, json_object_get(o, "parent_port"), w2, &en->parent.port)) return -1;
      snprintf(w2, sizeof w2, "%s.parent_eject", where);
      if (get_eject(r, json_object_get(o, "parent_eject"), w2, &en->parent.eject)) return -1;
    } else if (json_object_get(o, "parent_port") || json_object_get(o, "parent_eject"))
      return mt_fail(e, "%s: %s: parent_port/parent_eject given but parent is null", path, where);
    json_t *ch = json_object_get(o, "children"), *cp = json_object_get(o, "child_ports"), *ce = json_object_get(o, "child_ejects");
    if (!json_is_array(ch))
      return mt_fail(e, "%s: %s.children: expected an array", path, where);
    if (!json_is_array(cp) || !json_is_array(ce) || json_array_size(cp) != json_array_size(ch) || json_array_size(ce) != json_array_size(ch))
      return mt_fail(e, "%s: %s: child_ports and child_ejects must be arrays of %zu (one per child)", path, where, json_array_size(ch));
    en->nchild = (int)json_array_size(ch);
    en->child = (mt_slot *)(uintptr_t)tb->n_slots; /* an offset until every node is read (tb->slots grows) */
    for (int c = 0; c < en->nchild; c++) {
      json_t *x = json_array_get(ch, (size_t)c);
      if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) >= N)
        return mt_fail(e, "%s: %s.children[%d]: expected a node id 0..%d", path, where, c, N - 1);
      mt_slot *sl = &tb->slots[tb->n_slots++];
      sl->node = (int)json_integer_value(x);
      char w2[128];
      snprintf(w2, sizeof w2, "%s.child_ports[%d]", where, c);
      if (get_port(r, json_array_get(cp, (size_t)c), w2, &sl->port)) return -1;
      snprintf(w2, sizeof w2, "%s.child_ejects[%d]", where, c);
      if (get_eject(r, json_array_get(ce, (size_t)c), w2, &sl->eject)) return -1;
    }
    if (en->nchild > tb->max_children) tb->max_children = en->nchild;
  }
  tb->count[n] = tb->n_entries - tb->start[n];
  if (tb->count[n] > tb->max_entries) tb->max_entries = tb->count[n];
  return 0;
}

/* transfers[i] (element o) added to s; links: room for a path's links. */
static int read_xfer(rd *r, const mt_topo *t, mt_sched *s, json_t *o, size_t i, int *links) {
  const char *path = r->file;
  mt_err *e = r->e;
  const int N = t->n_nodes;
  char where[64];
  snprintf(where, sizeof where, "transfers[%zu]", i);
  long long fl, sr, ds, st;
  if (get_int(r, o, "flow", where, 0, s->n_flows - 1, &fl) || get_int(r, o, "src", where, 0, N - 1, &sr) ||
      get_int(r, o, "dst", where, 0, N - 1, &ds) || get_int(r, o, "step", where, 1, s->steps, &st)) return -1;
  json_t *jop = json_object_get(o, "op"), *p = json_object_get(o, "path");
  int op = json_is_string(jop) ? op_from(json_string_value(jop)) : -1;
  if (op != MT_OP_REDUCE && op != MT_OP_GATHER)
    return mt_fail(e, "%s: %s.op: expected \"reduce\" or \"gather\"", path, where);
  if (!json_is_array(p) || json_array_size(p) < 2 || json_array_size(p) > (size_t)t->n_vert + 1)
    return mt_fail(e, "%s: %s.path: expected a list of vertices", path, where);
  int nl = (int)json_array_size(p) - 1, ok = 1;
  for (int q = 0; q < nl && ok; q++) {
    json_t *a = json_array_get(p, (size_t)q), *b = json_array_get(p, (size_t)q + 1);
    if (!json_is_integer(a) || !json_is_integer(b) || json_integer_value(a) < 0 || json_integer_value(a) >= t->n_vert ||
        json_integer_value(b) < 0 || json_integer_value(b) >= t->n_vert) {
      ok = 0;
      break;
    }
    links[q] = mt_topo_find_link(t, (int)json_integer_value(a), (int)json_integer_value(b));
    if (links[q] < 0) ok = 0;
  }
  if (!ok || json_integer_value(json_array_get(p, 0)) != sr || json_integer_value(json_array_get(p, (size_t)nl)) != ds)
    return mt_fail(e, "%s: %s.path: not a chain of links of the topology from src to dst", path, where);
  int xi = mt_sched_add(s, (int)fl, op, (int)sr, (int)ds, (int)st, links, nl);
  long long hops;
  if (get_int(r, o, "hops", where, 1, nl, &hops)) return -1;
  if (hops != mt_sched_hops(s, &s->x[xi]))
    return mt_fail(e, "%s: %s.hops = %lld: its path crosses %d router hops", path, where, hops, mt_sched_hops(s, &s->x[xi]));
  return 0;
}

int mt_json_read(const char *path, mt_topo *t, mt_sched *s, mt_tables *tb, mt_err *e) {
  memset(t, 0, sizeof *t);
  memset(s, 0, sizeof *s);
  memset(tb, 0, sizeof *tb);
  /* the tables and the transfers a piece at a time (mt_json_split.h): a 1024-node file is
   * 517 MB, its whole jansson tree 6.8 GB */
  static const char *const big[] = {"nodes", "transfers"};
  json_t *root = NULL;
  mt_jsplit *js = mt_jsplit_open(path, big, 2, &root, e);
  if (!js) return -1;
  rd r = {path, e};
  int rc = -1;
  long long v;
  json_t *fmt = json_object_get(root, "format");
  if (!json_is_object(root) || !json_is_string(fmt) || strcmp(json_string_value(fmt), "multitree-schedule/1")) {
    mt_fail(e, "%s: not a \"multitree-schedule/1\" file (field \"format\")", path);
    goto out;
  }
  json_t *algo = json_object_get(root, "algorithm");
  if (!json_is_string(algo) || mt_algo_from_name(json_string_value(algo)) < 0) {
    mt_fail(e, "%s: field \"algorithm\": expected one of%s", path, MT_ALGO_NAMES_STR);
    goto out;
  }
  if (mt_json_topology_parse(json_object_get(root, "topology"), path, t, e)) goto out;
  const int N = t->n_nodes;
  /* flows: at most 2 per node, but chunked schedules (hier, themis, dimbal) have N x H per chunk,
   * bucket N x its parts (up to 2 x 3 on a 3-D torus), or up to 4096 with pipelined chunks
   * (non-square shapes, mt_plan_bucket.c), and meshtree up to 8 per node, at most 4096 */
  const int aid = mt_algo_from_name(json_string_value(algo));
  const size_t maxf = aid == mt_algo_hier || aid == mt_algo_themis || aid == mt_algo_dimbal ? MT_MAX_FLOWS
    : aid == mt_algo_bucket                                                                 ? ((size_t)N * 6 > 4096 ? (size_t)N * 6 : 4096)
    : aid == mt_algo_meshtree                                                               ? 4096
                                                                                            : (size_t)N * 2;
  json_t *jf = json_object_get(root, "flows");
  if (!json_is_array(jf) || json_array_size(jf) < 1 || json_array_size(jf) > maxf) {
    mt_fail(e, "%s: \"flows\": expected an array of 1..%zu flows", path, maxf);
    goto out;
  }
  mt_sched_init(s, t, json_string_value(algo), (int)json_array_size(jf));
  if (get_int(&r, root, "steps", "$", 1, 65535, &v)) goto out;
  s->steps = (int)v;
  if (get_int(&r, root, "reduce_steps", "$", 0, s->steps, &v)) goto out;
  s->reduce_steps = (int)v;
  if (get_int(&r, root, "bytes", "$", 1, 0xFFFFFFFFll, &v)) goto out;
  s->bytes = (uint64_t)v;
  if (get_int(&r, root, "elem", "$", 1, 64, &v)) goto out;
  s->elem = (int)v;
  json_t *oh = json_object_get(root, "one_hop");
  if (!json_is_boolean(oh)) {
    mt_fail(e, "%s: field \"one_hop\": %s (expected true or false; check derives it and refuses a wrong claim)", path, oh ? "not a boolean" : "missing");
    goto out;
  }
  s->one_hop = json_is_true(oh);
  json_t *il = json_object_get(root, "interleaved");
  if (il && !json_is_boolean(il)) {
    mt_fail(e, "%s: field \"interleaved\": not a boolean (expected true or false, or absent for false)", path);
    goto out;
  }
  s->interleaved = il && json_is_true(il);
  json_t *ne = json_object_get(root, "nop_estimate");
  if (ne && (!json_is_string(ne) || (strcmp(json_string_value(ne), "chunk") && strcmp(json_string_value(ne), "link")))) {
    mt_fail(e, "%s: field \"nop_estimate\": %s%s%s (expected \"chunk\" or \"link\", or absent for \"chunk\")", path, json_is_string(ne) ? "\"" : "",
            json_is_string(ne) ? json_string_value(ne) : "not a string", json_is_string(ne) ? "\"" : "");
    goto out;
  }
  s->nop_link = ne && !strcmp(json_string_value(ne), "link");
  long long lp = 0;
  if (json_object_get(root, "local_ports") && get_int(&r, root, "local_ports", "$", 0, 16, &lp)) goto out;
  for (int f = 0; f < s->n_flows; f++) {
    char where[64];
    snprintf(where, sizeof where, "flows[%d]", f);
    json_t *o = json_array_get(jf, (size_t)f);
    if (!json_is_object(o)) {
      mt_fail(e, "%s: %s: expected an object", path, where);
      goto out;
    }
    long long fl, ro, ad, sz;
    if (get_int(&r, o, "flow", where, f, f, &fl) || get_int(&r, o, "root", where, 0, N - 1, &ro) ||
        get_int(&r, o, "addr", where, 0, 0xFFFFFFFFll, &ad) || get_int(&r, o, "size", where, 1, 0xFFFFFFFFll, &sz)) goto out;
    s->root[f] = (int)ro;
    s->chunk[f].addr = (uint64_t)ad;
    s->chunk[f].size = (uint64_t)sz;
  }
  /* tables: node by node, the arrays grown as they come (children as offsets until the end) */
  if (!mt_jsplit_has(js, 0) || mt_jsplit_begin(js, 0, e)) {
    mt_fail(e, "%s: \"nodes\": expected an array of %d nodes", path, N);
    goto out;
  }
  tb->n_nodes = N;
  tb->steps = s->steps;
  tb->n_flows = s->n_flows;
  tb->local_ports = (int)lp;
  tb->start = mt_xcalloc((size_t)N, sizeof(int));
  tb->count = mt_xcalloc((size_t)N, sizeof(int));
  size_t cap_e = 0, cap_s = 0;
  for (int n = 0;; n++) {
    json_t *node = NULL;
    const int got = mt_jsplit_next(js, &node, e);
    if (got < 0) goto out;
    if ((got == 0) != (n == N)) {
      json_decref(node);
      mt_fail(e, "%s: \"nodes\": expected an array of %d nodes", path, N);
      goto out;
    }
    if (!got) break;
    const int bad = read_node(&r, s, tb, node, n, &cap_e, &cap_s);
    json_decref(node);
    if (bad) goto out;
  }
  if (!tb->entries) tb->entries = mt_xcalloc(1, sizeof(mt_entry));
  if (!tb->slots) tb->slots = mt_xcalloc(1, sizeof(mt_slot));
  for (int i = 0; i < tb->n_entries; i++) tb->entries[i].child = tb->slots + (uintptr_t)tb->entries[i].child;
  /* transfers (optional: the checker then uses direct links) */
  json_t *jx = json_object_get(root, "transfers");
  if (jx || mt_jsplit_has(js, 1)) {
    static const char xerr[] = "%s: \"transfers\": expected a non-empty array (or no field: check derives the messages from the tables)";
    if (jx || mt_jsplit_begin(js, 1, e)) {
      mt_fail(e, xerr, path);
      goto out;
    }
    int *links = mt_xcalloc((size_t)t->n_vert + 2, sizeof(int)), got;
    size_t i = 0;
    json_t *o;
    while ((got = mt_jsplit_next(js, &o, e)) > 0) {
      const int bad = read_xfer(&r, t, s, o, i++, links);
      json_decref(o);
      if (bad) {
        got = -1;
        break;
      }
    }
    free(links);
    if (got < 0) goto out;
    if (!i) {
      mt_fail(e, xerr, path);
      goto out;
    }
    s->steps = tb->steps;
  }
  rc = 0;
out:
  json_decref(root);
  mt_jsplit_close(js);
  if (rc) {
    mt_tables_free(tb);
    mt_sched_free(s);
    mt_topo_free(t);
  }
  return rc;
}
