/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_dma.c: twin of rtl/mt_ni_mports.sv (and its mt_ni_dma.sv per port), the memory
 * ports. Requesters: the packetisers (agent l < L: reads of the chunk being sent) and the
 * receive engines (agent L + e: reads of the running sum, writes of results and gathered
 * data). Per port one request register drives the valid/ready port; a new request is
 * granted, round robin after the last grant, when the register is empty or its request is
 * accepted at this edge. Reads complete in order: a tag FIFO per port remembers the
 * requester of every read in flight (docs/reference/ni.md "Bandwidth"). 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

/* responses: the tag FIFO front of every port with mem_rsp_valid names the requester */
static inline void responses(const mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  const unsigned L = s->p.nlocal, TQD = s->tq_depth, sg = L + s->ne;
  const uint8_t *const tq = s->tq;
  uint32_t rspm = 0, eng_rspm = 0; /* in locals: the stores below could alias w's masks */
  const uint32_t rv = mt_ni_nz_mp(in->mem_rsp_valid, s->nmp);
  if (rv) w->progress = 1;
  for (uint32_t mm = rv; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    if (!s->tq_cnt[m]) continue;
    const unsigned tag = tq[m * TQD + s->tq_rd[m]];
    w->rsp_tag[m] = (int)tag;
    rspm |= 1u << m;
    if (tag == sg) { /* the stager */
      w->sg_rsp = 1;
      w->sg_rport = (int)m;
    } else if (tag >= L) {
      w->eng_rsp[tag - L] = (int)m;
      eng_rspm |= 1u << (tag - L);
    }
  }
  w->rspm = rspm;
  w->eng_rspm = eng_rspm;
}

/* does requester a (mode md) of a port ask for it this cycle? */
static inline uint32_t agent_req(const mt_ni *s, const mt_ni_wires *w, unsigned a, unsigned md) {
  const unsigned L = s->p.nlocal;
  if (a < L) return (w->sreq >> a) & 1u;
  if (a == L + s->ne) return (uint32_t)w->sg_rq;
  return ((md == 0 ? w->rx_wr | w->rx_rd : md == 1 ? w->rx_rd
                                                   : w->rx_wr) >>
          (a - L)) &
    1u;
}

/* the grant of port m to requester i of its list (agent a, mode md): what it does. A
 * packetiser read; the stager's read of a staged flit; an engine's write (mode 2, or mode 0
 * when it has one: writes first) or read. Gathered flits and sum reads pop the stream. */
static inline void grant(const mt_ni *s, mt_ni_wires *w, unsigned m, unsigned i, unsigned a, unsigned md) {
  const unsigned L = s->p.nlocal;
  w->gntm |= 1u << m;
  w->gnt[m] = (int)i;
  w->gnt_ag[m] = (uint8_t)a;
  if (a < L) {
    w->gnt_kind[m] = MT_NI_GNT_TX;
    w->gnt_tx |= 1u << a;
    return;
  }
  if (a == L + s->ne) {
    w->gnt_kind[m] = MT_NI_GNT_SG;
    w->sg_gnt = 1;
    return;
  }
  const unsigned e = a - L;
  if (md == 2 || (md == 0 && ((w->rx_wr >> e) & 1u))) {
    w->gnt_kind[m] = MT_NI_GNT_RX_WR;
    w->gnt_wr |= 1u << e;
    if (s->rx[e].op != MT_OP_REDUCE) w->ej_pop[e] = s->rx[e].s;
  } else {
    w->gnt_kind[m] = MT_NI_GNT_RX_RD;
    w->gnt_rd |= 1u << e;
    w->ej_pop[e] = s->rx[e].s;
  }
}

/* a request of agent a in mode md (its one port, apm): granted right away on a free port of
 * one requester; on a free port of several, the port joins *shared (round robin below) */
static inline void ask(const mt_ni *s, mt_ni_wires *w, unsigned a, unsigned md, uint32_t avail, uint32_t *shared) {
  const uint32_t pm = s->apm[a][md] & avail;
  if (!pm) return;
  const unsigned m = (unsigned)__builtin_ctz(pm);
  if (s->na[m] == 1) grant(s, w, m, 0, a, md);
  else *shared |= pm;
}

/* responses, then the arbiters: per port, round robin after the last grant, among the
 * requesters of the port (needs the packetisers' req (mt_ni_pktz_eval) and the engines'
 * (mt_ni_depktz_eval)). A port is free when its request register is empty or accepted at
 * this edge; every free port some requester asks for grants one. Each requester (agent,
 * mode) has one port (mt_ni_init), so the requests are walked, not the ports. */
