/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_dimbal: the dimension-balanced chunked all-reduce. Themis's chunk schedule
 * (mt_chunksched: per chunk a reduce-scatter order over the dimensions, per dimension a queue
 * of stages), with each chunk's order chosen among all orders so that the largest
 * per-dimension wire time (bytes x share / bandwidth, the Latency Model's n_K x B_K) stays
 * smallest, and the chunk count and intra-dimension order picked by the Latency Model's
 * simulation of the schedule. Every order moves the same bytes per NPU in total, 2 (N-1)/N
 * of the buffer; balanced by bandwidth, every dimension finishes its share at the same time,
 * which is the aggregate bound. docs/reference/themis.md "dimbal". */
#include <stdlib.h>
#include <string.h>
#include "plan/mt_themis.h"

/* Orders tried per chunk: every permutation up to this many dimensions (120), the D
 * rotations above. */
#define DIMBAL_PERM_DIMS 5

/* The candidate orders, in lexicographic order of the permutations; returns their count. */
static int orders(int D, int (*out)[MT_MD_MAX_DIMS]) {
  int n = 0, p[MT_MD_MAX_DIMS];
  if (D > DIMBAL_PERM_DIMS) {
    for (int r = 0; r < D; r++, n++)
      for (int k = 0; k < D; k++) out[n][k] = (r + k) % D;
    return n;
  }
  for (int k = 0; k < D; k++) p[k] = k;
  for (;;) {
    memcpy(out[n++], p, sizeof p);
    int i = D - 2; /* the next permutation */
    while (i >= 0 && p[i] > p[i + 1]) i--;
    if (i < 0) return n;
    int j = D - 1;
    while (p[j] < p[i]) j--;
    int x = p[i];
    p[i] = p[j];
    p[j] = x;
    for (int a = i + 1, b = D - 1; a < b; a++, b--) x = p[a], p[a] = p[b], p[b] = x;
  }
}

int mt_dimbal_schedule(mt_chunksched *cs, const mt_mdview *v, const mt_latmodel *lm, uint64_t bytes, const mt_themis_opts *o, double *finish,
                       mt_err *e) {
  if (mt_themis_split(cs, v, bytes, o, e)) return -1;
  const int D = v->D;
  int(*ord)[MT_MD_MAX_DIMS] = mt_xcalloc(D > DIMBAL_PERM_DIMS ? (size_t)D : 120, sizeof *ord);
  const int n = orders(D, ord);
  double *load = cs->load; /* wire time per dimension so far, ns */
  for (int c = 0; c < cs->n_chunks; c++) {
    int best = 0;
    double bmax = 0, bsq = 0;
    for (int i = 0; i < n; i++) {
      double add[MT_MD_MAX_DIMS] = {0}, mx = 0, sq = 0;
      mt_themis_chunk_loads(lm, v, ord[i], (double)cs->chunk[c].bytes, add);
      for (int d = 0; d < D; d++) {
        const double l = load[d] + add[d];
        if (l > mx) mx = l;
        sq += l * l;
      }
      /* the smallest maximum, then the most even (sum of squares); ties: the first order */
      if (!i || mx < bmax || (mx == bmax && sq < bsq)) best = i, bmax = mx, bsq = sq;
    }
    double add[MT_MD_MAX_DIMS] = {0};
    memcpy(cs->chunk[c].order, ord[best], sizeof ord[best]);
    mt_themis_chunk_loads(lm, v, ord[best], (double)cs->chunk[c].bytes, add);
    for (int d = 0; d < D; d++) load[d] += add[d];
  }
  free(ord);
  if (mt_themis_order(cs, lm, finish, e)) {
    mt_chunksched_free(cs);
    return -1;
  }
  return 0;
}

int mt_dimbal_plan(mt_chunksched *cs, const mt_topo *t, int expand, mt_err *e) {
  static const int cand[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};
  const int nc = (int)(sizeof cand / sizeof cand[0]);
  mt_mdview v;
  if (mt_mdview_of(t, "dimbal", &v, e)) return -1;
  mt_latmodel lm;
  mt_latmodel_of(t, &v, &lm);
  /* a switch dimension's step crosses the NPU's up-link and the switch's down-link: twice
   * the link latency from NPU to NPU (as the flow level times it) */
  for (int d = 0; d < v.D; d++)
    if (v.kind[d] == MT_DIM_SW) lm.d[d].A = 2 * lm.d[d].steps * lm.d[d].lat;
  /* a torus in cycles gives no latency, and without one the model would always take the most
   * chunks: a step costs best's per-step estimate (MT_EST_L cycles of the paper
   * configuration, in the model's unit of one byte at MT_EST_B bytes a cycle) */
  if (!t->md.D)
    for (int d = 0; d < v.D; d++)
      if (lm.d[d].lat == 0) lm.d[d].A = lm.d[d].steps * MT_EST_L * MT_EST_B;
  mt_themis_opts o = {0, 0, mt_plan_opt.elem ? mt_plan_opt.elem : 4, 1, mt_plan_opt.overlap};
  for (int d = 0; d < v.D; d++)
    if (v.bidir[d]) o.H = 2;
  const int fixed = mt_plan_opt.chunks > 0;
  const uint64_t bytes = mt_plan_opt.bytes ? mt_plan_opt.bytes : (uint64_t)o.elem * (uint64_t)t->n_nodes * 2 * (uint64_t)(fixed ? mt_plan_opt.chunks : 64);
  int found = 0, erred = 0; /* the refusal reported: the first candidate's (fewest chunks) */
  double best = 0;
  memset(cs, 0, sizeof *cs);
  for (int i = 0; i < (fixed ? 1 : nc); i++) {
    o.chunks = fixed ? mt_plan_opt.chunks : cand[i];
    mt_err ce = {{0}};
    if (expand && mt_cs_check_limits(&v, o.chunks, t->n_nodes, o.H, 1, "dimbal", t->spec, &ce)) {
      if (!erred++) *e = ce;
      continue;
    }
    for (int q = 0; q < 2; q++) {
      o.intra = mt_plan_opt.intra >= 0 ? mt_plan_opt.intra : q ? MT_INTRA_FIFO
                                                               : MT_INTRA_SCF;
      if (q && mt_plan_opt.intra >= 0) break;
      mt_chunksched c;
      double fin = 0;
      if (mt_dimbal_schedule(&c, &v, &lm, bytes, &o, &fin, &ce)) {
        if (!erred++) *e = ce;
        continue;
      }
      if (!found || fin < best) { /* ties: the fewer chunks, SCF before FIFO */
        if (found) mt_chunksched_free(cs);
        *cs = c;
        best = fin;
        found = 1;
      } else
        mt_chunksched_free(&c);
    }
  }
  return found ? 0 : -1;
}

int mt_plan_dimbal(mt_sched *s, const mt_topo *t, mt_err *e) {
  mt_chunksched cs;
  if (mt_dimbal_plan(&cs, t, 1, e)) return -1;
  const int rc = mt_chunksched_expand(&cs, t, "dimbal", s, e);
  mt_chunksched_free(&cs);
  return rc;
}
