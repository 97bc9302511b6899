/* SPDX-License-Identifier: Apache-2.0
 * multitree train: one training iteration of a DNN (workloads/<model>.csv) on the paper's
 * accelerators, with the all-reduce of its gradients on the cycle model (docs/reference/training.md).
 * Compute per layer from the committed scalesim table (workloads/cycles/<model>.csv) where it
 * has the layer, else from the output-stationary formula (train/mt_systolic.h); all-reduce
 * times from the network model run in-process (as sim, --data none: timing only), cached in
 * a file keyed by a hash of the resolved configuration, topology, algorithm, flow control and
 * level, the bytes and a hash of this binary. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "app/mt_app.h"
#include "flow/mt_flow.h"
#include "net/mt_rate_net.h"
#include "hw/mt_ni.h"
#include "net/mt_net.h"
#include "topo/mt_topo.h"
#include "util/mt_fp32.h"
#include "util/mt_io.h"
#include "util/mt_num.h"
#include "train/mt_iter.h"
#include "train/mt_systolic.h"
#include "train/mt_workload.h"

#define USAGE \
  "multitree train --model NAME|FILE.csv --topo T --algo A [--msg] [--overlap] [--config NAME|FILE] [--set k=v]...\n" \
  "                [--json FILE] [--cache FILE|none] [--cycles FILE|none] [--workloads DIR] [--seed S]\n" \
  "                [--level cycle|flow]\n" \
  "  One training iteration: forward, backward (input and weight gradients as GEMMs on 32x32\n" \
  "  output-stationary arrays, 16 PEs, 16 samples per accelerator: Table III) and the gradients'\n" \
  "  all-reduce on the cycle model (config default paper; 256-byte packets, --msg: message-based\n" \
  "  flow control). Without --overlap one all-reduce of all gradients after the backward pass; with\n" \
  "  it one per layer, queued when its weight gradient is ready, one at a time. Prints compute,\n" \
  "  exposed and overlapped communication and the total; --json the same per layer.\n" \
  "  --model: a name in --workloads (default workloads) or a file; --cycles: the compute table (default\n" \
  "  <workloads>/cycles/<model>.csv when it exists; none: the formula); --cache: all-reduce times\n" \
  "  (default build/train-cache.txt). --level flow: the all-reduces on the flow-level simulator\n" \
  "  (docs/reference/flowsim.md; validated against the cycle model, docs/reference/training.md) instead of the cycle model\n" \
  "  (cycle, default): seconds instead of hours on 64+ nodes.\n"

typedef struct {
  const char *model, *topo, *algo, *config, *json, *cache, *cycles, *wdir, *level;
  const char *sets[32];
  int nsets, msg, overlap, flow; /* flow: --level flow */
  uint32_t seed;
} train_opts;

static int is_path(const char *m) {
  size_t n = strlen(m);
  return strchr(m, '/') || (n > 4 && !strcmp(m + n - 4, ".csv"));
}

