/* SPDX-License-Identifier: Apache-2.0
 * mt_hier: hier:SPEC topologies and the tree view of tree-shaped switch networks. */
#include "topo/mt_hier.h"
#include <stdlib.h>
#include <string.h>
#include "topo/mt_mdtopo.h"
#include "util/mt_num.h"

#define HIER_FORM \
  "LEVEL[,LEVEL...], LEVEL = [N+N+...][@GBPS[:LATns]] bottom-up: level 0 the learners per bottom switch, " \
  "level k the level-(k-1) switches per switch (empty: all), the last level one switch, '@' on every level or none; " \
  "e.g. hier:4+3@16:500,@1.25:5000"

typedef struct {
  int ng, g[MT_MAX_NODES];
  double bw, lat;
} hlevel;

/* An error at character `at` of the spec (1-based, counted after "hier:"). */
static int hfail(mt_err *e, const char *name, const char *spec, const char *at, const char *what) {
  int pos = (int)(at - spec) + 1;
  if (*at) return mt_fail(e, "topology '%s': at character %d ('%c'): %s (" HIER_FORM ")", name, pos, *at, what);
  return mt_fail(e, "topology '%s': at the end: %s (" HIER_FORM ")", name, what);
}

int mt_topo_from_hier_name(mt_topo *t, const char *name, mt_err *e) {
  memset(t, 0, sizeof *t);
  if (strlen(name) >= sizeof t->spec) return mt_fail(e, "topology '%.60s...': longer than %zu characters", name, sizeof t->spec - 1);
  snprintf(t->spec, sizeof t->spec, "%s", name);
  const char *spec = name + 5, *p = spec;
  hlevel *lv = mt_xcalloc(MT_HIER_MAX_LEVELS, sizeof *lv);
  int L = 0, rc = -1, below = 0; /* below: vertices of the level underneath (learners, then switches) */
  for (;;) {
    if (L == MT_HIER_MAX_LEVELS) {
      hfail(e, name, spec, p, "more than 8 levels");
      goto out;
    }
    hlevel *l = &lv[L];
    int sum = 0;
    while (*p && *p != '@' && *p != ',') {
      if (l->ng && *p++ != '+') {
        hfail(e, name, spec, p - 1, "expected '+', '@' or ',' after a group size");
        goto out;
      }
      if (mt_scan_int(&p, &l->g[l->ng], MT_MAX_NODES) || l->g[l->ng] < 1) {
        hfail(e, name, spec, p, L ? "expected a switch count 1..4096" : "expected a learner count 1..4096");
        goto out;
      }
      sum += l->g[l->ng++];
      if (sum > MT_MAX_NODES || l->ng == MT_MAX_NODES) {
        hfail(e, name, spec, p, "more than 4096 learners or groups");
        goto out;
      }
    }
    if (!l->ng && *p != '@') {
      char what[160];
      snprintf(what, sizeof what, "level %d is empty (a ',' with nothing after it): allowed group sizes, '@GBPS' or both", L);
      hfail(e, name, spec, p, what);
      goto out;
    }
    if (!l->ng) {
      if (!L) {
        hfail(e, name, spec, p, "level 0 needs the learner count of each bottom switch");
        goto out;
      }
      l->g[l->ng++] = sum = below;
    }
    if (L && sum != below) {
      char what[160];
      snprintf(what, sizeof what, "level %d groups %d switches but level %d has %d", L, sum, L - 1, below);
      hfail(e, name, spec, p, what);
      goto out;
    }
    if (*p == '@') {
      p++;
      if (mt_scan_real(&p, &l->bw) || l->bw <= 0) {
        hfail(e, name, spec, p, "expected a bandwidth in GB/s > 0 after '@'");
        goto out;
      }
      if (*p == ':') {
        p++;
        if (mt_scan_real(&p, &l->lat) || l->lat > MT_MAX_LAT_NS) {
          hfail(e, name, spec, p, "expected a latency in ns 0..1e+12 after ':'");
          goto out;
        }
        if (!strncmp(p, "ns", 2)) p += 2;
      }
    }
    below = l->ng;
    L++;
    if (!*p) break;
    if (*p != ',') {
      hfail(e, name, spec, p, "expected ',' or the end after a level");
      goto out;
    }
    p++;
  }
  /* a bandwidth on every level (the run in ns) or on none (in cycles): a level without one
   * would turn the whole run into cycles and ignore every GB/s and ns given */
  for (int k = 0; k < L; k++)
    if ((lv[k].bw > 0) != (lv[0].bw > 0)) {
      const int r = lv[k].bw > 0 ? k : 0, u = lv[k].bw > 0 ? 0 : k;
      char what[200];
      snprintf(what, sizeof what, "level %d has '@%g' but level %d has no bandwidth: allowed '@GBPS[:LATns]' on every level (time in ns) or on none (cycles)",
               r, lv[r].bw, u);
      hfail(e, name, spec, p, what);
      goto out;
    }
  if (lv[L - 1].ng != 1) {
    char what[200];
    snprintf(what, sizeof what, "the last level must be one switch (add a level such as ',%d%s' holding the %d switches)", lv[L - 1].ng,
             lv[0].bw > 0 ? "@1.25:5000" : "", lv[L - 1].ng);
    hfail(e, name, spec, p, what);
    goto out;
  }
  int N = 0, ns = 0;
  for (int i = 0; i < lv[0].ng; i++) N += lv[0].g[i];
  for (int k = 0; k < L; k++) ns += lv[k].ng;
  if (N < 2) {
    hfail(e, name, spec, p, "an all-reduce needs at least 2 learners");
    goto out;
  }
  if (N + ns > 2 * MT_MAX_NODES) {
    hfail(e, name, spec, p, "too many vertices");
    goto out;
  }
  int nl = N + ns - 1, k0 = 0, v0 = N; /* k0: first vertex of the level below, v0: of this level */
  int(*ll)[3] = mt_xcalloc((size_t)nl, sizeof *ll);
  double *bw = mt_xcalloc((size_t)nl, sizeof *bw), *lat = mt_xcalloc((size_t)nl, sizeof *lat);
  int m = 0;
  for (int k = 0; k < L; k++) {
    int c = k0;
    for (int j = 0; j < lv[k].ng; j++)
      for (int i = 0; i < lv[k].g[j]; i++, m++) {
        ll[m][0] = c++;
        ll[m][1] = v0 + j;
        ll[m][2] = 1;
        bw[m] = lv[k].bw;
        lat[m] = lv[k].lat;
      }
    k0 = v0;
    v0 += lv[k].ng;
  }
  t->kind = MT_TOPO_HIER;
  rc = mt_topo_from_links_attr(t, name, N, ns, nl, (const int(*)[3])ll, NULL, bw, lat, e);
  free(ll);
  free(bw);
  free(lat);
out:
  free(lv);
  return rc;
}

