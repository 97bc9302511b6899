/* SPDX-License-Identifier: Apache-2.0
 * multitree: command-line front end of the planner.
 *   multitree plan   --topo T --algo A --bytes N [--json F] [--dot F] [--print]
 *   multitree rom    --topo T --algo A --bytes N --format hex|mif|coe|mem|bin|h [--compact] --out DIR
 *   multitree check  FILE.json | --topo T --algo A --bytes N
 *   multitree decode DIR [--compare FILE.json | --topo T --algo A --bytes N] [--print]
 *   multitree sizes  [--bytes N]
 * Exit status: 0 success, 1 a check or comparison found a violation, 2 bad input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "plan/mt_check.h"
#include "util/mt_time.h"
#include "table/mt_dot.h"
#include "table/mt_json.h"
#include "util/mt_fp32.h"
#include "table/mt_layout.h"
#include "net/mt_net.h"
#include "plan/mt_ref.h"
#include "table/mt_rom.h"
#include "plan/mt_sched.h"

int mt_cli_shape(int argc, char **argv); /* `multitree shape`, cmodel/app/mt_shape.c */

typedef struct {
  const char *topo, *algo, *json, *dot, *format, *out, *compare, *file;
  const char *dtype, *flow, *config, *dump_dir, *trace;
  const char *sets[32]; int nsets;
  uint64_t bytes; int have_bytes, elem, local_ports, compact, print, quiet;
  uint32_t seed;
} opts;


static void usage(FILE *f, const char *cmd) {
  if (!cmd || !strcmp(cmd, "plan"))
    fprintf(f, "multitree plan --topo T --algo A --bytes N [--elem B] [--local-ports L] [--json FILE] [--dot FILE] [--print] [--quiet]\n"
               "  Build an all-reduce schedule and its per-node schedule tables.\n");
  if (!cmd || !strcmp(cmd, "rom"))
    fprintf(f, "multitree rom --topo T --algo A --bytes N --format hex|mif|coe|mem|bin|h [--compact] --out DIR\n"
               "  Write one ROM image of the schedule table per node (DIR/node<i>.<fmt>) and DIR/layout.json.\n");
  if (!cmd || !strcmp(cmd, "check"))
    fprintf(f, "multitree check FILE.json | --topo T --algo A --bytes N\n"
               "  Prove a schedule correct by running its tables symbolically; exit 1 on any violation.\n");
  if (!cmd || !strcmp(cmd, "decode"))
    fprintf(f, "multitree decode DIR [--compare FILE.json | --topo T --algo A --bytes N] [--print]\n"
               "  Read ROM images back; with a schedule to compare, exit 1 unless the tables are identical.\n");
  if (!cmd || !strcmp(cmd, "ref"))
    fprintf(f, "multitree ref --topo T --algo A --bytes N [--dtype int32|fp32] [--seed S]\n"
               "  Untimed all-reduce of seeded inputs through the schedule tables (the reference the\n"
               "  cycle models are checked against); int32 is compared with the exact sum.\n");
  if (!cmd || !strcmp(cmd, "sim"))
    fprintf(f, "multitree sim --topo T --algo A --bytes N [--dtype int32|fp32] [--flow message|packet] [--config NAME|FILE]\n"
               "              [--set name=value]... [--seed S] [--json FILE] [--dump-dir DIR] [--trace FILE]\n"
               "  Cycle-accurate all-reduce on a torus or mesh (routers + network interfaces + links), checked\n"
               "  against the reference sums; a wrong result exits 1. --config: configs/net/NAME.cfg (built in:\n"
               "  paper, small; default small) or a file path; keys for the file and --set: multitree shape --keys.\n");
  if (!cmd || !strcmp(cmd, "sizes"))
    fprintf(f, "multitree sizes [--bytes N]\n  Table sizes (full and compact layouts) for MultiTree on 4x4..32x32 tori.\n");
  if (!cmd)
    fprintf(f, "multitree shape --keys | --gflags FILE | --cflags FILE | --chparam FILE | --check FILE\n"
               "  Hardware shapes as files (configs/{net,router,ni}/NAME.cfg): the keys, or a file's flags.\n");
  if (!cmd)
    fprintf(f, "\nTopologies: torus:XxY[xZ] mesh:XxY[xZ] ring:N fattree:K,L dgx2 bigraph:MxN file:PATH\n"
               "Algorithms: multitree ring ring2d dbtree hd hdrm\n"
               "Sizes take K, M, G suffixes (powers of 1024), e.g. --bytes 64M.\n");
}

