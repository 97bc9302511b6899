/* SPDX-License-Identifier: Apache-2.0
 * mt_dimcoll: reduce-scatter and all-gather inside one dimension of a multi-dimensional
 * network (Themis Table 1): ring on a ring, direct on a fully-connected group, halving-
 * doubling on a switch. The building block of the hierarchical baseline (mt_plan_hier.c)
 * and of schedules that order chunks across dimensions (Themis). */
#ifndef MT_DIMCOLL_H
#define MT_DIMCOLL_H
#include "plan/mt_sched.h"
#ifdef __cplusplus
extern "C" {
#endif

/* A topology seen as dimensions: a multi-dimensional one (t->md), or a torus (every
 * dimension wider than 1 a bidirectional ring). */
typedef struct {
  int D;
  int kind[MT_MD_MAX_DIMS], size[MT_MD_MAX_DIMS], stride[MT_MD_MAX_DIMS];
  int bidir[MT_MD_MAX_DIMS]; /* rings: links both ways (a ring of 1 link per NPU runs one way) */
  int line[MT_MD_MAX_DIMS];  /* rings: a mesh's line, no wrap link (mt_mdview_grid only): two
                                chains into the root, one from each end, k-1 steps */
} mt_mdview;

/* The view of t; fails (naming `algo`) on topologies that are not multi-dimensional, and
 * on switch dimensions of a size that is not a power of two (halving-doubling). */
int mt_mdview_of(const mt_topo *t, const char *algo, mt_mdview *v, mt_err *e);
/* The view of a torus or a mesh (every dimension a ring; a mesh's dimensions are lines); fails
 * naming `algo` on other topologies. */
int mt_mdview_grid(const mt_topo *t, const char *algo, mt_mdview *v, mt_err *e);
/* Steps of one reduce-scatter (or all-gather) in dimension d: ring size-1, direct 1,
 * halving-doubling log2(size). */
int mt_dimcoll_steps(const mt_mdview *v, int d);
/* Add flow `flow`'s transfers of one reduce-scatter (op MT_OP_REDUCE) or all-gather
 * (MT_OP_GATHER) in dimension d, at steps step0+1 .. step0+mt_dimcoll_steps. The NPUs
 * taking part agree with `root` in the dimensions of the bit mask `fixed`; in every line
 * of them along d the data gathers at (reduce) or spreads from (gather) the NPU at root's
 * coordinate. dir: +1 or -1, the way round a bidirectional ring (others ignore it). */
int mt_dimcoll_add(mt_sched *s, const mt_mdview *v, int d, int op, int flow, int root, unsigned fixed, int dir, int step0, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
