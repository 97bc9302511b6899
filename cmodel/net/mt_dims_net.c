/* SPDX-License-Identifier: Apache-2.0
 * mt_dims_net: ring-only multi-dimensional topologies on the torus model (see mt_dims_net.h). */
#include "net/mt_dims_net.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "net/mt_rate_net.h"
#include "topo/mt_mdtopo.h"

int mt_dims_net_map(const mt_topo *dims, mt_net_cfg *cfg, mt_topo *t, char *desc, size_t dn, mt_err *e) {
  const mt_dims *md = &dims->md;
  memset(t, 0, sizeof *t);
  if (dims->kind != MT_TOPO_DIMS || md->D < 1) return mt_fail(e, "%s: not a multi-dimensional topology", dims->spec);
  if (md->D > 3) return mt_fail(e, "%s: %d dimensions; the cycle model's router has at most 3", dims->spec, md->D);
  double bmax = 0;
  int given = 0;
  for (int d = 0; d < md->D; d++) {
    const mt_dimspec *s = &md->d[d];
    if (s->kind != MT_DIM_RING)
      return mt_fail(e, "%s: dimension %d is %s%d; the cycle model runs dimensions that are rings (fully-connected and switch dimensions: the flow-level simulator)",
                     dims->spec, d + 1, mt_dim_kind_name(s->kind), s->size);
    const int want = s->size == 2 ? 1 : 2;
    if (s->links != want)
      return mt_fail(e, "%s: dimension %d (ring%d) has %d links per NPU; the torus model has %s", dims->spec, d + 1, s->size, s->links,
                     s->size == 2 ? "one link between the two NPUs of a 2-ring (x1)" : "one link to each neighbour (x2, a bidirectional ring)");
    if (s->bw > bmax) bmax = s->bw;
    given += s->bw > 0;
  }
  if (given && given < md->D) return mt_fail(e, "%s: give every dimension's GB/s or none", dims->spec);
  for (int d = 0; d < 3; d++)
    if (cfg->link_period[d] > 1 || cfg->link_lat_d[d])
      return mt_fail(e, "%s: link_period%d=%u link_lat%d=%u: on a dims: topology they come from its GB/s and ns; leave them 1 and 0", dims->spec,
                     d, cfg->link_period[d], d, cfg->link_lat_d[d]);
  const double fbytes = cfg->payload_w / 8.0, ghz = given ? bmax / fbytes : cfg->clock_ghz;
  char name[64];
  int o = snprintf(name, sizeof name, "torus:");
  size_t w = 0;
  if (desc && dn) desc[0] = 0;
  for (int d = 0; d < md->D; d++) {
    const mt_dimspec *s = &md->d[d];
    unsigned per = 1;
    if (given) {
      const double r = bmax / s->bw, k = floor(r + 0.5);
      if (fabs(r - k) > 1e-9 * r || k > 255)
        return mt_fail(e, "%s: dimension %d: %g GB/s is 1/%.4g of the fastest (%g GB/s); the cycle model paces a link by whole cycles per flit (1..255): use bandwidths whose ratios to the fastest are whole numbers",
                       dims->spec, d + 1, s->bw, r, bmax);
      per = (unsigned)k;
    }
    unsigned lat = cfg->link_lat;
    if (s->lat > 0) {
      const double c = floor(s->lat * ghz + 0.5);
      lat = c < 1 ? 1u : c > 1000000 ? 1000000u
                                     : (unsigned)c;
    }
    cfg->link_period[d] = per;
    cfg->link_lat_d[d] = lat;
    o += snprintf(name + o, sizeof name - (size_t)o, "%s%d", d ? "x" : "", s->size);
    if (desc && w < dn)
      w += (size_t)snprintf(desc + w, dn - w, "%sdim %d ring%d %g GB/s %g ns -> period %u, latency %u", d ? "; " : "", d + 1, s->size, s->bw, s->lat,
                            per, lat);
  }
  if (given) {
    cfg->clock_ghz = ghz;
    if (desc && w < dn) snprintf(desc + w, dn - w, " (one %g-byte flit per cycle at %g GB/s: %g GHz)", fbytes, bmax, ghz);
  }
  if (md->D == 1) snprintf(name, sizeof name, "ring:%d", md->d[0].size);
  if (mt_topo_from_name(t, name, e)) return -1;
  if (t->n_nodes != dims->n_nodes || t->ndims != md->D) {
    mt_topo_free(t);
    return mt_fail(e, "%s: %s has %d nodes in %d dimensions (internal)", dims->spec, name, t->n_nodes, t->ndims);
  }
  return 0;
}