static int parse_bytes(const char *s, uint64_t *out) {
  char *end; errno = 0;
  if (*s == '-' ) return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno) return -1;
  uint64_t mul = 1;
  if (*end == 'k' || *end == 'K') { mul = 1024; end++; }
  else if (*end == 'm' || *end == 'M') { mul = 1024 * 1024; end++; }
  else if (*end == 'g' || *end == 'G') { mul = 1024ull * 1024 * 1024; end++; }
  if (mul > 1 && (!strcmp(end, "iB") || !strcmp(end, "B"))) end += strlen(end);
  if (*end) return -1;
  if (v > UINT64_MAX / mul) return -1;
  *out = v * mul; return 0;
}

static int parse_opts(int argc, char **argv, opts *o) {
  memset(o, 0, sizeof *o);
  o->elem = 4;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEED() do { if (!v) { fprintf(stderr, "multitree: %s needs a value\n", a); return -1; } i++; } while (0)
    if (!strcmp(a, "--topo")) { NEED(); o->topo = v; }
    else if (!strcmp(a, "--algo")) { NEED(); o->algo = v; }
    else if (!strcmp(a, "--json")) { NEED(); o->json = v; }
    else if (!strcmp(a, "--dot")) { NEED(); o->dot = v; }
    else if (!strcmp(a, "--format")) { NEED(); o->format = v; }
    else if (!strcmp(a, "--out")) { NEED(); o->out = v; }
    else if (!strcmp(a, "--compare")) { NEED(); o->compare = v; }
    else if (!strcmp(a, "--dtype")) { NEED(); o->dtype = v; }
    else if (!strcmp(a, "--flow")) { NEED(); o->flow = v; }
    else if (!strcmp(a, "--config")) { NEED(); o->config = v; }
    else if (!strcmp(a, "--dump-dir")) { NEED(); o->dump_dir = v; }
    else if (!strcmp(a, "--trace")) { NEED(); o->trace = v; }
    else if (!strcmp(a, "--set")) { NEED(); if (o->nsets == 32) { fprintf(stderr, "multitree: too many --set\n"); return -1; } o->sets[o->nsets++] = v; }
    else if (!strcmp(a, "--seed")) {
      NEED();
      char *end; errno = 0; unsigned long x = strtoul(v, &end, 10);
      if (end == v || *end || errno || x > 0xFFFFFFFFul) { fprintf(stderr, "multitree: --seed '%s': expected 0..4294967295\n", v); return -1; }
      o->seed = (uint32_t)x;
    }
    else if (!strcmp(a, "--bytes")) {
      NEED();
      if (parse_bytes(v, &o->bytes)) { fprintf(stderr, "multitree: --bytes '%s': expected a byte count such as 67108864 or 64M\n", v); return -1; }
      o->have_bytes = 1;
    } else if (!strcmp(a, "--elem") || !strcmp(a, "--local-ports")) {
      NEED();
      char *end; errno = 0; long x = strtol(v, &end, 10);
      if (end == v || *end || errno || x < 1 || x > 64) { fprintf(stderr, "multitree: %s '%s': expected 1..64\n", a, v); return -1; }
      if (a[2] == 'e') o->elem = (int)x; else o->local_ports = (int)x;
    }
    else if (!strcmp(a, "--compact")) o->compact = 1;
    else if (!strcmp(a, "--print")) o->print = 1;
    else if (!strcmp(a, "--quiet")) o->quiet = 1;
    else if (a[0] == '-') { fprintf(stderr, "multitree %s: unknown option '%s'\n", argv[1], a); return -1; }
    else if (!o->file) o->file = a;
    else { fprintf(stderr, "multitree %s: unexpected argument '%s'\n", argv[1], a); return -1; }
#undef NEED
  }
  return 0;
}

