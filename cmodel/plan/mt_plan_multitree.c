/* SPDX-License-Identifier: Apache-2.0
 * mt_plan_multitree: Algorithm 1 of the MultiTree paper (Section III-C).
 *
 * All N trees grow together, top-down from their roots, one time step per tree level.
 * In every step a fresh copy of the topology's link capacities is used; trees take
 * turns by root id, each turn adding at most one node; a node may only be attached to
 * a parent added in an earlier step, parents examined in the order they were added;
 * a parent offers its neighbours in the topology's preference order (grids: -Y, +Y,
 * then -X, +X; Z before Y); an allocated directed link (one unit of its multiplicity)
 * is gone for the rest of the step. A step ends when no tree can add a node.
 * Switch networks (Section III-C3): the child is found by a breadth-first search from
 * the parent through switches with free capacity, nodes on a switch before the
 * switch's neighbours; every link on the path is consumed.
 * The result is the all-gather schedule; reduce-scatter is its reverse (step
 * tot - t + 1), and all-gather moves after it (step tot + t). */
#include "plan/mt_sched.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  const mt_topo *t;
  int N;
  unsigned char *in_tree; /* [r*N + v] */
  int *order;             /* [r*N + i]: nodes of tree r in the order added */
  int *ostep;             /* [r*N + i]: step node order[i] was added in */
  int *size;              /* [r] */
  int *front, *fsize;     /* [r*N + i]: candidate parents (indices into order), in order */
  unsigned char *sat;     /* [r*N + i]: order[i] has every neighbour in tree r (direct networks) */
  int *cap;               /* [link] capacity left in this step */
  int *freecap;           /* [vertex] sum of cap over its out links (a quick "nothing left") */
  /* BFS scratch for switch networks */
  int *bprev, *bq, *bseen, bstamp;
} mt_state;

/* Find a child for parent p of tree r. Returns the child, or -1; fills path (links). */
static int find_child(mt_state *m, int r, int p, int *path, int *plen, int *saturated) {
  const mt_topo *t = m->t;
  const unsigned char *in = m->in_tree + (size_t)r * m->N;
  if (t->n_sw == 0) {
    if (m->freecap[p] == 0) { /* no link left this step; saturation is decided another step */
      *saturated = 0;
      return -1;
    }
    int all_in = 1;
    for (int k = t->out_start[p]; k < t->out_start[p + 1]; k++) {
      int l = t->out_list[k], c = t->links[l].dst;
      if (in[c]) continue;
      all_in = 0;
      if (m->cap[l] > 0) {
        path[0] = l;
        *plen = 1;
        return c;
      }
    }
    *saturated = all_in;
    return -1;
  }
  *saturated = 0;
  m->bstamp++;
  int h = 0, n = 0;
  m->bq[n++] = p;
  m->bseen[p] = m->bstamp;
  m->bprev[p] = -1;
  while (h < n) {
    int u = m->bq[h++];
    for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
      int l = t->out_list[k], w = t->links[l].dst;
      if (m->cap[l] <= 0 || m->bseen[w] == m->bstamp) continue;
      if (!mt_is_switch(t, w)) {
        if (in[w]) continue;
        int len = 0;
        for (int v = u; v != p; v = t->links[m->bprev[v]].src) len++;
        *plen = len + 1;
        path[len] = l;
        for (int v = u, i = len - 1; v != p; v = t->links[m->bprev[v]].src, i--) path[i] = m->bprev[v];
        return w;
      }
      m->bseen[w] = m->bstamp;
      m->bprev[w] = l;
      m->bq[n++] = w;
    }
  }
  return -1;
}

