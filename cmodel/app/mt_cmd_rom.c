/* SPDX-License-Identifier: Apache-2.0
 * multitree rom: one ROM image of the schedule table per node, and layout.json. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "table/mt_layout.h"
#include "table/mt_rom.h"

int mt_app_rom(const mt_app_opts *o) {
  if (!o->format || !o->out) {
    fprintf(stderr, "multitree rom: --format and --out are required\n");
    return 2;
  }
  int fmt = mt_rom_format(o->format);
  if (fmt < 0) {
    fprintf(stderr, "multitree rom: unknown format '%s' (hex, mif, coe, mem, bin, h)\n", o->format);
    return 2;
  }
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e = {{0}};
  int rc = mt_app_plan_from_opts(o, &t, &s, &tb, NULL);
  if (rc) return rc;
  if (mt_layout_for(&s, &tb, o->compact, &ly, &e) || mt_rom_write_dir(&s, &tb, &ly, fmt, o->out, &e)) {
    fprintf(stderr, "multitree rom: %s\n", e.msg);
    rc = 2;
  } else if (!o->quiet) {
    int D = mt_layout_depth(&tb);
    printf("%s: %d images of %d words x %d bits (%s layout) = %.1f KiB per node, in %s/node<i>.%s\n", s.algo, s.n_nodes, D, ly.width,
           o->compact ? "compact" : "full", (double)D * ly.width / 8 / 1024, o->out, mt_rom_format_name(fmt));
  }
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return rc;
}
