/* SPDX-License-Identifier: Apache-2.0
 * multitree ref: untimed all-reduce of seeded inputs through the schedule tables. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "util/mt_fp32.h"
#include "plan/mt_ref.h"
#include "util/mt_time.h"

int mt_app_ref(const mt_app_opts *o) {
  int dtype;
  if (mt_app_dtype("ref", o, &dtype) || mt_app_whole_words("ref", o)) return 2;
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  int rc = mt_app_plan_from_opts(o, &t, &s, &tb, NULL);
  if (rc) return rc;
  const int N = s.n_nodes;
  const uint64_t nw = s.bytes / 4;
  uint32_t **in = mt_xcalloc((size_t)N, sizeof *in), *out = mt_xcalloc(nw, 4);
  for (int n = 0; n < N; n++) {
    in[n] = mt_xcalloc(nw, 4);
    mt_ref_inputs(o->seed, n, dtype, in[n], nw);
  }
  double t0 = mt_now();
  if (mt_ref_result(&s, &tb, dtype, in, out, &e)) {
    fprintf(stderr, "multitree ref: %s\n", e.msg);
    rc = 2;
  } else {
    uint64_t bad = 0;
    uint32_t hash = 2166136261u;
    for (uint64_t k = 0; k < nw; k++) {
      hash = (hash ^ out[k]) * 16777619u;
      if (dtype == MT_DTYPE_INT32) {
        uint32_t sum = 0;
        for (int n = 0; n < N; n++) sum += in[n][k];
        bad += sum != out[k];
      }
    }
    printf("ref: %s on %s, %llu bytes of %s, seed %u: result FNV-1a %08x", s.algo, t.spec, (unsigned long long)s.bytes,
           dtype == MT_DTYPE_FP32 ? "fp32" : "int32", o->seed, hash);
    if (dtype == MT_DTYPE_INT32) printf(", %s (%llu of %llu elements differ from the exact sum)\n", bad ? "WRONG" : "exact", (unsigned long long)bad, (unsigned long long)nw);
    else printf(" (summation order: docs/reference/interfaces.md)\n");
    printf("ref: %.3f s\n", mt_now() - t0);
    rc = bad ? 1 : 0;
  }
  for (int n = 0; n < N; n++) free(in[n]);
  free(in);
  free(out);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return rc;
}
