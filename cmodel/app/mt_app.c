/* SPDX-License-Identifier: Apache-2.0
 * mt_app: option parsing and the helpers the subcommands share (mt_app.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "app/mt_app.h"
#include "util/mt_fp32.h"
#include "plan/mt_chunksched.h"
#include "plan/mt_ref.h"
#include "util/mt_time.h"
#include "util/mt_io.h"
#include "util/mt_num.h"

/* A byte count: a whole number, or one followed by K, M or G (KiB, MiB, GiB; "iB" or "B" may
 * follow), that fits 64 bits. */
static int parse_bytes(const char *s, const char *what, mt_err *e, uint64_t *out) {
  size_t n = strlen(s);
  uint64_t mul = 1, v;
  const char *u = s + strspn(s, "0123456789");
  if (u > s && (*u == 'k' || *u == 'K' || *u == 'm' || *u == 'M' || *u == 'g' || *u == 'G') && (!u[1] || !strcmp(u + 1, "iB") || !strcmp(u + 1, "B"))) {
    mul = *u == 'k' || *u == 'K' ? 1024 : *u == 'm' || *u == 'M' ? 1024 * 1024
                                                                 : 1024ull * 1024 * 1024;
    n = (size_t)(u - s);
  }
  if (mt_parse_u64n(s, n, 0, UINT64_MAX / mul, what, e, &v)) return -1;
  *out = v * mul;
  return 0;
}

const char *const mt_app_opt_names[MT_OPT_N] = {
  "--topo",
  "--algo",
  "--bytes",
  "--elem",
  "--local-ports",
  "--chunks",
  "--intra",
  "--progress",
  "--json",
  "--dot",
  "--print",
  "--quiet",
  "--format",
  "--compact",
  "--out",
  "--compare",
  "--dtype",
  "--seed",
  "--flow",
  "--config",
  "--set",
  "--dump-dir",
  "--trace",
  "--mem-limit",
  "--data",
  "--threads",
  "--level",
  "--expand",
  "--overlap",
  "--runs",
  "--fit",
  "FILE",
};

/* Options that take a string value, stored as given. */
static const struct {
  const char *name;
  size_t off;
} str_opts[] = {
  {"--topo", offsetof(mt_app_opts, topo)},
  {"--algo", offsetof(mt_app_opts, algo)},
  {"--json", offsetof(mt_app_opts, json)},
  {"--dot", offsetof(mt_app_opts, dot)},
  {"--format", offsetof(mt_app_opts, format)},
  {"--out", offsetof(mt_app_opts, out)},
  {"--compare", offsetof(mt_app_opts, compare)},
  {"--dtype", offsetof(mt_app_opts, dtype)},
  {"--flow", offsetof(mt_app_opts, flow)},
  {"--config", offsetof(mt_app_opts, config)},
  {"--dump-dir", offsetof(mt_app_opts, dump_dir)},
  {"--trace", offsetof(mt_app_opts, trace)},
  {"--data", offsetof(mt_app_opts, data)},
  {"--level", offsetof(mt_app_opts, level)},
  {"--fit", offsetof(mt_app_opts, fit)},
};

static int opt_fail(const char *cmd, const mt_err *e) {
  fprintf(stderr, "multitree %s: %s\n", cmd, e->msg);
  return -1;
}

