/* SPDX-License-Identifier: Apache-2.0
 * multitree sim --level flow: the flow-level simulator (cmodel/flow, docs/reference/flowsim.md). No
 * data moves, so nothing is checked; the time estimates the cycle model's (cycles) or, on
 * topologies with link bandwidths, is in ns. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include <math.h>
#include "app/mt_app.h"
#include "flow/mt_flow.h"
#include "plan/mt_themis.h"
#include "net/mt_net_cfg.h"
#include "util/mt_time.h"

static json_t *num(double v) {
  json_t *j = isfinite(v) ? json_real(v) : NULL;
  return j ? j : json_null();
}

static int write_json(const char *path, const mt_app_opts *o, const mt_topo *t, const char *fe, int steps, int chunks, uint64_t bytes,
                      const mt_flow_params *p, const mt_net_cfg *cfg, const mt_flow_result *r, const double *lu, double wall, double plan) {
  const int cyc = p->units == MT_FLOW_CYCLES;
  json_t *dims = json_array();
  for (int d = 0; d < r->ndims; d++)
    json_array_append_new(dims, json_pack("{s:i, s:o, s:o}", "dim", d + 1, "util", num(r->dim_util[d]), "busy", !strcmp(fe, "chunk-schedule") ? num(r->dim_busy[d]) : json_null()));
  json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:I, s:i, s:i, s:s, s:o, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I, "
                        "s:n, s:s, s:o, s:I}",
                        "format", "multitree-flowsim/1", "level", "flow", "front_end", fe, "algorithm", o->algo, "topology", t->spec, "nodes",
                        t->n_nodes, "bytes", (json_int_t)bytes, "steps", steps, "chunks", chunks, "units", cyc ? "cycles" : "ns", "time",
                        num(r->time), "flow", cyc ? mt_net_flow_name(cfg->flow) : "-", "config", cyc ? json_string(cfg->name) : json_null(),
                        "lower_bound", num(r->bound), "lower_bound_fraction", num(r->time > 0 ? r->bound / r->time : 0), "link_util_mean",
                        num(r->util_mean), "link_util_max", num(r->util_max), "dims", dims, "gbps",
                        num(r->time > 0 ? (double)bytes / r->time * (cyc ? cfg->clock_ghz : 1.0) : 0), "messages", (json_int_t)r->messages,
                        "events", (json_int_t)r->events, "solves", (json_int_t)r->solves, "steady_starts", (json_int_t)r->steady, "correct",
                        "note", "no data moves at the flow level: the result is not checked", "wall_s", num(wall), "peak_rss_bytes",
                        (json_int_t)mt_app_peak_rss());
  /* where the wall went: planning (front end 1: with the NI tables), and the engine's work */
  if (j && (json_object_set_new(j, "plan_s", num(plan)) || json_object_set_new(j, "rates_solved", json_integer((json_int_t)r->solved)))) {
    json_decref(j);
    j = NULL;
  }
  /* the lower bounds (docs/reference/bounds.md); lower_bound above is the binding one */
  if (j && (json_object_set_new(j, "binding_bound", json_string(mt_bound_name(r->bounds.binding))) || json_object_set_new(j, "bounds", json_pack("{s:o, s:o, s:o}", "per_node", num(r->bounds.per_node), "cut", num(r->bounds.cut), "aggregate", num(r->bounds.aggregate))))) {
    json_decref(j);
    j = NULL;
  }
  if (j && lu) {
    /* front end 1: every directed link [src, dst, utilisation] (vertices as the topology's) */
    json_t *a = json_array();
    for (int l = 0; a && l < t->n_links; l++) json_array_append_new(a, json_pack("[i, i, o]", t->links[l].src, t->links[l].dst, num(lu[l])));
    if (!a || json_object_set_new(j, "links", a)) {
      json_decref(j);
      j = NULL;
    }
  }
  return mt_app_json_write("sim", path, j);
}