static int parse(int argc, char **argv, train_opts *o) {
  int seed_given = 0, wdir_given = 0;
  memset(o, 0, sizeof *o);
  o->config = "paper";
  o->cache = "build/train-cache.txt";
  o->wdir = "workloads";
  o->seed = 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(USAGE, stdout);
      return -1; /* done: the usage asked for */
    }
    if (!strcmp(a, "--msg")) o->msg = 1;
    else if (!strcmp(a, "--overlap")) o->overlap = 1;
    else {
      const char **dst = !strcmp(a, "--model") ? &o->model
        : !strcmp(a, "--topo")                 ? &o->topo
        : !strcmp(a, "--algo")                 ? &o->algo
        : !strcmp(a, "--config")               ? &o->config
        : !strcmp(a, "--json")                 ? &o->json
        : !strcmp(a, "--cache")                ? &o->cache
        : !strcmp(a, "--cycles")               ? &o->cycles
        : !strcmp(a, "--workloads")            ? &o->wdir
        : !strcmp(a, "--level")                ? &o->level
                                               : NULL;
      const int is_set = !strcmp(a, "--set"), is_seed = !strcmp(a, "--seed");
      if (!dst && !is_set && !is_seed) {
        fprintf(stderr, "multitree train: unknown option '%s'\n%s", a, USAGE);
        return 2;
      }
      if (i + 1 >= argc) {
        fprintf(stderr, "multitree train: %s needs a value\n", a);
        return 2;
      }
      const char *v = argv[++i];
      if (dst) {
        *dst = v;
        wdir_given |= dst == &o->wdir;
      } else if (is_seed) {
        seed_given = 1;
        uint64_t s;
        mt_err e = {{0}};
        if (mt_parse_u64(v, 0, UINT32_MAX, "--seed", &e, &s)) {
          fprintf(stderr, "multitree train: %s\n", e.msg);
          return 2;
        }
        o->seed = (uint32_t)s;
      } else if (o->nsets == 32) {
        fprintf(stderr, "multitree train: at most 32 --set\n");
        return 2;
      } else o->sets[o->nsets++] = v;
    }
  }
  if (!o->model || !o->topo || !o->algo) {
    fprintf(stderr, "multitree train: --model, --topo and --algo are required\n%s", USAGE);
    return 2;
  }
  if (o->level && strcmp(o->level, "cycle") && strcmp(o->level, "flow")) {
    fprintf(stderr, "multitree train: --level '%s': expected cycle (default: the cycle model) or flow (the flow-level simulator)\n", o->level);
    return 2;
  }
  o->flow = o->level && !strcmp(o->level, "flow");
  /* options that would be ignored are refused */
  if (o->flow && seed_given) {
    fprintf(stderr, "multitree train: --seed: not used by train --level flow (the flow level moves no data)\n");
    return 2;
  }
  if (is_path(o->model) && wdir_given) {
    fprintf(stderr, "multitree train: --workloads: not used with --model FILE.csv (the folder holds the named models)\n");
    return 2;
  }
  return 0;
}

/* 64-bit FNV-1a, continued from h over n bytes */
#define FNV_INIT UINT64_C(1469598103934665603)
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * UINT64_C(1099511628211);
  return h;
}
static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s) + 1); } /* with its NUL: "ab","c" != "a","bc" */
static uint64_t fnv_u64(uint64_t h, uint64_t v) { return fnv(h, &v, sizeof v); }
static uint64_t fnv_dbl(uint64_t h, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  return fnv_u64(h, u);
}

/* FNV-1a of this program's file: the cache key's "binary version" (a rebuilt model is new) */
static uint64_t self_hash(void) {
  FILE *f = fopen("/proc/self/exe", "rb");
  uint64_t h = FNV_INIT;
  unsigned char buf[65536];
  size_t n;
  while (f && (n = fread(buf, 1, sizeof buf, f)) > 0) h = fnv(h, buf, n);
  if (f) fclose(f);
  return h;
}

/* The hash of everything an all-reduce's time depends on besides its size and the binary:
 * every key of the resolved configuration (after base = and every --set), the topology as
 * built (its spec, vertices, every link with its ports, multiplicity, dimension, rate and
 * latency, each vertex's link preference order), the algorithm, the flow control, the
 * level and the seed. Contents, not names: a file edited in place gives another key. */
static uint64_t inputs_hash(const train_opts *o, const mt_net_cfg *cfg, const mt_topo *t) {
  uint64_t h = fnv_str(FNV_INIT, "train-inputs/1");
  int nk;
  const mt_cfg_key *k = mt_cfg_keys(&nk);
  for (int i = 0; i < nk; i++) {
    const char *p = (const char *)cfg + k[i].net_off;
    uint64_t u = 0;
    double d = 0;
    switch (k[i].net_type) {
    case 1: u = *(const unsigned *)(const void *)p; break;
    case 2: u = *(const uint32_t *)(const void *)p; break;
    case 3: u = *(const uint64_t *)(const void *)p; break;
    case 4: d = *(const double *)(const void *)p; break;
    default: continue; /* not a network key */
    }
    h = fnv_dbl(fnv_u64(fnv_str(h, k[i].key), u), d);
  }
  h = fnv_str(h, t->spec);
  const int ints[] = {t->kind, t->ndims, t->dim[0], t->dim[1], t->dim[2], t->n_nodes, t->n_sw, t->n_vert, t->n_links, t->max_ports};
  h = fnv(h, ints, sizeof ints);
  for (int i = 0; i < t->n_links; i++) {
    const mt_edge *l = &t->links[i];
    const int li[] = {l->src, l->dst, l->src_port, l->dst_port, l->mult, l->dim, l->dir, l->wrap};
    h = fnv_dbl(fnv_dbl(fnv(h, li, sizeof li), l->bw), l->lat);
  }
  h = fnv(h, t->out_start, (size_t)(t->n_vert + 1) * sizeof *t->out_start);
  h = fnv(h, t->out_list, (size_t)t->out_start[t->n_vert] * sizeof *t->out_list);
  h = fnv_str(fnv_str(h, o->algo), o->msg ? "message" : "packet");
  return fnv_u64(fnv_str(h, o->flow ? "flow" : "cycle"), o->seed);
}

