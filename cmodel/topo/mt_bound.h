/* SPDX-License-Identifier: Apache-2.0
 * mt_bound: lower bounds on the time of an all-reduce of S bytes among the N end nodes of a
 * network whose directed link l carries w[l] B bytes per time unit (w: its multiplicity, times
 * its rate where links differ), in that time unit. docs/reference/bounds.md derives them:
 *
 * - per node: node v must send S bytes (every element of its input leaves it in some form)
 *   and receive S bytes (it must learn the others' contributions to every element), and it
 *   can do both at once: max_v S / (B min(out(v), in(v)));
 * - cut: a nonempty proper set X of end nodes must likewise send S out and receive S in:
 *   max_X S / (B min(in(X), out(X))), where X may hold switches too (they only forward):
 *   every node set when N <= MT_BOUND_EXACT_N and there are no switches, else every sub-box
 *   of a torus or mesh (single nodes and half planes included), else, when the switches form
 *   a tree (hier:, a star), single nodes and every switch's subtree, else single nodes;
 * - aggregate: every element needs at least N-1 receptions to be reduced at one node and
 *   N-1 more to reach the others, each ending on a link into an end node:
 *   2 (N-1) S / (B sum of w over the links into end nodes).
 *
 * The binding bound is the largest of the three. */
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
enum { MT_CUT_EXACT,      /* every node set */
       MT_CUT_BOXES,      /* sub-boxes of a torus or mesh */
       MT_CUT_NODES,      /* single nodes */
       MT_CUT_SUBTREES }; /* single nodes and every switch's subtree (a tree of switches) */
enum { MT_BOUND_AGGREGATE,
       MT_BOUND_PER_NODE,
       MT_BOUND_CUT };

typedef struct {
  double per_node;        /* time units */
  int per_node_v;         /* the node that gives it (the lowest id) */
  double cut;             /* >= per_node (single nodes are sets) */
  int cut_size;           /* |X| of the set that gives it */
  double cut_in, cut_out; /* its links in and out (w summed) */
  int cut_family;         /* MT_CUT_* */
  long cut_sets;          /* sets examined */
  double aggregate;       /* time units */
  double mean_degree;     /* w of the links into end nodes per end node */
  double bound;           /* the largest of the three */
  int binding;            /* MT_BOUND_*: which one */
} mt_bound;

/* The bounds of t for `bytes` bytes and B bytes per time unit per unit of w; w NULL: each
 * link's multiplicity. -1 with the reason in e on a node without links, or B <= 0. */
int mt_bound_rated(const mt_topo *t, uint64_t bytes, double B, const double *w, mt_bound *b, mt_err *e);
/* mt_bound_rated with w = multiplicities: unit links of B bytes per cycle. */
int mt_bound_of(const mt_topo *t, uint64_t bytes, double B, mt_bound *b, mt_err *e);
const char *mt_cut_family_name(int family);
const char *mt_bound_name(int binding); /* "aggregate", "per-node", "cut" */
/* The property no simulation may break: 0 when a run of `time` units is not below b's
 * binding bound, else -1 with both numbers (and `units`) in e. */
int mt_bound_assert(const mt_bound *b, double time, const char *units, mt_err *e);

/* Tests only: every bound mt_bound_rated returns is multiplied by this (default 1; the
 * environment variable MT_BOUND_SCALE sets it), to show that the checks of the bounds
 * (mt_bound_assert, the soak's own arithmetic) catch a wrong one. */
double mt_bound_fault_scale(void);

#ifdef __cplusplus
}
#endif
#endif
