/* SPDX-License-Identifier: Apache-2.0
 * mt_balls: end nodes within b hops of each switch, as hash-consed id ranges (mt_balls.h).
 * ball(x, 1) = x's own end nodes; ball(x, b) = ball(x, 1) and ball(y, b - 1) of every
 * switch y next to x; radii grow until no ball changes. */
#include "topo/mt_balls.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  mt_balls *bl;
  int ncap, rcap;  /* allocated ids (off) and ranges (rng) */
  int *slot, mask; /* open hash table of ids, -1 empty */
} interner;

static uint64_t hash_ranges(const int (*r)[2], int n) {
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) h = (h ^ (uint64_t)(uint32_t)r[i][0] ^ (uint64_t)(uint32_t)r[i][1] << 32) * 1099511628211ull;
  return h ^ h >> 29;
}

static int same_ranges(const mt_balls *bl, int id, const int (*r)[2], int n) {
  return bl->off[id + 1] - bl->off[id] == n && (n == 0 || !memcmp(bl->rng + bl->off[id], r, (size_t)n * sizeof *r));
}

static void rehash(interner *in) {
  mt_balls *bl = in->bl;
  in->mask = in->mask ? 2 * in->mask + 1 : 1023;
  free(in->slot);
  in->slot = mt_xcalloc((size_t)in->mask + 1, sizeof(int));
  memset(in->slot, 0xff, ((size_t)in->mask + 1) * sizeof(int));
  for (int id = 0; id < bl->n_ids; id++) {
    uint64_t h = hash_ranges(bl->rng + bl->off[id], bl->off[id + 1] - bl->off[id]);
    int s = (int)(h & (uint64_t)in->mask);
    while (in->slot[s] >= 0) s = (s + 1) & in->mask;
    in->slot[s] = id;
  }
}

/* The id of the ball with ranges r[0..n), added if new. */
static int intern(interner *in, const int (*r)[2], int n) {
  mt_balls *bl = in->bl;
  int s = (int)(hash_ranges(r, n) & (uint64_t)in->mask);
  for (; in->slot[s] >= 0; s = (s + 1) & in->mask)
    if (same_ranges(bl, in->slot[s], r, n)) return in->slot[s];
  if (bl->n_ids + 2 > in->ncap) {
    in->ncap *= 2;
    bl->off = mt_xrealloc(bl->off, (size_t)in->ncap * sizeof *bl->off);
  }
  int at = bl->off[bl->n_ids];
  if (at + n > in->rcap) {
    while (at + n > in->rcap) in->rcap *= 2;
    bl->rng = mt_xrealloc(bl->rng, (size_t)in->rcap * sizeof *bl->rng);
  }
  if (n) memcpy(bl->rng + at, r, (size_t)n * sizeof *r);
  int id = bl->n_ids++;
  bl->off[id + 1] = at + n;
  in->slot[s] = id;
  if (2 * bl->n_ids > in->mask) rehash(in);
  return id;
}

