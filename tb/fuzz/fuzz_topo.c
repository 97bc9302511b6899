/* SPDX-License-Identifier: Apache-2.0
 * fuzz_topo: the topology-file parser (cmodel/topo/mt_topo.c, docs/reference/formats.md "Topology file"), then,
 * on a network it accepts with at most 64 nodes, every planner that accepts it with the
 * schedule tables and the checker as oracles: a schedule that a planner produced must give
 * tables and pass mt_check, else the harness aborts (docs/reference/fuzz.md). MultiTree on a switch
 * network also runs every child search guided and breadth first (mt_plan_verify_search):
 * a difference aborts too. Every schedule that passes check also runs at the flow level
 * (cmodel/flow), which must not finish below its lower bound (topo/mt_bound; a flow-level
 * refusal is not a bug here). Input: the file's text. */
#include <string.h>
#include "flow/mt_flow.h"
#include "fuzz.h"
#include "plan/mt_check.h"

enum { MAX_PLAN_NODES = 64 };

static void plan_and_check(const mt_topo *t, const char *algo) {
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  /* 1021 elements: more than any planner's flows on 64 nodes, and chunks of unequal size */
  if (mt_plan(&s, t, algo, 4 * 1021, 4, &e)) { /* this algorithm refuses the network */
    if (strstr(e.msg, "guided search found")) FZ_BUG("%s", e.msg);
    return;
  }
  if (mt_sched_tables(&s, 0, &tb, &e)) FZ_BUG("%s on %s: planned, but no tables: %s", algo, t->spec, e.msg);
  mt_check_report rep;
  if (mt_check(&s, &tb, NULL, &rep, &e)) FZ_BUG("%s on %s: check could not run: %s", algo, t->spec, e.msg);
  if (rep.violations) {
    mt_check(&s, &tb, stderr, &rep, &e);
    FZ_BUG("%s on %s: the planned schedule fails check with %d violation(s)", algo, t->spec, rep.violations);
  }
  /* the flow level in cycles of 16-byte flits, link latency 1, 8-flit VCs, 256-byte packets */
  mt_flow_params p;
  mt_flow_params_cycles(&p, 16, 1, 8, 256, 0, 0);
  mt_flow_result r;
  if (!mt_flow_run_sched(&s, &p, &r, NULL, &e) && mt_bound_assert(&r.bounds, r.time, "cycles", &e))
    FZ_BUG("%s on %s: flow level: %s", algo, t->spec, e.msg);
  mt_tables_free(&tb);
  mt_sched_free(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mt_plan_verify_search = 1;
  mt_topo t;
  mt_err e = {{0}};
  if (mt_topo_from_file(&t, fz_file(0, data, size), &e)) {
    if (!e.msg[0]) FZ_BUG("the parser refused the file without a reason");
    return 0;
  }
  if (t.n_nodes <= MAX_PLAN_NODES)
    for (int a = 0; a < MT_ALGO_COUNT; a++) plan_and_check(&t, mt_algo_names[a]);
  mt_topo_free(&t);
  return 0;
}
