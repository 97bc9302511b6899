/* SPDX-License-Identifier: Apache-2.0
 * mt_bound: per-node, cut and aggregate lower bounds of an all-reduce (docs/reference/bounds.md). */
#include "topo/mt_bound.h"
#include <stdlib.h>
#include <string.h>
#include "topo/mt_hier.h"
#include "util/mt_num.h"

int mt_bound_exact_n = MT_BOUND_EXACT_N;

const char *mt_cut_family_name(int family) {
  return family == MT_CUT_EXACT ? "every node set"
    : family == MT_CUT_BOXES    ? "every sub-box (single nodes and half planes included)"
    : family == MT_CUT_SUBTREES ? "single nodes and every switch's subtree"
                                : "single nodes";
}

const char *mt_bound_name(int binding) {
  return binding == MT_BOUND_PER_NODE ? "per-node" : binding == MT_BOUND_CUT ? "cut"
                                                                             : "aggregate";
}

double mt_bound_fault_scale(void) {
  const char *s = getenv("MT_BOUND_SCALE");
  double f = 1.0;
  mt_err e;
  if (s && *s && mt_parse_real(s, 0, 1e9, "MT_BOUND_SCALE", &e, &f)) {
    fprintf(stderr, "multitree: %s\n", e.msg); /* a fault-injection switch: a bad value is a test's mistake */
    exit(2);
  }
  return f > 0 ? f : 1.0;
}

/* S / (B min(in, out)): X must receive S bytes over its links in and send S over its links out */
static double cut_time(double in, double out, double S, double B) {
  const double m = in < out ? in : out;
  return m > 0 ? S / (B * m) : 0;
}

static void take(mt_bound *b, double tt, int x, double in, double out) {
  b->cut_sets++;
  if (tt > b->cut * (1 + 1e-12)) {
    b->cut = tt;
    b->cut_size = x;
    b->cut_in = in;
    b->cut_out = out;
  }
}

/* w of the links into and out of the vertex set `in_set` (a byte per vertex). */
static void set_links(const mt_topo *t, const double *w, const unsigned char *in_set, double *in, double *out) {
  *in = *out = 0;
  for (int l = 0; l < t->n_links; l++) {
    const int a = in_set[t->links[l].src], c = in_set[t->links[l].dst];
    if (!a && c) *in += w[l];
    if (a && !c) *out += w[l];
  }
}

/* A sub-box: lengths len[d] from start s[d] (cyclic on a torus). */
static int box_set(const mt_topo *t, const int *s, const int *len, unsigned char *in_set) {
  memset(in_set, 0, (size_t)t->n_vert);
  int x = 0, c[3] = {0, 0, 0}, o[3] = {0, 0, 0};
  const int D = t->ndims;
  for (;;) {
    for (int d = 0; d < D; d++) c[d] = (s[d] + o[d]) % t->dim[d];
    in_set[mt_topo_node_at(t, c)] = 1;
    x++;
    int d = 0;
    while (d < D && ++o[d] == len[d]) o[d++] = 0;
    if (d == D) break;
  }
  return x;
}

/* The weight of every link of dimension d when all of them weigh the same (wd[d]); 0 when some
 * link differs from the others of its dimension or has none. */
static int uniform_dims(const mt_topo *t, const double *w, double *wd) {
  for (int d = 0; d < 3; d++) wd[d] = -1;
  for (int l = 0; l < t->n_links; l++) {
    const int d = t->links[l].dim;
    if (d < 0 || d >= 3 || (wd[d] >= 0 && wd[d] != w[l])) return 0;
    wd[d] = w[l];
  }
  return 1;
}

/* The box of lengths len from s counted without listing it (all links of a dimension alike):
 * per dimension its faces that links cross (torus: 2, 1 on a ring of 2, 0 when the box spans
 * it; mesh: the faces off the border), each crossed by prod of the other lengths links each
 * way. */
static double box_faces(const mt_topo *t, const int *s, const int *len, const double *wd) {
  double c = 0;
  for (int d = 0; d < t->ndims; d++) {
    const int k = t->dim[d];
    int faces = (s[d] > 0) + (s[d] + len[d] < k); /* a mesh: the faces off the border */
    if (t->kind == MT_TOPO_TORUS) faces = len[d] == k ? 0 : 2;
    if (t->kind == MT_TOPO_TORUS && k == 2 && len[d] < k) faces = 1; /* one link between the two */
    double face = 1;
    for (int e = 0; e < t->ndims; e++)
      if (e != d) face *= len[e];
    c += faces * face * wd[d];
  }
  return c;
}

/* Boxes: every length vector; on a torus one start (all positions are alike), on a mesh the
 * starts 0, 1 and k - len per dimension (links into a box depend only on which of its faces
 * touch the border). */
static void boxes(const mt_topo *t, const double *w, double S, double B, mt_bound *b) {
  const int D = t->ndims, N = t->n_nodes;
  double wd[3];
  const int fast = uniform_dims(t, w, wd);
  unsigned char *in_set = fast ? NULL : mt_xcalloc((size_t)t->n_vert, 1);
  int len[3] = {1, 1, 1};
  for (;;) {
    int starts[3][3], ns[3];
    for (int d = 0; d < D; d++) {
      ns[d] = 0;
      starts[d][ns[d]++] = 0;
      if (t->kind == MT_TOPO_MESH) {
        if (t->dim[d] - len[d] > 0) starts[d][ns[d]++] = t->dim[d] - len[d];
        if (t->dim[d] - len[d] > 1) starts[d][ns[d]++] = 1;
      }
    }
    int si[3] = {0, 0, 0};
    for (;;) {
      int s[3];
      for (int d = 0; d < D; d++) s[d] = starts[d][si[d]];
      int x = 1;
      for (int e = 0; e < D; e++) x *= len[e];
      if (x < N) {
        double in, out;
        if (fast) in = out = box_faces(t, s, len, wd);
        else {
          box_set(t, s, len, in_set);
          set_links(t, w, in_set, &in, &out);
        }
        take(b, cut_time(in, out, S, B), x, in, out);
      }
      int d = 0;
      while (d < D && ++si[d] == ns[d]) si[d++] = 0;
      if (d == D) break;
    }
    int d = 0;
    while (d < D && ++len[d] > t->dim[d]) len[d++] = 1;
    if (d == D) break;
  }
  free(in_set);
}

