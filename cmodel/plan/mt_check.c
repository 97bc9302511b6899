/* SPDX-License-Identifier: Apache-2.0
 * mt_check: symbolic execution of schedule tables (sets of contributions per chunk). */
#include "plan/mt_check.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FILE *log;
  int viol;
} ck;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
bad(ck *c, const char *fmt, ...) {
  c->viol++;
  if (c->viol <= 20 && c->log) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(c->log, "violation: ");
    vfprintf(c->log, fmt, ap);
    fputc('\n', c->log);
    va_end(ap);
  } else if (c->viol == 21 && c->log) fprintf(c->log, "violation: (further violations not shown)\n");
}

typedef struct {
  int op, flow, src, dst, step;
} key5;
typedef struct {
  int link, step, src, dst;
} use4;
static int use_cmp(const void *a, const void *b) {
  const use4 *x = a, *y = b;
  if (x->link != y->link) return x->link - y->link;
  if (x->step != y->step) return x->step - y->step;
  if (x->src != y->src) return x->src - y->src;
  return x->dst - y->dst;
}
static int key_cmp(const void *a, const void *b) {
  const key5 *x = a, *y = b;
  if (x->op != y->op) return x->op - y->op;
  if (x->flow != y->flow) return x->flow - y->flow;
  if (x->src != y->src) return x->src - y->src;
  if (x->dst != y->dst) return x->dst - y->dst;
  return x->step - y->step;
}

