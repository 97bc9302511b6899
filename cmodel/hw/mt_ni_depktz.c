/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_depktz.c: twin of rtl/mt_ni_depktz.sv, the receive engines (depacketiser and
 * reduction), rx_engines of them (the RTL: RxEngines instances). One message (or packet) at a time:
 *  IDLE  picks the first non-empty stream of its list from rr (round robin); its front must
 *        be a head (else RX_FRAME) -> LOAD (the RTL reads the flow's entry indices from RAM).
 *  LOAD  reads the flow's table entry on port B -> LOOK.
 *  LOOK  checks the message against the entry (RX_FLOW, RX_SRC, RX_RANGE); a Reduce
 *        message waits for its child's turn, a Gather one for the previous to be consumed
 *        (-> IDLE, stream not popped); else pops the head -> BUSY.
 *  BUSY  Reduce: reads the running sum for every flit (inq), adds it (mt_ni_reduce.c),
 *        writes the result (wq); Gather: writes every flit; -> IDLE when every write is
 *        issued (and, on its own write port, accepted). The flow's counters are in
 *        mt_ni_deps.c. reduce_chain (RTL: ReduceChain) lets a child's message start before its
 *        predecessor's has been added (docs/reference/ni.md "Chained reduction"). 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

/* ejection ports p and q are served by a common engine iff their groups are equal: with
 * E < L engine e serves ports e, e + E, ... (group p mod E); with E >= L every port has
 * engines of its own (group p) */
static inline unsigned mt_ni_port_group(const mt_ni *s, unsigned port) { return s->ne < s->p.nlocal ? port % s->ne : port; }

/* LOOK of engine e: the message (head in r) against its table entry B */
static void look_up(const mt_ni *s, const mt_ni_in *in, unsigned e, mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const unsigned F = p->max_flows, NE = s->ne;
  const uint32_t all1_port = (1u << p->port_w) - 1u;
  const mt_ni_rx *r = &s->rx[e];
  const mt_ni_entry *B = w->eb[e];
  int look_code = 0, wait = 0, hold = 0, kk = -1;
  unsigned f = r->flow, fi = mt_ni_fi(s, f);
  uint32_t ea = B->addr, es = B->size;
  if ((r->op != MT_OP_REDUCE && r->op != MT_OP_GATHER) || f >= in->nflows || f >= F || !s->rv[fi] ||
      (r->op == MT_OP_GATHER && s->root[fi])) look_code = MT_NI_E_RX_FLOW;
  else if (r->op == MT_OP_REDUCE) {
    int k = -1;
    for (int c = 0; c < B->nchild; c++)
      if ((uint32_t)B->cnode[c] == r->src) {
        k = c;
        break;
      }
    kk = k;
    if (k < 0) look_code = MT_NI_E_RX_SRC;
    else if (p->reduce_chain && NE > 1 && !(r->addr == ea && r->len == es)) {
      /* packet unit: child cnt's at once; child k > cnt once k-1 started, if no child in
       * between arrives through an ejection port that one of k's engines serves (none
       * routed): a waiting packet must never hold the engine its predecessors need. With
       * E < L an engine serves ports e, e + E, ...: compare port mod E, not the port (with
       * the ports compared, two children on ports 0 and 2 of one engine deadlock it, as
       * scripts/ni_mem_sweep.sh found) */
      const uint32_t c0 = s->cnt[fi];
      int ok = (uint32_t)k >= c0 && (uint32_t)k <= s->act[fi];
      for (uint32_t j = c0; ok && j < (uint32_t)k; j++)
        if (mt_ni_port_group(s, B->cej[j]) == mt_ni_port_group(s, B->cej[k]) || (uint32_t)B->cport[j] == all1_port ||
            (uint32_t)B->cport[k] == all1_port) ok = 0;
      /* stager: never chained behind a child with staged units (its data come back through
       * the one replay stream only when due: a packet waiting for them in BUSY could hold
       * the engines the replay needs; make soak seed 1 run 848 with ni_stage_after=1) */
      for (uint32_t j = c0; ok && s->sgnz && j < (uint32_t)k; j++)
        if (s->sgnz[mt_ni_fc(s, fi, j)]) ok = 0;
      /* with E < L engines are shared by ports, and an admitted packet that waited for its
       * predecessor's data could hold the engine another flow's predecessor needs (two
       * engines, two flows, each waiting on the other: ni_mem_sweep): admit it only once
       * child k-1's completed prefix covers it, so that it never waits in BUSY; the engine
       * stays in LOOK until its working register holds k-1's row (mt_ni_chain.c) */
      if (ok && NE < p->nlocal && (uint32_t)k > c0) {
        if (!mt_ni_chain_hit(s, e, fi, (unsigned)k - 1)) {
          hold = 1;
          w->rx_pwix[e] = mt_ni_crow(s, fi, (unsigned)k - 1);
        } else if (s->cwpwm[e] < r->addr - ea + r->len) ok = 0;
      }
      if (ok) w->rx_chain_k[e] = k;
      else wait = 1;
    } else if ((uint32_t)k == s->cnt[fi] && s->act[fi] <= s->cnt[fi]) w->rx_chain_k[e] = k; /* its turn */
    else if (p->reduce_chain && NE > 1 && (uint32_t)k == s->act[fi] && (uint32_t)k > s->cnt[fi] &&
             r->addr == ea && r->len == es) {
      /* chained behind child k-1, whose whole message another engine is adding now */
      for (unsigned e2 = 0; e2 < NE; e2++) {
        const mt_ni_rx *q = &s->rx[e2];
        if (e2 != e && q->st == 2 && q->op == MT_OP_REDUCE && q->whole && q->flow == f && q->cpos + 1 == (uint32_t)k) {
          w->rx_chain_pe[e] = (int)e2;
          break;
        }
      }
      if (w->rx_chain_pe[e] >= 0) w->rx_chain_k[e] = k;
      else wait = 1;
    } else wait = 1;
  } else {
    if (s->gv[fi] && (uint32_t)B->pnode != r->src) look_code = MT_NI_E_RX_SRC;
    else if (s->grx[fi]) wait = 1;
  }
  if (!look_code && (r->len == 0 || (r->len & 3u) || r->addr < ea || (uint64_t)r->addr + r->len > (uint64_t)ea + es)) look_code = MT_NI_E_RX_RANGE;
  /* stager: a replayed unit only when strictly due (child cnt, never chained ahead): it
   * must never wait in BUSY, the one replay stream would be held */
  if (!look_code && !wait && r->s == s->nstreams && kk != (int)s->cnt[fi]) {
    wait = 1;
    w->rx_chain_k[e] = -1;
    w->rx_chain_pe[e] = -1;
  }
  /* stager: a reduce unit of a child that has not started, next in its arrival order from
   * the chunk's start, is staged out instead of waiting (mt_ni_stage.c); never a replay */
  if (!look_code && wait && s->sgon && !w->sg_claim && r->op == MT_OP_REDUCE && kk > (int)s->cnt[fi] &&
      kk >= (int)s->act[fi] && r->s != s->nstreams && mt_ni_stage_fits(s, mt_ni_fc(s, fi, (unsigned)kk))) {
    wait = 0;
    w->sg_claim = 1;
    w->rx_look_stg |= 1u << e;
    w->rx_chain_k[e] = kk;
  }
  /* test only (perturb 2): a broken stager that replays a staged unit before it is due */
  if (!look_code && wait && p->perturb == 2 && r->s == s->nstreams && kk >= 0) {
    wait = 0;
    w->rx_chain_k[e] = kk;
  }
  if (look_code) mt_ni_set_err(w, look_code);
  else if (wait) w->rx_look_wait |= 1u << e;
  else if (hold) w->rx_pwreq |= 1u << e; /* stays in LOOK */
  else w->rx_look_go |= 1u << e;
}

static inline void mt_ni_depktz_eval(const mt_ni *s, const mt_ni_in *in, mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const unsigned NE = s->ne;
  /* BUSY: the stream's front flit, its check, the read / write requests (engines in BUSY
   * only: the others request nothing and their front is never read) */
  w->rx_busy = 0;
  w->rx_wr = 0;
  w->rx_rd = 0;
  w->rx_pwreq = 0;
  for (uint32_t em = s->rxbz; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e];
    const unsigned rs = r->s;
    const int fv = s->ej_cnt[rs] != 0;
    const mt_flit *fr = fv ? &s->ej[(size_t)rs * p->ej_depth + s->ej_rd[rs]] : NULL;
    w->front[e] = fr;
    if (!w->running) continue;
    int front_bad = 0;
    if (fv && r->popj < r->nfl) {
      unsigned t = mt_flit_type(fr, p->payload_w);
      front_bad = mt_ft_is_head(t) || (unsigned)mt_ft_is_normal(t) != r->normal ||
        mt_ft_is_tail(t) != (r->popj + 1 == r->nfl);
    }
    const int pop_ok = fv && r->popj < r->nfl && !front_bad;
    int rd = r->op == MT_OP_REDUCE && pop_ok && r->infl < p->rq;
    w->rx_busy |= 1u << e;
    w->rx_wr |= (uint32_t)(r->op == MT_OP_REDUCE ? r->wq_cnt != 0 : pop_ok) << e;
    /* chained: flit popj of child k is read only after child k-1 wrote it (or finished) */
    if (rd && r->chn && r->cpos != s->cnt[mt_ni_fi(s, r->flow)] && s->rx[r->pe].wa <= r->popj) rd = 0;
    /* chained packet: flit at chunk offset off waits for child k-1's completed prefix (the
     * engine's working register, loaded first) */
    if (r->pk) {
      const unsigned fi = mt_ni_fi(s, r->flow);
      if (r->cpos > s->cnt[fi]) {
        const int hit = mt_ni_chain_hit(s, e, fi, r->cpos - 1);
        if (!hit) {
          w->rx_pwreq |= 1u << e;
          w->rx_pwix[e] = mt_ni_crow(s, fi, r->cpos - 1);
        }
        if (!hit || s->cwpwm[e] <= r->addr - r->cbase + (r->popj << s->lg_fb)) rd = 0;
      }
    }
    w->rx_rd |= (uint32_t)rd << e;
    if (fv && r->popj < r->nfl && front_bad) mt_ni_set_err(w, MT_NI_E_RX_FRAME);
  }
  /* IDLE: pick a stream (round robin); its front must be a head; the head's flow names
   * the entry to read on port B */
  int ravail_taken = 0;
  w->rx_pickm = 0;
  memset(w->ej_pop, 0xff, sizeof w->ej_pop); /* MT_NI_NO_POP */
  uint32_t idle = w->running ? ~(uint32_t)(s->rxld | s->rxlk | s->rxbz) & ((1u << NE) - 1u) : 0u;
  if (idle && !w->sg_ravail) { /* only engines with a non-empty stream can pick */
    uint32_t want = 0;
    for (uint64_t sm = s->ejnz; sm; sm &= sm - 1u) want |= s->seng[__builtin_ctzll(sm)];
    idle &= want;
  }
  for (uint32_t em = idle; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e];
    /* the stager's replay stream R is the last of every engine's list (the lowest engine
     * that reaches it takes it) */
    const int rv = w->sg_ravail && !ravail_taken;
    if (!((s->ejnz & s->engm[e]) || rv)) continue;
    const unsigned ses = s->ses, n = ses + (p->stage_after ? 1u : 0u);
    unsigned i = r->rr < n ? r->rr : r->rr % n;
    int pick = -1;
    for (unsigned k = 0; k < n; k++) {
      const unsigned g = i < ses ? s->estr[e][i] : s->nstreams;
      if (i < ses ? s->ej_cnt[g] != 0 : rv) {
        pick = (int)g;
        w->rx_pick_l[e] = (int)i;
        break;
      }
      if (++i == n) i = 0;
    }
    if (pick < 0) continue;
    if ((unsigned)pick == s->nstreams) ravail_taken = 1;
    const mt_flit *f = &s->ej[(size_t)pick * p->ej_depth + s->ej_rd[pick]];
    if (!mt_ft_is_head(mt_flit_type(f, p->payload_w))) {
      mt_ni_set_err(w, MT_NI_E_RX_FRAME);
      continue;
    }
    w->rx_pick[e] = pick;
    w->rx_pickm |= 1u << e;
    mt_head_info *h = &w->rx_hd[e];
    mt_hd_unpack(f, h);
  }
  /* LOAD: the flow's entry indices (RAM, read at the pick's edge) name the entry to read on
   * port B */
  w->rx_ldm = w->running ? s->rxld : 0u;
  for (uint32_t em = w->rx_ldm; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e];
    const unsigned fi = mt_ni_fi(s, r->flow);
    w->rb_d[e] = (r->op == MT_OP_GATHER && s->gv[fi]) ? s->gidx[fi] : s->ridx[fi];
  }
  /* LOOK */
  w->rx_look_go = 0;
  w->rx_look_wait = 0;
  w->rx_look_stg = 0;
  w->sg_claim = 0;
  w->rx_done = 0;
  for (uint32_t em = w->running ? s->rxlk : 0u; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    w->rx_chain_k[e] = -1;
    w->rx_chain_pe[e] = -1;
    look_up(s, in, e, w);
    if ((w->rx_look_go >> e) & 1u) w->ej_pop[e] = s->rx[e].s; /* the head */
  }
  /* BUSY -> IDLE: done when every write is issued; with its own write port, also accepted
   * by the memory (nothing held), so a later reader on another port sees the data. A done
   * that counts bytes (not a chained packet, not staged) needs the deps write port: one per
   * edge, round robin from drr (mt_ni_deps.c); the others stay in BUSY */
  uint32_t dreq = 0;
  for (uint32_t em = w->rx_busy; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e];
    if (r->wj != r->nfl) continue;
    unsigned wp = s->wport[e];
    const int want = (s->nmp == 1 || !s->rq_v[wp] || in->mem_req_ready[wp]) &&
      (!r->chn || r->cpos == s->cnt[mt_ni_fi(s, r->flow)]) && (!r->pk || mt_ni_chain_room(s));
    if (want && !r->pk && !r->stg) dreq |= 1u << e;
    else w->rx_done |= (uint32_t)want << e;
  }
  if (dreq) { /* the grant (rtl/mt_ni_deps.sv) */
    const uint32_t hi = dreq & ~((1u << s->drr) - 1u);
    w->rx_done |= 1u << __builtin_ctz(hi ? hi : dreq);
  }
}

