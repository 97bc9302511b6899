/* SPDX-License-Identifier: Apache-2.0
 * mt_ni: cycle-accurate C model of rtl/mt_ni.sv, the MultiTree network interface
 * (ISCA 2021 Section IV-A, Fig. 6; message-based flow control of Section IV-B).
 * Contract (docs/reference/ni.md, docs/reference/interfaces.md): schedule table in the planner's layout
 * (fmt/mt_entry.h, full or compact), start-up scan that validates the table and
 * indexes it per flow, issue logic with timestep and lockstep counters, one
 * DMA/packetiser per local (injection) port, per-(port, VC) ejection FIFOs, rx_engines
 * depacketiser/reduction engines, mem_ports valid/ready memory ports (mt_ni_default_params:
 * 1 and 1; 0 is resolved by mt_ni_bw_defaults). The RTL has the same parameters (RxEngines, MemPorts, ReduceChain; docs/reference/ni.md).
 * mt_ni_init is the reset; mt_ni_step is one rising edge: it samples *in (the values the
 * RTL sees just before the edge), updates the state and fills *out with the registered
 * outputs after the edge. No globals; memory is allocated in init only. */
#ifndef MT_NI_H
#define MT_NI_H
#include <stdint.h>
#include "util/mt_err.h"
#include "fmt/mt_flit.h"
#include "fmt/mt_entry.h"
#include "hw/mt_ni_ram.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MT_NI_MAX_L 8 /* local ports */
#define MT_NI_MAX_VCS 8
#define MT_NI_MAX_C 64                  /* child slots per entry */
#define MT_NI_MAX_PORTS 16              /* router ports (4-bit port fields) */
#define MT_NI_MAX_LANES 16              /* PayloadW / 32 */
#define MT_NI_MAX_ALU_PIPE 2            /* alu_pipe (rtl/mt_reduce_alu.sv Pipe) */
#define MT_NI_MAX_SQ 16                 /* sender data FIFO depth */
#define MT_NI_MAX_RQ 16                 /* receive pipeline depth */
#define MT_NI_MAX_EJD 1024              /* ejection FIFO depth per VC (a 150-cycle NI link needs 318) */
#define MT_NI_MAX_MP (3 * MT_NI_MAX_L)  /* memory ports: L + 2 * rx_engines at most */
#define MT_NI_PEND 4                    /* reduce_chain: completed packet ranges kept beyond a child's prefix */
#define MT_NI_ROWW (2 + 2 * MT_NI_PEND) /* reduce_chain: 32-bit words of a chain row */
/* Table word parts (64-bit) of the table write port and read registers: the widest entry the
 * field limits of mt_ni_check_params allow (op 2, flow 12, step 16, MT_NI_MAX_C + 1 slots of
 * valid 1 + id 12 + port 4 + eject 4, addr 32, size 32: 1,459 bits), so that no legal layout is
 * refused for its width; the table memory itself holds only words = ceil(width / 64) parts. */
#define MT_NI_EW 23

/* Error codes (err_code) MT_NI_E_<NAME> and control states (status st) MT_NI_ST_<NAME>: the
 * tables MT_NI_ERRS / MT_NI_STATES of fmt/mt_formats.h (value, name, meaning; docs/reference/ni.md). */
#define MT_NI_E_ENUM_(n, v, s, d) MT_NI_E_##n = v,
enum { MT_NI_ERRS(MT_NI_E_ENUM_) };
#undef MT_NI_E_ENUM_
const char *mt_ni_err_name(int code);

#define MT_NI_ST_ENUM_(n, v, d) MT_NI_ST_##n = v,
enum { MT_NI_STATES(MT_NI_ST_ENUM_) };
#undef MT_NI_ST_ENUM_

