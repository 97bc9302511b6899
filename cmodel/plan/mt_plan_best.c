/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_best: MultiTree or bucket (on a mesh also meshtree), whichever a latency estimate says is faster for these
 * bytes (docs/reference/planner.md "best"). The schedule keeps the chosen algorithm's name, so check
 * and the tables see that algorithm. */
#include <stdlib.h>
#include <string.h>
#include "plan/mt_sched.h"

/* Estimated cycles of the paper configuration (16 B/cycle links, 150-cycle latency, the NI
 * issuing a step when its packetisers are idle): per step L + O m + b / B, m the most
 * messages and b the most bytes on one directed link in the step (MT_EST_*, mt_sched.h). */
double mt_plan_estimate(const mt_sched *s) {
  const int nl = s->topo->n_links;
  double *b = calloc((size_t)nl * (size_t)(s->steps + 1), sizeof(double)), t = 0;
  int *m = calloc((size_t)nl * (size_t)(s->steps + 1), sizeof(int));
  for (int i = 0; i < s->nx; i++)
    for (int j = 0; j < s->x[i].path_len; j++) {
      const size_t k = (size_t)s->x[i].step * (size_t)nl + (size_t)MT_XLINK(s, &s->x[i], j);
      b[k] += (double)s->chunk[s->x[i].flow].size;
      m[k]++;
    }
  for (int st = 1; st <= s->steps; st++) {
    double bx = 0;
    int mx = 0;
    for (int l = 0; l < nl; l++) {
      const size_t k = (size_t)st * (size_t)nl + (size_t)l;
      if (b[k] > bx) bx = b[k];
      if (m[k] > mx) mx = m[k];
    }
    t += MT_EST_L + MT_EST_O * mx + bx / MT_EST_B;
  }
  free(b);
  free(m);
  return t;
}

/* On a topology whose links carry bandwidths (dims:, themis:), ns: per step the most bytes on
 * one directed link over its capacity (bw x mult) plus the longest path latency of the step. */
double mt_plan_estimate_ns(const mt_sched *s) {
  const mt_topo *t = s->topo;
  const int nl = t->n_links;
  double *b = mt_xcalloc((size_t)nl * (size_t)(s->steps + 1), sizeof(double)), *lat = mt_xcalloc((size_t)s->steps + 1, sizeof(double)), tot = 0;
  for (int i = 0; i < s->nx; i++) {
    double a = 0;
    for (int j = 0; j < s->x[i].path_len; j++) {
      const int l = MT_XLINK(s, &s->x[i], j);
      b[(size_t)s->x[i].step * (size_t)nl + (size_t)l] += (double)s->chunk[s->x[i].flow].size;
      a += t->links[l].lat;
    }
    if (a > lat[s->x[i].step]) lat[s->x[i].step] = a;
  }
  for (int st = 1; st <= s->steps; st++) {
    double w = 0;
    for (int l = 0; l < nl; l++) {
      const double cap = (t->links[l].bw > 0 ? t->links[l].bw : 1.0) * (t->links[l].mult > 0 ? t->links[l].mult : 1);
      const double x = b[(size_t)st * (size_t)nl + (size_t)l] / cap;
      if (x > w) w = x;
    }
    tot += w + lat[st];
  }
  free(b);
  free(lat);
  return tot;
}

/* On a multi-dimensional system also dimbal expanded with 1 and 4 chunks (its flows are
 * then at most 4 x 2 x N: the expansion stays near MultiTree's size), by mt_plan_estimate_ns. */
static void best_dims(mt_sched *s, const mt_topo *t, uint64_t bytes, int elem) {
  double est = mt_plan_estimate_ns(s);
  const int saved = mt_plan_opt.chunks;
  for (int c = 1; c <= 4; c *= 4) {
    mt_sched d;
    mt_err de = {{0}};
    mt_plan_opt.chunks = c;
    if (mt_plan(&d, t, "dimbal", bytes, elem, &de)) continue;
    const double x = mt_plan_estimate_ns(&d);
    if (x < est) {
      mt_sched_free(s);
      *s = d;
      est = x;
    } else
      mt_sched_free(&d);
  }
  mt_plan_opt.chunks = saved;
}

int mt_plan_best(mt_sched *s, const mt_topo *t, mt_err *e) {
  const uint64_t bytes = mt_plan_opt.bytes ? mt_plan_opt.bytes : (uint64_t)t->n_nodes * 64;
  const int elem = mt_plan_opt.elem ? mt_plan_opt.elem : 4;
  mt_sched mt, bk;
  mt_err be = {{0}};
  if (mt_plan(&mt, t, "multitree", bytes, elem, e)) return -1;
  /* on a non-square torus too since bucket's tables issue a step's entries by bytes per port
   * (before, the in-order issue cost bucket 10-20 % there, which the estimate does not model:
   * docs/reference/planner.md "Pipelined chunks") */
  if (t->kind != MT_TOPO_TORUS && t->kind != MT_TOPO_MESH) {
    *s = mt;
    if (t->kind == MT_TOPO_DIMS) best_dims(s, t, bytes, elem);
    mt_plan_opt.bytes = bytes;
    mt_plan_opt.elem = elem;
    return 0;
  }
  if (mt_plan(&bk, t, "bucket", bytes, elem, &be)) { /* e.g. too few bytes for bucket's flows */
    *s = mt;
    return 0;
  }
  const int pick_bucket = mt_plan_estimate(&bk) < mt_plan_estimate(&mt);
  *s = pick_bucket ? bk : mt;
  mt_sched_free(pick_bucket ? &mt : &bk);
  /* on a mesh also meshtree (its trees load the links of unequal-degree nodes alike) */
  mt_sched ms;
  mt_err me = {{0}};
  if (t->kind == MT_TOPO_MESH && !mt_plan(&ms, t, "meshtree", bytes, elem, &me)) {
    if (mt_plan_estimate(&ms) + ms.steps * MT_EST_DEP < MT_EST_MESHTREE_MARGIN * mt_plan_estimate(s)) {
      mt_sched_free(s);
      *s = ms;
    } else
      mt_sched_free(&ms);
  }
  mt_plan_opt.bytes = bytes;
  mt_plan_opt.elem = elem;
  return 0;
}
