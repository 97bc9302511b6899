/* SPDX-License-Identifier: Apache-2.0
 * mt_hier: hierarchies of switches with learners at the leaves (FlexReduce, DAC 2020,
 * Section III), symmetric or not, and the tree view of any tree-shaped switch network.
 *   hier:4+3@16:500,@1.25:5000      machines of 4 and 3 learners (16 GB/s, 500 ns links to
 *                                   their machine switch) behind one top switch (1.25 GB/s,
 *                                   5000 ns machine-to-top links)
 *   hier:2+2+2+2@16,2+2@4,@1        nested: 4 machines, 2 racks of 2, one top switch
 * Level 0 lists the learners of each bottom switch; level k >= 1 lists how many level-(k-1)
 * switches each level-k switch holds (empty: all of them); the last level must be a single
 * switch. `@BW[:LAT]` gives the GB/s and ns of the links from that level's switches down to
 * their children (omitted: 0, the cycle model's unit link). docs/reference/flexreduce.md. */
#ifndef MT_HIER_H
#define MT_HIER_H
#include "topo/mt_topo.h"
#ifdef __cplusplus
extern "C" {
#endif

#define MT_HIER_MAX_LEVELS 8

/* hier:SPEC (the whole name). Learners 0..N-1 in the order of the groups; switches after
 * them, level by level from the bottom, the top switch last. */
int mt_topo_from_hier_name(mt_topo *t, const char *name, mt_err *e);

/* A tree-shaped network seen as FlexReduce's tree: vertices as in mt_topo (end nodes are the
 * leaves), every switch a branch node. The root is the top switch of a hier: topology, else
 * the switch of least height (a centre; ties to the lower id). Branch levels count from the
 * bottom as in the paper (level 0 the lowest, L-1 the root): level = L-1-depth. */
typedef struct {
  int n_leaves, n_vert, root, L;
  int *parent;            /* [n_vert]: parent vertex, -1 at the root */
  int *depth, *level;     /* [n_vert]: depth from the root; level of switches (-1 for leaves) */
  int *cstart, *clist;    /* children of v: clist[cstart[v] .. cstart[v+1]) in id order */
  double *up_bw, *up_lat; /* [n_vert]: GB/s (x multiplicity) and ns of the link to the parent */
  int *lstart, *llist;    /* leaves under v: llist[lstart[v] .. lstart[v+1]) in id order */
} mt_htree;

/* Fails, naming the topology and the vertex, when a node links to anything but a single
 * switch, or the switches do not form a tree. */
int mt_htree_of(const mt_topo *t, mt_htree *h, mt_err *e);
void mt_htree_free(mt_htree *h);
static inline int mt_htree_deg(const mt_htree *h, int v) { return h->cstart[v + 1] - h->cstart[v]; }
/* The ancestor of v at branch level l (v itself when it is that switch), or -1. */
int mt_htree_anc(const mt_htree *h, int v, int l);
/* Symmetric (the paper's "horizontal symmetry", Eq. 7): every leaf at the same depth and
 * every switch of a level of the same degree. 0 with the first difference in why. */
int mt_htree_symmetric(const mt_htree *h, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
