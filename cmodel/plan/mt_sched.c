/* SPDX-License-Identifier: Apache-2.0
 * mt_sched: schedule building blocks, chunk tiling and the schedule tables (Fig. 5). */
#include "plan/mt_sched.h"
#include <stdlib.h>
#include <string.h>

#define NAME_(name, fn, desc) #name,
#define DESC_(name, fn, desc) desc,
#define FN_(name, fn, desc) fn,
const char *const mt_algo_names[] = {MT_ALGO_LIST(NAME_) NULL};
const char *const mt_algo_descs[] = {MT_ALGO_LIST(DESC_)};
static int (*const planners[])(mt_sched *, const mt_topo *, mt_err *) = {MT_ALGO_LIST(FN_)};

int mt_algo_from_name(const char *name) {
  for (int a = 0; a < MT_ALGO_COUNT; a++)
    if (!strcmp(name, mt_algo_names[a])) return a;
  return -1;
}

void mt_sched_init(mt_sched *s, const mt_topo *t, const char *algo, int n_flows) {
  memset(s, 0, sizeof *s);
  s->topo = t;
  snprintf(s->algo, sizeof s->algo, "%s", algo);
  s->n_nodes = t->n_nodes;
  s->n_flows = n_flows;
  s->chunk = mt_xcalloc((size_t)n_flows, sizeof *s->chunk);
  s->root = mt_xcalloc((size_t)n_flows, sizeof *s->root);
}

void mt_sched_free(mt_sched *s) {
  free(s->chunk);
  free(s->root);
  free(s->x);
  free(s->path);
  memset(s, 0, sizeof *s);
}

int mt_sched_add(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, int nlinks) {
  if (s->nx == s->capx) {
    s->capx = s->capx ? 2 * s->capx : 1024;
    s->x = mt_xrealloc(s->x, (size_t)s->capx * sizeof *s->x);
  }
  mt_xfer *x = &s->x[s->nx];
  x->flow = flow;
  x->op = (uint8_t)op;
  x->src = src;
  x->dst = dst;
  x->step = step;
  x->path_len = (uint16_t)nlinks;
  x->rev = 0;
  if (nlinks == 1) x->path_off = links[0];
  else {
    if (s->npath + nlinks > s->cappath) {
      while (s->npath + nlinks > s->cappath) s->cappath = s->cappath ? 2 * s->cappath : 1024;
      s->path = mt_xrealloc(s->path, (size_t)s->cappath * sizeof *s->path);
    }
    x->path_off = s->npath;
    memcpy(s->path + s->npath, links, (size_t)nlinks * sizeof *links);
    s->npath += nlinks;
  }
  x->multihop = (uint8_t)(mt_sched_hops(s, x) > 1);
  if (step > s->steps) s->steps = step;
  return s->nx++;
}

int mt_sched_add_reversed(mt_sched *s, int i, int flow, int op, int step) {
  if (s->nx == s->capx) {
    s->capx = s->capx ? 2 * s->capx : 1024;
    s->x = mt_xrealloc(s->x, (size_t)s->capx * sizeof *s->x);
  }
  const mt_xfer g = s->x[i];
  mt_xfer *x = &s->x[s->nx];
  *x = g;
  x->flow = flow;
  x->op = (uint8_t)op;
  x->src = g.dst;
  x->dst = g.src;
  x->step = step;
  if (g.path_len == 1) x->path_off = s->topo->rev_link[g.path_off];
  else x->rev = !g.rev;
  /* the same vertices backwards: as many router hops */
  if (step > s->steps) s->steps = step;
  return s->nx++;
}

int mt_sched_add_routed(mt_sched *s, int flow, int op, int src, int dst, int step, mt_err *e) {
  int buf[8192];
  int n = mt_topo_route(s->topo, src, dst, buf, 8192);
  if (n <= 0) return mt_fail(e, "%s: no route from node %d to node %d", s->topo->spec, src, dst);
  return mt_sched_add(s, flow, op, src, dst, step, buf, n);
}

int mt_sched_hops(const mt_sched *s, const mt_xfer *x) {
  int h = 0;
  for (int i = 0; i < x->path_len; i++)
    if (!mt_is_switch(s->topo, s->topo->links[MT_XLINK(s, x, i)].dst)) h++;
  return h;
}

