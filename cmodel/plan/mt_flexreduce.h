/* SPDX-License-Identifier: Apache-2.0
 * mt_flexreduce: FlexReduce (Lee et al., DAC 2020, Section III, Fig. 3) and BlueConnect on a
 * tree of switches (topo/mt_hier.h), their cost model (Eq. 1-6) and the bound on reduce
 * calls per learner (Eq. 12). docs/reference/flexreduce.md.
 *
 * The plan is computed exactly in units of 1/den of the buffer (den: the least common
 * multiple over learners of the product of the degrees above them, so every portion is a
 * whole number of units); the schedule maps a boundary u to element floor(u * n / den), so
 * the ranges tile the buffer exactly in whole elements (a range may come out empty). */
#ifndef MT_FLEXREDUCE_H
#define MT_FLEXREDUCE_H
#include "plan/mt_sched.h"
#include "topo/mt_hier.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One planner entry: at `level`, under switch `node`, the sub-range [lo, hi) (units) is
 * reduced to `root` from the participants (the leaves that hold it, one per child of node;
 * the root among them or not). A reduce() call when np >= 2 or the root is not a holder. */
typedef struct {
  int level, node, root;
  uint64_t lo, hi;
  int np, poff; /* participants: parts[poff .. poff+np), in id order */
} mt_fr_entry;

typedef struct {
  int L;
  uint64_t den;
  int n_ent;
  mt_fr_entry *ent; /* by level, then node, then lo */
  int *parts;
  uint64_t *lo, *hi; /* [n_leaves]: each learner's final (fully reduced) range, units */
} mt_fr_plan;

/* FlexReduce_plan: portions, the reverse-BFS visit, assign_range, find_bounds. */
int mt_fr_plan_build(const mt_htree *h, mt_fr_plan *p, mt_err *e);
/* BlueConnect's decomposition, derived separately from the learners' coordinates; fails on a
 * hierarchy that is not symmetric (naming the difference; ring is the paper's fallback). */
int mt_blc_plan_build(const mt_htree *h, mt_fr_plan *p, mt_err *e);
void mt_fr_plan_free(mt_fr_plan *p);
static inline int mt_fr_is_call(const mt_fr_plan *p, const mt_fr_entry *x) {
  return x->np >= 2 || (x->np == 1 && p->parts[x->poff] != x->root);
}
/* Reduce calls rooted at each learner in `level` (calls[n_leaves]); returns the total. */
int mt_fr_calls(const mt_fr_plan *p, const mt_htree *h, int level, int *calls);
/* The schedule: one flow per piece between consecutive boundaries (in elements), its
 * reduce tree level by level (step l+1), the gather tree the reverse (step 2L-l). A root
 * that does not hold its range (its data went up inside its own subtree) keeps its own
 * partial sum instead of sending it, so no value is added twice. */
int mt_fr_emit(mt_sched *s, const mt_topo *t, const mt_htree *h, const mt_fr_plan *p, uint64_t bytes, int elem, mt_err *e);

/* ---- cost model (Section II-B, IV): n bytes, w GB/s (= bytes/ns), alpha ns -> ns ---- */
/* Eq. 2: ring reduce-scatter of n on d learners. */
double mt_fr_tr(double n, int d, double w, double alpha);
/* Eq. 3 (read as Eq. 10): BlueConnect, L levels of delta[l] learners and omega[l] GB/s. */
double mt_fr_cost_blc(double n, int L, const int *delta, const double *omega, double alpha);
/* Eq. 6: FlexReduce on the tree; w_x = the GB/s of the links from switch x down to its children. */
double mt_fr_cost_fr(const mt_htree *h, double n, double alpha);
/* Eq. 12: bound on the reduce calls of learner v in level l (l >= 1; 1 at level 0). */
int mt_fr_calls_bound(const mt_htree *h, int v, int l);

/* One line for `multitree plan`: reduce calls (total, per learner and level, the most),
 * the Eq. 12 bound, Eq. 6 and the flat ring's 2 T_r with alpha = the longest learner-to-
 * learner path latency and w = the slowest link. */
int mt_fr_summary(const mt_topo *t, int blc, uint64_t bytes, char *buf, size_t n, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
