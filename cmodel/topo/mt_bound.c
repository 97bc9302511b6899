/* SPDX-License-Identifier: Apache-2.0
 * mt_bound: per-node, cut and average lower bounds of an all-reduce (docs/reference/planner.md "Bounds"). */
#include "topo/mt_bound.h"
#include <stdlib.h>
#include <string.h>

int mt_bound_exact_n = MT_BOUND_EXACT_N;

const char *mt_cut_family_name(int family) {
  return family == MT_CUT_EXACT ? "every node set" : family == MT_CUT_BOXES ? "every sub-box (single nodes and half planes included)"
                                                                            : "single nodes";
}

/* (N-x)/N S (1/in + 1/out) / B */
static double cut_time(int N, int x, int in, int out, double S, double B) {
  if (in <= 0 || out <= 0) return 0;
  return (double)(N - x) / N * S * (1.0 / in + 1.0 / out) / B;
}

static void take(mt_bound *b, double tt, int x, int in, int out) {
  b->cut_sets++;
  if (tt > b->cut * (1 + 1e-12)) {
    b->cut = tt;
    b->cut_size = x;
    b->cut_in = in;
    b->cut_out = out;
  }
}

/* Links into and out of the node set `in_set` (a byte per vertex). */
static void set_links(const mt_topo *t, const unsigned char *in_set, int *in, int *out) {
  *in = *out = 0;
  for (int l = 0; l < t->n_links; l++) {
    const int a = in_set[t->links[l].src], c = in_set[t->links[l].dst];
    if (!a && c) *in += t->links[l].mult;
    if (a && !c) *out += t->links[l].mult;
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

/* Boxes: every length vector; on a torus one start (all positions are alike), on a mesh the
 * starts 0, 1 and k - len per dimension (links into a box depend only on which of its faces
 * touch the border). */
static void boxes(const mt_topo *t, double S, double B, mt_bound *b) {
  const int D = t->ndims, N = t->n_nodes;
  unsigned char *in_set = mt_xcalloc((size_t)t->n_vert, 1);
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
      const int x = box_set(t, s, len, in_set);
      if (x < N) {
        int in, out;
        set_links(t, in_set, &in, &out);
        take(b, cut_time(N, x, in, out, S, B), x, in, out);
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

int mt_bound_of(const mt_topo *t, uint64_t bytes, double B, mt_bound *b, mt_err *e) {
  memset(b, 0, sizeof *b);
  const int N = t->n_nodes;
  const double S = (double)bytes;
  if (B <= 0) return mt_fail(e, "link bandwidth %g bytes per cycle: expected > 0", B);
  if (N < 2) return mt_fail(e, "%s has %d node: an all-reduce needs 2 or more", t->spec, N);
  long links = 0;
  int *in = mt_xcalloc((size_t)t->n_vert, sizeof(int)), *out = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  for (int l = 0; l < t->n_links; l++) { /* links to switches count: a node behind one has its NI link */
    out[t->links[l].src] += t->links[l].mult;
    in[t->links[l].dst] += t->links[l].mult;
  }
  b->per_node = -1;
  for (int v = 0; v < N; v++) {
    if (!in[v] || !out[v]) {
      mt_fail(e, "%s: node %d has no link %s", t->spec, v, in[v] ? "out" : "in");
      free(in);
      free(out);
      return -1;
    }
    links += out[v];
    const double tt = cut_time(N, 1, in[v], out[v], S, B);
    if (tt > b->per_node * (1 + 1e-12)) {
      b->per_node = tt;
      b->per_node_v = v;
    }
    take(b, tt, 1, in[v], out[v]);
  }
  free(in);
  free(out);
  b->mean_degree = (double)links / N;
  b->average = 2.0 * (N - 1) * S / (N * b->mean_degree * B);
  if (N <= mt_bound_exact_n && N <= MT_BOUND_EXACT_N && t->n_sw == 0) {
    b->cut_family = MT_CUT_EXACT;
    unsigned char *in_set = mt_xcalloc((size_t)t->n_vert, 1);
    for (uint32_t m = 1; m + 1 < (1u << N); m++) {
      int x = 0, ci, co;
      for (int v = 0; v < N; v++) x += in_set[v] = (unsigned char)((m >> v) & 1);
      set_links(t, in_set, &ci, &co);
      take(b, cut_time(N, x, ci, co, S, B), x, ci, co);
    }
    free(in_set);
  } else if (mt_topo_is_grid(t)) {
    b->cut_family = MT_CUT_BOXES;
    boxes(t, S, B, b);
  } else
    b->cut_family = MT_CUT_NODES;
  return 0;
}
