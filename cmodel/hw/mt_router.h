/* SPDX-License-Identifier: Apache-2.0
 * mt_router.h: cycle-accurate C model of rtl/mt_router.sv (MultiTree router, ISCA 2021 §IV-B).
 * Contract (docs/reference/interfaces.md, docs/reference/router.md): NP = 2*D + L ports, NumVcs VCs per port,
 * credit-based flow control, dimension-order routing with dateline VC classes for normal
 * packets, one-hop source-routed all-reduce messages (message-based flow control, switch
 * allocation per sub-packet). mt_router_init is the reset; mt_router_step is one rising edge:
 * it samples *in and fills *out with the registered outputs after the edge.
 * No globals; memory is allocated in init only. Flits: only the mt_flit_words(PayloadW, NumVcs)
 * low words of an input flit are stored (mt_flit.h: the bits above FlitW are 0); the words
 * above them are 0 in every output flit. */
#ifndef MT_ROUTER_H
#define MT_ROUTER_H
#include <stdint.h>
#include "fmt/mt_flit.h"
#include "util/mt_err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_RT_MAX_PORTS 16
#define MT_RT_MAX_VCS 16
#define MT_RT_MAX_IVCS (MT_RT_MAX_PORTS * MT_RT_MAX_VCS)

typedef struct {
  unsigned dims;         /* D: 1..3 */
  unsigned k[3];         /* nodes per dimension (>= 2 for d < D); node id = x + K0*(y + K1*z) */
  unsigned torus;        /* 1: torus (wrap links, dateline VCs), 0: mesh */
  unsigned nlocal;       /* L >= 1 local ports (default 2*D) */
  unsigned payload_w;    /* PayloadW: multiple of 32, 128..512 */
  unsigned num_vcs;      /* NumVcs: even, 2..16 */
  unsigned vc_depth;     /* VcDepth: input buffer depth per VC (flits) */
  unsigned ej_depth;     /* EjDepth: NI ejection buffer depth per VC (credits of local outputs) */
  unsigned subpkt_flits; /* SubPktFlits: credits a sub-packet needs before it starts */
  unsigned step_prio;    /* 0: round-robin; 1: head step as priority, round-robin among equals */
  unsigned wd_w;         /* WdW: watchdog counter width (1..31) */
  unsigned period[3];    /* torus/mesh: the outputs of dimension d (ports 2d, 2d+1) send a flit
                            at most every period[d] cycles (0..255; 0, 1: every cycle; a slower
                            link, docs/reference/network.md "Link rate and latency") */
  unsigned pipe;         /* RtPipe (torus/mesh only): 0, 1 or 2, the router pipeline of docs/reference/router.md
                            "Pipeline (RtPipe)": 1, each head routed as it is written into its VC buffer,
                            the front flit of each VC buffer in a register, the cycles of 0 (so the
                            model's step is the same for both); 2, the same and a register between
                            VC allocation and switch allocation (a cycle per hop, modelled here) */
  unsigned perturb;      /* test only, 0 = exact model. 1: credit pulses leave one cycle late;
                            2: incoming credits counted one cycle late */
  /* Switch (docs/reference/switch.md): table = 1 routes every head, normal or all-reduce, by its
   * destination through a table loaded with mt_router_load_table; dims, k and torus are then
   * unused. Ports 0..nnet-1 are network ports, nnet..nnet+nlocal-1 NI ports (nlocal may be
   * 0: a switch without end nodes). hop_classes H (1..NumVcs, dividing it): a head leaving on
   * a network port takes VC class 0 (VCs 0..NumVcs/H-1) when it came from an NI port, else the
   * class after the one it arrived in (at most H-1); 1 = every VC. table = 0: the torus/mesh
   * router (dimension order, datelines), unchanged. */
  unsigned table;
  unsigned nnet;
  unsigned hop_classes;
} mt_router_params;

/* A switch's route table entry for one destination node (mt_router_load_table):
 * bits 3..0 base port, bits 7..4 n - 1 (a set of n consecutive ports: the head takes port
 * base + src mod n, a fixed choice per source, so one source's units to one destination keep
 * one path), bit 15 valid. A head to a destination without a valid entry leaves on port 0,
 * as the torus router's out-of-range ports do (the C side fills every destination), and
 * raises the sticky rt_err flag of its input VC. */
#define MT_RT_TAB_VALID 0x8000u
#define MT_RT_TAB(base, n) ((uint16_t)(MT_RT_TAB_VALID | ((unsigned)(base)&15u) | ((((unsigned)(n)-1u) & 15u) << 4)))

