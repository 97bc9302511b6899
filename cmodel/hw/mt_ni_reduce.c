/* SPDX-License-Identifier: Apache-2.0
 * mt_ni_reduce.c: twin of rtl/mt_reduce_alu.sv, one per receive engine: Lanes element
 * adders (int32 wrap-around or fp32, util/mt_fp32.h mt_reduce_add) and one output register
 * (latency 1 cycle, one vector per cycle, no stall). Operands: the memory's response (the
 * running sum) and the received flit at the front of the engine's inq; the registered sum
 * goes into the engine's write queue wq in the next cycle. 
 * (Static phases, #included by mt_ni.c: see mt_ni_blocks.h.) */
#include <string.h>
#include "hw/mt_ni_blocks.h"
#include "util/mt_fp32.h"

static inline void mt_ni_reduce_update(mt_ni *s, const mt_ni_in *in, const mt_ni_wires *w) {
  const unsigned rq = s->p.rq, lanes = s->lanes;
  for (unsigned e = 0; e < s->ne; e++) {
    mt_ni_rx *r = &s->rx[e];
    if (r->alu_v) { /* result of the previous cycle into the write queue */
      unsigned wi = mt_ni_wrap(r->wq_rd + r->wq_cnt, rq);
      memcpy(r->wq[wi], r->alu_sum, sizeof r->alu_sum);
      r->wq_cnt++;
    }
    r->alu_v = 0;
    if ((w->eng_rspm >> e) & 1u) {
      const uint32_t *d = in->mem_rsp_data[w->eng_rsp[e]];
      const uint32_t *b = r->inq[r->inq_rd];
      for (unsigned k = 0; k < lanes; k++) r->alu_sum[k] = mt_reduce_add(in->dtype, d[k], b[k]);
      r->alu_v = 1;
      if (++r->inq_rd == rq) r->inq_rd = 0;
      r->inq_cnt--;
    }
    if (w->clear) r->alu_v = 0;
  }
}
