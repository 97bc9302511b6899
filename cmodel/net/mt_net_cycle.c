/* SPDX-License-Identifier: Apache-2.0
 * mt_net_cycle: one cycle of the network: a torus's or mesh's node by node
 * (mt_net_node_cycle, which mt_net_run's blocks call too), a switch network's all at once;
 * the links between the blocks' registered outputs and inputs; the --trace lines
 * (net/mt_net_priv.h lists the other parts). The links' helpers are inlined into the cycle
 * functions of this file: keep them together. */
#include <stdio.h>
#include <string.h>
#include "net/mt_net_priv.h"

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
void mt_net_node_cycle(mt_net *n, int i, uint64_t t, int put) {
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
  mt_net_proc_inputs(n, i, t, ni);
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
 * the links and takes its edge, and every memory with its NI as in mt_net_node_cycle. */
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
    for (int p = 0; p < (int)n->rt[r].np; p++) {
      const int k = n->in_link[r * NP + p]; /* links of several latencies: each its own row */
      link_get(n, k, n->lnk.klat && k >= 0 ? mt_link_bank_rrow_k(&n->lnk, (unsigned)k, t) : rr, &n->rin[r], p);
    }
    mt_router_step(&n->rt[r], &n->rin[r], &n->rq[r]);
  }
  for (int i = 0; i < N; i++) {
    mt_ni_in *ni = &n->nin[i];
    const mt_ni_out *no = &n->nq[i];
    mt_net_proc_inputs(n, i, t, ni);
    const unsigned k = (unsigned)(n->nsl + N + i);
    link_get_raw(n, (int)k, n->lnk.klat ? mt_link_bank_rrow_k(&n->lnk, k, t) : rr, &ni->ej_valid[0], ni->ej_flit[0].w, ni->inj_credit[0]);
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
  for (int i = 0; i < n->N; i++) mt_net_node_cycle(n, i, t, !put_all);
  n->cycle++;
}
