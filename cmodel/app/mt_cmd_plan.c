/* SPDX-License-Identifier: Apache-2.0
 * multitree plan: plan an all-reduce, print its summary and tables, write JSON and DOT. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "table/mt_dot.h"
#include "table/mt_json.h"

static void summary(const mt_sched *s, const mt_tables *tb, double secs) {
  long nred = 0, ngat = 0, nnop = 0, nmh = 0;
  for (int i = 0; i < tb->n_entries; i++) {
    if (tb->entries[i].op == MT_OP_REDUCE) nred++;
    else if (tb->entries[i].op == MT_OP_GATHER) ngat++;
    else nnop++;
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

int mt_app_plan(const mt_app_opts *o) {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_err e = {{0}};
  double secs = 0;
  int rc = mt_app_plan_from_opts(o, &t, &s, &tb, &secs);
  if (rc) return rc;
  if (!o->quiet) summary(&s, &tb, secs);
  if (o->print) mt_app_print_tables(stdout, &tb);
  if (o->json && mt_json_write(&s, &tb, o->json, &e)) {
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