int mt_app_parse_opts(int argc, char **argv, mt_app_opts *o) {
  mt_err e = {{0}};
  memset(o, 0, sizeof *o);
  o->elem = 4;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int bit = 0;
    while (bit < MT_OPT_FILE && strcmp(a, mt_app_opt_names[bit])) bit++;
    o->given |= 1ull << bit; /* MT_OPT_FILE: the operand, or an unknown option (refused below) */
    int k = 0, nstr = (int)(sizeof str_opts / sizeof str_opts[0]);
    while (k < nstr && strcmp(a, str_opts[k].name)) k++;
    const int takes_value = k < nstr || !strcmp(a, "--set") || !strcmp(a, "--seed") || !strcmp(a, "--bytes") ||
      !strcmp(a, "--mem-limit") || !strcmp(a, "--elem") || !strcmp(a, "--local-ports") || !strcmp(a, "--threads") || !strcmp(a, "--chunks") || !strcmp(a, "--intra") || !strcmp(a, "--runs");
    if (takes_value) {
      if (!v) {
        fprintf(stderr, "multitree: %s needs a value\n", a);
        return -1;
      }
      /* every option but --set once: a second value would silently win */
      for (int j = 2; j < i && strcmp(a, "--set"); j++)
        if (!strcmp(argv[j], a) && (j == 2 || strcmp(argv[j - 1], "--set"))) {
          fprintf(stderr, "multitree %s: %s given twice ('%s' and '%s')\n", argv[1], a, argv[j + 1], v);
          return -1;
        }
      i++;
    }
    if (k < nstr) *(const char **)((char *)o + str_opts[k].off) = v;
    else if (!strcmp(a, "--set")) {
      if (o->nsets == 32) {
        fprintf(stderr, "multitree: too many --set\n");
        return -1;
      }
      o->sets[o->nsets++] = v;
    } else if (!strcmp(a, "--seed")) {
      uint64_t x;
      if (mt_parse_u64(v, 0, UINT32_MAX, "--seed", &e, &x)) return opt_fail(argv[1], &e);
      o->seed = (uint32_t)x;
    } else if (!strcmp(a, "--bytes")) {
      if (parse_bytes(v, "--bytes (a byte count such as 67108864 or 64M)", &e, &o->bytes)) return opt_fail(argv[1], &e);
      o->have_bytes = 1;
    } else if (!strcmp(a, "--mem-limit")) {
      if (parse_bytes(v, "--mem-limit (a byte count such as 8G)", &e, &o->mem_limit)) return opt_fail(argv[1], &e);
    } else if (!strcmp(a, "--elem") || !strcmp(a, "--local-ports") || !strcmp(a, "--threads")) {
      int x;
      if (mt_parse_int(v, 1, 64, a, &e, &x)) return opt_fail(argv[1], &e);
      if (a[2] == 'e') o->elem = x;
      else if (a[2] == 't') o->threads = x;
      else o->local_ports = x;
    } else if (!strcmp(a, "--runs")) { /* sim: all-reduces back to back (docs/reference/network.md) */
      int x;
      if (mt_parse_int(v, 1, 1000, "--runs (all-reduces back to back)", &e, &x)) return opt_fail(argv[1], &e);
      o->runs = x;
    } else if (!strcmp(a, "--chunks")) { /* hier, themis: chunks per collective (docs/reference/themis.md) */
      int x;
      if (mt_parse_int(v, 1, 65536, "--chunks (chunks per collective)", &e, &x)) return opt_fail(argv[1], &e);
      mt_plan_opt.chunks = x;
      o->chunks = x; /* sim --level flow: run the chunk schedule itself (front end 2) */
    } else if (!strcmp(a, "--intra")) {
      if (strcmp(v, "fifo") && strcmp(v, "scf")) {
        fprintf(stderr, "multitree: --intra '%s': expected fifo or scf (the intra-dimension order of hier, themis and dimbal)\n", v);
        return -1;
      }
      mt_plan_opt.intra = strcmp(v, "fifo") ? MT_INTRA_SCF : MT_INTRA_FIFO;
    } else if (!strcmp(a, "--compact")) o->compact = 1;
    else if (!strcmp(a, "--expand")) o->expand = 1;
    else if (!strcmp(a, "--overlap")) o->overlap = 1;
    else if (!strcmp(a, "--print")) o->print = 1;
    else if (!strcmp(a, "--quiet")) o->quiet = 1;
    else if (!strcmp(a, "--progress")) mt_plan_progress = 1; /* also when stderr is not a terminal */
    else if (a[0] == '-') {
      fprintf(stderr, "multitree %s: unknown option '%s'\n", argv[1], a);
      return -1;
    } else if (!o->file) o->file = a;
    else {
      fprintf(stderr, "multitree %s: unexpected argument '%s'\n", argv[1], a);
      return -1;
    }
  }
  return 0;
}

