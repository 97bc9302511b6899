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
 * tot - t + 1), and all-gather moves after it (step tot + t).
 *
 * Cost (docs/reference/planner.md, "Planning switch networks"): the turns and the paths are
 * those of the plain algorithm; what is skipped is known to fail. A parent with no free
 * out link (spent) cannot add a node in this step: runs of them are jumped over via the
 * nodes that still have capacity. Free links are a bit per out-list position. The switch
 * search finds the BFS's path (shortest, smallest out-list positions) from both ends.
 * A search that fails leaves a region dead for the tree in this turn (for all trees when
 * it has no free link to an end node), and a turn ends when all a tree could use is dead. */
#include "plan/mt_sched.h"
#include "topo/mt_balls.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int mt_plan_progress = -1;
int mt_plan_verify_search = 0;

typedef struct {
  const mt_topo *t;
  int N, W;           /* nodes; 64-bit words per tree in in_tree */
  uint64_t *in_tree;  /* [r*W + v/64]: bit v%64 = node v is in tree r */
  uint16_t *order;    /* [r*N + i]: nodes of tree r in the order added (switch networks) */
  int *pos;           /* [r*N + v]: v's index in the order tree r added its nodes, -1 outside
                         (direct networks without dmask) */
  int *lim;           /* [r]: order entries added before this step (the possible parents) */
  int *size;          /* [r] */
  int *front, *fsize; /* [r*N + i]: candidate parents in order: node id, MT_SAT marks a saturated one; with dmask
                            also bit MT_MSHIFT + k = the node's k-th out link leads outside the tree */
  int *flim;          /* [r]: front entries added before this step (the possible parents) */
  int ident;          /* switch networks: no parent is ever dropped, front[r*N + i] = i (not stored) */
  int *newsat;        /* [r]: 1 + the first front index marked saturated since the front was compacted, or 0 */
  int *nsat;          /* dmask: [r] front entries marked saturated since then (walked over until compacted) */
  /* direct networks of at most 8 links per node: the out-of-tree links in the front entries
   * (dmask), and per node bit k = its k-th out link is free in this step */
  int dmask;
  unsigned char *fmask;
  int *dpos;             /* [link]: its position in its source's out list */
  int *dnbr;             /* dmask: [v*8 + k] the far end of v's k-th out link */
  int *cap;              /* [link] capacity left in this step */
  int *freecap;          /* [vertex] sum of cap over its out links (a quick "nothing left") */
  int *alive, *aidx, na; /* end nodes that can still send (any order); aidx[v]: v's index or -1 */
  int tstep;
  int *gdead;       /* [switch] == tstep: no free link to any end node is reachable from it */
  int turn, *rdead; /* [switch] == turn: no end node outside this turn's tree is reachable */
  int skipped;      /* the current search skipped a switch dead for the tree */
  /* switch networks: where the end nodes that can still send lead (free units): ecnt per
   * switch, the switches with ecnt > 0 in elist (eidx: index or -1), ndirect to end nodes */
  int *ecnt, *elist, *eidx, nel;
  long ndirect;
  /* switch networks: free links by position in the out lists, a bit per position */
  uint64_t *fbits;
  int *lpos;               /* [link]: its position in out_list */
  const int (*lse)[3];     /* the topology's: [link] src, dst, position in out_list (one cache line a link) */
  int *nend;               /* [vertex]: end of its links to end nodes (they come first) */
  int *nbase;              /* [vertex]: those links go to end nodes nbase, nbase+1, ... in order; or -1 */
  int *in_start, *in_list; /* [vertex]: its in links (CSR) */
  int *odst, *isrc;        /* the far end of out_list[k] and in_list[k] (kept together for speed) */
  uint64_t *rcv;           /* [v/64]: end node v has a free link from a switch */
  int *fincap;             /* [node]: capacity left on its links from switches */
  /* search scratch for switch networks: forward (from the parent) and backward (from
   * the end nodes it could reach) breadth-first searches; *seen are stamps */
  int *bprev, *bq, *bseen, *fdep, bstamp;
  int *bq2, *bseen2, *bdep; /* backward: queue, stamps, distance to an end node */
  int *okst, *kst;          /* path rebuild: dead ends (stamp), next out-list position per depth */
  /* guided search: the network's balls (end nodes within b hops of a switch), and per
   * ball whether it holds a possible target of this search (stamp, result) */
  mt_balls balls;
  int has_balls;
  uint64_t qstamp, gstamp;
  const uint64_t *tr, *nf; /* tree bits of the current search, and its nfull row */
  int SW;                  /* words of a summary (one bit per word of W) */
  uint64_t *rsum;          /* [SW]: bit w = rcv[w] is not 0 */
  uint64_t *nfull;         /* [r * SW]: bit w = tree r's word w is not all ones */
  uint64_t *bhit;          /* [ball id]: 2 * qstamp + 1 if it holds a possible target, 2 * qstamp if not */
  int *gq;                 /* guided search: the vertices of its path */
  uint64_t *gvis;          /* guided search: [vertex] 2^16 * gstamp + the smallest depth it was entered at */
  /* k-ary n-trees built by fattree:K,L (checked link by link, ft_init): the search's answer
   * computed from the node ids (ft_child); ftm: per switch - N an unsigned of fte bytes
   * (2K bits: the smallest of 1, 2, 4 bytes, so that the masks of fattree:2,L stay in the
   * first-level cache): bit j = its up link to digit j is free, bit K + j = its down link to
   * digit j; ftl[link]: 32 * (switch - N) + bit, or -1 */
  int ft, ftb, ftL, ftper, fte; /* K = 2^ftb, L, K^(L-1), bytes a mask */
  void *ftm;
  int *ftl;
  /* ft_child's last path: fth[i] = 32 * (switch - N) + bit of its link i (0 < i < plen - 1);
   * ftok: the path to commit is that one (ft_use); ftdirty: ftm has links taken by ft_use
   * that cap and fbits do not show yet (ft_sync) */
  int fth[64], ftok, ftdirty;
  int ftpw[64]; /* and where each of its links is in its source's out list (mt_sched_add_onehop_pos) */
  int verify;   /* mt_plan_verify_search: every search also by breadth first, compared */
  int mismatch; /* a compared search disagreed (the first is in msg) */
  char msg[200];
} mt_state;

static inline int in_tree(const mt_state *m, int r, int v) {
  return (int)(m->in_tree[(size_t)r * m->W + (unsigned)v / 64] >> (v % 64) & 1);
}

/* End node v is spent: it cannot send in this step. */
static void drop_alive(mt_state *m, int v) {
  int i = m->aidx[v], last = m->alive[--m->na];
  m->alive[i] = last;
  m->aidx[last] = i;
  m->aidx[v] = -1;
}

/* `units` free units of link l, from an end node that can still send, are gone. */
static void entry_dec(mt_state *m, int l, int units) {
  int x = m->t->links[l].dst;
  if (!mt_is_switch(m->t, x)) {
    m->ndirect -= units;
    return;
  }
  if ((m->ecnt[x] -= units) == 0) {
    int i = m->eidx[x], last = m->elist[--m->nel];
    m->elist[i] = last;
    m->eidx[last] = i;
    m->eidx[x] = -1;
  }
}

