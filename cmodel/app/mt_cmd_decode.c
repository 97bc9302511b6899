/* SPDX-License-Identifier: Apache-2.0
 * multitree decode: read ROM images back and compare them with a schedule's tables. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "table/mt_json.h"
#include "table/mt_layout.h"
#include "table/mt_rom.h"

static int slot_eq(const mt_slot *a, const mt_slot *b) { return a->node == b->node && a->port == b->port && a->eject == b->eject; }

/* Entry-by-entry comparison; prints the first differences, returns how many nodes differ. */
static int compare_tables(const mt_tables *a, const mt_tables *b) {
  int bad = 0;
  if (a->n_nodes != b->n_nodes) {
    printf("node count differs: %d vs %d\n", a->n_nodes, b->n_nodes);
    return 1;
  }
  for (int n = 0; n < a->n_nodes; n++) {
    const mt_entry *x = mt_node_entries(a, n), *y = mt_node_entries(b, n);
    int diff = a->count[n] != b->count[n] ? 0 : -1;
    for (int i = 0; diff < 0 && i < a->count[n]; i++) {
      int same = x[i].op == y[i].op && x[i].step == y[i].step && x[i].addr == y[i].addr && x[i].size == y[i].size &&
        (x[i].op == MT_OP_NOP || (x[i].flow == y[i].flow && x[i].has_parent == y[i].has_parent && (!x[i].has_parent || slot_eq(&x[i].parent, &y[i].parent)) && x[i].nchild == y[i].nchild));
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

int mt_app_decode(const mt_app_opts *o) {
  if (!o->file) {
    fprintf(stderr, "multitree decode: name the directory of images\n");
    return 2;
  }
  mt_topo t;
  mt_layout ly;
  mt_tables tb;
  mt_err e = {{0}};
  if (mt_rom_read_dir(o->file, &t, &ly, &tb, &e)) {
    fprintf(stderr, "multitree decode: %s\n", e.msg);
    return 2;
  }
  printf("decode: %s: %d nodes, %d entries, %s layout of %d bits\n", o->file, tb.n_nodes, tb.n_entries, ly.compact ? "compact" : "full", ly.width);
  if (o->print) mt_app_print_tables(stdout, &tb);
  int rc = 0;
  if (o->compare || o->topo) {
    mt_topo t2;
    mt_sched s2;
    mt_tables tb2;
    if (o->compare) {
      if (mt_json_read(o->compare, &t2, &s2, &tb2, &e)) {
        fprintf(stderr, "multitree decode: %s\n", e.msg);
        rc = 2;
        goto out;
      }
    } else if ((rc = mt_app_plan_from_opts(o, &t2, &s2, &tb2, NULL))) goto out;
    int bad = compare_tables(&tb2, &tb);
    printf("decode: %s\n", bad ? "tables DIFFER" : "identical to the schedule's tables");
    rc = bad ? 1 : 0;
    mt_tables_free(&tb2);
    mt_sched_free(&s2);
    mt_topo_free(&t2);
  }
out:
  mt_tables_free(&tb);
  mt_topo_free(&t);
  return rc;
}
