/* SPDX-License-Identifier: Apache-2.0
 * mt_net_build: mt_net_new, in steps: the configuration checked against the schedule, the
 * network's shape from its defaults, the switches (a switch network) and the table layout,
 * the routers' and NIs' parameters, the blocks and memories, the watchdog limits, the links
 * (net/mt_net_priv.h lists the other parts). */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "net/mt_net_priv.h"
#include "net/mt_rate_net.h"

void mt_net_release(mt_net *n) {
  for (int i = 0; i < n->nr; i++)
    if (n->rt) mt_router_free(&n->rt[i]);
  mt_switch_free(&n->swn);
  for (int i = 0; i < n->N; i++) {
    if (n->ni) mt_ni_free(&n->ni[i]);
    if (n->pni) mt_pni_free(&n->pni[i]);
    if (n->mem) mt_mem_free(&n->mem[i]);
    if (n->input) free(n->input[i]);
  }
  mt_link_bank_free(&n->lnk);
  free(n->rt);
  free(n->rq);
  free(n->ni);
  free(n->pni);
  free(n->nq);
  free(n->ncfg);
  free(n->mem);
  free(n->input);
  free(n->backed);
  free(n->lsrc);
  free(n->lsport);
  free(n->ldst);
  free(n->ldport);
  free(n->in_link);
  free(n->out_link);
  free(n->lflits);
  free(n->lview);
  free(n->rin);
  free(n->nin);
  free(n->ld_img);
  free(n->tr_tx);
  free(n->tr_rx);
  free(n->tr_ts);
  free(n->tper);
  free(n->tlat);
}

void mt_net_free(mt_net *n) {
  if (!n) return;
  mt_net_release(n);
  free(n);
}

/* --data sample: the pages of node memories of nw + stage words that hold a flow chunk's
 * first or last word, in the buffer and at the same place in every staging slot after it
 * (the stager writes a unit of address a of child slot k at stage_base + k * stage_slot + a,
 * both the buffer's size). Returns the map (1 per backed page) and the count. */
static uint8_t *sample_pages(const mt_sched *s, uint64_t nw, uint64_t stage, uint64_t *count) {
  const uint64_t np = (nw + stage + MT_MEM_PAGE_WORDS - 1u) >> MT_MEM_PAGE_SHIFT;
  uint8_t *b = mt_xcalloc(np ? np : 1, 1);
  for (int f = 0; f < s->n_flows; f++) {
    if (!s->chunk[f].size) continue;
    const uint64_t a = s->chunk[f].addr / 4, z = (s->chunk[f].addr + s->chunk[f].size) / 4 - 1u;
    for (uint64_t o = 0; o <= stage; o += nw) {
      b[(a + o) >> MT_MEM_PAGE_SHIFT] = 1;
      b[(z + o) >> MT_MEM_PAGE_SHIFT] = 1;
    }
  }
  *count = 0;
  for (uint64_t k = 0; k < np; k++) *count += b[k];
  return b;
}

uint64_t mt_net_mem_estimate(const mt_sched *s, unsigned data) {
  const uint64_t nw = s->bytes / 4, ref = 4ull * (uint64_t)s->n_nodes * (nw < MT_NET_REF_WORDS ? nw + 1 : MT_NET_REF_WORDS);
  if (data == MT_NET_DATA_NONE) return 0;
  if (data == MT_NET_DATA_FULL) return (uint64_t)s->n_nodes * (s->bytes + 4) + ref;
  uint64_t pages;
  free(sample_pages(s, nw, 0, &pages));
  return (uint64_t)s->n_nodes * pages * MT_MEM_PAGE_WORDS * 4u + ref;
}

/* The router's and NI's parameter checks speak the RTL's names (NumVcs=9: ...); a user of
 * `sim` typed the configuration key. Name both, from the key table (mt_cfg_keys): "num_vcs
 * (NumVcs)=9: must be even, 2..16"; the NI's rx_engines= / mem_ports= (its C fields) become
 * the ni_ key (issue #11, item 11). Whole words only. */
static void name_keys(mt_err *e) {
  int nk;
  const mt_cfg_key *keys = mt_cfg_keys(&nk);
  char out[sizeof e->msg];
  size_t o = 0;
  for (const char *q = e->msg; *q && o + 1 < sizeof out;) {
    const mt_cfg_key *hit = NULL;
    size_t hl = 0;
    if (q == e->msg || !(isalnum((unsigned char)q[-1]) || q[-1] == '_'))
      for (int k = 0; k < nk && !hit; k++) {
        const char *c = keys[k].key + (strncmp(keys[k].key, "ni_", 3) ? strlen(keys[k].key) : 3); /* ni_x: C field x */
        if (keys[k].rtl && !strncmp(q, keys[k].rtl, hl = strlen(keys[k].rtl)) && q[hl] == '=') hit = &keys[k];
        else if (*c && !strncmp(q, c, hl = strlen(c)) && q[hl] == '=') hit = &keys[k];
      }
    if (!hit) {
      out[o++] = *q++;
      continue;
    }
    int w = hit->rtl && !strncmp(q, hit->rtl, hl) ? snprintf(out + o, sizeof out - o, "%s (%s)", hit->key, hit->rtl)
                                                  : snprintf(out + o, sizeof out - o, "%s", hit->key);
    if (w < 0 || (size_t)w >= sizeof out - o) break;
    o += (size_t)w;
    q += hl;
  }
  out[o] = '\0';
  memcpy(e->msg, out, o + 1);
}

/* One-hop units of two neighbours that arrive through one ejection port can deadlock: the
 * NI adds a flow's children in table order and a unit not due yet holds its ejection VC,
 * so the not-due units of the others can fill the port's VCs ahead of the due one
 * (docs/reference/ni.md "Limits"; make soak found it with local_ports=1 on every engine count and VC
 * count). Every neighbour must have an ejection port of its own: refuse the rest. */
