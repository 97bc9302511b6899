/* SPDX-License-Identifier: Apache-2.0
 * mt_net_run: mt_net_start (the inputs into the memories) and mt_net_run: cycle by cycle,
 * or in blocks of cycles node by node over threads (docs/results/bench.md), with a progress line;
 * after an NI error in a block the network is built again and run cycle by cycle; then the
 * result and the final check (net/mt_net_priv.h lists the other parts). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "net/mt_net_priv.h"
#include "plan/mt_ref.h"
#include "util/mt_time.h"

typedef struct {
  mt_net *n;
  uint32_t seed;
} start_arg;
/* the inputs of nodes k, k + nt, ... into their memories (the first touch of their pages) */
static void start_part(void *v, int k, int nt) {
  const start_arg *a = v;
  for (int i = k; i < a->n->N; i += nt) mt_ref_inputs(a->seed, i, a->n->dtype, a->n->mem[i].w, a->n->s->bytes / 4);
}

int mt_net_start(mt_net *n, uint32_t seed, mt_err *e) {
  if (mt_net_idle(n, "mt_net_start", 1, e)) return -1;
  const uint64_t nw = n->s->bytes / 4;
  if (n->c.data == MT_NET_DATA_FULL) {
    start_arg a = {n, seed};
    mt_net_par_run(mt_net_threads(n), start_part, &a);
  } else if (n->c.data == MT_NET_DATA_SAMPLE) { /* the stored pages of the buffer (the staging area starts empty) */
    mt_xs32_jumps J;
    mt_xs32_jumps_init(&J);
    for (uint64_t a = 0; a < nw; a += MT_MEM_PAGE_WORDS)
      if (n->backed[a >> MT_MEM_PAGE_SHIFT])
        for (int i = 0; i < n->N; i++)
          mt_ref_inputs_at(&J, seed, i, n->dtype, a, mt_mem_word(&n->mem[i], a), nw - a < MT_MEM_PAGE_WORDS ? nw - a : MT_MEM_PAGE_WORDS);
  }
  for (int i = 0; i < n->N; i++) { /* mt_net_input's, of an earlier seed */
    free(n->input[i]);
    n->input[i] = NULL;
  }
  n->started = 1;
  n->seed = seed;
  /* the start pulse: the next cycle, or the one after the last table write of mt_net_load */
  n->start_at = n->ld_img && n->cycle < n->ld_at + n->ld_depth ? n->ld_at + n->ld_depth : n->cycle;
  memset(n->lflits, 0, (size_t)n->nl * sizeof *n->lflits); /* the run's link statistics */
  return 0;
}

/* The network as mt_net_new and mt_net_start made it (the same seed and perturbation flags). */
static int net_restart(mt_net *n, mt_err *e) {
  const mt_net_cfg c = n->c;
  const mt_sched *s = n->s;
  const mt_tables *tb = n->tb;
  const int dtype = n->dtype;
  const uint32_t seed = n->seed;
  const unsigned rpt = n->rt[0].p.perturb, npt = n->ni[0].p.perturb;
  FILE *trace = n->trace;
  mt_net_release(n); /* first: a large network's buffers twice might not fit */
  mt_net *f = mt_net_new(&c, s, tb, dtype, e);
  if (!f) {
    memset(n, 0, sizeof *n);
    return -1;
  }
  *n = *f;
  free(f);
  mt_net_set_perturb(n, rpt, npt);
  if (mt_net_start(n, seed, e)) return -1;
  if (trace && mt_net_set_trace(n, trace)) return mt_fail(e, "--trace: write failed");
  return 0;
}

/* Progress of a long run (docs/reference/network.md "Progress"): the cycle, cycles per second and an
 * estimate of the time left from the NIs' time steps (the mean step reached over the
 * schedule's steps, with threads over thread 0's nodes; steps are of about equal length in
 * MultiTree, ring and the others, so this is rough). On a terminal a line rewritten every second, else a line every 10 s. */
typedef struct {
  FILE *f;
  int tty, shown;
  double t0, last;
} progress_t;

