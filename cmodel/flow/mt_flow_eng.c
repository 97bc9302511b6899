/* SPDX-License-Identifier: Apache-2.0
 * mt_flow_eng: the flow-level engine: streams send one message at a time along a path of
 * links; the active messages share links max-min fairly (progressive filling), each also
 * capped at msg_cap; events in time order from a binary heap (lazy deletion by version).
 *
 * Incremental solve (docs/reference/flowsim.md "The incremental max-min solve"): max-min rates of streams that share
 * no link with each other are independent, so a settle solves again only the components
 * (streams joined by shared links) that an event touched: a stream started, the links of a
 * stream released, and the stream that release moved in the active list. Each component is
 * solved with its streams in active-list order, as the whole solve visits them, and the new
 * rates are applied in that order too, so the result (rates, event order, statistics) is
 * the one of solving everything every time; mt_flow_eng_reference keeps that solve for the
 * tests that check it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flow/mt_flow.h"

typedef struct {
  double t;
  uint64_t seq; /* ties in insertion order: the same run gives the same result */
  int64_t id, tag;
  int kind;
  uint32_t ver;
} ev;

typedef struct {
  int *l, nl, capl;
  double left, rate, t_last, bytes, cap;
  int64_t tag;
  uint32_t ver;
  int act;  /* index in the active list, -1 idle */
  int comp; /* settle: the component it was found in */
  uint32_t mark;
  double nr;     /* settle: its new rate */
  int pending;   /* ended in this batch; links still counted until settle */
  int fresh;     /* started on a new path: needs a rate */
  uint8_t *cls;  /* routed packets (HOL rule on): the VC class of each hop; NULL otherwise */
  int stalled;   /* HOL rule: not due at its receiver; it fills its input VCs and moves nothing */
  int *ci, capc; /* solve: the constraints it is in (links, then input-VC groups) */
  double *cw;    /* ... and its weight in each */
} stream;

struct mt_flow_eng {
  int n_links;
  double *cap, *lbytes, msg_cap, now;
  int *cnt; /* active streams per link */
  stream *s;
  int ns, caps;
  int *act, nact;   /* active streams */
  int *pend, npend; /* streams that ended in this batch */
  ev *h;            /* heap */
  size_t nh, caph;
  uint64_t seq, events, solves, steady;
  uint64_t solved; /* streams given to solve(), summed over the settles */
  int dirty;
  int reference;       /* solve every stream at every settle (the tests' reference) */
  int vpc;             /* HOL rule: input VCs per class (0: off; docs/reference/flowsim.md "Head-of-line blocking") */
  int *kinj;           /* solve scratch per link: streams injected on it */
  double *ktr;         /* ... input-VC groups feeding it */
  uint64_t *hk;        /* ... (incoming link, class, next link) keys of transit hops */
  uint32_t *gblk, bep; /* ... per input-VC group: filled by a stalled stream (this epoch) */
  char *blk;           /* ... per stream of the solve: stalled or behind a stalled one */
  int capblk;
  size_t caphk;
  /* solve scratch */
  double *rem, *wun; /* per constraint: capacity left, weight of its unfixed streams */
  int *nun, *touched, *cont;
  char *fixed;
  /* incremental solve: streams on each link, the places a change touched, marks by epoch */
  int **ls, *lsc;
  int *seed_s, nseed_s, caps_s, *seed_l, nseed_l, caps_l;
  uint32_t *lmark, epoch;
  int *comp, *ord, *cstart; /* settle scratch ([caps]) */
  uint64_t *key;
  double *nr;
};

static int ev_less(const ev *a, const ev *b) { return a->t < b->t || (a->t == b->t && a->seq < b->seq); }

static void push(mt_flow_eng *g, double t, int kind, int64_t id, int64_t tag, uint32_t ver) {
  if (g->nh == g->caph) {
    g->caph = g->caph ? 2 * g->caph : 1024;
    g->h = mt_xrealloc(g->h, g->caph * sizeof *g->h);
  }
  ev x = {t, g->seq++, id, tag, kind, ver};
  size_t i = g->nh++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!ev_less(&x, &g->h[p])) break;
    g->h[i] = g->h[p];
    i = p;
  }
  g->h[i] = x;
}