static int shared_ejection_port(const mt_net *n, mt_err *e) {
  const mt_sched *s = n->s;
  const mt_topo *t = n->t;
  int *owner = mt_xcalloc((size_t)n->N * (size_t)n->L, sizeof *owner), rc = 0;
  for (int i = 0; i < s->nx && !rc; i++) {
    const mt_xfer *x = &s->x[i];
    if (x->multihop) continue;
    const mt_edge *last = &t->links[MT_XLINK(s, x, x->path_len - 1)];
    int *o = &owner[(size_t)x->dst * (size_t)n->L + (size_t)(last->dst_port % n->L)];
    if (*o && *o != x->src + 1)
      rc = mt_fail(e, "local_ports=%d: node %d's neighbours %d and %d would share its ejection port %d; with in-order reduction a shared ejection port can deadlock (docs/reference/ni.md \"Limits\"): use local_ports=0 (one per network port) or at least the %d network ports",
                   n->L, x->dst, *o - 1, x->src, last->dst_port % n->L, 2 * n->D);
    *o = x->src + 1;
  }
  free(owner);
  return rc;
}

/* The paper's runs (docs/reference/papersim.md "The rules and where each comes from"): MultiTree with
 * --strict-schedule --prioritize-schedule --estimate-lockstep (utils/run_torus_bandwidth.sh,
 * launch_torus8x8_multitree.sh), every other algorithm without them. */
void mt_net_paper_params(const mt_net_cfg *c, const mt_sched *s, unsigned L, mt_pni_params *p) {
  const int mtree = !strcmp(s->algo, "multitree");
  memset(p, 0, sizeof *p);
  p->payload_w = c->payload_w;
  p->num_vcs = c->num_vcs;
  p->nlocal = L;
  p->vc_depth = c->vc_depth;
  p->subpkt_flits = c->subpkt_flits;
  p->pkt_bytes = c->pkt_bytes;
  p->inj_vc = 0;
  p->ports = L;
  p->strict = (unsigned)mtree;
  p->nop_wait = (unsigned)mtree;
  p->step_prio = (unsigned)mtree;
  p->sendq = c->ni_paper_sendq;
  p->acc_width = c->ni_paper_acc_width;
  p->acc_pes = c->ni_paper_acc_pes;
  p->chunk_bytes = s->n_nodes ? s->bytes / (uint64_t)s->n_nodes : s->bytes;
  p->keep_data = c->data != MT_NET_DATA_NONE;
}

int mt_net_paper_local_ports(const mt_net_cfg *c, const char *algo) {
  if (c->ni_model != 1 || c->local_ports) return (int)c->local_ports;
  /* radix 4 (one NI port per router port of a 2-D torus) for MultiTree and 2D-Ring, radix 1 for the rest */
  return !strcmp(algo, "multitree") || !strcmp(algo, "ring2d") ? 0 : 1;
}

unsigned mt_net_ej_depth(const mt_net_cfg *c, int sw) {
  if (!sw) return c->ej_depth;
  return c->ni_link_depth ? c->ni_link_depth : c->vc_depth;
}

mt_net *mt_net_new(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, mt_err *e) {
  return mt_net_new_layout(c, s, tb, dtype, NULL, 0, 0, e);
}

/* Links of a torus or mesh by dimension (docs/reference/network.md "Link rate and latency"): only within
 * its dimensions, periods 1..255, latencies 0 (link_lat) or 1..MT_LINK_LAT_MAX. */
static int check_dim_links(const mt_net_cfg *c, const mt_topo *t, int sw, mt_err *e) {
  if (c->link_lat < 1) return mt_fail(e, "link_lat must be >= 1");
  for (int d = 0; d < 3; d++) {
    const int has = !sw && d < t->ndims;
    if ((c->link_period[d] > 1 || c->link_lat_d[d]) && !has)
      return mt_fail(e, "link_period%d=%u link_lat%d=%u: %s has no dimension %d (%s); leave them 1 and 0", d, c->link_period[d], d, c->link_lat_d[d], t->spec, d,
                     sw ? "a switch network: every link is alike" : "a torus or mesh has its dimensions 0..D-1");
    if (c->link_period[d] > 255 || c->link_lat_d[d] > MT_LINK_LAT_MAX)
      return mt_fail(e, "link_period%d=%u link_lat%d=%u: the period must be 1..255, the latency 0 (link_lat) or 1..%u", d, c->link_period[d], d,
                     c->link_lat_d[d], MT_LINK_LAT_MAX);
  }
  return 0;
}

/* The configuration c (ej_depth already the NIs', mt_net_ej_depth) against schedule s and its
 * topology, before anything is built: the NI link depth, local ports, widths, element size,
 * buffers deep enough for the flow control, the links. */
