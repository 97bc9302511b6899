/* SPDX-License-Identifier: Apache-2.0
 * mt_bound: lower bounds on the time of an all-reduce of S bytes on a network whose links
 * carry B bytes per cycle each way (a link of multiplicity m carries m B), in cycles.
 *
 * - per node: node v sends (N-1)/N S in the reduce-scatter over its out links and receives
 *   as much in the all-gather over its in links: max_v (N-1)/N S (1/out(v) + 1/in(v)) / B;
 * - cut: a set X of end nodes must receive (N-|X|)/N S in the all-gather over the links into
 *   X and send as much out in the reduce-scatter: max_X (N-|X|)/N S (1/in(X) + 1/out(X)) / B;
 *   every node set when N <= MT_BOUND_EXACT_N, else every sub-box of a torus or mesh (which
 *   includes single nodes and half planes), else single nodes; end-node sets only (switches
 *   never join X), so behind switches it is the per-node bound;
 * - average: 2(N-1)S / (N d B), d = links per node on average (docs/results/fig9.md's bound):
 *   all links busy all the time, not achievable where a node has fewer links than d. */
#ifndef MT_BOUND_H
#define MT_BOUND_H
#include <stdint.h>
#include "topo/mt_topo.h"
#ifdef __cplusplus
extern "C" {
#endif

#define MT_BOUND_EXACT_N 20
/* Node sets are enumerated up to this many nodes (default MT_BOUND_EXACT_N; a test sets 0 to
 * compare the sub-box family with the exact bound). */
extern int mt_bound_exact_n;
enum { MT_CUT_EXACT,   /* every node set */
       MT_CUT_BOXES,   /* sub-boxes of a torus or mesh */
       MT_CUT_NODES }; /* single nodes */

typedef struct {
  double per_node;     /* cycles */
  int per_node_v;      /* the node that gives it (the lowest id) */
  double cut;          /* cycles, >= per_node */
  int cut_size;        /* |X| of the set that gives it */
  int cut_in, cut_out; /* its links in and out (multiplicities summed) */
  int cut_family;      /* MT_CUT_* */
  long cut_sets;       /* sets examined */
  double average;      /* cycles */
  double mean_degree;  /* d */
} mt_bound;

/* The three bounds of t for `bytes` bytes and B bytes per cycle per link; -1 with the reason
 * in e on a network without links or B <= 0. */
int mt_bound_of(const mt_topo *t, uint64_t bytes, double B, mt_bound *b, mt_err *e);
const char *mt_cut_family_name(int family);

#ifdef __cplusplus
}
#endif
#endif