/* The defaults of rtl/mt_router.sv: 4x4 torus, D=2, L=4, 128-bit payload, 4 VCs, depth 16. */
void mt_router_default_params(mt_router_params *p);
/* 0 if the parameters are legal (the RTL's $fatal checks), else -1 with the parameter and
 * what is allowed in e (e may be NULL). */
int mt_router_check_params(const mt_router_params *p, mt_err *e);

typedef struct {
  unsigned node_id;  /* this router's node id (12 bits); static */
  uint32_t wd_limit; /* watchdog: stall cycles before a VC raises its error; 0 = off */
  uint8_t in_valid[MT_RT_MAX_PORTS];
  mt_flit in_flit[MT_RT_MAX_PORTS];
  uint8_t out_credit[MT_RT_MAX_PORTS][MT_RT_MAX_VCS]; /* pulses from downstream (port, vc) */
} mt_router_in;

typedef struct {
  uint8_t out_valid[MT_RT_MAX_PORTS];
  mt_flit out_flit[MT_RT_MAX_PORTS];                 /* all zero when not valid */
  uint8_t in_credit[MT_RT_MAX_PORTS][MT_RT_MAX_VCS]; /* one pulse per freed input slot */
  uint8_t wd_err[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];    /* sticky: input VC stalled >= limit */
  uint8_t ovf_err[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];   /* sticky: flit arrived on a full VC */
  uint8_t rt_err[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];    /* sticky (switch): a head without a valid table entry */
} mt_router_out;

/* Router state. Internal: only mt_router_init/step/free/route are the API. The layout is
 * tuned for speed (docs/reference/router.md, "Speed"): the step does work per event (a flit sent or
 * received, a credit, a new front flit), not per input VC: each input VC whose front flit
 * can request an output sits in that output's candidate set; an output whose state and
 * candidates did not change since it last found no eligible candidate is skipped; the
 * watchdog keeps the cycle at which each count was last zero. */