/* Plan from --topo/--algo/--bytes into s (topology into t) and derive the tables. */
static int plan_from_opts(const opts *o, mt_topo *t, mt_sched *s, mt_tables *tb, double *secs) {
  mt_err e = {{0}};
  if (!o->topo || !o->algo || !o->have_bytes) { fprintf(stderr, "multitree: --topo, --algo and --bytes are required\n"); return 2; }
  if (mt_topo_from_name(t, o->topo, &e)) { fprintf(stderr, "multitree: %s\n", e.msg); return 2; }
  double t0 = mt_now();
  if (mt_plan(s, t, o->algo, o->bytes, o->elem, &e)) { fprintf(stderr, "multitree: %s\n", e.msg); mt_topo_free(t); return 2; }
  if (mt_sched_tables(s, o->local_ports, tb, &e)) { fprintf(stderr, "multitree: %s\n", e.msg); mt_sched_free(s); mt_topo_free(t); return 2; }
  if (secs) *secs = mt_now() - t0;
  return 0;
}

static void print_slot_list(FILE *f, const mt_entry *en) {
  if (en->nchild == 0) { fputc('-', f); return; }
  fputc('[', f);
  for (int c = 0; c < en->nchild; c++) fprintf(f, "%s%d", c ? "," : "", en->child[c].node);
  fputc(']', f);
}

/* Fig. 5 notation: op(flow,parent,children,step); parent "root" for the tree's root */
static void print_tables(FILE *f, const mt_tables *tb) {
  for (int n = 0; n < tb->n_nodes; n++) {
    fprintf(f, "node %d:", n);
    const mt_entry *en = mt_node_entries(tb, n);
    for (int i = 0; i < tb->count[n]; i++) {
      if (en[i].op == MT_OP_NOP) { fprintf(f, " nop(%d)", en[i].step); continue; }
      fprintf(f, " %s(%d,", mt_op_name(en[i].op), en[i].flow);
      if (en[i].has_parent) fprintf(f, "%d,", en[i].parent.node); else fprintf(f, "root,");
      print_slot_list(f, &en[i]);
      fprintf(f, ",%d)", en[i].step);
    }
    fputc('\n', f);
  }
}

static void summary(const mt_sched *s, const mt_tables *tb, double secs) {
  long nred = 0, ngat = 0, nnop = 0, nmh = 0;
  for (int i = 0; i < tb->n_entries; i++) {
    if (tb->entries[i].op == MT_OP_REDUCE) nred++; else if (tb->entries[i].op == MT_OP_GATHER) ngat++; else nnop++;
  }
  for (int i = 0; i < s->nx; i++) nmh += s->x[i].multihop;
  printf("%s on %s: %d nodes, %d flows, %llu bytes (%llu..%llu per flow)\n", s->algo, s->topo->spec, s->n_nodes, s->n_flows,
         (unsigned long long)s->bytes, (unsigned long long)s->chunk[s->n_flows - 1].size, (unsigned long long)s->chunk[0].size);
  printf("steps: %d = %d reduce-scatter + %d all-gather\n", s->steps, s->reduce_steps, s->steps - s->reduce_steps);
  printf("transfers: %d (%ld multi-hop)\n", s->nx, nmh);
  printf("tables: %ld reduce, %ld gather, %ld nop entries; at most %d entries per node and %d children per entry\n",
         nred, ngat, nnop, tb->max_entries, tb->max_children);
  if (secs >= 0) printf("planned in %.3f s\n", secs);
}

static int cmd_plan(const opts *o) {
  mt_topo t; mt_sched s; mt_tables tb; mt_err e = {{0}};
  double secs = 0;
  int rc = plan_from_opts(o, &t, &s, &tb, &secs);
  if (rc) return rc;
  if (!o->quiet) summary(&s, &tb, secs);
  if (o->print) print_tables(stdout, &tb);
  if (o->json && mt_json_write(&s, &tb, o->json, &e)) { fprintf(stderr, "multitree: %s\n", e.msg); rc = 2; }
  if (!rc && o->dot && mt_dot_write(&s, o->dot, &e)) { fprintf(stderr, "multitree: %s\n", e.msg); rc = 2; }
  mt_tables_free(&tb); mt_sched_free(&s); mt_topo_free(&t);
  return rc;
}