static int check_cfg(const mt_net_cfg *c, const mt_sched *s, int sw, mt_err *e) {
  const mt_topo *t = s->topo;
  if (c->flow > MT_NET_FLOW_PACKET) return mt_fail(e, "flow control %u: expected message (0) or packet (1)", c->flow);
  if (sw && c->ej_depth > MT_NI_MAX_EJD)
    return mt_fail(e, "%s: the NI link's ejection VCs would hold %u flits (ni_link_depth=%u, 0 = vc_depth=%u); an NI holds at most %d per VC: set ni_link_depth=1..%d",
                   t->spec, c->ej_depth, c->ni_link_depth, c->vc_depth, MT_NI_MAX_EJD, MT_NI_MAX_EJD);
  const char *ejk = sw ? "NI link depth (ni_link_depth, 0 = vc_depth)" : "ej_depth";
  if (sw && c->local_ports > 1)
    return mt_fail(e, "local_ports=%u: in a switch network (%s) every NI has one NI link to its leaf switch; use local_ports=0 or 1", c->local_ports, t->spec);
  for (int d = 0; !sw && d < t->ndims; d++)
    if (t->dim[d] < 2) return mt_fail(e, "%s: every dimension must be at least 2 wide for the router (use ring:N for one dimension)", t->spec);
  if (s->bytes % 4) return mt_fail(e, "%llu bytes is not a whole number of 4-byte elements", (unsigned long long)s->bytes);
  if (s->elem != 4) return mt_fail(e, "the network model moves 4-byte elements; the schedule was planned with %d-byte elements", s->elem);
  const int pkt_mode = c->flow == MT_NET_FLOW_PACKET;
  const unsigned fb = c->payload_w / 8;
  const unsigned pkt_flits = fb ? c->pkt_bytes / fb : 0;
  int routed = 0; /* multi-hop transfers travel as packets in either mode (docs/reference/ni.md) */
  for (int i = 0; i < s->nx && !routed; i++) routed = s->x[i].multihop;
  if ((pkt_mode || routed) && (pkt_flits + 1 > c->vc_depth || pkt_flits + 1 > c->ej_depth))
    return mt_fail(e, "%s with %u-byte packets needs %u-flit buffers (virtual cut-through); vc_depth=%u %s=%u",
                   pkt_mode ? "packet flow control" : "a schedule with multi-hop transfers (sent as packets)", c->pkt_bytes,
                   pkt_flits + 1, c->vc_depth, ejk, c->ej_depth);
  if (!pkt_mode && (c->subpkt_flits > c->vc_depth || c->subpkt_flits > c->ej_depth))
    return mt_fail(e, "message flow control with %u-flit sub-packets needs buffers of at least that; vc_depth=%u %s=%u",
                   c->subpkt_flits, c->vc_depth, ejk, c->ej_depth);
  return check_dim_links(c, t, sw, e) || (sw && mt_rate_net_check(t, c, e)) ? -1 : 0;
}

/* Link k of a switch network with rated links (switch-to-switch links, then the NI links up
 * and down): the period and latency of its topology link (n->tper, n->tlat). */
static void net_link_rate(const mt_net *n, int k, unsigned *per, unsigned *lat) {
  const mt_topo *t = n->t;
  const int nsl = n->swn.nl; /* n->nsl once build_links has run */
  int tk;
  if (k < nsl) tk = n->swn.ltopo[k];
  else {
    const int i = (k - nsl) % n->N;
    tk = t->port_link[i * t->max_ports]; /* node i's link to its switch (up); down: the reverse */
    if (k >= nsl + n->N) tk = t->rev_link[tk];
  }
  *per = n->tper[tk];
  *lat = n->tlat[tk];
}

/* The network's shape from the configuration's defaults: dimensions D, local ports L (0 =
 * 2D; a switch network's NI has one), router ports NP, routers nr (a switch network: its
 * switches). */
static mt_net *net_alloc(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, int sw) {
  const mt_topo *t = s->topo;
  mt_net *n = mt_xcalloc(1, sizeof *n);
  n->c = *c;
  n->s = s;
  n->tb = tb;
  n->t = t;
  n->dtype = dtype;
  n->N = t->n_nodes;
  n->sw = sw;
  n->D = sw ? 0 : t->ndims;
  n->L = sw ? 1 : c->local_ports ? (int)c->local_ports
                                 : 2 * n->D;
  n->NP = sw ? MT_RT_MAX_PORTS : 2 * n->D + n->L;
  n->nr = sw ? t->n_sw : n->N;
  if (sw && mt_rate_net_has(t)) {
    n->tper = mt_xcalloc((size_t)t->n_links + 1, sizeof *n->tper);
    n->tlat = mt_xcalloc((size_t)t->n_links + 1, sizeof *n->tlat);
    if (!mt_rate_net_links(t, c, n->tper, n->tlat)) {
      free(n->tper);
      free(n->tlat);
      n->tper = n->tlat = NULL;
    }
  }
  return n;
}

/* The tables against the network: their local ports, the switches' route tables (a switch
 * network) or the ejection ports (a grid), the table layout (fitted into hw when given), the
 * NI's table depth and flow entries (0: what the tables need). */
static int net_layout(mt_net *n, const mt_layout *hw, unsigned tbl_depth, unsigned max_flows, mt_err *e) {
  const mt_sched *s = n->s;
  const mt_tables *tb = n->tb;
  if (tb->local_ports && tb->local_ports != n->L) return mt_fail(e, "tables were planned for %d local ports, the network has %d", tb->local_ports, n->L);
  /* the paper's NI takes every flit at once: a shared ejection port cannot hold it up */
  if (n->sw ? mt_switch_build(&n->swn, n->t, n->c.num_vcs, e) : !n->c.ni_model && shared_ejection_port(n, e)) return -1;
  if (mt_layout_for(s, tb, 0, &n->ly, e) || (hw && mt_layout_fit(&n->ly, hw, e))) return -1;
  if (tbl_depth && tbl_depth < (unsigned)mt_layout_depth(tb))
    return mt_fail(e, "the tables need %d words per node, the NI holds %u", mt_layout_depth(tb), tbl_depth);
  if (max_flows && max_flows < (unsigned)s->n_flows) return mt_fail(e, "%s has %d flows, the NI tracks %u", s->algo, s->n_flows, max_flows);
  return 0;
}

/* Every router's parameters (a switch network: those of switch 0; build_routers sets each
 * switch's radix), checked. */
