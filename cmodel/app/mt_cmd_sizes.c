/* SPDX-License-Identifier: Apache-2.0
 * multitree sizes: table sizes (full and compact layouts) for MultiTree on 4x4..32x32 tori. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "table/mt_layout.h"

int mt_app_sizes(const mt_app_opts *o) {
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
  printf("(buffer %llu bytes; field widths in docs/formats.md)\n", (unsigned long long)bytes);
  return 0;
}