static int cmd_rom(const opts *o) {
  if (!o->format || !o->out) { fprintf(stderr, "multitree rom: --format and --out are required\n"); return 2; }
  int fmt = mt_rom_format(o->format);
  if (fmt < 0) { fprintf(stderr, "multitree rom: unknown format '%s' (hex, mif, coe, mem, bin, h)\n", o->format); return 2; }
  mt_topo t; mt_sched s; mt_tables tb; mt_layout ly; mt_err e = {{0}};
  int rc = plan_from_opts(o, &t, &s, &tb, NULL);
  if (rc) return rc;
  if (mt_layout_for(&s, &tb, o->compact, &ly, &e) || mt_rom_write_dir(&s, &tb, &ly, fmt, o->out, &e)) {
    fprintf(stderr, "multitree rom: %s\n", e.msg); rc = 2;
  } else if (!o->quiet) {
    int D = mt_layout_depth(&tb);
    printf("%s: %d images of %d words x %d bits (%s layout) = %.1f KiB per node, in %s/node<i>.%s\n", s.algo, s.n_nodes, D, ly.width,
           o->compact ? "compact" : "full", (double)D * ly.width / 8 / 1024, o->out, mt_rom_format_name(fmt));
  }
  mt_tables_free(&tb); mt_sched_free(&s); mt_topo_free(&t);
  return rc;
}

static int cmd_check(const opts *o) {
  mt_topo t; mt_sched s; mt_tables tb; mt_err e = {{0}};
  int rc;
  if (o->file) {
    if (mt_json_read(o->file, &t, &s, &tb, &e)) { fprintf(stderr, "multitree check: %s\n", e.msg); return 2; }
    s.topo = &t;
  } else if ((rc = plan_from_opts(o, &t, &s, &tb, NULL))) return rc;
  mt_check_report r;
  if (mt_check(&s, &tb, stdout, &r, &e)) { fprintf(stderr, "multitree check: %s\n", e.msg); rc = 2; }
  else {
    printf("check: %s on %s, %d nodes, %d flows: %s\n", s.algo, t.spec, s.n_nodes, s.n_flows, r.violations ? "VIOLATIONS" : "OK");
    printf("steps: %d = %d reduce-scatter + %d all-gather; all-gather lower bound %d (diameter %d)\n", r.steps, r.reduce_steps,
           r.gather_steps, r.lower_bound, r.diameter);
    printf("transfers: %ld (%ld multi-hop); most messages on one link in one step: %d; most sender-receiver pairs: %d%s\n",
           r.transfers, r.multihop, r.max_link_load, r.max_link_pairs, s.one_hop ? " (one-hop schedule: contention-free required)" : "");
    if (r.violations) printf("violations: %d\n", r.violations);
    rc = r.violations ? 1 : 0;
  }
  mt_tables_free(&tb); mt_sched_free(&s); mt_topo_free(&t);
  return rc;
}

static int slot_eq(const mt_slot *a, const mt_slot *b) { return a->node == b->node && a->port == b->port && a->eject == b->eject; }

/* Entry-by-entry comparison; prints the first differences, returns how many nodes differ. */
static int compare_tables(const mt_tables *a, const mt_tables *b) {
  int bad = 0;
  if (a->n_nodes != b->n_nodes) { printf("node count differs: %d vs %d\n", a->n_nodes, b->n_nodes); return 1; }
  for (int n = 0; n < a->n_nodes; n++) {
    const mt_entry *x = mt_node_entries(a, n), *y = mt_node_entries(b, n);
    int diff = a->count[n] != b->count[n] ? 0 : -1;
    for (int i = 0; diff < 0 && i < a->count[n]; i++) {
      int same = x[i].op == y[i].op && x[i].step == y[i].step && x[i].addr == y[i].addr && x[i].size == y[i].size &&
                 (x[i].op == MT_OP_NOP || (x[i].flow == y[i].flow && x[i].has_parent == y[i].has_parent &&
                  (!x[i].has_parent || slot_eq(&x[i].parent, &y[i].parent)) && x[i].nchild == y[i].nchild));
      for (int c = 0; same && c < x[i].nchild; c++) same = slot_eq(&x[i].child[c], &y[i].child[c]);
      if (!same) diff = i;
    }
    if (diff >= 0) {
      if (bad < 10) printf("node %d differs at entry %d (%d vs %d entries)\n", n, diff, a->count[n], b->count[n]);
      bad++;
    }
  }
  return bad;
}

