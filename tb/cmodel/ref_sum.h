/* SPDX-License-Identifier: Apache-2.0
 * ref_sum: the planner tests' end-to-end check of a schedule's tables: seeded int32 inputs
 * through mt_ref_result, compared with the exact sums. */
#ifndef MT_TB_REF_SUM_H
#define MT_TB_REF_SUM_H
#include <stdint.h>
#include "plan/mt_sched.h"

/* Words of the result that differ from the exact int32 sum of every node's seeded inputs
 * (seed `seed`); UINT64_MAX with the reason in e when the reference refuses the tables. */
uint64_t tb_ref_sum_mismatch(const mt_sched *s, const mt_tables *tb, uint32_t seed, mt_err *e);
#endif
