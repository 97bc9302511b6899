/* SPDX-License-Identifier: Apache-2.0
 * mt_net: an X x Y (x Z) torus or mesh of nodes, each a router (mt_router), a network
 * interface (mt_ni) and its gradient buffer (mt_mem), wired by link delay lines
 * (mt_link) of the configured latency; the NI talks to the router's local ports
 * directly (latency 1). Cycle-accurate: every block is a Moore machine, so a cycle
 * computes every block's inputs from the previous cycle's registered outputs and then
 * takes every block's edge. Runs one all-reduce (or several back to back) from the
 * planner's tables and checks every node's buffer against mt_ref_result. */
#ifndef MT_NET_H
#define MT_NET_H
#include <stdint.h>
#include <stdio.h>
#include "table/mt_layout.h"
#include "hw/mt_link.h"
#include "hw/mt_mem.h"
#include "hw/mt_ni.h"
#include "hw/mt_paper_ni.h"
#include "hw/mt_router.h"
#include "plan/mt_sched.h"
#include "net/mt_net_cfg.h" /* mt_net_cfg: the configuration, named ones as files (configs/net/) */
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  uint64_t cycles;
  uint64_t bytes;
  int done, correct;
  uint64_t wrong_words;                         /* summed over nodes */
  int err_node, err_code;                       /* first NI error (-1: none) */
  int router_err;                               /* a router watchdog, overflow or route flag */
  int rerr_node, rerr_port, rerr_vc, rerr_kind; /* the first such flag: where, and 0 watchdog, 1 overflow, 2 no route (switch) */
  double util_mean, util_max;                   /* flits per cycle over the network links */
  uint64_t link_flits;
  double lb_cycles;       /* 2(N-1)S / (N d B), the aggregate bound; sim replaces it by mt_net_bound's */
  int threads;            /* threads the run used: mt_net_cfg.threads capped (docs/reference/network.md "Threads"); 1 cycle by cycle */
  uint64_t checked_words; /* per node: the words checked against the reference (all of them at --data full, 0 at none) */
} mt_net_result;

typedef struct mt_net mt_net;

/* Build the network for schedule s (tables tb) with configuration c (its flow control:
 * c->flow, MT_NET_FLOW_*) and data type dtype (MT_DTYPE_*). */
mt_net *mt_net_new(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, mt_err *e);
/* The same with a fixed hardware table layout (an RTL build's): the schedule's layout is
 * fitted into hw (mt_layout_fit; error if it does not fit), the NIs get tbl_depth table
 * words and max_flows per-flow entries (0: what the tables need). hw NULL, 0, 0 is
 * mt_net_new. */
mt_net *mt_net_new_layout(const mt_net_cfg *c, const mt_sched *s, const mt_tables *tb, int dtype, const mt_layout *hw, unsigned tbl_depth,
                          unsigned max_flows, mt_err *e);
void mt_net_free(mt_net *n);
/* ni_model=1 (docs/reference/papersim.md): the paper NI's parameters for schedule s on a network of L
 * local ports; the local ports to plan algo with (the paper's radix: 1 for the baselines, 0 =
 * 2 x dimensions for multitree and ring2d; c->local_ports when set or ni_model=0); the child
 * flows the NIs' accelerators aggregated and the cycles they took, summed over the nodes. */
void mt_net_paper_params(const mt_net_cfg *c, const mt_sched *s, unsigned L, mt_pni_params *p);
int mt_net_paper_local_ports(const mt_net_cfg *c, const char *algo);
void mt_net_paper_stats(const mt_net *n, uint64_t *aggs, uint64_t *cycles);
/* Flits per NI ejection VC (the NIs' EjDepth and the credits of the routers' local outputs):
 * on a torus or mesh the NI sits behind a router's 1-cycle local port, ej_depth; in a switch
 * network (sw) it sits at the end of an NI link, a Table III link whose receive VCs cover its
 * credit round trip as every link's do: ni_link_depth, 0 = vc_depth (docs/reference/switch.md "The NI link"). */
unsigned mt_net_ej_depth(const mt_net_cfg *c, int sw);
/* Bytes the gradient buffers of a run of schedule s take at least in data mode data
 * (MT_NET_DATA_*): every node's memory (full: the buffer; sample: its sampled pages; none:
 * nothing) and the reference's partial sums of one range (nodes x MT_NET_REF_WORDS words);
 * the routers, NIs and links add little beside them at full. For refusing a run up front. */
uint64_t mt_net_mem_estimate(const mt_sched *s, unsigned data);
/* The reference is computed and compared in ranges of this many words (mt_ref_result_range). */
#define MT_NET_REF_WORDS 65536u
/* Load seeded inputs (mt_ref_inputs) into the memories and start every NI: the NIs' start
 * input is set in the next cycle stepped (after the table writes of a pending mt_net_load).
 * Back to back (docs/reference/network.md "Back-to-back all-reduces"): after a finished
 * all-reduce it starts the next one without a reset (the routers, links, FIFOs and credits
 * keep their state); -1 while a run is started and not run, or not finished, or after one
 * stopped on an error. */
