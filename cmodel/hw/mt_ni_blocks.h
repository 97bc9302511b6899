/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_blocks.h (private to cmodel/hw/mt_ni*.c): the phases of mt_ni_step, one C file per
 * RTL block of rtl/mt_ni.sv, and the wires that pass between them.
 * A cycle is booksim style: the *_eval phases compute this cycle's combinational values
 * (mt_ni_wires) from the registers before the edge and the inputs; they write only wires.
 * Then the *_update phases take the rising edge: each writes its own block's registers
 * from the wires (and, where the RTL does so, the registers it reads). mt_ni_step in
 * mt_ni.c lists the phases in order; docs/reference/ni.md "C model" maps each to its RTL twin.
 *
 * The block files hold only static functions and are #included by mt_ni.c, so that every
 * phase inlines into mt_ni_step (one translation unit). Measured on make bench-ni: with
 * the phases as separate functions in separate objects the step takes ~5 % longer (same
 * instruction count, the cost is the 13 calls). The Makefile compiles them only through
 * mt_ni.c (CM_PHASES).
 *
 *   C file             RTL twin                 phases
 *   mt_ni_entry_dec.c  mt_ni_entry_dec.sv (x2)  mt_ni_entry_dec_eval
 *   mt_ni_dma.c        mt_ni_dma.sv             mt_ni_dma_eval, mt_ni_dma_update
 *   mt_ni_pktz.c       mt_ni_pktz.sv (x L)      mt_ni_pktz_eval, mt_ni_pktz_update
 *   mt_ni_depktz.c     mt_ni_depktz.sv          mt_ni_depktz_eval, mt_ni_depktz_update
 *   mt_ni_issue.c      mt_ni_issue.sv           mt_ni_issue_eval, mt_ni_issue_update
 *   mt_ni_ejbuf.c      mt_ni_ejbuf.sv           mt_ni_ejbuf_eval, mt_ni_ejbuf_update
 *   mt_ni_reduce.c     mt_reduce_alu.sv         mt_ni_reduce_update
 *   mt_ni_deps.c       mt_ni_deps.sv            mt_ni_deps_update
 *   mt_ni_chain.c      mt_ni_chain.sv           mt_ni_chain_update (from mt_ni_deps_update)
 *   mt_ni_stage.c      mt_ni_stage.sv           mt_ni_stage_eval, mt_ni_stage_update
 *   mt_ni_lockstep.c   mt_ni_lockstep.sv and    mt_ni_lockstep_update, mt_ni_timestep_update
 *                      mt_ni_timestep.sv        (both counters tiny: one file)
 *   mt_ni_table.c      mt_ni_table.sv           mt_ni_table_update
 *
 * Of several errors in one cycle the first raised wins (mt_ni_set_err), in the order rx
 * frame, rx pick, rx look-up (mt_ni_depktz_eval), issue step, scan, ejection overflow,
 * watchdog (mt_ni_issue_eval, the last eval phase). */
#ifndef MT_NI_BLOCKS_H
#define MT_NI_BLOCKS_H
#include <stdint.h>
#include <string.h>
#include "hw/mt_ni.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MT_NI_NO_POP 0xffffffffu /* ej_pop: no stream popped */

/* grant kinds of a memory port (gnt_kind) */
enum { MT_NI_GNT_TX = 0,
       MT_NI_GNT_RX_WR = 1,
       MT_NI_GNT_RX_RD = 2,
       MT_NI_GNT_SG = 3 }; /* the stager's read of a staged flit */