/* grants (read: the flit into inq; write: wq popped or the gathered flit popped), writes
 * accepted, then the state machine */
static inline void mt_ni_depktz_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const unsigned NE = s->ne, lanes = s->lanes, rq = p->rq; /* rq in a local: the flit copies could alias it */
  /* wa counts this message's writes accepted. With one memory port an engine finishes when
   * its last write is granted (not yet accepted): the shared request register may still hold
   * it while the engine starts its next message. Its writes are accepted in order and at
   * most one is held, so a write accepted while wa == wj (every write of this message
   * granted so far is counted) is the previous message's: not counted, else a chained
   * successor would read the running sum one flit before it is written. */
  for (uint32_t em = w->wacc; em; em &= em - 1u) {
    mt_ni_rx *r = &s->rx[__builtin_ctz(em)];
    if (r->wa < r->wj) r->wa++;
  }
  for (uint32_t em = w->gnt_rd; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    unsigned wi = mt_ni_wrap(r->inq_rd + r->inq_cnt, rq);
    mt_ni_cpl(r->inq[wi], w->front[e]->w, lanes);
    r->inq_cnt++;
    r->popj++;
    r->infl++;
  }
  for (uint32_t em = w->gnt_wr; em; em &= em - 1u) {
    mt_ni_rx *r = &s->rx[__builtin_ctz(em)];
    if (r->op == MT_OP_REDUCE) {
      if (++r->wq_rd == rq) r->wq_rd = 0;
      r->wq_cnt--;
      r->infl--;
    } else r->popj++;
    r->wj++;
  }
  /* the state machine: IDLE engines that picked, LOOK engines (while running), BUSY engines
   * done; rxlk / rxbz follow rx[e].st */
  const uint32_t nrr = s->ses + (p->stage_after ? 1u : 0u); /* streams in an engine's list */
  for (uint32_t em = w->rx_pickm; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    const mt_head_info *h = &w->rx_hd[e];
    const mt_flit *f = &s->ej[(size_t)w->rx_pick[e] * p->ej_depth + s->ej_rd[w->rx_pick[e]]];
    r->st = 3;
    s->rxld |= (uint8_t)(1u << e);
    r->s = (uint32_t)w->rx_pick[e];
    r->sl = (uint32_t)w->rx_pick_l[e];
    r->op = (uint8_t)h->op;
    r->flow = h->flow;
    r->src = h->src;
    r->addr = h->addr;
    r->len = h->len;
    r->normal = (uint8_t)mt_ft_is_normal(mt_flit_type(f, p->payload_w));
  }
  for (uint32_t em = w->running ? s->rxlk : 0u; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    const mt_ni_entry *B = w->eb[e];
    if ((w->rx_look_go >> e) & 1u) {
      r->st = 2;
      s->rxlk &= (uint8_t) ~(1u << e);
      s->rxbz |= (uint8_t)(1u << e);
      r->size = B->size;
      r->nfl = (r->len + s->fb - 1u) >> s->lg_fb;
      r->lastmask = mt_ni_last_mask(s, r->len);
      r->popj = 0;
      r->wj = 0;
      r->infl = 0;
      r->wa = 0;
      r->chn = w->rx_chain_pe[e] >= 0;
      r->pe = w->rx_chain_pe[e] >= 0 ? (uint32_t)w->rx_chain_pe[e] : 0;
      r->cpos = w->rx_chain_k[e] >= 0 ? (uint32_t)w->rx_chain_k[e] : 0;
      r->stg = (uint8_t)((w->rx_look_stg >> e) & 1u);
      r->woff = 0;
      if (r->stg) { /* staged out: written as a gather is, at the child slot's place */
        r->op = MT_OP_GATHER;
        r->woff = in->stage_base + r->cpos * in->stage_slot;
      }
      r->whole = (uint8_t)(r->addr == B->addr && r->len == B->size);
      r->pk = (uint8_t)(p->reduce_chain && NE > 1 && r->op == MT_OP_REDUCE && !r->whole);
      r->cbase = B->addr;
    } else if ((w->rx_look_wait >> e) & 1u) {
      r->st = 0;
      s->rxlk &= (uint8_t) ~(1u << e);
      r->rr = r->sl + 1 == nrr ? 0 : r->sl + 1;
    }
  }
  for (uint32_t em = w->rx_ldm; em; em &= em - 1u) { /* LOAD -> LOOK */
    const unsigned e = (unsigned)__builtin_ctz(em);
    s->rx[e].st = 1;
    s->rxld &= (uint8_t) ~(1u << e);
    s->rxlk |= (uint8_t)(1u << e);
    s->rb[e] = w->rb_d[e];
  }
  for (uint32_t em = w->rx_done; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    r->st = 0;
    s->rxbz &= (uint8_t) ~(1u << e);
    r->rr = r->sl + 1 == nrr ? 0 : r->sl + 1;
  }
  if (w->clear) {
    for (unsigned e = 0; e < NE; e++) {
      mt_ni_rx *r = &s->rx[e];
      r->st = 0;
      r->inq_cnt = 0;
      r->inq_rd = 0;
      r->wq_cnt = 0;
      r->wq_rd = 0;
    }
    s->rxld = 0;
    s->rxlk = 0;
    s->rxbz = 0;
  }
}
