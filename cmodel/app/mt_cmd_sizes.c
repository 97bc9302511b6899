/* SPDX-License-Identifier: Apache-2.0
 * multitree sizes: table sizes (full and compact layouts) for MultiTree on 4x4..32x32 tori. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "plan/mt_themis.h"
#include "table/mt_layout.h"
#include "topo/mt_mdtopo.h"

/* One system's figures from the chunk schedule alone (no expansion): steps, entries per NPU
 * (mt_cs_entries_per_node), children, flows and the full layout's entry width. */
typedef struct {
  int N, H, flows, steps, children, width;
  long entries;
  double lm_end; /* the Latency Model's end of the schedule (Section 4.6 simulation), ns */
} cs_size;

static int chunked_size(const mt_topo *t, const char *algo, uint64_t bytes, int chunks, int intra, cs_size *z, mt_err *e) {
  mt_mdview v;
  mt_latmodel lm;
  mt_chunksched cs;
  if (mt_mdview_of(t, algo, &v, e)) return -1;
  mt_latmodel_of(t, &v, &lm);
  mt_themis_opts o = {chunks, intra, 4, 1, 0};
  for (int d = 0; d < v.D; d++)
    if (v.bidir[d]) o.H = 2;
  if ((strcmp(algo, "themis") ? mt_themis_baseline : mt_themis_schedule)(&cs, &v, &lm, bytes, &o, e)) return -1;
  int *first = mt_xcalloc((size_t)cs.n_chunks * 2 * (size_t)v.D, sizeof *first);
  z->lm_end = 0;
  z->steps = mt_themis_order(&cs, &lm, &z->lm_end, e) ? -1 : mt_cs_steps(&cs, first, e);
  free(first);
  z->N = t->n_nodes;
  z->H = o.H;
  z->flows = chunks * t->n_nodes * o.H;
  z->entries = mt_cs_entries_per_node(&cs);
  z->children = mt_cs_max_children(&cs);
  mt_chunksched_free(&cs);
  if (z->steps < 0) return -1;
  mt_layout ly;
  const int P = mt_topo_node_ports(t);
  mt_layout_make(&ly, 0, z->N, P, P, z->children, z->flows, bytes, z->steps);
  z->width = ly.width;
  return 0;
}

/* System i of the table: the Table 2 presets, then the 64-NPU cross-check */
static const char *sizes_system(char *name, size_t n, int i) {
  if (i < mt_themis_n_presets) snprintf(name, n, "themis:%s", mt_themis_presets[i].name);
  else snprintf(name, n, "dims:ring4@1000x2:20ns,sw4@200x8:700ns,sw4@400x1:1700ns");
  return name;
}

/* `sizes --algo hier|themis`: the six Table 2 systems, then a 64-NPU system counted both ways
 * (analytic and from its expanded tables) as the cross-check. */