int mt_check(const mt_sched *s, const mt_tables *tb, FILE *log, mt_check_report *rep, mt_err *e) {
  const mt_topo *t = s->topo;
  const int N = s->n_nodes, F = s->n_flows, T = s->steps, W = (N + 63) / 64;
  memset(rep, 0, sizeof *rep);
  if ((double)N * F * W > (double)(1u << 25))
    return mt_fail(e, "schedule too large to check symbolically (%d nodes x %d flows)", N, F);
  ck c = {log, 0};
  rep->steps = T;
  rep->reduce_steps = s->reduce_steps;
  rep->gather_steps = T - s->reduce_steps;
  /* chunks tile the buffer */
  {
    uint64_t at = 0;
    for (int f = 0; f < F; f++) {
      if (s->chunk[f].addr != at) bad(&c, "flow %d starts at byte %llu, expected %llu (chunks must tile the buffer)", f, (unsigned long long)s->chunk[f].addr, (unsigned long long)at);
      if (s->chunk[f].size == 0) bad(&c, "flow %d is empty", f);
      at = s->chunk[f].addr + s->chunk[f].size;
    }
    if (at != s->bytes) bad(&c, "chunks end at byte %llu, the buffer has %llu", (unsigned long long)at, (unsigned long long)s->bytes);
  }
  uint64_t *set = mt_xcalloc((size_t)N * F * W, 8);  /* node's contributions for flow */
  uint64_t *rmsg = mt_xcalloc((size_t)N * F * W, 8); /* reduce message sent by node for flow */
  int *rdst = mt_xcalloc((size_t)N * F, sizeof(int)), *rstep = mt_xcalloc((size_t)N * F, sizeof(int));
  unsigned char *rclaimed = mt_xcalloc((size_t)N * F, 1);
  int *gsrc = mt_xcalloc((size_t)N * F, sizeof(int)), *gstep = mt_xcalloc((size_t)N * F, sizeof(int));
  int *rootdone = mt_xcalloc((size_t)N * F, sizeof(int)); /* step the root entry completed, 0 = not */
  for (size_t i = 0; i < (size_t)N * F; i++) {
    rdst[i] = -1;
    gsrc[i] = -1;
  }
  for (int n = 0; n < N; n++)
    for (int f = 0; f < F; f++) set[((size_t)n * F + f) * W + n / 64] |= 1ull << (n % 64);
#define SET(n, f) (set + ((size_t)(n)*F + (f)) * W)
#define RMSG(n, f) (rmsg + ((size_t)(n)*F + (f)) * W)
  /* table sanity: sorted by step, fields in range, chunk fields right */
  for (int n = 0; n < N; n++) {
    const mt_entry *en = mt_node_entries(tb, n);
    int last = 0, busy_other = 0, laststep_nop = -1;
    for (int i = 0; i < tb->count[n]; i++) {
      const mt_entry *x = &en[i];
      if (x->step < last) bad(&c, "node %d entry %d: step %d after step %d (steps must not go backwards)", n, i, x->step, last);
      if (x->step < 1 || x->step > T) bad(&c, "node %d entry %d: step %d outside 1..%d", n, i, x->step, T);
      if (x->op != MT_OP_NOP) {
        if (x->flow < 0 || x->flow >= F) {
          bad(&c, "node %d entry %d: flow %d out of range", n, i, x->flow);
          continue;
        }
        if (x->addr != s->chunk[x->flow].addr || x->size != s->chunk[x->flow].size)
          bad(&c, "node %d entry %d: chunk [%llu,+%llu) is not flow %d's [%llu,+%llu)", n, i, (unsigned long long)x->addr,
              (unsigned long long)x->size, x->flow, (unsigned long long)s->chunk[x->flow].addr, (unsigned long long)s->chunk[x->flow].size);
        if (x->step == laststep_nop) bad(&c, "node %d: NOP and another entry in step %d", n, x->step);
        busy_other = x->step;
      } else {
        if (x->step == busy_other) bad(&c, "node %d: NOP and another entry in step %d", n, x->step);
        laststep_nop = x->step;
      }
      last = x->step;
    }
  }
  /* run step by step, each node's entries in table order: every entry uses what arrived
   * in earlier steps (a root reduce entry sits in the step after its last child sends,
   * before the root's gather of the same step) */
  int *cursor = mt_xcalloc((size_t)N, sizeof(int));
  for (int st = 1; st <= T; st++) {
    for (int n = 0; n < N; n++) {
      const mt_entry *en = mt_node_entries(tb, n);
      for (int i = cursor[n]; i < tb->count[n] && en[i].step == st; i++) {
        const mt_entry *x = &en[i];
        int f = x->flow;
        if (x->op == MT_OP_NOP || f < 0 || f >= F) continue;
        int is_root_entry = x->op == MT_OP_REDUCE && !x->has_parent;
        if (x->op == MT_OP_REDUCE) {
          if (is_root_entry && s->root[f] != n) bad(&c, "node %d has a root reduce entry for flow %d whose root is %d", n, f, s->root[f]);
          if (!is_root_entry && s->root[f] == n) bad(&c, "root %d of flow %d sends its reduce to %d", n, f, x->parent.node);
          for (int k = 0; k < x->nchild; k++) {
            int ch = x->child[k].node;
            size_t ci = (size_t)ch * F + f;
            if (rdst[ci] != n) {
              bad(&c, "node %d step %d flow %d: reduce from child %d has not arrived (it %s)", n, st, f, ch, rdst[ci] < 0 ? "never sent one before this step" : "sent it elsewhere");
              continue;
            }
            if (rstep[ci] >= st) {
              bad(&c, "node %d step %d flow %d: child %d's reduce arrives in step %d", n, st, f, ch, rstep[ci]);
              continue;
            }
            if (rclaimed[ci]) {
              bad(&c, "node %d flow %d: child %d's reduce used twice", n, f, ch);
              continue;
            }
            rclaimed[ci] = 1;
            uint64_t *a = SET(n, f), *b = RMSG(ch, f);
            for (int w = 0; w < W; w++) {
              if (a[w] & b[w]) {
                bad(&c, "node %d flow %d: child %d's partial sum repeats contributions already added", n, f, ch);
                break;
              }
            }
            for (int w = 0; w < W; w++) a[w] |= b[w];
          }
          if (is_root_entry) rootdone[(size_t)n * F + f] = st;
          else {
            int p = x->parent.node;
            size_t ni = (size_t)n * F + f;
            if (rdst[ni] >= 0) bad(&c, "node %d sends the reduce of flow %d twice", n, f);
            rdst[ni] = p;
            rstep[ni] = st;
            memcpy(RMSG(n, f), SET(n, f), (size_t)W * 8);
          }
        } else { /* gather */
          size_t ni = (size_t)n * F + f;
          if (x->has_parent) {
            if (gsrc[ni] != x->parent.node || gstep[ni] >= st)
              bad(&c, "node %d step %d flow %d: gather from parent %d has not arrived", n, st, f, x->parent.node);
          } else {
            if (s->root[f] != n) bad(&c, "node %d gathers flow %d without a parent but is not its root", n, f);
            else if (!rootdone[ni] || rootdone[ni] > st) bad(&c, "root %d step %d: gathers flow %d before its reduction completed", n, st, f);
          }
          int full = 1;
          for (int w = 0; w < W; w++) {
            uint64_t want = (w == W - 1 && N % 64) ? ((1ull << (N % 64)) - 1) : ~0ull;
            if (SET(n, f)[w] != want) full = 0;
          }
          if (!full) bad(&c, "node %d step %d: gather of flow %d carries an incomplete sum", n, st, f);
          for (int k = 0; k < x->nchild; k++) {
            int ch = x->child[k].node;
            size_t ci = (size_t)ch * F + f;
            if (gsrc[ci] >= 0) {
              bad(&c, "node %d receives the gather of flow %d twice", ch, f);
              continue;
            }
            gsrc[ci] = n;
            gstep[ci] = st;
            memcpy(SET(ch, f), SET(n, f), (size_t)W * 8);
          }
        }
      }
    }
    for (int n = 0; n < N; n++) {
      const mt_entry *en = mt_node_entries(tb, n);
      while (cursor[n] < tb->count[n] && en[cursor[n]].step == st) cursor[n]++;
    }
  }
  free(cursor);
  /* end state */
  for (int n = 0; n < N; n++)
    for (int f = 0; f < F; f++) {
      size_t i = (size_t)n * F + f;
      int cnt = 0;
      for (int w = 0; w < W; w++) cnt += __builtin_popcountll(SET(n, f)[w]);
      if (cnt != N) bad(&c, "node %d ends with flow %d holding %d of %d contributions", n, f, cnt, N);
      if (rdst[i] >= 0 && !rclaimed[i]) bad(&c, "the reduce of flow %d sent by %d to %d is never added", f, n, rdst[i]);
      if (s->root[f] != n && rdst[i] < 0) bad(&c, "node %d never sends its contribution to flow %d", n, f);
      if (s->root[f] != n && gsrc[i] < 0) bad(&c, "node %d never receives the gather of flow %d", n, f);
    }
  free(set);
  free(rmsg);
  free(rdst);
  free(rstep);
  free(rclaimed);
  free(gsrc);
  free(gstep);
  free(rootdone);
  /* tables against transfers, and the links they use */
  {
    size_t nk = 0;
    for (int n = 0; n < N; n++) {
      const mt_entry *en = mt_node_entries(tb, n);
      for (int i = 0; i < tb->count[n]; i++) nk += en[i].op == MT_OP_GATHER ? (size_t)en[i].nchild : (en[i].op == MT_OP_REDUCE && en[i].has_parent);
    }
    key5 *keys = mt_xcalloc(nk + 1, sizeof(key5));
    size_t k = 0;
    for (int n = 0; n < N; n++) {
      const mt_entry *en = mt_node_entries(tb, n);
      for (int i = 0; i < tb->count[n]; i++) {
        if (en[i].op == MT_OP_GATHER)
          for (int q = 0; q < en[i].nchild; q++) keys[k++] = (key5){MT_OP_GATHER, en[i].flow, n, en[i].child[q].node, en[i].step};
        else if (en[i].op == MT_OP_REDUCE && en[i].has_parent) keys[k++] = (key5){MT_OP_REDUCE, en[i].flow, n, en[i].parent.node, en[i].step};
      }
    }
    qsort(keys, nk, sizeof(key5), key_cmp);
    if (s->nx) {
      if ((size_t)s->nx != nk) bad(&c, "the tables send %zu messages, the transfer list has %d", nk, s->nx);
      int *load = mt_xcalloc((size_t)t->n_links * (size_t)(T + 1), sizeof(int));
      for (int i = 0; i < s->nx; i++) {
        const mt_xfer *x = &s->x[i];
        key5 q = {x->op, x->flow, x->src, x->dst, x->step};
        if (!bsearch(&q, keys, nk, sizeof(key5), key_cmp))
          bad(&c, "transfer %s flow %d %d->%d step %d has no table entry", mt_op_name(x->op), x->flow, x->src, x->dst, x->step);
        int hops = mt_sched_hops(s, x);
        rep->transfers++;
        if (hops > 1) rep->multihop++;
        if (s->one_hop && hops != 1) bad(&c, "one-hop schedule: %s flow %d %d->%d step %d takes %d hops", mt_op_name(x->op), x->flow, x->src, x->dst, x->step, hops);
        for (int j = 0; j < x->path_len; j++) load[(size_t)MT_XLINK(s, x, j) * (T + 1) + x->step]++;
      }
      for (int l = 0; l < t->n_links; l++)
        for (int st = 1; st <= T; st++) {
          int u = load[(size_t)l * (T + 1) + st], m = t->links[l].mult;
          int over = (u + m - 1) / m;
          if (over > rep->max_link_load) rep->max_link_load = over;
          if (s->one_hop && u > m)
            bad(&c, "link %d->%d carries %d messages in step %d (multiplicity %d)", t->links[l].src, t->links[l].dst, u, st, m);
        }
      free(load);
      /* contention: distinct sender->receiver pairs per link and step */
      size_t nu = 0;
      for (int i = 0; i < s->nx; i++) nu += s->x[i].path_len;
      use4 *u = mt_xcalloc(nu + 1, sizeof(use4));
      size_t k2 = 0;
      for (int i = 0; i < s->nx; i++)
        for (int j = 0; j < s->x[i].path_len; j++) u[k2++] = (use4){MT_XLINK(s, &s->x[i], j), s->x[i].step, s->x[i].src, s->x[i].dst};
      qsort(u, nu, sizeof(use4), use_cmp);
      for (size_t i = 0, run = 0; i < nu; i++) {
        if (i == 0 || u[i].link != u[i - 1].link || u[i].step != u[i - 1].step) run = 1;
        else if (u[i].src != u[i - 1].src || u[i].dst != u[i - 1].dst) run++;
        int m = t->links[u[i].link].mult;
        int over = (int)((run + (size_t)m - 1) / (size_t)m);
        if (over > rep->max_link_pairs) rep->max_link_pairs = over;
      }
      free(u);
    } else {
      /* no transfer list: one-hop schedules must use direct links */
      for (size_t i = 0; i < nk; i++) {
        rep->transfers++;
        if (s->one_hop && mt_topo_find_link(t, keys[i].src, keys[i].dst) < 0 && t->n_sw == 0)
          bad(&c, "one-hop schedule: %d->%d (flow %d step %d) is not a link", keys[i].src, keys[i].dst, keys[i].flow, keys[i].step);
      }
    }
    free(keys);
  }
  /* lower bound of the all-gather half */
  rep->diameter = mt_topo_diameter(t);
  int lb = rep->diameter;
  for (int n = 0; n < N; n++) {
    int cap = mt_topo_in_capacity(t, n);
    if (cap > 0 && (N - 1 + cap - 1) / cap > lb) lb = (N - 1 + cap - 1) / cap;
  }
  rep->lower_bound = lb;
  rep->violations = c.viol;
#undef SET
#undef RMSG
  return 0;
}