static void pop_top(mt_flow_eng *g) {
  ev x = g->h[--g->nh];
  size_t i = 0, n = g->nh;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && ev_less(&g->h[c + 1], &g->h[c])) c++;
    if (!ev_less(&g->h[c], &x)) break;
    g->h[i] = g->h[c];
    i = c;
  }
  if (n) g->h[i] = x;
}

mt_flow_eng *mt_flow_eng_new(int n_links, const double *cap, const double *lat, double msg_cap) {
  (void)lat; /* latencies are the front ends' business (arrival = end + path latency) */
  mt_flow_eng *g = mt_xcalloc(1, sizeof *g);
  g->n_links = n_links;
  g->cap = mt_xcalloc((size_t)n_links + 1, sizeof(double));
  memcpy(g->cap, cap, (size_t)n_links * sizeof(double));
  g->lbytes = mt_xcalloc((size_t)n_links + 1, sizeof(double));
  g->cnt = mt_xcalloc((size_t)n_links + 1, sizeof(int));
  /* constraints: the links, then (HOL rule) an input-VC group per link and class */
  g->rem = mt_xcalloc(3 * (size_t)n_links + 1, sizeof(double));
  g->wun = mt_xcalloc(3 * (size_t)n_links + 1, sizeof(double));
  g->nun = mt_xcalloc(3 * (size_t)n_links + 1, sizeof(int));
  g->touched = mt_xcalloc(3 * (size_t)n_links + 1, sizeof(int));
  g->kinj = mt_xcalloc((size_t)n_links + 1, sizeof(int));
  g->ktr = mt_xcalloc((size_t)n_links + 1, sizeof(double));
  g->gblk = mt_xcalloc(2 * (size_t)n_links + 1, sizeof(uint32_t));
  g->ls = mt_xcalloc((size_t)n_links + 1, sizeof(int *));
  g->lsc = mt_xcalloc((size_t)n_links + 1, sizeof(int));
  g->lmark = mt_xcalloc((size_t)n_links + 1, sizeof(uint32_t));
  g->msg_cap = msg_cap;
  return g;
}

void mt_flow_eng_free(mt_flow_eng *g) {
  if (!g) return;
  for (int i = 0; i < g->ns; i++) {
    free(g->s[i].l);
    free(g->s[i].cls);
    free(g->s[i].ci);
    free(g->s[i].cw);
  }
  free(g->wun);
  free(g->kinj);
  free(g->ktr);
  free(g->hk);
  free(g->gblk);
  free(g->blk);
  free(g->s);
  free(g->act);
  free(g->pend);
  free(g->h);
  free(g->cap);
  free(g->lbytes);
  free(g->cnt);
  free(g->rem);
  free(g->nun);
  free(g->touched);
  free(g->cont);
  free(g->fixed);
  for (int l = 0; l < g->n_links; l++) free(g->ls[l]);
  free(g->ls);
  free(g->lsc);
  free(g->lmark);
  free(g->seed_s);
  free(g->seed_l);
  free(g->comp);
  free(g->ord);
  free(g->cstart);
  free(g->key);
  free(g->nr);
  free(g);
}

int mt_flow_eng_stream(mt_flow_eng *g) {
  if (g->ns == g->caps) {
    g->caps = g->caps ? 2 * g->caps : 64;
    g->s = mt_xrealloc(g->s, (size_t)g->caps * sizeof *g->s);
    g->act = mt_xrealloc(g->act, (size_t)g->caps * sizeof(int));
    g->pend = mt_xrealloc(g->pend, (size_t)g->caps * sizeof(int));
    g->cont = mt_xrealloc(g->cont, (size_t)g->caps * sizeof(int));
    g->fixed = mt_xrealloc(g->fixed, (size_t)g->caps);
    g->comp = mt_xrealloc(g->comp, (size_t)g->caps * sizeof(int));
    g->ord = mt_xrealloc(g->ord, (size_t)g->caps * sizeof(int));
    g->cstart = mt_xrealloc(g->cstart, ((size_t)g->caps + 1) * sizeof(int));
    g->key = mt_xrealloc(g->key, (size_t)g->caps * sizeof(uint64_t));
    g->nr = mt_xrealloc(g->nr, ((size_t)g->caps + 1) * sizeof(double));
  }
  stream *st = &g->s[g->ns];
  memset(st, 0, sizeof *st);
  st->act = -1;
  return g->ns++;
}

