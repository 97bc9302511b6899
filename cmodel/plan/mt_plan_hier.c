/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_hier: the baseline of Themis (Section 2.3, Table 3): multi-rail hierarchical all-
 * reduce, reduce-scatter over dimension 1..D, then all-gather over D..1, each a basic
 * topology-aware collective of its dimension (mt_dimcoll), chunks in FIFO order. */
#include "plan/mt_dimcoll.h"

/* Flow f = H * root + h carries chunk f (address order). On a bidirectional ring the data
 * is halved and the halves go opposite ways round (h = 0: +, h = 1: -), so that both
 * directions' links are used; H = 2 when some dimension is such a ring, else 1. Every
 * NPU owns H flows after the reduce-scatter. All flows move in every step (one chunk per
 * collective; FIFO: entries of a step are in flow order). */
int mt_plan_hier(mt_sched *s, const mt_topo *t, mt_err *e) {
  mt_mdview v;
  if (mt_mdview_of(t, "hier", &v, e)) return -1;
  int H = 1, R = 0, steps[MT_MD_MAX_DIMS];
  for (int d = 0; d < v.D; d++) {
    if (v.bidir[d]) H = 2;
    steps[d] = mt_dimcoll_steps(&v, d);
    R += steps[d];
  }
  const int N = t->n_nodes;
  mt_sched_init(s, t, "hier", N * H);
  int rc = 0;
  for (int f = 0; f < N * H && !rc; f++) {
    const int root = f / H, dir = f % H ? -1 : +1;
    s->root[f] = root;
    /* reduce-scatter in dimension d among the NPUs that agree with root below d */
    for (int d = 0, at = 0; d < v.D && !rc; at += steps[d], d++)
      rc = mt_dimcoll_add(s, &v, d, MT_OP_REDUCE, f, root, (1u << d) - 1, dir, at, e);
    for (int d = v.D - 1, at = R; d >= 0 && !rc; at += steps[d], d--)
      rc = mt_dimcoll_add(s, &v, d, MT_OP_GATHER, f, root, (1u << d) - 1, dir, at, e);
  }
  s->reduce_steps = R;
  s->steps = 2 * R;
  if (rc) mt_sched_free(s);
  return rc ? -1 : 0;
}
