/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_deps.c: twin of rtl/mt_ni_deps.sv, the per-flow dependency state of the issue
 * logic, filled by the start-up scan and advanced by received messages:
 *   rv/ridx   the node's Reduce entry of the flow and its table index; root: it has no Parent
 *   gv/gidx   the first Gather entry of the flow with a Parent (the one that receives)
 *   cnt       children whose Reduce message has been added; rxb: bytes of the current one
 *   grx       the flow's gathered data has arrived; rdone: the root's Reduce entry issued
 *   act       reduce_chain only: child positions started; with two or more engines the
 *             rows per (flow, child position) are the chain unit's (mt_ni_chain.c)
 * All of it is cleared by start. rxb is in RAM in the RTL (one copy per engine, one write
 * port; docs/reference/ni.md "State in RAM"): at most one done per edge moves it (the done
 * grant, round robin from drr, in mt_ni_depktz_eval), so an array here is cycle-exact. So are
 * ridx and gidx, in RAM in the RTL (a copy per engine, written by the scan only): an engine
 * reads them in LOAD, the cycle after its pick, when the RAM read at the pick's edge returns.
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

static inline void mt_ni_deps_update(mt_ni *s, const mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const size_t F = p->max_flows;
  if (s->crow) mt_ni_chain_update(s, w); /* the chain unit's write first: cnt of its flow */
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
      continue; /* a chained packet: to the chain unit (mt_ni_chain_update) */
    } else if ((w->rx_done >> e) & 1u) {
      /* the deps write port's one done of this edge */
      s->drr = e + 1 == s->ne ? 0 : e + 1;
      uint32_t nb = s->rxb[fi] + r->len;
      if (nb == r->size) {
        s->rxb[fi] = 0;
        if (r->op == MT_OP_REDUCE) {
          s->cnt[fi]++;
          if (s->crow) mt_ni_chain_advance(s, fi);
          else if (s->act[fi] < s->cnt[fi]) s->act[fi] = s->cnt[fi];
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
    if (s->crow) mt_ni_chain_clear(s);
    memset(s->ridx, 0, F * 4);
    memset(s->gidx, 0, F * 4);
    memset(s->rxb, 0, F * 4);
    s->drr = 0;
  }
}