/* ftm of switch x (index x - N) */
static inline uint32_t ft_get(const mt_state *m, int x) {
  if (m->fte == 1) return ((const uint8_t *)m->ftm)[x];
  if (m->fte == 2) return ((const uint16_t *)m->ftm)[x];
  return ((const uint32_t *)m->ftm)[x];
}
/* the link of ftm code 32 * x + bit is taken */
static inline void ft_clr(mt_state *m, int code) {
  const int x = code >> 5, bit = code & 31;
  if (m->fte == 1) ((uint8_t *)m->ftm)[x] &= (uint8_t) ~(1u << bit);
  else if (m->fte == 2) ((uint16_t *)m->ftm)[x] &= (uint16_t) ~(1u << bit);
  else ((uint32_t *)m->ftm)[x] &= ~(1u << bit);
}

/* Consume one unit of link l. */
static void use_link(mt_state *m, int l) {
  const int src = m->lse[l][0], dst = m->lse[l][1];
  if (src < m->N) {
    if (m->ecnt && m->aidx[src] >= 0) entry_dec(m, l, 1);
    if (--m->freecap[src] == 0 && m->aidx[src] >= 0) drop_alive(m, src);
  } else
    m->freecap[src]--;
  if (--m->cap[l] == 0 && m->fbits) m->fbits[m->lse[l][2] / 64] &= ~(1ull << (m->lse[l][2] % 64));
  if (m->cap[l] == 0 && m->fmask) m->fmask[src] &= (unsigned char)~(1u << m->dpos[l]);
  if (m->ftl && m->cap[l] == 0 && m->ftl[l] >= 0) ft_clr(m, m->ftl[l]);
  if (m->fincap && dst < m->N && src >= m->N && --m->fincap[dst] == 0 && !(m->rcv[dst / 64] &= ~(1ull << (dst % 64))))
    m->rsum[dst / 4096] &= ~(1ull << (dst / 64 % 64));
}

/* First position in [a, b) whose link is free, or b. */
static inline int next_free(const uint64_t *fb, int a, int b) {
  while (a < b) {
    uint64_t w = fb[a / 64] >> (a % 64);
    if (w) {
      int k = a + __builtin_ctzll(w);
      return k < b ? k : b;
    }
    a = (a / 64 + 1) * 64;
  }
  return b;
}

/* Search cost below which the plain breadth-first search is left to finish alone. */
#define MT_FWD_BUDGET 8

/* Path of the search tree from p to u, then link l (u -> child); returns the child. */
static int bfs_path(const mt_state *m, int p, int u, int l, int *path, int *plen) {
  const mt_topo *t = m->t;
  int len = 0;
  for (int v = u; v != p; v = t->links[m->bprev[v]].src) len++;
  *plen = len + 1;
  path[len] = l;
  for (int v = u, i = len - 1; v != p; v = t->links[m->bprev[v]].src, i--) path[i] = m->bprev[v];
  return t->links[l].dst;
}

/* len <= 64 bits of a bit array from bit off (the array has a spare word at its end) */
static inline uint64_t bits_at(const uint64_t *a, int off, int len) {
  uint64_t w = a[off / 64] >> (off % 64);
  if (off % 64) w |= a[off / 64 + 1] << (64 - off % 64);
  return len == 64 ? w : w & ((1ull << len) - 1);
}

/* First free link from u to an end node outside tree r, or -1. */
static int free_link_out_of_tree(const mt_state *m, int r, int u) {
  const mt_topo *t = m->t;
  const int ne = m->nend[u];
  if (m->nbase[u] >= 0) { /* a word of links at a time: free and not in the tree */
    const uint64_t *tr = m->in_tree + (size_t)r * m->W;
    for (int k0 = t->out_start[u]; k0 < ne; k0 += 64) {
      int len = ne - k0 < 64 ? ne - k0 : 64;
      uint64_t c = bits_at(m->fbits, k0, len) & ~bits_at(tr, m->nbase[u] + (k0 - t->out_start[u]), len);
      if (c) return t->out_list[k0 + __builtin_ctzll(c)];
    }
    return -1;
  }
  for (int k = next_free(m->fbits, m->t->out_start[u], ne); k < ne; k = next_free(m->fbits, k + 1, ne))
    if (!in_tree(m, r, t->links[t->out_list[k]].dst)) return t->out_list[k];
  return -1;
}

/* A search from p found nothing: the switches it visited (bq[1..n), closed under free
 * links) are dead for this tree until the end of its turn (nothing frees a link in a
 * turn), and for every tree if none has a free link to an end node; then an end node
 * whose free links all lead into dead switches is spent too (its search would fail the
 * same way), so the turns stop trying it. */
static void note_dead_region(mt_state *m, int n) {
  const mt_topo *t = m->t;
  for (int i = 1; i < n; i++) m->rdead[m->bq[i]] = m->turn;
  if (m->skipped) return; /* the region continues into switches dead only for this tree */
  for (int i = 1; i < n; i++) {
    int x = m->bq[i];
    if (next_free(m->fbits, t->out_start[x], m->nend[x]) < m->nend[x]) return;
  }
  for (int i = 1; i < n; i++) m->gdead[m->bq[i]] = m->tstep;
  for (int i = 1; i < n; i++)
    for (int k = m->in_start[m->bq[i]]; k < m->in_start[m->bq[i] + 1]; k++) {
      int y = t->links[m->in_list[k]].src, e = t->out_start[y + 1], live = 0;
      if (y >= m->N || m->aidx[y] < 0) continue;
      for (int j = next_free(m->fbits, t->out_start[y], e); j < e && !live; j = next_free(m->fbits, j + 1, e)) {
        int w = m->odst[j];
        live = !mt_is_switch(t, w) || m->gdead[w] != m->tstep;
      }
      if (live) continue;
      for (int j = next_free(m->fbits, t->out_start[y], e); j < e; j = next_free(m->fbits, j + 1, e))
        entry_dec(m, t->out_list[j], m->cap[t->out_list[j]]);
      drop_alive(m, y);
    }
}

/* The forward search reaches switch w at depth d: 1 if w is new (then marked), 0 if seen or
 * dead for this tree (not searched again in its turn). */
static inline int fwd_visit(mt_state *m, int w, int st, int d) {
  if (m->bseen[w] == st) return 0;
  if (m->rdead[w] == m->turn) {
    m->skipped = 1;
    return 0;
  }
  m->bseen[w] = st;
  m->fdep[w] = d;
  return 1;
}

/* Switch networks: breadth-first search from p through switches over free links; the
 * child is the first end node outside tree r met (links in preference order, the end
 * nodes of a vertex before its switches); the path in path/plen; -1 if none.
 * That search returns the shortest path from p to an end node outside the tree, ties
 * broken by the smallest sequence of out-list positions (a breadth-first search visits
 * each level in that order). When the plain search grows past MT_FWD_BUDGET switches
 * (late in a step few end nodes can still receive, and it would cover most of the
 * network), the same path is found by searching from both ends: forward from p,
 * backward from the switches with a free link to an end node outside the tree,
 * expanding the smaller frontier, until they meet at distance D; then the path is
 * rebuilt from p taking at each vertex the first free link that stays on a D-hop path. */
