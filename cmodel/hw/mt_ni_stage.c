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

/* The staged ranges (docs/reference/ni.md "Staging not-due units", "The stager's state in
 * RAM"): one pool of p.stage_ranges for the NI in RAM Q ({lo, hi, next}), each (flow, slot)'s
 * in a list in address order whose first range is in RAM H ({first, src}); the free ranges
 * in a list from sgfree, then the ranges never used from sgbump on. Not a fixed few per
 * (flow, slot) offered in slot order: units of one child arriving out of address order through
 * different VCs fragment them, every gap a range, and DBTree with packets on fattree:4,2 stops
 * on the watchdog with all of one (flow, slot) in use (docs/reference/switch.md "Packet-mode
 * DBTree"). Both RAMs are 1R1W (mt_ni_ram.h): one read and one write per edge each; the list
 * walker, the scan and the release take turns (never two at one edge). The value
 * p.stage_ranges is "no range". */
enum { SW_IDLE,
       SW_HEAD,
       SW_WALK,
       SW_DEC,
       SW_ALLOC,
       SW_LINK,
       SW_FREE };

static inline void mt_ni_stage_reset(mt_ni *s) {
  memset(s->sgnz, 0, (size_t)s->p.max_flows * s->p.children);
  s->nsg = 0;
  s->sgfree = s->p.stage_ranges;
  s->sgbump = 0;
  s->sgused = 0;
  s->swst = SW_IDLE;
  s->srel = 0;
  s->sgpv = 0;
}

/* the walker's decision (state SW_DEC): 1 the claim joins prev and q, 2 it extends prev, 3 it
 * extends q downwards, 4 a new range between them */
static inline unsigned walk_case(const mt_ni *s) {
  const uint32_t N = s->p.stage_ranges;
  if (s->swprev != N && s->swphi == s->swa) return s->swq != N && s->swqlo == s->swb ? 1u : 2u;
  return s->swq != N && s->swqlo == s->swb ? 3u : 4u;
}

/* a range is taken from the never-used ones at this edge */
static inline int walk_bump(const mt_ni *s) { return s->swst == SW_DEC && walk_case(s) == 4u && s->sgfree == s->p.stage_ranges; }

/* the walker writes RAM H for the last time at this edge (or does its last write): the next
 * claim may start at it */
static inline int walk_last(const mt_ni *s) {
  const uint32_t N = s->p.stage_ranges;
  switch (s->swst) {
  case SW_DEC: {
    const unsigned c = walk_case(s);
    return c == 2u || c == 3u || (walk_bump(s) && s->swprev == N);
  }
  case SW_ALLOC: return s->swprev == N;
  case SW_LINK:
  case SW_FREE: return 1;
  default: return 0;
  }
}

/* a unit of (flow, slot) x can be staged: the walker is free (or finishes at this edge), no
 * release or scan read is pending, none of x's ranges is offered (the offered head's length
 * must stay the range's: a unit merged into it then makes the replay stream more flits than
 * its head announced, error 9; make soak seed 2 runs 419, 439 with ni_stage_after=1) and a
 * range is free after this edge (even if the unit would merge: the walk decides that later) */
static inline int mt_ni_stage_fits(const mt_ni *s, size_t x) {
  if (s->srel || s->sgst >= 3u || (s->sgst == 1u && s->sgx == x)) return 0;
  if (s->swst != SW_IDLE && !walk_last(s)) return 0;
  return s->sgused + (uint32_t)(walk_bump(s) || s->swst == SW_ALLOC) < s->p.stage_ranges;
}

/* a staging write of x is in flight (registered) */
static inline int stage_pending(const mt_ni *s, uint32_t x) {
  for (uint32_t m = s->sgpv; m; m &= m - 1u)
    if (s->sgpx[__builtin_ctz(m)] == x) return 1;
  return 0;
}

/* the RAM ports of one edge */
typedef struct {
  int hre, hwe, qre, qwe;
  uint32_t hra, hwa, qra, qwa, hwd[2], qwd[3];
} stage_ram_ops;

static inline void q_write(stage_ram_ops *o, uint32_t q, uint32_t lo, uint32_t hi, uint32_t nx) {
  o->qwe = 1;
  o->qwa = q;
  o->qwd[0] = lo;
  o->qwd[1] = hi;
  o->qwd[2] = nx;
}
static inline void h_write(stage_ram_ops *o, uint32_t x, uint32_t first, uint32_t src) {
  o->hwe = 1;
  o->hwa = x;
  o->hwd[0] = first;
  o->hwd[1] = src;
}

