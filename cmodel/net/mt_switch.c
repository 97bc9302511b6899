/* SPDX-License-Identifier: Apache-2.0
 * mt_switch: switch ports, physical links and route tables from a topology (docs/reference/switch.md). */
#include "net/mt_switch.h"
#include <stdlib.h>
#include <string.h>
#include "hw/mt_router.h"

void mt_switch_free(mt_switch_net *w) {
  free(w->nnet);
  free(w->nloc);
  free(w->ni_sw);
  free(w->ni_port);
  free(w->lsrc);
  free(w->lsport);
  free(w->ldst);
  free(w->ldport);
  free(w->ltopo);
  free(w->tab);
  free(w->plink);
  memset(w, 0, sizeof *w);
}

int mt_switch_walk(const mt_switch_net *w, int src, int dst) {
  int s = w->ni_sw[src], hops = 0;
  for (;;) {
    const unsigned e = w->tab[(size_t)s * (size_t)w->n_nodes + (size_t)dst];
    if (!(e & MT_RT_TAB_VALID)) return -1;
    const unsigned cnt = ((e >> 4) & 15u) + 1u;
    const int p = (int)((e & 15u) + (unsigned)src % cnt);
    if (p >= w->nnet[s]) return s == w->ni_sw[dst] && p == w->ni_port[dst] ? hops : -1;
    const int k = w->plink[s * MT_SW_MAX_PORTS + p];
    if (k < 0 || ++hops > w->n_sw) return -1;
    s = w->ldst[k];
  }
}

/* The route entry of switch s toward topology link k (to another switch): its ports. */
static uint16_t entry_for(const mt_topo *t, const int *rport, int k) { return MT_RT_TAB(rport[k], t->links[k].mult); }

/* End nodes: one link each, of multiplicity 1, to a switch. */
static int check_end_nodes(const mt_topo *t, mt_err *e) {
  const int mp = t->max_ports;
  for (int i = 0; i < t->n_nodes; i++) {
    const int k = t->n_ports[i] == 1 ? t->port_link[i * mp] : -1;
    if (t->n_ports[i] != 1 || k < 0)
      return mt_fail(e, "%s: end node %d has %d links; in a switch network every end node has one NI link to its leaf switch", t->spec, i,
                     t->out_start[i + 1] - t->out_start[i]);
    if (!mt_is_switch(t, t->links[k].dst))
      return mt_fail(e, "%s: end node %d links end node %d directly; in a switch network every end node attaches to a switch port", t->spec, i,
                     t->links[k].dst);
    if (t->links[k].mult != 1)
      return mt_fail(e, "%s: end node %d has a link of multiplicity %d to its switch; an NI has one NI link (multiplicity 1)", t->spec, i,
                     t->links[k].mult);
  }
  return 0;
}

/* Router ports: network links first (m consecutive ports for multiplicity m), then NIs;
 * rport[k]: the first router port of topology link k at its source switch. */
static int assign_ports(mt_switch_net *w, const mt_topo *t, int *rport, mt_err *e) {
  const int N = t->n_nodes, S = t->n_sw, mp = t->max_ports;
  w->nnet = mt_xcalloc((size_t)S, sizeof(int));
  w->nloc = mt_xcalloc((size_t)S, sizeof(int));
  w->ni_sw = mt_xcalloc((size_t)N, sizeof(int));
  w->ni_port = mt_xcalloc((size_t)N, sizeof(int));
  for (int s = 0; s < S; s++) {
    const int v = N + s;
    for (int pass = 0; pass < 2; pass++)
      for (int p = 0; p < t->n_ports[v]; p++) {
        const int k = t->port_link[v * mp + p];
        if (k < 0 || mt_is_switch(t, t->links[k].dst) == pass) continue;
        if (!pass) {
          rport[k] = w->nnet[s];
          w->nnet[s] += t->links[k].mult;
          w->nl += t->links[k].mult;
        } else {
          rport[k] = w->nnet[s] + w->nloc[s]++;
          w->ni_sw[t->links[k].dst] = s;
          w->ni_port[t->links[k].dst] = rport[k];
        }
      }
    if (w->nnet[s] + w->nloc[s] > MT_RT_MAX_PORTS)
      return mt_fail(e, "%s: switch s%d has %d ports (%d to switches, counting parallel links, and %d NI ports); the switch model has at most %d",
                     t->spec, s, w->nnet[s] + w->nloc[s], w->nnet[s], w->nloc[s], MT_RT_MAX_PORTS);
  }
  return 0;
}