typedef struct {
  /* network side (docs/reference/interfaces.md) */
  unsigned payload_w;    /* PayloadW: 128, 256 or 512 (a power of two: flit bytes divide by shifts) */
  unsigned num_vcs;      /* NumVcs >= 1 */
  unsigned nlocal;       /* L: local (injection and ejection) ports */
  unsigned net_ports;    /* 2*D network ports of the router */
  unsigned ej_depth;     /* EjDepth: ejection FIFO per VC */
  unsigned vc_depth;     /* VcDepth: credits towards the router's local input buffers */
  unsigned subpkt_flits; /* SubPktFlits */
  unsigned pkt_bytes;    /* baseline packet payload (256), a multiple of the flit bytes */
  unsigned inj_vc;       /* VC used for injection */
  /* table */
  unsigned tbl_depth; /* entries (>= 1) */
  union {             /* entry format: from the planner's layout (p.fmt = ly.fmt) or by hand */
    mt_entry_fmt fmt;
    struct {
      MT_ENTRY_FMT_FIELDS
    };
  };
  unsigned max_flows; /* per-flow state entries (>= nflows at run time) */
  /* micro-architecture */
  unsigned sq;       /* sender data FIFO depth */
  unsigned rq;       /* receive pipeline depth (reads in flight) */
  unsigned alu_pipe; /* AluPipe: registers inside the reduction unit's adder (rtl/mt_reduce_alu.sv
                        Pipe, docs/reference/reduction.md "Pipeline"): 0..MT_NI_MAX_ALU_PIPE; a sum
                        reaches the write queue 1 + alu_pipe cycles after its running sum */
  unsigned wd_w;     /* watchdog counter width */
  /* bandwidth (docs/reference/ni.md "Bandwidth"): 1 and 1 are the one-engine NI (RTL: RxEngines, MemPorts);
   * 0 is the full-bandwidth default of mt_ni_bw_defaults */
  unsigned rx_engines; /* E: receive engines, a divisor of L; engine e serves ejection ports l = e mod E */
  unsigned mem_ports;  /* M: 1 (all share port 0), L + E (port l: sender l; port L+e: engine e),
                            or L + 2E (port l: sender l; L+e: engine e's reads; L+E+e: its writes) */
  /* chained reduction (RTL: ReduceChain; needs rx_engines > 1; docs/reference/ni.md "Chained reduction"):
   * 1 lets the message of a flow's child k start while child k-1's is still being added
   * by another engine; each of its flits is read from memory only after child k-1's write
   * of that flit was accepted, so every element is still added in the documented order
   * (bit-identical results). Packets (units shorter than the chunk) of child k may start once
   * child k-1 has started, if k's ejection port differs from those of the children between
   * (so a waiting packet never holds an engine its predecessors need); each flit waits for
   * k-1's completed prefix of the chunk to cover it. */
  unsigned reduce_chain;
  /* stager (docs/reference/ni.md "Staging not-due units"; RTL rtl/mt_ni_stage.sv): 0 = none (the NI without the
   * block, cycle for cycle). T > 0: once the NI has made no progress for T cycles (the
   * watchdog's stall counter) while an engine's LOOK found a reduce unit not due, such units
   * are popped and written to the staging area (input stage_base; child slot k of a flow at
   * stage_base + k * stage_slot + the unit's address), until a due unit is admitted again.
   * A per (flow, slot) byte count and head (src, chunk address) replay them later, through
   * the engines, on one extra stream (index nstreams) as if they came from the network. */
  unsigned stage_after;
  /* stager: staged ranges per NI, one pool shared by every (flow, child slot); a unit that
   * neither extends its (flow, slot)'s ranges nor finds a free one waits in its VC */
  unsigned stage_ranges;
  /* test only: 0 = exact model. 1: lockstep estimate one cycle too long. 2: the stager's
   * replayed units are taken as due even when they are not (replay out of order) */
  unsigned perturb;
} mt_ni_params;

/* Defaults: PayloadW 128, 2 VCs, L 4, 4 network ports, EjDepth 4, VcDepth 8, sub-packets of
 * 16 flits, 256-B packets, depth 64, SQ 4, RQ 4, WdW 24; layout fields must be set. */