/* The all-reduce cache: lines "train-cache/2 BINHASH KEYHASH FLOW BYTES CYCLES CHECK", the
 * hashes 16 hex digits (self_hash, inputs_hash), FLOW "packet" or "message" with "/flow" at
 * the flow level (for the reader; the key is in KEYHASH), BYTES and CYCLES decimal, CHECK the
 * FNV-1a of the line before " CHECK". */
#define CACHE_TAG "train-cache/2 "
typedef struct {
  uint64_t key, bytes, cycles;
} cache_ent;
typedef struct {
  cache_ent *e;
  int n, cap;
  uint64_t bin, key; /* this binary's and these inputs' hashes */
  const char *flow;  /* the FLOW field */
  const char *path;
  int unterminated; /* the file's last line has no '\n': the next append starts a line */
} cache_t;

static void cache_add(cache_t *c, uint64_t key, uint64_t bytes, uint64_t cyc) {
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 64;
    c->e = mt_xrealloc(c->e, (size_t)c->cap * sizeof *c->e);
  }
  c->e[c->n++] = (cache_ent){key, bytes, cyc};
}

/* A field of s up to the next ' ' (or the end): 16 hex digits (hex = 1, a hash) or a whole
 * number of 0..2^64-1 (mt_parse_u64n). The end of the field, or NULL. */