/* Physical switch-to-switch links (a link of multiplicity m is m of them) and plink. */
static void phys_links(mt_switch_net *w, const mt_topo *t, const int *rport) {
  const int N = t->n_nodes, S = t->n_sw;
  w->lsrc = mt_xcalloc((size_t)w->nl + 1, sizeof(int));
  w->lsport = mt_xcalloc((size_t)w->nl + 1, sizeof(int));
  w->ldst = mt_xcalloc((size_t)w->nl + 1, sizeof(int));
  w->ldport = mt_xcalloc((size_t)w->nl + 1, sizeof(int));
  w->ltopo = mt_xcalloc((size_t)w->nl + 1, sizeof(int));
  int nl = 0;
  for (int k = 0; k < t->n_links; k++) {
    const mt_edge *l = &t->links[k];
    if (!mt_is_switch(t, l->src) || !mt_is_switch(t, l->dst)) continue;
    for (int j = 0; j < l->mult; j++, nl++) {
      w->lsrc[nl] = l->src - N;
      w->lsport[nl] = rport[k] + j;
      w->ldst[nl] = l->dst - N;
      w->ldport[nl] = rport[t->rev_link[k]] + j;
      w->ltopo[nl] = k;
    }
  }
  w->plink = mt_xcalloc((size_t)S * MT_SW_MAX_PORTS, sizeof(int));
  for (int i = 0; i < S * MT_SW_MAX_PORTS; i++) w->plink[i] = -1;
  for (int k = 0; k < nl; k++) w->plink[w->lsrc[k] * MT_SW_MAX_PORTS + w->lsport[k]] = k;
}

/* Switch-to-switch distances in hops, [a * S + b] (-1: unreachable). */
static int *switch_dist(const mt_topo *t) {
  const int N = t->n_nodes, S = t->n_sw;
  int *dist = mt_xcalloc((size_t)S * (size_t)S, sizeof(int)), *q = mt_xcalloc((size_t)S, sizeof(int));
  for (int a = 0; a < S; a++) {
    int *d = dist + (size_t)a * S, h = 0, n = 0;
    for (int b = 0; b < S; b++) d[b] = -1;
    d[a] = 0;
    q[n++] = a;
    while (h < n) {
      const int u = q[h++];
      for (int x = t->out_start[N + u]; x < t->out_start[N + u + 1]; x++) {
        const int y = t->links[t->out_list[x]].dst;
        if (mt_is_switch(t, y) && d[y - N] < 0) {
          d[y - N] = d[u] + 1;
          q[n++] = y - N;
        }
      }
    }
  }
  free(q);
  return dist;
}

/* Fat-trees: up/down by level (lvl: distance from the leaf switches); desc[s][x]: leaf switch
 * x lies below s (reachable by down links only). */
static void fat_tree_levels(const mt_switch_net *w, const mt_topo *t, const int *dist, int *lvl, uint8_t *desc) {
  const int N = t->n_nodes, S = t->n_sw;
  int maxl = 0;
  for (int s = 0; s < S; s++) {
    lvl[s] = -1;
    for (int x = 0; x < S; x++)
      if (w->nloc[x] && (lvl[s] < 0 || dist[(size_t)s * S + x] < lvl[s])) lvl[s] = dist[(size_t)s * S + x];
    if (lvl[s] > maxl) maxl = lvl[s];
  }
  for (int l = 0; l <= maxl; l++)
    for (int s = 0; s < S; s++) {
      if (lvl[s] != l) continue;
      if (l == 0) desc[(size_t)s * S + s] = 1;
      for (int x = t->out_start[N + s]; x < t->out_start[N + s + 1]; x++) {
        const int y = t->links[t->out_list[x]].dst - N;
        if (y >= 0 && lvl[y] == l - 1)
          for (int z = 0; z < S; z++) desc[(size_t)s * S + z] |= desc[(size_t)y * S + z];
      }
    }
}

/* The route tables: at d's leaf switch its NI port; elsewhere one of the candidate links
 * (up/down on fat-trees, else one hop nearer), in port order, a fixed choice by destination. */