int mt_sched_set_bytes(mt_sched *s, uint64_t bytes, int elem, mt_err *e) {
  if (bytes == 0) return mt_fail(e, "byte count is zero; an all-reduce needs at least one element per flow");
  if (elem <= 0 || elem > 64) return mt_fail(e, "element size %d bytes: expected 1..64", elem);
  if (bytes % (uint64_t)elem) return mt_fail(e, "%llu bytes is not a whole number of %d-byte elements", (unsigned long long)bytes, elem);
  if (bytes > 0xFFFFFFFFull) return mt_fail(e, "%llu bytes exceed 4 GiB, the most the 32-bit address and length fields of the head flit carry", (unsigned long long)bytes);
  uint64_t units = bytes / (uint64_t)elem, base = units / (uint64_t)s->n_flows, rem = units % (uint64_t)s->n_flows;
  if (base == 0)
    return mt_fail(e, "%llu bytes = %llu elements of %d bytes, fewer than the %d flows of %s: every flow needs at least one element",
                   (unsigned long long)bytes, (unsigned long long)units, elem, s->n_flows, s->algo);
  s->bytes = bytes;
  s->elem = elem;
  uint64_t at = 0;
  for (int f = 0; f < s->n_flows; f++) {
    uint64_t u = base + ((uint64_t)f < rem ? 1 : 0);
    s->chunk[f].addr = at * (uint64_t)elem;
    s->chunk[f].size = u * (uint64_t)elem;
    at += u;
  }
  return 0;
}

/* A baseline's schedule is one-hop when every transfer crosses one link (or one switch
 * path) and no directed link carries more messages in a step than its multiplicity (e.g.
 * ring on an even torus); `check` derives the same from the tables and refuses a file
 * that claims otherwise. MultiTree sets it itself. */
static int one_hop_of(const mt_sched *s) {
  for (int i = 0; i < s->nx; i++)
    if (mt_sched_hops(s, &s->x[i]) != 1) return 0;
  int *first = mt_xcalloc((size_t)s->steps + 2, sizeof(int)), *order = mt_xcalloc((size_t)s->nx + 1, sizeof(int));
  for (int i = 0; i < s->nx; i++) first[s->x[i].step + 1]++;
  for (int st = 0; st <= s->steps; st++) first[st + 1] += first[st];
  for (int i = 0; i < s->nx; i++) order[first[s->x[i].step]++] = i; /* by step; first[st] ends at step st's end */
  int *load = mt_xcalloc((size_t)s->topo->n_links, sizeof(int)), ok = 1;
  for (int st = 1, at = 0; st <= s->steps && ok; st++) {
    int end = first[st];
    for (int k = at; k < end; k++)
      for (int j = 0; j < s->x[order[k]].path_len; j++) {
        int l = MT_XLINK(s, &s->x[order[k]], j);
        if (++load[l] > s->topo->links[l].mult) ok = 0;
      }
    for (int k = at; k < end; k++)
      for (int j = 0; j < s->x[order[k]].path_len; j++) load[MT_XLINK(s, &s->x[order[k]], j)]--;
    at = end;
  }
  free(first);
  free(order);
  free(load);
  return ok;
}

int mt_plan(mt_sched *s, const mt_topo *t, const char *algo, uint64_t bytes, int elem, mt_err *e) {
  int rc;
  memset(s, 0, sizeof *s);
  const int a = mt_algo_from_name(algo);
  if (a < 0) {
    char list[256] = "";
    for (int k = 0; k < MT_ALGO_COUNT; k++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "", mt_algo_names[k]);
    return mt_fail(e, "unknown algorithm '%s' (%s)", algo, list);
  }
  rc = planners[a](s, t, e);
  if (rc == 0 && !s->one_hop) s->one_hop = one_hop_of(s);
  if (rc == 0) rc = mt_sched_set_bytes(s, bytes, elem, e);
  if (rc == 0 && s->steps > 65535) rc = mt_fail(e, "%s on %s needs %d steps; the 16-bit step field holds 65535", algo, t->spec, s->steps);
  if (rc) mt_sched_free(s);
  return rc;
}

