/* SPDX-License-Identifier: Apache-2.0
 * mt_dims_net: a multi-dimensional topology whose every dimension is a bidirectional ring
 * (dims:ring4@100x2,ring4@50x2,ring4@25x2, topo/mt_mdtopo.h) as the torus of the cycle model
 * (torus:4x4x4) with per-dimension link periods and latencies (docs/reference/network.md "Multi-
 * dimensional topologies in sim"). The conversion: the fastest dimension carries one flit per
 * cycle (payload_w / 8 bytes), so the clock is its GB/s over the flit bytes (100 GB/s, 16-B
 * flits: 6.25 GHz; it replaces clock_ghz, so GB/s figures are the spec's); dimension d's
 * period is the fastest GB/s over its GB/s, a whole number 1..255; its latency is its ns times
 * that clock, rounded to the nearest cycle (at least 1), or link_lat when the spec gives none.
 * Node ids agree (both mixed radix, dimension 1 fastest); link and port ids do not (the dims
 * graph numbers an NPU's ports in the order its links were made), so a schedule planned on
 * the dims topology is moved onto the torus link by link. */
#ifndef MT_DIMS_NET_H
#define MT_DIMS_NET_H
#include "net/mt_net_cfg.h"
#include "plan/mt_sched.h"
#include "topo/mt_bound.h"
#include "topo/mt_topo.h"
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

/* dims (MT_TOPO_DIMS) -> the torus *t and cfg's link_period, link_lat_d and clock_ghz; what
 * was mapped in desc (one line, no newline). -1 with the reason when a dimension cannot map
 * (a fully-connected or switch dimension, more than 3 dimensions, a ring that is not one link
 * each way, a bandwidth ratio that is not a whole number, cfg's link_period / link_lat_d set
 * already). */
int mt_dims_net_map(const mt_topo *dims, mt_net_cfg *cfg, mt_topo *t, char *desc, size_t dn, mt_err *e);
/* Move s (planned on dims) onto the torus t of mt_dims_net_map: every link id to t's link
 * between the same two nodes in the same direction. -1 with the link that has no twin. */
int mt_dims_net_move(mt_sched *s, const mt_topo *dims, const mt_topo *t, mt_err *e);

/* The bandwidth time of dimension d of a torus or ring (t) in the hierarchical all-reduce
 * (the Themis baseline: reduce-scatter dimension 1..D, all-gather D..1): each NPU sends
 * 2 (k_d - 1) / k_d of the bytes left at dimension d (bytes over the sizes of the dimensions
 * before it) over its two links of dimension d, each payload_w / 8 bytes per link_period[d]
 * cycles. Their largest is a lower bound of any pipelined hierarchical schedule (the slowest
 * dimension's), their sum the unpipelined baseline's bandwidth time. */
double mt_dims_net_dim_cycles(const mt_topo *t, const mt_net_cfg *cfg, uint64_t bytes, int d);

/* The lower bounds (topo/mt_bound.h) of an all-reduce of `bytes` on t in cycles of the cycle
 * model under cfg: a link carries payload_w / 8 bytes per link_period[d] cycles (grids, its
 * dimension d) times its multiplicity. -1 with the reason in e. */
int mt_net_bound(const mt_topo *t, const mt_net_cfg *cfg, uint64_t bytes, mt_bound *b, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