void mt_flow_eng_reference(mt_flow_eng *g, int on) { g->reference = on; }
void mt_flow_eng_hol(mt_flow_eng *g, int vcs_per_class) { g->vpc = vcs_per_class > 0 ? vcs_per_class : 0; }

static void seed(int **v, int *n, int *cap, int x) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 256;
    *v = mt_xrealloc(*v, (size_t)*cap * sizeof(int));
  }
  (*v)[(*n)++] = x;
}

/* Link l's list of streams: add sid, or take it out (a link carries few streams at once). */
static void link_add(mt_flow_eng *g, int l, int sid) {
  if (g->cnt[l] == g->lsc[l]) {
    g->lsc[l] = g->lsc[l] ? 2 * g->lsc[l] : 4;
    g->ls[l] = mt_xrealloc(g->ls[l], (size_t)g->lsc[l] * sizeof(int));
  }
  g->ls[l][g->cnt[l]++] = sid;
}
static void link_del(mt_flow_eng *g, int l, int sid) {
  int *v = g->ls[l], n = --g->cnt[l];
  for (int i = 0; i <= n; i++)
    if (v[i] == sid) {
      v[i] = v[n];
      break;
    }
}

static void release(mt_flow_eng *g, stream *st) {
  const int sid = (int)(st - g->s);
  for (int i = 0; i < st->nl; i++) {
    link_del(g, st->l[i], sid);
    seed(&g->seed_l, &g->nseed_l, &g->caps_l, st->l[i]);
  }
  int k = st->act, last = g->act[--g->nact];
  g->act[k] = last;
  g->s[last].act = k;
  if (last != sid) seed(&g->seed_s, &g->nseed_s, &g->caps_s, last); /* its place among its component's streams changed */
  st->act = -1;
  st->rate = 0;
  g->dirty = 1;
}

static int same_path(const stream *st, const int *links, int n, const uint8_t *cls) {
  if (st->nl != n || !st->cls != !cls) return 0;
  for (int i = 0; i < n; i++)
    if (st->l[i] != links[i] || (cls && st->cls[i] != cls[i])) return 0;
  return 1;
}

void mt_flow_eng_start(mt_flow_eng *g, int sid, const int *links, int n, double bytes, double cap, int64_t tag) {
  mt_flow_eng_start_pkt(g, sid, links, n, bytes, cap, tag, NULL);
}

void mt_flow_eng_start_pkt(mt_flow_eng *g, int sid, const int *links, int n, double bytes, double cap, int64_t tag, const uint8_t *cls) {
  stream *st = &g->s[sid];
  if (!g->vpc) cls = NULL;
  if (!(cap > 0)) cap = g->msg_cap > 0 ? g->msg_cap : INFINITY;
  if (bytes <= 0) bytes = 1e-9; /* a message always takes some time (header flits in cycles) */
  st->tag = tag;
  st->bytes = bytes;
  st->ver++;
  st->stalled = 0;
  if (st->pending && same_path(st, links, n, cls) && st->rate > 0 && cap == st->cap) {
    /* back to back on the same path: the set of messages is unchanged, so is its rate */
    st->pending = 0;
    st->left = bytes;
    st->t_last = g->now;
    g->steady++;
    push(g, g->now + bytes / st->rate, 0, sid, tag, st->ver);
    return;
  }
  if (st->act >= 0) release(g, st);
  st->pending = 0;
  st->cap = cap;
  if (n > st->capl) {
    st->capl = n;
    st->l = mt_xrealloc(st->l, (size_t)n * sizeof(int));
    if (st->cls) st->cls = mt_xrealloc(st->cls, (size_t)n);
  }
  memcpy(st->l, links, (size_t)n * sizeof(int));
  if (cls) {
    if (!st->cls) st->cls = mt_xcalloc((size_t)st->capl + 1, 1);
    memcpy(st->cls, cls, (size_t)n);
  } else {
    free(st->cls);
    st->cls = NULL;
  }
  st->nl = n;
  for (int i = 0; i < n; i++) link_add(g, links[i], sid);
  seed(&g->seed_s, &g->nseed_s, &g->caps_s, sid);
  st->act = g->nact;
  g->act[g->nact++] = sid;
  st->left = bytes;
  st->t_last = g->now;
  st->rate = 0;
  st->fresh = 1;
  g->dirty = 1;
}