typedef struct {
  /* ---- state summaries of the registers before the edge (mt_ni_step) ---- */
  int st;        /* control state before the edge (st_o) */
  int running;   /* run: RUN or FIN */
  int busy;      /* busy: SCAN, RUN or FIN */
  uint32_t rqv;  /* dma: request registers full (mem_req_valid_o), bit per port */
  uint32_t rdy;  /* mem_req_ready_i, bit per port */
  int mem_quiet; /* dma quiet_o: no request held, no read outstanding */
  uint8_t ecode; /* first error raised this cycle (issue's error inputs), 0 none */
  int progress;  /* prog: something moved (resets the watchdog) */

  /* ---- mt_ni_entry_dec (u_dec_a, u_dec_b) ---- */
  const mt_ni_entry *ea;              /* e_*: head entry E on table port A */
  const mt_ni_entry *eb[MT_NI_MAX_L]; /* b_* / eb_*: engine e's look-up entry on port B (set for engines in LOOK only) */
  unsigned ef;                        /* e_flow clamped below MaxFlows: per-flow index of E */

  /* ---- mt_ni_dma: responses (tag FIFO fronts) and arbiters ---- */
  uint32_t rspm;                  /* rsp_v_o: ports whose tag FIFO front is answered this cycle */
  int rsp_tag[MT_NI_MAX_MP];      /* rsp_tag_o: requester answered on port m (valid in rspm) */
  uint32_t eng_rspm;              /* rsp_i of the engines: bit e, engine e is answered ... */
  int eng_rsp[MT_NI_MAX_L];       /* ... on this port (valid in eng_rspm) */
  uint32_t gntm;                  /* ports with a grant (|gnt) */
  int gnt[MT_NI_MAX_MP];          /* gnt: index into the port's requester list (valid in gntm) */
  uint8_t gnt_ag[MT_NI_MAX_MP];   /* the requester granted on port m (ag[m][gnt[m]]) */
  uint8_t gnt_kind[MT_NI_MAX_MP]; /* MT_NI_GNT_*: what the grant on port m does */
  uint32_t gnt_tx;                /* gnt_tx: packetisers granted, bit per port l */
  uint32_t gnt_wr;                /* engines granted a write (gnt[L] with req_we), bit per engine */
  uint32_t gnt_rd;                /* engines granted a read (gnt[L] without req_we) */
  uint32_t wacc;                  /* engines whose write is accepted by the memory at this edge
                                     (at most one per engine: its writes use one port) */

  /* ---- mt_ni_pktz ---- */
  uint32_t tx_busy; /* tx_busy: packetisers active (sending a message), bit per port l */
  uint32_t sreq;    /* req_tx: packetisers requesting a read */
  uint32_t send;    /* send: packetisers sending a flit at this edge */
  uint32_t vmask;   /* inj_valid_o after the edge, bit per port (mt_ni_pktz_update) */

  /* ---- mt_ni_depktz (receive engines) ---- */
  /* (bit masks: bit e for engine e) */
  const mt_flit *front[MT_NI_MAX_L]; /* front_i: the front flit of engine e's stream in BUSY, or NULL (set for engines in BUSY only) */
  uint32_t rx_busy;                  /* engines in BUSY while running */
  uint32_t rx_wr;                    /* req_o with req_we_o: a write (result or gathered flit) */
  uint32_t rx_rd;                    /* req_o without req_we_o: a read of the running sum */
  uint32_t rx_pickm;                 /* IDLE: engines that picked a stream (sel_o valid) */
  int rx_pick[MT_NI_MAX_L];          /* the stream picked (valid in rx_pickm) */
  int rx_pick_l[MT_NI_MAX_L];        /* the same stream's index in engine e's own list (valid in rx_pickm) */
  mt_head_info rx_hd[MT_NI_MAX_L];   /* the picked stream's head (valid in rx_pickm) */
  uint32_t rx_look_go;               /* LOOK: message accepted -> BUSY (look_go_o) */
  uint32_t rx_look_wait;             /* LOOK: not yet (its turn, or a gathered message pending) -> IDLE */
  uint32_t rx_look_stg;              /* LOOK: not due, staged out instead (also in rx_look_go) */
  int rx_chain_k[MT_NI_MAX_L];       /* LOOK, reduce: the sender's child position, or -1 (set for LOOK engines) */
  int rx_chain_pe[MT_NI_MAX_L];      /* reduce_chain: engine adding the predecessor child, or -1 */
  uint32_t rx_done;                  /* done_o: the engine's message is complete */
  uint32_t rx_pwreq;                 /* pw_req_o: the engine needs a row its working register does not hold ... */
  uint32_t rx_pwix[MT_NI_MAX_L];     /* ... this one (valid in rx_pwreq; mt_ni_chain.c) */
  uint32_t rx_ldm;                   /* LOAD -> LOOK at this edge: the table port B address is loaded (rb_d) */
  uint32_t rb_d[MT_NI_MAX_L];        /* rb_o: table port B address of engine e after the edge (valid in rx_ldm; else rb) */
  uint32_t ej_pop[MT_NI_MAX_L];      /* pop_s_o: stream popped by engine e, or MT_NI_NO_POP */

  /* ---- mt_ni_stage (the stager, p.stage_after > 0) ---- */
  int sg_ravail; /* the replay head on stream R may be picked (offered, no engine on R) */
  int sg_claim;  /* an engine stages a unit out at this edge (at most one per edge) */
  int sg_rq;     /* the stager asks for a read of a staged flit */
  int sg_gnt;    /* ... granted at this edge */
  int sg_rsp;    /* a response for the stager this cycle ... */
  int sg_rport;  /* ... on this memory port */

  /* ---- mt_ni_ejbuf ---- */
  uint32_t ej_full;           /* ovf_o, bit per port: a flit arrived on a full FIFO (dropped) */
  uint32_t ej_in;             /* ports with an arriving flit (ej_valid_i, l < L) */
  uint32_t ej_s[MT_NI_MAX_L]; /* the stream of the flit arriving on port l (valid in ej_in) */

  /* ---- mt_ni_issue ---- */
  int issue;                      /* issue_o: head entry issued */
  int advance;                    /* timestep inc */
  int to_fin;                     /* END reached in RUN */
  int act_l;                      /* act_o: packetiser activated, or -1 */
  int act_node, act_port, act_ej; /* act_node_o, act_port_o, act_ej_o: the slot it sends to */
  int scan_end;                   /* SCAN: head entry is END */
  int fin_ok;                     /* FIN: everything drained -> DONE */
  uint32_t wd_d;                  /* watchdog counter after the edge */
  int clear;                      /* clear_o: start accepted (every block resets its run state) */
  int scan_rec;                   /* scan_rec_o: the scanned entry is recorded in deps */
  int scan_done;                  /* END scanned without error: RUN, timestep 1 */
  int rdone;                      /* rdone_o: the flow's root Reduce entry issued */
  int lock_load;                  /* lockstep load_i (NOP issued) */
  uint32_t lock_val;              /* lockstep val_i (valid with lock_load) */
  uint32_t hp_d;                  /* hp_d_o: head index after the edge (table port A address) */
} mt_ni_wires;