static int router_params(const mt_net *n, mt_router_params *rp, mt_err *e) {
  const mt_net_cfg *c = &n->c;
  const int sw = n->sw;
  mt_router_default_params(rp);
  rp->dims = (unsigned)n->D;
  rp->torus = n->t->kind == MT_TOPO_TORUS;
  for (int d = 0; d < 3; d++) rp->k[d] = d < n->D ? (unsigned)n->t->dim[d] : 1;
  rp->nlocal = (unsigned)n->L;
  rp->payload_w = c->payload_w;
  rp->num_vcs = c->num_vcs;
  rp->vc_depth = c->vc_depth;
  rp->ej_depth = c->ej_depth;
  rp->subpkt_flits = c->subpkt_flits;
  rp->step_prio = c->step_prio;
  rp->pipe = c->rt_pipe; /* a switch refuses 1 (mt_router_check_params) */
  rp->wd_w = 31;
  for (int d = 0; d < 3; d++) rp->period[d] = !sw && d < n->D && c->link_period[d] > 1 ? c->link_period[d] : 1u;
  if (sw) { /* every switch: its own radix (set per switch in build_routers), table routing */
    rp->table = 1;
    rp->hop_classes = n->swn.hop_classes;
    rp->nnet = (unsigned)n->swn.nnet[0];
    rp->nlocal = (unsigned)n->swn.nloc[0];
  }
  if (mt_router_check_params(rp, e)) {
    name_keys(e);
    mt_err_wrap(e, "router");
    return -1;
  }
  return 0;
}

/* Every NI's parameters, checked: the receive engines and memory ports resolved by
 * mt_ni_bw_defaults (0 = full bandwidth), the stager's area after the buffer (stage_words:
 * a slot of the buffer's size per child slot) that must fit the NI's 32-bit addresses. */
static int ni_params(mt_net *n, unsigned tbl_depth, unsigned max_flows, mt_ni_params *np, uint64_t *stage_words, mt_err *e) {
  const mt_net_cfg *c = &n->c;
  const mt_sched *s = n->s;
  mt_ni_default_params(np);
  np->payload_w = c->payload_w;
  np->num_vcs = c->num_vcs;
  np->nlocal = (unsigned)n->L;
  np->net_ports = n->sw ? 1u : (unsigned)(2 * n->D);
  np->ej_depth = c->ej_depth;
  np->vc_depth = c->vc_depth;
  np->subpkt_flits = c->subpkt_flits;
  np->pkt_bytes = c->pkt_bytes;
  np->tbl_depth = tbl_depth ? tbl_depth : (unsigned)mt_layout_depth(n->tb);
  np->max_flows = max_flows ? max_flows : (unsigned)s->n_flows;
  np->sq = c->ni_sq;
  np->rq = c->ni_rq;
  np->alu_pipe = c->ni_alu_pipe;
  np->wd_w = 32;
  np->rx_engines = c->ni_rx_engines;
  np->mem_ports = c->ni_mem_ports;
  mt_ni_bw_defaults(np->nlocal, &np->rx_engines, &np->mem_ports);
  n->nmp = np->mem_ports;
  if (c->ni_chain > 1) return mt_fail(e, "ni_chain=%u: 0 or 1", c->ni_chain);
  np->reduce_chain = c->ni_chain;
  np->stage_after = c->ni_stage_after;
  np->stage_ranges = c->ni_stage_ranges;
  *stage_words = c->ni_stage_after ? (uint64_t)(s->bytes / 4) * (uint64_t)n->ly.fmt.children : 0;
  if (c->ni_stage_after && (uint64_t)s->bytes * (1u + (uint64_t)n->ly.fmt.children) > 0xFFFFFFFFull)
    return mt_fail(e, "ni_stage_after=%u: the staging area (%d child slots x %llu bytes) does not fit the NI's 32-bit addresses; set ni_stage_after=0",
                   c->ni_stage_after, n->ly.fmt.children, (unsigned long long)s->bytes);
  np->fmt = n->ly.fmt;
  if (mt_ni_check_params(np, e)) {
    name_keys(e);
    mt_err_wrap(e, "network interface");
    return -1;
  }
  return 0;
}

/* The routers (a switch network: the switches, each with its radix and route table). */
static int build_routers(mt_net *n, mt_router_params *rp, mt_err *e) {
  n->rt = mt_xcalloc((size_t)n->nr, sizeof *n->rt);
  n->rq = mt_xcalloc((size_t)n->nr, sizeof *n->rq);
  for (int i = 0; i < n->nr; i++) {
    if (n->sw) {
      rp->nnet = (unsigned)n->swn.nnet[i];
      rp->nlocal = (unsigned)n->swn.nloc[i];
    }
    if (mt_router_init(&n->rt[i], rp, e) || (n->sw && mt_router_load_table(&n->rt[i], n->swn.tab + (size_t)i * n->N, (unsigned)n->N, e))) {
      mt_err_wrap(e, n->sw ? "switch s%d" : "router %d", i);
      return -1;
    }
  }
  /* a switch network's rated links: each switch-to-switch output sends a flit every period
   * cycles (the NI links are of the fastest rate, mt_rate_net_check) */
  for (int i = 0; n->tper && i < n->nr; i++)
    for (int o = 0; o < n->swn.nnet[i]; o++) {
      const int k = n->swn.plink[i * MT_SW_MAX_PORTS + o];
      unsigned per = 1, lat;
      if (k >= 0) net_link_rate(n, k, &per, &lat);
      n->rt[i].per[o] = (uint8_t)per;
      if (per > 1u) n->rt[i].pacedm |= 1u << o;
    }
  return 0;
}

/* Node i's NI configuration inputs (the watchdog limit is set again by set_watchdogs). */
static void ni_cfg(mt_net *n, int i) {
  const mt_sched *s = n->s;
  const mt_net_cfg *c = &n->c;
  mt_ni_in *cf = &n->ncfg[i];
  cf->dtype = (uint8_t)n->dtype;
  cf->pkt_mode = (uint8_t)(c->flow == MT_NET_FLOW_PACKET);
  cf->node_id = (uint16_t)i;
  cf->nflows = (uint16_t)s->n_flows;
  cf->base_units = (uint32_t)n->ly.base_units;
  cf->rem_units = (uint32_t)n->ly.rem_units;
  cf->elem = (uint32_t)n->ly.elem;
  cf->nop_bytes = (uint32_t)n->ly.nop_bytes;
  cf->wd_limit = c->wd_limit;
  cf->stage_base = c->ni_stage_after ? (uint32_t)s->bytes : 0u;
  cf->stage_slot = c->ni_stage_after ? (uint32_t)s->bytes : 0u;
}

