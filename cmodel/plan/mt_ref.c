/* SPDX-License-Identifier: Apache-2.0 */
#include "plan/mt_ref.h"
#include "util/mt_rng.h"
#include <stdlib.h>
#include <string.h>
#include "util/mt_fp32.h"


static uint32_t input_state(uint32_t seed, int node) {
  uint32_t st = seed * 0x9E3779B1u ^ (uint32_t)(node + 1) * 0x85EBCA6Bu;
  return st ? st : 1u;
}

static void inputs_from(uint32_t st, int dtype, uint32_t *w, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    uint32_t a = mt_xs32(&st);
    if (dtype == MT_DTYPE_FP32) {
      uint32_t b = mt_xs32(&st);
      w[i] = (a & 0x80000000u) | ((112u + ((a >> 23) & 31u)) << 23) | (b & 0x7FFFFFu);
    } else w[i] = a;
  }
}

void mt_ref_inputs(uint32_t seed, int node, int dtype, uint32_t *w, uint64_t n) { inputs_from(input_state(seed, node), dtype, w, n); }

void mt_ref_inputs_at(const mt_xs32_jumps *J, uint32_t seed, int node, int dtype, uint64_t w0, uint32_t *w, uint64_t n) {
  const uint64_t draws = dtype == MT_DTYPE_FP32 ? 2u * w0 : w0;
  inputs_from(mt_xs32_jump(J, input_state(seed, node), draws), dtype, w, n);
}

/* The partial sums of words [w0, w0 + n) (in[x], partial[x]: those words of node x). */
static int partials_range(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint64_t w0, uint64_t n,
                          uint32_t **partial, mt_err *e) {
  const int N = s->n_nodes;
  if (s->bytes % 4) return mt_fail(e, "reference: %llu bytes is not a whole number of 32-bit elements", (unsigned long long)s->bytes);
  for (int x = 0; x < N; x++) memcpy(partial[x], in[x], n * 4);
  int *cur = mt_xcalloc((size_t)N, sizeof(int));
  for (int st = 1; st <= tb->steps; st++) {
    /* non-root reduce entries first: their children sent in earlier steps; roots may
     * complete in the step their last child sends */
    for (int phase = 0; phase < 2; phase++)
      for (int x = 0; x < N; x++) {
        const mt_entry *en = mt_node_entries(tb, x);
        for (int i = cur[x]; i < tb->count[x] && en[i].step == st; i++) {
          const mt_entry *y = &en[i];
          if (y->op != MT_OP_REDUCE || y->has_parent != !phase) continue;
          if (y->addr % 4 || y->size % 4 || y->addr + y->size > s->bytes) {
            free(cur);
            return mt_fail(e, "reference: node %d flow %d chunk not aligned to elements", x, y->flow);
          }
          /* the chunk's words within the range */
          const uint64_t a = y->addr / 4 > w0 ? y->addr / 4 : w0, b0 = (y->addr + y->size) / 4, b = b0 < w0 + n ? b0 : w0 + n;
          if (a >= b) continue;
          uint32_t *acc = partial[x] + (a - w0);
          for (int c = 0; c < y->nchild; c++) {
            const uint32_t *inc = partial[y->child[c].node] + (a - w0);
            for (uint64_t k = 0; k < b - a; k++) acc[k] = mt_reduce_add(dtype, acc[k], inc[k]);
          }
        }
      }
    for (int x = 0; x < N; x++) {
      const mt_entry *en = mt_node_entries(tb, x);
      while (cur[x] < tb->count[x] && en[cur[x]].step == st) cur[x]++;
    }
  }
  free(cur);
  return 0;
}

int mt_ref_partials(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint32_t **partial, mt_err *e) {
  return partials_range(s, tb, dtype, in, 0, s->bytes / 4, partial, e);
}

int mt_ref_result_range(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint64_t w0, uint64_t n, uint32_t *out,
                        mt_err *e) {
  const int N = s->n_nodes;
  uint32_t **p = mt_xcalloc((size_t)N, sizeof *p);
  for (int x = 0; x < N; x++) p[x] = mt_xcalloc(n ? n : 1, 4);
  int rc = partials_range(s, tb, dtype, in, w0, n, p, e);
  if (!rc)
    for (int f = 0; f < s->n_flows; f++) {
      const uint64_t a0 = s->chunk[f].addr / 4, b0 = a0 + s->chunk[f].size / 4;
      const uint64_t a = a0 > w0 ? a0 : w0, b = b0 < w0 + n ? b0 : w0 + n;
      if (a < b) memcpy(out + (a - w0), p[s->root[f]] + (a - w0), (b - a) * 4);
    }
  for (int x = 0; x < N; x++) free(p[x]);
  free(p);
  return rc;
}

int mt_ref_result(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint32_t *out, mt_err *e) {
  return mt_ref_result_range(s, tb, dtype, in, 0, s->bytes / 4, out, e);
}
