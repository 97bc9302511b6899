/* SPDX-License-Identifier: Apache-2.0
 * mt_net: the C network model (routers + network interfaces + memories + links). */
#include "net/mt_net.h"
#include "util/mt_time.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include "plan/mt_ref.h"
#include "net/mt_switch.h"
#include "hw/mt_paper_ni.h"

struct mt_net {
  mt_net_cfg c;
  const mt_sched *s;
  const mt_tables *tb;
  const mt_topo *t;
  mt_layout ly;
  int N, D, L, NP, dtype, pkt_mode;
  /* switch networks (docs/reference/switch.md): nr routers are the switches, the NIs attach through NI
   * links; links nsl.. are NI links: nsl + i node i's NI to its switch, nsl + N + i back */
  int sw, nr, nsl;
  mt_switch_net swn;
  unsigned nmp; /* NI memory ports */
  /* Registered outputs. One buffer per block: a cycle reads a block's outputs (into the
   * inputs of the blocks it drives, the links first) before that block's edge writes them. */
  mt_router *rt;
  mt_router_out *rq;
  mt_ni *ni;
  mt_ni_out *nq;
  mt_ni_in *ncfg; /* per-node configuration part of the NI inputs */
  mt_pni *pni;    /* ni_model=1: the paper simulator's NIs, stepped instead of ni (which only holds the tables) */
  mt_mem *mem;
  uint32_t **input; /* mt_net_input's, made on demand */
  uint8_t *backed;  /* --data sample: the pages every memory stores (mt_mem_init_pages) */
  int nl;           /* directed network links */
  mt_link_bank lnk;
  int *lsrc, *lsport, *ldst, *ldport;
  unsigned dlat[3], minlat, maxlat; /* link latency per dimension (grids; else link_lat), the shortest, the longest */
  int *in_link;                     /* [node*NP + port] -> link feeding it, or -1 */
  int *out_link;                    /* [node*NP + port] -> link it drives, or -1 */
  unsigned blk;                     /* mt_net_run: cycles a node runs ahead alone (0: cycle by cycle) */
  int run_threads;                  /* threads the last mt_net_run used (c.threads, capped) */
  mt_link_slot *lview;              /* [nl] mt_net_link_slot's answers (the model never reads them) */
  uint64_t cycle, *lflits;
  uint64_t cmask; /* link_put: byte v 1 for VC v < num_vcs */
  uint8_t started;
  uint32_t seed;    /* of mt_net_start */
  uint32_t wd, rwd; /* effective NI / router watchdog limits */
  unsigned fw;      /* live 32-bit words of a flit (the others are 0) */
  /* Every block's inputs, kept from cycle to cycle: each cycle rewrites the fields that
   * come from registered outputs (valid bits, credits; a flit only when valid: a block
   * reads a flit only when it is valid); the configuration fields are set once. */
  mt_router_in *rin; /* [N] */
  mt_ni_in *nin;     /* [N] */
  FILE *trace;       /* --trace: NI events, CSV (docs/reference/network.md) */
  uint8_t (*tr_tx)[MT_NI_MAX_L], (*tr_rx)[MT_NI_MAX_L];
  uint16_t *tr_ts; /* last traced state */
};

/* everything mt_net_new allocated but the struct itself */
static void net_release(mt_net *n) {
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
  free(n->tr_tx);
  free(n->tr_rx);
  free(n->tr_ts);
}