void mt_ni_default_params(mt_ni_params *p);
/* The one meaning of 0 for the bandwidth parameters of an NI of L local ports (mt_ni_params,
 * mt_net_cfg ni_rx_engines / ni_mem_ports): rx_engines 0 = 2L, two engines per ejection port
 * (they take turns on its packets, hiding the per-packet look-up and write drain), or L (one
 * per port) when 2L exceeds MT_NI_MAX_L; mem_ports 0 = L + 2E (full bandwidth). Values other
 * than 0 are left as they are. mt_ni_check_params, mt_ni_init and the network (mt_net) all
 * resolve 0 with it. */
void mt_ni_bw_defaults(unsigned L, unsigned *rx_engines, unsigned *mem_ports);
/* 0 if legal (the RTL's $fatal checks), else -1 with a reason. */
int mt_ni_check_params(const mt_ni_params *p, mt_err *e);
/* Width of a table word in bits (mt_entry_fmt_offsets of p's widths). */
int mt_ni_entry_bits(const mt_ni_params *p);

typedef struct {
  /* configuration, stable while busy */
  uint8_t dtype;    /* MT_DTYPE_INT32 / MT_DTYPE_FP32 */
  uint8_t pkt_mode; /* 1: baseline, 256-B packets with their own heads */
  uint16_t node_id;
  uint16_t nflows;
  uint32_t base_units, rem_units, elem; /* chunk tiling (compact layout) */
  uint32_t nop_bytes;                   /* compact: NOP estimate in bytes */
  uint32_t wd_limit;                    /* 0 = off */
  uint32_t stage_base, stage_slot;      /* stager: staging area (byte address) and bytes per child slot */
  uint16_t nbr_tx[MT_NI_MAX_PORTS];     /* compact: node behind output port p */
  uint16_t nbr_rx[MT_NI_MAX_PORTS];     /* compact: node that sends to us through its port p */
  /* processor */
  uint8_t start;
  uint8_t tbl_we;
  uint32_t tbl_waddr;
  uint64_t tbl_wdata[MT_NI_EW];
  /* injection credits from the router: (l, vc) */
  uint8_t inj_credit[MT_NI_MAX_L][MT_NI_MAX_VCS];
  /* ejection flits from the router */
  uint8_t ej_valid[MT_NI_MAX_L];
  mt_flit ej_flit[MT_NI_MAX_L];
  /* memory ports (index 0 = the RTL's single port) */
  uint8_t mem_req_ready[MT_NI_MAX_MP];
  uint8_t mem_rsp_valid[MT_NI_MAX_MP];
  uint32_t mem_rsp_data[MT_NI_MAX_MP][MT_NI_MAX_LANES];
} mt_ni_in;

typedef struct {
  uint8_t inj_valid[MT_NI_MAX_L];
  mt_flit inj_flit[MT_NI_MAX_L];                 /* zero when not valid */
  uint8_t ej_credit[MT_NI_MAX_L][MT_NI_MAX_VCS]; /* one pulse per flit removed */
  uint8_t mem_req_valid[MT_NI_MAX_MP], mem_req_we[MT_NI_MAX_MP];
  uint32_t mem_req_addr[MT_NI_MAX_MP], mem_req_be[MT_NI_MAX_MP];
  uint32_t mem_req_wdata[MT_NI_MAX_MP][MT_NI_MAX_LANES];
  uint8_t busy, done, err, err_code, st;
  uint32_t err_idx, idx;
  uint16_t step;
} mt_ni_out;

typedef struct {
  uint8_t act, pm, op, hd;
  uint16_t step;
  uint32_t dst, nxt, ej, flow, addr, len, nfl, rdj, txj, pc, lastmask;
  uint32_t fifo[MT_NI_MAX_SQ][MT_NI_MAX_LANES];
  uint32_t frd, fcnt, outst;
} mt_ni_tx;

