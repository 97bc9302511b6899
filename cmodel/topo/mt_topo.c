/* SPDX-License-Identifier: Apache-2.0
 * mt_topo: the topology structure and its builders from a grid's sizes (mt_topo_grid), an explicit
 * link list or a topology file; dimension-order and shortest-path routes, diameter. The names
 * (mt_topo_from_name) are read in mt_topo_parse.c. */
#include "topo/mt_topo.h"
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "util/mt_io.h"
#include "util/mt_num.h"

typedef struct {
  mt_edge *l;
  int n, cap;
} linkvec;

static void lv_push(linkvec *v, mt_edge l) {
  if (v->n == v->cap) {
    v->cap = v->cap ? 2 * v->cap : 64;
    v->l = mt_xrealloc(v->l, (size_t)v->cap * sizeof *v->l);
  }
  v->l[v->n++] = l;
}

/* Preference order of a vertex's out links. Grids: highest dimension first (Y before X,
 * Z before Y), and within an axis the - neighbour before the + one (measured: never more
 * steps than + first, and fewer on mesh 4x4 and 3x5; docs/reference/planner.md). Others: links to end nodes before links to
 * switches (a switch first offers its own nodes, Section III-C3), then port order. */
static const mt_topo *g_sort_topo; /* qsort has no context pointer; set only while sorting */
static int pref_cmp(const void *pa, const void *pb) {
  const mt_topo *t = g_sort_topo;
  const mt_edge *a = &t->links[*(const int *)pa], *b = &t->links[*(const int *)pb];
  if (mt_topo_is_grid(t)) {
    if (a->dim != b->dim) return b->dim - a->dim;
    if (a->dir != b->dir) return a->dir - b->dir;
    return a->src_port - b->src_port;
  }
  int as = mt_is_switch(t, a->dst), bs = mt_is_switch(t, b->dst);
  if (as != bs) return as - bs;
  return a->src_port - b->src_port;
}

static int finish_(mt_topo *t, linkvec *v, mt_err *e) {
  t->links = v->l;
  t->n_links = v->n;
  t->n_vert = t->n_nodes + t->n_sw;
  if (t->n_nodes < 2) return mt_fail(e, "%s: %d node(s); an all-reduce needs at least 2", t->spec, t->n_nodes);
  if (t->n_nodes > MT_MAX_NODES)
    return mt_fail(e, "%s: %d nodes exceed %d, the most the 12-bit node-id fields of the head flit and table can carry",
                   t->spec, t->n_nodes, MT_MAX_NODES);
  t->out_start = mt_xcalloc((size_t)t->n_vert + 1, sizeof(int));
  t->out_list = mt_xcalloc((size_t)t->n_links, sizeof(int));
  t->n_ports = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  for (int i = 0; i < t->n_links; i++) {
    t->out_start[t->links[i].src + 1]++;
    if (t->links[i].src_port + 1 > t->n_ports[t->links[i].src]) t->n_ports[t->links[i].src] = t->links[i].src_port + 1;
  }
  if (mt_topo_is_grid(t))
    for (int i = 0; i < t->n_nodes; i++) t->n_ports[i] = 2 * t->ndims;
  t->max_ports = 1;
  for (int i = 0; i < t->n_vert; i++)
    if (t->n_ports[i] > t->max_ports) t->max_ports = t->n_ports[i];
  for (int i = 0; i < t->n_vert; i++) t->out_start[i + 1] += t->out_start[i];
  int *fill = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  for (int i = 0; i < t->n_links; i++) {
    int s = t->links[i].src;
    t->out_list[t->out_start[s] + fill[s]++] = i;
  }
  free(fill);
  g_sort_topo = t;
  for (int v = 0; v < t->n_vert; v++)
    qsort(t->out_list + t->out_start[v], (size_t)(t->out_start[v + 1] - t->out_start[v]), sizeof(int), pref_cmp);
  g_sort_topo = NULL;
  t->lse = mt_xcalloc((size_t)t->n_links + 1, sizeof *t->lse);
  t->out_dst = mt_xcalloc((size_t)t->n_links + 1, sizeof *t->out_dst);
  for (int k = 0; k < t->n_links; k++) t->out_dst[k] = t->links[t->out_list[k]].dst;
  for (int v = 0; v < t->n_vert; v++)
    for (int k = t->out_start[v]; k < t->out_start[v + 1]; k++) {
      const int l = t->out_list[k];
      t->lse[l][0] = t->links[l].src;
      t->lse[l][1] = t->links[l].dst;
      t->lse[l][2] = k;
    }
  t->port_link = mt_xcalloc((size_t)t->n_vert * (size_t)t->max_ports, sizeof(int));
  for (size_t i = 0; i < (size_t)t->n_vert * (size_t)t->max_ports; i++) t->port_link[i] = -1;
  for (int i = 0; i < t->n_links; i++) t->port_link[t->links[i].src * t->max_ports + t->links[i].src_port] = i;
  t->rev_link = mt_xcalloc((size_t)t->n_links + 1, sizeof(int));
  for (int i = 0; i < t->n_links; i++) t->rev_link[i] = t->port_link[t->links[i].dst * t->max_ports + t->links[i].dst_port];
  t->rx_peer = mt_xcalloc((size_t)t->n_vert * (size_t)t->max_ports, sizeof(int));
  for (size_t i = 0; i < (size_t)t->n_vert * (size_t)t->max_ports; i++) t->rx_peer[i] = -1;
  for (int i = 0; i < t->n_links; i++) {
    int *r = &t->rx_peer[t->links[i].dst * t->max_ports + t->links[i].src_port];
    *r = *r == -1 ? t->links[i].src : -2;
  }
  /* connectivity: every node reachable from node 0 */
  int *seen = mt_xcalloc((size_t)t->n_vert, sizeof(int)), *q = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  int h = 0, n = 0, reached = 0;
  q[n++] = 0;
  seen[0] = 1;
  while (h < n) {
    int u = q[h++];
    if (u < t->n_nodes) reached++;
    for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
      int w = t->links[t->out_list[k]].dst;
      if (!seen[w]) {
        seen[w] = 1;
        q[n++] = w;
      }
    }
  }
  int first_missing = -1;
  for (int i = 0; i < t->n_nodes; i++)
    if (!seen[i]) {
      first_missing = i;
      break;
    }
  free(seen);
  free(q);
  if (reached != t->n_nodes)
    return mt_fail(e, "%s: the network is disconnected (node %d cannot be reached from node 0)", t->spec, first_missing);
  return 0;
}

