/* SPDX-License-Identifier: Apache-2.0
 * ref_sum: exact int32 sums through a schedule's tables (ref_sum.h). */
#include "ref_sum.h"
#include <stdlib.h>
#include "plan/mt_ref.h"
#include "util/mt_fp32.h"

uint64_t tb_ref_sum_mismatch(const mt_sched *s, const mt_tables *tb, uint32_t seed, mt_err *e) {
  const int N = s->n_nodes;
  const uint64_t nw = s->bytes / 4;
  uint32_t **in = mt_xcalloc((size_t)N, sizeof *in), *out = mt_xcalloc(nw, 4);
  for (int n = 0; n < N; n++) {
    in[n] = mt_xcalloc(nw, 4);
    mt_ref_inputs(seed, n, MT_DTYPE_INT32, in[n], nw);
  }
  uint64_t bad = UINT64_MAX;
  if (mt_ref_result(s, tb, MT_DTYPE_INT32, in, out, e) == 0) {
    bad = 0;
    for (uint64_t k = 0; k < nw; k++) {
      uint32_t sum = 0;
      for (int n = 0; n < N; n++) sum += in[n][k];
      bad += sum != out[k];
    }
  }
  for (int n = 0; n < N; n++) free(in[n]);
  free(in);
  free(out);
  return bad;
}
