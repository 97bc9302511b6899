/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_pktz.c: twin of rtl/mt_ni_pktz.sv, one per injection port l: the DMA reader and
 * packetiser. Activated by the issue logic with one message (destination slot, flow, op,
 * step, chunk addr/len), it reads the chunk flit by flit through the memory port (at most
 * SQ flits buffered or in flight) and sends, on VC InjVc and only with a credit, a head
 * then the data flits (message mode: one all-reduce head, sub-tails every SubPktFlits;
 * packet mode or routed slot: a head per PktBytes packet). Credits: one counter per VC,
 * reset to VcDepth, -1 per flit sent, +1 per inj_credit pulse. 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

/* busy_o, req_o (a read to issue: room in the data FIFO) and send_o (a flit out at this edge) */
static inline void mt_ni_pktz_eval(const mt_ni *s, mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  w->tx_busy = s->txact;
  if (!w->running) { /* nothing requested nor sent (the packetisers' state is held) */
    w->sreq = 0;
    w->send = 0;
    return;
  }
  const unsigned sq = p->sq, vc = p->inj_vc;
  uint32_t sreq = 0, send = 0;
  for (uint32_t lm = s->txact; lm; lm &= lm - 1u) {
    const unsigned l = (unsigned)__builtin_ctz(lm);
    const mt_ni_tx *t = &s->tx[l];
    /* & and | of 0/1 values: no branches */
    sreq |= (uint32_t)((t->rdj < t->nfl) & (t->fcnt + t->outst < sq)) << l;
    send |= (uint32_t)((s->cred[l][vc] != 0) & (!t->hd | (t->fcnt != 0))) << l;
  }
  w->sreq = sreq;
  w->send = send;
}

/* the head flit of packetiser t (a function of its own: rare) */
static void send_head(const mt_ni *s, const mt_ni_in *in, mt_ni_tx *t, mt_flit *fl) {
  const mt_ni_params *p = &s->p;
  mt_head_info h;
  memset(&h, 0, sizeof h);
  h.dst = t->dst;
  h.src = in->node_id;
  h.eject = t->ej;
  h.flow = t->flow;
  h.op = t->op;
  h.step = t->step;
  mt_hd_write(fl, p->payload_w, &h, t->pm, t->addr, t->len, t->txj << s->lg_fb, p->pkt_bytes, t->txj + s->pkt_flits >= t->nfl,
              t->nxt);
  t->hd = 1;
}

