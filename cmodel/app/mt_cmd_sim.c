/* SPDX-License-Identifier: Apache-2.0
 * multitree sim: cycle-accurate all-reduce on the network model, checked against the reference. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "app/mt_app.h"
#include "fmt/mt_flit.h"
#include "util/mt_fp32.h"
#include "net/mt_net.h"
#include "net/mt_dims_net.h"
#include "net/mt_rate_net.h"
#include "plan/mt_ref.h"
#include "util/mt_time.h"
#include "util/mt_io.h"

/* mt_net_result.rerr_kind */
static const char *const rerr_name[] = {"watchdog", "overflow", "no-route"};

static int dump_words(const char *dir, int node, const char *what, const uint32_t *w, uint64_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/node%d.%s.bin", dir, node, what);
  mt_out out;
  FILE *f = mt_out_open(&out, path, "wb");
  if (!f) {
    fprintf(stderr, "multitree sim: %s: cannot create: %s\n", path, strerror(errno));
    return -1;
  }
  for (uint64_t k = 0; k < n; k++) {
    unsigned char b[4] = {(unsigned char)w[k], (unsigned char)(w[k] >> 8), (unsigned char)(w[k] >> 16), (unsigned char)(w[k] >> 24)};
    fwrite(b, 1, 4, f);
  }
  if (mt_out_close(&out, 1) == 0) return 0;
  fprintf(stderr, "multitree sim: %s: write failed: %s\n", path, strerror(errno ? errno : EIO));
  return -1;
}

/* A number as the printf format once wrote it ("%.6f"): the value that text reads back as;
 * written with 15 significant digits (DBL_DIG), which gives that text back (without trailing zeros). */
static json_t *real_as(const char *fmt, double v) {
  char buf[64];
  snprintf(buf, sizeof buf, fmt, v);
  json_t *j = json_real(strtod(buf, NULL));
  return j ? j : json_null(); /* not finite (no cycles, no wall time): JSON has no such number */
}

/* Links of different periods or latencies per dimension (a torus or mesh) */
static int het_links(const mt_net_cfg *c, const mt_topo *t) {
  int h = 0;
  for (int d = 0; mt_topo_is_grid(t) && d < t->ndims; d++) h |= c->link_period[d] > 1 || (c->link_lat_d[d] && c->link_lat_d[d] != c->link_lat);
  return h;
}

/* The --json summary: format multitree-sim/1 (keys in this order; docs/reference/network.md). */
static const char *const data_name[] = {"full", "sample", "none"};