static void route_tables(mt_switch_net *w, const mt_topo *t, const int *rport, const int *dist, const int *lvl, const uint8_t *desc) {
  const int N = t->n_nodes, S = t->n_sw;
  w->tab = mt_xcalloc((size_t)S * (size_t)N, sizeof(uint16_t));
  int *cand = mt_xcalloc((size_t)t->n_links + 1, sizeof(int));
  for (int s = 0; s < S; s++)
    for (int d = 0; d < N; d++) {
      const int ld = w->ni_sw[d];
      uint16_t *te = &w->tab[(size_t)s * N + d];
      if (ld == s) {
        *te = MT_RT_TAB(w->ni_port[d], 1);
        continue;
      }
      int nc = 0, up = 0;
      for (int x = t->out_start[N + s]; x < t->out_start[N + s + 1]; x++) {
        const int k = t->out_list[x], y = t->links[k].dst - N;
        if (y < 0) continue;
        if (w->updown) {
          if (desc[(size_t)s * S + ld] ? lvl[y] == lvl[s] - 1 && desc[(size_t)y * S + ld] : lvl[y] == lvl[s] + 1) cand[nc++] = k;
          up = !desc[(size_t)s * S + ld];
        } else if (dist[(size_t)y * S + ld] >= 0 && dist[(size_t)y * S + ld] == dist[(size_t)s * S + ld] - 1) {
          cand[nc++] = k;
        }
      }
      if (!nc) continue; /* unreachable: check_routes reports it */
      /* candidates in port order; a fixed choice by destination: up a fat-tree, digit
       * lvl(s) of d in base nc (d-mod-k), so one upper switch carries d's traffic */
      long div = 1;
      for (int l = 0; up && l < lvl[s] && div < 1L << 20; l++) div *= nc;
      for (int a = 1; a < nc; a++)
        for (int b = a; b > 0 && rport[cand[b - 1]] > rport[cand[b]]; b--) {
          const int tmp = cand[b];
          cand[b] = cand[b - 1];
          cand[b - 1] = tmp;
        }
      *te = entry_for(t, rport, cand[(d / div) % nc]);
    }
  free(cand);
}

/* Every route arrives; the most switch hops give the VC classes (shortest paths), which
 * num_vcs must hold. */
static int check_routes(mt_switch_net *w, const mt_topo *t, unsigned num_vcs, mt_err *e) {
  const int N = t->n_nodes;
  int rc = 0;
  for (int a = 0; a < N && !rc; a++)
    for (int b = 0; b < N && !rc; b++) {
      if (a == b) continue;
      const int h = mt_switch_walk(w, a, b);
      if (h < 0)
        rc = mt_fail(e, "%s: no %s route from node %d to node %d", t->spec, w->updown ? "up/down" : "shortest", a, b);
      else if (h > w->max_hops)
        w->max_hops = h;
    }
  w->hop_classes = w->updown || w->max_hops < 1 ? 1u : (unsigned)w->max_hops;
  if (!rc && (w->hop_classes > num_vcs || num_vcs % w->hop_classes))
    rc = mt_fail(e, "%s: routes of up to %d switch-to-switch hops need %u VC classes (one per hop, docs/reference/switch.md); num_vcs=%u is not a multiple of %u",
                 t->spec, w->max_hops, w->hop_classes, num_vcs, w->hop_classes);
  return rc;
}

int mt_switch_build(mt_switch_net *w, const mt_topo *t, unsigned num_vcs, mt_err *e) {
  const int S = t->n_sw;
  memset(w, 0, sizeof *w);
  w->n_nodes = t->n_nodes;
  w->n_sw = S;
  if (S < 1) return mt_fail(e, "%s: no switches; the switch network model needs end nodes behind switches", t->spec);
  if (check_end_nodes(t, e)) return -1;
  int *rport = mt_xcalloc((size_t)t->n_links + 1, sizeof *rport);
  if (assign_ports(w, t, rport, e)) {
    free(rport);
    mt_switch_free(w);
    return -1;
  }
  phys_links(w, t, rport);
  int *dist = switch_dist(t);
  w->updown = t->kind == MT_TOPO_FATTREE;
  int *lvl = mt_xcalloc((size_t)S, sizeof(int));
  uint8_t *desc = mt_xcalloc((size_t)S * (size_t)S, 1);
  if (w->updown) fat_tree_levels(w, t, dist, lvl, desc);
  route_tables(w, t, rport, dist, lvl, desc);
  free(desc);
  free(lvl);
  free(rport);
  free(dist);
  const int rc = check_routes(w, t, num_vcs, e);
  if (rc) mt_switch_free(w);
  return rc;
}