/* On error the topology is released, so callers have nothing to free. */
static int finish(mt_topo *t, linkvec *v, mt_err *e) {
  int rc = finish_(t, v, e);
  if (rc) mt_topo_free(t);
  return rc;
}

void mt_topo_coords(const mt_topo *t, int node, int c[3]) {
  c[0] = c[1] = c[2] = 0;
  for (int d = 0; d < t->ndims; d++) {
    c[d] = node % t->dim[d];
    node /= t->dim[d];
  }
}
int mt_topo_node_at(const mt_topo *t, const int c[3]) {
  int id = 0;
  for (int d = t->ndims - 1; d >= 0; d--) id = id * t->dim[d] + c[d];
  return id;
}

int mt_topo_grid(mt_topo *t, int torus, int ndims, const int *dim, mt_err *e) {
  t->kind = torus ? MT_TOPO_TORUS : MT_TOPO_MESH;
  t->ndims = ndims;
  long n = 1;
  for (int d = 0; d < ndims; d++) {
    if (dim[d] < 1) return mt_fail(e, "%s: dimension %d has size %d; sizes must be >= 1", t->spec, d, dim[d]);
    t->dim[d] = dim[d];
    n *= dim[d];
    if (n > MT_MAX_NODES) return mt_fail(e, "%s: more than %d nodes, the most the 12-bit node-id fields can carry", t->spec, MT_MAX_NODES);
  }
  t->n_nodes = (int)n;
  t->n_sw = 0;
  linkvec v = {0};
  for (int id = 0; id < t->n_nodes; id++) {
    int c[3];
    mt_topo_coords(t, id, c);
    for (int d = 0; d < ndims; d++) {
      int w = dim[d];
      if (w == 1) continue;
      for (int s = 0; s < 2; s++) {
        int dir = s ? -1 : +1;
        if (torus && w == 2 && dir < 0) continue; /* one link between the two: on port +d */
        int nc[3] = {c[0], c[1], c[2]};
        nc[d] += dir;
        int wrap = 0;
        if (nc[d] < 0 || nc[d] >= w) {
          if (!torus) continue;
          nc[d] = (nc[d] + w) % w;
          wrap = 1;
        }
        mt_edge l = {.src = id, .dst = mt_topo_node_at(t, nc), .src_port = 2 * d + (dir < 0), .dst_port = (torus && w == 2) ? 2 * d : 2 * d + (dir > 0), .mult = 1, .dim = d, .dir = dir, .wrap = wrap};
        lv_push(&v, l);
      }
    }
  }
  return finish(t, &v, e);
}

