/* SPDX-License-Identifier: Apache-2.0
 * mt_switch: a switch network's hardware from a planner topology (docs/reference/switch.md): every
 * switch vertex becomes a router in switch mode (mt_router_params.table = 1) with its network
 * ports first (a link of multiplicity m is m physical links, m consecutive ports) and its NI
 * ports after; every end node's NI attaches to one NI port of its leaf switch through an NI
 * link; and every switch gets a route table by destination node (MT_RT_TAB entries):
 * up/down (nearest common ancestor) on fat-trees, shortest paths with hop classes elsewhere.
 * Refuses what the model cannot build (end nodes linked to end nodes, end nodes with more than
 * one link, switches of more than 16 ports, routes needing more VC classes than there are),
 * naming the vertex and what is allowed. */
#ifndef MT_SWITCH_H
#define MT_SWITCH_H
#include <stdint.h>
#include "topo/mt_topo.h"
#ifdef __cplusplus
extern "C" {
#endif

#define MT_SW_MAX_PORTS 16 /* MT_RT_MAX_PORTS */
typedef struct {
  int n_nodes, n_sw;
  int *nnet, *nloc;                   /* [n_sw] network and NI ports of switch s */
  int *ni_sw, *ni_port;               /* [n_nodes] the switch (0..n_sw-1) and its router port node i attaches to */
  int nl;                             /* directed switch-to-switch physical links */
  int *lsrc, *lsport, *ldst, *ldport; /* [nl] switch indices and router ports */
  int *ltopo;                         /* [nl] the topology link it is one of */
  int *plink;                         /* [n_sw * MT_SW_MAX_PORTS]: the link leaving switch s on port p, or -1 */
  uint16_t *tab;                      /* [n_sw * n_nodes] route tables, switch s at tab + s * n_nodes */
  unsigned hop_classes;               /* VC classes the routes need (1: none, up/down or one switch hop) */
  int updown;                         /* 1: up/down routing (fat-tree levels), 0: shortest paths */
  int max_hops;                       /* most switch-to-switch hops of a route */
} mt_switch_net;

/* Build for topology t (not a grid) and num_vcs VCs. 0, or -1 with the reason in e. */
int mt_switch_build(mt_switch_net *w, const mt_topo *t, unsigned num_vcs, mt_err *e);
void mt_switch_free(mt_switch_net *w);
/* Follow the tables from node src to node dst (the port sets' choice by src): the number of
 * switch-to-switch hops, or -1 if the route does not arrive at dst's NI port within n_sw hops.
 * For the builder's own check and the tests. */
int mt_switch_walk(const mt_switch_net *w, int src, int dst);

#ifdef __cplusplus
}
#endif
#endif
