/* SPDX-License-Identifier: Apache-2.0
 * mt_flow_eng: the flow-level engine: streams send one message at a time along a path of
 * links; the active messages share links max-min fairly (progressive filling), each also
 * capped at msg_cap; events in time order from a binary heap (lazy deletion by version). */
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
  int act;     /* index in the active list, -1 idle */
  int pending; /* ended in this batch; links still counted until settle */
  int fresh;   /* started on a new path: needs a rate */
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
  int dirty;
  /* solve scratch */
  double *rem;
  int *nun, *touched, *cont;
  char *fixed;
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
  g->rem = mt_xcalloc((size_t)n_links + 1, sizeof(double));
  g->nun = mt_xcalloc((size_t)n_links + 1, sizeof(int));
  g->touched = mt_xcalloc((size_t)n_links + 1, sizeof(int));
  g->msg_cap = msg_cap;
  return g;
}

void mt_flow_eng_free(mt_flow_eng *g) {
  if (!g) return;
  for (int i = 0; i < g->ns; i++) free(g->s[i].l);
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
  }
  stream *st = &g->s[g->ns];
  memset(st, 0, sizeof *st);
  st->act = -1;
  return g->ns++;
}

static void release(mt_flow_eng *g, stream *st) {
  for (int i = 0; i < st->nl; i++) g->cnt[st->l[i]]--;
  int k = st->act, last = g->act[--g->nact];
  g->act[k] = last;
  g->s[last].act = k;
  st->act = -1;
  st->rate = 0;
  g->dirty = 1;
}

static int same_path(const stream *st, const int *links, int n) {
  if (st->nl != n) return 0;
  for (int i = 0; i < n; i++)
    if (st->l[i] != links[i]) return 0;
  return 1;
}

void mt_flow_eng_start(mt_flow_eng *g, int sid, const int *links, int n, double bytes, double cap, int64_t tag) {
  stream *st = &g->s[sid];
  if (!(cap > 0)) cap = g->msg_cap > 0 ? g->msg_cap : INFINITY;
  if (bytes <= 0) bytes = 1e-9; /* a message always takes some time (header flits in cycles) */
  st->tag = tag;
  st->bytes = bytes;
  st->ver++;
  if (st->pending && same_path(st, links, n) && st->rate > 0 && cap == st->cap) {
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
  }
  memcpy(st->l, links, (size_t)n * sizeof(int));
  st->nl = n;
  for (int i = 0; i < n; i++) g->cnt[links[i]]++;
  st->act = g->nact;
  g->act[g->nact++] = sid;
  st->left = bytes;
  st->t_last = g->now;
  st->rate = 0;
  st->fresh = 1;
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

/* Max-min fair rates: a stream alone on all its links gets min(cap of its links, msg_cap);
 * the others by progressive filling over the links they share. */
static void solve(mt_flow_eng *g, double *newrate) {
  int nc = 0, nt = 0;
  for (int k = 0; k < g->nact; k++) {
    stream *st = &g->s[g->act[k]];
    double r = st->cap;
    int shared = 0;
    for (int i = 0; i < st->nl; i++) {
      if (g->cnt[st->l[i]] > 1) shared = 1;
      if (g->cap[st->l[i]] < r) r = g->cap[st->l[i]];
    }
    newrate[k] = r;
    if (shared) {
      g->cont[nc++] = k;
      g->fixed[k] = 0;
      for (int i = 0; i < st->nl; i++) {
        int l = st->l[i];
        if (g->nun[l] == 0) {
          g->touched[nt++] = l;
          g->rem[l] = g->cap[l];
        }
        g->nun[l]++;
      }
    }
  }
  int left = nc;
  while (left > 0) {
    double x = INFINITY, mc = INFINITY;
    int arg = -1;
    for (int i = 0; i < nt; i++) {
      int l = g->touched[i];
      if (g->nun[l] > 0 && g->rem[l] / g->nun[l] < x) {
        x = g->rem[l] / g->nun[l];
        arg = l;
      }
    }
    /* the smallest own cap (a message's credit loop) of those left, when it binds first */
    for (int j = 0; j < nc; j++)
      if (!g->fixed[g->cont[j]] && g->s[g->act[g->cont[j]]].cap < mc) mc = g->s[g->act[g->cont[j]]].cap;
    for (int j = 0; j < nc; j++) {
      int k = g->cont[j];
      if (g->fixed[k]) continue;
      stream *st = &g->s[g->act[k]];
      int through = mc <= x ? st->cap <= mc : arg < 0;
      for (int i = 0; i < st->nl && !through && mc > x; i++) through = st->l[i] == arg;
      if (!through) continue;
      double r = mc <= x ? mc : x;
      newrate[k] = r;
      g->fixed[k] = 1;
      left--;
      for (int i = 0; i < st->nl; i++) {
        g->rem[st->l[i]] -= r;
        g->nun[st->l[i]]--;
      }
    }
  }
  for (int i = 0; i < nt; i++) g->nun[g->touched[i]] = 0;
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
  double *nr = mt_xcalloc((size_t)g->nact + 1, sizeof(double));
  solve(g, nr);
  for (int k = 0; k < g->nact; k++) {
    stream *st = &g->s[g->act[k]];
    if (!st->fresh && nr[k] == st->rate) continue;
    if (!st->fresh) st->left -= st->rate * (g->now - st->t_last);
    if (st->left < 0) st->left = 0;
    st->fresh = 0;
    st->t_last = g->now;
    st->rate = nr[k];
    st->ver++;
    push(g, g->now + st->left / st->rate, 0, g->act[k], st->tag, st->ver);
  }
  free(nr);
}

double mt_flow_eng_now(const mt_flow_eng *g) { return g->now; }
int mt_flow_eng_busy(const mt_flow_eng *g, int sid) { return g->s[sid].act >= 0 && !g->s[sid].pending; }
const double *mt_flow_eng_link_bytes(const mt_flow_eng *g) { return g->lbytes; }
void mt_flow_eng_stats(const mt_flow_eng *g, uint64_t *events, uint64_t *solves, uint64_t *steady) {
  *events = g->events;
  *solves = g->solves;
  *steady = g->steady;
}