/* Every node's NI (with its table image loaded by the back door), its configuration inputs
 * and its memory (the buffer and the staging area; --data sample: only the sampled pages). */
static int build_nodes(mt_net *n, const mt_ni_params *np, uint64_t stage_words, mt_err *e) {
  const mt_net_cfg *c = &n->c;
  const mt_sched *s = n->s;
  const int N = n->N;
  n->ni = mt_xcalloc((size_t)N, sizeof *n->ni);
  n->nq = mt_xcalloc((size_t)N, sizeof *n->nq);
  n->ncfg = mt_xcalloc((size_t)N, sizeof *n->ncfg);
  n->mem = mt_xcalloc((size_t)N, sizeof *n->mem);
  n->input = mt_xcalloc((size_t)N, sizeof *n->input);
  if (c->data > MT_NET_DATA_NONE) return mt_fail(e, "data mode %u: expected full, sample or none", c->data);
  uint64_t sampled = 0;
  if (c->data == MT_NET_DATA_SAMPLE) n->backed = sample_pages(s, s->bytes / 4, stage_words, &sampled);
  const int nw = mt_layout_words(&n->ly), depth = (int)np->tbl_depth;
  uint64_t *img = mt_xcalloc((size_t)depth * (size_t)nw, 8);
  int rc = 0;
  if (nw > MT_NI_EW) rc = mt_fail(e, "table entries of %d bits exceed the NI's %d", n->ly.width, 64 * MT_NI_EW);
  for (int i = 0; i < N && !rc; i++) {
    if (mt_ni_init(&n->ni[i], np, e)) {
      rc = -1;
      break;
    }
    mt_layout_node_image(&n->ly, n->tb, i, depth, nw, img);
    mt_ni_table_load(&n->ni[i], img, (unsigned)depth, (unsigned)nw);
    ni_cfg(n, i);
    const uint32_t mseed = 0x51ED + (uint32_t)i * 7919u;
    if (c->data == MT_NET_DATA_FULL ? mt_mem_init_mp(&n->mem[i], s->bytes / 4 + stage_words, c->payload_w / 32, n->nmp, c->mem_p_ready, c->mem_lat_max, mseed, e)
                                    : mt_mem_init_pages(&n->mem[i], s->bytes / 4 + stage_words, n->backed, c->payload_w / 32, n->nmp,
                                                        c->mem_p_ready, c->mem_lat_max, mseed, e))
      rc = -1;
  }
  free(img);
  return rc;
}

/* The schedule's memory time, step by step: node i's accesses in step t are a read per flit
 * it sends and a read and a write per flit it receives (a reduction; a Gather's write and the
 * read that forwards it count the same), all through its memory ports; the slowest node of a
 * step bounds how long that step keeps a waiting node waiting. Returns the sum over the steps
 * of the largest node's accesses in the step (saturating). */
static uint64_t sched_mem_accesses(const mt_sched *s, unsigned fb) {
  const int N = s->n_nodes, S = s->steps;
  uint32_t *start = mt_xcalloc((size_t)S + 2u, sizeof *start), *pos = mt_xcalloc((size_t)S + 1u, sizeof *pos);
  uint32_t *ord = mt_xcalloc((size_t)s->nx + 1u, sizeof *ord);
  uint64_t *acc = mt_xcalloc((size_t)N, sizeof *acc), sum = 0;
  for (int k = 0; k < s->nx; k++) start[(s->x[k].step < S ? s->x[k].step : S) + 1]++; /* by step */
  for (int t = 0; t <= S; t++) start[t + 1] += start[t];
  for (int t = 0; t <= S; t++) pos[t] = start[t];
  for (int k = 0; k < s->nx; k++) ord[pos[s->x[k].step < S ? s->x[k].step : S]++] = (uint32_t)k;
  for (int t = 0; t <= S; t++) {
    uint64_t mx = 0;
    for (uint32_t j = start[t]; j < start[t + 1]; j++) {
      const mt_xfer *x = &s->x[ord[j]];
      const uint64_t fl = (s->chunk[x->flow].size + fb - 1u) / fb;
      acc[x->src] += fl;
      acc[x->dst] += 2u * fl;
    }
    for (uint32_t j = start[t]; j < start[t + 1]; j++) {
      const mt_xfer *x = &s->x[ord[j]];
      if (acc[x->src] > mx) mx = acc[x->src];
      if (acc[x->dst] > mx) mx = acc[x->dst];
      acc[x->src] = acc[x->dst] = 0;
    }
    sum = sum + mx < sum ? UINT64_MAX : sum + mx;
  }
  free(start);
  free(pos);
  free(ord);
  free(acc);
  return sum;
}

/* Watchdogs. An NI makes no progress at all only in a deadlock or while it waits for
 * a message that is being reduced elsewhere: wd_limit plus per_flit cycles per flit of
 * the largest chunk. A router input VC may legitimately hold a message for several steps
 * (a reduce message waits in order behind others), so its limit grows with the whole
 * buffer: wd_limit plus per_flit cycles per flit of all the data. per_flit is 64 on a
 * fast network; slow links and memories stretch a legal wait (issue #11: link_lat=100000
 * or mem_p_ready=4 stopped correct runs), so it adds a credit round trip per buffer of
 * flits, the memory's expected wait per request (mem_p_ready is a percentage) and its
 * latency over the requests in flight; and every chain of dependent messages (at most
 * 2N, one per step) may wait a link and a memory latency. */