int mt_net_start(mt_net *n, uint32_t seed, mt_err *e);
/* Another schedule s (tables tb) for the next all-reduce, on an idle network (as
 * mt_net_start's refusals): planned on the same topology, at most the bytes of mt_net_new's
 * schedule, fitting the network's table layout, table depth and flow entries. Its tables are
 * written through every NI's table write port, one word per cycle stepped from now (the NIs'
 * table depth in cycles); the NI configuration and watchdog limits become s's. Then
 * mt_net_start (its start follows the writes). s and tb must outlive the network or the next
 * mt_net_load. -1 with the reason (the network unchanged). */
int mt_net_load(mt_net *n, const mt_sched *s, const mt_tables *tb, mt_err *e);
/* --trace: from now on write one CSV line per network-interface event to f (header
 * "cycle,node,event,unit,flow,step,peer,bytes"; events step, send, sent, reduce, gather,
 * received; docs/reference/network.md). NULL stops. -1 if the header cannot be written. */
int mt_net_set_trace(mt_net *n, FILE *f);
/* One cycle. */
void mt_net_step(mt_net *n);
/* Run the all-reduce of the last mt_net_start until every NI is done, an error, or max_cycles
 * after its start; then check the buffers. r->cycles counts from the start pulse (the table
 * writes of mt_net_load before it are stepped but not counted). -1 without a new
 * mt_net_start.
 * progress: NULL, or where to write a line every ~10 s of wall time. For speed it lets each node
 * run up to link_lat - 1 cycles before the next (docs/results/bench.md); the result, and the state
 * of every block after it, are those of mt_net_step cycle by cycle. */
int mt_net_run(mt_net *n, mt_net_result *r, FILE *progress, mt_err *e);
/* Node n's buffer (bytes/4 words; NULL unless --data full), and the inputs it started with
 * (generated on the first call after mt_net_start and kept; NULL before it). */
const uint32_t *mt_net_buffer(const mt_net *n, int node);
const uint32_t *mt_net_input(mt_net *n, int node);

/* Read-only views for co-simulation (tb/cosim/cosim_net.cpp); none changes the model.
 * Cycles stepped so far, nodes, NI memory ports, the table layout, and the effective
 * router watchdog limit every router gets. */
uint64_t mt_net_cycle(const mt_net *n);
int mt_net_nodes(const mt_net *n);
unsigned mt_net_mem_ports(const mt_net *n);
/* The NI stagers (ni_stage_after, docs/reference/ni.md "Staging"): units staged out and replays
 * admitted, summed over the nodes; nodes that staged anything; the most staged ranges one NI
 * held at once (of ni_stage_ranges). */
void mt_net_stage_stats(const mt_net *n, uint64_t *out, uint64_t *rep, int *nodes, unsigned *peak);
const mt_layout *mt_net_layout(const mt_net *n);
uint32_t mt_net_router_wd_limit(const mt_net *n);
/* Node i's NI configuration inputs (everything of mt_ni_in but start, table, credits,
 * flits and memory: the harness drives the RTL NI with the same). */
const mt_ni_in *mt_net_ni_cfg(const mt_net *n, int node);
/* Directed network links: count, and link k's ends (flits from src's output port src_port
 * to dst's input port dst_port; credits of src's input port src_port ride along to dst's
 * output port dst_port). */
int mt_net_num_links(const mt_net *n);
void mt_net_link_ends(const mt_net *n, int k, int *src, int *src_port, int *dst, int *dst_port);
/* What link k presented to its receiver during the last cycle stepped (flit, valid, credit
 * bit per VC); zeros before the first step. */
const mt_link_slot *mt_net_link_slot(const mt_net *n, int k);
/* Registered outputs of node i's router and NI after the last cycle stepped. */
const mt_router_out *mt_net_router_out(const mt_net *n, int node);
const mt_ni_out *mt_net_ni_out(const mt_net *n, int node);
/* Node i's gradient buffer model (the same mt_mem the NI's memory ports are served by). */
const mt_mem *mt_net_mem(const mt_net *n, int node);
/* Test only: set the perturbation flags of every router (mt_router_params.perturb) and NI
 * (mt_ni_params.perturb) after mt_net_new; 0, 0 is the exact model (the default). */
void mt_net_set_perturb(mt_net *n, unsigned router_perturb, unsigned ni_perturb);
/* Test only: switch networks, replace switch sw's route table entry for destination node dst
 * (MT_RT_TAB) after mt_net_new; -1 if the network has no such switch or the entry does not fit
 * the switch (a perturbed table must be caught by the run: docs/reference/switch.md "Tests"). */
int mt_net_set_route(mt_net *n, int sw, int dst, uint16_t entry, mt_err *e);
/* What a stopped network holds, a line per non-empty buffer (deadlock diagnosis); max_lines 0: all */
void mt_net_dump(const mt_net *n, FILE *f, unsigned max_lines);

#ifdef __cplusplus
}
#endif
#endif
