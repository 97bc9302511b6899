/* SPDX-License-Identifier: Apache-2.0
 * mt_mdtopo: multi-dimensional topologies (Themis Section 2-3, Table 2; the form of
 * ASTRA-sim's analytical network input). D dimensions, each a ring, a fully-connected
 * group (FC) or a switch, with its size, links per NPU, GB/s per link and ns latency.
 * NPU ids are mixed radix, dimension 1 (index 0) fastest. Inputs (docs/reference/topologies.md):
 *   dims:ring4@125x2:20ns,sw8@25x4:700ns   a spec string
 *   dimsfile:PATH                          JSON (ASTRA-sim keys, read with jansson) or the
 *                                          `key: [list]` YAML subset
 *   themis:3d-sw-sw-sw-hetero              the six Table 2 systems
 * The graph (mt_topo): a ring dimension links each NPU to its two neighbours, FC links all
 * pairs of a group, a switch dimension has one switch per group; every link carries its
 * dimension (mt_edge.dim), bandwidth and latency. */
#ifndef MT_MDTOPO_H
#define MT_MDTOPO_H
#include "topo/mt_topo.h"
#ifdef __cplusplus
extern "C" {
#endif

/* "ring", "fc", "sw" */
const char *mt_dim_kind_name(int kind);
/* Parse the part after "dims:". */
int mt_dims_parse_spec(mt_dims *md, const char *spec, mt_err *e);
/* Read an ASTRA-sim style file: JSON when its first non-blank character is '{', else YAML subset. */
int mt_dims_read_file(mt_dims *md, const char *path, mt_err *e);
/* A Themis Table 2 preset by name (without "themis:"). */
int mt_dims_preset(mt_dims *md, const char *name, mt_err *e);
/* The presets: [i] for i < mt_themis_n_presets. */
typedef struct {
  const char *name;  /* e.g. "3d-sw-sw-sw-hetero" */
  const char *paper; /* Table 2's name, e.g. "3D-SW_SW_SW_hetero" */
  mt_dims md;
} mt_themis_preset;
extern const mt_themis_preset mt_themis_presets[];
extern const int mt_themis_n_presets;

/* Check md (sizes, links per kind, node count); `where` prefixes the errors. */
int mt_dims_validate(const mt_dims *md, const char *where, mt_err *e);
/* Build the graph; spec is the name it is known by (kept in t->spec). */
int mt_topo_from_dims(mt_topo *t, const char *spec, const mt_dims *md, mt_err *e);
/* dims:..., dimsfile:..., themis:... */
int mt_topo_from_dims_name(mt_topo *t, const char *name, mt_err *e);

/* NPUs: the product of the sizes. */
int mt_dims_nodes(const mt_dims *md);
/* Stride of dimension d in the NPU id (product of the sizes below d). */
int mt_dims_stride(const mt_dims *md, int d);
/* Coordinate of NPU n in dimension d. */
static inline int mt_dims_coord(const mt_dims *md, int n, int d) { return (n / mt_dims_stride(md, d)) % md->d[d].size; }
/* The switch vertex of NPU n's group in switch dimension d (-1 when d is not a switch). */
int mt_dims_switch_of(const mt_dims *md, int n, int d);

#ifdef __cplusplus
}
#endif
#endif
