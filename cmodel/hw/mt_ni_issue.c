/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_issue.c: twin of rtl/mt_ni_issue.sv, the NI's control (Fig. 6): start, start-up
 * scan of the table, issue of the head entry, END, errors and the watchdog (the timestep
 * and lockstep counters are in mt_ni_lockstep.c, the per-flow state in mt_ni_deps.c).
 *  SCAN  one entry per cycle from index 0: checks it (codes in docs/reference/ni.md) and records it
 *        in deps; END -> RUN with timestep 1, head index 0.
 *  RUN   head entry E (table port A). Nothing while the lockstep counter runs; END -> FIN;
 *        an entry of a later step advances the timestep once every packetiser is idle;
 *        an entry of this step issues when its dependencies are met (NOP: loads the
 *        lockstep counter; Reduce: its children are added, sends to the Parent; Gather:
 *        the data is here, sends to one child per cycle); an earlier step is an error.
 *  FIN   -> DONE once packetisers, engines and memory are idle and every gather arrived. 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include "hw/mt_ni_blocks.h"

/* the packetiser of the slot to send to: port p -> packetiser p mod L, so that a source's
 * units to a neighbour leave through one router input FIFO, in order (docs/reference/ni.md
 * "Packetiser per port"); a routed slot takes the lowest idle one */
static int own_pktz(const mt_ni *s, const mt_ni_wires *w, uint32_t port) {
  const unsigned L = s->p.nlocal;
  const uint32_t idle = ~w->tx_busy & ((1u << L) - 1u);
  if (port == (1u << s->p.port_w) - 1u) return idle ? __builtin_ctz(idle) : -1;
  return (idle >> (port % L)) & 1u ? (int)(port % L) : -1;
}

/* RUN: issue / advance / END; SCAN: the entry's checks; FIN: drained; errors, watchdog,
 * start, next head index */
