/* SPDX-License-Identifier: Apache-2.0
 * ni_scen.h: a planned scenario for one NI test (topology, schedule, tables, layout and
 * matching NI parameters), shared by hw/test_ni.c and hw/test_ni_golden.c. */
#ifndef NI_SCEN_H
#define NI_SCEN_H
#include <stdio.h>
#include <string.h>
#ifdef MT_GOLDEN_FLAT /* recording from a build before the layer folders (make golden, docs/reference/golden.md) */
#include "mt_layout.h"
#include "mt_ni.h"
#include "mt_sched.h"
#define SCEN_SET_FMT(p, ly) mt_ni_params_layout(p, ly)
#else
#include "table/mt_layout.h"
#include "hw/mt_ni.h"
#include "plan/mt_sched.h"
#define SCEN_SET_FMT(p, ly) ((p)->fmt = (ly)->fmt)
#endif

typedef struct {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_ni_params p;
} scen;

static inline int scen_make(scen *c, const char *topo, const char *algo, uint64_t bytes, int compact) {
  mt_err e;
  memset(c, 0, sizeof *c);
  if (mt_topo_from_name(&c->t, topo, &e) || mt_plan(&c->s, &c->t, algo, bytes, 4, &e) ||
      mt_sched_tables(&c->s, 0, &c->tb, &e) || mt_layout_for(&c->s, &c->tb, compact, &c->ly, &e)) {
    fprintf(stderr, "scenario %s %s: %s\n", topo, algo, e.msg);
    return -1;
  }
  mt_ni_default_params(&c->p);
  SCEN_SET_FMT(&c->p, &c->ly);
  c->p.nlocal = (unsigned)c->ly.local_ports;
  c->p.net_ports = (unsigned)c->t.max_ports;
  c->p.max_flows = (unsigned)c->s.n_flows;
  int d = 0;
  for (int n = 0; n < c->tb.n_nodes; n++)
    if (c->tb.count[n] > d) d = c->tb.count[n];
  c->p.tbl_depth = (unsigned)d + 2;
  c->p.subpkt_flits = 4;
  return 0;
}
static inline void scen_free(scen *c) {
  mt_tables_free(&c->tb);
  mt_sched_free(&c->s);
  mt_topo_free(&c->t);
}

#endif