static int cmd_decode(const opts *o) {
  if (!o->file) { fprintf(stderr, "multitree decode: name the directory of images\n"); return 2; }
  mt_topo t; mt_layout ly; mt_tables tb; mt_err e = {{0}};
  if (mt_rom_read_dir(o->file, &t, &ly, &tb, &e)) { fprintf(stderr, "multitree decode: %s\n", e.msg); return 2; }
  printf("decode: %s: %d nodes, %d entries, %s layout of %d bits\n", o->file, tb.n_nodes, tb.n_entries, ly.compact ? "compact" : "full", ly.width);
  if (o->print) print_tables(stdout, &tb);
  int rc = 0;
  if (o->compare || o->topo) {
    mt_topo t2; mt_sched s2; mt_tables tb2;
    if (o->compare) {
      if (mt_json_read(o->compare, &t2, &s2, &tb2, &e)) { fprintf(stderr, "multitree decode: %s\n", e.msg); rc = 2; goto out; }
    } else if ((rc = plan_from_opts(o, &t2, &s2, &tb2, NULL))) goto out;
    int bad = compare_tables(&tb2, &tb);
    printf("decode: %s\n", bad ? "tables DIFFER" : "identical to the schedule's tables");
    rc = bad ? 1 : 0;
    mt_tables_free(&tb2); mt_sched_free(&s2); mt_topo_free(&t2);
  }
out:
  mt_tables_free(&tb); mt_topo_free(&t);
  return rc;
}

static int cmd_sizes(const opts *o) {
  uint64_t bytes = o->have_bytes ? o->bytes : 64ull << 20;
  static const int side[] = {4, 8, 16, 32};
  printf("| N | torus | entries/node | full bits | full table | compact bits | compact table | paper (2N x 200 bits) |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < 4; i++) {
    char name[32]; snprintf(name, sizeof name, "torus:%dx%d", side[i], side[i]);
    mt_topo t; mt_sched s; mt_tables tb; mt_layout full, comp; mt_err e = {{0}};
    if (mt_topo_from_name(&t, name, &e) || mt_plan(&s, &t, "multitree", bytes, 4, &e) || mt_sched_tables(&s, 0, &tb, &e) ||
        mt_layout_for(&s, &tb, 0, &full, &e) || mt_layout_for(&s, &tb, 1, &comp, &e)) { fprintf(stderr, "multitree sizes: %s\n", e.msg); return 2; }
    int N = s.n_nodes, D = mt_layout_depth(&tb);
    printf("| %d | %s | %d (+1 END) | %d | %.2f KiB | %d | %.2f KiB | %.2f KiB |\n", N, name, tb.max_entries, full.width,
           (double)D * full.width / 8 / 1024, comp.width, (double)D * comp.width / 8 / 1024, 2.0 * N * 200 / 8 / 1024);
    mt_tables_free(&tb); mt_sched_free(&s); mt_topo_free(&t);
  }
  printf("(buffer %llu bytes; field widths in docs/formats.md)\n", (unsigned long long)bytes);
  return 0;
}