static int find_child_guided(mt_state *m, int r, int p, int *path, int *plen);
static int find_child_sw(mt_state *m, int r, int p, int *path, int *plen, int guided) {
  const mt_topo *t = m->t;
  const int st = ++m->bstamp;
  m->skipped = 0;
  int n = 0;
  m->bq[n++] = p;
  m->bseen[p] = st;
  m->fdep[p] = 0;
  m->bprev[p] = -1;
  int flo = 0, fhi = 1, a = 0; /* forward frontier bq[flo..fhi), at depth a, not expanded */
  while (flo < fhi && (a == 0 || n < MT_FWD_BUDGET)) {
    const int handover = guided && a == 1; /* the parent's switches: checked, not expanded */
    for (int i = flo; i < fhi; i++) {
      int u = m->bq[i], l = free_link_out_of_tree(m, r, u), b = t->out_start[u + 1];
      if (l >= 0) return bfs_path(m, p, u, l, path, plen);
      if (handover) continue;
      for (int k = next_free(m->fbits, m->nend[u], b); k < b; k = next_free(m->fbits, k + 1, b)) {
        int ll = t->out_list[k], w = m->odst[k];
        if (!fwd_visit(m, w, st, a + 1)) continue;
        m->bprev[w] = ll;
        m->bq[n++] = w;
      }
    }
    if (handover) break; /* bq[flo..fhi) stays the frontier at depth a, not expanded */
    flo = fhi;
    fhi = n;
    a++;
  }
  if (flo == fhi) {
    note_dead_region(m, n);
    return -1;
  }
  if (guided) { /* the same answer from the whole network's distances (find_child_guided) */
    int c = find_child_guided(m, r, p, path, plen);
    if (c >= 0) return c;
  }
  /* backward level 1: switches with a free link to an end node outside the tree; the
   * forward search has expanded levels < a without meeting one */
  int n2 = 0, D = 1 << 30;
  const uint64_t *tr = m->in_tree + (size_t)r * m->W;
  for (int wi = 0; wi < m->W; wi++)
    for (uint64_t bits = m->rcv[wi] & ~tr[wi]; bits; bits &= bits - 1) {
      int w = wi * 64 + __builtin_ctzll(bits);
      for (int k = m->in_start[w]; k < m->in_start[w + 1]; k++) {
        int l = m->in_list[k], x = m->isrc[k];
        if (m->cap[l] <= 0 || !mt_is_switch(t, x) || m->bseen2[x] == st) continue;
        m->bseen2[x] = st;
        m->bdep[x] = 1;
        m->bq2[n2++] = x;
        if (m->bseen[x] == st && m->fdep[x] + 1 < D) D = m->fdep[x] + 1;
      }
    }
  int blo = 0, bhi = n2, b = 1; /* backward frontier bq2[blo..bhi), at distance b */
  while (D == 1 << 30) {
    if (flo == fhi) note_dead_region(m, n);
    if (flo == fhi || blo == bhi) return -1;
    if (fhi - flo <= bhi - blo) {
      for (int i = flo; i < fhi; i++) {
        int u = m->bq[i], e = t->out_start[u + 1];
        for (int k = next_free(m->fbits, m->nend[u], e); k < e; k = next_free(m->fbits, k + 1, e)) {
          int w = m->odst[k];
          if (!fwd_visit(m, w, st, a + 1)) continue;
          m->bq[n++] = w;
          if (m->bseen2[w] == st && a + 1 + m->bdep[w] < D) D = a + 1 + m->bdep[w];
        }
      }
      flo = fhi;
      fhi = n;
      a++;
    } else {
      for (int i = blo; i < bhi; i++) {
        int x = m->bq2[i];
        for (int k = m->in_start[x]; k < m->in_start[x + 1]; k++) {
          int l = m->in_list[k], y = m->isrc[k];
          if (m->cap[l] <= 0 || !mt_is_switch(t, y) || m->bseen2[y] == st) continue;
          m->bseen2[y] = st;
          m->bdep[y] = b + 1;
          m->bq2[n2++] = y;
          if (m->bseen[y] == st && m->fdep[y] + b + 1 < D) D = m->fdep[y] + b + 1;
        }
      }
      blo = bhi;
      bhi = n2;
      b++;
    }
  }
  /* Rebuild the path in out-list order: a depth-first search from p over forward
   * vertices one level deeper each hop (okst marks the dead ends), until a switch whose
   * backward distance completes D; from there the backward distances lead the way. */
  int d = 0, v = p;
  m->kst[0] = m->nend[p];
  while (D - d > b) {
    const int e = t->out_start[v + 1];
    int k = next_free(m->fbits, m->kst[d], e), z = -1;
    for (; k < e; k = next_free(m->fbits, k + 1, e)) {
      z = m->odst[k];
      if (D - (d + 1) <= b ? m->bseen2[z] == st && m->bdep[z] == D - d - 1
                           : m->bseen[z] == st && m->fdep[z] == d + 1 && m->okst[z] != st)
        break;
    }
    if (k >= e) { /* dead end: back up */
      m->okst[v] = st;
      if (d == 0) return -1; /* cannot happen: the searches met */
      d--;
      v = t->links[path[d]].src;
      continue;
    }
    m->kst[d] = k + 1;
    path[d++] = t->out_list[k];
    v = z;
    m->kst[d] = m->nend[v];
  }
  while (D - d > 1) { /* backward distances: each level has a next one */
    const int e = t->out_start[v + 1];
    int k = next_free(m->fbits, m->nend[v], e);
    while (k < e && !(m->bseen2[m->odst[k]] == st && m->bdep[m->odst[k]] == D - d - 1))
      k = next_free(m->fbits, k + 1, e);
    if (k >= e) return -1; /* cannot happen */
    path[d++] = t->out_list[k];
    v = m->odst[k];
  }
  path[d] = free_link_out_of_tree(m, r, v);
  if (path[d] < 0) return -1; /* cannot happen either */
  *plen = d + 1;
  return t->links[path[d]].dst;
}

/* bits [lo, hi) of a & ~b hold a 1; lo < hi */
static inline int any_bit(const uint64_t *a, const uint64_t *b, int lo, int hi) {
  const int a0 = lo / 64, a1 = (hi - 1) / 64;
  const uint64_t m0 = ~0ull << (lo % 64), m1 = ~0ull >> (63 - (hi - 1) % 64);
  if (a0 == a1) return (a[a0] & ~b[a0] & m0 & m1) != 0;
  if (a[a0] & ~b[a0] & m0 || a[a1] & ~b[a1] & m1) return 1;
  for (int w = a0 + 1; w < a1; w++)
    if (a[w] & ~b[w]) return 1;
  return 0;
}

/* Some end node in [lo, hi) is a possible target of the current search: outside the tree
 * (bits tr) with a free link from a switch (rcv). Between the end words only the words
 * that can hold one are read: rcv not 0 (rsum) and the tree's word not full (nfull). */
static int any_target(const mt_state *m, int lo, int hi) {
  const int w0 = lo / 64, w1 = (hi - 1) / 64;
  if (w1 - w0 < 4) return any_bit(m->rcv, m->tr, lo, hi);
  if (any_bit(m->rcv, m->tr, lo, (w0 + 1) * 64) || any_bit(m->rcv, m->tr, w1 * 64, hi)) return 1;
  for (int s = (w0 + 1) / 64; s <= (w1 - 1) / 64; s++) {
    uint64_t c = m->rsum[s] & m->nf[s];
    if (s == (w0 + 1) / 64) c &= ~0ull << ((w0 + 1) % 64);
    if (s == (w1 - 1) / 64) c &= ~0ull >> (63 - (w1 - 1) % 64);
    for (; c; c &= c - 1) {
      int w = s * 64 + __builtin_ctzll(c);
      if (m->rcv[w] & ~m->tr[w]) return 1;
    }
  }
  return 0;
}

/* Ball `id` holds a possible target of the current search (cached per search). */
static inline int ball_hits(mt_state *m, int id) {
  if (m->bhit[id] >> 1 == m->qstamp) return (int)(m->bhit[id] & 1);
  int hit = 0;
  for (int j = m->balls.off[id]; j < m->balls.off[id + 1] && !hit; j++)
    hit = any_target(m, m->balls.rng[j][0], m->balls.rng[j][1]);
  m->bhit[id] = m->qstamp << 1 | (uint64_t)hit;
  return hit;
}

