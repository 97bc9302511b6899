/* SPDX-License-Identifier: Apache-2.0
 * multitree rom: one ROM image of the schedule table per node, and layout.json. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "app/mt_app.h"
#include "table/mt_layout.h"
#include "table/mt_rom.h"

/* --fit: the table layout and depth of the NI shape file path (configs/ni/NAME.cfg) into hw,
 * *depth and *local_ports (0: the file has none); 0, or 2 (message printed) */
static int fit_shape(const char *path, mt_layout *hw, int *depth, int *local_ports) {
  static const char *const keys[] = {"flow_w", "step_w", "id_w", "port_w", "ej_w", "addr_w", "size_w", "children", "compact", "tbl_depth", "local_ports"};
  enum { NKEYS = sizeof keys / sizeof keys[0] };
  int v[NKEYS], nk;
  mt_shape sh;
  mt_err e;
  if (mt_shape_load(&sh, path, MT_KEY_NI, &e)) {
    fprintf(stderr, "multitree rom: --fit %s\n", e.msg);
    return 2;
  }
  const mt_cfg_key *k = mt_cfg_keys(&nk);
  for (int i = 0; i < NKEYS; i++) {
    v[i] = -1;
    for (int j = 0; j < sh.n; j++)
      if (!strcmp(k[sh.kv[j].key].key, keys[i])) v[i] = (int)sh.kv[j].v;
    if (v[i] < 0 && i < NKEYS - 1) {
      fprintf(stderr, "multitree rom: --fit %s: no %s (the table layout needs flow_w, step_w, id_w, port_w, ej_w, addr_w, size_w, children, compact and tbl_depth)\n", path, keys[i]);
      return 2;
    }
  }
  memset(hw, 0, sizeof *hw);
  hw->op_w = 2;
  hw->flow_w = v[0];
  hw->step_w = v[1];
  hw->id_w = v[2];
  hw->port_w = v[3];
  hw->ej_w = v[4];
  hw->addr_w = v[5];
  hw->size_w = v[6];
  hw->children = v[7];
  hw->compact = v[8];
  mt_layout_offsets(hw);
  *depth = v[9];
  *local_ports = v[10] > 0 ? v[10] : 0;
  return 0;
}

int mt_app_rom(const mt_app_opts *o) {
  if (!o->format || !o->out) {
    fprintf(stderr, "multitree rom: --format and --out are required\n");
    return 2;
  }
  int fmt = mt_rom_format(o->format);
  if (fmt < 0) {
    fprintf(stderr, "multitree rom: unknown format '%s' (hex, mif, coe, mem, bin, h, bram)\n", o->format);
    return 2;
  }
  mt_layout hw;
  int hw_depth = 0, hw_l = 0;
  mt_app_opts po = *o;
  if (o->fit) {
    if (fit_shape(o->fit, &hw, &hw_depth, &hw_l)) return 2;
    if (o->compact != hw.compact) {
      fprintf(stderr, "multitree rom: --fit %s has the %s layout; %s\n", o->fit, hw.compact ? "compact" : "full",
              hw.compact ? "add --compact" : "drop --compact");
      return 2;
    }
    if (!po.local_ports) po.local_ports = hw_l;
  }
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_err e = {{0}};
  int rc = mt_app_plan_from_opts(&po, &t, &s, &tb, NULL);
  if (rc) return rc;
  const int D = o->fit ? hw_depth : mt_layout_depth(&tb);
  if (mt_layout_for(&s, &tb, o->compact, &ly, &e) || (o->fit && mt_layout_fit(&ly, &hw, &e)) ||
      mt_rom_write_dir_depth(&s, &tb, &ly, fmt, D, o->out, &e)) {
    fprintf(stderr, "multitree rom: %s%s%s\n", o->fit ? o->fit : "", o->fit ? ": " : "", e.msg);
    rc = 2;
  } else if (!o->quiet) {
    printf("%s: %d images of %d words x %d bits (%s layout) = %.1f KiB per node, in %s/node<i>.%s\n", s.algo, s.n_nodes, D, ly.width,
           o->compact ? "compact" : "full", (double)D * ly.width / 8 / 1024, o->out, mt_rom_format_name(fmt));
  }
  mt_tables_free(&tb);
  mt_sched_free(&s);
  mt_topo_free(&t);
  return rc;
}
