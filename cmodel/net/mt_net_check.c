/* SPDX-License-Identifier: Apache-2.0
 * mt_net_check: after a run, every node's buffer against the reference computed from the
 * inputs and tables, in ranges over threads; the buffers and inputs for --dump-dir (net/mt_net_priv.h
 * lists the other parts). */
#include <stdlib.h>
#include "net/mt_net_priv.h"
#include "plan/mt_ref.h"

/* Every node's stored words against the reference computed from the inputs and tables, in
 * ranges of MT_NET_REF_WORDS words (--data full) or of a sampled page (sample): the inputs
 * of a range are generated from its first word on (mt_ref_inputs_at). */
typedef struct {
  mt_net *n;
  int nt;
  uint64_t wrong[NET_MAX_THREADS], checked[NET_MAX_THREADS], bad_q[NET_MAX_THREADS]; /* bad_q: first failed range, else ~0 */
  mt_err err[NET_MAX_THREADS];
} check_arg;
/* Ranges k, k + nt, ... of W words: the reference of each computed from the inputs and every
 * node's buffer compared with it. */
static void check_part(void *v, int k, int nt) {
  check_arg *c = v;
  mt_net *n = c->n;
  const uint64_t nw = n->s->bytes / 4;
  const int N = n->N, full = n->c.data == MT_NET_DATA_FULL;
  const uint64_t W = full ? MT_NET_REF_WORDS : MT_MEM_PAGE_WORDS;
  uint32_t **in = mt_xcalloc((size_t)N, sizeof *in), *ref = mt_xcalloc(W, 4);
  for (int i = 0; i < N; i++) in[i] = mt_xcalloc(W, 4);
  mt_xs32_jumps J;
  mt_xs32_jumps_init(&J);
  c->bad_q[k] = ~(uint64_t)0;
  for (uint64_t q = (uint64_t)k, a; (a = q * W) < nw; q += (uint64_t)nt) {
    const uint64_t m = nw - a < W ? nw - a : W;
    if (!full && !n->backed[a >> MT_MEM_PAGE_SHIFT]) continue;
    for (int i = 0; i < N; i++) mt_ref_inputs_at(&J, n->seed, i, n->dtype, a, in[i], m);
    if (mt_ref_result_range(n->s, n->tb, n->dtype, in, a, m, ref, &c->err[k])) {
      c->bad_q[k] = q;
      break;
    }
    uint64_t wrong = 0;
    for (int i = 0; i < N; i++) {
      const uint32_t *w = mt_mem_word(&n->mem[i], a);
      for (uint64_t x = 0; x < m; x++) wrong += w[x] != ref[x];
    }
    c->wrong[k] += wrong;
    c->checked[k] += m;
  }
  for (int i = 0; i < N; i++) free(in[i]);
  free(in);
  free(ref);
}

int mt_net_check_buffers(mt_net *n, mt_net_result *r, mt_err *e) {
  if (n->c.data == MT_NET_DATA_NONE) return 0; /* correct stays 0: nothing was checked */
  check_arg *c = mt_xcalloc(1, sizeof *c);
  c->n = n;
  c->nt = mt_net_threads(n);
  mt_net_par_run(c->nt, check_part, c);
  int bad = -1; /* the error of the first range that failed, as one thread would have it */
  for (int k = 0; k < c->nt; k++) {
    r->wrong_words += c->wrong[k];
    r->checked_words += c->checked[k];
    if (c->bad_q[k] != ~(uint64_t)0 && (bad < 0 || c->bad_q[k] < c->bad_q[bad])) bad = k;
  }
  if (bad >= 0) *e = c->err[bad];
  free(c);
  if (bad >= 0) return -1;
  r->correct = r->wrong_words == 0;
  return 0;
}

const uint32_t *mt_net_buffer(const mt_net *n, int node) { return n->c.data == MT_NET_DATA_FULL ? n->mem[node].w : NULL; }
const uint32_t *mt_net_input(mt_net *n, int node) {
  if (!n->started) return NULL; /* the inputs are those of mt_net_start's seed */
  if (!n->input[node]) {
    n->input[node] = mt_xcalloc(n->s->bytes / 4 + 1, 4);
    mt_ref_inputs(n->seed, node, n->dtype, n->input[node], n->s->bytes / 4);
  }
  return n->input[node];
}