/* whether a (non-final) progress line is due */
static int progress_due(const progress_t *p) { return p && p->f && mt_now() - p->last >= (p->tty ? 1.0 : 10.0); }
/* ts: the mean step the nodes reached */
static void progress_line(const mt_net *n, progress_t *p, double ts, int final) {
  const double tn = mt_now();
  if (!p->f || (!final && tn - p->last < (p->tty ? 1.0 : 10.0)) || (final && (!p->tty || !p->shown))) return;
  p->last = tn;
  p->shown = 1;
  const double frac = n->tb->steps ? ts / n->tb->steps : 0, el = tn - p->t0;
  char left[48] = "";
  if (frac > 0.01 && frac < 1) snprintf(left, sizeof left, ", about %.0f s left", el * (1 - frac) / frac);
  fprintf(p->f, "%ssim: cycle %llu, %.0f s, %.0f cycles/s, step %.1f of %d%s%s", p->tty ? "\r" : "", (unsigned long long)n->cycle, el,
          el > 0 ? (double)n->cycle / el : 0.0, ts, n->tb->steps, left, p->tty ? (final ? "\n" : "\033[K") : "\n");
  fflush(p->f);
}

/* mt_net_run in blocks (docs/results/bench.md). A link presents what its sender drove
 * lat - 1 cycles ago (lat its latency), so each node can run blk = minlat - 1 cycles (the
 * shortest link's) on its own before the next: the same cycles, node by node, with the node's state at hand. The run ends at
 * the first cycle after which every NI is done or one has an error, as cycle by cycle: a
 * node that is not done runs until its NI is done or the block ends; if then every NI is
 * done, every node runs to the cycle at which the last one got done, else to the block's
 * end (this needs an NI's done output to stay set, as it does until the next start). An NI
 * error stops nothing in time (the other nodes may have run past it): the run starts
 * over, cycle by cycle. Returns 1 for that, else 0 with n->cycle at the end.
 *
 * Threads (mt_net_cfg.threads, docs/results/bench.md "The 64 MiB run in detail"): within a block no node reads what
 * another writes in it (a node reads its in-links' slots of the block before, writes its
 * out-links' slots of this one, and counts only its own in-links' flits), so the nodes of a
 * block are split among the threads, each a contiguous range; a barrier ends each half of a
 * block. Every node computes the same cycles whatever the thread count, so every result is
 * the same. */

/* A node's schedule step reached (for the progress line). */
static double node_step(const mt_net *n, int i) {
  return n->nq[i].done ? (double)n->tb->steps : n->pni ? (double)n->pni[i].step
                                                       : (double)n->ni[i].ts;
}

static double mean_step(const mt_net *n) {
  double ts = 0;
  for (int i = 0; i < n->N; i++) ts += node_step(n, i);
  return ts / (n->N ? n->N : 1);
}

/* Node i from T until done, an error or E; at[i]: its next cycle, done[i] its NI's done output
 * then, st[i] its step. 1: an error. */
static int node_run(mt_net *n, int i, uint64_t T, uint64_t E, uint64_t *at, uint8_t *done, double *st) {
  uint64_t t = T;
  int rc = 0;
  if (!n->nq[i].done)
    while (t < E) {
      mt_net_node_cycle(n, i, t++, 1);
      if (n->nq[i].err) rc = 1;
      if (n->nq[i].done || rc) break;
    }
  at[i] = t;
  done[i] = n->nq[i].done;
  if (st) st[i] = node_step(n, i); /* for the progress line, with threads */
  return rc;
}
/* Node i on from at[i] to cycle end. 1: an error. */
static int node_finish(mt_net *n, int i, uint64_t end, const uint64_t *at) {
  for (uint64_t t = at[i]; t < end;) {
    mt_net_node_cycle(n, i, t++, 1);
    if (n->nq[i].err) return 1;
  }
  return 0;
}

#define NET_MIN_WORK 64 /* node-cycles a block at least per thread */
/* Threads take a block's nodes one at a time: first their own contiguous range (the nodes they
 * ran last block: their state is in this core's cache), then what is left of the others' (a
 * thread that finishes early, from load or from a host that took its core away, helps). Which
 * thread runs a node changes nothing: within a block the nodes are independent. */