static void set_watchdogs(mt_net *n) {
  const mt_net_cfg *c = &n->c;
  const mt_sched *s = n->s;
  const int N = n->N;
  const unsigned fb = c->payload_w / 8;
  uint64_t mx = 0;
  for (int f = 0; f < s->n_flows; f++)
    if (s->chunk[f].size > mx) mx = s->chunk[f].size;
  const uint64_t wait = (100u + c->mem_p_ready - 1u) / c->mem_p_ready;
  unsigned dmin = c->vc_depth < c->ej_depth ? c->vc_depth : c->ej_depth;
  if (c->subpkt_flits < dmin) dmin = c->subpkt_flits;
  const unsigned qmin = c->ni_sq < c->ni_rq ? c->ni_sq : c->ni_rq;
  /* with links of several latencies and periods: the longest, and a flit per period */
  unsigned lmax = c->link_lat, pmax = 1;
  for (int d = 0; !n->sw && d < n->D; d++) {
    if (c->link_lat_d[d] > lmax) lmax = c->link_lat_d[d];
    if (c->link_period[d] > pmax) pmax = c->link_period[d];
  }
  for (int k = 0; n->tper && k < n->t->n_links; k++) { /* a switch network's rated links */
    if (n->tlat[k] > lmax) lmax = n->tlat[k];
    if (n->tper[k] > pmax) pmax = n->tper[k];
  }
  const uint64_t per_flit =
    (64u + (2ull * lmax + dmin - 1u) / dmin + 4u * (wait - 1u) + (c->mem_lat_max + qmin - 1u) / qmin) * pmax;
  const uint64_t chain = 8ull * (uint64_t)N * ((uint64_t)lmax + 4u + (uint64_t)c->mem_lat_max * wait);
  uint64_t wd = (uint64_t)c->wd_limit + per_flit * ((mx + fb - 1) / fb) + chain;
  uint64_t rwd = (uint64_t)c->wd_limit + per_flit * ((s->bytes + fb - 1) / fb) + chain;
  /* the stager acts after at most half the NI watchdog limit: a jam must be staged out
   * well before the watchdog calls it a deadlock (make soak seed 1 run 629: hd with a
   * drawn wd_limit of 11,968 stopped before the default T = 20,000 was reached) */
  const uint64_t wd2 = wd > 0x7FFFFFFFull ? 0x3FFFFFFFu : wd / 2u;
  const uint64_t T = c->wd_limit && c->ni_stage_after && wd2 >= 1u && c->ni_stage_after > wd2 ? wd2 : c->ni_stage_after;
  /* Jams resolved one after another (docs/reference/ni.md "Errors and the watchdog"): an NI's
   * stager turns on after T cycles of its own stall and stays on until the next start, so a
   * jam it clears costs T once per NI and run; the NIs of a jam whose stall counters a
   * neighbour's staging reset just short of T pay their T in a later jam (dgx2 flexreduce 2
   * KiB: 5 NIs at 11,243, 5 more at 22,250). An NI (and a router VC) that waits behind them
   * meanwhile makes no progress for up to N such rounds: the limits get N x T on top. */
  if (c->wd_limit && T) {
    wd += (uint64_t)N * T;
    rwd += (uint64_t)N * T;
  }
  /* The schedule's depth: a node waits for a message that the nodes of every step between its
   * send and that receive produce, each through its own memory, while the terms above count
   * the largest chunk once. A step lasts at most as long as its busiest node's accesses
   * (sched_mem_accesses) take at wait cycles each plus a link period: both limits grow by the
   * sum over the steps. The longest legal NI stall of scripts/wd_scan.py's 120 runs is a third
   * of the limit (ring:32 32 KiB, one port and engine, mem_p_ready=1: 2,268,845 cycles of a
   * 3,620,302-cycle run; limit 6,951,968). T stays as above: the cycles of a run do not change. */
  const uint64_t acc = c->wd_limit ? sched_mem_accesses(s, fb) : 0u, pa = wait + pmax;
  const uint64_t depth = acc > UINT64_MAX / pa ? UINT64_MAX : pa * acc;
  wd = wd + depth < wd ? UINT64_MAX : wd + depth;
  rwd = rwd + depth < rwd ? UINT64_MAX : rwd + depth;
  n->wd = wd > 0x7FFFFFFFull ? 0x7FFFFFFFu : (uint32_t)wd;
  n->rwd = rwd > 0x7FFFFFFFull ? 0x7FFFFFFFu : (uint32_t)rwd;
  for (int i = 0; i < N; i++) {
    n->ncfg[i].wd_limit = c->wd_limit ? n->wd : 0;
    n->ni[i].p.stage_after = (unsigned)T; /* mt_net_load: the value of its schedule */
  }
}

/* ni_model=1: the paper simulator's NIs, which read the tables the project's NIs hold. */
static int paper_nis(mt_net *n, mt_err *e) {
  const mt_net_cfg *c = &n->c;
  if (c->ni_model > 1) return mt_fail(e, "ni_model=%u: 0 (this project's NI) or 1 (the paper simulator's, docs/reference/papersim.md)", c->ni_model);
  if (c->ni_model != 1) return 0;
  mt_pni_params pp;
  mt_net_paper_params(c, n->s, (unsigned)n->L, &pp);
  n->pni = mt_xcalloc((size_t)n->N, sizeof *n->pni);
  for (int i = 0; i < n->N; i++)
    if (mt_pni_init(&n->pni[i], &pp, &n->ni[i], &n->ncfg[i], &n->mem[i], e)) return -1;
  return 0;
}

/* A switch network's link ends: switch-to-switch links first (switch s is vertex N + s),
 * then the NI links, node i's up to its switch (nsl + i) and back (nsl + N + i; an NI's
 * port is 0). */
