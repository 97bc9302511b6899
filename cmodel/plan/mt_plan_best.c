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
