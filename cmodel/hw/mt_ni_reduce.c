/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_reduce.c: twin of rtl/mt_reduce_alu.sv, one per receive engine: Lanes element
 * adders (int32 wrap-around or fp32, util/mt_fp32.h mt_reduce_add), alu_pipe registers inside
 * them and one output register (latency 1 + alu_pipe cycles, one vector per cycle, no stall).
 * Operands: the memory's response (the running sum) and the received flit at the front of the
 * engine's inq; the sum goes into the engine's write queue wq in the cycle after it reaches
 * the output register. The sum is computed whole when the operands arrive and kept in a ring
 * slot until it is due (the RTL's registers between the adder's steps hold parts of it: the
 * same value).
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"
#include "util/mt_fp32.h"

/* engines are walked through masks: aluv (a sum in the unit) and eng_rspm (a response) */
static inline void mt_ni_reduce_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const unsigned rq = s->p.rq, lanes = s->lanes, k = s->alu_slot;
  for (uint32_t em = s->aluv; em; em &= em - 1u) { /* the sum that entered 1 + alu_pipe edges ago */
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    if (!r->alu_v[k]) continue;
    unsigned wi = mt_ni_wrap(r->wq_rd + r->wq_cnt, rq);
    mt_ni_cpl(r->wq[wi], r->alu_sum[k], lanes); /* lanes >= s->lanes are always 0 */
    r->wq_cnt++;
    r->alu_v[k] = 0;
    uint8_t any = 0; /* another sum in the unit (slots beyond alu_pipe stay 0) */
    for (unsigned i = 0; i <= MT_NI_MAX_ALU_PIPE && s->p.alu_pipe; i++) any |= r->alu_v[i];
    if (!any) s->aluv &= (uint8_t) ~(1u << e);
  }
  const int fp = in->dtype == MT_DTYPE_FP32;
  for (uint32_t em = w->eng_rspm; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    const uint32_t *d = in->mem_rsp_data[w->eng_rsp[e]];
    const uint32_t *b = r->inq[r->inq_rd];
    uint32_t *sum = r->alu_sum[k];
    if (fp)
      for (unsigned j = 0; j < lanes; j++) sum[j] = mt_fp32_add(d[j], b[j]);
    else
      for (unsigned j = 0; j < lanes; j += 4) { /* mt_int32_add: wrap-around; lanes is a multiple of 4 */
        sum[j] = d[j] + b[j];
        sum[j + 1] = d[j + 1] + b[j + 1];
        sum[j + 2] = d[j + 2] + b[j + 2];
        sum[j + 3] = d[j + 3] + b[j + 3];
      }
    r->alu_v[k] = 1;
    s->aluv |= (uint8_t)(1u << e);
    if (++r->inq_rd == rq) r->inq_rd = 0;
    r->inq_cnt--;
  }
  s->alu_slot = (uint8_t)(k == s->p.alu_pipe ? 0 : k + 1);
  if (w->clear) {
    for (uint32_t em = s->aluv; em; em &= em - 1u) memset(s->rx[__builtin_ctz(em)].alu_v, 0, sizeof s->rx[0].alu_v);
    s->aluv = 0;
  }
}
