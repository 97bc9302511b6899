/* SPDX-License-Identifier: Apache-2.0
 * mt_net: the C network model (routers + network interfaces + memories + links). */
#include "mt_net.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mt_ref.h"
#include "mt_rom.h"

struct mt_net {
  mt_net_cfg c;
  const mt_sched *s; const mt_tables *tb; const mt_topo *t;
  mt_layout ly;
  int N, D, L, NP, dtype, pkt_mode;
  unsigned nmp;                              /* NI memory ports */
  mt_router *rt; mt_router_out *rq, *rq2;   /* registered outputs: current and next */
  mt_ni *ni; mt_ni_out *nq, *nq2;
  mt_ni_in *ncfg;                            /* per-node configuration part of the NI inputs */
  mt_mem *mem;
  uint32_t **input;
  int nl;                                    /* directed network links */
  mt_link *lnk; int *lsrc, *lsport, *ldst, *ldport;
  int *in_link;                              /* [node*NP + port] -> link feeding it, or -1 */
  mt_link_slot *mid;
  uint64_t cycle, *lflits;
  uint8_t started;
  uint32_t wd, rwd;                          /* effective NI / router watchdog limits */
  mt_router_in rin; mt_ni_in nin;            /* scratch */
  FILE *trace;                               /* --trace: NI events, CSV (docs/network.md) */
  uint8_t (*tr_tx)[MT_NI_MAX_L], (*tr_rx)[MT_NI_MAX_L]; uint16_t *tr_ts; /* last traced state */
};

void mt_net_cfg_paper(mt_net_cfg *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "paper");
  c->payload_w = 128; c->num_vcs = 4; c->vc_depth = 318; c->ej_depth = 64; c->link_lat = 150;
  c->subpkt_flits = 16; c->pkt_bytes = 256; c->step_prio = 0; c->local_ports = 0;
  c->mem_p_ready = 100; c->mem_lat_max = 1; c->ni_sq = 8; c->ni_rq = 8; c->ni_chain = 1;
  c->wd_limit = 100000; c->max_cycles = 2000000000ull; c->clock_ghz = 1.0;
}

void mt_net_cfg_small(mt_net_cfg *c) {
  mt_net_cfg_paper(c);
  snprintf(c->name, sizeof c->name, "small");
  c->vc_depth = 8; c->ej_depth = 8; c->link_lat = 2; c->subpkt_flits = 4; c->pkt_bytes = 64;
  c->ni_sq = 4; c->ni_rq = 8; c->wd_limit = 20000; c->max_cycles = 50000000ull;
}

int mt_net_cfg_by_name(mt_net_cfg *c, const char *name, mt_err *e) {
  if (!strcmp(name, "paper")) mt_net_cfg_paper(c);
  else if (!strcmp(name, "small")) mt_net_cfg_small(c);
  else return mt_fail(e, "unknown configuration '%s' (paper, small)", name);
  return 0;
}

