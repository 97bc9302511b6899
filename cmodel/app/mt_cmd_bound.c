/* SPDX-License-Identifier: Apache-2.0
 * multitree bound: the per-node, cut and aggregate lower bounds of an all-reduce on a topology
 * (topo/mt_bound.h, docs/reference/bounds.md), in cycles of --config's links (in ns when every
 * link has a bandwidth) and as GB/s. */
#include <string.h>
#include "app/mt_app.h"
#include "flow/mt_flow.h"
#include "topo/mt_bound.h"

int mt_app_bound(const mt_app_opts *o) {
  if (!o->topo || !o->have_bytes) {
    fprintf(stderr, "multitree bound: --topo and --bytes are required\n");
    return 2;
  }
  mt_net_cfg cfg;
  int rc = mt_app_net_cfg("bound", o, &cfg);
  if (rc) return rc;
  mt_topo t;
  mt_err e = {{0}};
  if (mt_topo_from_name(&t, o->topo, &e)) {
    fprintf(stderr, "multitree bound: %s\n", e.msg);
    return 2;
  }
  /* links with a bandwidth (dims:, hier:@BW, ...): each weighs mult x GB/s, time in ns (as
   * sim --level flow); else unit links of payload_w / 8 bytes per cycle */
  const int ns = mt_flow_topo_has_bw(&t);
  const double B = ns ? 1.0 : (double)(cfg.payload_w / 8), ghz = ns ? 1.0 : cfg.clock_ghz;
  const char *u = ns ? "ns" : "cycles", *lu = ns ? "GB/s" : "links";
  double *w = NULL;
  if (ns) {
    w = mt_xcalloc((size_t)t.n_links + 1, sizeof(double));
    for (int l = 0; l < t.n_links; l++) w[l] = t.links[l].mult * t.links[l].bw;
  }
  mt_bound b;
  rc = mt_bound_rated(&t, o->bytes, B, w, &b, &e);
  free(w);
  if (rc) {
    fprintf(stderr, "multitree bound: %s\n", e.msg);
    mt_topo_free(&t);
    return 2;
  }
  const double S = (double)o->bytes;
  if (ns) printf("bound: all-reduce of %llu bytes on %s, %d nodes, links of their GB/s (time in ns)\n", (unsigned long long)o->bytes, t.spec, t.n_nodes);
  else
    printf("bound: all-reduce of %llu bytes on %s, %d nodes, %g B/cycle per link, %g GHz\n", (unsigned long long)o->bytes, t.spec, t.n_nodes,
           B, ghz);
  printf("per-node bound:  %.1f %s (%.2f GB/s), node %d\n", b.per_node, u, S / b.per_node * ghz, b.per_node_v);
  printf("cut bound:       %.1f %s (%.2f GB/s), a set of %d nodes with %g %s in and %g out; %s, %ld sets\n", b.cut, u, S / b.cut * ghz,
         b.cut_size, b.cut_in, lu, b.cut_out, mt_cut_family_name(b.cut_family), b.cut_sets);
  printf("aggregate bound: %.1f %s (%.2f GB/s), %.3f %s into each node on average\n", b.aggregate, u, S / b.aggregate * ghz, b.mean_degree, lu);
  printf("lower bound:     %.1f %s (%.2f GB/s), the %s bound\n", b.bound, u, S / b.bound * ghz, mt_bound_name(b.binding));
  if (o->json) {
    json_t *j = json_object();
    json_object_set_new(j, "topology", json_string(t.spec));
    json_object_set_new(j, "bytes", json_integer((json_int_t)o->bytes));
    json_object_set_new(j, "units", json_string(u));
    json_object_set_new(j, "bytes_per_cycle", json_real(B));
    mt_app_bound_json(j, &b, 0);
    if (mt_app_json_write("bound", o->json, j)) rc = 2;
  }
  mt_topo_free(&t);
  return rc;
}
