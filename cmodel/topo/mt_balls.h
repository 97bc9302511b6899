/* SPDX-License-Identifier: Apache-2.0
 * mt_balls: the end nodes within b hops of every switch of a switch network, the whole
 * network counted (capacities ignored), as sorted disjoint node-id ranges.
 *
 * ball(x, b) = the end nodes v with a path x -> ... -> v of at most b links whose inner
 * vertices are switches. It is a lower bound for searches on what is left of the network:
 * no path of fewer links reaches them. Equal balls share one id (on a fat-tree a ball is a
 * pod, one range of ids, and all switches of a pod share it), so the table stays small. */
#ifndef MT_BALLS_H
#define MT_BALLS_H
#include "topo/mt_topo.h"
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int n_nodes, n_sw;
  int nb;         /* radii 0..nb-1 stored; ball(x, b) = ball(x, nb-1) for b >= nb */
  int *id;        /* [(x - n_nodes) * nb + b]; NULL when id16 holds them */
  uint16_t *id16; /* the same in 16 bits, when there are at most 65536 ids (a smaller table
                     for the searches' random reads) */
  int n_ids;      /* id 0 is the empty ball */
  int *off;       /* [n_ids + 1]: ball i is the ranges rng[off[i] .. off[i+1]) */
  int (*rng)[2];  /* [lo, hi) */
} mt_balls;

/* Build the balls of every switch of t. Returns 0, or -1 (nothing allocated) when t has no
 * switches or the ranges would exceed max_ranges (networks whose balls do not come in a few
 * ranges; callers then search without them). */
int mt_balls_build(mt_balls *bl, const mt_topo *t, long max_ranges);
void mt_balls_free(mt_balls *bl);
static inline int mt_ball(const mt_balls *bl, int x, int b) {
  const size_t i = (size_t)(x - bl->n_nodes) * (size_t)bl->nb + (size_t)(b < bl->nb ? b : bl->nb - 1);
  return bl->id16 ? bl->id16[i] : bl->id[i];
}

#ifdef __cplusplus
}
#endif
#endif
