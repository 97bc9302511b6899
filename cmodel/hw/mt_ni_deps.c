/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_deps.c: twin of rtl/mt_ni_deps.sv, the per-flow dependency state of the issue
 * logic, filled by the start-up scan and advanced by received messages:
 *   rv/ridx   the node's Reduce entry of the flow and its table index; root: it has no Parent
 *   gv/gidx   the first Gather entry of the flow with a Parent (the one that receives)
 *   cnt       children whose Reduce message has been added; rxb: bytes of the current one
 *   grx       the flow's gathered data has arrived; rdone: the root's Reduce entry issued
 *   act, pb, pwm, ppl/pph  reduce_chain only: child positions started, bytes
 *             added per child, its completed prefix of the chunk and ranges beyond it.
 * All of it is cleared by start. 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

/* a chained packet of child position cpos completed: its bytes, its completed prefix */
static void chain_done(mt_ni *s, const mt_ni_rx *r, unsigned fi) {
  const size_t ix = mt_ni_fc(s, fi, r->cpos);
  uint32_t lo = r->addr - r->cbase, hi = lo + r->len;
  uint32_t *pl = s->ppl + (size_t)ix * MT_NI_PEND, *ph = s->pph + (size_t)ix * MT_NI_PEND;
  s->pb[ix] += r->len;
  if (lo == s->pwm[ix]) {
    s->pwm[ix] = hi;
    for (int merged = 1; merged;) {
      merged = 0;
      for (unsigned q = 0; q < MT_NI_PEND; q++)
        if (ph[q] && pl[q] == s->pwm[ix]) {
          s->pwm[ix] = ph[q];
          pl[q] = ph[q] = 0;
          merged = 1;
        }
    }
  } else {
    /* beyond the prefix: kept in a free slot; with none free the range is not recorded
     * and the successor waits for this child to complete (still correct) */
    for (unsigned q = 0; q < MT_NI_PEND; q++)
      if (!ph[q]) {
        pl[q] = lo;
        ph[q] = hi;
        break;
      }
  }
  /* children complete in order */
  while (s->cnt[fi] < (unsigned)s->p.children && s->pb[mt_ni_fc(s, fi, s->cnt[fi])] == r->size) s->cnt[fi]++;
  if (s->act[fi] < s->cnt[fi]) s->act[fi] = s->cnt[fi];
}

static inline void mt_ni_deps_update(mt_ni *s, const mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const size_t F = p->max_flows;
  /* receive engines: a message started (reduce_chain: its child position), or complete */
  for (uint32_t em = w->rx_look_go | w->rx_done; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e]; /* as mt_ni_depktz_update left it */
    const unsigned fi = mt_ni_fi(s, r->flow);
    if (r->stg) continue; /* a unit staged out: the stager's counters (mt_ni_stage.c) */
    if ((w->rx_look_go >> e) & 1u) {
      if (p->reduce_chain && r->op == MT_OP_REDUCE && (r->whole || r->pk))
        if (s->act[fi] < r->cpos + 1) s->act[fi] = (uint8_t)(r->cpos + 1);
    } else if (((w->rx_done >> e) & 1u) && r->pk) {
      chain_done(s, r, fi);
    } else if ((w->rx_done >> e) & 1u) {
      uint32_t nb = s->rxb[fi] + r->len;
      if (nb == r->size) {
        s->rxb[fi] = 0;
        if (r->op == MT_OP_REDUCE) {
          s->cnt[fi]++;
          if (s->pb)
            while (s->cnt[fi] < (unsigned)s->p.children && s->pb[mt_ni_fc(s, fi, s->cnt[fi])] == r->size) s->cnt[fi]++;
          if (s->act[fi] < s->cnt[fi]) s->act[fi] = s->cnt[fi];
        } else s->grx[fi] = 1;
      } else s->rxb[fi] = nb;
    }
  }
  /* scan: the entry's flow records its Reduce entry and its receiving Gather entry */
  if (w->scan_rec) {
    const mt_ni_entry *E = w->ea;
    const unsigned ef = w->ef;
    if (E->op == MT_OP_REDUCE) {
      s->rv[ef] = 1;
      s->ridx[ef] = s->hp;
      s->root[ef] = (uint8_t)!E->pv;
    }
    if (E->op == MT_OP_GATHER && E->pv && !s->gv[ef]) {
      s->gv[ef] = 1;
      s->gidx[ef] = s->hp;
    }
  }
  if (w->rdone) s->rdone[w->ef] = 1;
  if (w->clear) {
    memset(s->rv, 0, F);
    memset(s->gv, 0, F);
    memset(s->root, 0, F);
    memset(s->grx, 0, F);
    memset(s->rdone, 0, F);
    memset(s->cnt, 0, F);
    memset(s->act, 0, F);
    if (s->pb) {
      const size_t FC = F * (size_t)s->p.children;
      memset(s->pb, 0, FC * 4);
      memset(s->pwm, 0, FC * 4);
      memset(s->ppl, 0, FC * MT_NI_PEND * 4);
      memset(s->pph, 0, FC * MT_NI_PEND * 4);
    }
    memset(s->ridx, 0, F * 4);
    memset(s->gidx, 0, F * 4);
    memset(s->rxb, 0, F * 4);
  }
}