static void switch_link_ends(mt_net *n) {
  const int N = n->N;
  for (int k = 0; k < n->nl; k++) {
    const int ni = k >= n->nsl ? (k - n->nsl) % N : -1, up = k < n->nsl + N;
    const int rs = k < n->nsl ? n->swn.lsrc[k] : n->swn.ni_sw[ni], rd = k < n->nsl ? n->swn.ldst[k] : rs;
    const int ps = k < n->nsl ? n->swn.lsport[k] : n->swn.ni_port[ni], pd = k < n->nsl ? n->swn.ldport[k] : ps;
    n->lsrc[k] = k < n->nsl || !up ? N + rs : ni;
    n->lsport[k] = k < n->nsl || !up ? ps : 0;
    n->ldst[k] = k < n->nsl || up ? N + rd : ni;
    n->ldport[k] = k < n->nsl || up ? pd : 0;
    if (k < n->nsl || up) n->in_link[rd * n->NP + pd] = k;
    if (k < n->nsl || !up) n->out_link[rs * n->NP + ps] = k;
  }
}

/* The links: every directed network link of the topology gets a delay line of its
 * dimension's latency (link_lat_d, 0: link_lat), and its ends are recorded both ways. */
static int build_links(mt_net *n, mt_err *e) {
  const mt_net_cfg *c = &n->c;
  const int sw = n->sw;
  n->nsl = sw ? n->swn.nl : n->t->n_links;
  n->nl = sw ? n->nsl + 2 * n->N : n->t->n_links;
  n->fw = mt_flit_words(c->payload_w, c->num_vcs);
  {
    uint8_t cm[8] = {0};
    for (unsigned v = 0; v < 8u && v < c->num_vcs; v++) cm[v] = 1;
    memcpy(&n->cmask, cm, sizeof cm);
  }
  n->minlat = n->maxlat = c->link_lat;
  for (int d = 0; d < 3; d++) {
    n->dlat[d] = !sw && d < n->D && c->link_lat_d[d] ? c->link_lat_d[d] : c->link_lat;
    if (d < (sw ? 1 : n->D)) {
      if (d == 0 || n->dlat[d] < n->minlat) n->minlat = n->dlat[d];
      if (d == 0 || n->dlat[d] > n->maxlat) n->maxlat = n->dlat[d];
    }
  }
  for (int k = 0; n->tper && k < n->nl; k++) { /* a switch network's rated links: their own latencies */
    unsigned per, lat;
    net_link_rate(n, k, &per, &lat);
    if (k == 0 || lat < n->minlat) n->minlat = lat;
    if (k == 0 || lat > n->maxlat) n->maxlat = lat;
  }
  /* mt_net_run lets each node run minlat - 1 cycles on its own (no link brings anything
   * younger: the lookahead is the shortest link's): the links keep that many more cycles
   * than the longest one needs. Switch networks run cycle by cycle. */
  n->blk = sw ? 0u : n->minlat - 1u;
  if (mt_link_bank_init(&n->lnk, (unsigned)n->nl, n->maxlat, n->maxlat + n->blk, n->fw, e)) {
    mt_err_wrap(e, "links");
    return -1;
  }
  n->lview = mt_xcalloc((size_t)n->nl, sizeof *n->lview);
  n->lsrc = mt_xcalloc((size_t)n->nl, sizeof(int));
  n->lsport = mt_xcalloc((size_t)n->nl, sizeof(int));
  n->ldst = mt_xcalloc((size_t)n->nl, sizeof(int));
  n->ldport = mt_xcalloc((size_t)n->nl, sizeof(int));
  n->in_link = mt_xcalloc((size_t)n->nr * n->NP, sizeof(int));
  n->out_link = mt_xcalloc((size_t)n->nr * n->NP, sizeof(int));
  for (int i = 0; i < n->nr * n->NP; i++) n->in_link[i] = n->out_link[i] = -1;
  n->lflits = mt_xcalloc((size_t)n->nl, sizeof(uint64_t));
  if (sw) switch_link_ends(n);
  int rc = 0;
  for (int k = 0; n->tper && n->minlat != n->maxlat && k < n->nl && !rc; k++) {
    unsigned per, lat;
    net_link_rate(n, k, &per, &lat);
    if ((rc = mt_link_bank_set_lat(&n->lnk, (unsigned)k, lat, e))) mt_err_wrap(e, "links");
  }
  if (rc) return -1;
  for (int k = 0; !sw && k < n->nl; k++) {
    const mt_edge *l = &n->t->links[k];
    if (n->minlat != n->maxlat && mt_link_bank_set_lat(&n->lnk, (unsigned)k, n->dlat[l->dim], e)) {
      mt_err_wrap(e, "links");
      return -1;
    }
    n->lsrc[k] = l->src;
    n->lsport[k] = l->src_port;
    n->ldst[k] = l->dst;
    n->ldport[k] = l->dst_port;
    n->in_link[l->dst * n->NP + l->dst_port] = k;
    n->out_link[l->src * n->NP + l->src_port] = k;
  }
  return 0;
}

/* The blocks' inputs: reset values (all zero) and the configuration fields. */
static void block_inputs(mt_net *n) {
  n->rin = mt_xcalloc((size_t)n->nr, sizeof *n->rin);
  n->nin = mt_xcalloc((size_t)n->N, sizeof *n->nin);
  for (int i = 0; i < n->nr; i++) {
    n->rin[i].node_id = n->sw ? 0u : (unsigned)i; /* a switch routes by its table alone */
    n->rin[i].wd_limit = n->c.wd_limit ? n->rwd : 0;
  }
  for (int i = 0; i < n->N; i++) n->nin[i] = n->ncfg[i];
}