/* range n (just taken) holds the claim, linked before q: after prev (one more edge) or first */
static void walk_new(mt_ni *s, stage_ram_ops *o, uint32_t n) {
  q_write(o, n, s->swa, s->swb, s->swq);
  if (++s->sgused > s->sgpeak) s->sgpeak = s->sgused;
  if (s->swprev == s->p.stage_ranges) {
    h_write(o, s->swx, n, s->swsrc);
    s->swst = SW_IDLE;
  } else {
    h_write(o, s->swx, s->swhead, s->swsrc);
    s->swnn = n;
    s->swst = SW_LINK;
  }
}

/* one edge of the list walker (a claim [a, b) of x: merged with the ranges it touches, either
 * side, or a new range in address order) */
static void walk_step(mt_ni *s, stage_ram_ops *o) {
  const uint32_t N = s->p.stage_ranges;
  switch (s->swst) {
  case SW_HEAD: /* H's word of x read: read its first range */
    s->swhead = s->swcur = s->sghr[0];
    o->qre = 1;
    o->qra = s->swcur;
    s->swst = SW_WALK;
    break;
  case SW_WALK: /* range swcur read: past the claim's address, or on */
    if (s->sgqr[0] < s->swa) {
      s->swprev = s->swcur;
      s->swplo = s->sgqr[0];
      s->swphi = s->sgqr[1];
      if (s->sgqr[2] == N) {
        s->swq = N;
        s->swst = SW_DEC;
      } else {
        s->swcur = s->sgqr[2];
        o->qre = 1;
        o->qra = s->swcur;
      }
    } else {
      s->swq = s->swcur;
      s->swqlo = s->sgqr[0];
      s->swqhi = s->sgqr[1];
      s->swqnx = s->sgqr[2];
      s->swst = SW_DEC;
    }
    break;
  case SW_DEC:
    switch (walk_case(s)) {
    case 1u: /* it closes the gap: prev takes q's end, q is freed at the next edge */
      q_write(o, s->swprev, s->swplo, s->swqhi, s->swqnx);
      h_write(o, s->swx, s->swhead, s->swsrc);
      s->swst = SW_FREE;
      break;
    case 2u:
      q_write(o, s->swprev, s->swplo, s->swb, s->swq);
      h_write(o, s->swx, s->swhead, s->swsrc);
      s->swst = SW_IDLE;
      break;
    case 3u:
      q_write(o, s->swq, s->swa, s->swqhi, s->swqnx);
      h_write(o, s->swx, s->swhead, s->swsrc);
      s->swst = SW_IDLE;
      break;
    default:
      if (s->sgfree != N) { /* a free range: its word holds the next free one */
        o->qre = 1;
        o->qra = s->sgfree;
        s->swst = SW_ALLOC;
      } else walk_new(s, o, s->sgbump++);
    }
    break;
  case SW_ALLOC: {
    const uint32_t n = s->sgfree;
    s->sgfree = s->sgqr[2];
    walk_new(s, o, n);
    break;
  }
  case SW_LINK:
    q_write(o, s->swprev, s->swplo, s->swphi, s->swnn);
    s->swst = SW_IDLE;
    break;
  case SW_FREE:
    q_write(o, s->swq, 0, 0, s->sgfree);
    s->sgfree = s->swq;
    s->sgused--;
    s->swst = SW_IDLE;
    break;
  default: break;
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
 * and before mt_ni_ejbuf_update (its pushes into R, then the engines' pops). Every decision
 * reads the registers before the edge; the RAMs' edges come last. */
static void stage_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const mt_ni_params *p = &s->p;
  const unsigned R = mt_ni_stage_r(s);
  const uint32_t N = p->stage_ranges;
  const uint8_t wst0 = s->swst, rel0 = s->srel, sgst0 = s->sgst;
  stage_ram_ops o = {0};
  /* the claim of this edge (one at most) and the staging writes completed */
  int cl = 0;
  unsigned ce = 0;
  uint32_t cx = 0, done = 0;
  for (uint32_t em = w->rx_look_stg | w->rx_done; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    const mt_ni_rx *r = &s->rx[e];
    if (!r->stg) continue;
    if ((w->rx_look_stg >> e) & 1u) {
      cl = 1;
      ce = e;
      cx = (uint32_t)mt_ni_fc(s, mt_ni_fi(s, r->flow), r->cpos);
    } else done |= 1u << e;
  }
  /* stall T cycles with a not-due head: stage from then on, until the next start (not off
   * again at a due unit from the network: a run that jams again and again would pay T every
   * time; dbtree mesh:5, make soak seed 1 run 977, stops on the watchdog with T = 20,000) */
  if (w->rx_look_wait && s->wd >= p->stage_after) s->sgon = 1;
  /* the walker's edge (its last one may be the edge of the next claim) */
  walk_step(s, &o);
  /* a replayed range unlinked: x's first range becomes its next (none: x has nothing
   * staged), the range goes to the free list; only with the walker idle (claims wait) */
  if (rel0 && wst0 == SW_IDLE) {
    h_write(&o, s->srx, s->srnx, s->srsrc);
    q_write(&o, s->srq, 0, 0, s->sgfree);
    s->sgfree = s->srq;
    s->sgused--;
    if (s->srnx == N) {
      s->sgnz[s->srx] = 0;
      s->nsg--;
    }
    s->srel = 0;
  }
  /* replay: one (flow, slot) looked at per cycle (not while the walker, a release or a claim
   * uses the RAMs); one with staged units and no staging write in flight: its H word, then its
   * first range (the only one that can be due: a child is added in address order) offered */
  if (sgst0 == 0) {
    if (w->running && s->nsg && !s->ej_cnt[R] && !stage_r_held(s) && wst0 == SW_IDLE && !rel0 && !cl) {
      const uint32_t x = s->sgp;
      if (s->sgnz[x] && !stage_pending(s, x)) {
        o.hre = 1;
        o.hra = x;
        s->sgx = x;
        s->sgst = 3;
      } else s->sgp = stage_next(s, x);
    }
  } else if (sgst0 == 3) {
    s->sgq = s->sghr[0];
    s->sgsrc = s->sghr[1];
    o.qre = 1;
    o.qra = s->sgq;
    s->sgst = 4;
  } else if (sgst0 == 4) {
    mt_head_info h = {0};
    h.src = s->sgsrc;
    h.flow = s->sgx / (uint32_t)p->children;
    h.op = MT_OP_REDUCE;
    h.last = 1;
    h.addr = s->sgqr[0];
    h.len = s->sgqr[1] - h.addr;
    mt_flit f;
    mt_flit_clear(&f);
    mt_hd_pack(&f, &h);
    mt_flit_set_type(&f, p->payload_w, MT_FT_AR_HEAD);
    stage_push(s, &f);
    s->sgnq = s->sgqr[2];
    s->sga = h.addr;
    s->sgl = h.len;
    s->sgst = 1;
  } else if (sgst0 == 1) {
    for (unsigned e = 0; e < s->ne; e++) {
      if (s->rx[e].s != R) continue;
      if ((w->rx_look_wait >> e) & 1u) { /* not due: taken back, the next one */
        s->ej_cnt[R] = 0;
        s->sgst = 0;
        s->sgp = stage_next(s, s->sgx);
      } else if ((w->rx_look_go >> e) & 1u) { /* due: the engine popped the head; the body */
        s->sgst = 2;
        s->sgn = (s->sgl + s->fb - 1u) >> s->lg_fb;
        s->sgj = 0;
        s->sgo = 0;
        s->srel = 1; /* unlinked once the walker is idle */
        s->srx = s->sgx;
        s->srq = s->sgq;
        s->srnx = s->sgnq;
        s->srsrc = s->sgsrc;
        s->sg_rep++;
      }
    }
  } else if (sgst0 == 2) {
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
  /* the claim starts the walker: x's H word read, or (nothing staged for x) straight to the
   * decision, a new first range */
  if (cl) {
    const mt_ni_rx *r = &s->rx[ce];
    s->swx = cx;
    s->swa = r->addr;
    s->swb = r->addr + r->len;
    s->swsrc = r->src;
    s->swprev = s->swq = N;
    if (s->sgnz[cx]) {
      o.hre = 1;
      o.hra = cx;
      s->swst = SW_HEAD;
    } else {
      s->sgnz[cx] = 1;
      s->nsg++;
      s->swst = SW_DEC;
    }
    s->sg_out++;
  }
  /* staging writes in flight */
  s->sgpv &= ~done;
  if (cl) {
    s->sgpv |= 1u << ce;
    s->sgpx[ce] = cx;
  }
  mt_ni_ram_edge(&s->ram_h, o.hre, o.hra, o.hwe, o.hwa, o.hwd);
  mt_ni_ram_edge(&s->ram_q, o.qre, o.qra, o.qwe, o.qwa, o.qwd);
  if (w->clear) {
    mt_ni_stage_reset(s);
    s->sgon = 0;
    s->sgst = 0;
    s->sgp = 0;
    s->ej_cnt[R] = 0;
    s->ej_rd[R] = 0;
  }
}

/* the stager's edge; skipped (speed only) when none of its inputs can change anything: no unit
 * staged out or finished, no LOOK waiting, no replay under way or pending, no start */
static inline void mt_ni_stage_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  if (s->p.stage_after && (w->rx_look_stg | w->rx_done | w->rx_look_wait | s->sgst | s->nsg | s->swst | s->srel | s->sgpv | (uint32_t)w->clear))
    stage_update(s, in, w);
}
