/* SPDX-License-Identifier: Apache-2.0
 * multitree check: prove a schedule (JSON or planned) correct by running its tables symbolically. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "plan/mt_check.h"
#include "table/mt_json.h"

int mt_app_check(const mt_app_opts *o) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  int rc;
  if (o->file) {
    if (mt_json_read(o->file, &t, &s, &tb, &e)) {
      fprintf(stderr, "multitree check: %s\n", e.msg);
      return 2;
    }
    s.topo = &t;
  } else if ((rc = mt_app_plan_from_opts(o, &t, &s, &tb, NULL))) return rc;
  mt_check_report r;
  if (mt_check(&s, &tb, stdout, &r, &e)) {
    fprintf(stderr, "multitree check: %s\n", e.msg);
    rc = 2;
  } else {
    printf("check: %s on %s, %d nodes, %d flows: %s\n", s.algo, t.spec, s.n_nodes, s.n_flows, r.violations ? "VIOLATIONS" : "OK");
    printf("steps: %d = %d reduce-scatter + %d all-gather; all-gather lower bound %d (diameter %d)\n", r.steps, r.reduce_steps,
           r.gather_steps, r.lower_bound, r.diameter);
    printf("transfers: %ld (%ld multi-hop); most messages on one link in one step: %d; most sender-receiver pairs: %d%s\n",
           r.transfers, r.multihop, r.max_link_load, r.max_link_pairs, s.one_hop ? " (one-hop schedule: contention-free required)" : "");
    mt_bound bd;
    if (!mt_bound_of(&t, s.bytes, 16, &bd, &e)) /* Table III links: 16 B/cycle */
      printf("bounds at 16 B/cycle per link: per-node %.0f cycles, cut %.0f (%s), aggregate %.0f; lower bound %.0f (%s)\n", bd.per_node, bd.cut,
             mt_cut_family_name(bd.cut_family), bd.aggregate, bd.bound, mt_bound_name(bd.binding));
    if (r.violations) printf("violations: %d\n", r.violations);
    rc = r.violations ? 1 : 0;
  }
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return rc;
}