mt_net *mt_net_new_layout(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, const mt_layout *hw, unsigned tbl_depth,
                          unsigned max_flows, mt_err *e) {
  const int sw = !mt_topo_is_grid(s->topo);
  /* from here on ej_depth is the NIs' ejection VC depth, whatever the network */
  mt_net_cfg cc = *c;
  cc.ej_depth = mt_net_ej_depth(c, sw);
  if (check_cfg(&cc, s, sw, e)) return NULL;
  mt_net *n = net_alloc(&cc, s, tb, dtype, sw);
  mt_router_params rp;
  mt_ni_params np;
  uint64_t stage_words = 0;
  if (net_layout(n, hw, tbl_depth, max_flows, e) || router_params(n, &rp, e) || ni_params(n, tbl_depth, max_flows, &np, &stage_words, e) ||
      build_routers(n, &rp, e) || build_nodes(n, &np, stage_words, e)) {
    mt_net_free(n);
    return NULL;
  }
  set_watchdogs(n);
  if (paper_nis(n, e) || build_links(n, e)) {
    mt_net_free(n);
    return NULL;
  }
  block_inputs(n);
  n->cap_bytes = s->bytes;
  return n;
}

int mt_net_idle(const mt_net *n, const char *what, int load_ok, mt_err *e) {
  if (!load_ok && n->ld_img && n->cycle < n->ld_at + n->ld_depth)
    return mt_fail(e, "%s: the table load of cycle %llu is under way (%llu of %u words written): step the network first", what,
                   (unsigned long long)n->ld_at, (unsigned long long)(n->cycle - n->ld_at), n->ld_depth);
  if (!n->started) return 0;
  if (n->cycle <= n->start_at)
    return mt_fail(e, "%s while an all-reduce is started (cycle %llu) and not run: call mt_net_run first", what, (unsigned long long)n->start_at);
  for (int i = 0; i < n->N; i++) {
    if (n->nq[i].err)
      return mt_fail(e, "%s: the last all-reduce stopped on node %d's NI error %u (%s); the network holds its messages: build a new one", what, i,
                     n->nq[i].err_code, mt_ni_err_name(n->nq[i].err_code));
    if (!n->nq[i].done)
      return mt_fail(e, "%s while an all-reduce runs (started at cycle %llu, node %d not done at cycle %llu)", what,
                     (unsigned long long)n->start_at, i, (unsigned long long)n->cycle);
  }
  for (int i = 0; i < n->nr; i++)
    for (int p = 0; p < (int)n->rt[i].np; p++)
      for (int v = 0; v < (int)n->c.num_vcs; v++)
        if (n->rq[i].wd_err[p][v] || n->rq[i].ovf_err[p][v] || n->rq[i].rt_err[p][v])
          return mt_fail(e, "%s: the last all-reduce raised an error flag of router %d port %d VC %d; build a new network", what, i, p, v);
  return 0;
}

int mt_net_load(mt_net *n, const mt_sched *s, const mt_tables *tb, mt_err *e) {
  if (mt_net_idle(n, "mt_net_load", 0, e)) return -1;
  if (n->pni) return mt_fail(e, "mt_net_load: the paper simulator's NIs (ni_model=1) take their tables at mt_net_new only");
  if (n->c.data == MT_NET_DATA_SAMPLE) return mt_fail(e, "mt_net_load: --data sample stores the pages of mt_net_new's schedule only; use full or none");
  const mt_topo *t = s->topo;
  if (t->kind != n->t->kind || t->n_nodes != n->N || strcmp(t->spec, n->t->spec))
    return mt_fail(e, "mt_net_load: the schedule is planned on %s, the network is %s", t->spec, n->t->spec);
  if (s->bytes > n->cap_bytes)
    return mt_fail(e, "mt_net_load: %llu bytes exceed the %llu bytes the network's memories were built for", (unsigned long long)s->bytes,
                   (unsigned long long)n->cap_bytes);
  if (check_cfg(&n->c, s, n->sw, e)) return -1;
  const mt_ni_params *np = &n->ni[0].p;
  mt_layout ly;
  if (mt_layout_for(s, tb, 0, &ly, e)) return -1;
  if (mt_layout_fit(&ly, &n->ly, e)) {
    mt_err_wrap(e, "mt_net_load: %s does not fit the network's table layout", s->algo);
    return -1;
  }
  if ((unsigned)mt_layout_depth(tb) > np->tbl_depth)
    return mt_fail(e, "mt_net_load: the tables need %d words per node, the NIs hold %u", mt_layout_depth(tb), np->tbl_depth);
  if ((unsigned)s->n_flows > np->max_flows) return mt_fail(e, "mt_net_load: %s has %d flows, the NIs track %u", s->algo, s->n_flows, np->max_flows);
  const mt_sched *s0 = n->s;
  const mt_tables *tb0 = n->tb;
  n->s = s;
  n->tb = tb;
  if (tb->local_ports && tb->local_ports != n->L) {
    n->s = s0;
    n->tb = tb0;
    return mt_fail(e, "mt_net_load: tables planned for %d local ports, the network has %d", tb->local_ports, n->L);
  }
  if (!n->sw && !n->c.ni_model && shared_ejection_port(n, e)) {
    n->s = s0;
    n->tb = tb0;
    return -1;
  }
  n->ly = ly;
  const unsigned depth = np->tbl_depth, nw = (unsigned)mt_layout_words(&ly);
  free(n->ld_img);
  n->ld_img = mt_xcalloc((size_t)n->N * depth * nw, 8);
  for (int i = 0; i < n->N; i++) mt_layout_node_image(&ly, tb, i, (int)depth, (int)nw, n->ld_img + (size_t)i * depth * nw);
  n->ld_at = n->cycle;
  n->ld_depth = depth;
  n->ld_nw = nw;
  for (int i = 0; i < n->N; i++) ni_cfg(n, i);
  set_watchdogs(n);
  for (int i = 0; i < n->nr; i++) n->rin[i].wd_limit = n->c.wd_limit ? n->rwd : 0;
  for (int i = 0; i < n->N; i++) memcpy(&n->nin[i], &n->ncfg[i], offsetof(mt_ni_in, start)); /* the configuration fields */
  n->started = 0;                                                                            /* the inputs of the next all-reduce: mt_net_start */
  for (int i = 0; i < n->N; i++) {
    free(n->input[i]);
    n->input[i] = NULL;
  }
  return 0;
}
