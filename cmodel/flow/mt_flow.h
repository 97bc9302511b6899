/* SPDX-License-Identifier: Apache-2.0
 * mt_flow: the flow-level simulator (issue #15 item 5; docs/reference/flowsim.md). Messages move on
 * paths of directed links as fluids, no flits: a link has a capacity (bytes per time unit)
 * and a latency; the messages crossing a link share it max-min fairly (the cycle model's
 * routers interleave competing messages flit by flit, round robin); a message's last byte
 * reaches its destination the path latency after it left the source.
 *
 * Units: on topologies whose links carry a bandwidth (dims:, dimsfile:, themis:; mt_edge.bw
 * in GB/s = bytes/ns, mt_edge.lat in ns) time is in ns; on the others (tori, meshes, switch
 * networks) it is in cycles of the cycle model's configuration (payload_w/8 bytes per cycle
 * per link, link_lat cycles) and the NI's costs are added (header flits, router pipeline,
 * credit loop, NOP lockstep) so that the time estimates `multitree sim`'s cycles.
 *
 * Two front ends: any mt_sched run with the NI's issue rules (mt_flow_run_sched), and a
 * chunked dimension schedule run directly (mt_flow_run_cs, mt_flow_cs.c). */
#ifndef MT_FLOW_H
#define MT_FLOW_H
#include <stdint.h>
#include "plan/mt_chunksched.h"
#include "plan/mt_sched.h"
#include "topo/mt_bound.h"
#ifdef __cplusplus
extern "C" {
#endif

enum { MT_FLOW_NS,
       MT_FLOW_CYCLES };

typedef struct {
  int units;        /* MT_FLOW_NS or MT_FLOW_CYCLES */
  double link_bpu;  /* cycles: bytes per cycle of a unit link (payload_w / 8) */
  double link_lat;  /* cycles: latency of every link */
  double hop_extra; /* cycles: router pipeline added per link of a path */
  double ni_extra;  /* cycles: NI costs added once per message (inject, eject, reduce) */
  double msg_cap;   /* bytes per unit one message can move on a link (credit loop); 0: none */
  double pkt_cap;   /* the same for a message in packets (virtual cut-through: a packet waits for room for all of it) */
  int flit_bytes;   /* cycles: payload bytes per flit (header and NOP lockstep); 0: no headers */
  int pkt_bytes;    /* packet flow control: a header flit per pkt_bytes */
  int pkt_mode;     /* 1: every message in packets; 0: only routed (multi-hop) ones (the NI's rule) */
  int overlap;      /* front end 2: a dimension starts its next stage's wire time while earlier stages
                       still wait on latency (Themis Section 4.3: several chunks per dimension when
                       one cannot saturate it); 0: one stage at a time */
  int lockstep;     /* a NOP entry holds the node ceil(size / flit_bytes) cycles (docs/reference/ni.md) */
  int local_ports;  /* L, packetisers per node; <= 0: the node's router ports */
  int reference;    /* tests: solve every message's rate at every change (mt_flow_eng_reference) */
  int num_vcs;      /* cycles, tori and meshes: VCs per port for the head-of-line rule (routed packets
                       queue in num_vcs / 2 input VCs per dateline class on a torus, num_vcs on a mesh;
                       docs/reference/flowsim.md "Head-of-line blocking"); 0: rule off */
  int stage_after;  /* with the rule: the NI stager's T (ni_stage_after): after T cycles without progress at a
                       receiver holding a not-due routed message, it takes not-due messages for the rest of the run
                       (docs/reference/ni.md "Staging not-due units"); 0: never */
} mt_flow_params;

/* Time in ns from the links' bw and lat (no NI costs). */
void mt_flow_params_ns(mt_flow_params *p);
/* Cycles of the cycle model's configuration: flit payload bytes, link latency, VC depth
 * (flits), packet bytes, packet mode, local ports. */
void mt_flow_params_cycles(mt_flow_params *p, int flit_bytes, int link_lat, int vc_depth, int pkt_bytes, int pkt_mode, int local_ports);
/* ns when every link of t has a bandwidth, else cycles (1, 0 otherwise). */
int mt_flow_topo_has_bw(const mt_topo *t);

#define MT_FLOW_MAX_DIMS 8
typedef struct {
  double time;      /* completion: the last byte at its last receiver, in the units above */
  double bound;     /* the lower bound: bounds.bound */
  mt_bound bounds;  /* topo/mt_bound's bounds on the links' capacities, in the units above */
  double util_mean; /* bytes carried / (time x capacity), mean over the links that carried any */
  double util_max;
  int ndims;                         /* links grouped by mt_edge.dim (0 when none has one) */
  double dim_util[MT_FLOW_MAX_DIMS]; /* per dimension: bytes carried / (time x its capacity) */
  double dim_busy[MT_FLOW_MAX_DIMS]; /* front end 2: the fraction of the time the dimension ran a stage */
  uint64_t messages, events, solves; /* pieces sent, events handled, max-min solves */
  uint64_t steady;                   /* pieces started back to back on an unchanged path (no solve) */
  uint64_t solved;                   /* message rates the solves computed (front end 1) */
} mt_flow_result;

/* Front end 1: s with the NI's issue rules (docs/reference/flowsim.md "Front end 1"); link_util (may
 * be NULL; [topo->n_links]) gets each link's utilisation. -1 with the reason (e.g. a node
 * that can never issue its next entry, naming it) in e. */
int mt_flow_run_sched(const mt_sched *s, const mt_flow_params *p, mt_flow_result *r, double *link_util, mt_err *e);
/* Front end 2: a chunked dimension schedule on t (its view cs->v must be t's), one message
 * per NPU per link per collective step (docs/reference/flowsim.md "Front end 2"). */
int mt_flow_run_cs(const mt_chunksched *cs, const mt_topo *t, const mt_flow_params *p, mt_flow_result *r, mt_err *e);

/* The hierarchical baseline as a chunk schedule: `bytes` in `chunks` chunks of whole `elem`-
 * byte elements (earlier chunks take the remainder), every chunk reduce-scattering dims
 * 1..D and all-gathering D..1, each dimension's queue first come, first served under p's
 * timing. A stand-in producer until the Themis planner's (docs/reference/flowsim.md). */
int mt_flow_cs_baseline(mt_chunksched *cs, const mt_topo *t, const mt_flow_params *p, uint64_t bytes, int elem, int chunks, mt_err *e);

/* ---- shared by the front ends ---- */
/* Per-link capacity (bytes per unit; mult parallel links as one pipe of mult x bw) and
 * latency (ns: mt_edge.lat; cycles: link_lat + hop_extra); -1 when ns lacks a bandwidth. */
int mt_flow_links(const mt_topo *t, const mt_flow_params *p, double *cap, double *lat, mt_err *e);
/* Bytes on the wire for `size` payload bytes (cycles: header flits; packets: one per pkt_bytes). */
double mt_flow_wire(const mt_flow_params *p, uint64_t size, int packets);
/* Utilisation and bound into r (r->time set) from the bytes each link carried. */
void mt_flow_finish(const mt_topo *t, const double *cap, const double *lbytes, uint64_t bytes, mt_flow_result *r, double *link_util);
/* r->bounds and r->bound: the lower bounds of `bytes` on links of capacity cap (bytes per unit). */
void mt_flow_bound(const mt_topo *t, const double *cap, uint64_t bytes, mt_flow_result *r);

/* ---- the engine (used by the front ends; exposed for tests) ---- */
typedef struct mt_flow_eng mt_flow_eng;
/* n_links links of capacity cap[l] (bytes per unit, > 0) and latency lat[l]; msg_cap as above. */
mt_flow_eng *mt_flow_eng_new(int n_links, const double *cap, const double *lat, double msg_cap);
void mt_flow_eng_free(mt_flow_eng *g);
/* on: solve all the active messages' rates whenever the set changes, as the first engine did
 * (the tests' reference; off, the default: only the components a change touched, with the
 * same result). */
void mt_flow_eng_reference(mt_flow_eng *g, int on);
/* The head-of-line rule: routed packets queue in vcs_per_class input VCs per (link, class)
 * (0: off, the default). */
void mt_flow_eng_hol(mt_flow_eng *g, int vcs_per_class);
/* A new stream (a sender that holds at most one message at a time): its id. */
int mt_flow_eng_stream(mt_flow_eng *g);
/* Start a message of `bytes` (wire bytes) on idle stream sid along links[0..n) at the
 * current time, at most `cap` bytes per unit (<= 0: the engine's msg_cap); tag comes back
 * with its end. */
void mt_flow_eng_start(mt_flow_eng *g, int sid, const int *links, int n, double bytes, double cap, int64_t tag);
/* The same for routed packets: cls[i] (0 or 1) the VC class of hop i; with the head-of-line
 * rule on, they count in the input-VC groups (cls NULL or the rule off: mt_flow_eng_start). */
void mt_flow_eng_start_pkt(mt_flow_eng *g, int sid, const int *links, int n, double bytes, double cap, int64_t tag, const uint8_t *cls);
/* HOL rule: a routed stream not due at its receiver (on) moves nothing and blocks the
 * routed streams that share its input VCs; off when it becomes due (a start clears it). */
void mt_flow_eng_stall(mt_flow_eng *g, int sid, int on);
/* A timer: event (kind >= 1, id) at time t >= now. */
void mt_flow_eng_at(mt_flow_eng *g, double t, int kind, int64_t id);
/* The next event: 1 and its time, kind (0: a message's last byte left its source: id is
 * the stream, *tag the message's) and id; 0 when nothing is left. Call mt_flow_eng_settle
 * before popping an event later than the ones handled (it recomputes the rates). */
int mt_flow_eng_pop(mt_flow_eng *g, double *t, int *kind, int64_t *id, int64_t *tag);
/* Time of the next event (infinity when none). */
double mt_flow_eng_peek(mt_flow_eng *g);
/* After the events of one time were handled: streams that ended and were not restarted on
 * the same path release their links; the rates are solved again when the set changed. */
void mt_flow_eng_settle(mt_flow_eng *g);
double mt_flow_eng_now(const mt_flow_eng *g);
int mt_flow_eng_busy(const mt_flow_eng *g, int sid);
/* The rate stream sid moves at now (0: idle, stalled or blocked). */
double mt_flow_eng_rate(const mt_flow_eng *g, int sid);
/* Bytes each link has carried so far ([n_links]). */
const double *mt_flow_eng_link_bytes(const mt_flow_eng *g);
void mt_flow_eng_stats(const mt_flow_eng *g, uint64_t *events, uint64_t *solves, uint64_t *steady);
/* Streams whose rates were solved, summed over the solves (the work the incremental solve saves). */
uint64_t mt_flow_eng_solved(const mt_flow_eng *g);

#ifdef __cplusplus
}
#endif
#endif
