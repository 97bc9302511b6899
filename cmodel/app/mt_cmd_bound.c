/* SPDX-License-Identifier: Apache-2.0
 * multitree bound: the per-node, cut and average lower bounds of an all-reduce on a topology
 * (topo/mt_bound.h), in cycles of --config's links and as GB/s. */
#include <string.h>
#include "app/mt_app.h"
#include "topo/mt_bound.h"

int mt_app_bound(const mt_app_opts *o) {
  if (!o->topo || !o->have_bytes) {
    fprintf(stderr, "multitree bound: --topo and --bytes are required\n");
    return 2;
  }
  mt_net_cfg cfg;
  int rc = mt_app_net_cfg(o, &cfg);
  if (rc) return rc;
  mt_topo t;
  mt_err e = {{0}};
  if (mt_topo_from_name(&t, o->topo, &e)) {
    fprintf(stderr, "multitree bound: %s\n", e.msg);
    return 2;
  }
  const double B = (double)(cfg.payload_w / 8);
  mt_bound b;
  if (mt_bound_of(&t, o->bytes, B, &b, &e)) {
    fprintf(stderr, "multitree bound: %s\n", e.msg);
    mt_topo_free(&t);
    return 2;
  }
  const double S = (double)o->bytes, ghz = cfg.clock_ghz;
  printf("bound: all-reduce of %llu bytes on %s, %d nodes, %g B/cycle per link, %g GHz\n", (unsigned long long)o->bytes, t.spec,
         t.n_nodes, B, ghz);
  printf("per-node bound: %.1f cycles (%.2f GB/s), node %d\n", b.per_node, S / b.per_node * ghz, b.per_node_v);
  printf("cut bound:      %.1f cycles (%.2f GB/s), a set of %d nodes with %d links in and %d out; %s, %ld sets\n", b.cut,
         S / b.cut * ghz, b.cut_size, b.cut_in, b.cut_out, mt_cut_family_name(b.cut_family), b.cut_sets);
  printf("average bound:  %.1f cycles (%.2f GB/s), d = %.3f links per node%s\n", b.average, S / b.average * ghz, b.mean_degree,
         b.average < b.cut * (1 - 1e-9) ? "; NOT achievable: below the cut bound" : "");
  if (o->json) {
    json_t *j = json_object();
    json_object_set_new(j, "topology", json_string(t.spec));
    json_object_set_new(j, "bytes", json_integer((json_int_t)o->bytes));
    json_object_set_new(j, "bytes_per_cycle", json_real(B));
    mt_app_bound_json(j, &b, 0);
    if (mt_app_json_write(o->json, j)) rc = 2;
  }
  mt_topo_free(&t);
  return rc;
}
