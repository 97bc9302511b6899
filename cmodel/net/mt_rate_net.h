/* SPDX-License-Identifier: Apache-2.0
 * mt_rate_net: the GB/s and ns of a switch network's links (hier:SPEC with '@GBPS[:LATns]',
 * a file: topology with rates) in the cycle model, the same conversion as a dims: topology's
 * (net/mt_dims_net.h): the fastest link carries one flit per cycle (payload_w / 8 bytes), so
 * the clock is its GB/s over the flit bytes; a link's period is the fastest GB/s over its
 * own, a whole number 1..255 (the output that drives it sends a flit at most every period
 * cycles: mt_router's per[]); its latency is its ns times that clock, rounded (at least 1),
 * or link_lat when it has none. An NI sends a flit every cycle, so every end node's link to
 * its switch must be of the fastest rate. docs/reference/network.md "Link rate and latency". */
#ifndef MT_RATE_NET_H
#define MT_RATE_NET_H
#include <stddef.h>
#include "net/mt_net_cfg.h"
#include "topo/mt_topo.h"
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

/* 1 when t is a switch network whose links have a GB/s (then every link has one), else 0. */
int mt_rate_net_has(const mt_topo *t);
/* The cycle model's clock in GHz for t under cfg (the fastest link's GB/s over the flit
 * bytes), 0 without rates. */
double mt_rate_net_ghz(const mt_topo *t, const mt_net_cfg *cfg);
/* Topology link k's period and latency in cycles (1 and link_lat without rates). */
void mt_rate_net_link(const mt_topo *t, const mt_net_cfg *cfg, int k, unsigned *per, unsigned *lat);
/* The same for every link at once (per[], lat[] of t->n_links); 1 when t has rates, else 0. */
int mt_rate_net_links(const mt_topo *t, const mt_net_cfg *cfg, unsigned *per, unsigned *lat);
/* Every link of t against the cycle model: a whole ratio 1..255 to the fastest, a latency of
 * at most MT_LINK_LAT_MAX cycles, an end node's link of the fastest rate. -1 with the reason. */
int mt_rate_net_check(const mt_topo *t, const mt_net_cfg *cfg, mt_err *e);
/* Checks t and sets cfg->clock_ghz to the clock (GB/s figures are then the spec's); what was
 * mapped in desc (one line, no newline). Without rates: 0, cfg and desc ("") unchanged. */
int mt_rate_net_map(const mt_topo *t, mt_net_cfg *cfg, char *desc, size_t dn, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