int mt_app_plan_from_opts(const mt_app_opts *o, mt_topo *t, mt_sched *s, mt_tables *tb, double *secs) {
  mt_err e = {{0}};
  if (!o->topo || !o->algo || !o->have_bytes) {
    fprintf(stderr, "multitree: --topo, --algo and --bytes are required\n");
    return 2;
  }
  if (mt_topo_from_name(t, o->topo, &e)) {
    fprintf(stderr, "multitree: %s\n", e.msg);
    return 2;
  }
  double t0 = mt_now();
  if (mt_plan(s, t, o->algo, o->bytes, o->elem, &e)) {
    fprintf(stderr, "multitree: %s\n", e.msg);
    mt_topo_free(t);
    return 2;
  }
  if (tb && mt_sched_tables(s, o->local_ports, tb, &e)) {
    fprintf(stderr, "multitree: %s\n", e.msg);
    mt_sched_free(s);
    mt_topo_free(t);
    return 2;
  }
  if (secs) *secs = mt_now() - t0;
  return 0;
}

int mt_app_dtype(const char *cmd, const mt_app_opts *o, int *dtype) {
  *dtype = MT_DTYPE_INT32;
  if (o->dtype && !strcmp(o->dtype, "fp32")) *dtype = MT_DTYPE_FP32;
  else if (o->dtype && strcmp(o->dtype, "int32")) {
    fprintf(stderr, "multitree %s: --dtype '%s': expected int32 or fp32\n", cmd, o->dtype);
    return 2;
  }
  return 0;
}

int mt_app_whole_words(const char *cmd, const mt_app_opts *o) {
  if (o->have_bytes && o->bytes % 4) {
    fprintf(stderr, "multitree %s: %llu bytes is not a whole number of 4-byte elements\n", cmd, (unsigned long long)o->bytes);
    return 2;
  }
  return 0;
}

static void print_slot_list(FILE *f, const mt_entry *en) {
  if (en->nchild == 0) {
    fputc('-', f);
    return;
  }
  fputc('[', f);
  for (int c = 0; c < en->nchild; c++) fprintf(f, "%s%d", c ? "," : "", en->child[c].node);
  fputc(']', f);
}

/* parent "root" for the tree's root */
void mt_app_print_tables(FILE *f, const mt_tables *tb) {
  for (int n = 0; n < tb->n_nodes; n++) {
    fprintf(f, "node %d:", n);
    const mt_entry *en = mt_node_entries(tb, n);
    for (int i = 0; i < tb->count[n]; i++) {
      if (en[i].op == MT_OP_NOP) {
        fprintf(f, " nop(%d)", en[i].step);
        continue;
      }
      fprintf(f, " %s(%d,", mt_op_name(en[i].op), en[i].flow);
      if (en[i].has_parent) fprintf(f, "%d,", en[i].parent.node);
      else fprintf(f, "root,");
      print_slot_list(f, &en[i]);
      fprintf(f, ",%d)", en[i].step);
    }
    fputc('\n', f);
  }
}

/* Peak resident memory of this process so far (getrusage; Linux reports KiB), 0: unknown. */
uint64_t mt_app_peak_rss(void) {
  struct rusage u;
  return getrusage(RUSAGE_SELF, &u) ? 0 : (uint64_t)u.ru_maxrss * 1024u;
}

/* The summary j (NULL: it could not be built) as one line of JSON into path, keys in order;
 * j is released. 0, or -1 (message printed). */