static int range_cmp(const void *a, const void *b) {
  const int *x = a, *y = b;
  return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Sort and merge overlapping or touching ranges in place; returns the new count. */
static int normalize(int (*r)[2], int n) {
  if (n < 2) return n;
  qsort(r, (size_t)n, sizeof *r, range_cmp);
  int k = 0;
  for (int i = 1; i < n; i++) {
    if (r[i][0] <= r[k][1]) {
      if (r[i][1] > r[k][1]) r[k][1] = r[i][1];
    } else {
      k++;
      r[k][0] = r[i][0];
      r[k][1] = r[i][1];
    }
  }
  return k + 1;
}

void mt_balls_free(mt_balls *bl) {
  free(bl->id);
  free(bl->id16);
  free(bl->off);
  free(bl->rng);
  memset(bl, 0, sizeof *bl);
}

int mt_balls_build(mt_balls *bl, const mt_topo *t, long max_ranges) {
  memset(bl, 0, sizeof *bl);
  if (t->n_sw == 0) return -1;
  const int N = t->n_nodes, S = t->n_sw;
  bl->n_nodes = N;
  bl->n_sw = S;
  interner in = {.bl = bl, .ncap = 1024, .rcap = 1024};
  bl->off = mt_xcalloc((size_t)in.ncap, sizeof *bl->off);
  bl->rng = mt_xcalloc((size_t)in.rcap, sizeof *bl->rng);
  rehash(&in);
  intern(&in, NULL, 0); /* id 0: empty */
  int(*tmp)[2] = NULL;
  int tcap = 0;
  int *ids = mt_xcalloc((size_t)S, sizeof(int)); /* radius 0: empty */
  int *own = mt_xcalloc((size_t)S, sizeof(int)); /* ball(x, 1) */
  int nb = 1, rc = 0;
  for (int b = 1; rc == 0; b++) {
    ids = mt_xrealloc(ids, (size_t)S * (size_t)(b + 1) * sizeof(int));
    const int *prev = ids + (size_t)S * (size_t)(b - 1);
    int *cur = ids + (size_t)S * (size_t)b, changed = 0;
    for (int x = 0; x < S && rc == 0; x++) {
      const int v = N + x;
      int n = 0;
      for (int k = t->out_start[v]; k < t->out_start[v + 1]; k++) { /* room for every piece */
        int w = t->links[t->out_list[k]].dst, id = w < N ? 0 : b == 1 ? 0
                                                                      : prev[w - N];
        n += w < N ? 1 : bl->off[id + 1] - bl->off[id];
      }
      if (b > 1) n += bl->off[own[x] + 1] - bl->off[own[x]];
      if (n > tcap) {
        tcap = n > 2 * tcap ? n : 2 * tcap;
        tmp = mt_xrealloc(tmp, (size_t)tcap * sizeof *tmp);
      }
      n = 0;
      for (int k = t->out_start[v]; k < t->out_start[v + 1]; k++) {
        int w = t->links[t->out_list[k]].dst;
        if (w < N) {
          if (b > 1) continue; /* in own */
          tmp[n][0] = w;
          tmp[n++][1] = w + 1;
        } else if (b > 1)
          for (int j = bl->off[prev[w - N]]; j < bl->off[prev[w - N] + 1]; j++) {
            tmp[n][0] = bl->rng[j][0];
            tmp[n++][1] = bl->rng[j][1];
          }
      }
      if (b > 1)
        for (int j = bl->off[own[x]]; j < bl->off[own[x] + 1]; j++) {
          tmp[n][0] = bl->rng[j][0];
          tmp[n++][1] = bl->rng[j][1];
        }
      n = normalize(tmp, n);
      if ((long)bl->off[bl->n_ids] + n > max_ranges) rc = -1;
      else cur[x] = intern(&in, (const int(*)[2])tmp, n);
      if (b == 1) own[x] = cur[x];
      if (cur[x] != prev[x]) changed = 1;
    }
    if (rc == 0 && !changed) break; /* radius b equals b - 1, and so do all larger ones */
    nb = b + 1;
  }
  free(tmp);
  free(own);
  free(in.slot);
  if (rc) {
    free(ids);
    mt_balls_free(bl);
    return -1;
  }
  /* ids is [radius][switch]; store it [switch][radius] (a search reads one switch's radii) */
  bl->nb = nb;
  if (bl->n_ids <= 0x10000) bl->id16 = mt_xcalloc((size_t)S * (size_t)nb, sizeof *bl->id16);
  else bl->id = mt_xcalloc((size_t)S * (size_t)nb, sizeof *bl->id);
  for (int b = 0; b < nb; b++)
    for (int x = 0; x < S; x++) {
      const size_t i = (size_t)x * (size_t)nb + (size_t)b;
      const int id = ids[(size_t)S * (size_t)b + (size_t)x];
      if (bl->id16) bl->id16[i] = (uint16_t)id;
      else bl->id[i] = id;
    }
  free(ids);
  return 0;
}