static const char *field_u64(const char *s, int hex, uint64_t *v) {
  const size_t n = strcspn(s, " ");
  if (!hex) return mt_parse_u64n(s, n, 0, UINT64_MAX, "cache field", NULL, v) ? NULL : s + n;
  uint64_t x = 0;
  if (n != 16) return NULL;
  for (size_t i = 0; i < n; i++) {
    const char c = s[i];
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return NULL;
    x = x << 4 | (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  *v = x;
  return s + n;
}

/* One line (without its '\n') into *ent for this binary: 1, 0 for a line of another binary or
 * version (not an error: caches are shared), -1 for a damaged line (*why says what). */
static int cache_parse(const cache_t *c, const char *line, cache_ent *ent, const char **why) {
  uint64_t bin, chk;
  const char *p = line, *f;
  *why = "not a " CACHE_TAG "line";
  if (!strncmp(p, "train-cache/", 12) && strncmp(p, CACHE_TAG, strlen(CACHE_TAG))) return 0; /* another version */
  if (strncmp(p, CACHE_TAG, strlen(CACHE_TAG))) return -1;
  p += strlen(CACHE_TAG);
  *why = "a field is not a number of the range 0..2^64-1";
  if (!(p = field_u64(p, 1, &bin)) || *p++ != ' ' || !(p = field_u64(p, 1, &ent->key)) || *p++ != ' ') return -1;
  if (!(f = strchr(p, ' ')) || !(p = field_u64(f + 1, 0, &ent->bytes)) || *p++ != ' ' || !(p = field_u64(p, 0, &ent->cycles))) return -1;
  const char *end = p;
  if (*p++ != ' ' || !(p = field_u64(p, 1, &chk)) || *p) return -1;
  *why = "its check hash does not match (a damaged or edited line)";
  if (fnv(FNV_INIT, line, (size_t)(end - line)) != chk) return -1;
  return bin == c->bin;
}

/* Lines of other binaries are kept as they are; a damaged line (a field that is not a number
 * of its range, a wrong check hash, no '\n' at the end) is ignored with a message: a miss.
 * 0, or -1 when the file is longer than MT_FILE_MAX or has a line longer than 600 bytes
 * (message printed). */
static int cache_read(cache_t *c) {
  FILE *f = c->path ? fopen(c->path, "r") : NULL;
  char *line = NULL;
  size_t cap = 0, total = 0;
  long len;
  int no = 0, bad = 0;
  while (f && (len = mt_getline(&line, &cap, f, 600)) > 0) {
    no++;
    if ((total += (size_t)len) > MT_FILE_MAX || len > 600) {
      fprintf(stderr, "multitree train: %s: %s; remove it or give another --cache\n", c->path,
              len > 600 ? "a line longer than 600 bytes (not a cache)" : "cache longer than the input limit");
      fclose(f);
      free(line);
      return -1;
    }
    const char *why = "no end of line (a truncated line)";
    cache_ent ent;
    int r = -1;
    c->unterminated = line[len - 1] != '\n';
    if (!c->unterminated) {
      line[len - 1] = 0;
      r = cache_parse(c, line, &ent, &why);
    }
    if (r > 0) cache_add(c, ent.key, ent.bytes, ent.cycles);
    else if (r < 0 && ++bad <= 3) fprintf(stderr, "multitree train: %s:%d: damaged cache line ignored: %s\n", c->path, no, why);
  }
  if (bad > 3) fprintf(stderr, "multitree train: %s: %d damaged cache lines ignored\n", c->path, bad);
  if (f) fclose(f);
  free(line);
  return 0;
}

static int cache_find(const cache_t *c, uint64_t bytes, uint64_t *cyc) {
  for (int i = c->n - 1; i >= 0; i--)
    if (c->e[i].key == c->key && c->e[i].bytes == bytes) {
      *cyc = c->e[i].cycles;
      return 1;
    }
  return 0;
}

/* One all-reduce of `bytes` on the cycle model (timing only), as `multitree sim` runs it. */
static int allreduce_cycles(const train_opts *o, uint64_t bytes, uint64_t *cyc) {
  mt_app_opts ao;
  memset(&ao, 0, sizeof ao);
  ao.topo = o->topo;
  ao.algo = o->algo;
  ao.config = o->config;
  ao.bytes = bytes;
  ao.have_bytes = 1;
  ao.elem = 4; /* fp32 words, as mt_app_parse_opts defaults it */
  ao.nsets = o->nsets;
  for (int i = 0; i < o->nsets; i++) ao.sets[i] = o->sets[i];
  mt_net_cfg cfg;
  if (mt_app_net_cfg("train", &ao, &cfg)) return 2;
  cfg.flow = o->msg ? MT_NET_FLOW_MESSAGE : MT_NET_FLOW_PACKET;
  cfg.data = MT_NET_DATA_NONE;
  cfg.threads = 1;
  ao.local_ports = (int)cfg.local_ports;
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  int rc = mt_app_plan_from_opts(&ao, &t, &s, &tb, NULL);
  if (rc) return rc;
  mt_err e = {{0}};
  if (o->flow) { /* as `multitree sim --level flow` runs it (mt_cmd_flowsim.c) */
    mt_flow_params p;
    mt_flow_result fr;
    const int ns = mt_flow_topo_has_bw(&t); /* links with GB/s and ns: the time in ns, as sim --level flow gives it */
    if (ns) {
      mt_flow_params_ns(&p);
      p.local_ports = (int)cfg.local_ports;
      p.pkt_mode = cfg.flow == MT_NET_FLOW_PACKET;
    } else mt_app_flow_params(&cfg, (int)cfg.local_ports, &p);
    if (mt_flow_run_sched(&s, &p, &fr, NULL, &e)) {
      fprintf(stderr, "multitree train: all-reduce of %" PRIu64 " bytes at the flow level: %s\n", bytes, e.msg);
      rc = 2;
    } else *cyc = (uint64_t)llround(ns ? fr.time * cfg.clock_ghz : fr.time); /* ns: in cycles of clock_ghz, as the compute */
    mt_tables_free(&tb);
    mt_sched_free(&s);
    mt_topo_free(&t);
    return rc;
  }
  mt_net_result r;
  memset(&r, 0, sizeof r);
  mt_net *net = mt_net_new(&cfg, &s, &tb, MT_DTYPE_FP32, &e);
  if (!net || mt_net_start(net, o->seed, &e) || mt_net_run(net, &r, stderr, &e)) {
    fprintf(stderr, "multitree train: all-reduce of %" PRIu64 " bytes: %s\n", bytes, e.msg);
    rc = 2;
  } else if (r.err_node >= 0 || r.router_err) {
    fprintf(stderr, "multitree train: all-reduce of %" PRIu64 " bytes: node %d's network interface stopped with error %d (%s)\n", bytes,
            r.err_node, r.err_code, r.err_node >= 0 ? mt_ni_err_name(r.err_code) : "router flag");
    rc = 1;
  } else {
    /* links with GB/s and ns: the network runs at its own clock (net/mt_rate_net.h); the time in
     * cycles of clock_ghz, as the compute */
    const double nghz = mt_rate_net_ghz(&t, &cfg);
    *cyc = nghz > 0 ? (uint64_t)llround((double)r.cycles / nghz * cfg.clock_ghz) : r.cycles;
  }
  mt_net_free(net);
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return rc;
}

/* Cycles of an all-reduce of `bytes` (rounded by the caller): from the cache, else run and
 * appended to it. */
static int cached_allreduce(const train_opts *o, cache_t *c, uint64_t bytes, uint64_t *cyc, int *ran) {
  if (cache_find(c, bytes, cyc)) return 0;
  fprintf(stderr, "train: all-reduce of %" PRIu64 " bytes (%s, %s%s)\n", bytes, o->algo, o->msg ? "message" : "packet", o->flow ? ", flow level" : "");
  int rc = allreduce_cycles(o, bytes, cyc);
  if (rc) return rc;
  (*ran)++;
  cache_add(c, c->key, bytes, *cyc);
  char line[160];
  int n = snprintf(line, sizeof line, CACHE_TAG "%016" PRIx64 " %016" PRIx64 " %s %" PRIu64 " %" PRIu64, c->bin, c->key, c->flow, bytes, *cyc);
  FILE *f = c->path ? fopen(c->path, "a") : NULL; /* one short line per append: whole or not at all */
  if (f) {
    fprintf(f, "%s%s %016" PRIx64 "\n", c->unterminated ? "\n" : "", line, fnv(FNV_INIT, line, (size_t)n));
    c->unterminated = 0;
    if (fclose(f)) fprintf(stderr, "multitree train: %s: cannot append: %s (result not cached)\n", c->path, strerror(errno));
  } else if (c->path) fprintf(stderr, "multitree train: %s: cannot append: %s (result not cached)\n", c->path, strerror(errno));
  return 0;
}

static json_t *layer_json(const mt_layer *l, const mt_iter_layer *il, uint64_t ar_bytes, int src) {
  return json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:s}", "name", l->name, "kind", mt_layer_kind_name(l->kind), "params",
                   (json_int_t)l->params, "forward", (json_int_t)il->fwd, "backward_input", (json_int_t)il->bwd_in, "backward_weight",
                   (json_int_t)il->bwd_w, "allreduce_bytes", (json_int_t)ar_bytes, "allreduce_cycles", (json_int_t)il->ar, "compute_source",
                   src ? "scalesim" : "formula");
}

