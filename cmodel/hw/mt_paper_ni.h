/* SPDX-License-Identifier: Apache-2.0
 * mt_paper_ni: the network interface as the MultiTree paper's own simulator modelled it
 * (github farabimahmud/accelerator, src/hmc.py and src/booksim.py; docs/reference/papersim.md), for
 * `multitree sim --config paper-sim`. A behavioural C model with no RTL: it models the
 * paper's system, not this project's NI. It is driven through the same mt_ni_in / mt_ni_out
 * ports as mt_ni (the network cannot tell them apart) and follows these rules:
 *  - R NI ports (the first R local ports); each sends one flow at a time, flit by flit; a
 *    port is free again once the last of its flow has entered its send buffers (sendq units
 *    of pkt_bytes; 0: once its last flit is injected);
 *  - a received child flow is kept until all of it has arrived, then queued for the
 *    accelerator, which aggregates one child flow at a time in
 *    ceil(ceil(P / acc_pes) / acc_width) * acc_pes cycles (P elements, npu.py aggregate);
 *    a parent sends a flow once every child of it is aggregated;
 *  - steps in table order; in a step any ready entry takes any free port; with strict a step
 *    starts only when all R ports are free; with nop_wait a NOP step lasts the lockstep
 *    estimate (2x after a sending step), else it is skipped;
 *  - heads carry the step (the routers' step priority) when step_prio, else reduce heads
 *    carry step 0 (booksim priority 0) and gather heads their step.
 * The gradient buffer is read and written through a back door (the paper's simulator models
 * no NI memory traffic); the memory ports stay idle. A flow's sum is formed in the documented
 * child order when its last child is aggregated, so every result is bit-exact with mt_ref. */
#ifndef MT_PAPER_NI_H
#define MT_PAPER_NI_H
#include <stdint.h>
#include "util/mt_err.h"
#include "hw/mt_mem.h"
#include "hw/mt_ni.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned payload_w, num_vcs, nlocal, vc_depth, subpkt_flits, pkt_bytes, inj_vc;
  unsigned ports;       /* R: NI ports that send (hmc.py --radix), 1..nlocal */
  unsigned strict;      /* hmc.py --strict-schedule: a step starts only with all R ports free */
  unsigned nop_wait;    /* hmc.py --estimate-lockstep: NOP steps wait for the estimate; 0 skips them */
  unsigned step_prio;   /* hmc.py --prioritize-schedule: reduce heads carry their step */
  unsigned sendq;       /* units of pkt_bytes a port's send buffers hold (hmc.py load_model: 58) */
  unsigned acc_width;   /* accelerator: elements aggregated per cycle per PE group (npu.py: 32) */
  unsigned acc_pes;     /* accelerator: PEs (hmc.py num_vaults: 16) */
  uint64_t chunk_bytes; /* S / N, the lockstep estimate's data per flow (hmc.py load_model) */
  unsigned keep_data;   /* 0: timing only (--data none) */
  unsigned perturb;     /* test only: 1 ignores strict, 2 aggregates in zero cycles */
} mt_pni_params;

typedef struct {
  uint32_t e; /* entry index */
  uint32_t dst, nxt, ej, flow, op, step, pm;
  uint32_t addr, len, nfl; /* chunk and payload flits */
  uint32_t txj, pc, hd;    /* payload flits sent, flit in packet/sub-packet, head sent */
} mt_pni_job;

#define MT_PNI_JOBS 64 /* jobs queued on one port (its send buffers) */

typedef struct {
  mt_pni_job q[MT_PNI_JOBS];
  uint32_t rd, cnt;
  uint64_t left; /* payload bytes of its jobs not yet sent */
} mt_pni_port;

typedef struct {
  uint8_t act, op, pm;
  uint32_t flow, k, addr, len, off;
} mt_pni_rx;

typedef struct {
  mt_pni_params p;
  unsigned fb, L, nflows, ns, routed; /* routed: the port value of a routed slot */
  mt_mem *mem;
  uint16_t node;
  /* the table, decoded once (up to END) */
  mt_ni_entry *en;
  uint32_t ne;
  /* per flow */
  int32_t *ridx;
  uint8_t *root, *rdone, *grx;
  uint32_t *cnt, *caddr, *csize, *gk; /* children aggregated; chunk; gather entries: next child (per entry) */
  uint32_t *gsum;                     /* gather bytes received */
  /* per (flow, child position) */
  uint32_t maxc;
  uint32_t *rxb;  /* bytes received */
  uint32_t **stg; /* the child's data until aggregated */
  uint8_t *fin;   /* per entry: fully assigned */
  /* accelerator queue (flow, position) and the one in progress */
  uint32_t *aq, aq_rd, aq_cnt, aq_cap;
  uint64_t *aq_t;
  uint8_t acc_busy;
  uint32_t acc_f, acc_k;
  uint64_t acc_end;
  /* issue */
  uint8_t started, done, err, new_step, last_nop, any_assigned;
  uint32_t hp, step;
  uint64_t cyc, t_start, t_last, nop_end, nop_prev, est, wd;
  mt_pni_port port[MT_NI_MAX_L];
  uint16_t cred[MT_NI_MAX_L][MT_NI_MAX_VCS];
  mt_pni_rx rx[MT_NI_MAX_L * MT_NI_MAX_VCS];
  uint32_t wd_limit;
  uint8_t err_code;
  uint64_t agg_cycles, aggs; /* statistics: accelerator cycles, child flows aggregated */
} mt_pni;

/* The lockstep estimate of hmc.py load_model in cycles: P = ceil(chunk / pkt_bytes) units,
 * P if P <= sendq, else P * (unit flits) - sendq * (pkt_bytes / flit bytes); unit flits are
 * pkt_bytes / flit bytes, + 1 (the head) in packet mode. */
uint64_t mt_pni_estimate(const mt_pni_params *p, int pkt_mode);
/* Accelerator cycles to aggregate one child flow of `bytes` (npu.py aggregate). */
uint64_t mt_pni_agg_cycles(const mt_pni_params *p, uint64_t bytes);
int mt_pni_check_params(const mt_pni_params *p, mt_err *e);
/* Decode the table the project's NI t holds (its layout, cfg's compact tiling) and bind the
 * node's buffer mem (the back door). */
int mt_pni_init(mt_pni *s, const mt_pni_params *p, const mt_ni *t, const mt_ni_in *cfg, mt_mem *mem, mt_err *e);
void mt_pni_free(mt_pni *s);
/* One rising edge, as mt_ni_step: samples *in, fills *out in full. */
void mt_pni_step(mt_pni *s, const mt_ni_in *in, mt_ni_out *out);

#ifdef __cplusplus
}
#endif
#endif