int mt_app_flowsim(const mt_app_opts *o) {
  mt_err e = {{0}};
  if (!o->topo || !o->algo || !o->have_bytes) {
    fprintf(stderr, "multitree sim: --topo, --algo and --bytes are required\n");
    return 2;
  }
  unsigned flow;
  if (mt_app_flow("sim", o, &flow)) return 2;
  if (o->data && strcmp(o->data, "none")) {
    fprintf(stderr, "multitree sim: --data %s: the flow level moves no data (only --data none)\n", o->data);
    return 2;
  }
  if (o->dump_dir || o->trace || o->threads > 1) {
    fprintf(stderr, "multitree sim: --dump-dir, --trace and --threads are the cycle level's (--level cycle)\n");
    return 2;
  }
  if (mt_app_whole_words("sim", o)) return 2;
  mt_net_cfg cfg;
  if (mt_app_net_cfg("sim", o, &cfg)) return 2;
  cfg.flow = flow;
  mt_topo t;
  if (mt_topo_from_name(&t, o->topo, &e)) {
    fprintf(stderr, "multitree sim: %s\n", e.msg);
    return 2;
  }
  mt_flow_params p;
  const int lp = o->local_ports ? o->local_ports : (int)cfg.local_ports;
  if (mt_flow_topo_has_bw(&t)) {
    mt_flow_params_ns(&p);
    p.local_ports = lp;
    p.pkt_mode = cfg.flow == MT_NET_FLOW_PACKET;
  } else mt_app_flow_params(&cfg, lp, &p);
  mt_flow_result r;
  double *lu = NULL; /* front end 1: each link's utilisation */
  int rc = 0, steps = 0;
  const char *fe;
  double t0 = mt_now(), plan = 0;
  /* dimbal is a chunk schedule whatever --chunks says (without it the planner picks the count) */
  const int chunked = o->chunks || !strcmp(o->algo, "dimbal");
  int nchunks = o->chunks;
  if (o->expand && !chunked) {
    fprintf(stderr, "multitree sim: --expand: not used without --chunks K (the schedule is expanded into flows already)\n");
    mt_topo_free(&t);
    return 2;
  }
  if (o->overlap && (!chunked || o->expand)) {
    fprintf(stderr, "multitree sim: --overlap is front end 2's (--level flow --chunks K without --expand): a dimension's stages overlap their latency\n");
    mt_topo_free(&t);
    return 2;
  }
  p.overlap = o->overlap;
  if (chunked && !o->expand) {
    fe = "chunk-schedule";
    /* the planner's own chunk schedule (Themis or its baseline), not its expansion */
    mt_chunksched cs = {0};
    mt_plan_opt.bytes = o->bytes;
    mt_plan_opt.elem = o->elem;
    mt_plan_opt.overlap = o->overlap; /* the queues ordered for the execution that runs them */
    int prc = mt_themis_plan(&cs, &t, o->algo, &e);
    plan = mt_now() - t0;
    if (prc || mt_flow_run_cs(&cs, &t, &p, &r, &e)) {
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      rc = 2;
    } else {
      for (int d = 0; d < cs.v.D; d++) steps += 2 * mt_dimcoll_steps(&cs.v, d);
      nchunks = cs.n_chunks;
    }
    mt_chunksched_free(&cs);
  } else {
    fe = "schedule";
    mt_sched s;
    if (mt_plan(&s, &t, o->algo, o->bytes, o->elem, &e)) {
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      mt_topo_free(&t);
      return 2;
    }
    plan = mt_now() - t0;
    steps = s.steps;
    lu = mt_xcalloc((size_t)t.n_links + 1, sizeof(double));
    if (mt_flow_run_sched(&s, &p, &r, lu, &e)) {
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      rc = 2;
    }
    mt_sched_free(&s);
  }
  const double wall = mt_now() - t0;
  if (!rc) {
    const int cyc = p.units == MT_FLOW_CYCLES;
    const char *u = cyc ? "cycles" : "ns";
    printf("sim: flow level (%s), %s on %s, %llu bytes", fe, o->algo, t.spec, (unsigned long long)o->bytes);
    if (nchunks) printf(" in %d chunks%s", nchunks, o->overlap ? " (stages overlap their latency)" : "");
    if (cyc) printf(", %s flow control, config %s", mt_net_flow_name(cfg.flow), cfg.name);
    printf(": %.0f %s, %.2f GB/s; result not checked (no data at the flow level)\n", r.time, u,
           r.time > 0 ? (double)o->bytes / r.time * (cyc ? cfg.clock_ghz : 1.0) : 0.0);
    printf("sim: %d steps; link utilisation mean %.3f max %.3f\n", steps, r.util_mean, r.util_max);
    if (mt_app_bound_report(&r.bounds, r.time, u, &e)) { /* no run may finish below its lower bound */
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      rc = 1;
    }
    for (int d = 0; d < r.ndims; d++) {
      printf("%sdim %d util %.3f", d ? "; " : "sim: ", d + 1, r.dim_util[d]);
      if (nchunks) printf(" busy %.3f", r.dim_busy[d]);
      if (d == r.ndims - 1) printf("\n");
    }
    printf("sim: %llu messages, %llu events, %llu max-min solves (%llu message rates); %.2f s wall, %.2f s of it planning\n",
           (unsigned long long)r.messages, (unsigned long long)r.events, (unsigned long long)r.solves, (unsigned long long)r.solved, wall, plan);
    if (o->json && write_json(o->json, o, &t, fe, steps, nchunks, o->bytes, &p, &cfg, &r, lu, wall, plan)) rc = 2;
  }
  free(lu);
  mt_topo_free(&t);
  return rc;
}