int mt_app_train(int argc, char **argv) {
  train_opts o;
  int rc = parse(argc, argv, &o);
  if (rc) return rc < 0 ? 0 : rc;
  char path[4096], cpath[4096];
  mt_err e = {{0}};
  if (is_path(o.model)) snprintf(path, sizeof path, "%s", o.model);
  else snprintf(path, sizeof path, "%s/%s.csv", o.wdir, o.model);
  mt_workload w;
  if (mt_workload_load(&w, path, &e)) {
    fprintf(stderr, "multitree train: %s\n", e.msg);
    return 2;
  }
  /* the network first: a bad topology, algorithm or config is refused before any work */
  mt_app_opts ao;
  memset(&ao, 0, sizeof ao);
  ao.config = o.config;
  ao.nsets = o.nsets;
  for (int i = 0; i < o.nsets; i++) ao.sets[i] = o.sets[i];
  mt_net_cfg cfg;
  mt_topo t;
  if (mt_app_net_cfg("train", &ao, &cfg)) {
    mt_workload_free(&w);
    return 2;
  }
  if (mt_topo_from_name(&t, o.topo, &e)) {
    fprintf(stderr, "multitree train: %s\n", e.msg);
    mt_workload_free(&w);
    return 2;
  }
  const int nodes = t.n_nodes;
  const int dims = t.kind == MT_TOPO_DIMS;
  const uint64_t inputs = inputs_hash(&o, &cfg, &t);
  mt_topo_free(&t);
  if (dims) {
    fprintf(stderr, "multitree train: --topo %s: dims: topologies are not simulated at the cycle level here; use a torus, mesh or switch network\n",
            o.topo);
    mt_workload_free(&w);
    return 2;
  }
  if (o.flow && cfg.ni_model) {
    fprintf(stderr, "multitree train: --level flow models this project's NI; config %s has ni_model=%u (the paper simulator's NI): use --level cycle\n",
            o.config, cfg.ni_model);
    mt_workload_free(&w);
    return 2;
  }
  /* compute: the committed scalesim table where it has the layer, else the formula */
  const mt_accel acc = MT_ACCEL_PAPER;
  mt_layer_cycles *lc = mt_xcalloc((size_t)w.n, sizeof *lc);
  int *have = mt_xcalloc((size_t)w.n, sizeof *have);
  mt_iter_layer *il = mt_xcalloc((size_t)w.n, sizeof *il);
  uint64_t *arb = mt_xcalloc((size_t)w.n, sizeof *arb);
  int from_table = 0;
  if (o.cycles) snprintf(cpath, sizeof cpath, "%s", o.cycles);
  else {
    snprintf(cpath, sizeof cpath, "%s/cycles/%s.csv", is_path(o.model) ? "/nonexistent" : o.wdir, w.name);
    struct stat st;
    if (stat(cpath, &st)) snprintf(cpath, sizeof cpath, "none");
  }
  if (strcmp(cpath, "none") && mt_cycles_load(cpath, &w, lc, have, &e)) {
    fprintf(stderr, "multitree train: %s\n", e.msg);
    rc = 2;
    goto out;
  }
  const uint32_t spp = mt_accel_samples_per_pe(&acc);
  uint64_t fw = 0, bi = 0, bw = 0, lr = 0;
  for (int i = 0; i < w.n; i++) {
    const mt_layer_cycles f = mt_layer_os_cycles(&acc, &w.l[i], i == 0);
    if (have[i]) from_table++;
    else lc[i] = f;
    const uint64_t loc = mt_accel_local_reduce(&acc, w.l[i].params);
    il[i].fwd = lc[i].fwd * spp;
    il[i].bwd_in = lc[i].bwd_in * spp;
    il[i].bwd_w = lc[i].bwd_w * spp + loc; /* the PEs' gradients summed before the all-reduce */
    fw += il[i].fwd;
    bi += il[i].bwd_in;
    bw += lc[i].bwd_w * spp;
    lr += loc;
    /* each term is at most 2^48 cycles times spp (mt_workload.h); the sums are checked after
     * every layer, before they could wrap */
    if (fw > MT_ITER_MAX_CYCLES - bi || fw + bi > MT_ITER_MAX_CYCLES - bw || fw + bi + bw > MT_ITER_MAX_CYCLES - lr) {
      fprintf(stderr, "multitree train: %s: layer %d (%s): the compute of one iteration exceeds 2^%d cycles: allowed at most %" PRIu64 "\n",
              w.name, i + 1, w.l[i].name, MT_ITER_MAX_CYCLES_LOG2, MT_ITER_MAX_CYCLES);
      rc = 2;
      goto out;
    }
  }
  /* all-reduce sizes: the gradient bytes rounded up to a multiple of 4 x nodes (every node's
   * share whole fp32 words; the planner needs at least one word per flow, at most N flows) */
  cache_t c;
  memset(&c, 0, sizeof c);
  c.path = strcmp(o.cache, "none") ? o.cache : NULL;
  char cfgkey[256];
  int k = snprintf(cfgkey, sizeof cfgkey, "%s", o.config);
  for (int i = 0; i < o.nsets && k < (int)sizeof cfgkey; i++) k += snprintf(cfgkey + k, sizeof cfgkey - (size_t)k, "+%s", o.sets[i]);
  c.bin = self_hash();
  c.key = inputs;
  c.flow = o.flow ? (o.msg ? "message/flow" : "packet/flow") : (o.msg ? "message" : "packet");
  if (cache_read(&c)) {
    rc = 2;
    goto out;
  }
  const uint64_t q = 4u * (uint64_t)nodes;
  uint64_t total_bytes = 0, ar_all = 0;
  int ran = 0, nar = 0;
  for (int i = 0; i < w.n; i++) {
    arb[i] = (w.l[i].grad_bytes + q - 1) / q * q;
    total_bytes += w.l[i].grad_bytes;
  }
  const uint64_t all_bytes = (total_bytes + q - 1) / q * q;
  if (o.overlap) {
    for (int i = 0; i < w.n && !rc; i++)
      if (arb[i]) {
        fprintf(stderr, "train: layer %d of %d (%s)\n", i + 1, w.n, w.l[i].name);
        rc = cached_allreduce(&o, &c, arb[i], &il[i].ar, &ran);
        nar++;
      }
  } else rc = cached_allreduce(&o, &c, all_bytes, &ar_all, &ran);
  free(c.e);
  if (rc) goto out;
  const mt_iter_result r = mt_iter_run(il, w.n, ar_all, o.overlap);
  const double ghz = cfg.clock_ghz > 0 ? cfg.clock_ghz : 1.0;
  printf("train: %s (%d layers, %" PRIu64 " parameters, %" PRIu64 " gradient bytes) on %s, %s %s, config %s, %s\n", w.name, w.n,
         mt_workload_params(&w), total_bytes, o.topo, o.algo, o.msg ? "messages" : "packets", cfgkey,
         o.overlap ? "layer-wise all-reduce overlapped with the backward pass" : "one all-reduce after the backward pass");
  printf("train: compute %" PRIu64 " cycles (forward %" PRIu64 ", input gradients %" PRIu64 ", weight gradients %" PRIu64
         ", local reduction %" PRIu64 "; %d of %d layers from %s, the rest from the OS formula)\n",
         r.compute, fw, bi, bw, lr, from_table, w.n, strcmp(cpath, "none") ? cpath : "a scalesim table (none)");
  printf("train: all-reduce %" PRIu64 " cycles (%s%s), exposed %" PRIu64 ", overlapped %" PRIu64 "\n", r.comm,
         o.overlap ? "sum of the layers'" : "all gradients at once", o.flow ? "; flow level" : "", r.exposed, r.overlapped);
  printf("train: total %" PRIu64 " cycles = %.3f ms; communication %.1f%% of it exposed; %d all-reduces simulated now\n", r.total,
         (double)r.total / ghz / 1e6, 100.0 * (double)r.exposed / (double)r.total, ran);
  if (o.json) {
    json_t *layers = json_array();
    for (int i = 0; i < w.n; i++) json_array_append_new(layers, layer_json(&w.l[i], &il[i], arb[i], have[i]));
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:i, s:I, s:I, s:{s:i, s:i, s:i, s:i}, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
                          "s:I, s:I, s:o, s:s}",
                          "format", "multitree-train/1", "model", w.name, "topology", o.topo, "algorithm", o.algo, "flow",
                          o.msg ? "message" : "packet", "config", cfgkey, "overlap", o.overlap, "nodes", nodes, "params",
                          (json_int_t)mt_workload_params(&w), "gradient_bytes", (json_int_t)total_bytes, "accelerator", "pes", (int)acc.pes,
                          "rows", (int)acc.rows, "cols", (int)acc.cols, "batch", (int)acc.batch, "allreduce_bytes",
                          (json_int_t)(o.overlap ? 0 : all_bytes), "forward_cycles", (json_int_t)fw, "backward_input_cycles", (json_int_t)bi,
                          "backward_weight_cycles", (json_int_t)bw, "local_reduce_cycles", (json_int_t)lr, "compute_cycles",
                          (json_int_t)r.compute, "allreduce_cycles", (json_int_t)r.comm, "exposed_cycles", (json_int_t)r.exposed,
                          "overlapped_cycles", (json_int_t)r.overlapped, "total_cycles", (json_int_t)r.total, "layers", layers, "level", o.flow ? "flow" : "cycle");
    if (mt_app_json_write("train", o.json, j)) rc = 2;
  }
out:
  free(lc);
  free(have);
  free(il);
  free(arb);
  mt_workload_free(&w);
  return rc;
}
