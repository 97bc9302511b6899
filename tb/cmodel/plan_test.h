/* SPDX-License-Identifier: Apache-2.0
 * plan_test.h: helpers of the planner unit tests (test_bucket, test_meshtree): plan an
 * algorithm on a named topology, count check's violations of a schedule. Include after
 * mt_test.h (CHECK). */
#ifndef PLAN_TEST_H
#define PLAN_TEST_H
#include <stdio.h>
#include "plan/mt_check.h"
#include "plan/mt_sched.h"

/* Topology `topo` into t and `algo`'s schedule of `bytes` (4-byte elements) into s; a failure
 * counts as a failed CHECK and returns -1 (nothing to free). */
static int pt_plan(const char *topo, const char *algo, uint64_t bytes, mt_topo *t, mt_sched *s) {
  mt_err e = {{0}};
  if (mt_topo_from_name(t, topo, &e)) {
    CHECK(0, "%s: %s", topo, e.msg);
    return -1;
  }
  if (mt_plan(s, t, algo, bytes, 4, &e)) {
    CHECK(0, "%s: plan: %s", topo, e.msg);
    mt_topo_free(t);
    return -1;
  }
  return 0;
}

/* check's violations of s (1000000 when its tables cannot be built or check fails to run) */
static int pt_violations(const mt_sched *s) {
  mt_tables tb;
  mt_err e = {{0}};
  mt_check_report r;
  if (mt_sched_tables(s, 0, &tb, &e)) return 1000000;
  FILE *devnull = fopen("/dev/null", "w");
  int rc = mt_check(s, &tb, devnull, &r, &e);
  fclose(devnull);
  mt_tables_free(&tb);
  return rc ? 1000000 : r.violations;
}
#endif