int mt_net_cfg_set(mt_net_cfg *c, const char *kv, mt_err *e) {
  const char *eq = strchr(kv, '=');
  if (!eq) return mt_fail(e, "--set '%s': expected name=value", kv);
  char key[32]; size_t kl = (size_t)(eq - kv);
  if (kl == 0 || kl >= sizeof key) return mt_fail(e, "--set '%s': bad name", kv);
  memcpy(key, kv, kl); key[kl] = 0;
  char *end; errno = 0;
  double v = strtod(eq + 1, &end);
  if (end == eq + 1 || *end || errno || v < 0) return mt_fail(e, "--set %s: '%s' is not a non-negative number", key, eq + 1);
  struct { const char *k; unsigned *u; } f[] = {
    {"payload_w", &c->payload_w}, {"num_vcs", &c->num_vcs}, {"vc_depth", &c->vc_depth}, {"ej_depth", &c->ej_depth},
    {"link_lat", &c->link_lat}, {"subpkt_flits", &c->subpkt_flits}, {"pkt_bytes", &c->pkt_bytes}, {"step_prio", &c->step_prio},
    {"local_ports", &c->local_ports}, {"mem_p_ready", &c->mem_p_ready}, {"mem_lat_max", &c->mem_lat_max},
    {"ni_sq", &c->ni_sq}, {"ni_rq", &c->ni_rq}, {"ni_rx_engines", &c->ni_rx_engines}, {"ni_mem_ports", &c->ni_mem_ports}, {"ni_chain", &c->ni_chain}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    if (!strcmp(key, f[i].k)) {
      if (v > 4294967295.0 || v != (double)(unsigned)v) return mt_fail(e, "--set %s: '%s' is not a whole number", key, eq + 1);
      *f[i].u = (unsigned)v; return 0;
    }
  if (!strcmp(key, "wd_limit")) { c->wd_limit = (uint32_t)v; return 0; }
  if (!strcmp(key, "max_cycles")) { c->max_cycles = (uint64_t)v; return 0; }
  if (!strcmp(key, "clock_ghz")) { if (v <= 0) return mt_fail(e, "--set clock_ghz must be > 0"); c->clock_ghz = v; return 0; }
  return mt_fail(e, "--set: unknown field '%s' (payload_w num_vcs vc_depth ej_depth link_lat subpkt_flits pkt_bytes step_prio local_ports "
                 "mem_p_ready mem_lat_max ni_sq ni_rq ni_rx_engines ni_mem_ports ni_chain wd_limit max_cycles clock_ghz)", key);
}

void mt_net_free(mt_net *n) {
  if (!n) return;
  for (int i = 0; i < n->N; i++) {
    if (n->rt) mt_router_free(&n->rt[i]);
    if (n->ni) mt_ni_free(&n->ni[i]);
    if (n->mem) mt_mem_free(&n->mem[i]);
    if (n->input) free(n->input[i]);
  }
  for (int k = 0; k < n->nl && n->lnk; k++) mt_link_free(&n->lnk[k]);
  free(n->rt); free(n->rq); free(n->rq2); free(n->ni); free(n->nq); free(n->nq2); free(n->ncfg); free(n->mem);
  free(n->input); free(n->lnk); free(n->lsrc); free(n->lsport); free(n->ldst); free(n->ldport); free(n->in_link);
  free(n->mid); free(n->lflits); free(n->tr_tx); free(n->tr_rx); free(n->tr_ts);
  free(n);
}

mt_net *mt_net_new(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, int pkt_mode, mt_err *e) {
  return mt_net_new_layout(c, s, tb, dtype, pkt_mode, NULL, 0, 0, e);
}

mt_net *mt_net_new_layout(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, int pkt_mode,
                          const mt_layout *hw, unsigned tbl_depth, unsigned max_flows, mt_err *e) {
  const mt_topo *t = s->topo;
  if (!mt_topo_is_grid(t)) { mt_fail(e, "the network model simulates tori and meshes; %s is not one", t->spec); return NULL; }
  for (int d = 0; d < t->ndims; d++)
    if (t->dim[d] < 2) { mt_fail(e, "%s: every dimension must be at least 2 wide for the router (use ring:N for one dimension)", t->spec); return NULL; }
  if (s->bytes % 4) { mt_fail(e, "%llu bytes is not a whole number of 4-byte elements", (unsigned long long)s->bytes); return NULL; }
  if (s->elem != 4) { mt_fail(e, "the network model moves 4-byte elements; the schedule was planned with %d-byte elements", s->elem); return NULL; }
  const unsigned fb = c->payload_w / 8;
  const unsigned pkt_flits = fb ? c->pkt_bytes / fb : 0;
  if (pkt_mode && (pkt_flits + 1 > c->vc_depth || pkt_flits + 1 > c->ej_depth)) {
    mt_fail(e, "packet flow control with %u-byte packets needs %u-flit buffers (virtual cut-through); vc_depth=%u ej_depth=%u",
            c->pkt_bytes, pkt_flits + 1, c->vc_depth, c->ej_depth);
    return NULL;
  }
  if (!pkt_mode && (c->subpkt_flits > c->vc_depth || c->subpkt_flits > c->ej_depth)) {
    mt_fail(e, "message flow control with %u-flit sub-packets needs buffers of at least that; vc_depth=%u ej_depth=%u",
            c->subpkt_flits, c->vc_depth, c->ej_depth);
    return NULL;
  }
  if (c->link_lat < 1) { mt_fail(e, "link_lat must be >= 1"); return NULL; }
  mt_net *n = mt_xcalloc(1, sizeof *n);
  n->c = *c; n->s = s; n->tb = tb; n->t = t; n->dtype = dtype; n->pkt_mode = pkt_mode;
  n->N = t->n_nodes; n->D = t->ndims; n->L = c->local_ports ? (int)c->local_ports : 2 * n->D; n->NP = 2 * n->D + n->L;
  if (tb->local_ports && tb->local_ports != n->L) { mt_fail(e, "tables were planned for %d local ports, the network has %d", tb->local_ports, n->L); mt_net_free(n); return NULL; }
  if (mt_layout_for(s, tb, 0, &n->ly, e) || (hw && mt_layout_fit(&n->ly, hw, e))) { mt_net_free(n); return NULL; }
  if (tbl_depth && tbl_depth < (unsigned)mt_rom_depth(tb)) { mt_fail(e, "the tables need %d words per node, the NI holds %u", mt_rom_depth(tb), tbl_depth); mt_net_free(n); return NULL; }
  if (max_flows && max_flows < (unsigned)s->n_flows) { mt_fail(e, "%s has %d flows, the NI tracks %u", s->algo, s->n_flows, max_flows); mt_net_free(n); return NULL; }
  /* routers */
  mt_router_params rp; mt_router_default_params(&rp);
  rp.dims = (unsigned)n->D; rp.torus = t->kind == MT_TOPO_TORUS;
  for (int d = 0; d < 3; d++) rp.k[d] = d < n->D ? (unsigned)t->dim[d] : 1;
  rp.nlocal = (unsigned)n->L; rp.payload_w = c->payload_w; rp.num_vcs = c->num_vcs; rp.vc_depth = c->vc_depth;
  rp.ej_depth = c->ej_depth; rp.subpkt_flits = c->subpkt_flits; rp.step_prio = c->step_prio; rp.wd_w = 31;
  const char *why = NULL;
  if (mt_router_check_params(&rp, &why)) { mt_fail(e, "router: %s", why); mt_net_free(n); return NULL; }
  /* network interfaces */
  mt_ni_params np; mt_ni_default_params(&np);
  np.payload_w = c->payload_w; np.num_vcs = c->num_vcs; np.nlocal = (unsigned)n->L; np.net_ports = (unsigned)(2 * n->D);
  np.ej_depth = c->ej_depth; np.vc_depth = c->vc_depth; np.subpkt_flits = c->subpkt_flits; np.pkt_bytes = c->pkt_bytes;
  np.tbl_depth = tbl_depth ? tbl_depth : (unsigned)mt_rom_depth(tb); np.max_flows = max_flows ? max_flows : (unsigned)s->n_flows; np.sq = c->ni_sq; np.rq = c->ni_rq; np.wd_w = 32;
  /* bandwidth: 0 = full (one engine per local port, L + 2L memory ports) */
  /* 0: two engines per ejection port (they take turns on its packets, hiding the
   * per-packet look-up and write drain), or one per port if 2L exceeds MT_NI_MAX_L */
  np.rx_engines = c->ni_rx_engines ? c->ni_rx_engines : (2u * (unsigned)n->L <= MT_NI_MAX_L ? 2u : 1u) * (unsigned)n->L;
  np.mem_ports = c->ni_mem_ports ? c->ni_mem_ports : (unsigned)n->L + 2 * np.rx_engines;
  n->nmp = np.mem_ports;
  if (c->ni_chain > 1) { mt_fail(e, "ni_chain=%u: 0 or 1", c->ni_chain); mt_net_free(n); return NULL; }
  np.reduce_chain = c->ni_chain;
  mt_ni_params_layout(&np, &n->ly);
  if (mt_ni_check_params(&np, e)) { char m[600]; snprintf(m, sizeof m, "network interface: %.500s", e->msg); mt_fail(e, "%s", m); mt_net_free(n); return NULL; }
  const int N = n->N;
  n->rt = mt_xcalloc((size_t)N, sizeof *n->rt); n->rq = mt_xcalloc((size_t)N, sizeof *n->rq); n->rq2 = mt_xcalloc((size_t)N, sizeof *n->rq2);
  n->ni = mt_xcalloc((size_t)N, sizeof *n->ni); n->nq = mt_xcalloc((size_t)N, sizeof *n->nq); n->nq2 = mt_xcalloc((size_t)N, sizeof *n->nq2);
  n->ncfg = mt_xcalloc((size_t)N, sizeof *n->ncfg); n->mem = mt_xcalloc((size_t)N, sizeof *n->mem);
  n->input = mt_xcalloc((size_t)N, sizeof *n->input);
  const int nw = mt_layout_words(&n->ly), depth = (int)np.tbl_depth;
  uint64_t *img = mt_xcalloc((size_t)depth * MT_NI_EW, 8), word[MT_LAYOUT_MAX_WORDS];
  if (nw > MT_NI_EW) { mt_fail(e, "table entries of %d bits exceed the NI's %d", n->ly.width, 64 * MT_NI_EW); free(img); mt_net_free(n); return NULL; }
  for (int i = 0; i < N; i++) {
    if (mt_router_init(&n->rt[i], &rp)) { mt_fail(e, "router %d: init failed", i); free(img); mt_net_free(n); return NULL; }
    if (mt_ni_init(&n->ni[i], &np, e)) { free(img); mt_net_free(n); return NULL; }
    memset(img, 0, (size_t)depth * MT_NI_EW * 8);
    const mt_entry *en = mt_node_entries(tb, i);
    for (int k = 0; k <= tb->count[i]; k++) {
      mt_layout_encode(&n->ly, k < tb->count[i] ? &en[k] : NULL, word);
      memcpy(img + (size_t)k * MT_NI_EW, word, (size_t)nw * 8);
    }
    mt_ni_table_load(&n->ni[i], img, (unsigned)depth, MT_NI_EW);
    mt_ni_in *cf = &n->ncfg[i];
    cf->dtype = (uint8_t)dtype; cf->pkt_mode = (uint8_t)pkt_mode; cf->node_id = (uint16_t)i; cf->nflows = (uint16_t)s->n_flows;
    cf->base_units = (uint32_t)n->ly.base_units; cf->rem_units = (uint32_t)n->ly.rem_units; cf->elem = (uint32_t)n->ly.elem;
    cf->nop_bytes = (uint32_t)n->ly.nop_bytes; cf->wd_limit = c->wd_limit;
    n->input[i] = mt_xcalloc(s->bytes / 4 + 1, 4);
    if (mt_mem_init_mp(&n->mem[i], s->bytes / 4, c->payload_w / 32, n->nmp, c->mem_p_ready, c->mem_lat_max, 0x51ED + (uint32_t)i * 7919u)) {
      mt_fail(e, "memory: mem_p_ready must be 1..100 and mem_lat_max 1..1000"); free(img); mt_net_free(n); return NULL;
    }
  }
  free(img);
  /* Watchdogs. An NI makes no progress at all only in a deadlock or while it waits for
   * a message that is being reduced elsewhere: wd_limit plus 64 cycles per flit of the
   * largest chunk. A router input VC may legitimately hold a message for several steps
   * (a reduce message waits in order behind others), so its limit grows with the whole
   * buffer: wd_limit plus 64 cycles per flit of all the data. */
  {
    uint64_t mx = 0;
    for (int f = 0; f < s->n_flows; f++) if (s->chunk[f].size > mx) mx = s->chunk[f].size;
    uint64_t wd = (uint64_t)c->wd_limit + 64ull * ((mx + fb - 1) / fb);
    uint64_t rwd = (uint64_t)c->wd_limit + 64ull * ((s->bytes + fb - 1) / fb);
    n->wd = wd > 0x7FFFFFFFull ? 0x7FFFFFFFu : (uint32_t)wd;
    n->rwd = rwd > 0x7FFFFFFFull ? 0x7FFFFFFFu : (uint32_t)rwd;
    for (int i = 0; i < N; i++) n->ncfg[i].wd_limit = c->wd_limit ? n->wd : 0;
  }
  /* links: every directed network link of the topology gets a delay line */
  n->nl = t->n_links;
  n->lnk = mt_xcalloc((size_t)n->nl, sizeof *n->lnk);
  n->lsrc = mt_xcalloc((size_t)n->nl, sizeof(int)); n->lsport = mt_xcalloc((size_t)n->nl, sizeof(int));
  n->ldst = mt_xcalloc((size_t)n->nl, sizeof(int)); n->ldport = mt_xcalloc((size_t)n->nl, sizeof(int));
  n->in_link = mt_xcalloc((size_t)N * n->NP, sizeof(int));
  for (int i = 0; i < N * n->NP; i++) n->in_link[i] = -1;
  n->mid = mt_xcalloc((size_t)n->nl, sizeof *n->mid);
  n->lflits = mt_xcalloc((size_t)n->nl, sizeof(uint64_t));
  for (int k = 0; k < n->nl; k++) {
    const mt_edge *l = &t->links[k];
    n->lsrc[k] = l->src; n->lsport[k] = l->src_port; n->ldst[k] = l->dst; n->ldport[k] = l->dst_port;
    n->in_link[l->dst * n->NP + l->dst_port] = k;
    if (mt_link_init(&n->lnk[k], c->link_lat)) { mt_fail(e, "link %d: init failed", k); mt_net_free(n); return NULL; }
  }
  return n;
}

int mt_net_start(mt_net *n, uint32_t seed, mt_err *e) {
  (void)e;
  const uint64_t nw = n->s->bytes / 4;
  for (int i = 0; i < n->N; i++) {
    mt_ref_inputs(seed, i, n->dtype, n->input[i], nw);
    memcpy(n->mem[i].w, n->input[i], nw * 4);
  }
  n->started = 1;
  return 0;
}

/* One CSV line per NI event after node i's edge (the cycle number is the edge's, from 1):
 * step advances, a sender starting / finishing a message, a receive engine starting /
 * finishing one. Observes the model only. */
static void trace_node(mt_net *n, int i) {
  const mt_ni *s = &n->ni[i];
  const unsigned long long cy = (unsigned long long)n->cycle + 1;
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
  n->trace = f;
  if (!f) return 0;
  if (!n->tr_tx) {
    n->tr_tx = mt_xcalloc((size_t)n->N, sizeof *n->tr_tx);
    n->tr_rx = mt_xcalloc((size_t)n->N, sizeof *n->tr_rx);
    n->tr_ts = mt_xcalloc((size_t)n->N, sizeof *n->tr_ts);
  }
  return fprintf(f, "cycle,node,event,unit,flow,step,peer,bytes\n") < 0 ? -1 : 0;
}

void mt_net_step(mt_net *n) {
  const int D2 = 2 * n->D, NV = (int)n->c.num_vcs;
  /* links present what their senders registered earlier */
  for (int k = 0; k < n->nl; k++) {
    const mt_router_out *o = &n->rq[n->lsrc[k]];
    mt_link_slot in;
    const int p = n->lsport[k];
    in.valid = o->out_valid[p];
    in.flit = o->out_flit[p];
    in.credits = 0;
    for (int v = 0; v < NV; v++) in.credits |= (uint32_t)(o->in_credit[p][v] & 1u) << v;
    mt_link_step(&n->lnk[k], &in, &n->mid[k]);
    n->lflits[k] += n->mid[k].valid;
  }
  for (int i = 0; i < n->N; i++) {
    mt_router_in *ri = &n->rin;
    memset(ri, 0, sizeof *ri);
    ri->node_id = (unsigned)i; ri->wd_limit = n->c.wd_limit ? n->rwd : 0;
    for (int p = 0; p < D2; p++) {
      int k = n->in_link[i * n->NP + p];
      if (k < 0) continue;
      ri->in_valid[p] = n->mid[k].valid;
      ri->in_flit[p] = n->mid[k].flit;
      for (int v = 0; v < NV; v++) ri->out_credit[p][v] = (uint8_t)((n->mid[k].credits >> v) & 1u);
    }
    const mt_ni_out *no = &n->nq[i];
    for (int l = 0; l < n->L; l++) {
      ri->in_valid[D2 + l] = no->inj_valid[l];
      ri->in_flit[D2 + l] = no->inj_flit[l];
      for (int v = 0; v < NV; v++) ri->out_credit[D2 + l][v] = no->ej_credit[l][v];
    }
    mt_ni_in *ni = &n->nin;
    *ni = n->ncfg[i];
    ni->start = (uint8_t)(n->started && n->cycle == 0);
    const mt_router_out *ro = &n->rq[i];
    for (int l = 0; l < n->L; l++) {
      for (int v = 0; v < NV; v++) ni->inj_credit[l][v] = ro->in_credit[D2 + l][v];
      ni->ej_valid[l] = ro->out_valid[D2 + l];
      ni->ej_flit[l] = ro->out_flit[D2 + l];
    }
    for (unsigned m = 0; m < n->nmp; m++)
      mt_mem_comb_port(&n->mem[i], m, &ni->mem_req_ready[m], &ni->mem_rsp_valid[m], ni->mem_rsp_data[m]);
    mt_router_step(&n->rt[i], ri, &n->rq2[i]);
    mt_ni_step(&n->ni[i], ni, &n->nq2[i]);
    if (n->trace) trace_node(n, i);
    mt_mem_edge_mp(&n->mem[i], no->mem_req_valid, no->mem_req_we, no->mem_req_addr, no->mem_req_be, &no->mem_req_wdata[0][0],
                   MT_NI_MAX_LANES);
  }
  mt_router_out *tr = n->rq; n->rq = n->rq2; n->rq2 = tr;
  mt_ni_out *tn = n->nq; n->nq = n->nq2; n->nq2 = tn;
  n->cycle++;
}

static double now(void) { struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts); return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec; }