/* t's link from a to b in dimension d (-1 none): through a's port +d, else -d */
static int twin(const mt_topo *t, int a, int b, int d) {
  for (int p = 2 * d; p < 2 * d + 2 && p < t->max_ports; p++) {
    const int k = t->port_link[a * t->max_ports + p];
    if (k >= 0 && t->links[k].dst == b) return k;
  }
  return -1;
}

int mt_dims_net_move(mt_sched *s, const mt_topo *dims, const mt_topo *t, mt_err *e) {
  int *map = mt_xcalloc((size_t)dims->n_links + 1, sizeof *map), rc = 0;
  for (int k = 0; k < dims->n_links && !rc; k++) {
    const mt_edge *l = &dims->links[k];
    map[k] = l->dim >= 0 && l->src < t->n_nodes && l->dst < t->n_nodes ? twin(t, l->src, l->dst, l->dim) : -1;
    if (map[k] < 0 || t->links[map[k]].mult != l->mult)
      rc = mt_fail(e, "%s: link %d (%d -> %d, dimension %d) has no twin of multiplicity %d in %s", dims->spec, k, l->src, l->dst, l->dim + 1, l->mult,
                   t->spec);
  }
  /* a reversed transfer's links are rev_link of its stored ones: the twins must agree */
  for (int k = 0; k < dims->n_links && !rc; k++)
    if (t->rev_link[map[k]] != map[dims->rev_link[k]])
      rc = mt_fail(e, "%s: link %d's reverse has another twin in %s (internal)", dims->spec, k, t->spec);
  for (int i = 0; i < s->nx && !rc; i++)
    if (s->x[i].path_len == 1) s->x[i].path_off = map[s->x[i].path_off];
  for (int j = 0; j < s->npath && !rc; j++) s->path[j] = map[s->path[j]];
  if (!rc) s->topo = t;
  free(map);
  return rc;
}

double mt_dims_net_dim_cycles(const mt_topo *t, const mt_net_cfg *cfg, uint64_t bytes, int d) {
  double left = (double)bytes;
  for (int j = 0; j < d; j++) left /= t->dim[j];
  const double k = t->dim[d], per = cfg->link_period[d] > 1 ? cfg->link_period[d] : 1;
  return 2.0 * (k - 1) / k * left / (2.0 * (cfg->payload_w / 8.0) / per);
}

int mt_net_bound(const mt_topo *t, const mt_net_cfg *cfg, uint64_t bytes, mt_bound *b, mt_err *e) {
  double *w = mt_xcalloc((size_t)t->n_links + 1, sizeof(double));
  for (int l = 0; l < t->n_links; l++) {
    const int d = t->links[l].dim;
    unsigned per = mt_topo_is_grid(t) && d >= 0 && d < 3 && cfg->link_period[d] > 1 ? cfg->link_period[d] : 1u, lat;
    if (mt_rate_net_has(t)) mt_rate_net_link(t, cfg, l, &per, &lat); /* a switch network's rated links */
    w[l] = (double)t->links[l].mult / per;
  }
  const int rc = mt_bound_rated(t, bytes, (double)(cfg->payload_w / 8), w, b, e);
  free(w);
  return rc;
}