void mt_net_free(mt_net *n) {
  if (!n) return;
  net_release(n);
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

void mt_net_paper_stats(const mt_net *n, uint64_t *aggs, uint64_t *cycles) {
  *aggs = *cycles = 0;
  for (int i = 0; n->pni && i < n->N; i++) {
    *aggs += n->pni[i].aggs;
    *cycles += n->pni[i].agg_cycles;
  }
}

unsigned mt_net_ej_depth(const mt_net_cfg *c, int sw) {
  if (!sw) return c->ej_depth;
  return c->ni_link_depth ? c->ni_link_depth : c->vc_depth;
}

mt_net *mt_net_new(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, int pkt_mode, mt_err *e) {
  return mt_net_new_layout(c, s, tb, dtype, pkt_mode, NULL, 0, 0, e);
}

mt_net *mt_net_new_layout(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, int pkt_mode,
                          const mt_layout *hw, unsigned tbl_depth, unsigned max_flows, mt_err *e) {
  const mt_topo *t = s->topo;
  const int sw = !mt_topo_is_grid(t);
  /* from here on ej_depth is the NIs' ejection VC depth, whatever the network */
  mt_net_cfg cc = *c;
  cc.ej_depth = mt_net_ej_depth(c, sw);
  if (sw && cc.ej_depth > MT_NI_MAX_EJD) {
    mt_fail(e, "%s: the NI link's ejection VCs would hold %u flits (ni_link_depth=%u, 0 = vc_depth=%u); an NI holds at most %d per VC: set ni_link_depth=1..%d",
            t->spec, cc.ej_depth, c->ni_link_depth, c->vc_depth, MT_NI_MAX_EJD, MT_NI_MAX_EJD);
    return NULL;
  }
  c = &cc;
  const char *ejk = sw ? "NI link depth (ni_link_depth, 0 = vc_depth)" : "ej_depth";
  if (sw && c->local_ports > 1) {
    mt_fail(e, "local_ports=%u: in a switch network (%s) every NI has one NI link to its leaf switch; use local_ports=0 or 1", c->local_ports, t->spec);
    return NULL;
  }
  for (int d = 0; !sw && d < t->ndims; d++)
    if (t->dim[d] < 2) {
      mt_fail(e, "%s: every dimension must be at least 2 wide for the router (use ring:N for one dimension)", t->spec);
      return NULL;
    }
  if (s->bytes % 4) {
    mt_fail(e, "%llu bytes is not a whole number of 4-byte elements", (unsigned long long)s->bytes);
    return NULL;
  }
  if (s->elem != 4) {
    mt_fail(e, "the network model moves 4-byte elements; the schedule was planned with %d-byte elements", s->elem);
    return NULL;
  }
  const unsigned fb = c->payload_w / 8;
  const unsigned pkt_flits = fb ? c->pkt_bytes / fb : 0;
  int routed = 0; /* multi-hop transfers travel as packets in either mode (docs/reference/ni.md) */
  for (int i = 0; i < s->nx && !routed; i++) routed = s->x[i].multihop;
  if ((pkt_mode || routed) && (pkt_flits + 1 > c->vc_depth || pkt_flits + 1 > c->ej_depth)) {
    mt_fail(e, "%s with %u-byte packets needs %u-flit buffers (virtual cut-through); vc_depth=%u %s=%u",
            pkt_mode ? "packet flow control" : "a schedule with multi-hop transfers (sent as packets)", c->pkt_bytes,
            pkt_flits + 1, c->vc_depth, ejk, c->ej_depth);
    return NULL;
  }
  if (!pkt_mode && (c->subpkt_flits > c->vc_depth || c->subpkt_flits > c->ej_depth)) {
    mt_fail(e, "message flow control with %u-flit sub-packets needs buffers of at least that; vc_depth=%u %s=%u",
            c->subpkt_flits, c->vc_depth, ejk, c->ej_depth);
    return NULL;
  }
  if (c->link_lat < 1) {
    mt_fail(e, "link_lat must be >= 1");
    return NULL;
  }
  /* per-dimension links (docs/reference/network.md "Link rate and latency"): grids only, within the dimensions */
  for (int d = 0; d < 3; d++) {
    const int has = !sw && d < t->ndims;
    if ((c->link_period[d] > 1 || c->link_lat_d[d]) && !has) {
      mt_fail(e, "link_period%d=%u link_lat%d=%u: %s has no dimension %d (%s); leave them 1 and 0", d, c->link_period[d], d, c->link_lat_d[d], t->spec, d,
              sw ? "a switch network: every link is alike" : "a torus or mesh has its dimensions 0..D-1");
      return NULL;
    }
    if (c->link_period[d] > 255 || c->link_lat_d[d] > MT_LINK_LAT_MAX) {
      mt_fail(e, "link_period%d=%u link_lat%d=%u: the period must be 1..255, the latency 0 (link_lat) or 1..%u", d, c->link_period[d], d,
              c->link_lat_d[d], MT_LINK_LAT_MAX);
      return NULL;
    }
  }
  mt_net *n = mt_xcalloc(1, sizeof *n);
  n->c = *c;
  n->s = s;
  n->tb = tb;
  n->t = t;
  n->dtype = dtype;
  n->pkt_mode = pkt_mode;
  n->N = t->n_nodes;
  n->sw = sw;
  n->D = sw ? 0 : t->ndims;
  n->L = sw ? 1 : c->local_ports ? (int)c->local_ports
                                 : 2 * n->D;
  n->NP = sw ? MT_RT_MAX_PORTS : 2 * n->D + n->L;
  n->nr = sw ? t->n_sw : n->N;
  if (tb->local_ports && tb->local_ports != n->L) {
    mt_fail(e, "tables were planned for %d local ports, the network has %d", tb->local_ports, n->L);
    mt_net_free(n);
    return NULL;
  }
  /* the paper's NI takes every flit at once: a shared ejection port cannot hold it up */
  if (sw ? mt_switch_build(&n->swn, t, c->num_vcs, e) : !c->ni_model && shared_ejection_port(n, e)) {
    mt_net_free(n);
    return NULL;
  }
  if (mt_layout_for(s, tb, 0, &n->ly, e) || (hw && mt_layout_fit(&n->ly, hw, e))) {
    mt_net_free(n);
    return NULL;
  }
  if (tbl_depth && tbl_depth < (unsigned)mt_layout_depth(tb)) {
    mt_fail(e, "the tables need %d words per node, the NI holds %u", mt_layout_depth(tb), tbl_depth);
    mt_net_free(n);
    return NULL;
  }
  if (max_flows && max_flows < (unsigned)s->n_flows) {
    mt_fail(e, "%s has %d flows, the NI tracks %u", s->algo, s->n_flows, max_flows);
    mt_net_free(n);
    return NULL;
  }
  /* routers */
  mt_router_params rp;
  mt_router_default_params(&rp);
  rp.dims = (unsigned)n->D;
  rp.torus = t->kind == MT_TOPO_TORUS;
  for (int d = 0; d < 3; d++) rp.k[d] = d < n->D ? (unsigned)t->dim[d] : 1;
  rp.nlocal = (unsigned)n->L;
  rp.payload_w = c->payload_w;
  rp.num_vcs = c->num_vcs;
  rp.vc_depth = c->vc_depth;
  rp.ej_depth = c->ej_depth;
  rp.subpkt_flits = c->subpkt_flits;
  rp.step_prio = c->step_prio;
  rp.wd_w = 31;
  for (int d = 0; d < 3; d++) rp.period[d] = !sw && d < n->D && c->link_period[d] > 1 ? c->link_period[d] : 1u;
  if (sw) { /* every switch: its own radix (set per switch below), table routing */
    rp.table = 1;
    rp.hop_classes = n->swn.hop_classes;
    rp.nnet = (unsigned)n->swn.nnet[0];
    rp.nlocal = (unsigned)n->swn.nloc[0];
  }
  if (mt_router_check_params(&rp, e)) {
    name_keys(e);
    mt_err_wrap(e, "router");
    mt_net_free(n);
    return NULL;
  }
  /* network interfaces */
  mt_ni_params np;
  mt_ni_default_params(&np);
  np.payload_w = c->payload_w;
  np.num_vcs = c->num_vcs;
  np.nlocal = (unsigned)n->L;
  np.net_ports = sw ? 1u : (unsigned)(2 * n->D);
  np.ej_depth = c->ej_depth;
  np.vc_depth = c->vc_depth;
  np.subpkt_flits = c->subpkt_flits;
  np.pkt_bytes = c->pkt_bytes;
  np.tbl_depth = tbl_depth ? tbl_depth : (unsigned)mt_layout_depth(tb);
  np.max_flows = max_flows ? max_flows : (unsigned)s->n_flows;
  np.sq = c->ni_sq;
  np.rq = c->ni_rq;
  np.wd_w = 32;
  /* bandwidth: 0 = full (one engine per local port, L + 2L memory ports) */
  /* 0: two engines per ejection port (they take turns on its packets, hiding the
   * per-packet look-up and write drain), or one per port if 2L exceeds MT_NI_MAX_L */
  np.rx_engines = c->ni_rx_engines ? c->ni_rx_engines : (2u * (unsigned)n->L <= MT_NI_MAX_L ? 2u : 1u) * (unsigned)n->L;
  np.mem_ports = c->ni_mem_ports ? c->ni_mem_ports : (unsigned)n->L + 2 * np.rx_engines;
  n->nmp = np.mem_ports;
  if (c->ni_chain > 1) {
    mt_fail(e, "ni_chain=%u: 0 or 1", c->ni_chain);
    mt_net_free(n);
    return NULL;
  }
  np.reduce_chain = c->ni_chain;
  np.stage_after = c->ni_stage_after;
  np.stage_ranges = c->ni_stage_ranges;
  /* the stager's area: a slot of the buffer's size per child slot after the buffer */
  const uint64_t stage_words = c->ni_stage_after ? (uint64_t)(s->bytes / 4) * (uint64_t)n->ly.fmt.children : 0;
  if (c->ni_stage_after && (uint64_t)s->bytes * (1u + (uint64_t)n->ly.fmt.children) > 0xFFFFFFFFull) {
    mt_fail(e, "ni_stage_after=%u: the staging area (%d child slots x %llu bytes) does not fit the NI's 32-bit addresses; set ni_stage_after=0",
            c->ni_stage_after, n->ly.fmt.children, (unsigned long long)s->bytes);
    mt_net_free(n);
    return NULL;
  }
  np.fmt = n->ly.fmt;
  if (mt_ni_check_params(&np, e)) {
    name_keys(e);
    mt_err_wrap(e, "network interface");
    mt_net_free(n);
    return NULL;
  }
  const int N = n->N;
  n->rt = mt_xcalloc((size_t)n->nr, sizeof *n->rt);
  n->rq = mt_xcalloc((size_t)n->nr, sizeof *n->rq);
  for (int i = 0; i < n->nr; i++) {
    if (sw) {
      rp.nnet = (unsigned)n->swn.nnet[i];
      rp.nlocal = (unsigned)n->swn.nloc[i];
    }
    if (mt_router_init(&n->rt[i], &rp, e) || (sw && mt_router_load_table(&n->rt[i], n->swn.tab + (size_t)i * N, (unsigned)N, e))) {
      mt_err_wrap(e, sw ? "switch s%d" : "router %d", i);
      mt_net_free(n);
      return NULL;
    }
  }
  n->ni = mt_xcalloc((size_t)N, sizeof *n->ni);
  n->nq = mt_xcalloc((size_t)N, sizeof *n->nq);
  n->ncfg = mt_xcalloc((size_t)N, sizeof *n->ncfg);
  n->mem = mt_xcalloc((size_t)N, sizeof *n->mem);
  n->input = mt_xcalloc((size_t)N, sizeof *n->input);
  if (c->data > MT_NET_DATA_NONE) {
    mt_fail(e, "data mode %u: expected full, sample or none", c->data);
    mt_net_free(n);
    return NULL;
  }
  uint64_t sampled = 0;
  if (c->data == MT_NET_DATA_SAMPLE) n->backed = sample_pages(s, s->bytes / 4, stage_words, &sampled);
  const int nw = mt_layout_words(&n->ly), depth = (int)np.tbl_depth;
  uint64_t *img = mt_xcalloc((size_t)depth * (size_t)nw, 8);
  if (nw > MT_NI_EW) {
    mt_fail(e, "table entries of %d bits exceed the NI's %d", n->ly.width, 64 * MT_NI_EW);
    free(img);
    mt_net_free(n);
    return NULL;
  }
  for (int i = 0; i < N; i++) {
    if (mt_ni_init(&n->ni[i], &np, e)) {
      free(img);
      mt_net_free(n);
      return NULL;
    }
    mt_layout_node_image(&n->ly, tb, i, depth, nw, img);
    mt_ni_table_load(&n->ni[i], img, (unsigned)depth, (unsigned)nw);
    mt_ni_in *cf = &n->ncfg[i];
    cf->dtype = (uint8_t)dtype;
    cf->pkt_mode = (uint8_t)pkt_mode;
    cf->node_id = (uint16_t)i;
    cf->nflows = (uint16_t)s->n_flows;
    cf->base_units = (uint32_t)n->ly.base_units;
    cf->rem_units = (uint32_t)n->ly.rem_units;
    cf->elem = (uint32_t)n->ly.elem;
    cf->nop_bytes = (uint32_t)n->ly.nop_bytes;
    cf->wd_limit = c->wd_limit;
    cf->stage_base = c->ni_stage_after ? (uint32_t)s->bytes : 0u;
    cf->stage_slot = c->ni_stage_after ? (uint32_t)s->bytes : 0u;
    const uint32_t mseed = 0x51ED + (uint32_t)i * 7919u;
    if (c->data == MT_NET_DATA_FULL ? mt_mem_init_mp(&n->mem[i], s->bytes / 4 + stage_words, c->payload_w / 32, n->nmp, c->mem_p_ready, c->mem_lat_max, mseed, e)
                                    : mt_mem_init_pages(&n->mem[i], s->bytes / 4 + stage_words, n->backed, c->payload_w / 32, n->nmp,
                                                        c->mem_p_ready, c->mem_lat_max, mseed, e)) {
      free(img);
      mt_net_free(n);
      return NULL;
    }
  }
  free(img);
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
  {
    uint64_t mx = 0;
    for (int f = 0; f < s->n_flows; f++)
      if (s->chunk[f].size > mx) mx = s->chunk[f].size;
    const uint64_t wait = (100u + c->mem_p_ready - 1u) / c->mem_p_ready;
    unsigned dmin = c->vc_depth < c->ej_depth ? c->vc_depth : c->ej_depth;
    if (c->subpkt_flits < dmin) dmin = c->subpkt_flits;
    const unsigned qmin = c->ni_sq < c->ni_rq ? c->ni_sq : c->ni_rq;
    /* with links of several latencies and periods: the longest, and a flit per period */
    unsigned lmax = c->link_lat, pmax = 1;
    for (int d = 0; !sw && d < n->D; d++) {
      if (c->link_lat_d[d] > lmax) lmax = c->link_lat_d[d];
      if (c->link_period[d] > pmax) pmax = c->link_period[d];
    }
    const uint64_t per_flit =
      (64u + (2ull * lmax + dmin - 1u) / dmin + 4u * (wait - 1u) + (c->mem_lat_max + qmin - 1u) / qmin) * pmax;
    const uint64_t chain = 8ull * (uint64_t)N * ((uint64_t)lmax + 4u + (uint64_t)c->mem_lat_max * wait);
    uint64_t wd = (uint64_t)c->wd_limit + per_flit * ((mx + fb - 1) / fb) + chain;
    uint64_t rwd = (uint64_t)c->wd_limit + per_flit * ((s->bytes + fb - 1) / fb) + chain;
    n->wd = wd > 0x7FFFFFFFull ? 0x7FFFFFFFu : (uint32_t)wd;
    n->rwd = rwd > 0x7FFFFFFFull ? 0x7FFFFFFFu : (uint32_t)rwd;
    for (int i = 0; i < N; i++) n->ncfg[i].wd_limit = c->wd_limit ? n->wd : 0;
    /* the stager acts after at most half the NI watchdog limit: a jam must be staged out
     * well before the watchdog calls it a deadlock (make soak seed 1 run 629: hd with a
     * drawn wd_limit of 11,968 stopped before the default T = 20,000 was reached) */
    if (c->wd_limit && c->ni_stage_after && n->wd / 2u >= 1u && c->ni_stage_after > n->wd / 2u)
      for (int i = 0; i < N; i++) n->ni[i].p.stage_after = n->wd / 2u;
  }
  if (c->ni_model > 1) {
    mt_fail(e, "ni_model=%u: 0 (this project's NI) or 1 (the paper simulator's, docs/reference/papersim.md)", c->ni_model);
    mt_net_free(n);
    return NULL;
  }
  if (c->ni_model == 1) { /* the paper simulator's NIs read the tables the project's NIs hold */
    mt_pni_params pp;
    mt_net_paper_params(c, s, (unsigned)n->L, &pp);
    n->pni = mt_xcalloc((size_t)N, sizeof *n->pni);
    for (int i = 0; i < N; i++)
      if (mt_pni_init(&n->pni[i], &pp, &n->ni[i], &n->ncfg[i], &n->mem[i], e)) {
        mt_net_free(n);
        return NULL;
      }
  }
  /* links: every directed network link of the topology gets a delay line */
  n->nsl = sw ? n->swn.nl : t->n_links;
  n->nl = sw ? n->nsl + 2 * N : t->n_links;
  n->fw = mt_flit_words(c->payload_w, c->num_vcs);
  {
    uint8_t cm[8] = {0};
    for (unsigned v = 0; v < 8u && v < c->num_vcs; v++) cm[v] = 1;
    memcpy(&n->cmask, cm, sizeof cm);
  }
  /* link latency per dimension (link_lat_d, 0: link_lat) */
  n->minlat = n->maxlat = c->link_lat;
  for (int d = 0; d < 3; d++) {
    n->dlat[d] = !sw && d < n->D && c->link_lat_d[d] ? c->link_lat_d[d] : c->link_lat;
    if (d < (sw ? 1 : n->D)) {
      if (d == 0 || n->dlat[d] < n->minlat) n->minlat = n->dlat[d];
      if (d == 0 || n->dlat[d] > n->maxlat) n->maxlat = n->dlat[d];
    }
  }
  /* mt_net_run lets each node run minlat - 1 cycles on its own (no link brings anything
   * younger: the lookahead is the shortest link's): the links keep that many more cycles
   * than the longest one needs. Switch networks run cycle by cycle. */
  n->blk = sw ? 0u : n->minlat - 1u;
  if (mt_link_bank_init(&n->lnk, (unsigned)n->nl, n->maxlat, n->maxlat + n->blk, n->fw, e)) {
    mt_err_wrap(e, "links");
    mt_net_free(n);
    return NULL;
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
  for (int k = 0; sw && k < n->nl; k++) {
    /* ends as topology vertices (switch s is vertex N + s; an NI's port is 0) */
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
  for (int k = 0; !sw && k < n->nl; k++) {
    const mt_edge *l = &t->links[k];
    if (n->minlat != n->maxlat && mt_link_bank_set_lat(&n->lnk, (unsigned)k, n->dlat[l->dim], e)) {
      mt_err_wrap(e, "links");
      mt_net_free(n);
      return NULL;
    }
    n->lsrc[k] = l->src;
    n->lsport[k] = l->src_port;
    n->ldst[k] = l->dst;
    n->ldport[k] = l->dst_port;
    n->in_link[l->dst * n->NP + l->dst_port] = k;
    n->out_link[l->src * n->NP + l->src_port] = k;
  }
  /* block inputs: reset values (all zero) and the configuration fields */
  n->rin = mt_xcalloc((size_t)n->nr, sizeof *n->rin);
  n->nin = mt_xcalloc((size_t)N, sizeof *n->nin);
  for (int i = 0; i < n->nr; i++) {
    n->rin[i].node_id = sw ? 0u : (unsigned)i; /* a switch routes by its table alone */
    n->rin[i].wd_limit = c->wd_limit ? n->rwd : 0;
  }
  for (int i = 0; i < N; i++) n->nin[i] = n->ncfg[i];
  return n;
}

/* Work outside the blocks, split over mt_net_cfg.threads (set-up, the final check): fn(arg, k,
 * nt) for k = 0..nt-1, k = 0 on the caller's thread; a share whose thread the system refused
 * runs on the caller's too. Each share writes only its own outputs, so the result is the
 * same for any nt. */
#define NET_MAX_THREADS 64
typedef void (*par_fn)(void *arg, int k, int nt);
typedef struct {
  par_fn fn;
  void *arg;
  int k, nt;
} par_arg;
static void *par_tramp(void *v) {
  const par_arg *a = v;
  a->fn(a->arg, a->k, a->nt);
  return NULL;
}
static int net_threads(const mt_net *n) {
  int nt = n->c.threads > 1 ? (int)n->c.threads : 1;
  if (nt > n->N) nt = n->N;
  return nt > NET_MAX_THREADS ? NET_MAX_THREADS : nt;
}
static void par_run(int nt, par_fn fn, void *arg) {
  pthread_t th[NET_MAX_THREADS];
  par_arg a[NET_MAX_THREADS];
  int ok[NET_MAX_THREADS] = {0};
  for (int k = 1; k < nt; k++) {
    a[k] = (par_arg){fn, arg, k, nt};
    ok[k] = !pthread_create(&th[k], NULL, par_tramp, &a[k]);
  }
  fn(arg, 0, nt);
  for (int k = 1; k < nt; k++)
    if (ok[k]) pthread_join(th[k], NULL);
    else fn(arg, k, nt);
}

typedef struct {
  mt_net *n;
  uint32_t seed;
} start_arg;
/* the inputs of nodes k, k + nt, ... into their memories (the first touch of their pages) */
static void start_part(void *v, int k, int nt) {
  const start_arg *a = v;
  for (int i = k; i < a->n->N; i += nt) mt_ref_inputs(a->seed, i, a->n->dtype, a->n->mem[i].w, a->n->s->bytes / 4);
}

int mt_net_start(mt_net *n, uint32_t seed, mt_err *e) {
  (void)e;
  const uint64_t nw = n->s->bytes / 4;
  if (n->c.data == MT_NET_DATA_FULL) {
    start_arg a = {n, seed};
    par_run(net_threads(n), start_part, &a);
  } else if (n->c.data == MT_NET_DATA_SAMPLE) { /* the stored pages of the buffer (the staging area starts empty) */
    mt_xs32_jumps J;
    mt_xs32_jumps_init(&J);
    for (uint64_t a = 0; a < nw; a += MT_MEM_PAGE_WORDS)
      if (n->backed[a >> MT_MEM_PAGE_SHIFT])
        for (int i = 0; i < n->N; i++)
          mt_ref_inputs_at(&J, seed, i, n->dtype, a, mt_mem_word(&n->mem[i], a), nw - a < MT_MEM_PAGE_WORDS ? nw - a : MT_MEM_PAGE_WORDS);
  }
  for (int i = 0; i < n->N; i++) { /* mt_net_input's, of an earlier seed */
    free(n->input[i]);
    n->input[i] = NULL;
  }
  n->started = 1;
  n->seed = seed;
  return 0;
}

/* One CSV line per NI event after node i's edge (the cycle number is the edge's, from 1):
 * step advances, a sender starting / finishing a message, a receive engine starting /
 * finishing one. Observes the model only. */
static void trace_node(mt_net *n, int i, uint64_t t) {
  const mt_ni *s = &n->ni[i];
  const unsigned long long cy = (unsigned long long)t + 1;
  if (s->ts != n->tr_ts[i]) {
    fprintf(n->trace, "%llu,%d,step,,,%u,,\n", cy, i, s->ts);
    n->tr_ts[i] = s->ts;
  }
  for (int l = 0; l < n->L; l++) {
    const mt_ni_tx *t = &s->tx[l];
    if (t->act != n->tr_tx[i][l]) {
      fprintf(n->trace, "%llu,%d,%s,tx%d,%u,%u,%u,%u\n", cy, i, t->act ? "send" : "sent", l, t->flow, t->step, t->dst, t->len);
      n->tr_tx[i][l] = t->act;
    }
  }
  for (unsigned e = 0; e < s->ne; e++) {
    const mt_ni_rx *r = &s->rx[e];
    const uint8_t busy = r->st == 2;
    if (busy != n->tr_rx[i][e]) {
      fprintf(n->trace, "%llu,%d,%s,rx%u,%u,,%u,%u\n", cy, i, busy ? (r->op == MT_OP_REDUCE ? "reduce" : "gather") : "received",
              e, r->flow, r->src, r->len);
      n->tr_rx[i][e] = busy;
    }
  }
}

int mt_net_set_trace(mt_net *n, FILE *f) {
  if (f && n->pni) return -1; /* the trace speaks of the project's NI blocks */
  n->trace = f;
  if (!f) return 0;
  if (!n->tr_tx) {
    n->tr_tx = mt_xcalloc((size_t)n->N, sizeof *n->tr_tx);
    n->tr_rx = mt_xcalloc((size_t)n->N, sizeof *n->tr_rx);
    n->tr_ts = mt_xcalloc((size_t)n->N, sizeof *n->tr_ts);
  }
  return fprintf(f, "cycle,node,event,unit,flow,step,peer,bytes\n") < 0 ? -1 : 0;
}

/* The live words (fw >= 5) of a flit; the words above them are 0 in every flit a block
 * outputs, and stay 0 in the kept inputs and link slots, which receive nothing else. */
static inline void flit_copy(uint32_t *d, const uint32_t *s, unsigned fw) {
  if (fw == 5u) { /* PayloadW 128: the paper's flit */
    memcpy(d, s, 16);
    d[4] = s[4];
    return;
  }
  unsigned k;
  for (k = 0; k + 4u <= fw; k += 4u) memcpy(d + k, s + k, 16);
  if (k < fw) memcpy(d + fw - 4u, s + fw - 4u, 16);
}

/* Link k takes the registered output of its sender's port p during cycle t (the slot of
 * row w). The pulses of VCs >= num_vcs (<= MT_NI_MAX_VCS = 8: the NI allows no more) and the
 * bits above bit 0 of a pulse byte do not enter the link (cmask). The flit's words are
 * copied valid or not, without a branch on the valid bit (a receiver reads a flit only when
 * it is valid; mt_link_bank_slot too): the slot's line is written anyway. */
static inline void link_put_raw(mt_net *n, int k, unsigned w, int valid, const uint32_t *flit, const uint8_t *cred) {
  uint32_t *s = mt_link_bank_at(&n->lnk, (unsigned)k, w);
  uint64_t c;
  memcpy(&c, cred, sizeof c);
  mt_link_set_hdr(s, (c & n->cmask) | ((0u - (uint64_t)(valid != 0)) & MT_LINK_VALID));
  flit_copy(s + MT_LINK_FLIT, flit, n->fw);
}
static inline void link_put(mt_net *n, int k, unsigned w, const mt_router_out *o, int p) {
  link_put_raw(n, k, w, o->out_valid[p], o->out_flit[p].w, o->in_credit[p]);
}

/* What link k presents during a cycle (row r) into its receiver's router input port dp. */
static inline void link_get_raw(mt_net *n, int k, unsigned r, uint8_t *valid, uint32_t *flit, uint8_t *cred) {
  const uint32_t *s = mt_link_bank_at(&n->lnk, (unsigned)k, r);
  const uint64_t h = mt_link_hdr(s), c = h & MT_LINK_CREDITS;
  /* the flit valid or not (no branch on a bit just loaded: the inputs keep a flit that is
   * not valid as they find it, and the blocks read a flit only when it is valid) */
  *valid = (uint8_t)((h >> 7) & 1u);
  flit_copy(flit, s + MT_LINK_FLIT, n->fw);
  n->lflits[k] += (h >> 7) & 1u;
  memcpy(cred, &c, sizeof c);
}
static inline void link_get(mt_net *n, int k, unsigned r, mt_router_in *ri, int dp) {
  link_get_raw(n, k, r, &ri->in_valid[dp], ri->in_flit[dp].w, ri->out_credit[dp]);
}

/* Speed only: a node reads its links' slots of consecutive cycles one after the other
 * (mt_net_run), and fetches them (and the slots it will write) this many cycles ahead: 4
 * rather than 8 (perf, 1 MiB paper, node_cycle 144 -> 126 ms, medians of 5); 1 is too
 * late (203 ms). */
#define LINK_PF 4u

/* Node i's part of cycle t: its links take its router's registered outputs (unless the
 * caller did that for every link already: put = 0), its blocks' inputs are computed from
 * the registered outputs (the links present those of lat - 1 cycles ago), then every block
 * of the node takes its edge. Touches no other node's state but through the links. */
static void node_cycle(mt_net *n, int i, uint64_t t, int put) {
  const int D2 = 2 * n->D, L = n->L, NP = n->NP;
  const unsigned fw = n->fw, wr = mt_link_bank_wrow(&n->lnk, t);
  /* the row each dimension's links present (one latency: all alike) */
  unsigned rrd[3];
  rrd[0] = mt_link_bank_rrow(&n->lnk, t);
  if (n->lnk.klat)
    for (int d = 0; d < n->D; d++) rrd[d] = (unsigned)((t + n->lnk.rows - (n->dlat[d] - 1u)) % n->lnk.rows);
  else rrd[1] = rrd[2] = rrd[0];
  mt_router_in *ri = &n->rin[i];
  const mt_router_out *ro = &n->rq[i];
  const mt_ni_out *no = &n->nq[i];
  /* router inputs: network ports from the links, local ports from the NI */
  unsigned pw = wr + LINK_PF; /* the row written LINK_PF cycles later */
  if (pw >= n->lnk.rows) pw %= n->lnk.rows;
  for (int p = 0; p < D2; p++) {
    const int ko = n->out_link[i * NP + p], ki = n->in_link[i * NP + p];
    const unsigned rr = rrd[p >> 1];
    unsigned pr = rr + LINK_PF; /* the row presented LINK_PF cycles later */
    if (pr >= n->lnk.rows) pr %= n->lnk.rows;
    if (put && ko >= 0) {
      __builtin_prefetch(mt_link_bank_at(&n->lnk, (unsigned)ko, pw), 1);
      link_put(n, ko, wr, ro, p);
    }
    if (ki >= 0) {
      __builtin_prefetch(mt_link_bank_at(&n->lnk, (unsigned)ki, pr));
      link_get(n, ki, rr, ri, p);
    }
  }
  for (int l = 0; l < L; l++) {
    ri->in_valid[D2 + l] = no->inj_valid[l];
    if (no->inj_valid[l]) flit_copy(ri->in_flit[D2 + l].w, no->inj_flit[l].w, fw);
    memcpy(ri->out_credit[D2 + l], no->ej_credit[l], MT_NI_MAX_VCS); /* VCs >= num_vcs: 0 */
  }
  /* NI inputs: the router's local ports and the memory */
  mt_ni_in *ni = &n->nin[i];
  ni->start = (uint8_t)(n->started && t == 0);
  for (int l = 0; l < L; l++) {
    memcpy(ni->inj_credit[l], ro->in_credit[D2 + l], MT_NI_MAX_VCS); /* VCs >= num_vcs: 0 */
    ni->ej_valid[l] = ro->out_valid[D2 + l];
    if (ro->out_valid[D2 + l]) flit_copy(ni->ej_flit[l].w, ro->out_flit[D2 + l].w, fw);
  }
  /* the memory's outputs, then the edges: the memory's (its requests are the NI's outputs
   * before the NI's edge), the router's and the NI's (their outputs were read above) */
  mt_mem_cycle_mp(&n->mem[i], ni->mem_req_ready, ni->mem_rsp_valid, ni->mem_rsp_data[0], MT_NI_MAX_LANES, no->mem_req_valid, no->mem_req_we,
                  no->mem_req_addr, no->mem_req_be, &no->mem_req_wdata[0][0], MT_NI_MAX_LANES);
  mt_router_step(&n->rt[i], ri, &n->rq[i]);
  if (n->pni) mt_pni_step(&n->pni[i], ni, &n->nq[i]);
  else mt_ni_step(&n->ni[i], ni, &n->nq[i]);
  if (n->trace) trace_node(n, i, t);
}

/* One cycle of a switch network (docs/reference/switch.md): every link (switch-to-switch and NI links)
 * takes its sender's registered outputs, then every switch and NI computes its inputs from
 * the links and takes its edge, and every memory with its NI as in node_cycle. */
static void switch_cycle(mt_net *n, uint64_t t) {
  const int N = n->N, NP = n->NP;
  const unsigned wr = mt_link_bank_wrow(&n->lnk, t), rr = mt_link_bank_rrow(&n->lnk, t);
  for (int k = 0; k < n->nsl; k++) link_put(n, k, wr, &n->rq[n->swn.lsrc[k]], n->swn.lsport[k]);
  for (int i = 0; i < N; i++) {
    const mt_ni_out *no = &n->nq[i];
    link_put_raw(n, n->nsl + i, wr, no->inj_valid[0], no->inj_flit[0].w, no->ej_credit[0]);
    link_put(n, n->nsl + N + i, wr, &n->rq[n->swn.ni_sw[i]], n->swn.ni_port[i]);
  }
  for (int r = 0; r < n->nr; r++) {
    for (int p = 0; p < (int)n->rt[r].np; p++) link_get(n, n->in_link[r * NP + p], rr, &n->rin[r], p);
    mt_router_step(&n->rt[r], &n->rin[r], &n->rq[r]);
  }
  for (int i = 0; i < N; i++) {
    mt_ni_in *ni = &n->nin[i];
    const mt_ni_out *no = &n->nq[i];
    ni->start = (uint8_t)(n->started && t == 0);
    link_get_raw(n, n->nsl + N + i, rr, &ni->ej_valid[0], ni->ej_flit[0].w, ni->inj_credit[0]);
    mt_mem_cycle_mp(&n->mem[i], ni->mem_req_ready, ni->mem_rsp_valid, ni->mem_rsp_data[0], MT_NI_MAX_LANES, no->mem_req_valid,
                    no->mem_req_we, no->mem_req_addr, no->mem_req_be, &no->mem_req_wdata[0][0], MT_NI_MAX_LANES);
    if (n->pni) mt_pni_step(&n->pni[i], ni, &n->nq[i]);
    else mt_ni_step(&n->ni[i], ni, &n->nq[i]);
    if (n->trace) trace_node(n, i, t);
  }
}

void mt_net_step(mt_net *n) {
  const uint64_t t = n->cycle;
  if (n->sw) {
    switch_cycle(n, t);
    n->cycle++;
    return;
  }
  /* a link of latency 1 presents what its sender registered in this very cycle: every link
   * takes its input before any node reads one */
  const int put_all = n->minlat == 1u;
  if (put_all) {
    const unsigned wr = mt_link_bank_wrow(&n->lnk, t);
    for (int k = 0; k < n->nl; k++) link_put(n, k, wr, &n->rq[n->lsrc[k]], n->lsport[k]);
  }
  for (int i = 0; i < n->N; i++) node_cycle(n, i, t, !put_all);
  n->cycle++;
}


/* The network as mt_net_new and mt_net_start made it (the same seed and perturbation flags). */
static int net_restart(mt_net *n, mt_err *e) {
  const mt_net_cfg c = n->c;
  const mt_sched *s = n->s;
  const mt_tables *tb = n->tb;
  const int dtype = n->dtype, pkt_mode = n->pkt_mode;
  const uint32_t seed = n->seed;
  const unsigned rpt = n->rt[0].p.perturb, npt = n->ni[0].p.perturb;
  FILE *trace = n->trace;
  net_release(n); /* first: a large network's buffers twice might not fit */
  mt_net *f = mt_net_new(&c, s, tb, dtype, pkt_mode, e);
  if (!f) {
    memset(n, 0, sizeof *n);
    return -1;
  }
  *n = *f;
  free(f);
  mt_net_set_perturb(n, rpt, npt);
  if (mt_net_start(n, seed, e)) return -1;
  if (trace && mt_net_set_trace(n, trace)) return mt_fail(e, "--trace: write failed");
  return 0;
}

/* mt_net_run in blocks (docs/results/bench.md). A link presents what its sender drove
 * lat - 1 cycles ago (lat its latency), so each node can run blk = minlat - 1 cycles (the
 * shortest link's) on its own before the next: the same cycles, node by node, with the node's state at hand. The run ends at
 * the first cycle after which every NI is done or one has an error, as cycle by cycle: a
 * node that is not done runs until its NI is done or the block ends; if then every NI is
 * done, every node runs to the cycle at which the last one got done, else to the block's
 * end (this needs an NI's done output to stay set, as it does until the next start). An NI
 * error stops nothing in time (the other nodes may have run past it): the run starts
 * over, cycle by cycle. Returns 1 for that, else 0 with n->cycle at the end. */
/* Progress of a long run (docs/reference/network.md "Progress"): the cycle, cycles per second and an
 * estimate of the time left from the NIs' time steps (the mean step reached over the
 * schedule's steps, with threads over thread 0's nodes; steps are of about equal length in
 * MultiTree, ring and the others, so this is rough). On a terminal a line rewritten every second, else a line every 10 s. */
typedef struct {
  FILE *f;
  int tty, shown;
  double t0, last;
} progress_t;

/* whether a (non-final) progress line is due */
static int progress_due(const progress_t *p) { return p && p->f && mt_now() - p->last >= (p->tty ? 1.0 : 10.0); }
/* ts: the mean step the nodes reached */
static void progress_line(const mt_net *n, progress_t *p, double ts, int final) {
  const double tn = mt_now();
  if (!p->f || (!final && tn - p->last < (p->tty ? 1.0 : 10.0)) || (final && (!p->tty || !p->shown))) return;
  p->last = tn;
  p->shown = 1;
  const double frac = n->tb->steps ? ts / n->tb->steps : 0, el = tn - p->t0;
  char left[48] = "";
  if (frac > 0.01 && frac < 1) snprintf(left, sizeof left, ", about %.0f s left", el * (1 - frac) / frac);
  fprintf(p->f, "%ssim: cycle %llu, %.0f s, %.0f cycles/s, step %.1f of %d%s%s", p->tty ? "\r" : "", (unsigned long long)n->cycle, el,
          el > 0 ? (double)n->cycle / el : 0.0, ts, n->tb->steps, left, p->tty ? (final ? "\n" : "\033[K") : "\n");
  fflush(p->f);
}

/* mt_net_run in blocks (docs/results/bench.md). A link presents what its sender drove
 * lat - 1 cycles ago (lat its latency), so each node can run blk = minlat - 1 cycles (the
 * shortest link's) on its own before the next: the same cycles, node by node, with the node's state at hand. The run ends at
 * the first cycle after which every NI is done or one has an error, as cycle by cycle: a
 * node that is not done runs until its NI is done or the block ends; if then every NI is
 * done, every node runs to the cycle at which the last one got done, else to the block's
 * end (this needs an NI's done output to stay set, as it does until the next start). An NI
 * error stops nothing in time (the other nodes may have run past it): the run starts
 * over, cycle by cycle. Returns 1 for that, else 0 with n->cycle at the end.
 *
 * Threads (mt_net_cfg.threads, docs/reference/network.md "Threads"; speed: docs/results/bench.md "The 64 MiB run in detail"): within a block no node reads what
 * another writes in it (a node reads its in-links' slots of the block before, writes its
 * out-links' slots of this one, and counts only its own in-links' flits), so the nodes of a
 * block are split among the threads, each a contiguous range; a barrier ends each half of a
 * block. Every node computes the same cycles whatever the thread count, so every result is
 * the same. */

/* A node's schedule step reached (for the progress line). */
static double node_step(const mt_net *n, int i) {
  return n->nq[i].done ? (double)n->tb->steps : n->pni ? (double)n->pni[i].step
                                                       : (double)n->ni[i].ts;
}

static double mean_step(const mt_net *n) {
  double ts = 0;
  for (int i = 0; i < n->N; i++) ts += node_step(n, i);
  return ts / (n->N ? n->N : 1);
}

/* Node i from T until done, an error or E; at[i]: its next cycle, done[i] its NI's done output
 * then, st[i] its step. 1: an error. */
static int node_run(mt_net *n, int i, uint64_t T, uint64_t E, uint64_t *at, uint8_t *done, double *st) {
  uint64_t t = T;
  int rc = 0;
  if (!n->nq[i].done)
    while (t < E) {
      node_cycle(n, i, t++, 1);
      if (n->nq[i].err) rc = 1;
      if (n->nq[i].done || rc) break;
    }
  at[i] = t;
  done[i] = n->nq[i].done;
  if (st) st[i] = node_step(n, i); /* for the progress line, with threads */
  return rc;
}
/* Node i on from at[i] to cycle end. 1: an error. */
static int node_finish(mt_net *n, int i, uint64_t end, const uint64_t *at) {
  for (uint64_t t = at[i]; t < end;) {
    node_cycle(n, i, t++, 1);
    if (n->nq[i].err) return 1;
  }
  return 0;
}

#define NET_MIN_WORK 64 /* node-cycles a block at least per thread */
/* Threads take a block's nodes one at a time: first their own contiguous range (the nodes they
 * ran last block: their state is in this core's cache), then what is left of the others' (a
 * thread that finishes early, from load or from a host that took its core away, helps). Which
 * thread runs a node changes nothing: within a block the nodes are independent. */
typedef struct {
  _Alignas(64) atomic_int next; /* the next unclaimed node of a thread's range */
} net_claim;
typedef struct {
  mt_net *n;
  pthread_barrier_t bar;
  pthread_mutex_t mu; /* the start gate: workers wait until every thread exists (go) or not (quit) */
  pthread_cond_t cv;
  int go, nt, quit;
  uint64_t limit;
  /* per block, by its parity: a thread may start block j+1 (when block j has no second half)
   * while another still reads block j's values; it cannot reach block j+2 before all passed
   * block j+1's barrier */
  uint64_t *at[2];
  uint8_t *done[2];
  double *st[2];
  int rc_a[2][NET_MAX_THREADS], rc_b[NET_MAX_THREADS];
  net_claim ca[2][NET_MAX_THREADS], cb[2][NET_MAX_THREADS]; /* the claims of each half */
  progress_t *pg;
  int lo[NET_MAX_THREADS + 1];
} net_pool;

/* the claims of the blocks of parity b: each thread's range from its start */
static void pool_claims_reset(net_pool *p, int b) {
  for (int j = 0; j < p->nt; j++) {
    atomic_store_explicit(&p->ca[b][j].next, p->lo[j], memory_order_relaxed);
    atomic_store_explicit(&p->cb[b][j].next, p->lo[j], memory_order_relaxed);
  }
}

static inline void pool_wait(net_pool *p) {
  if (p->nt > 1) pthread_barrier_wait(&p->bar);
}

/* Thread k claims nodes from c (its own range first) and runs each (half 0: node_run to E, half
 * 1: node_finish to end), until an error or none is left. */
static int pool_half(net_pool *p, int k, net_claim *c, int half, int par, uint64_t T, uint64_t E) {
  int rc = 0;
  if (p->nt == 1) { /* no claims: one cycle a block in the small configuration */
    for (int i = 0; i < p->n->N && !rc; i++)
      rc = half ? node_finish(p->n, i, E, p->at[par]) : node_run(p->n, i, T, E, p->at[par], p->done[par], NULL);
    return rc;
  }
  for (int r = 0; r < p->nt && !rc; r++) {
    const int kk = k + r < p->nt ? k + r : k + r - p->nt;
    for (int i; !rc && (i = atomic_fetch_add_explicit(&c[kk].next, 1, memory_order_relaxed)) < p->lo[kk + 1];)
      rc = half ? node_finish(p->n, i, E, p->at[par]) : node_run(p->n, i, T, E, p->at[par], p->done[par], p->st[par]);
  }
  return rc;
}

/* Thread k's run through the blocks. Every thread makes the same decisions from the same
 * shared values (at, done and the error flags of block j, read after the block's first
 * barrier), so no thread waits for another's decision. A block's second half (nodes whose NI
 * got done before the block's end run on to it) and its second barrier come only when some
 * node stopped early; else the next block starts at once: one barrier per block. Thread 0
 * keeps n->cycle and writes the progress lines. */
static int pool_loop(net_pool *p, int k) {
  mt_net *n = p->n;
  uint64_t T = n->cycle;
  int rc = 0, par = 0;
  while (T < p->limit) {
    const uint64_t E = p->limit - T > n->blk ? T + n->blk : p->limit;
    p->rc_a[par][k] = pool_half(p, k, p->ca[par], 0, par, T, E);
    if (k == 0) pool_claims_reset(p, !par); /* block j-1's claims, all made before its barriers */
    pool_wait(p);
    const uint64_t *at = p->at[par];
    int all_done = 1;
    for (int j = 0; j < p->nt; j++) rc |= p->rc_a[par][j];
    if (rc) break;
    for (int i = 0; i < n->N; i++) all_done &= p->done[par][i];
    uint64_t end = E;
    if (all_done) { /* the last NI got done at cycle end - 1 */
      end = T;
      for (int i = 0; i < n->N; i++)
        if (at[i] > end) end = at[i];
    }
    int early = 0;
    for (int i = 0; i < n->N && !early; i++) early = at[i] < end;
    if (k == 0) {
      n->cycle = end;
      if (!all_done && progress_due(p->pg)) { /* one thread: the nodes' own steps (no other thread runs) */
        double ts = 0;
        for (int i = 0; i < n->N; i++) ts += p->nt == 1 ? node_step(n, i) : p->st[par][i];
        progress_line(n, p->pg, ts / n->N, 0);
      }
    }
    if (early) {
      p->rc_b[k] = pool_half(p, k, p->cb[par], 1, par, T, end);
      pool_wait(p);
      for (int j = 0; j < p->nt; j++) rc |= p->rc_b[j];
      if (rc) break;
    }
    T = end;
    if (all_done) break;
    par = !par;
  }
  return rc;
}

typedef struct {
  net_pool *p;
  int k;
} pool_arg;
static void *pool_worker(void *v) {
  const pool_arg *a = v;
  pthread_mutex_lock(&a->p->mu);
  while (!a->p->go && !a->p->quit) pthread_cond_wait(&a->p->cv, &a->p->mu);
  const int go = a->p->go;
  pthread_mutex_unlock(&a->p->mu);
  if (go) pool_loop(a->p, a->k);
  return NULL;
}

static int run_blocks(mt_net *n, uint64_t limit, progress_t *pg) {
  net_pool p;
  memset(&p, 0, sizeof p);
  p.n = n;
  p.limit = limit;
  p.pg = pg;
  for (int b = 0; b < 2; b++) {
    p.at[b] = mt_xcalloc((size_t)n->N, sizeof *p.at[b]);
    p.done[b] = mt_xcalloc((size_t)n->N, 1);
    p.st[b] = mt_xcalloc((size_t)n->N, sizeof *p.st[b]);
  }
  p.nt = net_threads(n);
  /* a thread takes at least NET_MIN_WORK node-cycles a block: with short links (the small
   * configuration's blocks are one cycle) a barrier costs more than the work it splits */
  if ((uint64_t)p.nt * NET_MIN_WORK > (uint64_t)n->blk * (uint64_t)n->N) p.nt = (int)((uint64_t)n->blk * (uint64_t)n->N / NET_MIN_WORK);
  if (p.nt < 1) p.nt = 1;
  for (int k = 0; k <= p.nt; k++) p.lo[k] = (int)((int64_t)n->N * k / p.nt);
  for (int b = 0; b < 2; b++) /* each thread's claims from its range's start */
    for (int k = 0; k < p.nt; k++) {
      atomic_init(&p.ca[b][k].next, p.lo[k]);
      atomic_init(&p.cb[b][k].next, p.lo[k]);
    }
  pthread_t th[NET_MAX_THREADS];
  pool_arg arg[NET_MAX_THREADS];
  int started = 1;
  if (p.nt > 1) {
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    for (; started < p.nt; started++) {
      arg[started] = (pool_arg){&p, started};
      if (pthread_create(&th[started], NULL, pool_worker, &arg[started])) break;
    }
    /* fewer threads than asked (the system refused one): those run nothing, and the nodes
     * all go to this thread; the result is the same */
    pthread_mutex_lock(&p.mu);
    if (started < p.nt) {
      p.quit = 1;
      p.nt = 1;
      p.lo[1] = n->N; /* one thread claims nothing (pool_half) */
    } else {
      pthread_barrier_init(&p.bar, NULL, (unsigned)p.nt);
      p.go = 1;
    }
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
  }
  const int rc = pool_loop(&p, 0);
  for (int k = 1; k < started; k++) pthread_join(th[k], NULL);
  if (started > 1) {
    if (p.go) pthread_barrier_destroy(&p.bar);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
  }
  for (int b = 0; b < 2; b++) {
    free(p.at[b]);
    free(p.done[b]);
    free(p.st[b]);
  }
  n->run_threads = p.nt;
  return rc;
}

static int check_buffers(mt_net *n, mt_net_result *r, mt_err *e);

int mt_net_run(mt_net *n, mt_net_result *r, FILE *progress, mt_err *e) {
  memset(r, 0, sizeof *r);
  r->err_node = -1;
  if (!n->started) return mt_fail(e, "mt_net_run before mt_net_start");
  progress_t pg = {progress, progress && isatty(fileno(progress)), 0, mt_now(), mt_now()};
  /* In blocks (run_blocks) from cycle 0 when the links let nodes run ahead and no trace is
   * written (its lines come cycle by cycle, node by node); else, and after an NI error in a
   * block, cycle by cycle from the start. */
  int all_done = 0, blocks = n->blk && !n->trace && n->cycle == 0;
  const uint64_t c0 = n->cycle;
  r->threads = 1;
  if (blocks && run_blocks(n, n->c.max_cycles, &pg)) {
    if (net_restart(n, e)) return -1;
    blocks = 0;
  }
  if (blocks) { /* ended without an error: every NI done, or the cycle limit */
    r->threads = n->run_threads;
    all_done = n->cycle > c0;
    for (int i = 0; i < n->N; i++) all_done &= n->nq[i].done;
  }
  while (!blocks && n->cycle - c0 < n->c.max_cycles) {
    mt_net_step(n);
    all_done = 1;
    for (int i = 0; i < n->N; i++) {
      if (n->nq[i].err && r->err_node < 0) {
        r->err_node = i;
        r->err_code = n->nq[i].err_code;
      }
      all_done &= n->nq[i].done;
    }
    if (r->err_node >= 0 || all_done) break;
    if ((n->cycle & 0xFFF) == 0) progress_line(n, &pg, mean_step(n), 0);
  }
  progress_line(n, &pg, mean_step(n), 1); /* a terminal's last line, ended */
  r->cycles = n->cycle - c0;
  r->done = all_done;
  r->bytes = n->s->bytes;
  for (int i = 0; i < n->nr; i++)
    for (int p = 0; p < (int)n->rt[i].np; p++)
      for (int v = 0; v < (int)n->c.num_vcs; v++)
        if ((n->rq[i].wd_err[p][v] || n->rq[i].ovf_err[p][v] || n->rq[i].rt_err[p][v]) && !r->router_err) {
          r->router_err = 1;
          r->rerr_node = i;
          r->rerr_port = p;
          r->rerr_vc = v;
          r->rerr_kind = n->rq[i].ovf_err[p][v] ? 1 : n->rq[i].rt_err[p][v] ? 2
                                                                            : 0;
        }
  /* link utilisation over the run */
  uint64_t tot = 0, mx = 0;
  for (int k = 0; k < n->nl; k++) {
    tot += n->lflits[k];
    if (n->lflits[k] > mx) mx = n->lflits[k];
  }
  r->link_flits = tot;
  if (r->cycles && n->nl) {
    r->util_mean = (double)tot / (double)n->nl / (double)r->cycles;
    r->util_max = (double)mx / (double)r->cycles;
  }
  /* bandwidth lower bound: 2(N-1)S / (N d B), d = links per node, B = bytes per cycle */
  double d = n->sw ? (double)n->L : (double)n->nl / (double)n->N, B = (double)(n->c.payload_w / 8);
  /* links slower by a period count for 1/period of a link (the bound of all links together) */
  if (!n->sw && n->rt[0].pacedm) {
    d = 0;
    for (int k = 0; k < n->nl; k++) d += 1.0 / (double)n->rt[0].per[2 * n->t->links[k].dim];
    d /= (double)n->N;
  }
  r->lb_cycles = 2.0 * (n->N - 1) * (double)n->s->bytes / ((double)n->N * d * B);
  if (!all_done) {
    if (r->err_node >= 0) return 0; /* reported by the caller with the NI's error code */
    return mt_fail(e, "the all-reduce did not finish within max_cycles=%llu (cycle limit)", (unsigned long long)n->c.max_cycles);
  }
  return check_buffers(n, r, e);
}

/* Every node's stored words against the reference computed from the inputs and tables, in
 * ranges of MT_NET_REF_WORDS words (--data full) or of a sampled page (sample): the inputs
 * of a range are generated from its first word on (mt_ref_inputs_at). */
typedef struct {
  mt_net *n;
  int nt;
  uint64_t wrong[NET_MAX_THREADS], checked[NET_MAX_THREADS], bad_q[NET_MAX_THREADS]; /* bad_q: first failed range, else ~0 */
  mt_err err[NET_MAX_THREADS];
} check_arg;
/* Ranges k, k + nt, ... of W words: the reference of each computed from the inputs and every
 * node's buffer compared with it. */
static void check_part(void *v, int k, int nt) {
  check_arg *c = v;
  mt_net *n = c->n;
  const uint64_t nw = n->s->bytes / 4;
  const int N = n->N, full = n->c.data == MT_NET_DATA_FULL;
  const uint64_t W = full ? MT_NET_REF_WORDS : MT_MEM_PAGE_WORDS;
  uint32_t **in = mt_xcalloc((size_t)N, sizeof *in), *ref = mt_xcalloc(W, 4);
  for (int i = 0; i < N; i++) in[i] = mt_xcalloc(W, 4);
  mt_xs32_jumps J;
  mt_xs32_jumps_init(&J);
  c->bad_q[k] = ~(uint64_t)0;
  for (uint64_t q = (uint64_t)k, a; (a = q * W) < nw; q += (uint64_t)nt) {
    const uint64_t m = nw - a < W ? nw - a : W;
    if (!full && !n->backed[a >> MT_MEM_PAGE_SHIFT]) continue;
    for (int i = 0; i < N; i++) mt_ref_inputs_at(&J, n->seed, i, n->dtype, a, in[i], m);
    if (mt_ref_result_range(n->s, n->tb, n->dtype, in, a, m, ref, &c->err[k])) {
      c->bad_q[k] = q;
      break;
    }
    uint64_t wrong = 0;
    for (int i = 0; i < N; i++) {
      const uint32_t *w = mt_mem_word(&n->mem[i], a);
      for (uint64_t x = 0; x < m; x++) wrong += w[x] != ref[x];
    }
    c->wrong[k] += wrong;
    c->checked[k] += m;
  }
  for (int i = 0; i < N; i++) free(in[i]);
  free(in);
  free(ref);
}

static int check_buffers(mt_net *n, mt_net_result *r, mt_err *e) {
  if (n->c.data == MT_NET_DATA_NONE) return 0; /* correct stays 0: nothing was checked */
  check_arg *c = mt_xcalloc(1, sizeof *c);
  c->n = n;
  c->nt = net_threads(n);
  par_run(c->nt, check_part, c);
  int bad = -1; /* the error of the first range that failed, as one thread would have it */
  for (int k = 0; k < c->nt; k++) {
    r->wrong_words += c->wrong[k];
    r->checked_words += c->checked[k];
    if (c->bad_q[k] != ~(uint64_t)0 && (bad < 0 || c->bad_q[k] < c->bad_q[bad])) bad = k;
  }
  if (bad >= 0) *e = c->err[bad];
  free(c);
  if (bad >= 0) return -1;
  r->correct = r->wrong_words == 0;
  return 0;
}

const uint32_t *mt_net_buffer(const mt_net *n, int node) { return n->c.data == MT_NET_DATA_FULL ? n->mem[node].w : NULL; }
const uint32_t *mt_net_input(mt_net *n, int node) {
  if (!n->started) return NULL; /* the inputs are those of mt_net_start's seed */
  if (!n->input[node]) {
    n->input[node] = mt_xcalloc(n->s->bytes / 4 + 1, 4);
    mt_ref_inputs(n->seed, node, n->dtype, n->input[node], n->s->bytes / 4);
  }
  return n->input[node];
}

uint64_t mt_net_cycle(const mt_net *n) { return n->cycle; }
int mt_net_nodes(const mt_net *n) { return n->N; }
unsigned mt_net_mem_ports(const mt_net *n) { return n->nmp; }
void mt_net_stage_stats(const mt_net *n, uint64_t *out, uint64_t *rep, int *nodes, unsigned *peak) {
  *out = *rep = 0;
  *nodes = 0;
  *peak = 0;
  for (int i = 0; i < n->N; i++) {
    if (n->ni[i].sgpeak > *peak) *peak = n->ni[i].sgpeak;
    *out += n->ni[i].sg_out;
    *rep += n->ni[i].sg_rep;
    *nodes += n->ni[i].sg_out != 0;
  }
}
const mt_layout *mt_net_layout(const mt_net *n) { return &n->ly; }
uint32_t mt_net_router_wd_limit(const mt_net *n) { return n->c.wd_limit ? n->rwd : 0; }
const mt_ni_in *mt_net_ni_cfg(const mt_net *n, int node) { return &n->ncfg[node]; }
int mt_net_num_links(const mt_net *n) { return n->nl; }
void mt_net_link_ends(const mt_net *n, int k, int *src, int *src_port, int *dst, int *dst_port) {
  *src = n->lsrc[k];
  *src_port = n->lsport[k];
  *dst = n->ldst[k];
  *dst_port = n->ldport[k];
}
const mt_link_slot *mt_net_link_slot(const mt_net *n, int k) {
  if (n->cycle == 0) memset(&n->lview[k], 0, sizeof n->lview[k]);
  else mt_link_bank_slot(&n->lnk, (unsigned)k, n->cycle - 1, &n->lview[k]);
  return &n->lview[k];
}
const mt_router_out *mt_net_router_out(const mt_net *n, int node) { return &n->rq[node]; }
const mt_ni_out *mt_net_ni_out(const mt_net *n, int node) { return &n->nq[node]; }
const mt_mem *mt_net_mem(const mt_net *n, int node) { return &n->mem[node]; }
void mt_net_set_perturb(mt_net *n, unsigned router_perturb, unsigned ni_perturb) {
  for (int i = 0; i < n->nr; i++) n->rt[i].p.perturb = router_perturb;
  for (int i = 0; i < n->N; i++) n->ni[i].p.perturb = ni_perturb;
  for (int i = 0; n->pni && i < n->N; i++) n->pni[i].p.perturb = ni_perturb;
}

int mt_net_set_route(mt_net *n, int sw, int dst, uint16_t entry, mt_err *e) {
  if (!n->sw || sw < 0 || sw >= n->nr || dst < 0 || dst >= n->N)
    return mt_fail(e, "mt_net_set_route: no switch %d or node %d in this network", sw, dst);
  uint16_t *tab = n->swn.tab + (size_t)sw * (size_t)n->N, old = tab[dst];
  tab[dst] = entry;
  if (mt_router_load_table(&n->rt[sw], tab, (unsigned)n->N, e)) {
    tab[dst] = old;
    return -1;
  }
  return 0;
}

/* A flit's type (mt_flit.h, MT_FT_*) and, for a head, source, destination, flow and op. */
static void dump_flit(FILE *f, const mt_flit *fl, unsigned pw) {
  const unsigned t = mt_flit_type(fl, pw);
  static const char *const tn[8] = {"ar-head", "ar-body", "ar-subtail", "ar-tail", "head", "body", "tail", "headtail"};
  fprintf(f, "%s", tn[t & 7u]);
  if (mt_ft_is_head(t))
    fprintf(f, " src %u dst %u flow %u op %s", mt_hd_src(fl), mt_hd_dst(fl), mt_hd_flow(fl), mt_op_name((int)mt_hd_op(fl)));
}

/* One line per unit a stopped network holds: each non-empty router input VC and NI ejection
 * FIFO with its front flit, and each NI's state, timestep and entry. For a watchdog stop:
 * what waits on what (docs/reference/network.md, "Deadlock dump"). At most max_lines lines (0: all). */

/* Every non-empty input VC of router r, one line each. */
static void dump_router(const mt_net *n, const mt_router *r, FILE *f, unsigned max_lines, unsigned *lines) {
  for (unsigned iv = 0; iv < r->n; iv++) {
    if (!r->cnt[iv]) continue;
    if (max_lines && (*lines)++ >= max_lines) break;
    mt_flit fl;
    mt_flit_clear(&fl);
    memcpy(fl.w, &r->buf[r->rdo[iv]], r->fw * sizeof(uint32_t));
    fprintf(f, "  router in port %u VC %u: %u flits, front ", iv / r->nv, iv % r->nv, r->cnt[iv]);
    dump_flit(f, &fl, n->c.payload_w);
    if (r->active[iv]) fprintf(f, " (unit active on out port %u VC %u)", r->oport[iv], r->ovc[iv]);
    fprintf(f, "\n");
  }
}

void mt_net_dump(const mt_net *n, FILE *f, unsigned max_lines) {
  unsigned lines = 0;
  const unsigned pw = n->c.payload_w, nv = n->c.num_vcs;
#define LINE_OK() (max_lines == 0 || lines++ < max_lines)
  for (int i = 0; i < n->N; i++) {
    const mt_ni *s = &n->ni[i];
    if (!LINE_OK()) break;
    if (n->pni) { /* the paper's NI holds no flits: what it waits for */
      const mt_pni *q = &n->pni[i];
      fprintf(f, "node %d: paper NI %s, step %u, entry %u of %u, %u aggregations queued\n", i, q->err ? "error" : q->done ? "done"
                                                                                                                          : "run",
              q->step, q->hp, q->ne, q->aq_cnt);
      if (!n->sw) dump_router(n, &n->rt[i], f, max_lines, &lines);
      continue;
    }
    static const char *const stn[6] = {"idle", "scan", "run", "fin", "done", "error"};
    fprintf(f, "node %d: NI %s, timestep %u, entry %u\n", i, s->st < 6 ? stn[s->st] : "?", s->ts, s->hp);
    if (!n->sw) dump_router(n, &n->rt[i], f, max_lines, &lines);
    for (unsigned g = 0; g < s->nstreams; g++) {
      if (!s->ej_cnt[g]) continue;
      if (!LINE_OK()) break;
      fprintf(f, "  NI ejection port %u VC %u: %u flits, front ", g / nv, g % nv, s->ej_cnt[g]);
      dump_flit(f, &s->ej[(size_t)g * s->p.ej_depth + s->ej_rd[g]], pw);
      fprintf(f, "\n");
    }
  }
  for (int r = 0; n->sw && r < n->nr; r++) {
    if (!LINE_OK()) break;
    fprintf(f, "switch s%d (%u network + %u NI ports):\n", r, n->rt[r].nd, n->rt[r].np - n->rt[r].nd);
    dump_router(n, &n->rt[r], f, max_lines, &lines);
  }
#undef LINE_OK
}