/* A tree of switches (hier:, a star, any tree-shaped switch network): every switch's subtree
 * (its switches and nodes) is a set X; 0 when the switches do not form a tree. */
static int subtrees(const mt_topo *t, const double *w, double S, double B, mt_bound *b) {
  mt_htree h;
  mt_err e = {{0}};
  if (mt_htree_of(t, &h, &e)) return 0;
  const int N = t->n_nodes, V = t->n_vert;
  unsigned char *in_set = mt_xcalloc((size_t)V, 1);
  for (int sw = N; sw < V; sw++) {
    if (sw == h.root) continue;
    int x = 0;
    for (int u = 0; u < V; u++) {
      int a = u;
      while (a >= 0 && a != sw) a = h.parent[a];
      in_set[u] = a == sw;
      if (u < N) x += in_set[u];
    }
    if (x > 0 && x < N) {
      double in, out;
      set_links(t, w, in_set, &in, &out);
      take(b, cut_time(in, out, S, B), x, in, out);
    }
  }
  free(in_set);
  mt_htree_free(&h);
  return 1;
}

int mt_bound_of(const mt_topo *t, uint64_t bytes, double B, mt_bound *b, mt_err *e) { return mt_bound_rated(t, bytes, B, NULL, b, e); }

int mt_bound_rated(const mt_topo *t, uint64_t bytes, double B, const double *wr, mt_bound *b, mt_err *e) {
  memset(b, 0, sizeof *b);
  const int N = t->n_nodes;
  const double S = (double)bytes;
  if (!(B > 0)) return mt_fail(e, "link bandwidth %g bytes per cycle: expected > 0", B);
  if (N < 2) return mt_fail(e, "%s has %d node: an all-reduce needs 2 or more", t->spec, N);
  double *w = mt_xcalloc((size_t)t->n_links + 1, sizeof(double));
  double *in = mt_xcalloc((size_t)t->n_vert, sizeof(double)), *out = mt_xcalloc((size_t)t->n_vert, sizeof(double));
  for (int l = 0; l < t->n_links; l++) { /* links to switches count: a node behind one has its NI link */
    w[l] = wr ? wr[l] : (double)t->links[l].mult;
    out[t->links[l].src] += w[l];
    in[t->links[l].dst] += w[l];
  }
  double into = 0; /* w of the links into end nodes */
  int rc = 0;
  for (int v = 0; v < N && !rc; v++) {
    if (!(in[v] > 0) || !(out[v] > 0)) {
      rc = mt_fail(e, "%s: node %d has no link %s", t->spec, v, in[v] > 0 ? "out" : "in");
      break;
    }
    into += in[v];
    const double tt = cut_time(in[v], out[v], S, B);
    if (tt > b->per_node * (1 + 1e-12)) {
      b->per_node = tt;
      b->per_node_v = v;
    }
    take(b, tt, 1, in[v], out[v]);
  }
  free(in);
  free(out);
  if (rc) {
    free(w);
    memset(b, 0, sizeof *b);
    return rc;
  }
  b->mean_degree = into / N;
  b->aggregate = 2.0 * (N - 1) * S / (into * B);
  if (N <= mt_bound_exact_n && N <= MT_BOUND_EXACT_N && t->n_sw == 0) {
    b->cut_family = MT_CUT_EXACT;
    unsigned char *in_set = mt_xcalloc((size_t)t->n_vert, 1);
    for (uint32_t m = 1; m + 1 < (1u << N); m++) {
      int x = 0;
      double ci, co;
      for (int v = 0; v < N; v++) x += in_set[v] = (unsigned char)((m >> v) & 1);
      set_links(t, w, in_set, &ci, &co);
      take(b, cut_time(ci, co, S, B), x, ci, co);
    }
    free(in_set);
  } else if (mt_topo_is_grid(t)) {
    b->cut_family = MT_CUT_BOXES;
    boxes(t, w, S, B, b);
  } else if (t->n_sw > 0 && subtrees(t, w, S, B, b))
    b->cut_family = MT_CUT_SUBTREES;
  else
    b->cut_family = MT_CUT_NODES;
  free(w);
  const double f = mt_bound_fault_scale();
  b->per_node *= f;
  b->cut *= f;
  b->aggregate *= f;
  /* the largest; on a tie the aggregate, then the per-node bound (the cut includes single nodes) */
  b->bound = b->aggregate;
  b->binding = MT_BOUND_AGGREGATE;
  if (b->per_node > b->bound * (1 + 1e-12)) {
    b->bound = b->per_node;
    b->binding = MT_BOUND_PER_NODE;
  }
  if (b->cut > b->bound * (1 + 1e-12)) {
    b->bound = b->cut;
    b->binding = MT_BOUND_CUT;
  }
  return 0;
}

int mt_bound_assert(const mt_bound *b, double time, const char *units, mt_err *e) {
  if (!(time < b->bound * (1 - 1e-9))) return 0;
  return mt_fail(e, "finished in %.1f %s, below its %s lower bound of %.1f %s (%.1f%%): the bound or the simulation is wrong", time, units,
                 mt_bound_name(b->binding), b->bound, units, 100.0 * b->bound / time);
}
