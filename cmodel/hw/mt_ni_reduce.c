/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_reduce.c: twin of rtl/mt_reduce_alu.sv, one per receive engine: Lanes element
 * adders (int32 wrap-around or fp32, util/mt_fp32.h mt_reduce_add), alu_pipe registers inside
 * them and one output register (latency 1 + alu_pipe cycles, one vector per cycle, no stall).
 * Operands: the memory's response (the running sum) and the received flit at the front of the
 * engine's inq; the sum goes into the engine's write queue wq in the cycle after it reaches
 * the output register. The sum is computed whole when the operands arrive and carried through
 * the steps (the RTL's registers between the adder's steps hold parts of it: the same value).
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"
#include "util/mt_fp32.h"

/* engines are walked through masks: aluv (a sum in the unit) and eng_rspm (a response) */
static inline void mt_ni_reduce_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const unsigned rq = s->p.rq, lanes = s->lanes, P = s->p.alu_pipe;
  uint32_t busy = 0; /* engines with a sum still in the unit after this edge */
  for (uint32_t em = s->aluv; em; em &= em - 1u) {
    mt_ni_rx *r = &s->rx[__builtin_ctz(em)];
    if (r->alu_v[P]) { /* the output register's sum of the previous cycle into the write queue */
      unsigned wi = mt_ni_wrap(r->wq_rd + r->wq_cnt, rq);
      mt_ni_cpl(r->wq[wi], r->alu_sum[P], lanes); /* lanes >= s->lanes are always 0 */
      r->wq_cnt++;
    }
    for (unsigned i = P; i > 0; i--) { /* one step on */
      r->alu_v[i] = r->alu_v[i - 1];
      if (r->alu_v[i]) {
        mt_ni_cpl(r->alu_sum[i], r->alu_sum[i - 1], lanes);
        busy |= 1u << __builtin_ctz(em);
      }
    }
    r->alu_v[0] = 0;
  }
  const int fp = in->dtype == MT_DTYPE_FP32;
  for (uint32_t em = w->eng_rspm; em; em &= em - 1u) {
    const unsigned e = (unsigned)__builtin_ctz(em);
    mt_ni_rx *r = &s->rx[e];
    const uint32_t *d = in->mem_rsp_data[w->eng_rsp[e]];
    const uint32_t *b = r->inq[r->inq_rd];
    if (fp)
      for (unsigned k = 0; k < lanes; k++) r->alu_sum[0][k] = mt_fp32_add(d[k], b[k]);
    else
      for (unsigned k = 0; k < lanes; k += 4) { /* mt_int32_add: wrap-around; lanes is a multiple of 4 */
        r->alu_sum[0][k] = d[k] + b[k];
        r->alu_sum[0][k + 1] = d[k + 1] + b[k + 1];
        r->alu_sum[0][k + 2] = d[k + 2] + b[k + 2];
        r->alu_sum[0][k + 3] = d[k + 3] + b[k + 3];
      }
    r->alu_v[0] = 1;
    busy |= 1u << e;
    if (++r->inq_rd == rq) r->inq_rd = 0;
    r->inq_cnt--;
  }
  s->aluv = (uint8_t)busy;
  if (w->clear) {
    for (uint32_t em = s->aluv; em; em &= em - 1u) memset(s->rx[__builtin_ctz(em)].alu_v, 0, sizeof s->rx[0].alu_v);
    s->aluv = 0;
  }
}
