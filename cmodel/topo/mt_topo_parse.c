/* SPDX-License-Identifier: Apache-2.0
 * mt_topo_parse: mt_topo_from_name, the topology-name dispatcher: a grid (mt_topo_grid), the
 * built-in switch networks (fattree, dgx2, bigraph: mt_topo_from_links), a file
 * (mt_topo_from_file), a hierarchy (topo/mt_hier.h) or a multi-dimensional topology
 * (topo/mt_mdtopo.h). It calls into those files and none of them calls back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "topo/mt_topo.h"
#include "topo/mt_hier.h"
#include "topo/mt_mdtopo.h"
#include "util/mt_num.h"

static int parse_dims(const char *s, char sep, int *dim, int maxd, int *nd) {
  *nd = 0;
  while (*s) {
    if (*nd == maxd) return -1;
    if (mt_scan_int(&s, &dim[*nd], 1000000)) return -1;
    ++*nd;
    if (*s == 0) break;
    if (*s != sep) return -1;
    s++;
    if (*s == 0) return -1;
  }
  return *nd ? 0 : -1;
}

int mt_topo_from_name(mt_topo *t, const char *name, mt_err *e) {
  memset(t, 0, sizeof *t);
  snprintf(t->spec, sizeof t->spec, "%s", name);
  int dim[3], nd;
  if (!strncmp(name, "torus:", 6) || !strncmp(name, "mesh:", 5)) {
    int torus = name[0] == 't';
    if (parse_dims(name + (torus ? 6 : 5), 'x', dim, 3, &nd))
      return mt_fail(e, "topology '%s': expected %s:XxY or %s:XxYxZ with positive sizes", name, torus ? "torus" : "mesh", torus ? "torus" : "mesh");
    return mt_topo_grid(t, torus, nd, dim, e);
  }
  if (!strncmp(name, "ring:", 5)) {
    if (parse_dims(name + 5, 'x', dim, 1, &nd)) return mt_fail(e, "topology '%s': expected ring:N", name);
    return mt_topo_grid(t, 1, 1, dim, e);
  }
  if (!strncmp(name, "file:", 5)) return mt_topo_from_file(t, name + 5, e);
  if (!strncmp(name, "hier:", 5)) return mt_topo_from_hier_name(t, name, e);
  if (!strncmp(name, "dims:", 5) || !strncmp(name, "dimsfile:", 9) || !strncmp(name, "themis:", 7)) return mt_topo_from_dims_name(t, name, e);
  int(*ll)[3] = NULL;
  int nl = 0, nn = 0, ns = 0, rc;
  if (!strncmp(name, "fattree:", 8)) {
    /* k-ary L-level fat-tree (k-ary n-tree): k^L nodes, L levels of k^(L-1) switches of
     * 2k ports; switch <w,l> links <w',l+1> when w, w' differ at most in digit l. */
    if (parse_dims(name + 8, ',', dim, 2, &nd) || nd != 2 || dim[0] < 2 || dim[1] < 1)
      return mt_fail(e, "topology '%s': expected fattree:K,L with K >= 2, L >= 1", name);
    int k = dim[0], L = dim[1];
    long per = 1;
    for (int i = 0; i < L - 1; i++) {
      per *= k;
      if (per > MT_MAX_NODES) break;
    }
    if (per * k > MT_MAX_NODES) return mt_fail(e, "topology '%s': %ld nodes exceed %d", name, per * k, MT_MAX_NODES);
    t->kind = MT_TOPO_FATTREE;
    nn = (int)(per * k);
    ns = (int)(per * L);
    ll = mt_xcalloc((size_t)(nn + per * k * L), sizeof *ll);
    for (int i = 0; i < nn; i++) {
      ll[nl][0] = i;
      ll[nl][1] = nn + i / k;
      ll[nl][2] = 1;
      nl++;
    }
    for (int l = 0; l + 1 < L; l++)
      for (int w = 0; w < per; w++) {
        long pw = 1;
        for (int i = 0; i < l; i++) pw *= k;
        int digit = (int)((w / pw) % k);
        for (int dgt = 0; dgt < k; dgt++) {
          int w2 = (int)(w + (dgt - digit) * pw);
          ll[nl][0] = nn + l * (int)per + w;
          ll[nl][1] = nn + (l + 1) * (int)per + w2;
          ll[nl][2] = 1;
          nl++;
        }
      }
  } else if (!strcmp(name, "dgx2")) {
    /* DGX-2-like: 2 switches x 8 nodes, 8 parallel links between the switches. */
    t->kind = MT_TOPO_DGX2;
    nn = 16;
    ns = 2;
    ll = mt_xcalloc(17, sizeof *ll);
    for (int i = 0; i < 16; i++) {
      ll[nl][0] = i;
      ll[nl][1] = 16 + i / 8;
      ll[nl][2] = 1;
      nl++;
    }
    ll[nl][0] = 16;
    ll[nl][1] = 17;
    ll[nl][2] = 8;
    nl++;
  } else if (!strncmp(name, "bigraph:", 8)) {
    /* BiGraph M x N: N switches with M nodes each; switches 0..N/2-1 (upper) each link
     * every switch N/2..N-1 (lower). */
    if (parse_dims(name + 8, 'x', dim, 2, &nd) || nd != 2 || dim[0] < 1 || dim[1] < 2 || dim[1] % 2)
      return mt_fail(e, "topology '%s': expected bigraph:MxN, M >= 1 nodes per switch, N >= 2 switches, N even", name);
    int M = dim[0], N = dim[1];
    if ((long)M * N > MT_MAX_NODES) return mt_fail(e, "topology '%s': %ld nodes exceed %d", name, (long)M * N, MT_MAX_NODES);
    t->kind = MT_TOPO_BIGRAPH;
    nn = M * N;
    ns = N;
    ll = mt_xcalloc((size_t)(nn + N * N / 4), sizeof *ll);
    for (int i = 0; i < nn; i++) {
      ll[nl][0] = i;
      ll[nl][1] = nn + i / M;
      ll[nl][2] = 1;
      nl++;
    }
    for (int u = 0; u < N / 2; u++)
      for (int l = N / 2; l < N; l++) {
        ll[nl][0] = nn + u;
        ll[nl][1] = nn + l;
        ll[nl][2] = 1;
        nl++;
      }
  } else {
    return mt_fail(e, "unknown topology '%s' (torus:XxY[xZ], mesh:XxY[xZ], ring:N, fattree:K,L, dgx2, bigraph:MxN, file:PATH, hier:SPEC, dims:SPEC, dimsfile:PATH, themis:PRESET)", name);
  }
  rc = mt_topo_from_links(t, name, nn, ns, nl, (const int(*)[3])ll, e);
  free(ll);
  return rc;
}