typedef struct {
  _Alignas(64) atomic_int next; /* the next unclaimed node of a thread's range */
} net_claim;
typedef struct {
  mt_net *n;
  pthread_barrier_t bar;
  pthread_mutex_t mu; /* the start gate: workers wait until every thread exists (go) or not (quit) */
  pthread_cond_t cv;
  int go, nt, quit;
  uint64_t limit;
  /* per block, by its parity: a thread may start block j+1 (when block j has no second half)
   * while another still reads block j's values; it cannot reach block j+2 before all passed
   * block j+1's barrier */
  uint64_t *at[2];
  uint8_t *done[2];
  double *st[2];
  int rc_a[2][NET_MAX_THREADS], rc_b[NET_MAX_THREADS];
  net_claim ca[2][NET_MAX_THREADS], cb[2][NET_MAX_THREADS]; /* the claims of each half */
  progress_t *pg;
  int lo[NET_MAX_THREADS + 1];
} net_pool;

/* the claims of the blocks of parity b: each thread's range from its start */
static void pool_claims_reset(net_pool *p, int b) {
  for (int j = 0; j < p->nt; j++) {
    atomic_store_explicit(&p->ca[b][j].next, p->lo[j], memory_order_relaxed);
    atomic_store_explicit(&p->cb[b][j].next, p->lo[j], memory_order_relaxed);
  }
}

static inline void pool_wait(net_pool *p) {
  if (p->nt > 1) pthread_barrier_wait(&p->bar);
}

/* Thread k claims nodes from c (its own range first) and runs each (half 0: node_run to E, half
 * 1: node_finish to end), until an error or none is left. */
static int pool_half(net_pool *p, int k, net_claim *c, int half, int par, uint64_t T, uint64_t E) {
  int rc = 0;
  if (p->nt == 1) { /* no claims: one cycle a block in the small configuration */
    for (int i = 0; i < p->n->N && !rc; i++)
      rc = half ? node_finish(p->n, i, E, p->at[par]) : node_run(p->n, i, T, E, p->at[par], p->done[par], NULL);
    return rc;
  }
  for (int r = 0; r < p->nt && !rc; r++) {
    const int kk = k + r < p->nt ? k + r : k + r - p->nt;
    for (int i; !rc && (i = atomic_fetch_add_explicit(&c[kk].next, 1, memory_order_relaxed)) < p->lo[kk + 1];)
      rc = half ? node_finish(p->n, i, E, p->at[par]) : node_run(p->n, i, T, E, p->at[par], p->done[par], p->st[par]);
  }
  return rc;
}

/* Thread k's run through the blocks. Every thread makes the same decisions from the same
 * shared values (at, done and the error flags of block j, read after the block's first
 * barrier), so no thread waits for another's decision. A block's second half (nodes whose NI
 * got done before the block's end run on to it) and its second barrier come only when some
 * node stopped early; else the next block starts at once: one barrier per block. Thread 0
 * keeps n->cycle and writes the progress lines. */
static int pool_loop(net_pool *p, int k) {
  mt_net *n = p->n;
  uint64_t T = n->cycle;
  int rc = 0, par = 0;
  while (T < p->limit) {
    const uint64_t E = p->limit - T > n->blk ? T + n->blk : p->limit;
    p->rc_a[par][k] = pool_half(p, k, p->ca[par], 0, par, T, E);
    if (k == 0) pool_claims_reset(p, !par); /* block j-1's claims, all made before its barriers */
    pool_wait(p);
    const uint64_t *at = p->at[par];
    int all_done = 1;
    for (int j = 0; j < p->nt; j++) rc |= p->rc_a[par][j];
    if (rc) break;
    for (int i = 0; i < n->N; i++) all_done &= p->done[par][i];
    uint64_t end = E;
    if (all_done) { /* the last NI got done at cycle end - 1 */
      end = T;
      for (int i = 0; i < n->N; i++)
        if (at[i] > end) end = at[i];
    }
    int early = 0;
    for (int i = 0; i < n->N && !early; i++) early = at[i] < end;
    if (k == 0) {
      n->cycle = end;
      if (!all_done && progress_due(p->pg)) { /* one thread: the nodes' own steps (no other thread runs) */
        double ts = 0;
        for (int i = 0; i < n->N; i++) ts += p->nt == 1 ? node_step(n, i) : p->st[par][i];
        progress_line(n, p->pg, ts / n->N, 0);
      }
    }
    if (early) {
      p->rc_b[k] = pool_half(p, k, p->cb[par], 1, par, T, end);
      pool_wait(p);
      for (int j = 0; j < p->nt; j++) rc |= p->rc_b[j];
      if (rc) break;
    }
    T = end;
    if (all_done) break;
    par = !par;
  }
  return rc;
}

