/* SPDX-License-Identifier: Apache-2.0
 * cs_test.h: helpers of the chunk-schedule planner tests (test_themis, test_dimbal): a
 * multi-dimensional topology with its view and Latency Model, and the end-to-end checks of
 * an expanded schedule (check passes, exact int32 sums, a gather moved to step 1 caught).
 * Include after mt_test.h (CHECK). */
#ifndef CS_TEST_H
#define CS_TEST_H
#include <stdio.h>
#include "plan/mt_check.h"
#include "plan/mt_themis.h"
#include "ref_sum.h"

/* Topology `topo`, its view for `algo` and its Latency Model; a failure counts as a failed
 * CHECK and returns non-zero. */
static int cs_setup(const char *topo, const char *algo, mt_topo *t, mt_mdview *v, mt_latmodel *lm) {
  mt_err e = {{0}};
  int rc = mt_topo_from_name(t, topo, &e) || mt_mdview_of(t, algo, v, &e);
  CHECK(rc == 0, "%s: %s", topo, e.msg);
  if (!rc) mt_latmodel_of(t, v, lm);
  return rc;
}

/* check's verdict on s with tables tb and the exact int32 sums through them. */
static void cs_check_sums(const mt_sched *s, const mt_tables *tb, const char *topo, const char *algo) {
  mt_err e = {{0}};
  mt_check_report r;
  CHECK(mt_check(s, tb, stderr, &r, &e) == 0 && r.violations == 0, "%s %s: check: %s, %d violations", topo, algo, e.msg, r.violations);
  const uint64_t bad = tb_ref_sum_mismatch(s, tb, 3, &e);
  CHECK(bad == 0, "%s %s: %llu words differ from the exact sum (all: the reference refused: %s)", topo, algo, (unsigned long long)bad, e.msg);
}

/* A gather (the first with index 3 mod 7) moved to step 1, before any flow is reduced: the
 * tables or check must refuse it. Changes s. */
static void cs_gather_moved_caught(mt_sched *s, const char *topo, const char *algo) {
  mt_err e = {{0}};
  mt_tables tb;
  int g = -1;
  for (int i = 0; i < s->nx && g < 0; i++)
    if (s->x[i].op == MT_OP_GATHER && i % 7 == 3) g = i;
  if (g < 0) return;
  s->x[g].step = 1;
  mt_check_report r3 = {0};
  int caught = mt_sched_tables(s, 0, &tb, &e) != 0;
  if (!caught) {
    caught = mt_check(s, &tb, NULL, &r3, &e) != 0 || r3.violations > 0;
    mt_tables_free(&tb);
  }
  CHECK(caught, "%s %s: gather %d moved to step 1 accepted", topo, algo, g);
}
#endif