static int cmd_ref(const opts *o) {
  int dtype = MT_DTYPE_INT32;
  if (o->dtype && !strcmp(o->dtype, "fp32")) dtype = MT_DTYPE_FP32;
  else if (o->dtype && strcmp(o->dtype, "int32")) { fprintf(stderr, "multitree ref: --dtype '%s': expected int32 or fp32\n", o->dtype); return 2; }
  if (o->have_bytes && o->bytes % 4) { fprintf(stderr, "multitree ref: %llu bytes is not a whole number of 4-byte elements\n", (unsigned long long)o->bytes); return 2; }
  mt_topo t; mt_sched s; mt_tables tb; mt_err e = {{0}};
  int rc = plan_from_opts(o, &t, &s, &tb, NULL);
  if (rc) return rc;
  const int N = s.n_nodes; const uint64_t nw = s.bytes / 4;
  uint32_t **in = mt_xcalloc((size_t)N, sizeof *in), *out = mt_xcalloc(nw, 4);
  for (int n = 0; n < N; n++) { in[n] = mt_xcalloc(nw, 4); mt_ref_inputs(o->seed, n, dtype, in[n], nw); }
  double t0 = mt_now();
  if (mt_ref_result(&s, &tb, dtype, in, out, &e)) { fprintf(stderr, "multitree ref: %s\n", e.msg); rc = 2; }
  else {
    uint64_t bad = 0; uint32_t hash = 2166136261u;
    for (uint64_t k = 0; k < nw; k++) {
      hash = (hash ^ out[k]) * 16777619u;
      if (dtype == MT_DTYPE_INT32) { uint32_t sum = 0; for (int n = 0; n < N; n++) sum += in[n][k]; bad += sum != out[k]; }
    }
    printf("ref: %s on %s, %llu bytes of %s, seed %u: result FNV-1a %08x", s.algo, t.spec, (unsigned long long)s.bytes,
           dtype == MT_DTYPE_FP32 ? "fp32" : "int32", o->seed, hash);
    if (dtype == MT_DTYPE_INT32) printf(", %s (%llu of %llu elements differ from the exact sum)\n", bad ? "WRONG" : "exact", (unsigned long long)bad, (unsigned long long)nw);
    else printf(" (summation order: docs/interfaces.md)\n");
    printf("ref: %.3f s\n", mt_now() - t0);
    rc = bad ? 1 : 0;
  }
  for (int n = 0; n < N; n++) free(in[n]);
  free(in); free(out);
  mt_tables_free(&tb); mt_sched_free(&s); mt_topo_free(&t);
  return rc;
}

static int dump_words(const char *dir, int node, const char *what, const uint32_t *w, uint64_t n) {
  char path[4096]; snprintf(path, sizeof path, "%s/node%d.%s.bin", dir, node, what);
  FILE *f = fopen(path, "wb");
  if (!f) { fprintf(stderr, "multitree sim: %s: cannot create: %s\n", path, strerror(errno)); return -1; }
  for (uint64_t k = 0; k < n; k++) { unsigned char b[4] = {(unsigned char)w[k], (unsigned char)(w[k] >> 8), (unsigned char)(w[k] >> 16), (unsigned char)(w[k] >> 24)}; fwrite(b, 1, 4, f); }
  return fclose(f) ? -1 : 0;
}

