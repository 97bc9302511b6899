/* SPDX-License-Identifier: Apache-2.0
 * net_plan: the network tests' schedule: a topology by name, planned with 4-byte elements,
 * and its tables (the default local ports). */
#ifndef MT_TB_NET_PLAN_H
#define MT_TB_NET_PLAN_H
#include <stdint.h>
#include "plan/mt_sched.h"
#include "topo/mt_topo.h"

typedef struct {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
} tb_planned;

/* 0, or -1 with the reason in e (nothing left to free). */
int tb_plan(tb_planned *p, const char *topo, const char *algo, uint64_t bytes, mt_err *e);
void tb_unplan(tb_planned *p);
#endif