const char *mt_op_name(int op) {
  return op == MT_OP_REDUCE ? "reduce" : op == MT_OP_GATHER ? "gather"
    : op == MT_OP_NOP                                       ? "nop"
                                                            : "?";
}

/* ---------------- schedule tables ---------------- */

static int node_L(const mt_sched *s, int tables_L, int n) {
  if (tables_L > 0) return tables_L;
  int p = s->topo->n_ports[n];
  return p > 0 ? p : 1;
}

/* A transfer as one node's table sees it, copied once from s->x so that the passes over a
 * node's transfers stay in cache: its index, flow, step, the other end, its op and routing,
 * and the ports of its first and last link. */
typedef struct {
  int idx, flow, step, peer;
  int port0, portl; /* sender's output port (first link), receiver's input port (last link) */
  uint8_t op, multihop;
} xrec;

static void xrec_of(const mt_sched *s, int i, int send, xrec *r) {
  const mt_topo *t = s->topo;
  const mt_xfer *x = &s->x[i];
  r->idx = i;
  r->flow = x->flow;
  r->step = x->step;
  r->peer = send ? x->dst : x->src;
  r->op = x->op;
  r->multihop = x->multihop;
  r->port0 = t->links[MT_XLINK(s, x, 0)].src_port;
  r->portl = t->links[MT_XLINK(s, x, x->path_len - 1)].dst_port;
}

/* Ask for the transfers a node's table reads a few iterations ahead (they lie anywhere in
 * s->x and s->path): list[k + 16]'s transfer, and list[k + 8]'s path. */
static inline void prefetch_xfer(const mt_sched *s, const int *list, int k, int end) {
  if (k + 16 < end) __builtin_prefetch(&s->x[list[k + 16]]);
  if (k + 8 < end) {
    const mt_xfer *x = &s->x[list[k + 8]];
    if (x->path_len > 1) __builtin_prefetch(&s->path[x->path_off]);
  }
}

/* The slot describing transfer r as seen from the sender (send = 1: its peer is the
 * receiver) or from the receiver (its peer is the sender). */
static mt_slot make_slot(const xrec *r, int L_recv) {
  mt_slot sl;
  sl.node = r->peer;
  sl.port = r->multihop ? MT_PORT_ROUTED : r->port0;
  sl.eject = r->portl % L_recv;
  return sl;
}

/* A transfer index with its sort key (signed fields biased so that unsigned order is theirs):
 * sorting these in place is much faster than sorting indices that point into s->x. */
typedef struct {
  uint64_t key;
  int idx;
} keyed;
static uint64_t key2(int hi, int lo) { return (uint64_t)((uint32_t)hi ^ 0x80000000u) << 32 | ((uint32_t)lo ^ 0x80000000u); }
/* by key, then by index (creation = allocation order) */
static int keyed_cmp(const void *a, const void *b) {
  const keyed *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->idx > y->idx) - (x->idx < y->idx);
}
static int entry_cmp(const void *a, const void *b) {
  const mt_entry *x = a, *y = b;
  if (x->step != y->step) return x->step - y->step;
  if (x->flow != y->flow) return x->flow - y->flow;
  return x->op - y->op;
}

/* Entries of one node in (step, flow, op) order. The keys are unique, so any sort gives the
 * same order; this one buckets by step (a node has few entries per step) and finishes with
 * an insertion sort, instead of sorting the 56-byte entries by comparisons. */
static void sort_entries(mt_entry *en, int n, int steps, int *cnt, mt_entry **scratch, int *scap) {
  if (n < 2) return;
  for (int i = 0; i < n; i++)
    if (en[i].step < 0 || en[i].step > steps + 1) {
      qsort(en, (size_t)n, sizeof *en, entry_cmp);
      return;
    }
  if (n > *scap) {
    *scap = n > 2 * *scap ? n : 2 * *scap;
    free(*scratch);
    *scratch = mt_xcalloc((size_t)*scap, sizeof **scratch);
  }
  memset(cnt, 0, (size_t)(steps + 3) * sizeof *cnt);
  for (int i = 0; i < n; i++) cnt[en[i].step + 1]++;
  for (int st = 0; st <= steps + 1; st++) cnt[st + 1] += cnt[st];
  for (int i = 0; i < n; i++) (*scratch)[cnt[en[i].step]++] = en[i];
  memcpy(en, *scratch, (size_t)n * sizeof *en);
  for (int i = 1; i < n; i++) /* within a step */
    if (entry_cmp(&en[i - 1], &en[i]) > 0) {
      mt_entry e = en[i];
      int j = i;
      for (; j > 0 && entry_cmp(&en[j - 1], &e) > 0; j--) en[j] = en[j - 1];
      en[j] = e;
    }
}