int mt_net_run(mt_net *n, mt_net_result *r, int progress, mt_err *e) {
  memset(r, 0, sizeof *r);
  r->err_node = -1;
  if (!n->started) return mt_fail(e, "mt_net_run before mt_net_start");
  double t0 = now(), last = t0;
  int all_done = 0;
  const uint64_t c0 = n->cycle;
  while (n->cycle - c0 < n->c.max_cycles) {
    mt_net_step(n);
    all_done = 1;
    for (int i = 0; i < n->N; i++) {
      if (n->nq[i].err && r->err_node < 0) { r->err_node = i; r->err_code = n->nq[i].err_code; }
      all_done &= n->nq[i].done;
    }
    if (r->err_node >= 0 || all_done) break;
    if (progress && (n->cycle & 0xFFFF) == 0) {
      double tn = now();
      if (tn - last > 10.0) { fprintf(stderr, "sim: cycle %llu, %.0f s\n", (unsigned long long)n->cycle, tn - t0); last = tn; }
    }
  }
  r->cycles = n->cycle - c0;
  r->done = all_done;
  r->bytes = n->s->bytes;
  for (int i = 0; i < n->N; i++)
    for (int p = 0; p < n->NP; p++)
      for (int v = 0; v < (int)n->c.num_vcs; v++)
        if ((n->rq[i].wd_err[p][v] || n->rq[i].ovf_err[p][v]) && !r->router_err) {
          r->router_err = 1; r->rerr_node = i; r->rerr_port = p; r->rerr_vc = v; r->rerr_ovf = n->rq[i].ovf_err[p][v];
        }
  /* link utilisation over the run */
  uint64_t tot = 0, mx = 0;
  for (int k = 0; k < n->nl; k++) { tot += n->lflits[k]; if (n->lflits[k] > mx) mx = n->lflits[k]; }
  r->link_flits = tot;
  if (r->cycles && n->nl) { r->util_mean = (double)tot / (double)n->nl / (double)r->cycles; r->util_max = (double)mx / (double)r->cycles; }
  /* bandwidth lower bound: 2(N-1)S / (N d B), d = links per node, B = bytes per cycle */
  double d = (double)n->nl / (double)n->N, B = (double)(n->c.payload_w / 8);
  r->lb_cycles = 2.0 * (n->N - 1) * (double)n->s->bytes / ((double)n->N * d * B);
  if (!all_done) {
    if (r->err_node >= 0) return 0; /* reported by the caller with the NI's error code */
    return mt_fail(e, "the all-reduce did not finish within max_cycles=%llu (cycle limit)", (unsigned long long)n->c.max_cycles);
  }
  /* every node's buffer against the reference computed from the inputs and tables */
  const uint64_t nw = n->s->bytes / 4;
  uint32_t *ref = mt_xcalloc(nw + 1, 4);
  if (mt_ref_result(n->s, n->tb, n->dtype, n->input, ref, e)) { free(ref); return -1; }
  for (int i = 0; i < n->N; i++)
    for (uint64_t k = 0; k < nw; k++) r->wrong_words += n->mem[i].w[k] != ref[k];
  free(ref);
  r->correct = r->wrong_words == 0;
  return 0;
}