void mt_flow_eng_stall(mt_flow_eng *g, int sid, int on) {
  stream *st = &g->s[sid];
  if (!g->vpc || !st->cls || st->act < 0 || st->stalled == !!on) return;
  st->stalled = !!on;
  st->ver++; /* an end pushed by a back-to-back start no longer holds */
  seed(&g->seed_s, &g->nseed_s, &g->caps_s, sid);
  g->dirty = 1;
}

void mt_flow_eng_at(mt_flow_eng *g, double t, int kind, int64_t id) { push(g, t < g->now ? g->now : t, kind, id, 0, 0); }

static int stale(const mt_flow_eng *g, const ev *x) {
  if (x->kind != 0) return 0;
  const stream *st = &g->s[x->id];
  return x->ver != st->ver || st->act < 0 || st->pending;
}

double mt_flow_eng_peek(mt_flow_eng *g) {
  while (g->nh && stale(g, &g->h[0])) pop_top(g); /* superseded by a new rate */
  return g->nh ? g->h[0].t : INFINITY;
}

int mt_flow_eng_pop(mt_flow_eng *g, double *t, int *kind, int64_t *id, int64_t *tag) {
  while (g->nh) {
    ev x = g->h[0];
    pop_top(g);
    if (x.kind == 0) {
      stream *st = &g->s[x.id];
      if (stale(g, &x)) continue;
      for (int i = 0; i < st->nl; i++) g->lbytes[st->l[i]] += st->bytes;
      st->left = 0;
      st->pending = 1;
      g->pend[g->npend++] = (int)x.id;
    }
    g->now = x.t;
    g->events++;
    *t = x.t;
    *kind = x.kind;
    *id = x.id;
    *tag = x.tag;
    return 1;
  }
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Head-of-line blocking (docs/reference/flowsim.md "Head-of-line blocking"): routed packets that cross
 * link l in VC class c queue in the vpc input VCs (FIFOs) of that class at l's far router,
 * whatever they do next. A FIFO serves its front packet only: one that ejects passes at the
 * link's rate, one that goes on to link o waits for o's round robin over input VCs, k_o of
 * them (each packetiser injecting on o, and per (incoming link, class) feeding o at most vpc
 * FIFOs), and so moves at cap(o) / k_o. The vpc FIFOs' time is the group's capacity: the
 * sum over its streams of rate / (that speed) is at most vpc. Sets every stream's
 * constraints: its links (weight 1), then with the rule its groups (n_links + 2 l + c). */
static void constraints(mt_flow_eng *g, const int *sid, int n) {
  const int NL = g->n_links;
  size_t nk = 0;
  int hol = 0;
  for (int k = 0; k < n; k++) {
    const stream *st = &g->s[sid[k]];
    if (!st->cls || g->blk[k]) continue;
    hol = 1;
    if (nk + (size_t)st->nl > g->caphk) {
      g->caphk = 2 * (nk + (size_t)st->nl) + 64;
      g->hk = mt_xrealloc(g->hk, g->caphk * sizeof *g->hk);
    }
    for (int j = 1; j < st->nl; j++) g->hk[nk++] = (uint64_t)(2 * st->l[j - 1] + st->cls[j - 1]) << 32 | (uint32_t)st->l[j];
  }
  if (hol) {
    for (int k = 0; k < n; k++)
      if (!g->blk[k]) g->kinj[g->s[sid[k]].l[0]]++;
    qsort(g->hk, nk, sizeof *g->hk, cmp_u64);
    for (size_t i = 0, j; i < nk; i = j) {
      for (j = i; j < nk && g->hk[j] == g->hk[i]; j++) {}
      g->ktr[(uint32_t)g->hk[i]] += (double)((int)(j - i) < g->vpc ? (int)(j - i) : g->vpc);
    }
  }
  for (int k = 0; k < n; k++) {
    stream *st = &g->s[sid[k]];
    const int m = st->nl + (st->cls ? st->nl : 0);
    if (m > st->capc) {
      st->capc = m;
      st->ci = mt_xrealloc(st->ci, (size_t)m * sizeof(int));
      st->cw = mt_xrealloc(st->cw, (size_t)m * sizeof(double));
    }
    for (int i = 0; i < st->nl; i++) {
      st->ci[i] = st->l[i];
      st->cw[i] = 1.0;
    }
    for (int j = 0; st->cls && j < st->nl; j++) {
      const int o = j + 1 < st->nl ? st->l[j + 1] : -1;
      st->ci[st->nl + j] = NL + 2 * st->l[j] + st->cls[j];
      st->cw[st->nl + j] = o < 0 ? 1.0 / g->cap[st->l[j]] : (g->kinj[o] + g->ktr[o]) / g->cap[o];
    }
  }
  if (hol) /* clear the scratch (it is only ever set on these streams' links) */
    for (int k = 0; k < n; k++) {
      const stream *st = &g->s[sid[k]];
      for (int i = 0; i < st->nl; i++) g->kinj[st->l[i]] = 0, g->ktr[st->l[i]] = 0;
    }
}

/* In-order reduction (docs/reference/flowsim.md "Head-of-line blocking"): a routed stream that is not
 * due at its receiver moves nothing, and its packets fill the input VCs of its class on every
 * link of its path, so every other routed stream through one of those groups waits too.
 * Sets g->blk[k] for the streams of the solve that move nothing. */
static void blocked(mt_flow_eng *g, const int *sid, int n) {
  if (n > g->capblk) {
    g->capblk = 2 * n + 64;
    g->blk = mt_xrealloc(g->blk, (size_t)g->capblk);
  }
  if (++g->bep == 0) {
    memset(g->gblk, 0, 2 * (size_t)g->n_links * sizeof(uint32_t));
    g->bep = 1;
  }
  for (int k = 0; k < n; k++) {
    const stream *st = &g->s[sid[k]];
    for (int j = 0; st->stalled && j < st->nl; j++) g->gblk[2 * st->l[j] + st->cls[j]] = g->bep;
  }
  for (int k = 0; k < n; k++) {
    const stream *st = &g->s[sid[k]];
    int b = st->stalled;
    for (int j = 0; st->cls && !b && j < st->nl; j++) b = g->gblk[2 * st->l[j] + st->cls[j]] == g->bep;
    g->blk[k] = (char)b;
  }
}

static int n_cons(const stream *st) { return st->nl + (st->cls ? st->nl : 0); }

/* Max-min fair rates of streams sid[0..n) (in active-list order; every stream that shares a
 * link with one of them is among them) into newrate[0..n): a stream alone on all its links
 * gets min(cap of its links, its own cap); the others by progressive filling over the
 * constraints they share (the links, and with the HOL rule the input-VC groups, where a
 * stream counts with its weight). Without the rule every weight is 1: the first engine's
 * arithmetic, operation for operation. */
static void solve(mt_flow_eng *g, const int *sid, int n, double *newrate) {
  int nc = 0, nt = 0;
  g->solved += (uint64_t)n;
  if (g->vpc) {
    blocked(g, sid, n);
    constraints(g, sid, n);
  }
  for (int k = 0; k < n; k++) {
    stream *st = &g->s[sid[k]];
    double r = st->cap;
    int shared = 0;
    for (int i = 0; i < st->nl; i++) {
      if (g->cnt[st->l[i]] > 1) shared = 1;
      if (g->cap[st->l[i]] < r) r = g->cap[st->l[i]];
    }
    newrate[k] = r;
    if (g->vpc && g->blk[k]) newrate[k] = 0;
    else if (shared) {
      g->cont[nc++] = k;
      g->fixed[k] = 0;
      const int m = g->vpc ? n_cons(st) : st->nl;
      for (int i = 0; i < m; i++) {
        const int c = g->vpc ? st->ci[i] : st->l[i];
        const double w = g->vpc ? st->cw[i] : 1.0;
        if (g->nun[c] == 0) {
          g->touched[nt++] = c;
          g->rem[c] = c < g->n_links ? g->cap[c] : (double)g->vpc;
          g->wun[c] = 0;
        }
        g->nun[c]++;
        g->wun[c] += w;
      }
    }
  }
  int left = nc;
  while (left > 0) {
    double x = INFINITY, mc = INFINITY;
    int arg = -1;
    for (int i = 0; i < nt; i++) {
      int c = g->touched[i];
      if (g->nun[c] > 0 && g->rem[c] / g->wun[c] < x) {
        x = g->rem[c] / g->wun[c];
        arg = c;
      }
    }
    if (g->vpc && x < 0) x = 0; /* weights: a group's rest may round below 0 */
    /* the smallest own cap (a message's credit loop) of those left, when it binds first */
    for (int j = 0; j < nc; j++)
      if (!g->fixed[g->cont[j]] && g->s[sid[g->cont[j]]].cap < mc) mc = g->s[sid[g->cont[j]]].cap;
    for (int j = 0; j < nc; j++) {
      int k = g->cont[j];
      if (g->fixed[k]) continue;
      stream *st = &g->s[sid[k]];
      const int m = g->vpc ? n_cons(st) : st->nl;
      int through = mc <= x ? st->cap <= mc : arg < 0;
      for (int i = 0; i < m && !through && mc > x; i++) through = (g->vpc ? st->ci[i] : st->l[i]) == arg;
      if (!through) continue;
      double r = mc <= x ? mc : x;
      newrate[k] = r;
      g->fixed[k] = 1;
      left--;
      for (int i = 0; i < m; i++) {
        const int c = g->vpc ? st->ci[i] : st->l[i];
        const double w = g->vpc ? st->cw[i] : 1.0;
        g->rem[c] -= w * r;
        g->nun[c]--;
        g->wun[c] -= w;
      }
    }
  }
  for (int i = 0; i < nt; i++) g->nun[g->touched[i]] = 0;
}

/* A stream takes its new rate: what it sent at the old one is counted, its end rescheduled. */
static void take_rate(mt_flow_eng *g, int sid, double nr) {
  stream *st = &g->s[sid];
  if (!st->fresh && nr == st->rate) return;
  if (!st->fresh) st->left -= st->rate * (g->now - st->t_last);
  if (st->left < 0) st->left = 0;
  st->fresh = 0;
  st->t_last = g->now;
  st->rate = nr;
  st->ver++;
  if (nr > 0) push(g, g->now + st->left / st->rate, 0, sid, st->tag, st->ver); /* 0: stalled, until solved again */
}

/* The component of active stream s0 (streams joined by shared links) into g->ord from *n on,
 * each stream marked with the epoch and component c. */
static void component(mt_flow_eng *g, int s0, int c, int *n) {
  int q = *n;
  g->s[s0].mark = g->epoch;
  g->s[s0].comp = c;
  g->ord[(*n)++] = s0;
  while (q < *n) {
    const stream *st = &g->s[g->ord[q++]];
    for (int i = 0; i < st->nl; i++) {
      const int l = st->l[i];
      if (g->cnt[l] < 2 || g->lmark[l] == g->epoch) continue;
      g->lmark[l] = g->epoch;
      for (int j = 0; j < g->cnt[l]; j++) {
        stream *o = &g->s[g->ls[l][j]];
        if (o->mark == g->epoch) continue;
        o->mark = g->epoch;
        o->comp = c;
        g->ord[(*n)++] = g->ls[l][j];
      }
    }
  }
}


/* Solve again the components the seeds touched; apply the rates in active-list order. */
static void settle_touched(mt_flow_eng *g) {
  if (++g->epoch == 0) { /* wrapped: clear the marks */
    for (int i = 0; i < g->ns; i++) g->s[i].mark = 0;
    memset(g->lmark, 0, (size_t)g->n_links * sizeof(uint32_t));
    g->epoch = 1;
  }
  int n = 0, nc = 0;
  for (int i = 0; i < g->nseed_s; i++) {
    const stream *st = &g->s[g->seed_s[i]];
    if (st->act >= 0 && st->mark != g->epoch) component(g, g->seed_s[i], nc++, &n);
  }
  for (int i = 0; i < g->nseed_l; i++) {
    const int l = g->seed_l[i];
    for (int j = 0; j < g->cnt[l]; j++)
      if (g->s[g->ls[l][j]].mark != g->epoch) component(g, g->ls[l][j], nc++, &n);
  }
  g->nseed_s = g->nseed_l = 0;
  /* every touched stream in active-list order, then grouped by component (stable) */
  for (int i = 0; i < n; i++) g->key[i] = (uint64_t)g->s[g->ord[i]].act << 32 | (uint32_t)g->ord[i];
  qsort(g->key, (size_t)n, sizeof *g->key, cmp_u64);
  memset(g->cstart, 0, ((size_t)nc + 1) * sizeof(int));
  for (int i = 0; i < n; i++) g->cstart[g->s[(uint32_t)g->key[i]].comp + 1]++;
  for (int c = 0; c < nc; c++) g->cstart[c + 1] += g->cstart[c];
  for (int i = 0; i < n; i++) {
    const int sid = (int)(uint32_t)g->key[i];
    g->comp[g->cstart[g->s[sid].comp]++] = sid;
  }
  for (int c = 0, b = 0; c < nc; c++) {
    const int e = g->cstart[c];
    solve(g, g->comp + b, e - b, g->nr + b);
    for (int i = b; i < e; i++) g->s[g->comp[i]].nr = g->nr[i];
    b = e;
  }
  for (int i = 0; i < n; i++) {
    const int sid = (int)(uint32_t)g->key[i];
    take_rate(g, sid, g->s[sid].nr);
  }
}

void mt_flow_eng_settle(mt_flow_eng *g) {
  for (int i = 0; i < g->npend; i++) {
    stream *st = &g->s[g->pend[i]];
    if (st->pending) {
      st->pending = 0;
      release(g, st);
    }
  }
  g->npend = 0;
  if (!g->dirty) return;
  g->dirty = 0;
  g->solves++;
  if (!g->reference) {
    settle_touched(g);
    return;
  }
  g->nseed_s = g->nseed_l = 0;
  solve(g, g->act, g->nact, g->nr);
  for (int k = 0; k < g->nact; k++) take_rate(g, g->act[k], g->nr[k]);
}

uint64_t mt_flow_eng_solved(const mt_flow_eng *g) { return g->solved; }
double mt_flow_eng_now(const mt_flow_eng *g) { return g->now; }
double mt_flow_eng_rate(const mt_flow_eng *g, int sid) { return g->s[sid].act >= 0 && !g->s[sid].pending ? g->s[sid].rate : 0; }
int mt_flow_eng_busy(const mt_flow_eng *g, int sid) { return g->s[sid].act >= 0 && !g->s[sid].pending; }
const double *mt_flow_eng_link_bytes(const mt_flow_eng *g) { return g->lbytes; }
void mt_flow_eng_stats(const mt_flow_eng *g, uint64_t *events, uint64_t *solves, uint64_t *steady) {
  *events = g->events;
  *solves = g->solves;
  *steady = g->steady;
}
