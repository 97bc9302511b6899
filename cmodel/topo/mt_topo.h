/* SPDX-License-Identifier: Apache-2.0
 * mt_topo: the network as a directed multigraph of end nodes and switches.
 * Vertices 0..n_nodes-1 are end nodes (accelerators; node id = y*X + x for grids),
 * n_nodes..n_vert-1 are switches. Every physical link is stored as two directed
 * links; `mult` parallel links stand for bandwidth (Section VII-B).
 * Router ports of grid nodes: port 2*d is the +d direction, 2*d+1 the -d direction
 * (d = 0 X, 1 Y, 2 Z); see docs/reference/interfaces.md. */
#ifndef MT_TOPO_H
#define MT_TOPO_H
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

enum { MT_TOPO_TORUS,
       MT_TOPO_MESH,
       MT_TOPO_FATTREE,
       MT_TOPO_DGX2,
       MT_TOPO_BIGRAPH,
       MT_TOPO_FILE,
       MT_TOPO_DIMS,       /* multi-dimensional (dims:, dimsfile:, themis:; topo/mt_mdtopo.h) */
       MT_TOPO_HIER };     /* hierarchy of switches (hier:; topo/mt_hier.h) */
#define MT_MAX_NODES 4096  /* 12-bit node ids in the head flit (docs/reference/interfaces.md) */
#define MT_MAX_LAT_NS 1e12 /* a link latency in a hier: or dims: spec or dimensions file, ns: 1000 s */

typedef struct {
  int src, dst; /* vertices */
  int src_port; /* port index at src (out port) */
  int dst_port; /* port index at dst (in port: same index as dst's out port back) */
  int mult;     /* parallel links: messages per step */
  int dim, dir; /* grids: dimension and +1/-1; -1/0 otherwise */
  int wrap;     /* grids: crosses the torus wrap-around (dateline) */
  double bw;    /* GB/s per parallel link, one direction; 0: not given (the cycle model's unit link) */
  double lat;   /* ns; 0: not given */
} mt_edge;

/* A multi-dimensional topology (ASTRA-sim's analytical network input, Themis Table 2):
 * dimension d (0 = dim 1, the fastest-varying digit of the NPU id) is a ring, a fully-
 * connected group or a switch of `size` NPUs, `links` links per NPU of `bw` GB/s and
 * `lat` ns each. docs/reference/topologies.md. */
enum { MT_DIM_RING,
       MT_DIM_FC,
       MT_DIM_SW };
#define MT_MD_MAX_DIMS 8
typedef struct {
  int kind, size, links;
  double bw, lat;
} mt_dimspec;
typedef struct {
  int D; /* 0: not a multi-dimensional topology */
  mt_dimspec d[MT_MD_MAX_DIMS];
} mt_dims;

typedef struct {
  int kind;
  char spec[256];    /* the name it was built from, e.g. "torus:8x8" */
  int ndims, dim[3]; /* grids (ring:N is a 1-D torus) */
  int n_nodes, n_sw, n_vert;
  int n_links;
  mt_edge *links;
  int *out_start, *out_list; /* per vertex: out links in preference order (CSR) */
  int (*lse)[3];             /* [link]: its src, dst and index in out_list (one cache line a link,
                                for the planners' hot loops) */
  int *out_dst;              /* [k]: the far end of out_list[k] (decoding a path's positions) */
  int *port_link;            /* [v * max_ports + port] -> link id or -1 */
  int *rev_link;             /* [link]: the same physical link in the other direction */
  int max_ports;             /* ports per vertex (grids: 2*ndims) */
  int *rx_peer;              /* [v * max_ports + p]: the vertex that sends to v through ITS port p;
                           -1 none, -2 several (the compact layout needs it unique) */
  int *n_ports;              /* ports per vertex */
  mt_dims md;                /* MT_TOPO_DIMS: its dimensions (md.D = 0 otherwise) */
} mt_topo;

/* Build from a name: torus:8x8, mesh:4x4, torus:4x4x4, ring:8, fattree:8,2, dgx2,
 * bigraph:4x8 (M nodes per switch x N switches), file:PATH, hier:SPEC (topo/mt_hier.h) and
 * the multi-dimensional dims:SPEC, dimsfile:PATH, themis:PRESET (topo/mt_mdtopo.h).
 * Defined in mt_topo_parse.c, the one file that calls the other topology builders. */
int mt_topo_from_name(mt_topo *t, const char *name, mt_err *e);
/* A torus (torus = 1) or mesh of ndims dimensions of dim[d] nodes each into t (whose spec
 * names it in messages). */
int mt_topo_grid(mt_topo *t, int torus, int ndims, const int *dim, mt_err *e);
int mt_topo_from_file(mt_topo *t, const char *path, mt_err *e);
/* Build from an explicit undirected link list (used by the file parser and JSON reader):
 * links[i] = {a, b, mult}, vertices as above. */
int mt_topo_from_links(mt_topo *t, const char *spec, int n_nodes, int n_sw,
                       int n_links, const int (*links)[3], mt_err *e);
/* The same with per-link attributes (each may be NULL): dimension index (else -1),
 * bandwidth in GB/s and latency in ns (else 0). */
int mt_topo_from_links_attr(mt_topo *t, const char *spec, int n_nodes, int n_sw, int n_links, const int (*links)[3],
                            const int *dim, const double *bw, const double *lat, mt_err *e);
void mt_topo_free(mt_topo *t);

static inline int mt_topo_is_grid(const mt_topo *t) {
  return t->kind == MT_TOPO_TORUS || t->kind == MT_TOPO_MESH;
}
static inline int mt_is_switch(const mt_topo *t, int v) { return v >= t->n_nodes; }
/* The most ports of any end node (at least 1): what a schedule table's port fields name
 * (on grids max_ports; behind switches an NI's own links, not the switch radix). */
static inline int mt_topo_node_ports(const mt_topo *t) {
  int P = 1;
  for (int v = 0; v < t->n_nodes; v++)
    if (t->n_ports[v] > P) P = t->n_ports[v];
  return P;
}
/* Direct link src->dst (first in preference order), or -1. */
int mt_topo_find_link(const mt_topo *t, int src, int dst);
/* Deterministic route src->dst as a list of link ids (returns hop count, -1 if none):
 * grids: dimension order X, Y, Z, shorter way round the torus, ties to +;
 * otherwise breadth-first shortest path in preference order. */
int mt_topo_route(const mt_topo *t, int src, int dst, int *links_out, int max_links);
/* Grid coordinate helpers. */
void mt_topo_coords(const mt_topo *t, int node, int c[3]);
int mt_topo_node_at(const mt_topo *t, const int c[3]);
/* The vertex that sends to v through its own output port p (-1 none, -2 ambiguous). */
static inline int mt_topo_rx_peer(const mt_topo *t, int v, int p) {
  return p >= 0 && p < t->max_ports ? t->rx_peer[v * t->max_ports + p] : -1;
}
/* Sum of link multiplicities into node v (its in-degree in messages per step). */
int mt_topo_in_capacity(const mt_topo *t, int v);
/* Node-to-node diameter, counting a path through switches only as one step. */
int mt_topo_diameter(const mt_topo *t);

#ifdef __cplusplus
}
#endif
#endif