int mt_app_json_write(const char *cmd, const char *path, json_t *j) {
  mt_out out;
  FILE *f = j ? mt_out_open(&out, path, "w") : NULL;
  int rc = 0;
  if (!j) {
    fprintf(stderr, "multitree %s: %s: cannot build the summary\n", cmd, path);
    rc = -1;
  } else if (!f) {
    fprintf(stderr, "multitree %s: %s: %s\n", cmd, path, strerror(errno));
    rc = -1;
  } else {
    const int ok = !json_dumpf(j, f, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) && fputc('\n', f) != EOF;
    if (mt_out_close(&out, ok)) rc = -1;
    if (rc) fprintf(stderr, "multitree %s: %s: write failed: %s\n", cmd, path, strerror(errno ? errno : EIO));
  }
  json_decref(j);
  return rc;
}

/* --config (a built-in name, or a path: contains / or ends in .cfg; default small) and every
 * --set into cfg: 0, or 2 (message printed). */
int mt_app_net_cfg(const char *cmd, const mt_app_opts *o, mt_net_cfg *cfg) {
  mt_err e = {{0}};
  const char *cn = o->config ? o->config : "small";
  size_t cl = strlen(cn);
  if ((strchr(cn, '/') || (cl > 4 && !strcmp(cn + cl - 4, ".cfg")) ? mt_net_cfg_load(cfg, cn, &e) : mt_net_cfg_by_name(cfg, cn, &e))) {
    fprintf(stderr, "multitree %s: %s\n", cmd, e.msg);
    return 2;
  }
  for (int i = 0; i < o->nsets; i++)
    if (mt_net_cfg_set(cfg, o->sets[i], &e)) {
      fprintf(stderr, "multitree %s: %s\n", cmd, e.msg);
      return 2;
    }
  return 0;
}

int mt_app_flow(const char *cmd, const mt_app_opts *o, unsigned *flow) {
  *flow = MT_NET_FLOW_MESSAGE;
  if (o->flow && mt_net_flow_parse(o->flow, flow)) {
    fprintf(stderr, "multitree %s: --flow '%s': expected message or packet\n", cmd, o->flow);
    return 2;
  }
  return 0;
}

void mt_app_bound_json(json_t *j, const mt_bound *b, double cycles) {
  json_object_set_new(j, "per_node_bound_cycles", json_real(b->per_node));
  json_object_set_new(j, "cut_bound_cycles", json_real(b->cut));
  json_object_set_new(j, "cut_bound_family", json_string(mt_cut_family_name(b->cut_family)));
  json_object_set_new(j, "cut_bound_set_size", json_integer(b->cut_size));
  json_object_set_new(j, "average_bound_cycles", json_real(b->aggregate)); /* the aggregate bound */
  json_object_set_new(j, "bound_cycles", json_real(b->bound));
  json_object_set_new(j, "binding_bound", json_string(mt_bound_name(b->binding)));
  if (cycles > 0) {
    json_object_set_new(j, "per_node_bound_fraction", json_real(b->per_node / cycles));
    json_object_set_new(j, "cut_bound_fraction", json_real(b->cut / cycles));
    json_object_set_new(j, "average_bound_fraction", json_real(b->aggregate / cycles));
    json_object_set_new(j, "bound_fraction", json_real(b->bound / cycles));
  }
}

int mt_app_bound_report(const mt_bound *b, double time, const char *units, mt_err *e) {
  printf("sim: lower bound %.0f %s, the %s bound (%.1f%% of it achieved); per-node %.0f, cut %.0f (%s), aggregate %.0f\n", b->bound, units,
         mt_bound_name(b->binding), time > 0 ? 100.0 * b->bound / time : 0.0, b->per_node, b->cut, mt_cut_family_name(b->cut_family),
         b->aggregate);
  return mt_bound_assert(b, time, units, e);
}

void mt_app_flow_params(const mt_net_cfg *cfg, int local_ports, mt_flow_params *p) {
  mt_flow_params_cycles(p, (int)cfg->payload_w / 8, (int)cfg->link_lat, (int)cfg->vc_depth, (int)cfg->pkt_bytes, cfg->flow == MT_NET_FLOW_PACKET,
                        local_ports);
  p->num_vcs = (int)cfg->num_vcs; /* the head-of-line rule (docs/reference/flowsim.md) */
  p->stage_after = (int)cfg->ni_stage_after;
}