/* Some switch that p can still send to has a target within b hops. */
static int send_ball_hits(mt_state *m, int p, int b) {
  const int e = m->t->out_start[p + 1];
  for (int k = next_free(m->fbits, m->nend[p], e); k < e; k = next_free(m->fbits, k + 1, e))
    if (ball_hits(m, mt_ball(&m->balls, m->odst[k], b))) return 1;
  return 0;
}

/* The breadth-first search's answer, found from the whole network's distances: no path to
 * a target is shorter than D0 = 1 + the smallest radius b at which the ball of a switch p
 * can send to holds a node outside the tree that can still receive. A depth-first search
 * from p in out-list order, entering a switch w with D - d hops to go only if ball(w,
 * D - d - 1) holds such a node, finds the smallest sequence of out-list positions among the
 * free paths of exactly D links: when D = D0 that is the shortest path the breadth-first
 * search returns (a path of D0 links is a shortest one, and every prefix of it is a
 * shortest path to its end, so a switch met again at the same or a larger depth has
 * already failed). Returns the child, -1 when there is no free path of D0 links (then the
 * breadth-first search decides). */
static int find_child_guided(mt_state *m, int r, int p, int *path, int *plen) {
  const mt_topo *t = m->t;
  const uint64_t *tr = m->in_tree + (size_t)r * m->W;
  int l = free_link_out_of_tree(m, r, p);
  if (l >= 0) {
    path[0] = l;
    *plen = 1;
    return t->links[l].dst;
  }
  m->qstamp++;
  m->tr = tr;
  m->nf = m->nfull + (size_t)r * (size_t)m->SW;
  /* the smallest radius b at which a switch p can send to holds a target: balls grow with
   * b, so a binary search over the radii */
  int lo = 1, hi = m->balls.nb - 1;
  if (hi < 1 || !send_ball_hits(m, p, hi)) return -1;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (send_ball_hits(m, p, mid)) hi = mid;
    else lo = mid + 1;
  }
  const int D = lo + 1;
  if (D >= 1 << 16) return -1; /* the visit stamps hold depths below 2^16 */
  const uint64_t st = ++m->gstamp << 16;
  int d = 0, v = p;
  m->gq[0] = p;
  m->kst[0] = m->nend[p];
  for (;;) {
    const int rem = D - d;
    if (rem == 1) {
      l = free_link_out_of_tree(m, r, v);
      if (l >= 0) {
        path[d] = l;
        *plen = d + 1;
        return t->links[l].dst;
      }
    } else {
      const int e = t->out_start[v + 1];
      int k = next_free(m->fbits, m->kst[d], e);
      const int bb = rem - 1 < m->balls.nb ? rem - 1 : m->balls.nb - 1;
      while (k < e) {
        int w = m->odst[k];
        if (ball_hits(m, mt_ball(&m->balls, w, bb)) && m->gvis[w] - st > (uint64_t)d + 1) break; /* not entered at a depth <= d + 1 */
        k = next_free(m->fbits, k + 1, e);
      }
      if (k < e) { /* enter w */
        int w = m->odst[k];
        m->kst[d] = k + 1;
        path[d++] = t->out_list[k];
        m->gq[d] = v = w;
        m->gvis[w] = st + (uint64_t)d;
        m->kst[d] = m->nend[w];
        continue;
      }
    }
    if (d == 0) return -1;
    v = m->gq[--d];
  }
}

static int ipow(int b, int e) {
  int r = 1;
  while (e-- > 0) r *= b;
  return r;
}

/* fattree:K,L (mt_topo_parse.c): node v links leaf switch v / K; switch <w,l> (vertex
 * N + l * per + w, per = K^(L-1)) links <w',l+1> for each value j of digit l of w' (w with
 * digit l set to j); input link i is links 2i (up) and 2i + 1 (down). When t is exactly that
 * network, out lists included, with K a power of two up to 16 and L >= 2, fills the ft fields and the
 * full masks ftm_full (n_sw masks of fte bytes); returns 1, else 0. */
static int ft_init(mt_state *m, const mt_topo *t, void **ftm_full) {
  const int N = t->n_nodes, S = t->n_sw;
  if (S < 2 || !m->nend || m->W > 64) return 0; /* ft_words: the words of a tree in one summary word */
  const int k = m->nend[N] - t->out_start[N];
  if (k < 2 || k > 16 || (k & (k - 1)) || N % k || S % (N / k)) return 0;
  const int per = N / k, L = S / per;
  long pw = 1;
  for (int l = 0; l + 1 < L; l++) pw *= k;
  if (L < 2 || 2 * L > 64 || pw != per || t->n_links != 2 * (N + per * k * (L - 1))) return 0;
  for (int i = 0; i < t->n_links / 2; i++) { /* the links */
    int a = i, b = N + i / k;
    if (i >= N) {
      const int j = i - N, l = j / (per * k), w = j / k % per, p = ipow(k, l);
      a = N + l * per + w;
      b = N + (l + 1) * per + w + (j % k - w / p % k) * p;
    }
    const mt_edge *f = &t->links[2 * i], *g = &t->links[2 * i + 1];
    if (f->src != a || f->dst != b || g->src != b || g->dst != a || f->mult != 1 || g->mult != 1) return 0;
  }
  for (int v = 0; v < N; v++)
    if (t->out_start[v + 1] - t->out_start[v] != 1 || t->out_list[t->out_start[v]] != 2 * v) return 0;
  uint32_t *full = mt_xcalloc((size_t)S, sizeof *full);
  int *ftl = mt_xcalloc((size_t)t->n_links, sizeof *ftl);
  memset(ftl, 0xff, (size_t)t->n_links * sizeof *ftl);
  int ok = 1;
  for (int x = 0; x < S && ok; x++) { /* out lists: end nodes, down by digit, up by digit */
    const int l = x / per, w = x % per, *o = t->out_list + t->out_start[N + x];
    int n = 0;
    for (int j = 0; l == 0 && j < k; j++) ok &= o[n++] == 2 * (w * k + j) + 1;
    for (int j = 0; l > 0 && j < k; j++) {
      const int p = ipow(k, l - 1), c = w + (j - w / p % k) * p, lk = 2 * (N + ((l - 1) * per + c) * k + w / p % k) + 1;
      ok &= o[n++] == lk;
      ftl[lk] = 32 * x + k + j;
      full[x] |= 1u << (k + j);
    }
    for (int j = 0; l + 1 < L && j < k; j++) {
      const int lk = 2 * (N + (l * per + w) * k + j);
      ok &= o[n++] == lk;
      ftl[lk] = 32 * x + j;
      full[x] |= 1u << j;
    }
    ok &= n == t->out_start[N + x + 1] - t->out_start[N + x];
  }
  if (!ok) {
    free(full);
    free(ftl);
    return 0;
  }
  m->ft = 1;
  m->ftb = __builtin_ctz((unsigned)k);
  m->ftL = L;
  m->ftper = per;
  m->fte = k <= 4 ? 1 : k <= 8 ? 2
                               : 4;
  m->ftl = ftl;
  m->ftm = mt_xcalloc((size_t)S, (size_t)m->fte);
  for (int x = 0; x < S; x++) { /* full masks in fte bytes */
    if (m->fte == 1) ((uint8_t *)m->ftm)[x] = (uint8_t)full[x];
    else if (m->fte == 2) ((uint16_t *)m->ftm)[x] = (uint16_t)full[x];
    else ((uint32_t *)m->ftm)[x] = full[x];
  }
  *ftm_full = mt_xcalloc((size_t)S, (size_t)m->fte);
  memcpy(*ftm_full, m->ftm, (size_t)S * (size_t)m->fte);
  free(full);
  return 1;
}