typedef struct {
  uint8_t st;  /* 0 idle, 1 look, 2 busy */
  uint32_t s;  /* stream = l * NumVcs + vc */
  uint32_t sl; /* the same stream in this engine's own list */
  uint32_t rr; /* next stream to look at (index in this engine's list) */
  uint8_t op, normal;
  uint32_t flow, src, addr, len, size, nfl, popj, wj, infl, lastmask, tidx;
  /* reduce: child position k of the message; chained (reduce_chain): started while its
   * predecessor k-1 was active in engine pe; wa = this message's writes accepted */
  uint32_t cpos, pe, wa;
  uint8_t chn;
  /* stager: this message is a not-due unit being staged out (written at addr + woff) */
  uint8_t stg;
  uint32_t woff;
  /* chained packet unit (reduce_chain, shorter than the chunk): its flits wait for the
   * predecessor child's completed prefix of the chunk; cbase = the chunk's address */
  uint8_t pk, whole;
  uint32_t cbase;
  uint32_t inq[MT_NI_MAX_RQ][MT_NI_MAX_LANES];
  uint32_t inq_rd, inq_cnt;
  uint32_t wq[MT_NI_MAX_RQ][MT_NI_MAX_LANES];
  uint32_t wq_rd, wq_cnt;
  /* the reduction unit, a ring of 1 + alu_pipe slots (the RTL's registers inside the adder and
   * its output register): a sum that enters at an edge whose alu_slot is i is held in slot i and
   * leaves for the write queue 1 + alu_pipe edges later, when alu_slot is i again */
  uint8_t alu_v[MT_NI_MAX_ALU_PIPE + 1];
  uint32_t alu_sum[MT_NI_MAX_ALU_PIPE + 1][MT_NI_MAX_LANES];
} mt_ni_rx;

/* A decoded entry (as rtl/mt_ni_entry_dec.sv). Slot node ids in compact: from nbr_tx /
 * nbr_rx of the configuration. port == all ones (2^PortW-1) is "routed". */
typedef struct {
  int op, flow, step, nchild, gap;
  int pv, pnode, pport, pej;
  int cv[MT_NI_MAX_C], cnode[MT_NI_MAX_C], cport[MT_NI_MAX_C], cej[MT_NI_MAX_C];
  uint32_t addr, size;
} mt_ni_entry;