int mt_topo_from_links(mt_topo *t, const char *spec, int n_nodes, int n_sw,
                       int n_links, const int (*links)[3], mt_err *e) {
  return mt_topo_from_links_attr(t, spec, n_nodes, n_sw, n_links, links, NULL, NULL, NULL, e);
}

int mt_topo_from_links_attr(mt_topo *t, const char *spec, int n_nodes, int n_sw, int n_links, const int (*links)[3],
                            const int *dim, const double *bw, const double *lat, mt_err *e) {
  if (t->spec[0] == 0) snprintf(t->spec, sizeof t->spec, "%s", spec);
  if (t->kind != MT_TOPO_FATTREE && t->kind != MT_TOPO_DGX2 && t->kind != MT_TOPO_BIGRAPH && t->kind != MT_TOPO_DIMS && t->kind != MT_TOPO_HIER)
    t->kind = MT_TOPO_FILE;
  t->n_nodes = n_nodes;
  t->n_sw = n_sw;
  int nv = n_nodes + n_sw;
  int *nport = mt_xcalloc((size_t)(nv > 0 ? nv : 1), sizeof(int));
  linkvec v = {0};
  for (int i = 0; i < n_links; i++) {
    int a = links[i][0], b = links[i][1], m = links[i][2];
    if (a < 0 || a >= nv || b < 0 || b >= nv || a == b || m < 1) {
      free(nport);
      free(v.l);
      return mt_fail(e, "%s: link %d (%d-%d x%d) is not valid", spec, i, a, b, m);
    }
    int pa = nport[a]++, pb = nport[b]++;
    int d = dim ? dim[i] : -1;
    double w = bw ? bw[i] : 0, la = lat ? lat[i] : 0;
    mt_edge ab = {.src = a, .dst = b, .src_port = pa, .dst_port = pb, .mult = m, .dim = d, .bw = w, .lat = la};
    mt_edge ba = {.src = b, .dst = a, .src_port = pb, .dst_port = pa, .mult = m, .dim = d, .bw = w, .lat = la};
    lv_push(&v, ab);
    lv_push(&v, ba);
  }
  free(nport);
  return finish(t, &v, e);
}

#define MT_TOPO_LINE_MAX 1022 /* characters, with the newline */

/* Text topology file, one statement per line, '#' starts a comment (docs/reference/formats.md "Topology file"):
 *   nodes N          end nodes 0..N-1 (first statement)
 *   switches S       switches s0..s{S-1} (optional)
 *   link A B [M]     undirected link of multiplicity M (default 1); A, B: node number or sK */
static int parse_vertex(const char *tok, int nn, int ns, int *v) {
  const int sw = tok[0] == 's' || tok[0] == 'S';
  if (sw ? ns < 1 || mt_parse_int(tok + 1, 0, ns - 1, "", NULL, v) : nn < 1 || mt_parse_int(tok, 0, nn - 1, "", NULL, v)) return -1;
  if (sw) *v += nn;
  return 0;
}