static int sizes_chunked(const mt_app_opts *o) {
  const uint64_t bytes = o->have_bytes ? o->bytes : 1ull << 30;
  const int chunks = mt_plan_opt.chunks ? mt_plan_opt.chunks : 64;
  const int intra = mt_plan_opt.intra >= 0 ? mt_plan_opt.intra : strcmp(o->algo, "themis") ? MT_INTRA_FIFO
                                                                                           : MT_INTRA_SCF;
  char name[96];
  if (strcmp(o->algo, "themis") && strcmp(o->algo, "hier")) {
    fprintf(stderr, "multitree sizes: --algo %s: expected hier or themis (without --algo: MultiTree on tori)\n", o->algo);
    return 2;
  }
  if (mt_app_whole_words("sizes", o)) return 2;
  /* every system's limits before any row: the chunk schedules take time quadratic in the
   * chunks, the last system's expansion memory in proportion to its transfers */
  for (int i = 0; i <= mt_themis_n_presets; i++) {
    mt_topo t = {0};
    mt_err e = {{0}};
    mt_mdview v;
    int H = 1, rc = mt_topo_from_name(&t, sizes_system(name, sizeof name, i), &e) || mt_mdview_of(&t, o->algo, &v, &e);
    if (!rc) {
      for (int d = 0; d < v.D; d++)
        if (v.bidir[d]) H = 2;
      rc = mt_cs_check_limits(&v, chunks, t.n_nodes, H, i == mt_themis_n_presets, o->algo, name, &e);
    }
    mt_topo_free(&t);
    if (rc) {
      fprintf(stderr, "multitree sizes: %s: %s\n", name, e.msg);
      return 2;
    }
  }
  printf("| system | NPUs | flows (C x N x H) | steps | entries/NPU | children | full bits | table/NPU | Latency Model end |\n"
         "|---|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i <= mt_themis_n_presets; i++) {
    mt_topo t = {0};
    mt_err e = {{0}};
    cs_size z;
    if (mt_topo_from_name(&t, sizes_system(name, sizeof name, i), &e) || chunked_size(&t, o->algo, bytes, chunks, intra, &z, &e)) {
      fprintf(stderr, "multitree sizes: %s: %s\n", name, e.msg);
      mt_topo_free(&t);
      return 2;
    }
    printf("| %s | %d | %d (%d x %d x %d) | %d | %ld (+1 END) | %d | %d | %.1f KiB | %.1f us |\n", name, z.N, z.flows, chunks, z.N, z.H, z.steps,
           z.entries, z.children, z.width, (double)(z.entries + 1) * z.width / 8 / 1024, z.lm_end / 1000);
    if (i == mt_themis_n_presets) { /* the cross-check: expand it */
      mt_sched s;
      mt_tables tb;
      mt_layout ly;
      mt_plan_opt.chunks = chunks;
      mt_plan_opt.intra = intra;
      if (mt_plan(&s, &t, o->algo, bytes, 4, &e) || mt_sched_tables(&s, 0, &tb, &e)) {
        fprintf(stderr, "multitree sizes: %s: %s\n", name, e.msg);
        mt_topo_free(&t);
        return 2;
      }
      int lo = tb.count[0];
      for (int n = 0; n < tb.n_nodes; n++)
        if (tb.count[n] < lo) lo = tb.count[n];
      const int rc = mt_layout_for(&s, &tb, 0, &ly, &e);
      printf("| (expanded) | %d | %d | %d | %d..%d (+1 END) | %d | %d | %.1f KiB | |\n", s.n_nodes, s.n_flows, s.steps, lo, tb.max_entries, tb.max_children,
             rc ? -1 : ly.width, rc ? 0 : (double)(tb.max_entries + 1) * ly.width / 8 / 1024);
      const int same = !rc && lo == z.entries && tb.max_entries == z.entries && tb.max_children == z.children && s.steps == z.steps && ly.width == z.width;
      mt_tables_free(&tb);
      mt_sched_free(&s);
      mt_topo_free(&t);
      if (!same) {
        fprintf(stderr, "multitree sizes: %s: the expanded tables differ from the count%s%s\n", name, rc ? ": " : "", rc ? e.msg : "");
        return 1;
      }
    } else
      mt_topo_free(&t);
  }
  printf("(%s, %d chunks, %s, %llu bytes; full layout, field widths in docs/reference/formats.md; counted from the chunk schedule, the 64-NPU row also "
         "expanded. Latency Model end: the Section 4.6 simulation that orders the queues, an estimate, not a network simulation. The head "
         "flit's FLOW field holds 4096 flows: the Table 2 systems are counted, not run)\n",
         o->algo, chunks, intra == MT_INTRA_SCF ? "SCF" : "FIFO", (unsigned long long)bytes);
  return 0;
}

int mt_app_sizes(const mt_app_opts *o) {
  if (o->algo) return sizes_chunked(o);
  uint64_t bytes = o->have_bytes ? o->bytes : 64ull << 20;
  static const int side[] = {4, 8, 16, 32};
  if (bytes == 0 || mt_app_whole_words("sizes", o)) { /* before the table's header */
    if (bytes == 0) fprintf(stderr, "multitree sizes: --bytes 0: the buffer must hold at least one 4-byte element\n");
    return 2;
  }
  char row[4][256]; /* planned first, so that an error comes before any output */
  for (int i = 0; i < 4; i++) {
    char name[32];
    snprintf(name, sizeof name, "torus:%dx%d", side[i], side[i]);
    mt_topo t = {0};
    mt_sched s = {0};
    mt_tables tb = {0};
    mt_layout full, comp;
    mt_err e = {{0}};
    int rc = mt_topo_from_name(&t, name, &e) || mt_plan(&s, &t, "multitree", bytes, 4, &e) || mt_sched_tables(&s, 0, &tb, &e) ||
      mt_layout_for(&s, &tb, 0, &full, &e) || mt_layout_for(&s, &tb, 1, &comp, &e);
    if (!rc) {
      int N = s.n_nodes, D = mt_layout_depth(&tb);
      snprintf(row[i], sizeof row[i], "| %d | %s | %d (+1 END) | %d | %.2f KiB | %d | %.2f KiB | %.2f KiB |\n", N, name, tb.max_entries,
               full.width, (double)D * full.width / 8 / 1024, comp.width, (double)D * comp.width / 8 / 1024, 2.0 * N * 200 / 8 / 1024);
    }
    mt_tables_free(&tb);
    mt_sched_free(&s);
    mt_topo_free(&t);
    if (rc) {
      fprintf(stderr, "multitree sizes: %s\n", e.msg);
      return 2;
    }
  }
  printf("| N | torus | entries/node | full bits | full table | compact bits | compact table | paper (2N x 200 bits) |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < 4; i++) fputs(row[i], stdout);
  printf("(buffer %llu bytes; field widths in docs/reference/formats.md)\n", (unsigned long long)bytes);
  return 0;
}