/* ---- small helpers shared by the blocks ---- */

/* the first error of a cycle wins */
static inline void mt_ni_set_err(mt_ni_wires *w, int c) {
  if (!w->ecode) w->ecode = (uint8_t)c;
}

/* per-flow index of flow f (out-of-range flows use entry 0; their errors are raised elsewhere) */
static inline unsigned mt_ni_fi(const mt_ni *s, uint32_t f) { return f < s->p.max_flows ? f : 0; }
/* reduce_chain state of (flow index fi, child position k): Children slots per flow, so the
 * state grows with the configured children, not with MT_NI_MAX_C */
static inline size_t mt_ni_fc(const mt_ni *s, unsigned fi, unsigned k) { return (size_t)fi * (unsigned)s->p.children + k; }

/* lane mask of flit j of a message of nfl flits whose last flit has mask lastmask */
static inline uint32_t mt_ni_lane_mask(const mt_ni *s, uint32_t j, uint32_t nfl, uint32_t lastmask) {
  return j + 1 == nfl ? lastmask : (s->lanes == 32 ? 0xffffffffu : (1u << s->lanes) - 1u);
}
/* lane mask of the last flit of a message of len bytes */
static inline uint32_t mt_ni_last_mask(const mt_ni *s, uint32_t len) {
  uint32_t r = (len - 1u) & (s->fb - 1u); /* bytes in the last flit - 1 */
  uint32_t lanes = r / 4u + 1u;
  return lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
}

/* bit i set iff byte a[i] != 0, i < 8 */
static inline uint32_t mt_ni_nz8(const uint8_t *a) {
#if defined(__SSE2__)
  const __m128i v = _mm_loadl_epi64((const __m128i *)(const void *)a);
  return ~(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xffu;
#else
  uint32_t r = 0;
  for (unsigned i = 0; i < 8; i++) r |= (uint32_t)(a[i] != 0) << i;
  return r;
#endif
}
/* the same for the MT_NI_MAX_MP (24) bytes of a per-memory-port array, first n */
static inline uint32_t mt_ni_nz_mp(const uint8_t *a, unsigned n) {
  if (n <= 8) return mt_ni_nz8(a) & ((1u << n) - 1u);
#if defined(__SSE2__)
  const __m128i z = _mm_setzero_si128();
  const __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)a);
  const __m128i hi = _mm_loadl_epi64((const __m128i *)(const void *)(a + 16));
  const uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(lo, z)) | (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(hi, z)) << 16;
  return ~eq & (uint32_t)((1ull << n) - 1u);
#else
  return (mt_ni_nz8(a) | mt_ni_nz8(a + 8) << 8 | mt_ni_nz8(a + 16) << 16) & (uint32_t)((1ull << n) - 1u);
#endif
}

/* the same for the 64 bytes of an [MT_NI_MAX_L][MT_NI_MAX_VCS] array (bit l * 8 + v) */
_Static_assert(MT_NI_MAX_L == 8 && MT_NI_MAX_VCS == 8, "mt_ni_nz64: 8 x 8 bytes");
static inline uint64_t mt_ni_nz64(const uint8_t *a) {
#if defined(__SSE2__)
  const __m128i z = _mm_setzero_si128();
  uint64_t eq = 0;
  for (unsigned i = 0; i < 4; i++)
    eq |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(a + 16 * i)), z)) << (16 * i);
  return ~eq;
#else
  uint64_t r = 0;
  for (unsigned i = 0; i < 8; i++) r |= (uint64_t)mt_ni_nz8(a + 8 * i) << (8 * i);
  return r;
#endif
}

/* copy / clear n 32-bit words, n a multiple of 4 (the lanes of a flit: PayloadW / 32), 16 bytes
 * at a time: fixed-size copies that the compiler inlines (a loop of words becomes a call) */
static inline void mt_ni_cpl(uint32_t *d, const uint32_t *s, unsigned n) {
  memcpy(d, s, 16); /* n >= 4 */
  for (unsigned k = 4; k < n; k += 4) memcpy(d + k, s + k, 16);
}
static inline void mt_ni_zl(uint32_t *d, unsigned n) {
  memset(d, 0, 16);
  for (unsigned k = 4; k < n; k += 4) memset(d + k, 0, 16);
}

/* a mod n (a < 2n on every path of the model; exact anyway) */
static inline uint32_t mt_ni_wrap(uint32_t a, uint32_t n) { return a < n ? a : a - n < n ? a - n
                                                                                         : a % n; }

#endif