static int cmd_sim(const opts *o) {
  mt_err e = {{0}};
  mt_net_cfg cfg;
  const char *cn = o->config ? o->config : "small"; /* a name (built in) or a path (contains / or ends in .cfg) */
  size_t cl = strlen(cn);
  if ((strchr(cn, '/') || (cl > 4 && !strcmp(cn + cl - 4, ".cfg")) ? mt_net_cfg_load(&cfg, cn, &e) : mt_net_cfg_by_name(&cfg, cn, &e))) { fprintf(stderr, "multitree sim: %s\n", e.msg); return 2; }
  for (int i = 0; i < o->nsets; i++) if (mt_net_cfg_set(&cfg, o->sets[i], &e)) { fprintf(stderr, "multitree sim: %s\n", e.msg); return 2; }
  int dtype = MT_DTYPE_INT32, pkt = 0;
  if (o->dtype && !strcmp(o->dtype, "fp32")) dtype = MT_DTYPE_FP32;
  else if (o->dtype && strcmp(o->dtype, "int32")) { fprintf(stderr, "multitree sim: --dtype '%s': expected int32 or fp32\n", o->dtype); return 2; }
  if (o->flow && !strcmp(o->flow, "packet")) pkt = 1;
  else if (o->flow && strcmp(o->flow, "message")) { fprintf(stderr, "multitree sim: --flow '%s': expected message or packet\n", o->flow); return 2; }
  if (o->have_bytes && o->bytes % 4) { fprintf(stderr, "multitree sim: %llu bytes is not a whole number of 4-byte elements\n", (unsigned long long)o->bytes); return 2; }
  opts o2 = *o;
  if (!o2.local_ports && cfg.local_ports) o2.local_ports = (int)cfg.local_ports;
  mt_topo t; mt_sched s; mt_tables tb;
  int rc = plan_from_opts(&o2, &t, &s, &tb, NULL);
  if (rc) return rc;
  double t0 = mt_now();
  mt_net *net = mt_net_new(&cfg, &s, &tb, dtype, pkt, &e);
  mt_net_result r; memset(&r, 0, sizeof r);
  if (!net) { fprintf(stderr, "multitree sim: %s\n", e.msg); rc = 2; goto out; }
  FILE *trf = NULL;
  if (o->trace) {
    trf = fopen(o->trace, "w");
    if (!trf || mt_net_set_trace(net, trf)) { fprintf(stderr, "multitree sim: --trace %s: cannot write: %s\n", o->trace, strerror(errno)); if (trf) fclose(trf); rc = 2; goto out; }
  }
  int run_rc = mt_net_start(net, o->seed, &e) || mt_net_run(net, &r, 1, &e);
  if (trf) { mt_net_set_trace(net, NULL); if (fclose(trf)) { fprintf(stderr, "multitree sim: --trace %s: write failed\n", o->trace); rc = 2; } }
  if (run_rc) { fprintf(stderr, "multitree sim: %s\n", e.msg); rc = 2; goto out; }
  double wall = mt_now() - t0;
  const char *dt = dtype == MT_DTYPE_FP32 ? "fp32" : "int32";
  if (r.err_node >= 0) {
    if (r.router_err) fprintf(stderr, "multitree sim: router %d raised its %s flag on input port %d VC %d\n", r.rerr_node,
                              r.rerr_ovf ? "overflow" : "watchdog", r.rerr_port, r.rerr_vc);
    fprintf(stderr, "multitree sim: node %d's network interface stopped with error %d (%s) at cycle %llu\n", r.err_node, r.err_code,
            mt_ni_err_name(r.err_code), (unsigned long long)r.cycles);
    if (r.err_code == MT_NI_E_WATCHDOG || r.router_err) {
      fprintf(stderr, "multitree sim: what the network holds (first 200 lines; docs/network.md \"Deadlock dump\"):\n");
      mt_net_dump(net, stderr, 200);
    }
    rc = 1; goto out;
  }
  double bpc = (double)r.bytes / (double)r.cycles;
  printf("sim: %s on %s, %llu bytes %s, %s flow control, config %s: %llu cycles, %.2f bytes/cycle = %.2f GB/s, %s\n", s.algo, t.spec,
         (unsigned long long)r.bytes, dt, pkt ? "packet" : "message", cfg.name, (unsigned long long)r.cycles, bpc, bpc * cfg.clock_ghz,
         r.correct ? "result correct on every node" : "RESULT WRONG");
  printf("sim: %d steps; link utilisation mean %.3f max %.3f; bandwidth lower bound %.0f cycles (%.1f%% of it achieved)\n", s.steps,
         r.util_mean, r.util_max, r.lb_cycles, 100.0 * r.lb_cycles / (double)r.cycles);
  printf("sim: %.2f s wall, %.0f cycles/s\n", wall, (double)r.cycles / wall);
  if (!r.correct) { fprintf(stderr, "multitree sim: %llu words differ from the reference (summed over nodes)\n", (unsigned long long)r.wrong_words); rc = 1; }
  if (r.router_err) {
    fprintf(stderr, "multitree sim: router %d raised its %s flag on input port %d VC %d\n", r.rerr_node, r.rerr_ovf ? "overflow" : "watchdog",
            r.rerr_port, r.rerr_vc);
    rc = 1;
  }
  if (o->dump_dir) {
    if (mkdir(o->dump_dir, 0777) && errno != EEXIST) { fprintf(stderr, "multitree sim: %s: %s\n", o->dump_dir, strerror(errno)); rc = 2; }
    for (int i = 0; i < s.n_nodes && rc != 2; i++)
      if (dump_words(o->dump_dir, i, "in", mt_net_input(net, i), s.bytes / 4) || dump_words(o->dump_dir, i, "out", mt_net_buffer(net, i), s.bytes / 4)) rc = 2;
  }
  if (o->json) {
    FILE *f = fopen(o->json, "w");
    if (!f) { fprintf(stderr, "multitree sim: %s: %s\n", o->json, strerror(errno)); rc = 2; goto out; }
    fprintf(f, "{\"format\":\"multitree-sim/1\",\"algorithm\":\"%s\",\"topology\":\"%s\",\"nodes\":%d,\"bytes\":%llu,\"dtype\":\"%s\","
               "\"flow\":\"%s\",\"seed\":%u,\"cycles\":%llu,\"steps\":%d,\"bytes_per_cycle\":%.6f,\"gbps\":%.6f,"
               "\"link_util_mean\":%.6f,\"link_util_max\":%.6f,\"lower_bound_cycles\":%.1f,\"lower_bound_fraction\":%.6f,"
               "\"correct\":%s,\"wall_s\":%.3f,\"cycles_per_s\":%.1f,",
            s.algo, t.spec, s.n_nodes, (unsigned long long)r.bytes, dt, pkt ? "packet" : "message", o->seed, (unsigned long long)r.cycles, s.steps,
            bpc, bpc * cfg.clock_ghz, r.util_mean, r.util_max, r.lb_cycles, r.lb_cycles / (double)r.cycles, r.correct ? "true" : "false",
            wall, (double)r.cycles / wall);
    fprintf(f, "\"config\":{\"name\":\"%s\",\"payload_w\":%u,\"num_vcs\":%u,\"vc_depth\":%u,\"ej_depth\":%u,\"link_lat\":%u,"
               "\"subpkt_flits\":%u,\"pkt_bytes\":%u,\"step_prio\":%u,\"local_ports\":%u,\"mem_p_ready\":%u,\"mem_lat_max\":%u,"
               "\"ni_sq\":%u,\"ni_rq\":%u,\"wd_limit\":%u,\"clock_ghz\":%.3f}}\n",
            cfg.name, cfg.payload_w, cfg.num_vcs, cfg.vc_depth, cfg.ej_depth, cfg.link_lat, cfg.subpkt_flits, cfg.pkt_bytes, cfg.step_prio,
            cfg.local_ports, cfg.mem_p_ready, cfg.mem_lat_max, cfg.ni_sq, cfg.ni_rq, cfg.wd_limit, cfg.clock_ghz);
    if (fclose(f)) rc = 2;
  }
out:
  mt_net_free(net);
  mt_tables_free(&tb); mt_sched_free(&s); mt_topo_free(&t);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) { usage(argc < 2 ? stderr : stdout, NULL); return argc < 2 ? 2 : 0; }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "shape")) return mt_cli_shape(argc - 1, argv + 1); /* cmodel/app/mt_shape.c */
  static const char *const known[] = {"plan", "rom", "check", "decode", "sizes", "ref", "sim", NULL};
  int ok = 0;
  for (int i = 0; known[i]; i++) ok |= !strcmp(cmd, known[i]);
  if (!ok) { fprintf(stderr, "multitree: unknown command '%s'\n", cmd); usage(stderr, NULL); return 2; }
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) { usage(stdout, cmd); return 0; }
  opts o;
  if (parse_opts(argc, argv, &o)) { usage(stderr, cmd); return 2; }
  if (!strcmp(cmd, "plan")) return cmd_plan(&o);
  if (!strcmp(cmd, "rom")) return cmd_rom(&o);
  if (!strcmp(cmd, "check")) return cmd_check(&o);
  if (!strcmp(cmd, "decode")) return cmd_decode(&o);
  if (!strcmp(cmd, "sizes")) return cmd_sizes(&o);
  if (!strcmp(cmd, "ref")) return cmd_ref(&o);
  if (!strcmp(cmd, "sim")) return cmd_sim(&o);
  fprintf(stderr, "multitree: unknown command '%s'\n", cmd);
  usage(stderr, NULL);
  return 2;
}