typedef struct {
  mt_ni_params p;
  /* derived */
  unsigned lanes, fb, lg_fb, pkt_flits, nstreams, tq_depth, width;
  unsigned words;        /* 64-bit parts of a table word that the entry uses: ceil(width / 64) */
  mt_entry_fmt f;        /* p.fmt with its offsets */
  unsigned ne, nmp, ses; /* engines, memory ports, streams per engine */
  /* requesters of each memory port, in round-robin order: agent a < L is sender a,
   * a >= L engine a - L; mode 0 reads and writes (writes first), 1 reads only, 2 writes only */
  uint8_t na[MT_NI_MAX_MP], ag[MT_NI_MAX_MP][2 * MT_NI_MAX_L + 1], agm[MT_NI_MAX_MP][2 * MT_NI_MAX_L + 1];
  uint8_t wport[MT_NI_MAX_L]; /* the port that carries engine e's writes */
  /* table memory and its registered read ports: A (scan/issue), B one per engine (look-up) */
  uint64_t *tbl; /* [tbl_depth * words]: only the parts the entry width uses */
  uint64_t tba[MT_NI_EW], tbb[MT_NI_MAX_L][MT_NI_EW];
  uint32_t rb[MT_NI_MAX_L]; /* port B address registers */
  /* control */
  uint8_t st;
  uint32_t hp, ci, lock, wd, err_idx;
  uint16_t ts, prev_step;
  uint8_t err_code, done;
  /* per flow [max_flows] */
  uint8_t *rv, *gv, *root, *grx, *rdone, *cnt;
  uint8_t *act; /* reduce_chain: child positions started (>= cnt) */
  /* reduce_chain with two or more engines (mt_ni_chain.c, rtl/mt_ni_chain.sv), per (flow,
   * child position) row [max_flows * children]: RAM R of MT_NI_ROWW words (bytes of the
   * child's packets added, its completed prefix of the chunk (pwm), up to MT_NI_PEND
   * completed ranges beyond it (lo, then hi; 0/0 = free)), RAM P (its pwm), the rows written
   * since the last clear (crv); per flow the child positions complete (ccc, bit k) */
  uint32_t *crow, *cpwm;
  uint8_t *crv;
  uint64_t *ccc;
  mt_ni_ram ram_r, ram_p;
  uint32_t crd[MT_NI_ROWW], cprd; /* RAM R's and RAM P's read registers */
  /* the FIFO of completed chained packets ([cqd], head cqh, cqn held) and the update pipe's
   * stage 1 (the row read at the last edge; c1z: it reads as zero) */
  struct {
    uint32_t f, k, lo, len, size;
  } cq[2 * MT_NI_MAX_L], c1;
  uint32_t cqd, cqh, cqn;
  uint8_t c1v, c1z;
  /* the engines' working registers (pwm of row cwtag[e], held when bit e of cwv) and the
   * load in flight (engine cle, row clix; clz: it reads as zero), round-robin pointer crrp */
  uint32_t cwv, cwtag[MT_NI_MAX_L], cwpwm[MT_NI_MAX_L];
  uint8_t clv, clz;
  uint32_t cle, clix, crrp;
  uint32_t *ridx, *gidx, *rxb;
  uint32_t drr; /* the deps write port (rxb): the round-robin pointer of its grant */
  /* senders, credits */
  mt_ni_tx tx[MT_NI_MAX_L];
  uint16_t cred[MT_NI_MAX_L][MT_NI_MAX_VCS];
  /* ejection FIFOs [stream][slot] */
  mt_flit *ej;
  uint32_t ej_rd[MT_NI_MAX_L * MT_NI_MAX_VCS + 1], ej_cnt[MT_NI_MAX_L * MT_NI_MAX_VCS + 1]; /* + the stager's replay stream */
  mt_ni_rx rx[MT_NI_MAX_L];
  /* memory ports: request registers (valid; the request itself is q.mem_req_*), round-robin
   * pointers, tag FIFOs [nmp][tq_depth] */
  uint8_t rq_v[MT_NI_MAX_MP];
  uint8_t rq_ag[MT_NI_MAX_MP]; /* requester of the request held (reduce_chain bookkeeping) */
  uint8_t *tq;
  uint32_t tq_rd[MT_NI_MAX_MP], tq_cnt[MT_NI_MAX_MP], mrr[MT_NI_MAX_MP];
  mt_ni_out q; /* registered outputs */
  uint64_t cycles;
  /* speed only (no RTL state): decoded-entry caches of the table read ports (valid until the
   * port's register is reloaded; the configuration-dependent fields are re-derived every
   * step), bit masks that follow the blocks' state, and the global stream of entry i in
   * engine e's list */
  mt_ni_entry dce[1 + MT_NI_MAX_L]; /* 0: port A, 1 + e: engine e's port B */
  uint8_t dcok[1 + MT_NI_MAX_L];    /* dce[c] decodes the word in read port c (cleared when the port is reloaded) */
  uint32_t tbad[1 + MT_NI_MAX_L];   /* the table address read port c last copied (ports reload only when it changes) */
  uint8_t tbw;                      /* the table was written since the read ports were last copied: copy them all */
  uint8_t rxld, rxlk, rxbz;         /* engines in LOAD / LOOK / BUSY (rx[e].st 3 / 1 / 2), bit per engine */
  uint8_t aluv;                     /* engines with a sum in their reduction unit (rx[e].alu_v) */
  uint8_t alu_slot;                 /* the reduction units' slot of this edge: 0..alu_pipe, in turn */
  uint8_t txact;                    /* packetisers active (tx[l].act), bit per port */
  uint32_t vcm;                     /* VC field mask of a flit (VcW bits): mt_flit_vc without the clog2 */
  uint64_t credm;                   /* bits l * 8 + v of the live injection credits (l < L, v < NumVcs) */
  uint8_t ncred;                    /* q.ej_credit has a pulse set */
  const mt_ni_out *ob[2];           /* the last two output buffers written */
  uint32_t obi[2], obm[2];          /* their valid injection / memory ports */
  uint8_t obc[2];                   /* their ej_credit had a pulse */
  uint8_t estr[MT_NI_MAX_L][MT_NI_MAX_L * MT_NI_MAX_VCS];
  uint64_t engm[MT_NI_MAX_L];                /* streams of engine e (bit = stream) */
  uint8_t seng[MT_NI_MAX_L * MT_NI_MAX_VCS]; /* the engine of stream g, as a bit (engm inverted) */
  uint8_t scr[MT_NI_MAX_L * MT_NI_MAX_VCS];  /* stream g's credit pulse: index (l * MT_NI_MAX_VCS + vc) into ej_credit */
  uint64_t ejnz;                             /* streams whose ejection FIFO is not empty */
  uint32_t apm[2 * MT_NI_MAX_L + 1][3];      /* agent a, mode: the memory ports it requests on */
  /* stager (p.stage_after > 0; mt_ni_stage.c): agent L + E of memory port 0 (M = 1) or L
   * (engine 0's read port); replay stream R = nstreams (ejection FIFO slot nstreams, no
   * credits), in every engine's list after its own streams */
  uint8_t sgon;                            /* stalled T cycles with a not-due head: stage not-due units */
  uint8_t sgst;                            /* 0 scan, 1 head offered on R, 2 streaming into R, 3 reading H, 4 reading Q */
  uint8_t *sgnz;                           /* per (flow, slot): has staged units (flip-flops) */
  uint32_t *sghm, sghr[2];                 /* RAM H [flow x slot]: {first range, child id}; read register */
  uint32_t *sgqm, sgqr[3];                 /* RAM Q [stage_ranges]: {lo, hi, next}; read register */
  mt_ni_ram ram_h, ram_q;                  /* (a range index stage_ranges: none) */
  uint32_t sgfree, sgbump, sgused, sgpeak; /* free list; never used from sgbump on; in use, most in use since init */
  uint32_t nsg;                            /* (flow, slot) entries with staged units */
  uint32_t sgp;                            /* scan pointer: next (flow, slot) to offer */
  uint32_t sgx, sgq, sgnq, sgsrc;          /* replay: entry, range, its next, the child's id */
  uint32_t sga, sgl, sgj, sgn, sgo;        /* ... address, bytes, reads granted, flits, outstanding */
  uint8_t swst;                            /* list walker: 0 idle, 1 head, 2 walk, 3 decide, 4 allocate, 5 link, 6 free */
  uint32_t swx, swa, swb, swsrc;           /* ... the claim [a, b) of entry x, the child's id */
  uint32_t swhead, swcur, swprev, swnn;    /* ... x's first range, the one read, the one before the claim, the new one */
  uint32_t swplo, swphi;                   /* ... prev's [lo, hi) */
  uint32_t swq, swqlo, swqhi, swqnx;       /* ... the range at or after the claim: index, lo, hi, next */
  uint8_t srel;                            /* a replayed range to unlink (release) ... */
  uint32_t srx, srq, srnx, srsrc;          /* ... of entry x, range q, its next, x's child id */
  uint8_t sgpv;                            /* engines with a staging write in flight (bit per engine) ... */
  uint32_t sgpx[MT_NI_MAX_L];              /* ... to this (flow, slot) */
  uint64_t sg_out, sg_rep;                 /* statistics: units staged out, replays admitted */
} mt_ni;

int mt_ni_init(mt_ni *s, const mt_ni_params *p, mt_err *e);
void mt_ni_free(mt_ni *s);
/* Back door, the same as the RTL's $readmemh image: n words of `stride` 64-bit parts, of which
 * the first `words` (the entry width) are kept. */
void mt_ni_table_load(mt_ni *s, const uint64_t *words, unsigned n, unsigned stride);
/* *out receives all of the registered outputs. When out is one of the two buffers this NI
 * wrote last, only the parts that can differ from what it wrote there are written (fields of
 * ports not valid then and now, and outside the live ranges, are 0 already). So a caller must
 * not write into an output buffer it passes again, nor let another NI write into it (mt_net,
 * the mt_ni_env users and the co-simulation do neither). Any other buffer is written in full. */
void mt_ni_step(mt_ni *s, const mt_ni_in *in, mt_ni_out *out);

void mt_ni_decode(const mt_ni *s, const mt_ni_in *cfg, const uint64_t *w, mt_ni_entry *en);

#ifdef __cplusplus
}
#endif
#endif