int mt_plan_multitree(mt_sched *s, const mt_topo *t, mt_err *e) {
  const int N = t->n_nodes;
  mt_sched_init(s, t, "multitree", N);
  s->one_hop = 1;
  mt_state m = {0};
  m.t = t;
  m.N = N;
  size_t NN = (size_t)N * (size_t)N;
  m.in_tree = mt_xcalloc(NN, 1);
  m.order = mt_xcalloc(NN, sizeof(int));
  m.ostep = mt_xcalloc(NN, sizeof(int));
  m.front = mt_xcalloc(NN, sizeof(int));
  m.sat = mt_xcalloc(NN, 1);
  m.size = mt_xcalloc((size_t)N, sizeof(int));
  m.fsize = mt_xcalloc((size_t)N, sizeof(int));
  m.cap = mt_xcalloc((size_t)t->n_links, sizeof(int));
  m.freecap = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bprev = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bq = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bseen = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  int *ptr = mt_xcalloc((size_t)N, sizeof(int));
  int *path = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  for (int r = 0; r < N; r++) {
    s->root[r] = r;
    m.in_tree[(size_t)r * N + r] = 1;
    m.order[(size_t)r * N] = r;
    m.ostep[(size_t)r * N] = 0;
    m.size[r] = 1;
    m.front[(size_t)r * N] = 0;
    m.fsize[r] = 1;
  }
  long remaining = (long)N * (N - 1);
  int tstep = 0, rc = 0;
  while (remaining > 0) {
    tstep++;
    memset(m.freecap, 0, (size_t)t->n_vert * sizeof(int));
    for (int l = 0; l < t->n_links; l++) {
      m.cap[l] = t->links[l].mult;
      m.freecap[t->links[l].src] += t->links[l].mult;
    }
    /* drop parents that can never add a node again, keeping the order */
    for (int r = 0; r < N; r++) {
      int *f = m.front + (size_t)r * N, k = 0;
      for (int i = 0; i < m.fsize[r]; i++)
        if (!m.sat[(size_t)r * N + f[i]]) f[k++] = f[i];
      m.fsize[r] = k;
      ptr[r] = 0;
    }
    long added = 0;
    int progress;
    do {
      progress = 0;
      for (int r = 0; r < N; r++) { /* trees take turns by root id */
        if (m.size[r] == N) continue;
        int *f = m.front + (size_t)r * N;
        while (ptr[r] < m.fsize[r]) { /* parents in the order they were added */
          int oi = f[ptr[r]];
          if (m.ostep[(size_t)r * N + oi] >= tstep) {
            ptr[r] = m.fsize[r];
            break;
          }
          int p = m.order[(size_t)r * N + oi], plen = 0, satd = 0;
          int c = find_child(&m, r, p, path, &plen, &satd);
          if (c >= 0) {
            for (int i = 0; i < plen; i++) {
              m.cap[path[i]]--;
              m.freecap[t->links[path[i]].src]--;
            }
            size_t at = (size_t)r * N + m.size[r];
            m.order[at] = c;
            m.ostep[at] = tstep;
            f[m.fsize[r]++] = m.size[r];
            m.size[r]++;
            m.in_tree[(size_t)r * N + c] = 1;
            mt_sched_add(s, r, MT_OP_GATHER, p, c, tstep, path, plen);
            added++;
            remaining--;
            progress = 1;
            break; /* one node per turn */
          }
          if (satd) m.sat[(size_t)r * N + oi] = 1;
          ptr[r]++;
        }
      }
    } while (progress);
    if (added == 0) {
      rc = mt_fail(e, "multitree on %s: no tree can grow in step %d (disconnected network?)", t->spec, tstep);
      break;
    }
  }
  free(m.in_tree);
  free(m.order);
  free(m.ostep);
  free(m.front);
  free(m.sat);
  free(m.size);
  free(m.fsize);
  free(m.cap);
  free(m.freecap);
  free(m.bprev);
  free(m.bq);
  free(m.bseen);
  free(ptr);
  if (rc) {
    free(path);
    mt_sched_free(s);
    return rc;
  }
  /* reduce-scatter = reversed all-gather, then all-gather after it */
  const int tot = tstep, ng = s->nx;
  for (int i = 0; i < ng; i++) {
    mt_xfer g = s->x[i];
    int len = g.path_len;
    for (int k = 0; k < len; k++) {
      const mt_edge *l = &t->links[MT_XLINK(s, &g, len - 1 - k)];
      path[k] = t->port_link[l->dst * t->max_ports + l->dst_port];
    }
    mt_sched_add(s, g.flow, MT_OP_REDUCE, g.dst, g.src, tot - g.step + 1, path, len);
  }
  for (int i = 0; i < ng; i++) s->x[i].step += tot;
  s->steps = 2 * tot;
  s->reduce_steps = tot;
  free(path);
  return 0;
}