static int write_json(const char *path, const char *topo, const mt_sched *s, const mt_net_cfg *cfg, const mt_net_result *r, const char *dt,
                      uint32_t seed, double wall, const mt_bound *bd) {
  const double bpc = (double)r->bytes / (double)r->cycles;
  json_t *c = json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}", "name", cfg->name,
                        "payload_w", (json_int_t)cfg->payload_w, "num_vcs", (json_int_t)cfg->num_vcs, "vc_depth", (json_int_t)cfg->vc_depth,
                        "ej_depth", (json_int_t)cfg->ej_depth, "link_lat", (json_int_t)cfg->link_lat,
                        "subpkt_flits", (json_int_t)cfg->subpkt_flits, "pkt_bytes", (json_int_t)cfg->pkt_bytes,
                        "step_prio", (json_int_t)cfg->step_prio, "local_ports", (json_int_t)cfg->local_ports,
                        "mem_p_ready", (json_int_t)cfg->mem_p_ready, "mem_lat_max", (json_int_t)cfg->mem_lat_max,
                        "ni_sq", (json_int_t)cfg->ni_sq, "ni_rq", (json_int_t)cfg->ni_rq, "wd_limit", (json_int_t)cfg->wd_limit,
                        "clock_ghz", real_as("%.3f", cfg->clock_ghz));
  /* a switch network's NIs sit behind NI links: their ejection depth (resolved; grids: ej_depth) */
  if (c && !mt_topo_is_grid(s->topo) && json_object_set_new(c, "ni_link_depth", json_integer((json_int_t)mt_net_ej_depth(cfg, 1)))) {
    json_decref(c);
    c = NULL;
  }
  json_t *j = json_pack("{s:s, s:s, s:s, s:i, s:I, s:s, s:s, s:I, s:I, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                        "format", "multitree-sim/1", "algorithm", s->algo, "topology", topo, "nodes", s->n_nodes,
                        "bytes", (json_int_t)r->bytes, "dtype", dt, "flow", mt_net_flow_name(cfg->flow), "seed", (json_int_t)seed,
                        "cycles", (json_int_t)r->cycles, "steps", s->steps, "bytes_per_cycle", real_as("%.6f", bpc),
                        "gbps", real_as("%.6f", bpc * cfg->clock_ghz), "link_util_mean", real_as("%.6f", r->util_mean),
                        "link_util_max", real_as("%.6f", r->util_max), "lower_bound_cycles", real_as("%.1f", r->lb_cycles),
                        "lower_bound_fraction", real_as("%.6f", r->lb_cycles / (double)r->cycles), "correct",
                        cfg->data == MT_NET_DATA_NONE ? json_null() : json_boolean(r->correct),
                        "wall_s", real_as("%.3f", wall), "cycles_per_s", real_as("%.1f", (double)r->cycles / wall), "config", c);
  /* after the keys of earlier versions (readers of those see the same first keys): the data
   * mode and what it checked (docs/reference/network.md "Data modes"), the process's peak memory */
  json_t *x = j ? json_pack("{s:s, s:I, s:I, s:i}", "data", data_name[cfg->data], "checked_words_per_node", (json_int_t)r->checked_words,
                            "peak_rss_bytes", (json_int_t)mt_app_peak_rss(), "threads", r->threads)
                : NULL;
  if (x && bd) mt_app_bound_json(x, bd, (double)r->cycles);
  if (x && het_links(cfg, s->topo)) { /* links of several rates: per dimension its period, latency and bandwidth time */
    json_t *pd = json_array(), *ld = json_array(), *bd = json_array();
    for (int d = 0; d < s->topo->ndims; d++) {
      json_array_append_new(pd, json_integer(cfg->link_period[d] > 1 ? cfg->link_period[d] : 1));
      json_array_append_new(ld, json_integer(cfg->link_lat_d[d] ? cfg->link_lat_d[d] : cfg->link_lat));
      json_array_append_new(bd, real_as("%.1f", mt_dims_net_dim_cycles(s->topo, cfg, s->bytes, d)));
    }
    json_object_set_new(x, "link_period", pd);
    json_object_set_new(x, "link_lat_dim", ld);
    json_object_set_new(x, "dim_bw_cycles", bd);
  }
  if (j && (!x || json_object_update(j, x))) {
    json_decref(j);
    j = NULL;
  }
  json_decref(x);
  return mt_app_json_write("sim", path, j);
}

/* Bytes of memory available now (MemAvailable of /proc/meminfo, else free pages); 0: unknown. */
static uint64_t mem_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  unsigned long long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
  if (f) fclose(f);
  if (kb) return (uint64_t)kb * 1024u;
  long pg = sysconf(_SC_AVPHYS_PAGES), sz = sysconf(_SC_PAGESIZE);
  return pg > 0 && sz > 0 ? (uint64_t)pg * (uint64_t)sz : 0;
}

/* Refuse a run whose gradient buffers do not fit (--mem-limit, else the memory available),
 * rather than be killed for it part way: 0, or 2 (message printed). */
static int mem_check(const mt_app_opts *o, const mt_sched *s, const mt_net_cfg *cfg) {
  const uint64_t need = mt_net_mem_estimate(s, cfg->data), have = o->mem_limit ? o->mem_limit : mem_available();
  if (!have || need <= have) return 0;
  const double gib = 1073741824.0, mib = 1048576.0, u = have >= 1073741824u ? gib : mib;
  const char *un = u == gib ? "GiB" : "MiB";
  fprintf(stderr, "multitree sim: %d nodes x %llu bytes need about %.1f %s for the gradient buffers (the memories, "
                  "the reference's partial sums of a range), more than the %.1f %s %s; use fewer --bytes, --data sample or none, or set --mem-limit BYTES\n",
          s->n_nodes, (unsigned long long)s->bytes, (double)need / u, un, (double)have / u, un,
          o->mem_limit ? "of --mem-limit" : "this machine has available");
  return 2;
}

/* The summary lines of a finished run (after them only the wall time): cycles and bandwidth,
 * the verdict, link utilisation and the bounds, per dimension on links of several rates, the
 * stager's and the paper NI's counts. */
