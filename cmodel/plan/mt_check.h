/* SPDX-License-Identifier: Apache-2.0
 * mt_check: proves a schedule correct by running its tables symbolically. */
#ifndef MT_CHECK_H
#define MT_CHECK_H
#include <stdio.h>
#include "plan/mt_sched.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int steps, reduce_steps, gather_steps;
  int lower_bound; /* all-gather half: max(max_n ceil((N-1)/in_capacity(n)), diameter) */
  int diameter;
  int violations;
  int max_link_load;  /* most messages on one directed link in one step, over its multiplicity */
  int max_link_pairs; /* most distinct sender->receiver pairs on one link in one step (contention) */
  long transfers, multihop;
} mt_check_report;

/* Runs the tables step by step on sets of contributions. Proves: every node ends with
 * every chunk holding all N contributions exactly once; every send respects its
 * dependencies; the tables agree with the transfers; chunks tile the buffer; for
 * one-hop schedules every transfer crosses one link (or one switch path) and no
 * directed link carries more messages in a step than its multiplicity. Violations
 * are printed to `log` (the first 20) and counted. Returns -1 only when the schedule
 * is too large to check. */
int mt_check(const mt_sched *s, const mt_tables *tb, FILE *log, mt_check_report *rep, mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