typedef struct {
  net_pool *p;
  int k;
} pool_arg;
static void *pool_worker(void *v) {
  const pool_arg *a = v;
  pthread_mutex_lock(&a->p->mu);
  while (!a->p->go && !a->p->quit) pthread_cond_wait(&a->p->cv, &a->p->mu);
  const int go = a->p->go;
  pthread_mutex_unlock(&a->p->mu);
  if (go) pool_loop(a->p, a->k);
  return NULL;
}

static int run_blocks(mt_net *n, uint64_t limit, progress_t *pg) {
  net_pool p;
  memset(&p, 0, sizeof p);
  p.n = n;
  p.limit = limit;
  p.pg = pg;
  for (int b = 0; b < 2; b++) {
    p.at[b] = mt_xcalloc((size_t)n->N, sizeof *p.at[b]);
    p.done[b] = mt_xcalloc((size_t)n->N, 1);
    p.st[b] = mt_xcalloc((size_t)n->N, sizeof *p.st[b]);
  }
  p.nt = mt_net_threads(n);
  /* a thread takes at least NET_MIN_WORK node-cycles a block: with short links (the small
   * configuration's blocks are one cycle) a barrier costs more than the work it splits */
  if ((uint64_t)p.nt * NET_MIN_WORK > (uint64_t)n->blk * (uint64_t)n->N) p.nt = (int)((uint64_t)n->blk * (uint64_t)n->N / NET_MIN_WORK);
  if (p.nt < 1) p.nt = 1;
  for (int k = 0; k <= p.nt; k++) p.lo[k] = (int)((int64_t)n->N * k / p.nt);
  for (int b = 0; b < 2; b++) /* each thread's claims from its range's start */
    for (int k = 0; k < p.nt; k++) {
      atomic_init(&p.ca[b][k].next, p.lo[k]);
      atomic_init(&p.cb[b][k].next, p.lo[k]);
    }
  pthread_t th[NET_MAX_THREADS];
  pool_arg arg[NET_MAX_THREADS];
  int started = 1;
  if (p.nt > 1) {
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    for (; started < p.nt; started++) {
      arg[started] = (pool_arg){&p, started};
      if (pthread_create(&th[started], NULL, pool_worker, &arg[started])) break;
    }
    /* fewer threads than asked (the system refused one): those run nothing, and the nodes
     * all go to this thread; the result is the same */
    pthread_mutex_lock(&p.mu);
    if (started < p.nt) {
      p.quit = 1;
      p.nt = 1;
      p.lo[1] = n->N; /* one thread claims nothing (pool_half) */
    } else {
      pthread_barrier_init(&p.bar, NULL, (unsigned)p.nt);
      p.go = 1;
    }
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
  }
  const int rc = pool_loop(&p, 0);
  for (int k = 1; k < started; k++) pthread_join(th[k], NULL);
  if (started > 1) {
    if (p.go) pthread_barrier_destroy(&p.bar);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
  }
  for (int b = 0; b < 2; b++) {
    free(p.at[b]);
    free(p.done[b]);
    free(p.st[b]);
  }
  n->run_threads = p.nt;
  return rc;
}