int mt_sched_tables(const mt_sched *s, int local_ports, mt_tables *tb, mt_err *e) {
  const int N = s->n_nodes, F = s->n_flows;
  memset(tb, 0, sizeof *tb);
  tb->n_nodes = N;
  tb->steps = s->steps;
  tb->n_flows = F;
  tb->local_ports = local_ports;
  /* transfers by sender and by receiver (CSR, creation order) */
  int *os = mt_xcalloc((size_t)N + 1, sizeof(int)), *is = mt_xcalloc((size_t)N + 1, sizeof(int));
  for (int i = 0; i < s->nx; i++) {
    os[s->x[i].src + 1]++;
    is[s->x[i].dst + 1]++;
  }
  for (int n = 0; n < N; n++) {
    os[n + 1] += os[n];
    is[n + 1] += is[n];
  }
  int *ol = mt_xcalloc((size_t)s->nx + 1, sizeof(int)), *il = mt_xcalloc((size_t)s->nx + 1, sizeof(int));
  int *fo = mt_xcalloc((size_t)N, sizeof(int)), *fi = mt_xcalloc((size_t)N, sizeof(int));
  for (int i = 0; i < s->nx; i++) {
    ol[os[s->x[i].src] + fo[s->x[i].src]++] = i;
    il[is[s->x[i].dst] + fi[s->x[i].dst]++] = i;
  }
  free(fo);
  free(fi);
  /* roots by node */
  int *rs = mt_xcalloc((size_t)N + 1, sizeof(int)), *rl = mt_xcalloc((size_t)F + 1, sizeof(int)), *rf = mt_xcalloc((size_t)N, sizeof(int));
  for (int f = 0; f < F; f++) rs[s->root[f] + 1]++;
  for (int n = 0; n < N; n++) rs[n + 1] += rs[n];
  for (int f = 0; f < F; f++) rl[rs[s->root[f]] + rf[s->root[f]]++] = f;
  free(rf);
  /* largest chunk per step, for the NOP lockstep estimate */
  uint64_t *stepmax = mt_xcalloc((size_t)s->steps + 2, sizeof(uint64_t));
  for (int i = 0; i < s->nx; i++) {
    uint64_t z = s->chunk[s->x[i].flow].size;
    if (z > stepmax[s->x[i].step]) stepmax[s->x[i].step] = z;
  }
  /* entries grow per node (slots never move: entries point into them) */
  size_t cap_e = (size_t)s->nx + (size_t)F + 1024;
  tb->entries = mt_xcalloc(cap_e, sizeof(mt_entry));
  tb->slots = mt_xcalloc((size_t)2 * s->nx + 1, sizeof(mt_slot));
  tb->start = mt_xcalloc((size_t)N, sizeof(int));
  tb->count = mt_xcalloc((size_t)N, sizeof(int));
  int *busy = mt_xcalloc((size_t)s->steps + 2, sizeof(int));
  int *cnt = mt_xcalloc((size_t)s->steps + 3, sizeof(int)), scap = 0;
  mt_entry *scratch = NULL;
  int most = 1; /* the most transfers one node sends or receives */
  for (int n = 0; n < N; n++) {
    if (os[n + 1] - os[n] > most) most = os[n + 1] - os[n];
    if (is[n + 1] - is[n] > most) most = is[n + 1] - is[n];
  }
  keyed *tmp = mt_xcalloc((size_t)most, sizeof *tmp);
  xrec *rin_ = mt_xcalloc((size_t)most, sizeof *rin_), *rout = mt_xcalloc((size_t)most, sizeof *rout);
  /* per flow at the current node: incoming reduce transfers (bucketed) and the gather parent */
  int *rcnt = mt_xcalloc((size_t)F + 1, sizeof(int)), *rbeg = mt_xcalloc((size_t)F + 1, sizeof(int));
  int *rin = mt_xcalloc((size_t)most + 1, sizeof(int)), *gpar = mt_xcalloc((size_t)F, sizeof(int));
  for (int f = 0; f < F; f++) gpar[f] = -1;
  int rc = 0;
  for (int n = 0; n < N && rc == 0; n++) {
    int L = node_L(s, local_ports, n);
    /* at most: one entry per transfer sent, one per flow rooted here, one NOP per step */
    size_t need = (size_t)tb->n_entries + (size_t)(os[n + 1] - os[n]) + (size_t)(rs[n + 1] - rs[n]) + (size_t)s->steps + 1;
    if (need > cap_e) {
      while (need > cap_e) cap_e *= 2;
      tb->entries = mt_xrealloc(tb->entries, cap_e * sizeof(mt_entry));
    }
    tb->start[n] = tb->n_entries;
    int first = tb->n_entries;
    const int nin = is[n + 1] - is[n], nout = os[n + 1] - os[n];
    for (int k = 0; k < nin; k++) {
      prefetch_xfer(s, il, is[n] + k, is[n + 1]);
      xrec_of(s, il[is[n] + k], 0, &rin_[k]);
    }
    for (int k = 0; k < nout; k++) {
      prefetch_xfer(s, ol, os[n] + k, os[n + 1]);
      xrec_of(s, ol[os[n] + k], 1, &rout[k]);
    }
    /* bucket incoming transfers by flow (rin: indices into rin_) */
    for (int k = 0; k < nin; k++) {
      const xrec *x = &rin_[k];
      if (x->op == MT_OP_REDUCE) rcnt[x->flow]++;
      else if (gpar[x->flow] < 0) gpar[x->flow] = k;
      else {
        rc = mt_fail(e, "%s: node %d receives the gather of flow %d twice", s->algo, n, x->flow);
        break;
      }
    }
    {
      int at = 0;
      for (int k = 0; k < nin; k++) {
        int f = rin_[k].flow;
        if (rin_[k].op == MT_OP_REDUCE && rbeg[f] == 0 && rcnt[f] > 0) {
          rbeg[f] = at + 1;
          at += rcnt[f];
        }
      }
    }
    for (int k = 0; k < nin; k++)
      if (rin_[k].op == MT_OP_REDUCE) {
        int f = rin_[k].flow;
        rin[rbeg[f] - 1 + --rcnt[f]] = k;
      }
    /* rcnt is back to 0; restore counts while emitting */
    for (int k = 0; k < nin; k++)
      if (rin_[k].op == MT_OP_REDUCE) rcnt[rin_[k].flow]++;
    /* reduce entries: one per reduce transfer sent by n, plus one per flow rooted at n */
    for (int k = 0; k < nout; k++) {
      const xrec *x = &rout[k];
      if (x->op != MT_OP_REDUCE) continue;
      mt_entry *en = &tb->entries[tb->n_entries++];
      en->op = MT_OP_REDUCE;
      en->flow = x->flow;
      en->step = x->step;
      en->has_parent = 1;
      en->parent = make_slot(x, node_L(s, local_ports, x->peer));
      en->addr = s->chunk[x->flow].addr;
      en->size = s->chunk[x->flow].size;
    }
    for (int r = rs[n]; r < rs[n + 1]; r++) {
      mt_entry *en = &tb->entries[tb->n_entries++];
      en->op = MT_OP_REDUCE;
      en->flow = rl[r];
      en->step = 0;
      en->has_parent = 0;
      en->addr = s->chunk[rl[r]].addr;
      en->size = s->chunk[rl[r]].size;
    }
    for (int i = first; i < tb->n_entries && rc == 0; i++) {
      mt_entry *en = &tb->entries[i];
      int f = en->flow, nt = rcnt[f];
      for (int c = 0; c < nt; c++) { /* reduce children: by the step they send in, then by node id */
        const xrec *x = &rin_[rin[rbeg[f] - 1 + c]];
        tmp[c].key = key2(x->step, x->peer);
        tmp[c].idx = rin[rbeg[f] - 1 + c];
      }
      if (nt > 1) qsort(tmp, (size_t)nt, sizeof *tmp, keyed_cmp);
      en->child = tb->slots + tb->n_slots;
      en->nchild = nt;
      for (int c = 0; c < nt; c++) {
        const xrec *x = &rin_[tmp[c].idx];
        tb->slots[tb->n_slots++] = make_slot(x, L);
        /* root: the step after the last child sends, so that the root reduce entry, which
         * waits for every contribution, never holds up a send of that step in the NI's
         * in-order issue (docs/formats.md) */
        if (!en->has_parent && x->step + 1 > en->step) en->step = x->step + 1;
        if (en->has_parent && x->step >= en->step)
          rc = mt_fail(e, "%s: node %d sends the reduce of flow %d at step %d, but its child %d sends at step %d",
                       s->algo, n, f, en->step, x->peer, x->step);
      }
      if (!en->has_parent && nt == 0) rc = mt_fail(e, "%s: root %d of flow %d receives no reduce contribution", s->algo, n, f);
    }
    /* gather entries: n's gather sends grouped by (flow, step), children in allocation order */
    int ng = 0;
    for (int k = 0; k < nout; k++) /* by (flow, step), then creation order */
      if (rout[k].op == MT_OP_GATHER) {
        tmp[ng].key = key2(rout[k].flow, rout[k].step);
        tmp[ng++].idx = k;
      }
    qsort(tmp, (size_t)ng, sizeof *tmp, keyed_cmp); /* local indices follow creation order */
    for (int k = 0; k < ng && rc == 0; k++) {
      const xrec *x = &rout[tmp[k].idx];
      if (k == 0 || tmp[k - 1].key != tmp[k].key) {
        mt_entry *en = &tb->entries[tb->n_entries++];
        en->op = MT_OP_GATHER;
        en->flow = x->flow;
        en->step = x->step;
        en->addr = s->chunk[x->flow].addr;
        en->size = s->chunk[x->flow].size;
        en->child = tb->slots + tb->n_slots;
        en->nchild = 0;
        en->has_parent = gpar[x->flow] >= 0;
        if (en->has_parent) en->parent = make_slot(&rin_[gpar[x->flow]], L);
        else if (s->root[x->flow] != n) rc = mt_fail(e, "%s: node %d sends the gather of flow %d without receiving it", s->algo, n, x->flow);
      }
      tb->slots[tb->n_slots++] = make_slot(x, node_L(s, local_ports, x->peer));
      tb->entries[tb->n_entries - 1].nchild++;
    }
    /* reset the per-flow scratch */
    for (int k = 0; k < nin; k++) {
      int f = rin_[k].flow;
      rcnt[f] = 0;
      rbeg[f] = 0;
      gpar[f] = -1;
    }
    /* NOPs for idle steps */
    memset(busy, 0, (size_t)(s->steps + 2) * sizeof(int));
    for (int i = first; i < tb->n_entries; i++) busy[tb->entries[i].step] = 1;
    for (int st = 1; st <= s->steps; st++)
      if (!busy[st]) {
        mt_entry *en = &tb->entries[tb->n_entries++];
        memset(en, 0, sizeof *en);
        en->op = MT_OP_NOP;
        en->step = st;
        en->size = stepmax[st];
      }
    tb->count[n] = tb->n_entries - first;
    sort_entries(tb->entries + first, tb->count[n], s->steps, cnt, &scratch, &scap);
    if (tb->count[n] > tb->max_entries) tb->max_entries = tb->count[n];
    for (int i = first; i < tb->n_entries; i++)
      if (tb->entries[i].nchild > tb->max_children) tb->max_children = tb->entries[i].nchild;
  }
  free(os);
  free(is);
  free(ol);
  free(il);
  free(rs);
  free(rl);
  free(stepmax);
  free(busy);
  free(cnt);
  free(scratch);
  free(tmp);
  free(rin_);
  free(rout);
  free(rcnt);
  free(rbeg);
  free(rin);
  free(gpar);
  if (rc) mt_tables_free(tb);
  return rc;
}

void mt_tables_free(mt_tables *tb) {
  free(tb->start);
  free(tb->count);
  free(tb->entries);
  free(tb->slots);
  memset(tb, 0, sizeof *tb);
}
