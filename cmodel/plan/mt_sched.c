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

mt_plan_opts mt_plan_opt = {0, -1, 0, 0, 0};
_Static_assert(sizeof(mt_xfer) == 16, "mt_xfer grew: the 64x64 MultiTree schedule holds 33.5 million of them");

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

void mt_sched_nop_bytes(const mt_sched *s, uint64_t *out) {
  memset(out, 0, ((size_t)s->steps + 2) * sizeof(uint64_t));
  if (!s->nop_link) {
    for (int i = 0; i < s->nx; i++) {
      const uint64_t z = s->chunk[s->x[i].flow].size;
      if (z > out[s->x[i].step]) out[s->x[i].step] = z;
    }
    return;
  }
  /* bytes per (step, directed link): a step lasts as long as its busiest link needs. A node
   * idle in a step then waits that long, so it stays in phase with the nodes that are busy
   * (docs/reference/planner.md "bucket", "Mesh lines in phase") */
  const size_t NL = (size_t)s->topo->n_links;
  uint64_t *lb = mt_xcalloc(NL * ((size_t)s->steps + 2), sizeof(uint64_t));
  for (int i = 0; i < s->nx; i++)
    for (int h = 0; h < s->x[i].path_len; h++)
      lb[(size_t)s->x[i].step * NL + (size_t)MT_XLINK(s, &s->x[i], h)] += s->chunk[s->x[i].flow].size;
  for (int st = 1; st <= s->steps; st++)
    for (size_t l = 0; l < NL; l++) {
      const uint64_t m = s->topo->links[l].mult > 1 ? (uint64_t)s->topo->links[l].mult : 1;
      uint64_t z = (lb[(size_t)st * NL + l] + m - 1) / m;
      if (z > s->bytes) z = s->bytes;
      if (z > out[st]) out[st] = z;
    }
  free(lb);
}

void mt_sched_free(mt_sched *s) {
  free(s->chunk);
  free(s->root);
  free(s->x);
  free(s->path);
  free(s->pc);
  memset(s, 0, sizeof *s);
}

/* Bits of a position in the out list of a vertex of out-degree deg. */
static inline int pos_bits(int deg) { return deg <= 1 ? 0 : 32 - __builtin_clz((unsigned)deg - 1); }

static inline int vdeg(const mt_topo *t, int v) { return t->out_start[v + 1] - t->out_start[v]; }

/* A path from v0 to vl of nlinks links can be coded (its code then fits s->pc), or -1 (too
 * long, a vertex id above 16 bits, the offset past 31 bits). */
static int code_fits(mt_sched *s, int v0, int vl, int nlinks) {
  if (nlinks > MT_PCODE_MAX || v0 > 0xFFFF || vl > 0xFFFF || s->npc > (long)INT32_MAX - 4 * MT_PCODE_MAX - 64) return -1;
  if (s->npc + 4 + 4 * MT_PCODE_MAX + 8 > s->cappc) {
    s->cappc = s->cappc ? 2 * s->cappc : 4096;
    s->pc = mt_xrealloc(s->pc, (size_t)s->cappc);
  }
  if (!s->pgen) {
    static _Atomic unsigned long long next_gen = 0;
    s->pgen = ++next_gen;
  }
  return 0;
}

/* Append the position code of a path from v0 to vl (code_fits): pw[i] = link i's position in
 * its source's out list << 8 | the bits of such a position. */
static void code_put(mt_sched *s, mt_xfer *x, int v0, int vl, const int *pw, int nlinks) {
  unsigned char *c = s->pc + s->npc;
  c[0] = (unsigned char)(v0 & 0xFF);
  c[1] = (unsigned char)(v0 >> 8);
  c[2] = (unsigned char)(vl & 0xFF);
  c[3] = (unsigned char)(vl >> 8);
  uint64_t acc = 0; /* bits not yet written, written a byte at a time when the word is full */
  int nacc = 0, nb = 4;
  for (int i = 0; i < nlinks; i++) {
    const int w = pw[i] & 0xFF;
    if (w == 0) continue;
    for (; nacc + w > 64; nacc -= 8, acc >>= 8) c[nb++] = (unsigned char)(acc & 0xFF);
    acc |= (uint64_t)(pw[i] >> 8) << nacc;
    nacc += w;
  }
  for (; nacc > 0; nacc -= 8, acc >>= 8) c[nb++] = (unsigned char)(acc & 0xFF);
  x->path_off = (int32_t)s->npc;
  s->npc += nb;
}

/* The path's position code appended to s->pc (x->path_off its offset); -1 when it cannot be
 * coded (code_fits, or not a chain of links). */
