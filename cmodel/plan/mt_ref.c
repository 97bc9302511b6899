/* SPDX-License-Identifier: Apache-2.0 */
#include "plan/mt_ref.h"
#include "util/mt_rng.h"
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"


void mt_ref_inputs(uint32_t seed, int node, int dtype, uint32_t *w, uint64_t n) {
  uint32_t st = seed * 0x9E3779B1u ^ (uint32_t)(node + 1) * 0x85EBCA6Bu;
  if (!st) st = 1;
  for (uint64_t i = 0; i < n; i++) {
    uint32_t a = mt_xs32(&st);
    if (dtype == MT_DTYPE_FP32) {
      uint32_t b = mt_xs32(&st);
      w[i] = (a & 0x80000000u) | ((112u + ((a >> 23) & 31u)) << 23) | (b & 0x7FFFFFu);
    } else w[i] = a;
  }
}

int mt_ref_partials(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint32_t **partial, mt_err *e) {
  const int N = s->n_nodes;
  if (s->bytes % 4) return mt_fail(e, "reference: %llu bytes is not a whole number of 32-bit elements", (unsigned long long)s->bytes);
  const uint64_t nw = s->bytes / 4;
  for (int n = 0; n < N; n++) memcpy(partial[n], in[n], nw * 4);
  int *cur = mt_xcalloc((size_t)N, sizeof(int));
  for (int st = 1; st <= tb->steps; st++) {
    /* non-root reduce entries first: their children sent in earlier steps; roots may
     * complete in the step their last child sends */
    for (int phase = 0; phase < 2; phase++)
      for (int n = 0; n < N; n++) {
        const mt_entry *en = mt_node_entries(tb, n);
        for (int i = cur[n]; i < tb->count[n] && en[i].step == st; i++) {
          const mt_entry *x = &en[i];
          if (x->op != MT_OP_REDUCE || x->has_parent != !phase) continue;
          if (x->addr % 4 || x->size % 4 || x->addr + x->size > s->bytes) {
            free(cur);
            return mt_fail(e, "reference: node %d flow %d chunk not aligned to elements", n, x->flow);
          }
          uint32_t *acc = partial[n] + x->addr / 4;
          for (int c = 0; c < x->nchild; c++) {
            const uint32_t *inc = partial[x->child[c].node] + x->addr / 4;
            for (uint64_t k = 0; k < x->size / 4; k++) acc[k] = mt_reduce_add(dtype, acc[k], inc[k]);
          }
        }
      }
    for (int n = 0; n < N; n++) {
      const mt_entry *en = mt_node_entries(tb, n);
      while (cur[n] < tb->count[n] && en[cur[n]].step == st) cur[n]++;
    }
  }
  free(cur);
  return 0;
}

int mt_ref_result(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint32_t *out, mt_err *e) {
  const int N = s->n_nodes;
  const uint64_t nw = s->bytes / 4;
  uint32_t **p = mt_xcalloc((size_t)N, sizeof *p);
  for (int n = 0; n < N; n++) p[n] = mt_xcalloc(nw, 4);
  int rc = mt_ref_partials(s, tb, dtype, in, p, e);
  if (!rc)
    for (int f = 0; f < s->n_flows; f++)
      memcpy(out + s->chunk[f].addr / 4, p[s->root[f]] + s->chunk[f].addr / 4, s->chunk[f].size);
  for (int n = 0; n < N; n++) free(p[n]);
  free(p);
  return rc;
}