/* read granted, read data in, flit out, credits, activation by the issue logic, clear */
static inline void mt_ni_pktz_update(mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  /* loaded once: the flit and FIFO writes below may alias s for the compiler */
  const unsigned L = p->nlocal, lanes = s->lanes, sq = p->sq, spf = p->subpkt_flits, pkf = s->pkt_flits, vc = p->inj_vc;
  const uint32_t vcf = (vc & s->vcm) << MT_FT_W, vcclr = ~(s->vcm << MT_FT_W); /* the VC field */
  for (uint32_t lm = w->gnt_tx; lm; lm &= lm - 1u) {
    mt_ni_tx *t = &s->tx[__builtin_ctz(lm)];
    t->rdj++;
    t->outst++;
  }
  /* the ports that can answer a packetiser: port 0 (M = 1), else sender l's port l (mt_ni_init) */
  const uint32_t txpm = s->nmp == 1 ? 1u : (1u << L) - 1u;
  for (uint32_t mm = w->rspm & txpm; mm; mm &= mm - 1u) {
    const unsigned m = (unsigned)__builtin_ctz(mm);
    if (w->rsp_tag[m] >= (int)L) continue;
    mt_ni_tx *t = &s->tx[w->rsp_tag[m]];
    uint32_t *dst = t->fifo[mt_ni_wrap(t->frd + t->fcnt, sq)];
    const uint32_t *src = in->mem_rsp_data[m];
    mt_ni_cpl(dst, src, lanes);
    t->fcnt++;
    t->outst--;
  }
  w->vmask = w->send; /* injection ports valid after the edge */
  /* the flit packetiser l sends at this edge, into its output register, which outputs_clear
   * left as it was (valid last cycle) or all zero: every live word is written, the register
   * cleared before a head (written out here, not as a function: GCC did not inline it) */
  for (uint32_t lm = w->send; lm; lm &= lm - 1u) {
    const unsigned l = (unsigned)__builtin_ctz(lm);
    mt_ni_tx *t = &s->tx[l];
    mt_flit *fl = &s->q.inj_flit[l];
    if (!t->hd) {
      mt_ni_zl(fl->w, lanes); /* lanes + 1 words: those above FlitW are never set */
      fl->w[lanes] = 0;
      send_head(s, in, t, fl);
      /* mt_flit_set_vc with the VC mask of init */
      uint32_t *x = &fl->w[lanes];
      *x = (*x & vcclr) | vcf;
    } else {
      const uint32_t *src = t->fifo[t->frd];
      const int last = t->txj + 1 == t->nfl;
      if (last) /* only the last flit has lanes masked off (mt_ni_lane_mask) */
        for (unsigned k = 0; k < lanes; k++) fl->w[k] = (t->lastmask >> k) & 1u ? src[k] : 0;
      else
        mt_ni_cpl(fl->w, src, lanes);
      unsigned ty;
      const uint32_t pc1 = t->pc + 1;
      if (t->pm) {
        ty = (last || pc1 == pkf) ? MT_FT_TAIL : MT_FT_BODY;
        if (pc1 == pkf) {
          t->pc = 0;
          t->hd = 0;
        } else t->pc = pc1;
      } else {
        ty = last ? MT_FT_AR_TAIL : (pc1 == spf ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
        t->pc = pc1 == spf ? 0 : pc1;
      }
      /* type and VC (mt_flit_set_type, mt_flit_set_vc) at once: the word above the lanes
       * holds nothing else */
      fl->w[lanes] = ty | vcf;
      if (++t->frd == sq) t->frd = 0;
      t->fcnt--;
      t->txj++;
      if (last) {
        t->act = 0;
        s->txact &= (uint8_t) ~(1u << l);
      }
    }
    s->q.inj_valid[l] = 1;
    s->cred[l][vc]--;
  }
  /* credit pulses: bit l * 8 + v of the live (l, v) (inj_credit and cred are [8][8]) */
  for (uint64_t cm = mt_ni_nz64(&in->inj_credit[0][0]) & s->credm; cm; cm &= cm - 1u) (&s->cred[0][0])[__builtin_ctzll(cm)]++;
  if (w->act_l >= 0) {
    const mt_ni_entry *E = w->ea;
    mt_ni_tx *t = &s->tx[w->act_l];
    t->act = 1;
    s->txact |= (uint8_t)(1u << w->act_l);
    t->op = (uint8_t)E->op;
    t->flow = (uint32_t)E->flow;
    t->step = (uint16_t)E->step;
    t->dst = (uint32_t)w->act_node;
    t->nxt = (uint32_t)w->act_port;
    t->ej = (uint32_t)w->act_ej;
    t->pm = (uint8_t)(in->pkt_mode || (uint32_t)w->act_port == (1u << p->port_w) - 1u);
    t->addr = E->addr;
    t->len = E->size;
    t->nfl = (E->size + s->fb - 1u) >> s->lg_fb;
    t->lastmask = mt_ni_last_mask(s, E->size);
    t->rdj = 0;
    t->txj = 0;
    t->pc = 0;
    t->hd = 0;
  }
  if (w->clear) {
    s->txact = 0;
    for (unsigned l = 0; l < L; l++) {
      s->tx[l].act = 0;
      s->tx[l].fcnt = 0;
      s->tx[l].frd = 0;
      s->tx[l].outst = 0;
    }
  }
}