static int code_path(mt_sched *s, mt_xfer *x, const int *links, int nlinks) {
  const mt_topo *t = s->topo;
  const int v0 = t->lse[links[0]][0], vl = t->lse[links[nlinks - 1]][1];
  if (nlinks > MT_PCODE_MAX) return -1;
  if (vdeg(t, vl) == 1 && links[nlinks - 1] != t->rev_link[t->out_list[t->out_start[vl]]]) return -1;
  int pw[MT_PCODE_MAX], v = v0;
  for (int i = 0; i < nlinks; i++) { /* the position from the link's own source: no load waits for the previous link's */
    const int *e = t->lse[links[i]], u = e[0], k0 = t->out_start[u];
    if (u != v) return -1;
    pw[i] = (e[2] - k0) << 8 | pos_bits(t->out_start[u + 1] - k0);
    v = e[1];
  }
  if (code_fits(s, v0, vl, nlinks)) return -1;
  code_put(s, x, v0, vl, pw, nlinks);
  return 0;
}

/* The links of a coded path from its position code (stored order). */
static void decode_path(const mt_topo *t, const unsigned char *c, int n, int *out) {
  int v = c[0] | c[1] << 8, nb = 4, nacc = 0;
  uint64_t acc = 0;
  for (int i = 0; i < n; i++) {
    const int k0 = t->out_start[v], w = pos_bits(t->out_start[v + 1] - k0);
    while (nacc < w) {
      acc |= (uint64_t)c[nb++] << nacc;
      nacc += 8;
    }
    const int k = k0 + (int)(acc & ((1ull << w) - 1));
    acc >>= w;
    nacc -= w;
    out[i] = t->out_list[k];
    v = t->out_dst[k]; /* the next vertex without waiting for the link id */
  }
}

void mt_sched_path_links(const mt_sched *s, const mt_xfer *x, int *out) {
  const int n = x->path_len;
  if (n == 1 || !x->pcode) {
    for (int i = 0; i < n; i++) out[i] = mt_xlink(s, x, i);
    return;
  }
  decode_path(s->topo, s->pc + x->path_off, n, out);
  if (!x->rev) return;
  for (int i = 0, j = n - 1; i < j; i++, j--) {
    const int a = out[i];
    out[i] = out[j];
    out[j] = a;
  }
  for (int i = 0; i < n; i++) out[i] = s->topo->rev_link[out[i]];
}

int mt_sched_coded_link(const mt_sched *s, const mt_xfer *x, int i) {
  static _Thread_local struct {
    unsigned long long gen;
    int32_t off;
    int l[MT_PCODE_MAX];
  } last;
  const mt_topo *t = s->topo;
  const unsigned char *c = s->pc + x->path_off;
  const int n = x->path_len, j = x->rev ? n - 1 - i : i; /* stored link j */
  int l;
  if (last.gen == s->pgen && last.off == x->path_off) l = last.l[j];
  else if (j == 0) { /* the first link: one position to read */
    const int v = c[0] | c[1] << 8, k0 = t->out_start[v], w = pos_bits(t->out_start[v + 1] - k0);
    uint32_t p = 0;
    for (int b = 0; 8 * b < w; b++) p |= (uint32_t)c[4 + b] << (8 * b);
    l = t->out_list[k0 + (int)(p & (uint32_t)((1ull << w) - 1))];
  } else if (j == n - 1 && vdeg(t, c[2] | c[3] << 8) == 1) /* into an end of one link: its reverse */
    l = t->rev_link[t->out_list[t->out_start[c[2] | c[3] << 8]]];
  else {
    decode_path(t, c, n, last.l);
    last.gen = s->pgen;
    last.off = x->path_off;
    l = last.l[j];
  }
  return x->rev ? t->rev_link[l] : l;
}

int mt_sched_add(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, int nlinks) {
  const int i = mt_sched_add_onehop(s, flow, op, src, dst, step, links, nlinks);
  s->x[i].multihop = (uint8_t)(mt_sched_hops(s, &s->x[i]) > 1);
  return i;
}

/* A new transfer (its path not set yet). */
static mt_xfer *xfer_new(mt_sched *s, int flow, int op, int src, int dst, int step, int nlinks) {
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
  x->pcode = 0;
  x->multihop = 0;
  if (step > s->steps) s->steps = step;
  return x;
}

