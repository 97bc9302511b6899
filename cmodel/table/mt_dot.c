/* SPDX-License-Identifier: Apache-2.0 */
#include "table/mt_dot.h"
#include <errno.h>
#include <string.h>
#include "util/mt_io.h"

int mt_dot_write(const mt_sched *s, const char *path, mt_err *e) {
  mt_out out;
  FILE *f = mt_out_open(&out, path, "w");
  if (!f) return mt_fail(e, "%s: cannot create: %s", path, strerror(errno));
  fprintf(f, "// %s on %s: solid = all-gather (parent -> child), dashed = reduce-scatter (child -> parent), label = step\n", s->algo, s->topo->spec);
  fprintf(f, "digraph multitree {\n  rankdir=TB;\n  node [shape=circle, fontsize=10];\n  edge [fontsize=9];\n");
  for (int fl = 0; fl < s->n_flows; fl++) {
    fprintf(f, "  subgraph cluster_%d {\n    label=\"tree %d (root %d)\";\n", fl, fl, s->root[fl]);
    fprintf(f, "    \"%d-%d\" [label=\"%d-%d\", style=bold];\n", fl, s->root[fl], fl, s->root[fl]);
    for (int i = 0; i < s->nx; i++) {
      const mt_xfer *x = &s->x[i];
      if (x->flow != fl) continue;
      if (x->op == MT_OP_GATHER)
        fprintf(f, "    \"%d-%d\" -> \"%d-%d\" [label=\"%d%s\"];\n", fl, x->src, fl, x->dst, x->step, x->multihop ? "*" : "");
      else
        fprintf(f, "    \"%d-%d\" -> \"%d-%d\" [label=\"%d%s\", style=dashed, constraint=false];\n", fl, x->src, fl, x->dst, x->step, x->multihop ? "*" : "");
    }
    for (int n = 0; n < s->n_nodes; n++) fprintf(f, "    \"%d-%d\" [label=\"%d-%d\"];\n", fl, n, fl, n);
    fprintf(f, "  }\n");
  }
  fprintf(f, "}\n");
  if (mt_out_close(&out, 1)) return mt_fail(e, "%s: write error: %s", path, strerror(errno));
  return 0;
}
