/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_stage.c: the stager (p.stage_after = T > 0; RTL twin rtl/mt_ni_stage.sv, docs/reference/ni.md "Staging
 * not-due units"). A routed deadlock needs a unit that reached its NI and can never leave
 * it: not due, it holds its ejection VC and the network VCs behind it. The stager lets the
 * NI always sink such units:
 *  stage out  after T cycles without progress (the watchdog's stall counter) with a not-due
 *             head, the engines' LOOK stages not-due reduce units (look_up in mt_ni_depktz.c):
 *             the engine pops the unit and writes it, as it writes a gather, to
 *             stage_base + k * stage_slot + its address (k its child slot), until a due unit
 *             (then on until the next start). Only a child that has not started (k > cnt, k >= act), in per (flow, slot) a claimed and a written
 *             byte count (sgc, sgb) and the head (src, chunk address) are enough.
 *  replay     one (flow, slot) per cycle is looked at (sgp); one whose staged prefix is all
 *             written offers its first range as a message head (op Reduce, its src, the range) on the replay stream R, the last in every engine's list. An
 *             engine's LOOK treats it as any head: not due -> the stager takes it back and
 *             moves on; due -> the stager reads the prefix back through its memory port into
 *             R, flit by flit (room reserved before each read), and the engine adds it as if
 *             it came from the network (the same order of additions, the same fp32 bits).
 * The stager is a requester of memory port 0 (M = 1) or of port L (engine 0's read port,
 * M > 1), agent L + E, reads only. Its per (flow, slot) table is MaxFlows x Children.
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"

/* the replay stream's index (an ejection FIFO slot after the real streams, no credits) */
static inline unsigned mt_ni_stage_r(const mt_ni *s) { return s->nstreams; }

/* an engine is on the replay stream (LOOK or BUSY) */
static inline int stage_r_held(const mt_ni *s) {
  for (unsigned e = 0; e < s->ne; e++)
    if (s->rx[e].st != 0 && s->rx[e].s == mt_ni_stage_r(s)) return 1;
  return 0;
}

/* replay head offered and free to pick; read request of the next staged flit (room in R for
 * every read in flight) */
static inline void mt_ni_stage_eval(const mt_ni *s, mt_ni_wires *w) {
  w->sg_ravail = 0;
  w->sg_rq = 0;
  w->sg_gnt = 0;
  w->sg_rsp = 0;
  if (!s->p.stage_after || !w->running) return;
  const unsigned R = mt_ni_stage_r(s);
  w->sg_ravail = s->sgst == 1 && s->ej_cnt[R] && !stage_r_held(s);
  w->sg_rq = s->sgst == 2 && s->sgj < s->sgn && s->sgo + s->ej_cnt[R] < s->p.ej_depth;
}

/* The staged ranges: one pool of p.stage_ranges for the NI, each (flow, slot)'s in a list in
 * address order. Not a fixed few per (flow, slot) offered in slot order: units of one child
 * arriving out of address order through different VCs fragment them, every gap a range, and
 * DBTree with packets on fattree:4,2 stops on the watchdog with all of one (flow, slot) in
 * use (docs/reference/switch.md "Packet-mode DBTree"). */
static inline void mt_ni_stage_reset(mt_ni *s) {
  const size_t FC = (size_t)s->p.max_flows * (size_t)s->p.children;
  memset(s->sghd, 0xFF, FC * 4);
  for (uint32_t q = 0; q < s->p.stage_ranges; q++) s->sgnx[q] = q + 1 < s->p.stage_ranges ? q + 1 : MT_NI_SG_NONE;
  s->sgfree = 0;
  s->sgused = 0;
}

/* unit [a, a + len) of (flow, slot) x can be staged: it extends one of x's ranges or a range
 * is free */
static inline int mt_ni_stage_fits(const mt_ni *s, size_t x, uint32_t a, uint32_t len) {
  /* not while one of its ranges is offered: the offered head's length must stay the range's
   * (a unit merged into it then makes the replay stream more flits than its head announced,
   * error 9; make soak seed 2 runs 419, 439 with ni_stage_after=1) */
  if (s->sgst == 1 && s->sgx == x) return 0;
  if (s->sgfree != MT_NI_SG_NONE) return 1;
  for (uint32_t q = s->sghd[x]; q != MT_NI_SG_NONE && s->sglo[q] <= a + len; q = s->sgnx[q])
    if (s->sghi[q] == a || s->sglo[q] == a + len) return 1;
  return 0;
}

/* record unit [a, a + len) of (flow, slot) x: merged with the ranges it touches (either
 * side), or a new range in address order (mt_ni_stage_fits said one is free) */
static inline void stage_claim(mt_ni *s, size_t x, uint32_t a, uint32_t len) {
  uint32_t prev = MT_NI_SG_NONE, q = s->sghd[x];
  while (q != MT_NI_SG_NONE && s->sglo[q] < a) {
    prev = q;
    q = s->sgnx[q];
  }
  if (prev != MT_NI_SG_NONE && s->sghi[prev] == a) {
    s->sghi[prev] = a + len;
    if (q != MT_NI_SG_NONE && s->sglo[q] == a + len) { /* it closes the gap to the next one */
      s->sghi[prev] = s->sghi[q];
      s->sgnx[prev] = s->sgnx[q];
      s->sgnx[q] = s->sgfree;
      s->sgfree = q;
      s->sgused--;
    }
  } else if (q != MT_NI_SG_NONE && s->sglo[q] == a + len)
    s->sglo[q] = a;
  else {
    const uint32_t n = s->sgfree;
    s->sgfree = s->sgnx[n];
    s->sglo[n] = a;
    s->sghi[n] = a + len;
    s->sgnx[n] = q;
    if (prev == MT_NI_SG_NONE) s->sghd[x] = n;
    else s->sgnx[prev] = n;
    if (++s->sgused > s->sgpeak) s->sgpeak = s->sgused;
  }
}

/* push flit f into the replay stream R */
static inline void stage_push(mt_ni *s, const mt_flit *f) {
  const unsigned R = mt_ni_stage_r(s);
  s->ej[(size_t)R * s->p.ej_depth + mt_ni_wrap(s->ej_rd[R] + s->ej_cnt[R], s->p.ej_depth)] = *f;
  s->ej_cnt[R]++;
}

static inline uint32_t stage_next(const mt_ni *s, uint32_t x) { return x + 1 >= s->p.max_flows * (uint32_t)s->p.children ? 0 : x + 1; }

/* after mt_ni_depktz_update (reads the engines' new message state, as mt_ni_deps_update)
 * and before mt_ni_ejbuf_update (its pushes into R, then the engines' pops) */
static void stage_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const unsigned R = mt_ni_stage_r(s);
  /* stage-outs admitted (claimed) and complete (written) */
  for (uint32_t em = w->rx_look_stg | w->rx_done; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e];
    if (!r->stg) continue;
    const size_t x = mt_ni_fc(s, mt_ni_fi(s, r->flow), r->cpos);
    if ((w->rx_look_stg >> e) & 1u) {
      if (!s->sgc[x]) s->nsg++;
      s->sgs[x] = (uint16_t)r->src;
      stage_claim(s, x, r->addr, r->len);
      s->sgc[x] += r->len;
      s->sg_out++;
    } else s->sgb[x] += r->len;
  }
  /* stall T cycles with a not-due head: stage from then on, until the next start (not off
   * again at a due unit from the network: a run that jams again and again would pay T every
   * time; dbtree mesh:5, make soak seed 1 run 977, stops on the watchdog with T = 20,000) */
  if (w->rx_look_wait && s->wd >= p->stage_after) s->sgon = 1;
  /* replay: one (flow, slot) looked at per cycle; one whose staged units are all written
   * offers its first range */
  if (s->sgst == 0 && w->running && s->nsg && !s->ej_cnt[R] && !stage_r_held(s)) {
    const uint32_t x = s->sgp;
    /* its lowest range: the only one that can be due (a child is added in address order) */
    const uint32_t q = s->sgc[x] && s->sgb[x] == s->sgc[x] ? s->sghd[x] : MT_NI_SG_NONE;
    if (q != MT_NI_SG_NONE) {
      mt_head_info h = {0};
      h.src = s->sgs[x];
      h.flow = x / (uint32_t)p->children;
      h.op = MT_OP_REDUCE;
      h.last = 1;
      h.addr = s->sglo[q];
      h.len = s->sghi[q] - h.addr;
      mt_flit f;
      mt_flit_clear(&f);
      mt_hd_pack(&f, &h);
      mt_flit_set_type(&f, p->payload_w, MT_FT_AR_HEAD);
      stage_push(s, &f);
      s->sgst = 1;
      s->sgx = x;
      s->sgq = q;
      s->sga = h.addr;
      s->sgl = h.len;
    } else s->sgp = stage_next(s, x);
  } else if (s->sgst == 1) {
    for (unsigned e = 0; e < s->ne; e++) {
      if (s->rx[e].s != R) continue;
      if ((w->rx_look_wait >> e) & 1u) { /* not due: taken back, the next one */
        s->ej_cnt[R] = 0;
        s->sgst = 0;
        s->sgp = stage_next(s, s->sgx);
      } else if ((w->rx_look_go >> e) & 1u) { /* due: the engine popped the head; the body */
        const uint32_t q = s->sgq;            /* x's first range (nothing of x was claimed since) */
        s->sgst = 2;
        s->sgn = (s->sgl + s->fb - 1u) >> s->lg_fb;
        s->sgj = 0;
        s->sgo = 0;
        s->sghd[s->sgx] = s->sgnx[q];
        s->sgnx[q] = s->sgfree;
        s->sgfree = q;
        s->sgused--;
        s->sgb[s->sgx] -= s->sgl;
        s->sgc[s->sgx] -= s->sgl;
        if (!s->sgc[s->sgx]) s->nsg--;
        s->sg_rep++;
      }
    }
  } else if (s->sgst == 2) {
    if (w->sg_rsp) {
      const uint32_t j = s->sgj - s->sgo; /* flits pushed so far */
      const uint32_t m = mt_ni_lane_mask(s, j, s->sgn, mt_ni_last_mask(s, s->sgl));
      mt_flit f;
      mt_flit_clear(&f);
      for (unsigned k = 0; k < s->lanes; k++) f.w[k] = (m >> k) & 1u ? in->mem_rsp_data[w->sg_rport][k] : 0u;
      mt_flit_set_type(&f, p->payload_w, j + 1 == s->sgn ? MT_FT_AR_TAIL : MT_FT_AR_BODY);
      stage_push(s, &f);
      s->sgo--;
    }
    if (w->sg_gnt) {
      s->sgj++;
      s->sgo++;
    }
    if (s->sgj == s->sgn && s->sgo == 0) {
      s->sgst = 0;
      s->sgp = stage_next(s, s->sgx);
    }
  }
  if (w->clear) {
    const size_t FC = (size_t)p->max_flows * (size_t)p->children;
    memset(s->sgb, 0, FC * 4);
    memset(s->sgc, 0, FC * 4);
    mt_ni_stage_reset(s);
    s->sgon = 0;
    s->sgst = 0;
    s->nsg = 0;
    s->sgp = 0;
    s->ej_cnt[R] = 0;
    s->ej_rd[R] = 0;
  }
}

/* the stager's edge; skipped (speed only) when none of its inputs can change anything: no unit
 * staged out or finished, no LOOK waiting, no replay under way or pending, no start */
static inline void mt_ni_stage_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  if (s->p.stage_after && (w->rx_look_stg | w->rx_done | w->rx_look_wait | s->sgst | s->nsg | (uint32_t)w->clear))
    stage_update(s, in, w);
}