/* The summary lines; 1 when the run finished below its lower bound bd (NULL: it could not be
 * computed, the reason in *be) or the bound failed. */
static int print_summary(const mt_net *net, const mt_net_cfg *cfg, const mt_sched *s, const mt_topo *t, mt_net_result *r, const char *dt,
                         const mt_bound *bd, mt_err *be) {
  double bpc = (double)r->bytes / (double)r->cycles;
  char verdict[160];
  if (cfg->data == MT_NET_DATA_NONE) snprintf(verdict, sizeof verdict, "result not checked (--data none)");
  else if (!r->correct) snprintf(verdict, sizeof verdict, "RESULT WRONG");
  else if (cfg->data == MT_NET_DATA_SAMPLE)
    snprintf(verdict, sizeof verdict, "result correct on every node's sampled words (%llu of %llu per node)", (unsigned long long)r->checked_words,
             (unsigned long long)(s->bytes / 4));
  else snprintf(verdict, sizeof verdict, "result correct on every node");
  printf("sim: %s on %s, %llu bytes %s, %s flow control, config %s: %llu cycles, %.2f bytes/cycle = %.2f GB/s, %s\n", s->algo, t->spec,
         (unsigned long long)r->bytes, dt, mt_net_flow_name(cfg->flow), cfg->name, (unsigned long long)r->cycles, bpc, bpc * cfg->clock_ghz, verdict);
  /* the lower bound (the largest of topo/mt_bound's): no run may finish below it */
  int rc = 0;
  if (!bd || mt_app_bound_report(bd, (double)r->cycles, "cycles", be)) {
    fprintf(stderr, "multitree sim: %s\n", be->msg);
    rc = 1;
  }
  r->lb_cycles = bd ? bd->bound : 0;
  printf("sim: %d steps; link utilisation mean %.3f max %.3f\n", s->steps, r->util_mean, r->util_max);
  if (het_links(cfg, s->topo)) {
    /* links of several rates (docs/reference/network.md "Link rate and latency"): per dimension the
     * hierarchical all-reduce's bandwidth time, the slowest dimension's a bound of it */
    double sum = 0, mx = 0;
    printf("sim: per dimension (hierarchical order) bandwidth time:");
    for (int d = 0; d < s->topo->ndims; d++) {
      const double c = mt_dims_net_dim_cycles(s->topo, cfg, s->bytes, d);
      printf(" dim %d %.0f", d + 1, c);
      sum += c;
      if (c > mx) mx = c;
    }
    printf(" cycles; bottleneck dimension %.0f (%.1f%% of it achieved), sum %.0f (%.1f%%)\n", mx, 100.0 * mx / (double)r->cycles, sum,
           100.0 * sum / (double)r->cycles);
  }
  {
    /* only when the stager did something: runs it never touches print what they did before */
    uint64_t so, sr;
    int sn;
    unsigned sp;
    mt_net_stage_stats(net, &so, &sr, &sn, &sp);
    if (so)
      printf("sim: NI stager (ni_stage_after=%u): %llu units staged out at %d nodes, %llu replays, at most %u of %u ranges at one NI\n",
             cfg->ni_stage_after, (unsigned long long)so, sn, (unsigned long long)sr, sp, cfg->ni_stage_ranges);
  }
  if (cfg->ni_model == 1) {
    uint64_t ag, ac;
    mt_net_paper_stats(net, &ag, &ac);
    printf("sim: paper NI (docs/reference/papersim.md): %llu child flows aggregated on the accelerators, %llu accelerator cycles in all\n",
           (unsigned long long)ag, (unsigned long long)ac);
  }
  return rc;
}

