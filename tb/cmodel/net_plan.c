/* SPDX-License-Identifier: Apache-2.0
 * net_plan: the network tests' schedule (net_plan.h). */
#include "net_plan.h"

int tb_plan(tb_planned *p, const char *topo, const char *algo, uint64_t bytes, mt_err *e) {
  if (mt_topo_from_name(&p->t, topo, e)) return -1;
  if (mt_plan(&p->s, &p->t, algo, bytes, 4, e)) {
    mt_topo_free(&p->t);
    return -1;
  }
  if (mt_sched_tables(&p->s, 0, &p->tb, e)) {
    mt_sched_free(&p->s);
    mt_topo_free(&p->t);
    return -1;
  }
  return 0;
}

void tb_unplan(tb_planned *p) {
  mt_tables_free(&p->tb);
  mt_sched_free(&p->s);
  mt_topo_free(&p->t);
}