int mt_net_run(mt_net *n, mt_net_result *r, FILE *progress, mt_err *e) {
  memset(r, 0, sizeof *r);
  r->err_node = -1;
  if (!n->started) return mt_fail(e, "mt_net_run before mt_net_start");
  if (n->cycle > n->start_at)
    return mt_fail(e, "mt_net_run: the all-reduce started at cycle %llu has run (now cycle %llu); call mt_net_start for the next",
                   (unsigned long long)n->start_at, (unsigned long long)n->cycle);
  progress_t pg = {progress, progress && isatty(fileno(progress)), 0, mt_now(), mt_now()};
  /* In blocks (run_blocks) from cycle 0 when the links let nodes run ahead and no trace is
   * written (its lines come cycle by cycle, node by node); else, and after an NI error in a
   * block, cycle by cycle from the start. A later all-reduce (back to back) runs cycle by
   * cycle: the blocks rely on an NI's done output staying set, and a restart after an error
   * rebuilds the network from cycle 0. The table writes of mt_net_load come first. */
  while (n->cycle < n->start_at) mt_net_step(n);
  int all_done = 0, blocks = n->blk && !n->trace && n->cycle == 0;
  const uint64_t c0 = n->cycle;
  r->threads = 1;
  if (blocks && run_blocks(n, n->c.max_cycles, &pg)) {
    if (net_restart(n, e)) return -1;
    blocks = 0;
  }
  if (blocks) { /* ended without an error: every NI done, or the cycle limit */
    r->threads = n->run_threads;
    all_done = n->cycle > c0;
    for (int i = 0; i < n->N; i++) all_done &= n->nq[i].done;
  }
  while (!blocks && n->cycle - c0 < n->c.max_cycles) {
    mt_net_step(n);
    if (n->cycle == c0 + 1u)
      for (int i = 0; i < n->N; i++) /* every NI took the start (mt_net_start found them idle) */
        if (n->nq[i].done && !n->nq[i].err) return mt_fail(e, "node %d's NI did not take the start at cycle %llu", i, (unsigned long long)c0);
    all_done = 1;
    for (int i = 0; i < n->N; i++) {
      if (n->nq[i].err && r->err_node < 0) {
        r->err_node = i;
        r->err_code = n->nq[i].err_code;
      }
      all_done &= n->nq[i].done;
    }
    if (r->err_node >= 0 || all_done) break;
    if ((n->cycle & 0xFFF) == 0) progress_line(n, &pg, mean_step(n), 0);
  }
  progress_line(n, &pg, mean_step(n), 1); /* a terminal's last line, ended */
  r->cycles = n->cycle - c0;
  r->done = all_done;
  r->bytes = n->s->bytes;
  for (int i = 0; i < n->nr; i++)
    for (int p = 0; p < (int)n->rt[i].np; p++)
      for (int v = 0; v < (int)n->c.num_vcs; v++)
        if ((n->rq[i].wd_err[p][v] || n->rq[i].ovf_err[p][v] || n->rq[i].rt_err[p][v]) && !r->router_err) {
          r->router_err = 1;
          r->rerr_node = i;
          r->rerr_port = p;
          r->rerr_vc = v;
          r->rerr_kind = n->rq[i].ovf_err[p][v] ? 1 : n->rq[i].rt_err[p][v] ? 2
                                                                            : 0;
        }
  /* link utilisation over the run */
  uint64_t tot = 0, mx = 0;
  for (int k = 0; k < n->nl; k++) {
    tot += n->lflits[k];
    if (n->lflits[k] > mx) mx = n->lflits[k];
  }
  r->link_flits = tot;
  if (r->cycles && n->nl) {
    r->util_mean = (double)tot / (double)n->nl / (double)r->cycles;
    r->util_max = (double)mx / (double)r->cycles;
  }
  /* bandwidth lower bound: 2(N-1)S / (N d B), d = links per node, B = bytes per cycle */
  double d = n->sw ? (double)n->L : (double)n->nl / (double)n->N, B = (double)(n->c.payload_w / 8);
  /* links slower by a period count for 1/period of a link (the bound of all links together) */
  if (!n->sw && n->rt[0].pacedm) {
    d = 0;
    for (int k = 0; k < n->nl; k++) d += 1.0 / (double)n->rt[0].per[2 * n->t->links[k].dim];
    d /= (double)n->N;
  }
  r->lb_cycles = 2.0 * (n->N - 1) * (double)n->s->bytes / ((double)n->N * d * B);
  if (!all_done) {
    if (r->err_node >= 0) return 0; /* reported by the caller with the NI's error code */
    return mt_fail(e, "the all-reduce did not finish within max_cycles=%llu (cycle limit)", (unsigned long long)n->c.max_cycles);
  }
  return mt_net_check_buffers(n, r, e);
}