/* ---------------- the tree view ---------------- */

void mt_htree_free(mt_htree *h) {
  free(h->parent);
  free(h->depth);
  free(h->level);
  free(h->cstart);
  free(h->clist);
  free(h->up_bw);
  free(h->up_lat);
  free(h->lstart);
  free(h->llist);
  memset(h, 0, sizeof *h);
}

/* Breadth-first from r over the undirected graph; order[] the visit order; returns the
 * count visited or -1 on a cycle. */
static int bfs_tree(const mt_topo *t, int r, int *par, int *dep, int *order) {
  const int V = t->n_vert;
  for (int v = 0; v < V; v++) par[v] = -2;
  par[r] = -1;
  dep[r] = 0;
  int qh = 0, qt = 0;
  order[qt++] = r;
  while (qh < qt) {
    int v = order[qh++];
    for (int i = t->out_start[v]; i < t->out_start[v + 1]; i++) {
      int w = t->links[t->out_list[i]].dst;
      if (w == par[v]) continue;
      if (par[w] != -2) return -1;
      par[w] = v;
      dep[w] = dep[v] + 1;
      order[qt++] = w;
    }
  }
  return qt;
}

int mt_htree_of(const mt_topo *t, mt_htree *h, mt_err *e) {
  memset(h, 0, sizeof *h);
  const int N = t->n_nodes, V = t->n_vert;
  if (t->n_sw < 1) return mt_fail(e, "topology '%s' has no switches: FlexReduce and BlueConnect need a tree of switches with the learners at its leaves (e.g. hier:4+3,2)", t->spec);
  /* every node: links to exactly one neighbour, a switch (parallel links count once) */
  for (int v = 0; v < N; v++) {
    int nb = -1;
    for (int i = t->out_start[v]; i < t->out_start[v + 1]; i++) {
      int w = t->links[t->out_list[i]].dst;
      if (nb >= 0 && w != nb) return mt_fail(e, "topology '%s': node %d links to %d and %d; a hierarchy's learner hangs off one switch", t->spec, v, nb, w);
      nb = w;
    }
    if (nb < 0 || !mt_is_switch(t, nb)) return mt_fail(e, "topology '%s': node %d is not linked to a switch; a hierarchy's learner hangs off one switch", t->spec, v);
  }
  for (int v = 0; v < V; v++)
    for (int i = t->out_start[v]; i < t->out_start[v + 1]; i++)
      for (int j = i + 1; j < t->out_start[v + 1]; j++)
        if (t->links[t->out_list[i]].dst == t->links[t->out_list[j]].dst)
          return mt_fail(e, "topology '%s': two links %d-%d; a hierarchy has one (with a multiplicity) between a vertex and its parent", t->spec, v, t->links[t->out_list[i]].dst);
  int *par = mt_xcalloc((size_t)V, sizeof(int)), *dep = mt_xcalloc((size_t)V, sizeof(int)), *ord = mt_xcalloc((size_t)V, sizeof(int));
  int root = -1;
  if (t->kind == MT_TOPO_HIER) root = V - 1;
  else {
    int best = V + 1;
    for (int r = N; r < V; r++) {
      int n = bfs_tree(t, r, par, dep, ord);
      if (n < 0) break;
      int ht = dep[ord[n - 1]];
      if (n == V && ht < best) best = ht, root = r;
    }
  }
  int n = root >= 0 ? bfs_tree(t, root, par, dep, ord) : -1;
  if (n != V) {
    free(par);
    free(dep);
    free(ord);
    return mt_fail(e, "topology '%s': the switches do not form a tree (%s); FlexReduce and BlueConnect need one", t->spec, n < 0 ? "a cycle" : "not connected");
  }
  h->n_leaves = N;
  h->n_vert = V;
  h->root = root;
  h->parent = par;
  h->depth = dep;
  h->level = mt_xcalloc((size_t)V, sizeof(int));
  h->up_bw = mt_xcalloc((size_t)V, sizeof(double));
  h->up_lat = mt_xcalloc((size_t)V, sizeof(double));
  /* leaves under every vertex: each leaf counted at all its ancestors; a switch with no
   * learner below takes no part (no level, not a child) */
  int *fill = mt_xcalloc((size_t)V, sizeof(int));
  h->lstart = mt_xcalloc((size_t)V + 1, sizeof(int));
  for (int v = 0; v < N; v++)
    for (int a = v; a >= 0; a = par[a]) h->lstart[a + 1]++;
  for (int v = 0; v < V; v++) h->lstart[v + 1] += h->lstart[v];
  h->llist = mt_xcalloc((size_t)h->lstart[V], sizeof(int));
  for (int v = 0; v < N; v++)
    for (int a = v; a >= 0; a = par[a]) h->llist[h->lstart[a] + fill[a]++] = v;
#define ALIVE(v) ((v) < N || h->lstart[(v) + 1] > h->lstart[v])
  int maxd = 0;
  for (int v = N; v < V; v++)
    if (ALIVE(v) && dep[v] > maxd) maxd = dep[v];
  h->L = maxd + 1;
  if (h->L > 4 * MT_HIER_MAX_LEVELS) {
    int L = h->L;
    mt_htree_free(h);
    free(ord);
    free(fill);
    return mt_fail(e, "topology '%s': %d levels of switches below the root; at most %d", t->spec, L, 4 * MT_HIER_MAX_LEVELS);
  }
  for (int v = 0; v < V; v++) h->level[v] = v < N || !ALIVE(v) ? -1 : h->L - 1 - dep[v];
  for (int v = 0; v < V; v++)
    if (par[v] >= 0) {
      int l = mt_topo_find_link(t, v, par[v]);
      h->up_bw[v] = t->links[l].bw * t->links[l].mult;
      h->up_lat[v] = t->links[l].lat;
    }
  /* children in id order (CSR) */
  h->cstart = mt_xcalloc((size_t)V + 1, sizeof(int));
  h->clist = mt_xcalloc((size_t)V, sizeof(int));
  for (int v = 0; v < V; v++)
    if (par[v] >= 0 && ALIVE(v)) h->cstart[par[v] + 1]++;
  for (int v = 0; v < V; v++) h->cstart[v + 1] += h->cstart[v];
  memset(fill, 0, (size_t)V * sizeof(int));
  for (int v = 0; v < V; v++)
    if (par[v] >= 0 && ALIVE(v)) h->clist[h->cstart[par[v]] + fill[par[v]]++] = v;
#undef ALIVE
  free(fill);
  free(ord);
  return 0;
}

int mt_htree_anc(const mt_htree *h, int v, int l) {
  for (int a = v >= h->n_leaves ? v : h->parent[v]; a >= 0; a = h->parent[a])
    if (h->level[a] == l) return a;
  return -1;
}

int mt_htree_symmetric(const mt_htree *h, char *why, size_t n) {
  int deg[MT_HIER_MAX_LEVELS * 4] = {0};
  for (int v = 0; v < h->n_leaves; v++)
    if (h->depth[v] != h->L) {
      snprintf(why, n, "learner %d is %d levels below the root, not %d", v, h->depth[v], h->L);
      return 0;
    }
  for (int v = h->n_leaves; v < h->n_vert; v++) {
    int l = h->level[v], d = mt_htree_deg(h, v);
    if (l < 0) continue; /* no learner below */
    if (l >= (int)(sizeof deg / sizeof deg[0])) {
      snprintf(why, n, "more than %d levels", (int)(sizeof deg / sizeof deg[0]));
      return 0;
    }
    if (!deg[l]) deg[l] = d;
    else if (deg[l] != d) {
      snprintf(why, n, "switches of level %d hold %d and %d children", l, deg[l], d);
      return 0;
    }
  }
  return 1;
}