static inline uint64_t low_bits(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* Of the words of in_tree selected by mask (at most 64 words: ft_init), those that hold a
 * target of the current search: only words whose rcv is not 0 and whose tree word is not
 * full are read (rsum, nfull). */
static inline uint64_t ft_words(const mt_state *m, uint64_t mask) {
  uint64_t t = 0;
  for (uint64_t c = m->rsum[0] & m->nf[0] & mask; c; c &= c - 1) {
    const int w = __builtin_ctzll(c);
    if (m->rcv[w] & ~m->tr[w]) t |= 1ull << w;
  }
  return t;
}

/* The 2^e end nodes from lo (aligned) hold a target; tw: ft_words of every word they cover
 * when e >= 6. */
static inline int ft_has(const mt_state *m, uint64_t tw, int lo, int e) {
  if (e >= 6) return (tw >> (lo / 64) & low_bits(1 << (e - 6))) != 0;
  return ((m->rcv[lo / 64] & ~m->tr[lo / 64]) >> (lo % 64) & low_bits(1 << e)) != 0;
}

/* The search's answer on a fattree:K,L network (ft_init), without searching: the shortest
 * path from end node p to a target (an end node outside tree r that can still receive) goes
 * up from p's leaf switch to level h, the lowest whose subtree around p holds a target, then
 * down (2h + 2 links; any other path to a target is longer). Among those paths the search
 * returns the one with the smallest out-list positions: find_child_guided enters up links in
 * digit order, the first free one (each leads to a switch whose ball holds the level-h
 * subtree), and down links in digit order, the first free one whose subtree holds a target.
 * That is taken here, from the node ids (digits of ftb bits) and the free-link masks.
 * Returns the child, or -1 when that walk meets no free link (the guided search then backs
 * up, and decides). */
static int ft_child(mt_state *m, int r, int p, int *path, int *plen) {
  const int b = m->ftb, K = 1 << b, per = m->ftper, N = m->N;
  m->tr = m->in_tree + (size_t)r * m->W;
  m->nf = m->nfull + (size_t)r * (size_t)m->SW;
  /* level h's subtree: the 2^e end nodes of p's ids without the low e bits; beyond one word,
   * tw holds the words of it that hold a target (seen: the words read) */
  uint64_t tw = 0, seen = 0;
  int h = 0;
  for (int e = b;; e += b) {
    if (e >= 6) {
      const uint64_t blk = low_bits(1 << (e - 6)) << (p / 64 >> (e - 6) << (e - 6));
      tw |= ft_words(m, blk & ~seen);
      seen |= blk;
    }
    if (ft_has(m, tw, p >> e << e, e)) break;
    if (++h == m->ftL) return -1;
  }
  int w = p >> b, d = 0;
  m->ftpw[d] = 0;
  path[d++] = 2 * p;
  for (int l = 0; l < h; l++) { /* up: the first free link */
    const uint32_t fm = ft_get(m, l * per + w) & ((1u << K) - 1);
    if (!fm) return -1;
    const int j = __builtin_ctz(fm), sh = l * b;
    m->fth[d] = 32 * (l * per + w) + j;
    m->ftpw[d] = (K + j) << 8 | (b + 1); /* out list: K end nodes or switches below, then K up */
    path[d++] = 2 * (N + (l * per + w) * K + j);
    w = (w & ~((K - 1) << sh)) | j << sh;
  }
  for (int l = h; l > 0; l--) { /* down: the first free link to a target */
    const int sh = (l - 1) * b, dig = w >> sh & (K - 1);
    int c = -1, j = 0;
    for (uint32_t fm = ft_get(m, l * per + w) >> K; fm && c < 0; fm &= fm - 1) {
      j = __builtin_ctz(fm);
      const int w2 = (w & ~((K - 1) << sh)) | j << sh;
      if (ft_has(m, tw, w2 >> sh << (sh + b), sh + b)) c = w2;
    }
    if (c < 0) return -1;
    m->fth[d] = 32 * (l * per + w) + K + j;
    m->ftpw[d] = j << 8 | (l + 1 < m->ftL ? b + 1 : b); /* the top level has no links up */
    path[d++] = 2 * (N + ((l - 1) * per + c) * K + dig) + 1;
    w = c;
  }
  const uint64_t tg = (m->rcv[w * K / 64] & ~m->tr[w * K / 64]) >> (w * K % 64) & ((1ull << K) - 1);
  if (!tg) return -1; /* the leaf switch's first free link to a target */
  const int c = w * K + __builtin_ctzll(tg);
  m->ftpw[d] = (c - w * K) << 8 | (b + 1);
  path[d++] = 2 * c + 1;
  *plen = d;
  m->ftok = 1;
  return c;
}

/* Commit ft_child's path: its first and last links (from and to end nodes) by use_link, the
 * links between switches in ftm only (cap and fbits follow in ft_sync, before a search that
 * reads them; a switch's freecap is never read). */
static void ft_use(mt_state *m, const int *path, int plen) {
  use_link(m, path[0]);
  for (int i = 1; i < plen - 1; i++) ft_clr(m, m->fth[i]);
  use_link(m, path[plen - 1]);
  m->ftdirty = 1;
}

/* cap and fbits of the links between switches from ftm (after ft_use). */
static void ft_sync(mt_state *m) {
  if (!m->ftdirty) return;
  for (int l = 0; l < m->t->n_links; l++) {
    if (m->ftl[l] < 0) continue;
    const int k = m->lse[l][2];
    m->cap[l] = (int)(ft_get(m, m->ftl[l] >> 5) >> (m->ftl[l] & 31) & 1);
    m->fbits[k / 64] = (m->fbits[k / 64] & ~(1ull << (k % 64))) | (uint64_t)m->cap[l] << (k % 64);
  }
  m->ftdirty = 0;
}

/* Test hook (mt_plan_verify_search): the guided search found c (or -1) with path/plen; run
 * the breadth-first search too and keep its answer, noting the first disagreement. */
static int verify_guided(mt_state *m, int r, int p, int c, int *path, int *plen) {
  int *p2 = mt_xcalloc((size_t)m->t->n_vert + 1, sizeof(int)), n2 = 0;
  int c2 = find_child_sw(m, r, p, p2, &n2, 0);
  if (c >= 0 && !m->mismatch && (c != c2 || n2 != *plen || memcmp(path, p2, (size_t)n2 * sizeof(int)))) {
    m->mismatch = 1;
    snprintf(m->msg, sizeof m->msg, "tree %d, parent %d: guided search found node %d over %d links, breadth-first search node %d over %d",
             r, p, c, *plen, c2, n2);
  }
  memcpy(path, p2, (size_t)n2 * sizeof(int));
  *plen = n2;
  free(p2);
  return c2;
}

/* Front entries are node ids; a saturated parent is marked until the next step drops it. */
#define MT_SAT (1 << 30)
#define MT_NODE 0xFFFF
#define MT_MSHIFT 16

/* dmask: node c joins tree r; its front entry (node id, its out links leading outside the
 * tree). The bits are not cleared when a neighbour joins later (that was a cache miss per
 * in-neighbour and join): a set bit is checked against the tree when it is used. */
static int tree_added(const mt_state *m, int r, int c) {
  const uint64_t *tr = m->in_tree + (size_t)r * m->W;
  const int *nb = m->dnbr + (size_t)c * 8, deg = m->t->out_start[c + 1] - m->t->out_start[c];
  unsigned mk = 0;
  for (int k = 0; k < deg; k++)
    if (!(tr[nb[k] / 64] >> (nb[k] % 64) & 1)) mk |= 1u << k;
  return c | (int)(mk << MT_MSHIFT);
}

/* Find a child for parent p of tree r. Returns the child, or -1; fills path (links).
 * *saturated: p has every neighbour in the tree (direct networks; never set on switch
 * networks, where reachability depends on the capacity left). */
static int find_child(mt_state *m, int r, int p, int *path, int *plen, int *saturated) {
  const mt_topo *t = m->t;
  *saturated = 0;
  if (m->freecap[p] == 0) return -1;        /* no link left this step; saturation is decided another step */
  if (t->n_sw && m->aidx[p] < 0) return -1; /* its links lead only into dead switches */
  m->ftok = 0;
  if (m->ft) {
    int c = ft_child(m, r, p, path, plen);
    if (c >= 0 && !m->verify) return c;
    const int walked = m->ftok;
    m->ftok = 0;
    ft_sync(m);
    if (m->verify) { /* the walk's path, when it is the search's, is committed as without verify */
      const int c2 = verify_guided(m, r, p, c >= 0 ? c : find_child_guided(m, r, p, path, plen), path, plen);
      m->ftok = walked && c2 == c;
      return c2;
    }
  }
  if (t->n_sw && m->verify) return verify_guided(m, r, p, find_child_guided(m, r, p, path, plen), path, plen);
  if (t->n_sw) return find_child_sw(m, r, p, path, plen, m->has_balls);
  int all_in = 1;
  for (int k = t->out_start[p]; k < t->out_start[p + 1]; k++) {
    int l = t->out_list[k], c = t->links[l].dst;
    if (in_tree(m, r, c)) continue;
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

/* find_child on a direct network with dmask: the loop of find_child over the front entry's
 * out-of-tree bits (front index cur); a bit found stale (its node joined the tree since) is
 * cleared for good. */
static int find_child_dmask(mt_state *m, int r, int cur, int p, int *path, int *plen, int *saturated) {
  const mt_topo *t = m->t;
  *saturated = 0;
  if (m->freecap[p] == 0) return -1; /* no link left this step; saturation is decided another step */
  int *fe = &m->front[(size_t)r * m->N + cur];
  const uint64_t *tr = m->in_tree + (size_t)r * m->W;
  const int *nb = m->dnbr + (size_t)p * 8;
  unsigned om = (unsigned)*fe >> MT_MSHIFT & 0xff;
  for (unsigned c = om & m->fmask[p]; c; c &= c - 1) {
    int k = __builtin_ctz(c);
    if (tr[nb[k] / 64] >> (nb[k] % 64) & 1) {
      om &= ~(1u << k);
      continue;
    }
    *fe = (*fe & ~(0xff << MT_MSHIFT)) | (int)(om << MT_MSHIFT);
    path[0] = t->out_list[t->out_start[p] + k];
    *plen = 1;
    return nb[k];
  }
  for (unsigned c = om & ~(unsigned)m->fmask[p]; c; c &= c - 1) { /* saturated: every neighbour in the tree */
    int k = __builtin_ctz(c);
    if (tr[nb[k] / 64] >> (nb[k] % 64) & 1) om &= ~(1u << k);
  }
  *fe = (*fe & ~(0xff << MT_MSHIFT)) | (int)(om << MT_MSHIFT);
  *saturated = om == 0;
  return -1;
}

/* Tree r's turn skipped spent parents up to front index *ptr: move *ptr to the first
 * front entry at or after it whose node still has capacity (or to the end). Switch
 * networks: a scan of the tree's order (sequential, against the small aidx); else costs
 * the number of such nodes (their positions), not the length of the front. */
static void skip_spent(const mt_state *m, int r, int *ptr) {
  if (m->ident) {
    const uint16_t *o = m->order + (size_t)r * m->N;
    int i = *ptr;
    while (i < m->lim[r] && m->aidx[o[i]] < 0) i++;
    *ptr = i;
    return;
  }
  const int *f = m->front + (size_t)r * m->N, *pos = m->pos + (size_t)r * m->N;
  int from = pos[f[*ptr] & MT_NODE], best = m->lim[r];
  for (int i = 0; i < m->na; i++) {
    int oi = pos[m->alive[i]];
    if (oi >= from && oi < best) best = oi;
  }
  int lo = *ptr, hi = m->fsize[r]; /* first front entry >= best (the front is ascending) */
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (pos[f[mid] & MT_NODE] < best) lo = mid + 1;
    else hi = mid;
  }
  *ptr = lo;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int mt_plan_multitree(mt_sched *s, const mt_topo *t, mt_err *e) {
  const int N = t->n_nodes;
  mt_sched_init(s, t, "multitree", N);
  s->one_hop = 1;
  mt_state m = {0};
  m.t = t;
  m.N = N;
  m.W = (N + 63) / 64;
  size_t NN = (size_t)N * (size_t)N;
  m.in_tree = mt_xcalloc((size_t)N * (size_t)m.W + 1, sizeof(uint64_t));
  m.ident = t->n_sw > 0; /* find_child never reports a saturated parent there */
  _Static_assert(MT_MAX_NODES <= 0xFFFF, "order holds node ids in 16 bits");
  m.order = m.ident ? mt_xcalloc(NN, sizeof *m.order) : NULL;
  m.front = m.ident ? NULL : mt_xcalloc(NN, sizeof(int));
  m.flim = mt_xcalloc((size_t)N, sizeof(int));
  m.newsat = mt_xcalloc((size_t)N, sizeof(int));
  m.nsat = mt_xcalloc((size_t)N, sizeof(int));
  int maxdeg = 0;
  for (int v = 0; v < t->n_vert; v++)
    if (t->out_start[v + 1] - t->out_start[v] > maxdeg) maxdeg = t->out_start[v + 1] - t->out_start[v];
  if (!t->n_sw && maxdeg <= 8) {
    m.dmask = 1;
    m.fmask = mt_xcalloc((size_t)N, 1);
    m.dpos = mt_xcalloc((size_t)t->n_links + 1, sizeof(int));
    m.dnbr = mt_xcalloc((size_t)N * 8, sizeof(int));
    for (int v = 0; v < N; v++)
      for (int k = t->out_start[v]; k < t->out_start[v + 1]; k++) {
        m.dpos[t->out_list[k]] = k - t->out_start[v];
        m.dnbr[(size_t)v * 8 + (size_t)(k - t->out_start[v])] = t->links[t->out_list[k]].dst;
      }
  } else if (!m.ident) { /* skip_spent's front positions */
    m.pos = mt_xcalloc(NN, sizeof(int));
    memset(m.pos, 0xff, NN * sizeof(int));
  }
  m.lim = mt_xcalloc((size_t)N, sizeof(int));
  m.size = mt_xcalloc((size_t)N, sizeof(int));
  m.fsize = mt_xcalloc((size_t)N, sizeof(int));
  m.cap = mt_xcalloc((size_t)t->n_links, sizeof(int));
  m.freecap = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.alive = mt_xcalloc((size_t)N, sizeof(int));
  m.aidx = mt_xcalloc((size_t)N, sizeof(int));
  m.gdead = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.rdead = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  if (t->n_sw) {
    m.ecnt = mt_xcalloc((size_t)t->n_vert, sizeof(int));
    m.elist = mt_xcalloc((size_t)t->n_vert, sizeof(int));
    m.eidx = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  }
  m.bprev = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bq = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bseen = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.fdep = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bq2 = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bseen2 = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.bdep = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.okst = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  m.kst = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  m.lse = (const int(*)[3])t->lse;
  const size_t FW = ((size_t)t->n_links + 63) / 64;
  uint64_t *fbits_full = NULL;
  void *ftm_full = NULL;
  if (t->n_sw) {
    m.fbits = mt_xcalloc(FW + 1, sizeof(uint64_t));
    fbits_full = mt_xcalloc(FW + 1, sizeof(uint64_t));
    for (int k = 0; k < t->n_links; k++) fbits_full[k / 64] |= 1ull << (k % 64);
    m.lpos = mt_xcalloc((size_t)t->n_links, sizeof(int));
    m.nend = mt_xcalloc((size_t)t->n_vert, sizeof(int));
    m.nbase = mt_xcalloc((size_t)t->n_vert, sizeof(int));
    for (int v = 0; v < t->n_vert; v++) {
      const int s0 = t->out_start[v];
      m.nend[v] = s0;
      m.nbase[v] = s0 < t->out_start[v + 1] ? t->links[t->out_list[s0]].dst : -1;
      for (int k = s0; k < t->out_start[v + 1]; k++) {
        int d = t->links[t->out_list[k]].dst;
        m.lpos[t->out_list[k]] = k;
        if (mt_is_switch(t, d)) continue;
        m.nend[v] = k + 1;
        if (d != m.nbase[v] + (k - s0)) m.nbase[v] = -1;
      }
    }
    m.in_start = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
    m.in_list = mt_xcalloc((size_t)t->n_links + 1, sizeof(int));
    for (int l = 0; l < t->n_links; l++) m.in_start[t->links[l].dst + 1]++;
    for (int v = 0; v < t->n_vert; v++) m.in_start[v + 1] += m.in_start[v];
    for (int l = 0, *fill = mt_xcalloc((size_t)t->n_vert, sizeof(int)); l <= t->n_links; l++) {
      if (l == t->n_links) {
        free(fill);
        break;
      }
      int d = t->links[l].dst;
      m.in_list[m.in_start[d] + fill[d]++] = l;
    }
    m.odst = mt_xcalloc((size_t)t->n_links + 1, sizeof(int));
    m.isrc = mt_xcalloc((size_t)t->n_links + 1, sizeof(int));
    for (int k = 0; k < t->n_links; k++) {
      m.odst[k] = t->links[t->out_list[k]].dst;
      m.isrc[k] = t->links[m.in_list[k]].src;
    }
    m.rcv = mt_xcalloc((size_t)m.W + 1, sizeof(uint64_t));
    m.SW = m.W / 64 + 1;
    m.rsum = mt_xcalloc((size_t)m.SW, sizeof(uint64_t));
    m.nfull = mt_xcalloc((size_t)N * (size_t)m.SW, sizeof(uint64_t));
    memset(m.nfull, 0xff, (size_t)N * (size_t)m.SW * sizeof(uint64_t));
    m.has_balls = mt_balls_build(&m.balls, t, 1l << 22) == 0;
    m.verify = mt_plan_verify_search;
    if (m.has_balls) {
      m.bhit = mt_xcalloc((size_t)m.balls.n_ids, sizeof(uint64_t));
      m.gvis = mt_xcalloc((size_t)t->n_vert, sizeof(uint64_t));
      m.gq = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
    }
    m.fincap = mt_xcalloc((size_t)N, sizeof(int));
    ft_init(&m, t, &ftm_full);
  }
  int *ptr = mt_xcalloc((size_t)N, sizeof(int));
  int *path = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  for (int r = 0; r < N; r++) {
    s->root[r] = r;
    m.in_tree[(size_t)r * m.W + (unsigned)r / 64] |= 1ull << (r % 64);
    if (m.ident) m.order[(size_t)r * N] = (uint16_t)r;
    if (m.pos) m.pos[(size_t)r * N + r] = 0;
    m.size[r] = 1;
    if (!m.ident) m.front[(size_t)r * N] = m.dmask ? tree_added(&m, r, r) : r;
    m.fsize[r] = 1;
  }
  const long total = (long)N * (N - 1);
  long remaining = total;
  int tstep = 0, rc = 0;
  const int progress = mt_plan_progress >= 0 ? mt_plan_progress : isatty(2);
  const double t0 = progress ? now_s() : 0;
  const clock_t c0 = clock();
  double next_report = t0 + 2.0;
  int reported = mt_plan_progress == 1;
  long turns = 0;
  /* every step starts from the full capacities: computed once, copied per step */
  int *cap_full = mt_xcalloc((size_t)t->n_links + 1, sizeof(int)), *freecap_full = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  int *fincap_full = NULL;
  uint64_t *rcv_full = NULL, *rsum_full = NULL;
  for (int l = 0; l < t->n_links; l++) {
    cap_full[l] = t->links[l].mult;
    freecap_full[t->links[l].src] += t->links[l].mult;
  }
  if (m.fbits) {
    fincap_full = mt_xcalloc((size_t)N, sizeof(int));
    rcv_full = mt_xcalloc((size_t)m.W + 1, sizeof(uint64_t));
    rsum_full = mt_xcalloc((size_t)m.SW, sizeof(uint64_t));
    for (int l = 0; l < t->n_links; l++) {
      int d = t->links[l].dst;
      if (d < N && mt_is_switch(t, t->links[l].src)) {
        fincap_full[d] += t->links[l].mult;
        rcv_full[d / 64] |= 1ull << (d % 64);
        rsum_full[d / 4096] |= 1ull << (d / 64 % 64);
      }
    }
  }
  while (remaining > 0) {
    m.tstep = ++tstep;
    memcpy(m.cap, cap_full, (size_t)t->n_links * sizeof(int));
    memcpy(m.freecap, freecap_full, (size_t)t->n_vert * sizeof(int));
    if (m.fbits) {
      memcpy(m.fbits, fbits_full, FW * sizeof(uint64_t));
      memcpy(m.fincap, fincap_full, (size_t)N * sizeof(int));
      memcpy(m.rcv, rcv_full, (size_t)m.W * sizeof(uint64_t));
      memcpy(m.rsum, rsum_full, (size_t)m.SW * sizeof(uint64_t));
    }
    if (m.ftm) memcpy(m.ftm, ftm_full, (size_t)t->n_sw * (size_t)m.fte);
    m.ftdirty = 0;
    if (m.fmask)
      for (int v = 0; v < N; v++) {
        unsigned b = 0;
        for (int k = t->out_start[v]; k < t->out_start[v + 1]; k++) b |= (t->links[t->out_list[k]].mult > 0 ? 1u : 0u) << (k - t->out_start[v]);
        m.fmask[v] = (unsigned char)b;
      }
    m.na = 0;
    for (int v = 0; v < N; v++) {
      m.aidx[v] = m.freecap[v] > 0 ? m.na : -1;
      if (m.freecap[v] > 0) m.alive[m.na++] = v;
    }
    if (m.ecnt) {
      memset(m.ecnt, 0, (size_t)t->n_vert * sizeof(int));
      m.nel = 0;
      m.ndirect = 0;
      for (int v = 0; v < t->n_vert; v++) m.eidx[v] = -1;
      for (int v = 0; v < N; v++)
        for (int k = t->out_start[v]; k < t->out_start[v + 1]; k++) {
          int l = t->out_list[k], x = t->links[l].dst;
          if (!mt_is_switch(t, x)) m.ndirect += t->links[l].mult;
          else {
            if (m.ecnt[x] == 0) {
              m.eidx[x] = m.nel;
              m.elist[m.nel++] = x;
            }
            m.ecnt[x] += t->links[l].mult;
          }
        }
    }
    /* drop parents that can never add a node again, keeping the order; with dmask only once
     * they are a quarter of the entries moved (a marked entry is skipped in one read, and
     * compacting at every step read each front entry again: 436 million on torus:64x64) */
    for (int r = 0; r < N; r++) {
      if (m.newsat[r] && (!m.dmask || 4 * m.nsat[r] >= m.fsize[r] - m.newsat[r] + 1)) {
        int *f = m.front + (size_t)r * N, k = m.newsat[r] - 1;
        for (int i = k; i < m.fsize[r]; i++)
          if (!(f[i] & MT_SAT)) {
            f[k++] = f[i];
          }
        m.fsize[r] = k;
        m.newsat[r] = m.nsat[r] = 0;
      }
      m.lim[r] = m.size[r];
      m.flim[r] = m.fsize[r];
      ptr[r] = 0;
    }
    long added = 0;
    int progress_made;
    do {
      progress_made = 0;
      for (int r = 0; r < N && m.na > 0; r++) { /* trees take turns by root id; none can grow
                                                    once every end node is spent */
        if (m.size[r] == N) continue;
        m.turn++;
        int *f = m.ident ? NULL : m.front + (size_t)r * N, spent = 0;
        if (r + 2 < N) { /* the rows of the turn after next, a cache miss each otherwise */
          const char *nf = m.ident ? (const char *)(m.order + (size_t)(r + 2) * N + ptr[r + 2]) : (const char *)(m.front + (size_t)(r + 2) * N + ptr[r + 2]);
          const char *nt = (const char *)(m.in_tree + (size_t)(r + 2) * m.W);
          __builtin_prefetch(nf);
          __builtin_prefetch(nf + 64);
          for (int w = 0; w < m.W * 8; w += 64) __builtin_prefetch(nt + w);
        }
        while (ptr[r] < m.fsize[r]) {                               /* parents in the order they were added */
          if (m.ident ? ptr[r] >= m.lim[r] : ptr[r] >= m.flim[r]) { /* added in this step: not a parent yet */
            ptr[r] = m.fsize[r];
            break;
          }
          if (m.dmask && (f[ptr[r]] & MT_SAT)) { /* saturated in an earlier step, not yet dropped */
            ptr[r]++;
            continue;
          }
          int p = m.ident ? m.order[(size_t)r * N + ptr[r]] : f[ptr[r]] & MT_NODE, plen = 0, satd = 0;
          if (m.aidx[p] < 0) {                    /* spent: a long run of them is jumped over */
            if (++spent > m.na + 8 && !m.dmask) { /* dmask: the front is cheap to walk */
              skip_spent(&m, r, &ptr[r]);
              spent = 0;
            } else
              ptr[r]++;
            continue;
          }
          int c = m.dmask ? find_child_dmask(&m, r, ptr[r], p, path, &plen, &satd) : find_child(&m, r, p, path, &plen, &satd);
          if (c >= 0) {
            if (m.ftok) ft_use(&m, path, plen);
            else
              for (int i = 0; i < plen; i++) use_link(&m, path[i]);
            if (m.ident) m.order[(size_t)r * N + m.size[r]] = (uint16_t)c;
            if (m.pos) m.pos[(size_t)r * N + c] = m.size[r];
            if (m.dmask) {
              f[m.fsize[r]] = tree_added(&m, r, c);
            } else if (!m.ident)
              f[m.fsize[r]] = c;
            m.fsize[r]++;
            m.size[r]++;
            if (!~(m.in_tree[(size_t)r * m.W + (unsigned)c / 64] |= 1ull << (c % 64)) && m.nfull)
              m.nfull[(size_t)r * (size_t)m.SW + (size_t)(c / 4096)] &= ~(1ull << (c / 64 % 64));
            if (m.ftok) mt_sched_add_onehop_pos(s, r, MT_OP_GATHER, p, c, tstep, path, m.ftpw, plen);
            else
              mt_sched_add_onehop(s, r, MT_OP_GATHER, p, c, tstep, path, plen); /* inner vertices: switches */
            added++;
            remaining--;
            progress_made = 1;
            break; /* one node per turn */
          }
          if (satd) { /* dropped from the front at a later step */
            f[ptr[r]] |= MT_SAT;
            m.nsat[r]++;
            if (!m.newsat[r] || ptr[r] + 1 < m.newsat[r]) m.newsat[r] = ptr[r] + 1;
          }
          ptr[r]++;
          if (m.ecnt && m.ndirect == 0) { /* every switch a parent can send into is dead for
                                             this tree: its turns are over for this step */
            int i = 0;
            while (i < m.nel && m.rdead[m.elist[i]] == m.turn) i++;
            if (i == m.nel) ptr[r] = m.fsize[r];
          }
        }
        if (progress && (++turns & 4095) == 0 && now_s() >= next_report) {
          fprintf(stderr, "plan: multitree on %s: step %d, %ld/%ld tree nodes added (%.0f%%), %.0f s\n", t->spec, tstep,
                  total - remaining, total, 100.0 * (double)(total - remaining) / (double)total, now_s() - t0);
          next_report = now_s() + 2.0;
          reported = 1;
        }
      }
    } while (progress_made);
    if (added == 0) {
      rc = mt_fail(e, "multitree on %s: no tree can grow in step %d (disconnected network?)", t->spec, tstep);
      break;
    }
  }
  if (progress && reported && rc == 0)
    fprintf(stderr, "plan: multitree on %s: %d all-gather steps, trees built in %.2f s (%.2f s CPU)\n", t->spec, tstep,
            now_s() - t0, (double)(clock() - c0) / CLOCKS_PER_SEC);
  free(cap_full);
  free(freecap_full);
  free(fincap_full);
  free(rcv_full);
  free(rsum_full);
  free(m.in_tree);
  free(m.order);
  free(m.pos);
  free(m.front);
  free(m.flim);
  free(m.newsat);
  free(m.nsat);
  free(m.fmask);
  free(m.dpos);
  free(m.dnbr);
  free(m.lim);
  free(m.size);
  free(m.fsize);
  free(m.cap);
  free(m.freecap);
  free(m.alive);
  free(m.aidx);
  free(m.gdead);
  free(m.rdead);
  free(m.ecnt);
  free(m.elist);
  free(m.eidx);
  free(m.fbits);
  free(fbits_full);
  free(m.lpos);
  free(m.nend);
  free(m.nbase);
  free(m.bprev);
  free(m.bq);
  free(m.bseen);
  free(m.fdep);
  free(m.bq2);
  free(m.bseen2);
  free(m.bdep);
  free(m.okst);
  free(m.kst);
  free(m.in_start);
  free(m.in_list);
  free(m.odst);
  free(m.isrc);
  free(m.rcv);
  free(m.rsum);
  free(m.nfull);
  free(m.fincap);
  free(m.ftm);
  free(m.ftl);
  free(ftm_full);
  if (rc == 0 && m.mismatch) rc = mt_fail(e, "multitree on %s: %s", t->spec, m.msg);
  mt_balls_free(&m.balls);
  free(m.bhit);
  free(m.gvis);
  free(m.gq);
  free(ptr);
  if (rc) {
    free(path);
    mt_sched_free(s);
    return rc;
  }
  /* reduce-scatter = reversed all-gather, then all-gather after it */
  const int tot = tstep, ng = s->nx;
  for (int i = 0; i < ng; i++) mt_sched_add_reversed(s, i, s->x[i].flow, MT_OP_REDUCE, tot - s->x[i].step + 1);
  for (int i = 0; i < ng; i++) s->x[i].step += tot;
  s->steps = 2 * tot;
  s->reduce_steps = tot;
  free(path);
  return 0;
}
