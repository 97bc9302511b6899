/* SPDX-License-Identifier: Apache-2.0
 * mt_rate_net: the rates of a switch network's links in the cycle model (see mt_rate_net.h). */
#include "net/mt_rate_net.h"
#include <math.h>
#include <stdio.h>
#include "hw/mt_link.h"

int mt_rate_net_has(const mt_topo *t) {
  if (mt_topo_is_grid(t) || t->kind == MT_TOPO_DIMS || t->n_links < 1) return 0;
  for (int k = 0; k < t->n_links; k++)
    if (!(t->links[k].bw > 0)) return 0;
  return 1;
}

static double bw_max(const mt_topo *t) {
  double b = 0;
  for (int k = 0; k < t->n_links; k++)
    if (t->links[k].bw > b) b = t->links[k].bw;
  return b;
}

double mt_rate_net_ghz(const mt_topo *t, const mt_net_cfg *cfg) {
  return mt_rate_net_has(t) ? bw_max(t) / (cfg->payload_w / 8.0) : 0.0;
}

/* link k's period as a real ratio and its latency in real cycles, bmax the fastest GB/s */
static void rate_of(const mt_topo *t, const mt_net_cfg *cfg, double bmax, int k, double *r, double *c) {
  const mt_edge *l = &t->links[k];
  *r = bmax / l->bw;
  *c = l->lat > 0 ? floor(l->lat * (bmax / (cfg->payload_w / 8.0)) + 0.5) : (double)cfg->link_lat;
  if (*c < 1) *c = 1;
}

static void link_of(const mt_topo *t, const mt_net_cfg *cfg, double bmax, int k, unsigned *per, unsigned *lat) {
  double r, c;
  rate_of(t, cfg, bmax, k, &r, &c);
  const double p = floor(r + 0.5);
  *per = p < 1 ? 1u : p > 255 ? 255u
                              : (unsigned)p;
  *lat = c > MT_LINK_LAT_MAX ? MT_LINK_LAT_MAX : (unsigned)c;
}

void mt_rate_net_link(const mt_topo *t, const mt_net_cfg *cfg, int k, unsigned *per, unsigned *lat) {
  *per = 1;
  *lat = cfg->link_lat;
  if (mt_rate_net_has(t)) link_of(t, cfg, bw_max(t), k, per, lat);
}

int mt_rate_net_links(const mt_topo *t, const mt_net_cfg *cfg, unsigned *per, unsigned *lat) {
  const int has = mt_rate_net_has(t);
  const double bmax = has ? bw_max(t) : 0;
  for (int k = 0; k < t->n_links; k++) {
    per[k] = 1;
    lat[k] = cfg->link_lat;
    if (has) link_of(t, cfg, bmax, k, &per[k], &lat[k]);
  }
  return has;
}

int mt_rate_net_check(const mt_topo *t, const mt_net_cfg *cfg, mt_err *e) {
  if (!mt_rate_net_has(t)) return 0;
  const double bmax = bw_max(t), ghz = mt_rate_net_ghz(t, cfg);
  for (int k = 0; k < t->n_links; k++) {
    const mt_edge *l = &t->links[k];
    double r, c;
    rate_of(t, cfg, bmax, k, &r, &c);
    const double p = floor(r + 0.5);
    if (fabs(r - p) > 1e-9 * r || p > 255)
      return mt_fail(e, "%s: the link %d -> %d: %g GB/s is 1/%.4g of the fastest (%g GB/s); the cycle model paces a link by whole cycles per flit (1..255): use bandwidths whose ratios to the fastest are whole numbers, or --level flow",
                     t->spec, l->src, l->dst, l->bw, r, bmax);
    if (p > 1 && (!mt_is_switch(t, l->src) || !mt_is_switch(t, l->dst)))
      return mt_fail(e, "%s: end node %d's link to its switch is %g GB/s, slower than the fastest link (%g GB/s); the cycle model's NI sends a flit every cycle, so the end nodes' links must be the fastest: use --level flow",
                     t->spec, mt_is_switch(t, l->src) ? l->dst : l->src, l->bw, bmax);
    if (c > MT_LINK_LAT_MAX)
      return mt_fail(e, "%s: the link %d -> %d: %g ns is %.0f cycles at %g GHz (one %u-byte flit per cycle at %g GB/s); a link holds at most %u", t->spec,
                     l->src, l->dst, l->lat, c, ghz, cfg->payload_w / 8, bmax, MT_LINK_LAT_MAX);
  }
  return 0;
}

int mt_rate_net_map(const mt_topo *t, mt_net_cfg *cfg, char *desc, size_t dn, mt_err *e) {
  if (desc && dn) desc[0] = 0;
  if (!mt_rate_net_has(t)) return 0;
  if (mt_rate_net_check(t, cfg, e)) return -1;
  const double ghz = mt_rate_net_ghz(t, cfg);
  size_t w = 0;
  /* each distinct rate once, in link order (hier: level by level from the learners) */
  for (int k = 0; k < t->n_links && desc && w < dn; k++) {
    int seen = 0;
    for (int j = 0; j < k && !seen; j++) seen = t->links[j].bw == t->links[k].bw && t->links[j].lat == t->links[k].lat;
    if (seen) continue;
    unsigned per, lat;
    mt_rate_net_link(t, cfg, k, &per, &lat);
    w += (size_t)snprintf(desc + w, dn - w, "%s%g GB/s %g ns -> period %u, latency %u", w ? "; " : "links ", t->links[k].bw, t->links[k].lat, per, lat);
  }
  if (desc && w < dn) snprintf(desc + w, dn - w, " (one %u-byte flit per cycle at %g GB/s: %g GHz)", cfg->payload_w / 8, bw_max(t), ghz);
  cfg->clock_ghz = ghz;
  return 0;
}