static inline void mt_ni_dma_eval(const mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  const unsigned L = s->p.nlocal;
  responses(s, in, w);
  w->gntm = 0;
  w->gnt_tx = 0;
  w->gnt_wr = 0;
  w->gnt_rd = 0;
  /* writes accepted at this edge (the engines count them: reduce_chain) */
  uint32_t wacc = 0;
  for (uint32_t mm = w->rqv & w->rdy & mt_ni_nz_mp(s->q.mem_req_we, s->nmp); mm; mm &= mm - 1u) {
    const unsigned a = s->rq_ag[__builtin_ctz(mm)];
    if (a >= L) wacc |= 1u << (a - L);
  }
  w->wacc = wacc;
  if (!w->running) return;
  const uint32_t avail = ~w->rqv | w->rdy;
  uint32_t shared = 0;
  for (uint32_t lm = w->sreq; lm; lm &= lm - 1u) ask(s, w, (unsigned)__builtin_ctz(lm), 0, avail, &shared);
  for (uint32_t em = w->rx_wr | w->rx_rd; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    ask(s, w, L + e, 0, avail, &shared);
    if ((w->rx_rd >> e) & 1u) ask(s, w, L + e, 1, avail, &shared);
    if ((w->rx_wr >> e) & 1u) ask(s, w, L + e, 2, avail, &shared);
  }
  if (w->sg_rq) ask(s, w, L + s->ne, 1, avail, &shared);
  for (; shared; shared &= shared - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(shared), na = s->na[m];
    unsigned i = s->mrr[m];
    for (unsigned k = 1; k <= na; k++) {
      if (++i >= na) i = 0;
      if (agent_req(s, w, s->ag[m][i], s->agm[m][i])) break;
    }
    grant(s, w, m, i, s->ag[m][i], s->agm[m][i]);
  }
}

/* request registers (accepted -> empty; granted -> the requester's request) and tag FIFOs
 * (answered front popped; a granted read pushes its requester). The request registers are
 * the registered outputs s->q.mem_req_* (0 while not valid; wdata only of writes, their
 * live lanes) and rq_v, rq_ag. */
static inline void mt_ni_dma_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  /* the fields read per grant in locals (the byte stores below could alias them) */
  const unsigned L = s->p.nlocal, lanes = s->lanes, TQD = s->tq_depth, lg_fb = s->lg_fb;
  uint8_t *const tq = s->tq;
  mt_ni_out *const q = &s->q;
  const uint32_t full = (1u << lanes) - 1u; /* every lane (lanes <= MT_NI_MAX_LANES) */
  /* accepted at this edge and not loaded again: empty */
  for (uint32_t mm = w->rqv & w->rdy & ~w->gntm; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    s->rq_v[m] = 0;
    q->mem_req_valid[m] = 0;
    if (q->mem_req_we[m]) memset(q->mem_req_wdata[m], 0, sizeof q->mem_req_wdata[m]);
    q->mem_req_we[m] = 0;
    q->mem_req_addr[m] = 0;
    q->mem_req_be[m] = 0;
  }
  for (uint32_t mm = w->rspm; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    if (++s->tq_rd[m] == TQD) s->tq_rd[m] = 0;
    s->tq_cnt[m]--;
  }
  for (uint32_t mm = w->gntm; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm), a = w->gnt_ag[m], kind = w->gnt_kind[m];
    s->mrr[m] = (uint32_t)w->gnt[m];
    s->rq_v[m] = 1;
    s->rq_ag[m] = (uint8_t)a;
    /* a read (packetiser: flit rdj; engine: the running sum of flit popj) or an engine's
     * write of flit wj (a sum from wq, or the gathered flit) */
    const int wr = kind == MT_NI_GNT_RX_WR;
    const mt_ni_rx *r = NULL;
    uint32_t base, j, nfl, lastmask;
    if (kind == MT_NI_GNT_TX) {
      const mt_ni_tx *t = &s->tx[a];
      base = t->addr;
      j = t->rdj;
      nfl = t->nfl;
      lastmask = t->lastmask;
    } else if (kind == MT_NI_GNT_SG) { /* the stager: flit sgj of the staged prefix of (flow, slot) sgx */
      base = s->sga + (s->sgx % (uint32_t)s->p.children) * in->stage_slot + in->stage_base;
      j = s->sgj;
      nfl = s->sgn;
      lastmask = mt_ni_last_mask(s, s->sgl);
    } else {
      r = &s->rx[a - L];
      base = r->addr + (wr ? r->woff : 0u); /* a staged-out unit is written to its slot */
      j = wr ? r->wj : r->popj;
      nfl = r->nfl;
      lastmask = r->lastmask;
    }
    uint32_t *d = q->mem_req_wdata[m];
    q->mem_req_valid[m] = 1;
    q->mem_req_addr[m] = base + (j << lg_fb);
    q->mem_req_be[m] = j + 1 == nfl ? lastmask : full; /* mt_ni_lane_mask */
    if (!wr) {
      if (q->mem_req_we[m]) memset(d, 0, sizeof q->mem_req_wdata[m]);
      q->mem_req_we[m] = 0;
      tq[(size_t)m * TQD + mt_ni_wrap(s->tq_rd[m] + s->tq_cnt[m], TQD)] = (uint8_t)a;
      s->tq_cnt[m]++;
      continue;
    }
    q->mem_req_we[m] = 1;
    const uint32_t *src = r->op == MT_OP_REDUCE ? r->wq[r->wq_rd] : w->front[a - L]->w;
    if (lanes == 4) memcpy(d, src, 16); /* only live lanes are ever non-zero */
    else memcpy(d, src, lanes * sizeof *d);
  }
}
