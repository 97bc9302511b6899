/* SPDX-License-Identifier: Apache-2.0
 * multitree plan: plan an all-reduce, print its summary and tables, write JSON and DOT. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "plan/mt_flexreduce.h"
#include "table/mt_dot.h"
#include "table/mt_json.h"
#include "util/mt_time.h"

/* What the summary says about the tables. */
typedef struct {
  long nred, ngat, nnop;
  int max_entries, max_children;
} tstats;

static void add_node(tstats *st, const mt_entry *en, int count) {
  for (int i = 0; i < count; i++) {
    if (en[i].op == MT_OP_REDUCE) st->nred++;
    else if (en[i].op == MT_OP_GATHER) st->ngat++;
    else st->nnop++;
    if (en[i].nchild > st->max_children) st->max_children = en[i].nchild;
  }
  if (count > st->max_entries) st->max_entries = count;
}

/* The tables' figures a node at a time (held whole, the tables of a 4096-node schedule take
 * 2.3 GB); the derivation also finds a planner's inconsistencies, as mt_sched_tables does. */
static int stats_streamed(const mt_sched *s, int local_ports, tstats *st, mt_err *e) {
  mt_tables_gen *g = mt_tables_gen_new(s, local_ports);
  int rc = 0;
  for (int n = 0; n < s->n_nodes && !rc; n++) {
    const mt_entry *en;
    int cnt;
    if (!(rc = mt_tables_gen_node(g, n, &en, &cnt, e))) add_node(st, en, cnt);
  }
  mt_tables_gen_free(g);
  return rc;
}

static void summary(const mt_sched *s, const tstats *st, double secs) {
  long nmh = 0;
  for (int i = 0; i < s->nx; i++) nmh += s->x[i].multihop;
  uint64_t lo = s->chunk[s->n_flows - 1].size, hi = s->chunk[0].size; /* the even rule: earlier flows larger */
  for (int f = 0; f < s->n_flows && mt_sched_uneven(s); f++) {
    if (s->chunk[f].size < lo) lo = s->chunk[f].size;
    if (s->chunk[f].size > hi) hi = s->chunk[f].size;
  }
  printf("%s on %s: %d nodes, %d flows, %llu bytes (%llu..%llu per flow)\n", s->algo, s->topo->spec, s->n_nodes, s->n_flows,
         (unsigned long long)s->bytes, (unsigned long long)lo, (unsigned long long)hi);
  printf("steps: %d = %d reduce-scatter + %d all-gather\n", s->steps, s->reduce_steps, s->steps - s->reduce_steps);
  printf("transfers: %d (%ld multi-hop)\n", s->nx, nmh);
  printf("tables: %ld reduce, %ld gather, %ld nop entries; at most %d entries per node and %d children per entry\n",
         st->nred, st->ngat, st->nnop, st->max_entries, st->max_children);
  if (secs >= 0) printf("planned in %.3f s\n", secs);
  if (mt_sched_uneven(s) && strcmp(s->algo, "bucket")) {
    char line[400];
    mt_err e = {{0}};
    if (!mt_fr_summary(s->topo, !strcmp(s->algo, "blueconnect"), s->bytes, line, sizeof line, &e)) printf("%s\n", line);
  }
}

/* The tables are held whole only for --print; the summary and the JSON derive them a node
 * at a time (issue #14 item 6: a 64x64 torus planned in 1 GB). */
int mt_app_plan(const mt_app_opts *o) {
  mt_topo t;
  mt_sched s;
  mt_tables tb = {0};
  mt_err e = {{0}};
  tstats st = {0};
  double secs = 0;
  const int whole = o->print;
  int rc = mt_app_plan_from_opts(o, &t, &s, whole ? &tb : NULL, &secs);
  if (rc) return rc;
  if (whole)
    for (int n = 0; n < tb.n_nodes; n++) add_node(&st, mt_node_entries(&tb, n), tb.count[n]);
  else {
    double t0 = mt_now();
    if (stats_streamed(&s, o->local_ports, &st, &e)) {
      fprintf(stderr, "multitree: %s\n", e.msg);
      rc = 2;
    }
    secs += mt_now() - t0;
  }
  if (!rc && !o->quiet) summary(&s, &st, secs);
  if (!rc && o->print) mt_app_print_tables(stdout, &tb);
  if (!rc && o->json && (whole ? mt_json_write(&s, &tb, o->json, &e) : mt_json_write_sched(&s, o->local_ports, o->json, &e))) {
    fprintf(stderr, "multitree: %s\n", e.msg);
    rc = 2;
  }
  if (!rc && o->dot && mt_dot_write(&s, o->dot, &e)) {
    fprintf(stderr, "multitree: %s\n", e.msg);
    rc = 2;
  }
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return rc;
}