static inline void mt_ni_issue_eval(const mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const unsigned L = p->nlocal, F = p->max_flows;
  const uint32_t all1_port = (1u << p->port_w) - 1u;
  const mt_ni_entry *E = w->ea;
  const unsigned ef = w->ef;
  const int sidle = w->tx_busy == 0; /* every packetiser idle */
  w->issue = 0;
  w->advance = 0;
  w->to_fin = 0;
  w->act_l = -1;
  int act_k = -2; /* slot of the activated packetiser: -1 parent, else child */
  if (s->st == MT_NI_ST_RUN && s->lock == 0) {
    if (E->op == MT_OP_END) w->to_fin = 1;
    else if ((unsigned)E->step > s->ts) w->advance = sidle;
    else if ((unsigned)E->step == s->ts) {
      if (E->op == MT_OP_NOP) w->issue = 1;
      else if (E->op == MT_OP_REDUCE) {
        if (s->cnt[ef] == (unsigned)E->nchild) {
          const int own = own_pktz(s, w, (uint32_t)E->pport);
          if (!E->pv) w->issue = 1;
          else if (own >= 0) {
            w->issue = 1;
            w->act_l = own;
            act_k = -1;
          }
        }
      } else { /* Gather */
        const int own = own_pktz(s, w, (uint32_t)E->cport[s->ci < MT_NI_MAX_C ? s->ci : 0]);
        const int dep = E->pv ? s->grx[ef] : s->rdone[ef];
        if (dep && own >= 0) {
          w->issue = 1;
          w->act_l = own;
          act_k = (int)s->ci;
        }
      }
    } else mt_ni_set_err(w, MT_NI_E_STEP);
  }
  if (w->act_l >= 0) {
    if (act_k < 0) {
      w->act_node = E->pnode;
      w->act_port = E->pport;
      w->act_ej = E->pej;
    } else {
      w->act_node = E->cnode[act_k];
      w->act_port = E->cport[act_k];
      w->act_ej = E->cej[act_k];
    }
  }
  w->rdone = w->issue && E->op == MT_OP_REDUCE && !E->pv;
  w->lock_load = w->issue && E->op == MT_OP_NOP;
  if (w->lock_load) w->lock_val = ((E->size + s->fb - 1u) >> s->lg_fb) + (p->perturb == 1 ? 1u : 0u);
  w->scan_end = 0;
  if (s->st == MT_NI_ST_SCAN) {
    int scan_code = 0;
    w->progress = 1;
    if (E->op == MT_OP_END) w->scan_end = 1;
    else {
      int bad_port = 0;
      for (int k = -1; k < p->children; k++) {
        int v = k < 0 ? E->pv : E->cv[k], port = k < 0 ? E->pport : E->cport[k], ej = k < 0 ? E->pej : E->cej[k];
        if (!v) continue;
        if ((uint32_t)port == all1_port ? p->compact : (unsigned)port >= p->net_ports) bad_port = 1;
        if ((unsigned)ej >= L) bad_port = 1;
      }
      if (E->step == 0 || (unsigned)E->step < s->prev_step) scan_code = MT_NI_E_STEP;
      else if (E->op == MT_OP_NOP) scan_code = 0;
      else if ((unsigned)E->flow >= in->nflows || (unsigned)E->flow >= F) scan_code = MT_NI_E_FLOW;
      else if (bad_port) scan_code = MT_NI_E_PORT;
      else if (E->gap || (E->op == MT_OP_GATHER && E->nchild == 0) ||
               (E->op == MT_OP_REDUCE && !E->pv && E->nchild == 0) ||
               (E->op == MT_OP_REDUCE && s->rv[ef]) || E->size == 0 || (E->size & 3u) || (E->addr & 3u))
        scan_code = MT_NI_E_ENTRY;
      if (!scan_code && s->hp + 1 >= p->tbl_depth) scan_code = MT_NI_E_NOEND;
      if (scan_code) mt_ni_set_err(w, scan_code);
    }
  }
  w->fin_ok = 0;
  if (s->st == MT_NI_ST_FIN) {
    const int ridle = (s->rxld | s->rxlk | s->rxbz) == 0; /* every engine IDLE */
    w->fin_ok = sidle && ridle && w->mem_quiet && (!p->stage_after || (s->sgst == 0 && s->nsg == 0));
    /* and every flow rooted here or gathered (looked at only when the rest holds) */
    const unsigned nf = in->nflows < F ? in->nflows : F;
    for (unsigned f = 0; f < nf && w->fin_ok; f++)
      if (!s->root[f] && !s->grx[f]) w->fin_ok = 0;
  }
  /* the last eval phase: the other error inputs (ovf_i), progress and watchdog; then, with
   * every error of the cycle known, start accepted (clear), what the scan does, the next
   * head index (hp_d_o) */
  if (w->ej_full) mt_ni_set_err(w, MT_NI_E_EJ_OVF);
  if (w->gntm || w->issue || w->advance || s->lock != 0) w->progress = 1;
  if (w->rx_look_go || w->rx_done || w->send) w->progress = 1; /* an engine finished or looked up, a flit was sent */
  w->wd_d = 0;                                                 /* progress or not busy: the counter clears (and cannot reach a limit > 0) */
  if (!w->progress && w->busy) {
    const uint32_t wmax = p->wd_w >= 32 ? 0xffffffffu : (1u << p->wd_w) - 1u;
    w->wd_d = s->wd == wmax ? wmax : s->wd + 1;
    const uint32_t wlim = in->wd_limit & wmax;
    if (wlim != 0 && w->wd_d >= wlim) mt_ni_set_err(w, MT_NI_E_WATCHDOG);
  }
  /* start: accepted when not busy, the memory ports quiet and no table write this cycle */
  w->clear = in->start && !w->busy && !w->ecode && w->mem_quiet && !in->tbl_we;
  const int scan_ok = s->st == MT_NI_ST_SCAN && !w->ecode;
  w->scan_done = scan_ok && w->scan_end;
  w->scan_rec = scan_ok && !w->scan_end;
  uint32_t hp_d = s->hp;
  if (w->scan_done) hp_d = 0;
  else if (w->scan_rec) hp_d = s->hp + 1;
  if (w->issue && (w->ea->op == MT_OP_NOP || w->ea->op == MT_OP_REDUCE || s->ci + 1 >= (unsigned)w->ea->nchild))
    hp_d = s->hp + 1;
  w->hp_d = w->clear ? 0 : hp_d;
}

/* control state, child index, error, done, watchdog, head index */
static inline void mt_ni_issue_update(mt_ni *s, const mt_ni_wires *w) {
  const mt_ni_entry *E = w->ea;
  if (w->scan_done) {
    s->st = MT_NI_ST_RUN;
    s->ci = 0;
  }
  if (w->scan_rec) s->prev_step = (uint16_t)E->step;
  if (w->to_fin) s->st = MT_NI_ST_FIN;
  if (w->issue && E->op != MT_OP_NOP && E->op != MT_OP_REDUCE) { /* Gather: one child per issue */
    if (s->ci + 1 >= (unsigned)E->nchild) s->ci = 0;
    else s->ci++;
  }
  if (w->st == MT_NI_ST_FIN && w->fin_ok) {
    s->st = MT_NI_ST_DONE;
    s->done = 1;
  }
  s->wd = w->wd_d;
  if (w->ecode && s->st != MT_NI_ST_ERR) {
    s->st = MT_NI_ST_ERR;
    s->err_code = w->ecode;
    s->err_idx = s->hp;
  }
  if (w->clear) {
    s->st = MT_NI_ST_SCAN;
    s->ci = 0;
    s->prev_step = 0;
    s->err_code = 0;
    s->err_idx = 0;
    s->done = 0;
    s->wd = 0;
  }
  s->hp = w->hp_d;
}