int mt_topo_from_file(mt_topo *t, const char *path, mt_err *e) {
  FILE *f = mt_open_text(path, "a topology file (nodes N, then link A B lines)", e);
  if (!f) return -1;
  char *line = NULL;
  size_t line_cap = 0;
  long len;
  int lineno = 0, nn = -1, ns = 0, nl = 0, cap = 0, rc = -1;
  int seen[2] = {0, 0}; /* line of the nodes / switches statement, 0 = not yet */
  int(*ll)[3] = NULL;
  memset(t, 0, sizeof *t);
  snprintf(t->spec, sizeof t->spec, "file:%s", path);
  while ((len = mt_getline(&line, &line_cap, f, MT_TOPO_LINE_MAX)) > 0) {
    lineno++;
    /* a text file: a NUL byte would silently end the line for strtok */
    const char *nul = memchr(line, 0, (size_t)len);
    if (nul) {
      mt_fail(e, "%s:%d: NUL byte at column %d (a topology file is text)", path, lineno, (int)(nul - line) + 1);
      goto out;
    }
    if (len > MT_TOPO_LINE_MAX) {
      mt_fail(e, "%s:%d: line longer than %d characters", path, lineno, MT_TOPO_LINE_MAX);
      goto out;
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[8];
    int nt = 0;
    for (char *p = strtok(line, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
      if (nt == 8) {
        mt_fail(e, "%s:%d: too many fields", path, lineno);
        goto out;
      }
      tok[nt++] = p;
    }
    if (nt == 0) continue;
    if (!strcmp(tok[0], "nodes") || !strcmp(tok[0], "switches")) {
      int isn = tok[0][0] == 'n';
      if (seen[isn]) {
        mt_fail(e, "%s:%d: key '%s' set again (first set on line %d)", path, lineno, tok[0], seen[isn]);
        goto out;
      }
      seen[isn] = lineno;
      if (nt != 2) {
        mt_fail(e, "%s:%d: '%s' takes one number", path, lineno, tok[0]);
        goto out;
      }
      if (nl) {
        mt_fail(e, "%s:%d: '%s' must come before the first link", path, lineno, tok[0]);
        goto out;
      }
      char what[1100];
      snprintf(what, sizeof what, "%s:%d: '%s'", path, lineno, tok[0]);
      if (mt_parse_int(tok[1], 0, isn ? MT_MAX_NODES : 100000, what, e, isn ? &nn : &ns)) goto out;
    } else if (!strcmp(tok[0], "link")) {
      if (nn < 0) {
        mt_fail(e, "%s:%d: 'link' before 'nodes'", path, lineno);
        goto out;
      }
      if (nt != 3 && nt != 4) {
        mt_fail(e, "%s:%d: expected 'link A B [MULT]'", path, lineno);
        goto out;
      }
      int a, b, m = 1;
      if (parse_vertex(tok[1], nn, ns, &a)) {
        mt_fail(e, "%s:%d: link end '%s' is not a node 0..%d or a switch s0..s%d", path, lineno, tok[1], nn - 1, ns - 1);
        goto out;
      }
      if (parse_vertex(tok[2], nn, ns, &b)) {
        mt_fail(e, "%s:%d: link end '%s' is not a node 0..%d or a switch s0..s%d", path, lineno, tok[2], nn - 1, ns - 1);
        goto out;
      }
      if (a == b) {
        mt_fail(e, "%s:%d: link from '%s' to itself", path, lineno, tok[1]);
        goto out;
      }
      if (nt == 4) {
        char what[1100];
        snprintf(what, sizeof what, "%s:%d: multiplicity", path, lineno);
        if (mt_parse_int(tok[3], 1, 1024, what, e, &m)) goto out;
      }
      for (int i = 0; i < nl; i++)
        if ((ll[i][0] == a && ll[i][1] == b) || (ll[i][0] == b && ll[i][1] == a)) {
          mt_fail(e, "%s:%d: link %s-%s given twice (use the multiplicity field for parallel links)", path, lineno, tok[1], tok[2]);
          goto out;
        }
      if (nl == cap) {
        cap = cap ? 2 * cap : 64;
        ll = mt_xrealloc(ll, (size_t)cap * sizeof *ll);
      }
      ll[nl][0] = a;
      ll[nl][1] = b;
      ll[nl][2] = m;
      nl++;
    } else {
      mt_fail(e, "%s:%d: unknown statement '%s' (expected nodes, switches or link)", path, lineno, tok[0]);
      goto out;
    }
  }
  if (ferror(f)) {
    mt_fail(e, "%s: read error: %s", path, strerror(errno));
    goto out;
  }
  if (nn < 0) {
    mt_fail(e, "%s: no 'nodes' statement", path);
    goto out;
  }
  if (nn < 2) {
    mt_fail(e, "%s: %d node(s); an all-reduce needs at least 2", path, nn);
    goto out;
  }
  {
    char spec[300];
    snprintf(spec, sizeof spec, "file:%s", path);
    rc = mt_topo_from_links(t, spec, nn, ns, nl, (const int(*)[3])ll, e);
  }
out:
  free(ll);
  free(line);
  fclose(f);
  return rc;
}

void mt_topo_free(mt_topo *t) {
  free(t->links);
  free(t->out_start);
  free(t->out_list);
  free(t->lse);
  free(t->out_dst);
  free(t->port_link);
  free(t->rev_link);
  free(t->n_ports);
  free(t->rx_peer);
  memset(t, 0, sizeof *t);
}

int mt_topo_find_link(const mt_topo *t, int src, int dst) {
  for (int k = t->out_start[src]; k < t->out_start[src + 1]; k++)
    if (t->links[t->out_list[k]].dst == dst) return t->out_list[k];
  return -1;
}

int mt_topo_in_capacity(const mt_topo *t, int v) {
  int c = 0;
  for (int i = 0; i < t->n_links; i++)
    if (t->links[i].dst == v) c += t->links[i].mult;
  return c;
}

int mt_topo_route(const mt_topo *t, int src, int dst, int *out, int max) {
  int n = 0;
  if (src == dst) return 0;
  if (mt_topo_is_grid(t)) {
    int c[3], g[3];
    mt_topo_coords(t, src, c);
    mt_topo_coords(t, dst, g);
    int v = src;
    for (int d = 0; d < t->ndims; d++) {
      int w = t->dim[d];
      while (c[d] != g[d]) {
        int dir;
        if (t->kind == MT_TOPO_TORUS) {
          int fwd = ((g[d] - c[d]) % w + w) % w;
          dir = (fwd <= w - fwd) ? +1 : -1;
        } else dir = g[d] > c[d] ? +1 : -1;
        int port = 2 * d + (dir < 0);
        if (t->kind == MT_TOPO_TORUS && w == 2) port = 2 * d;
        int l = t->port_link[v * t->max_ports + port];
        if (l < 0 || n >= max) return -1;
        out[n++] = l;
        v = t->links[l].dst;
        mt_topo_coords(t, v, c);
      }
    }
    return n;
  }
  int *prev = mt_xcalloc((size_t)t->n_vert, sizeof(int)), *q = mt_xcalloc((size_t)t->n_vert, sizeof(int));
  for (int i = 0; i < t->n_vert; i++) prev[i] = -2;
  int h = 0, qn = 0;
  q[qn++] = src;
  prev[src] = -1;
  while (h < qn && prev[dst] == -2) {
    int u = q[h++];
    for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
      int l = t->out_list[k], w = t->links[l].dst;
      if (prev[w] == -2) {
        prev[w] = l;
        q[qn++] = w;
      }
    }
  }
  if (prev[dst] == -2) {
    free(prev);
    free(q);
    return -1;
  }
  for (int v = dst; v != src; v = t->links[prev[v]].src) n++;
  if (n > max) {
    free(prev);
    free(q);
    return -1;
  }
  int i = n;
  for (int v = dst; v != src; v = t->links[prev[v]].src) out[--i] = prev[v];
  free(prev);
  free(q);
  return n;
}

int mt_topo_diameter(const mt_topo *t) {
  /* 0-1 BFS: entering a switch costs 0, entering a node costs 1. */
  int nv = t->n_vert, diam = 0;
  /* every push is one edge relaxation, so n_links + 1 slots each way suffice */
  int span = t->n_links + 1;
  int *dist = mt_xcalloc((size_t)nv, sizeof(int)), *dq = mt_xcalloc((size_t)(2 * span + 1), sizeof(int));
  for (int s = 0; s < t->n_nodes; s++) {
    for (int i = 0; i < nv; i++) dist[i] = INT_MAX;
    int head = span, tail = span; /* deque in dq[head..tail) */
    dist[s] = 0;
    dq[tail++] = s;
    while (head < tail) {
      int u = dq[head++];
      for (int k = t->out_start[u]; k < t->out_start[u + 1]; k++) {
        int w = t->links[t->out_list[k]].dst, c = mt_is_switch(t, w) ? 0 : 1;
        if (dist[u] + c < dist[w]) {
          dist[w] = dist[u] + c;
          if (c == 0) dq[--head] = w;
          else dq[tail++] = w;
        }
      }
    }
    for (int i = 0; i < t->n_nodes; i++)
      if (dist[i] > diam) diam = dist[i];
  }
  free(dist);
  free(dq);
  return diam;
}