int mt_app_sim(const mt_app_opts *o) {
  mt_err e = {{0}};
  if (o->level && !strcmp(o->level, "flow")) return mt_app_flowsim(o);
  if (o->level && strcmp(o->level, "cycle")) {
    fprintf(stderr, "multitree sim: --level '%s': expected cycle (default: flits, routers, NIs) or flow (messages on links, docs/reference/flowsim.md)\n", o->level);
    return 2;
  }
  mt_net_cfg cfg;
  if (mt_app_net_cfg("sim", o, &cfg)) return 2;
  int dtype;
  if (mt_app_dtype("sim", o, &dtype) || mt_app_flow("sim", o, &cfg.flow)) return 2;
  if (mt_app_whole_words("sim", o)) return 2;
  cfg.threads = o->threads ? (unsigned)o->threads : 1u;
  if (o->data) {
    unsigned k = 0;
    while (k < 3 && strcmp(o->data, data_name[k])) k++;
    if (k == 3) {
      fprintf(stderr, "multitree sim: --data '%s': expected full, sample or none\n", o->data);
      return 2;
    }
    cfg.data = k;
    if (o->dump_dir && k != MT_NET_DATA_FULL) {
      fprintf(stderr, "multitree sim: --dump-dir needs --data full (at --data %s the memories do not hold the buffers)\n", o->data);
      return 2;
    }
  }
  mt_app_opts o2 = *o;
  if (!o2.local_ports && cfg.local_ports) o2.local_ports = (int)cfg.local_ports;
  /* the paper simulator's NI (ni_model=1): the NI ports the paper ran the algorithm with */
  if (!o2.local_ports && o->algo && (o2.local_ports = mt_net_paper_local_ports(&cfg, o->algo))) cfg.local_ports = (unsigned)o2.local_ports;
  if (cfg.ni_model == 1 && o->trace) {
    fprintf(stderr, "multitree sim: --trace records the project NI's blocks; config %s uses the paper simulator's NI (ni_model=1), which has none: use ni_model=0 or no --trace\n", cfg.name);
    return 2;
  }
  mt_topo t, tt; /* tt: a ring-only dims: topology's torus (mt_dims_net.h) */
  mt_sched s;
  mt_tables tb;
  int rc = mt_app_plan_from_opts(&o2, &t, &s, &tb, NULL);
  if (rc) return rc;
  memset(&tt, 0, sizeof tt);
  if (t.kind == MT_TOPO_DIMS) {
    char desc[512];
    if (mt_dims_net_map(&t, &cfg, &tt, desc, sizeof desc, &e) || mt_dims_net_move(&s, &t, &tt, &e)) {
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      rc = 2;
    } else {
      /* the tables again: their port fields are the torus's */
      mt_tables_free(&tb);
      if (mt_sched_tables(&s, o2.local_ports, &tb, &e)) {
        fprintf(stderr, "multitree sim: %s\n", e.msg);
        memset(&tb, 0, sizeof tb);
        rc = 2;
      } else printf("sim: %s as %s: %s\n", t.spec, tt.spec, desc);
    }
    if (rc) {
      mt_tables_free(&tb);
      mt_sched_free(&s);
      mt_topo_free(&tt);
      mt_topo_free(&t);
      return rc;
    }
  } else if (mt_rate_net_has(&t)) { /* a switch network with GB/s and ns (hier:...@GBPS:LAT) */
    char desc[512];
    if (mt_rate_net_map(&t, &cfg, desc, sizeof desc, &e)) {
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      mt_tables_free(&tb);
      mt_sched_free(&s);
      mt_topo_free(&t);
      return 2;
    }
    printf("sim: %s: %s\n", t.spec, desc);
  }
  if (s.n_flows > 1 << MT_HD_FLOW_W) /* before the NI's FlowW check, with the way out */
    fprintf(stderr, "multitree sim: %s on %s has %d flows; the head flit's %d-bit FLOW field and the NI carry %d%s\n", s.algo, t.spec, s.n_flows,
            MT_HD_FLOW_W, 1 << MT_HD_FLOW_W, !strcmp(s.algo, "themis") || !strcmp(s.algo, "hier") ? " (fewer --chunks: each chunk is N x H flows)" : "");
  if (s.n_flows > 1 << MT_HD_FLOW_W || mem_check(o, &s, &cfg)) {
    mt_tables_free(&tb);
    mt_sched_free(&s);
    mt_topo_free(&tt);
    mt_topo_free(&t);
    return 2;
  }
  double t0 = mt_now();
  mt_net *net = mt_net_new(&cfg, &s, &tb, dtype, &e);
  mt_net_result r;
  memset(&r, 0, sizeof r);
  if (!net) {
    fprintf(stderr, "multitree sim: %s\n", e.msg);
    rc = 2;
    goto out;
  }
  FILE *trf = NULL;
  mt_out trout;
  if (o->trace) {
    trf = mt_out_open(&trout, o->trace, "w");
    if (!trf || mt_net_set_trace(net, trf)) {
      fprintf(stderr, "multitree sim: --trace %s: cannot write: %s\n", o->trace, strerror(errno));
      if (trf) mt_out_close(&trout, 0);
      rc = 2;
      goto out;
    }
  }
  /* --runs: the all-reduces back to back on this network, without a reset (docs/reference/network.md
   * "Back-to-back all-reduces"), seeds S, S+1, ...; each checked; the last one's --json and --dump-dir */
  const int nruns = o->runs ? o->runs : 1;
  const char *dt = dtype == MT_DTYPE_FP32 ? "fp32" : "int32";
  double wall = 0;
  uint32_t seed = o->seed;
  mt_bound bd = {0};
  mt_err be = {{0}};
  const mt_bound *bdp = NULL;
  for (int run = 0; run < nruns && !rc; run++) {
    seed = o->seed + (uint32_t)run;
    if (nruns > 1) printf("sim: all-reduce %d of %d back to back, seed %u\n", run + 1, nruns, seed);
    if (run) t0 = mt_now();
    if (mt_net_start(net, seed, &e) || mt_net_run(net, &r, stderr, &e)) {
      fprintf(stderr, "multitree sim: %s\n", e.msg);
      rc = 2;
      break;
    }
    wall = mt_now() - t0;
    if (r.err_node >= 0) {
      if (r.router_err) fprintf(stderr, "multitree sim: router %d raised its %s flag on input port %d VC %d\n", r.rerr_node,
                                rerr_name[r.rerr_kind], r.rerr_port, r.rerr_vc);
      fprintf(stderr, "multitree sim: node %d's network interface stopped with error %d (%s) at cycle %llu\n", r.err_node, r.err_code,
              mt_ni_err_name(r.err_code), (unsigned long long)r.cycles);
      if (r.err_code == MT_NI_E_WATCHDOG || r.router_err) {
        fprintf(stderr, "multitree sim: what the network holds (first 200 lines; docs/reference/network.md \"Deadlock dump\"):\n");
        mt_net_dump(net, stderr, 200);
      }
      rc = 1;
      break;
    }
    /* the lower bound, once: the summary reports and asserts it, the --json summary records it */
    bdp = mt_net_bound(s.topo, &cfg, r.bytes, &bd, &be) ? NULL : &bd;
    if (print_summary(net, &cfg, &s, &t, &r, dt, bdp, &be)) rc = 1;
    printf("sim: %.2f s wall, %.0f cycles/s\n", wall, (double)r.cycles / wall);
    if (!r.correct && cfg.data != MT_NET_DATA_NONE) {
      fprintf(stderr, "multitree sim: %llu words differ from the reference (summed over nodes)%s\n", (unsigned long long)r.wrong_words,
              nruns > 1 ? " in this all-reduce" : "");
      rc = 1;
    }
    if (r.router_err) {
      fprintf(stderr, "multitree sim: router %d raised its %s flag on input port %d VC %d\n", r.rerr_node, rerr_name[r.rerr_kind],
              r.rerr_port, r.rerr_vc);
      rc = 1;
    }
  }
  if (trf) {
    mt_net_set_trace(net, NULL);
    if (mt_out_close(&trout, 1)) {
      fprintf(stderr, "multitree sim: --trace %s: write failed: %s\n", o->trace, strerror(errno));
      rc = 2;
    }
  }
  if (rc == 2 || r.err_node >= 0) goto out;
  if (o->dump_dir) {
    if (mkdir(o->dump_dir, 0777) && errno != EEXIST) {
      fprintf(stderr, "multitree sim: %s: %s\n", o->dump_dir, strerror(errno));
      rc = 2;
    }
    for (int i = 0; i < s.n_nodes && rc != 2; i++)
      if (dump_words(o->dump_dir, i, "in", mt_net_input(net, i), s.bytes / 4) || dump_words(o->dump_dir, i, "out", mt_net_buffer(net, i), s.bytes / 4)) rc = 2;
  }
  if (o->json && write_json(o->json, t.spec, &s, &cfg, &r, dt, seed, wall, bdp)) rc = 2;
out:
  mt_net_free(net);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&tt);
  mt_topo_free(&t);
  return rc;
}