#define MT_RT_SETW ((MT_RT_MAX_IVCS + 63) / 64) /* 64-bit words of an input-VC bit set */
typedef struct {
  mt_router_params p;
  unsigned np, nv, n, fb; /* ports, VCs, input VCs (np*nv), flit payload bytes */
  unsigned nd;            /* network ports: 2D, or nnet for a switch; the rest are local (NI) ports */
  uint16_t *tab;          /* switch: route table by destination id (4096 entries) */
  unsigned fw, tw, nw;    /* live words per flit, word of type/VC, words of an ivc bit set */
  uint32_t vmask;         /* the flit's VC field (VcW bits), at bit 3 of word tw */
  /* input VC buffers: ivc i = port*nv + vc, slot s at buf[(i*vc_depth + s)*fw], fw words;
   * rdo, wro: word offsets in buf of i's front slot and of the slot the next push writes
   * (bend: of the slot after i's last; bsz = vc_depth*fw: a wrap subtracts it) */
  uint32_t *buf;
  uint32_t rdo[MT_RT_MAX_IVCS], wro[MT_RT_MAX_IVCS], bend[MT_RT_MAX_IVCS], bsz;
  uint16_t cnt[MT_RT_MAX_IVCS];
  uint64_t ne[MT_RT_SETW];    /* bit i: cnt[i] != 0 */
  uint64_t fresh[MT_RT_SETW]; /* bit i: new front flit, not yet classified */
  /* per input VC: packet/message state */
  uint8_t active[MT_RT_MAX_IVCS]; /* head sent (pipe 2: its VC allocated), tail not yet */
  uint8_t hp[MT_RT_MAX_IVCS];     /* pipe 2: VC allocated, head not sent yet */
  uint8_t is_ar[MT_RT_MAX_IVCS];
  uint8_t oport[MT_RT_MAX_IVCS], ovc[MT_RT_MAX_IVCS];
  uint16_t step[MT_RT_MAX_IVCS];
  /* watchdog: count = min(2^WdW - 1, cycle - wd_zero) while the VC stalls; wd_min is a lower
   * bound of wd_zero over the non-empty VCs without a raised flag */
  uint64_t wd_zero[MT_RT_MAX_IVCS], wd_min;
  /* per input VC: for a head at the front, its route (at node rt_node) */
  uint8_t rt_port[MT_RT_MAX_IVCS], rt_swap[MT_RT_MAX_IVCS];
  uint16_t rt_mask[MT_RT_MAX_IVCS], rt_prio[MT_RT_MAX_IVCS], rt_src[MT_RT_MAX_IVCS];
  uint32_t rt_need[MT_RT_MAX_IVCS]; /* credits the head needs (VCT rule) */
  uint64_t rt_key[MT_RT_MAX_IVCS];  /* switch, packet head: its transfer (mt_router.c join_key), else 0 */
  unsigned rt_node;
  /* normal-packet route by destination id at node rt_node, filled on demand (0 = not yet):
   * bit 7 valid, bit 6 destination is the neighbour on that port, bit 5 destination reached,
   * bit 4 wrap link, bits 3..0 output port */
  uint8_t *dst_rt;
  uint8_t ivc_port[MT_RT_MAX_IVCS], ivc_vc[MT_RT_MAX_IVCS]; /* i / nv, i % nv */
  uint8_t ivc_pv[MT_RT_MAX_IVCS];                           /* port * MT_RT_MAX_VCS + vc: i's byte in a [port][vc] array */
  /* candidates: input VCs whose front flit asks for output o (a head, or a sub-packet of an
   * all-reduce message), cand_o[i] = that output or 0xff */
  uint64_t cand[MT_RT_MAX_PORTS][MT_RT_SETW];
  uint8_t cand_o[MT_RT_MAX_IVCS];
  uint32_t odirty; /* bit o: output o must look at its candidates */
  /* pipe 2: idle input VCs whose head asks output o for a VC (its VC allocation candidates),
   * and the round robin of that allocation */
  uint64_t vcand[MT_RT_MAX_PORTS][MT_RT_SETW];
  uint16_t va_rr[MT_RT_MAX_PORTS];
  /* sticky error flags in the layout of mt_router_out; nerr: any flag set */
  uint8_t wd_err[MT_RT_MAX_PORTS][MT_RT_MAX_VCS], ovf_err[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  uint8_t rt_err[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  unsigned nerr;
  size_t out_bytes;                /* bytes of mt_router_out before wd_err */
  uint8_t vc_bytes[MT_RT_MAX_VCS]; /* 0xff for the VCs in use, else 0 */
  /* per output port */
  uint8_t held[MT_RT_MAX_PORTS];
  uint32_t heldm; /* bit o: held[o] */
  uint16_t holder[MT_RT_MAX_PORTS], rr[MT_RT_MAX_PORTS];
  uint16_t cred[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  uint16_t busy_vc[MT_RT_MAX_PORTS];               /* bit v: output VC v allocated to a packet/message */
  uint16_t ej_src[MT_RT_MAX_PORTS][MT_RT_MAX_VCS]; /* local outputs: source of the last unit started on VC v */
  uint64_t ej_key[MT_RT_MAX_PORTS][MT_RT_MAX_VCS]; /* local outputs: rt_key of the last unit started on VC v */
  /* output pacing (mt_router_params.period): per[o] the period of output o, pace[o] the
   * cycles until it may send again (0: now); pacedm bit o: per[o] > 1, pacem: pace[o] != 0 */
  uint8_t per[MT_RT_MAX_PORTS], pace[MT_RT_MAX_PORTS];
  uint32_t pacedm, pacem;
  /* perturbation delay registers */
  uint8_t pt_cred[MT_RT_MAX_PORTS][MT_RT_MAX_VCS];
  /* speed only: the last two output buffers written and what was written there besides
   * zeros (valid ports, credit rows, error flags), see mt_router_step */
  const mt_router_out *ob[2];
  uint32_t obv[2], obc[2];
  uint8_t obe[2];
  /* statistics (not part of the RTL) */
  uint64_t cycles, flits_out;
} mt_router;

/* Reset. Returns 0, or -1 with the reason in e (illegal parameters, no memory). */
int mt_router_init(mt_router *r, const mt_router_params *p, mt_err *e);
void mt_router_free(mt_router *r);
/* Switch: load route table entries 0..n-1 (MT_RT_TAB, by destination node id; the rest
 * invalid). -1 if the router is not a switch, n > 4096, or an entry's ports lie outside the
 * router (the entry and what is allowed in e). */
int mt_router_load_table(mt_router *r, const uint16_t *tab, unsigned n, mt_err *e);
/* *out receives all of the registered outputs. When out is one of the two buffers this
 * router wrote last, only the parts that can differ from what it wrote there are written:
 * the ports valid then or now, the credit rows with a pulse then or now, the error flags
 * while one is set or was then (everything else there, and the words of a flit above its
 * live ones, is 0 already). So a caller must not write into an output buffer it passes
 * again, nor let another router write into it (mt_net, the tests and the co-simulations do
 * neither; the same contract as mt_ni_step's). Any other buffer is written in full. */
void mt_router_step(mt_router *r, const mt_router_in *in, mt_router_out *out);

/* Route computation of a head flit arriving on in_port/in_vc at node node_id (exposed for
 * tests): output port, allowed output VC mask, swap flag (all-reduce head at a local input). */
void mt_router_route(const mt_router *r, unsigned node_id, unsigned in_port, unsigned in_vc,
                     const mt_flit *head, unsigned *out_port, uint32_t *vc_mask, int *swap);

#ifdef __cplusplus
}
#endif
#endif