const uint32_t *mt_net_buffer(const mt_net *n, int node) { return n->mem[node].w; }
const uint32_t *mt_net_input(const mt_net *n, int node) { return n->input[node]; }

uint64_t mt_net_cycle(const mt_net *n) { return n->cycle; }
int mt_net_nodes(const mt_net *n) { return n->N; }
unsigned mt_net_mem_ports(const mt_net *n) { return n->nmp; }
const mt_layout *mt_net_layout(const mt_net *n) { return &n->ly; }
uint32_t mt_net_router_wd_limit(const mt_net *n) { return n->c.wd_limit ? n->rwd : 0; }
const mt_ni_in *mt_net_ni_cfg(const mt_net *n, int node) { return &n->ncfg[node]; }
int mt_net_num_links(const mt_net *n) { return n->nl; }
void mt_net_link_ends(const mt_net *n, int k, int *src, int *src_port, int *dst, int *dst_port) {
  *src = n->lsrc[k]; *src_port = n->lsport[k]; *dst = n->ldst[k]; *dst_port = n->ldport[k];
}
const mt_link_slot *mt_net_link_slot(const mt_net *n, int k) { return &n->mid[k]; }
const mt_router_out *mt_net_router_out(const mt_net *n, int node) { return &n->rq[node]; }
const mt_ni_out *mt_net_ni_out(const mt_net *n, int node) { return &n->nq[node]; }
const mt_mem *mt_net_mem(const mt_net *n, int node) { return &n->mem[node]; }
void mt_net_set_perturb(mt_net *n, unsigned router_perturb, unsigned ni_perturb) {
  for (int i = 0; i < n->N; i++) { n->rt[i].p.perturb = router_perturb; n->ni[i].p.perturb = ni_perturb; }
}
