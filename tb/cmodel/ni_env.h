/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_env: the scripted environment of one network interface under test (test use:
 * tb/cmodel/test_ni.c drives the C model with it, tb/cosim/cosim_ni.cpp drives the C model
 * and the RTL with the same inputs). It plays the rest of the system for node `node`:
 *  - the processor: writes the table through the write port, starts, waits for done;
 *  - the memory: a behavioural gradient buffer behind the valid/ready port(s) (every port
 *    of params.mem_ports, served in port-index order at an edge), random ready and random
 *    in-order response latency per port (xorshift32);
 *  - the network: delivers every message the node receives per the tables (reduce
 *    partials from its children, gathers from its parent, payloads from mt_ref) on the
 *    slot's ejection port and a random free VC, with random delays and credits; drains the
 *    injection ports at random and returns credits; checks every injected message (header
 *    fields and payload against mt_ref) and finally the buffer against mt_ref_result.
 * Per cycle: mt_ni_env_comb(env, &in) gives the NI inputs of this cycle; after the NI's
 * edge, mt_ni_env_edge(env, &out_prev) takes the environment's edge (out_prev = the NI
 * outputs during this cycle, i.e. those returned by the previous step). */
#ifndef MT_NI_ENV_H
#define MT_NI_ENV_H
#include <stdint.h>
#include "hw/mt_ni.h"
#include "table/mt_layout.h"
#include "plan/mt_sched.h"
#ifdef __cplusplus
extern "C" {
#endif

/* deliberate faults (error-path tests) */
enum {
  MT_NI_F_NONE = 0,
  MT_NI_F_TBL_STEP,  /* an entry's step below its predecessor's */
  MT_NI_F_TBL_FLOW,  /* an entry's flow >= nflows */
  MT_NI_F_TBL_PORT,  /* a slot's port out of range */
  MT_NI_F_TBL_ENTRY, /* a Gather without children */
  MT_NI_F_TBL_NOEND, /* END word removed, table full of entries */
  MT_NI_F_RX_FLOW,   /* an incoming reduce names a flow out of range */
  MT_NI_F_RX_SRC,    /* an incoming reduce from a node that is not a child */
  MT_NI_F_RX_RANGE,  /* an incoming message with a shifted address */
  MT_NI_F_RX_FRAME,  /* a payload flit typed Head */
  MT_NI_F_EJ_OVF,    /* the network ignores the NI's credits */
  MT_NI_F_DROP,      /* one incoming message never delivered (watchdog) */
  MT_NI_F_COUNT
};
const char *mt_ni_fault_name(int f);
int mt_ni_fault_code(int f); /* the error code the NI must report */

typedef struct {
  uint32_t seed; /* PRNG for delays and inputs */
  int dtype, pkt_mode;
  int fault;
  unsigned p_ready;   /* % of cycles the memory is ready */
  unsigned lat_max;   /* memory latency 1..lat_max */
  unsigned p_flit;    /* % of cycles a port offers a flit */
  unsigned p_drain;   /* % of cycles a router input buffer frees a slot */
  unsigned max_delay; /* cycles between the messages of one source */
  uint32_t wd_limit;
} mt_ni_env_run;
/* The usual run: memory ready 70 %, latency 1..6, ports 80 %, drain 60 %, up to 40 cycles
 * between messages, watchdog 5000, no fault. */
mt_ni_env_run mt_ni_env_run_default(uint32_t seed, int dtype, int pkt_mode);

typedef struct mt_ni_env mt_ni_env;

/* Builds the scenario of node `node` (tables encoded in layout ly). */
mt_ni_env *mt_ni_env_new(const mt_sched *s, const mt_tables *tb, const mt_layout *ly, const mt_topo *t,
                         int node, const mt_ni_params *p, mt_err *e);
void mt_ni_env_free(mt_ni_env *env);
/* Prepares one all-reduce (inputs from run->seed); the table is written at the first run
 * only (later runs are back to back without reset). */
int mt_ni_env_begin(mt_ni_env *env, const mt_ni_env_run *run, mt_err *e);
void mt_ni_env_comb(mt_ni_env *env, mt_ni_in *in);
void mt_ni_env_edge(mt_ni_env *env, const mt_ni_out *out_prev);
/* 1 when the NI reported done or error (and the environment has seen it), 0 otherwise */
int mt_ni_env_finished(const mt_ni_env *env);
/* Final checks: buffer vs mt_ref_result, all messages sent and delivered. Returns the
 * number of failures (details to stderr, prefixed with tag), adds passes to *pass. */
unsigned mt_ni_env_check(mt_ni_env *env, const mt_ni_out *last, const char *tag, unsigned *pass);
uint64_t mt_ni_env_cycle(const mt_ni_env *env);
unsigned mt_ni_env_env_errors(const mt_ni_env *env); /* protocol violations seen by the environment */

/* Flit `pos` (0: the head) of a reduce unit that a test offers straight on ejection port
 * `port` (no network: t-c-ni's direct scenarios, cosim_ni's stager scenarios): from child
 * node `src` of `flow`, `nfl` payload flits for buffer address `addr`, step 1; payload flit
 * pos-1 carries the PayloadW/32 words at `words` (type Body, Sub-Tail every SubPktFlits,
 * Tail last), on VC 0. */
void mt_ni_direct_flit(const mt_ni_params *p, unsigned src, unsigned flow, uint32_t addr, uint32_t nfl, unsigned port, uint32_t pos,
                       const uint32_t *words, mt_flit *f);

#ifdef __cplusplus
}
#endif
#endif
