/* SPDX-License-Identifier: Apache-2.0
 * mt_systolic: the output-stationary cycle formula and the three GEMMs of a layer. */
#include "train/mt_systolic.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/mt_io.h"

static uint64_t cdiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t mt_os_cycles(uint32_t r, uint32_t c, uint64_t m, uint64_t n, uint64_t k) {
  if (!m || !n || !k) return 0;
  return cdiv(m, r) * cdiv(n, c) * (k + r + c - 2) - 1;
}

mt_layer_cycles mt_layer_os_cycles(const mt_accel *a, const mt_layer *l, int first) {
  const mt_gemm g = mt_layer_gemm(l);
  mt_layer_cycles y;
  y.fwd = mt_os_cycles(a->rows, a->cols, g.m, g.n, g.k);
  y.bwd_in = first || l->kind == MT_LK_EMBED ? 0 : mt_os_cycles(a->rows, a->cols, g.m, g.k, g.n);
  y.bwd_w = l->kind == MT_LK_EMBED ? y.fwd : mt_os_cycles(a->rows, a->cols, g.k, g.n, g.m);
  return y;
}

uint32_t mt_accel_samples_per_pe(const mt_accel *a) { return (uint32_t)cdiv(a->batch, a->pes); }

uint64_t mt_accel_local_reduce(const mt_accel *a, uint64_t params) {
  if (a->pes <= 1 || !params) return 0;
  const uint32_t w = a->rows > a->cols ? a->rows : a->cols;
  return cdiv(cdiv(params, a->pes), w) * a->pes;
}

int mt_cycles_load(const char *path, const mt_workload *w, mt_layer_cycles *y, int *have, mt_err *e) {
  FILE *f = mt_open_text(path, "a per-layer cycles CSV file", e);
  if (!f) return -1;
  char line[512];
  int ln = 0, rc = 0;
  for (int i = 0; i < w->n; i++) have[i] = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    ln++;
    if (ln == 1) {
      if (strncmp(line, "Layer name", 10)) rc = mt_fail(e, "%s:1: expected the header 'Layer name, Forward, Backward input, Backward weight,'", path);
      continue;
    }
    char name[64];
    unsigned long long v[3];
    char tail[8];
    if (line[0] == '\n' || line[0] == '#') continue;
    int k = sscanf(line, " %63[^, ] , %llu , %llu , %llu %7s", name, &v[0], &v[1], &v[2], tail);
    if (k < 4 || (k == 5 && strcmp(tail, ","))) {
      rc = mt_fail(e, "%s:%d: expected 'layer, forward, backward input, backward weight,' (cycles, whole numbers)", path, ln);
      break;
    }
    int i = 0;
    while (i < w->n && strcmp(w->l[i].name, name)) i++;
    if (i == w->n) {
      rc = mt_fail(e, "%s:%d: field 'Layer name': '%s': allowed a layer of %s", path, ln, name, w->name);
      break;
    }
    if (have[i]) {
      rc = mt_fail(e, "%s:%d: field 'Layer name': '%s' given twice", path, ln, name);
      break;
    }
    if (v[0] > MT_LAYER_MAX_MACS || v[1] > MT_LAYER_MAX_MACS || v[2] > MT_LAYER_MAX_MACS) {
      rc = mt_fail(e, "%s:%d: layer '%s': a cycle count above 2^%d: allowed 0..%" PRIu64, path, ln, name, MT_LAYER_MAX_MACS_LOG2,
                   MT_LAYER_MAX_MACS);
      break;
    }
    have[i] = 1;
    y[i].fwd = v[0];
    y[i].bwd_in = v[1];
    y[i].bwd_w = v[2];
  }
  fclose(f);
  return rc;
}