int mt_sched_add_onehop(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, int nlinks) {
  mt_xfer *x = xfer_new(s, flow, op, src, dst, step, nlinks);
  if (nlinks == 1) x->path_off = links[0];
  else if (s->topo->n_sw > 0 && code_path(s, x, links, nlinks) == 0)
    x->pcode = 1;
  else {
    if (s->npath + nlinks > s->cappath) {
      while (s->npath + nlinks > s->cappath) s->cappath = s->cappath ? 2 * s->cappath : 1024;
      s->path = mt_xrealloc(s->path, (size_t)s->cappath * sizeof *s->path);
    }
    x->path_off = s->npath;
    memcpy(s->path + s->npath, links, (size_t)nlinks * sizeof *links);
    s->npath += nlinks;
  }
  return s->nx++;
}

int mt_sched_add_onehop_pos(mt_sched *s, int flow, int op, int src, int dst, int step, const int *links, const int *pw,
                            int nlinks) {
  if (nlinks < 2 || s->topo->n_sw == 0 || code_fits(s, src, dst, nlinks)) return mt_sched_add_onehop(s, flow, op, src, dst, step, links, nlinks);
  mt_xfer *x = xfer_new(s, flow, op, src, dst, step, nlinks);
  code_put(s, x, src, dst, pw, nlinks);
  x->pcode = 1;
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

int mt_sched_bytes_ok(uint64_t bytes, int elem, mt_err *e) {
  if (bytes == 0) return mt_fail(e, "byte count is zero; an all-reduce needs at least one element per flow");
  if (elem <= 0 || elem > 64) return mt_fail(e, "element size %d bytes: expected 1..64", elem);
  if (bytes % (uint64_t)elem) return mt_fail(e, "%llu bytes is not a whole number of %d-byte elements", (unsigned long long)bytes, elem);
  if (bytes > 0xFFFFFFFFull) return mt_fail(e, "%llu bytes exceed 4 GiB, the most the 32-bit address and length fields of the head flit carry", (unsigned long long)bytes);
  return 0;
}

int mt_sched_uneven(const mt_sched *s) {
  return !strcmp(s->algo, "flexreduce") || !strcmp(s->algo, "blueconnect") || !strcmp(s->algo, "bucket");
}

int mt_sched_set_bytes(mt_sched *s, uint64_t bytes, int elem, mt_err *e) {
  if (mt_sched_bytes_ok(bytes, elem, e)) return -1;
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
  if ((mt_plan_opt.chunks || mt_plan_opt.intra >= 0) && a != mt_algo_hier && a != mt_algo_themis && a != mt_algo_dimbal)
    return mt_fail(e, "--chunks and --intra apply to hier, themis and dimbal, not %s", algo);
  /* before the planners: a planner reads bytes 0 as "not given" and takes a default size */
  if (bytes == 0) return mt_fail(e, "byte count is zero; an all-reduce needs at least one element per flow");
  mt_plan_opt.bytes = bytes;
  mt_plan_opt.elem = elem;
  rc = planners[a](s, t, e);
  if (rc == 0 && !s->one_hop) s->one_hop = one_hop_of(s);
  if (rc == 0 && !s->bytes) rc = mt_sched_set_bytes(s, bytes, elem, e); /* uneven planners (flexreduce) cut their own */
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

/* A transfer as one node's table sees it: flow, step, the other end, its op and routing,
 * and the ports of its first and last link. 16 bytes: steps, node ids and ports of end
 * nodes fit 16 bits (checked as the records are made), flows 32. */
typedef struct {
  uint32_t flow;
  uint16_t step, peer;
  uint16_t port0, portl; /* sender's output port (first link), receiver's input port (last link) */
  uint8_t op, multihop;
} xrec;

/* The slot describing transfer r as seen from the sender (its peer is the receiver) or
 * from the receiver (its peer is the sender). */
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
/* Ascending, by insertion: called for at most 64 ints. */
static void sort_ints(int *a, int n) {
  for (int i = 1; i < n; i++) {
    const int v = a[i];
    int j = i;
    for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
    a[j] = v;
  }
}

static inline int keyed_less(const keyed *x, const keyed *y) { return x->key != y->key ? x->key < y->key : x->idx < y->idx; }
/* By key, then by index (creation = allocation order; a total order: the indices differ): by
 * insertion for the few children of an entry, above that a quicksort with the comparison
 * inlined (qsort and its comparison calls were 10 % of `plan`'s samples on the 4096-node
 * star, whose roots have hundreds of children). */
static void sort_keyed(keyed *k, int n) {
  while (n > 16) {
    const int m = n / 2; /* median of three to k[0] */
    if (keyed_less(&k[m], &k[0])) {
      keyed t = k[m];
      k[m] = k[0];
      k[0] = t;
    }
    if (keyed_less(&k[n - 1], &k[m])) {
      keyed t = k[n - 1];
      k[n - 1] = k[m];
      k[m] = t;
      if (keyed_less(&k[m], &k[0])) {
        t = k[m];
        k[m] = k[0];
        k[0] = t;
      }
    }
    const keyed piv = k[m];
    int i = 0, j = n - 1;
    for (;;) { /* Hoare partition: k[0..j] <= piv <= k[j+1..n) */
      while (keyed_less(&k[i], &piv)) i++;
      while (keyed_less(&piv, &k[j])) j--;
      if (i >= j) break;
      keyed t = k[i];
      k[i++] = k[j];
      k[j--] = t;
    }
    if (j + 1 < n - j - 1) { /* recurse into the smaller part */
      sort_keyed(k, j + 1);
      k += j + 1;
      n -= j + 1;
    } else {
      sort_keyed(k + j + 1, n - j - 1);
      n = j + 1;
    }
  }
  for (int i = 1; i < n; i++) {
    keyed v = k[i];
    int j = i;
    for (; j > 0 && keyed_less(&v, &k[j - 1]); j--) k[j] = k[j - 1];
    k[j] = v;
  }
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

/* Records of the transfers of a block of consecutive nodes, filled by one sequential pass
 * over s->x (a node's transfers lie anywhere in it: reading them by index was two cache
 * misses per transfer, and the index lists by sender and receiver took 8 bytes per
 * transfer, 268 MB at 4096 nodes). Blocks hold about this many records. */
#define MT_GEN_BLOCK_RECS ((size_t)4 << 20)

struct mt_tables_gen {
  const mt_sched *s;
  int local_ports, N, F;
  int *nout, *nin;    /* [N]: transfers node n sends, receives */
  int *oport, *iport; /* [N]: the port of node n's only out link, of its only in link; or -1 */
  int b0, b1;         /* the block held: nodes b0..b1-1 */
  size_t *boff;       /* [N + 1 - b0]: node b0+k's out records at rec[boff[k]], then its in records */
  xrec *rec;          /* the block's records */
  size_t caprec;
  int *rs, *rl;            /* roots by node (CSR) */
  uint64_t *stepmax;       /* largest chunk per step, for the NOP lockstep estimate */
  int *busy, *cnt, scap;   /* per-node scratch */
  mt_entry *scratch, *ent; /* ent: the current node's entries */
  mt_slot *slot;           /* the current node's slots */
  size_t capent, capslot;
  keyed *tmp;
  int most; /* the most transfers one node sends or receives */
  /* per flow at the current node: incoming reduce transfers (bucketed) and the gather parent */
  int *rcnt, *rbeg, *rin, *gpar;
  int *gcnt, *gbeg, *gfl; /* gather sends of the current node by flow, and its flows */
  keyed *ord;             /* MT_ISSUE_BYTES: the entries of a step with their keys */
  uint64_t *queued;       /* [L + 1]: bytes queued per packetiser in the step (L: routed) */
  size_t capord, capq;
};

mt_tables_gen *mt_tables_gen_new(const mt_sched *s, int local_ports) {
  mt_tables_gen *g = mt_xcalloc(1, sizeof *g);
  const int N = s->n_nodes, F = s->n_flows;
  g->s = s;
  g->local_ports = local_ports;
  g->N = N;
  g->F = F;
  g->nout = mt_xcalloc((size_t)N + 1, sizeof(int));
  g->nin = mt_xcalloc((size_t)N + 1, sizeof(int));
  for (int i = 0; i < s->nx; i++) {
    g->nout[s->x[i].src]++;
    g->nin[s->x[i].dst]++;
  }
  g->most = 1;
  for (int n = 0; n < N; n++) {
    if (g->nout[n] > g->most) g->most = g->nout[n];
    if (g->nin[n] > g->most) g->most = g->nin[n];
  }
  /* the ports of end nodes of one link: a transfer's first and last port without its path */
  const mt_topo *t = s->topo;
  g->oport = mt_xcalloc((size_t)N + 1, sizeof(int));
  g->iport = mt_xcalloc((size_t)N + 1, sizeof(int));
  int *indeg = mt_xcalloc((size_t)N + 1, sizeof(int));
  for (int l = 0; l < t->n_links; l++)
    if (t->links[l].dst < N) {
      indeg[t->links[l].dst]++;
      g->iport[t->links[l].dst] = t->links[l].dst_port;
    }
  for (int n = 0; n < N; n++) {
    g->oport[n] = t->out_start[n + 1] - t->out_start[n] == 1 ? t->links[t->out_list[t->out_start[n]]].src_port : -1;
    if (indeg[n] != 1) g->iport[n] = -1;
  }
  free(indeg);
  g->b0 = g->b1 = 0;
  g->boff = mt_xcalloc((size_t)N + 2, sizeof(size_t));
  int *rf = mt_xcalloc((size_t)N, sizeof(int));
  g->rs = mt_xcalloc((size_t)N + 1, sizeof(int));
  g->rl = mt_xcalloc((size_t)F + 1, sizeof(int));
  for (int f = 0; f < F; f++) g->rs[s->root[f] + 1]++;
  for (int n = 0; n < N; n++) g->rs[n + 1] += g->rs[n];
  for (int f = 0; f < F; f++) g->rl[g->rs[s->root[f]] + rf[s->root[f]]++] = f;
  free(rf);
  g->stepmax = mt_xcalloc((size_t)s->steps + 2, sizeof(uint64_t));
  mt_sched_nop_bytes(s, g->stepmax);
  g->busy = mt_xcalloc((size_t)s->steps + 2, sizeof(int));
  g->cnt = mt_xcalloc((size_t)s->steps + 3, sizeof(int));
  g->tmp = mt_xcalloc((size_t)g->most, sizeof *g->tmp);
  g->rcnt = mt_xcalloc((size_t)F + 1, sizeof(int));
  g->rbeg = mt_xcalloc((size_t)F + 1, sizeof(int));
  g->rin = mt_xcalloc((size_t)g->most + 1, sizeof(int));
  g->gpar = mt_xcalloc((size_t)F, sizeof(int));
  g->gcnt = mt_xcalloc((size_t)F + 1, sizeof(int));
  g->gbeg = mt_xcalloc((size_t)F + 1, sizeof(int));
  g->gfl = mt_xcalloc((size_t)g->most + 1, sizeof(int));
  for (int f = 0; f < F; f++) g->gpar[f] = -1;
  return g;
}

void mt_tables_gen_free(mt_tables_gen *g) {
  if (!g) return;
  free(g->nout);
  free(g->oport);
  free(g->iport);
  free(g->nin);
  free(g->boff);
  free(g->rec);
  free(g->rs);
  free(g->rl);
  free(g->stepmax);
  free(g->busy);
  free(g->cnt);
  free(g->scratch);
  free(g->ent);
  free(g->slot);
  free(g->tmp);
  free(g->rcnt);
  free(g->rbeg);
  free(g->rin);
  free(g->gpar);
  free(g->gcnt);
  free(g->gbeg);
  free(g->gfl);
  free(g->ord);
  free(g->queued);
  free(g);
}

static int xrec_of(const mt_tables_gen *g, const mt_xfer *x, int send, xrec *r) {
  const mt_sched *s = g->s;
  const mt_topo *t = s->topo;
  const int p0 = g->oport[x->src] >= 0 ? g->oport[x->src] : t->links[MT_XLINK(s, x, 0)].src_port;
  const int pl = g->iport[x->dst] >= 0 ? g->iport[x->dst] : t->links[MT_XLINK(s, x, x->path_len - 1)].dst_port;
  r->flow = x->flow;
  r->step = (uint16_t)x->step;
  r->peer = (uint16_t)(send ? x->dst : x->src);
  r->op = x->op;
  r->multihop = x->multihop;
  r->port0 = (uint16_t)p0;
  r->portl = (uint16_t)pl;
  return p0 > 0xFFFF || pl > 0xFFFF;
}

/* The packetiser an entry's first send uses (port mod L; L for a routed send), -1 for none. */
static int entry_pktz(const mt_entry *en, int L) {
  const mt_slot *sl = en->op == MT_OP_REDUCE ? (en->has_parent ? &en->parent : NULL) : en->op == MT_OP_GATHER && en->nchild ? &en->child[0]
                                                                                                                            : NULL;
  if (!sl) return -1;
  return sl->port == MT_PORT_ROUTED ? L : sl->port % L;
}

/* MT_ISSUE_BYTES: within each step, entries (in (flow, op) order) by the bytes their
 * packetiser has queued before them, ties in flow order. A gather's later children queue on
 * their own packetisers. A root reduce entry (no send) takes the key of its flow's gather in
 * the step, just before it; without one it goes last, where its wait for the contributions
 * holds up no send. */
static void order_by_bytes(mt_tables_gen *g, mt_entry *ent, int ne, int L) {
  if ((size_t)ne > g->capord) {
    free(g->ord);
    g->capord = (size_t)ne;
    g->ord = mt_xcalloc(g->capord, sizeof *g->ord);
    free(g->scratch);
    g->scap = ne;
    g->scratch = mt_xcalloc((size_t)ne, sizeof *g->scratch);
  }
  if ((size_t)L + 1 > g->capq) {
    free(g->queued);
    g->capq = (size_t)L + 1;
    g->queued = mt_xcalloc(g->capq, sizeof *g->queued);
  }
  keyed *o = g->ord;
  for (int a = 0, b; a < ne; a = b) {
    for (b = a; b < ne && ent[b].step == ent[a].step; b++) {
      const int k = entry_pktz(&ent[b], L);
      o[b - a].idx = b;
      o[b - a].key = k < 0 ? UINT64_MAX : g->queued[k];
      if (k < 0) continue;
      for (int c = 0; c < (ent[b].op == MT_OP_GATHER ? ent[b].nchild : 1); c++) {
        const mt_slot *sl = ent[b].op == MT_OP_GATHER ? &ent[b].child[c] : &ent[b].parent;
        g->queued[sl->port == MT_PORT_ROUTED ? L : sl->port % L] += ent[b].size;
      }
    }
    for (int i = a; i < b; i++) { /* reset, and a root reduce entry to its gather's key */
      const int k = entry_pktz(&ent[i], L);
      if (k >= 0) g->queued[k] = 0;
      if (ent[i].op == MT_OP_GATHER)
        for (int c = 0; c < ent[i].nchild; c++) g->queued[ent[i].child[c].port == MT_PORT_ROUTED ? L : ent[i].child[c].port % L] = 0;
      if (ent[i].op == MT_OP_REDUCE && !ent[i].has_parent && i + 1 < b && ent[i + 1].flow == ent[i].flow &&
          ent[i + 1].op == MT_OP_GATHER)
        o[i - a].key = o[i + 1 - a].key;
    }
    if (b - a < 2) continue;
    sort_keyed(o, b - a);
    for (int i = a; i < b; i++) g->scratch[i - a] = ent[o[i - a].idx];
    memcpy(ent + a, g->scratch, (size_t)(b - a) * sizeof *ent);
  }
}

/* Holds the records of the block of nodes that starts at n. */
static int load_block(mt_tables_gen *g, int n, mt_err *e) {
  const mt_sched *s = g->s;
  size_t tot = 0;
  int b1 = n;
  while (b1 < g->N && (b1 == n || tot + (size_t)g->nout[b1] + (size_t)g->nin[b1] <= MT_GEN_BLOCK_RECS)) {
    g->boff[b1 - n] = tot;
    tot += (size_t)g->nout[b1] + (size_t)g->nin[b1];
    b1++;
  }
  g->boff[b1 - n] = tot;
  if (tot > g->caprec) {
    free(g->rec);
    g->caprec = tot;
    g->rec = mt_xcalloc(tot, sizeof *g->rec);
  }
  g->b0 = n;
  g->b1 = b1;
  size_t *fo = mt_xcalloc((size_t)(b1 - n) + 1, sizeof(size_t)), *fi = mt_xcalloc((size_t)(b1 - n) + 1, sizeof(size_t));
  for (int k = 0; k < b1 - n; k++) {
    fo[k] = g->boff[k];
    fi[k] = g->boff[k] + (size_t)g->nout[n + k];
  }
  int big = 0;
  for (int i = 0; i < s->nx; i++) { /* creation order */
    const mt_xfer *x = &s->x[i];
    if (x->src >= n && x->src < b1) big |= xrec_of(g, x, 1, &g->rec[fo[x->src - n]++]);
    if (x->dst >= n && x->dst < b1) big |= xrec_of(g, x, 0, &g->rec[fi[x->dst - n]++]);
  }
  free(fo);
  free(fi);
  if (big) return mt_fail(e, "%s: a port number above 65535 (the tables' 16-bit port fields)", s->algo);
  return 0;
}

int mt_tables_gen_node(mt_tables_gen *g, int n, const mt_entry **out, int *count, mt_err *e) {
  const mt_sched *s = g->s;
  const int local_ports = g->local_ports;
  if ((n < g->b0 || n >= g->b1) && load_block(g, n, e)) return -1;
  int L = node_L(s, local_ports, n);
  const int nout = g->nout[n], nin = g->nin[n];
  const xrec *rout = g->rec + g->boff[n - g->b0], *rin_ = rout + nout;
  /* at most: one entry per transfer sent, one per flow rooted here, one NOP per step;
   * slots: a reduce entry's children are the node's reduce transfers of its flow */
  size_t need = (size_t)nout + (size_t)(g->rs[n + 1] - g->rs[n]) + (size_t)s->steps + 1;
  if (need > g->capent) {
    free(g->ent);
    g->capent = need > 2 * g->capent ? need : 2 * g->capent;
    g->ent = mt_xcalloc(g->capent, sizeof *g->ent);
  }
  int *rcnt = g->rcnt, *rbeg = g->rbeg, *rin = g->rin, *gpar = g->gpar;
  keyed *tmp = g->tmp;
  mt_entry *ent = g->ent;
  int ne = 0, rc = 0;
  size_t nsl = 0;
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
    mt_entry *en = &ent[ne++];
    memset(en, 0, sizeof *en);
    en->op = MT_OP_REDUCE;
    en->flow = x->flow;
    en->step = x->step;
    en->has_parent = 1;
    en->parent = make_slot(x, node_L(s, local_ports, x->peer));
    en->addr = s->chunk[x->flow].addr;
    en->size = s->chunk[x->flow].size;
  }
  for (int r = g->rs[n]; r < g->rs[n + 1]; r++) {
    mt_entry *en = &ent[ne++];
    memset(en, 0, sizeof *en);
    en->op = MT_OP_REDUCE;
    en->flow = g->rl[r];
    en->step = 0;
    en->has_parent = 0;
    en->addr = s->chunk[g->rl[r]].addr;
    en->size = s->chunk[g->rl[r]].size;
  }
  /* slots: the reduce entries' children, then one per gather transfer sent */
  size_t needsl = (size_t)nout + 1;
  for (int i = 0; i < ne; i++) needsl += (size_t)rcnt[ent[i].flow];
  if (needsl > g->capslot) {
    free(g->slot);
    g->capslot = needsl > 2 * g->capslot ? needsl : 2 * g->capslot;
    g->slot = mt_xcalloc(g->capslot, sizeof *g->slot);
  }
  for (int i = 0; i < ne && rc == 0; i++) {
    mt_entry *en = &ent[i];
    int f = en->flow, nt = rcnt[f];
    for (int c = 0; c < nt; c++) { /* reduce children: by the step they send in, then by node id */
      const xrec *x = &rin_[rin[rbeg[f] - 1 + c]];
      tmp[c].key = key2(x->step, x->peer);
      tmp[c].idx = rin[rbeg[f] - 1 + c];
    }
    if (nt > 1) sort_keyed(tmp, nt);
    en->child = g->slot + nsl;
    en->nchild = nt;
    for (int c = 0; c < nt; c++) {
      const xrec *x = &rin_[tmp[c].idx];
      g->slot[nsl++] = make_slot(x, L);
      /* root: the step after the last child sends, so that the root reduce entry, which
       * waits for every contribution, never holds up a send of that step in the NI's
       * in-order issue (docs/reference/formats.md) */
      if (!en->has_parent && x->step + 1 > en->step) en->step = x->step + 1;
      if (en->has_parent && x->step >= en->step)
        rc = mt_fail(e, "%s: node %d sends the reduce of flow %d at step %d, but its child %d sends at step %d", s->algo, n, f, en->step,
                     x->peer, x->step);
    }
    if (!en->has_parent && nt == 0) rc = mt_fail(e, "%s: root %d of flow %d receives no reduce contribution", s->algo, n, f);
  }
  /* gather entries: n's gather sends grouped by (flow, step), children in allocation order */
  /* by (flow, step), then creation order: flows by a counting sort (stable: creation order),
   * the few sends of a flow by insertion (a qsort of a node's 4096 sends was the most
   * expensive part of the tables of a 4096-node schedule) */
  int ng = 0, nf = 0, *gcnt = g->gcnt, *gbeg = g->gbeg, *gfl = g->gfl;
  for (int k = 0; k < nout; k++)
    if (rout[k].op == MT_OP_GATHER && gcnt[rout[k].flow]++ == 0) gfl[nf++] = rout[k].flow;
  if (nf > 64) { /* the flows present, ascending */
    nf = 0;
    for (int f = 0; f < g->F; f++)
      if (gcnt[f]) gfl[nf++] = f;
  } else
    sort_ints(gfl, nf);
  for (int i = 0; i < nf; i++) {
    gbeg[gfl[i]] = ng;
    ng += gcnt[gfl[i]];
  }
  for (int k = 0; k < nout; k++)
    if (rout[k].op == MT_OP_GATHER) {
      keyed *d = &tmp[gbeg[rout[k].flow]++];
      d->key = key2(rout[k].flow, rout[k].step);
      d->idx = k;
    }
  for (int i = 0, at = 0; i < nf; at += gcnt[gfl[i]], gcnt[gfl[i]] = 0, i++) sort_keyed(tmp + at, gcnt[gfl[i]]);
  for (int k = 0; k < ng && rc == 0; k++) {
    const xrec *x = &rout[tmp[k].idx];
    if (k == 0 || tmp[k - 1].key != tmp[k].key) {
      mt_entry *en = &ent[ne++];
      memset(en, 0, sizeof *en);
      en->op = MT_OP_GATHER;
      en->flow = x->flow;
      en->step = x->step;
      en->addr = s->chunk[x->flow].addr;
      en->size = s->chunk[x->flow].size;
      en->child = g->slot + nsl;
      en->nchild = 0;
      en->has_parent = gpar[x->flow] >= 0;
      if (en->has_parent) en->parent = make_slot(&rin_[gpar[x->flow]], L);
      else if (s->root[x->flow] != n) rc = mt_fail(e, "%s: node %d sends the gather of flow %d without receiving it", s->algo, n, x->flow);
    }
    g->slot[nsl++] = make_slot(x, node_L(s, local_ports, x->peer));
    ent[ne - 1].nchild++;
  }
  /* reset the per-flow scratch */
  for (int k = 0; k < nin; k++) {
    int f = rin_[k].flow;
    rcnt[f] = 0;
    rbeg[f] = 0;
    gpar[f] = -1;
  }
  if (rc) return rc;
  /* NOPs for idle steps */
  memset(g->busy, 0, (size_t)(s->steps + 2) * sizeof(int));
  for (int i = 0; i < ne; i++) g->busy[ent[i].step] = 1;
  for (int st = 1; st <= s->steps; st++)
    if (!g->busy[st]) {
      mt_entry *en = &ent[ne++];
      memset(en, 0, sizeof *en);
      en->op = MT_OP_NOP;
      en->step = st;
      en->size = g->stepmax[st];
    }
  sort_entries(ent, ne, s->steps, g->cnt, &g->scratch, &g->scap);
  if (s->issue_order == MT_ISSUE_BYTES) order_by_bytes(g, ent, ne, L);
  *out = ent;
  *count = ne;
  return 0;
}

int mt_sched_tables(const mt_sched *s, int local_ports, mt_tables *tb, mt_err *e) {
  const int N = s->n_nodes;
  memset(tb, 0, sizeof *tb);
  tb->n_nodes = N;
  tb->steps = s->steps;
  tb->n_flows = s->n_flows;
  tb->local_ports = local_ports;
  tb->start = mt_xcalloc((size_t)N, sizeof(int));
  tb->count = mt_xcalloc((size_t)N, sizeof(int));
  size_t cap_e = (size_t)s->nx + (size_t)s->n_flows + 1024, cap_s = (size_t)s->nx + 1;
  tb->entries = mt_xcalloc(cap_e, sizeof(mt_entry));
  tb->slots = mt_xcalloc(cap_s, sizeof(mt_slot));
  mt_tables_gen *g = mt_tables_gen_new(s, local_ports);
  int rc = 0;
  for (int n = 0; n < N && rc == 0; n++) {
    const mt_entry *en;
    int cnt;
    if ((rc = mt_tables_gen_node(g, n, &en, &cnt, e))) break;
    size_t ns = 0;
    for (int i = 0; i < cnt; i++) ns += (size_t)en[i].nchild;
    if ((size_t)tb->n_entries + (size_t)cnt > cap_e) {
      while ((size_t)tb->n_entries + (size_t)cnt > cap_e) cap_e *= 2;
      tb->entries = mt_xrealloc(tb->entries, cap_e * sizeof(mt_entry));
    }
    if ((size_t)tb->n_slots + ns > cap_s) { /* slots move: the children are set at the end */
      while ((size_t)tb->n_slots + ns > cap_s) cap_s *= 2;
      tb->slots = mt_xrealloc(tb->slots, cap_s * sizeof(mt_slot));
    }
    tb->start[n] = tb->n_entries;
    tb->count[n] = cnt;
    for (int i = 0; i < cnt; i++) {
      mt_entry *d = &tb->entries[tb->n_entries++];
      *d = en[i];
      if (en[i].nchild) memcpy(tb->slots + tb->n_slots, en[i].child, (size_t)en[i].nchild * sizeof(mt_slot));
      /* 1 + an offset until the slots stop moving; a NOP's stays NULL */
      d->child = en[i].child ? (mt_slot *)(uintptr_t)(tb->n_slots + 1) : NULL;
      tb->n_slots += en[i].nchild;
      if (en[i].nchild > tb->max_children) tb->max_children = en[i].nchild;
    }
    if (cnt > tb->max_entries) tb->max_entries = cnt;
  }
  mt_tables_gen_free(g);
  for (int i = 0; i < tb->n_entries; i++)
    if (tb->entries[i].child) tb->entries[i].child = tb->slots + ((uintptr_t)tb->entries[i].child - 1);
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
