/* SPDX-License-Identifier: Apache-2.0
 * mt_systolic: the output-stationary cycle formula and the three GEMMs of a layer. */
#include "train/mt_systolic.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "util/mt_io.h"
#include "util/mt_num.h"

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
    if (line[0] == '\n' || line[0] == '#') continue;
    /* four fields split at ',' (a fifth, empty, after a trailing comma), blanks around each */
    char *fld[6];
    int nf = 0;
    for (char *p = line, *c; nf < 6; p = c + 1) {
      c = p + strcspn(p, ",");
      const int last = !*c;
      *c = 0;
      while (*p == ' ' || *p == '\t') p++;
      char *z = c;
      while (z > p && (z[-1] == ' ' || z[-1] == '\t' || z[-1] == '\r' || z[-1] == '\n')) *--z = 0;
      fld[nf++] = p;
      if (last) break;
    }
    if (nf == 5 && !*fld[4]) nf = 4;
    if (nf != 4 || !*fld[0] || strlen(fld[0]) >= 64) {
      rc = mt_fail(e, "%s:%d: expected 'layer, forward, backward input, backward weight,' (cycles, whole numbers)", path, ln);
      break;
    }
    static const char *const col[3] = {"Forward", "Backward input", "Backward weight"};
    const char *name = fld[0];
    uint64_t v[3];
    for (int c = 0; c < 3 && !rc; c++) {
      char what[1200];
      snprintf(what, sizeof what, "%s:%d: layer '%s': field '%s' (cycles)", path, ln, name, col[c]);
      rc = mt_parse_u64(fld[c + 1], 0, MT_LAYER_MAX_MACS, what, e, &v[c]);
    }
    if (rc) break;
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
    have[i] = 1;
    y[i].fwd = v[0];
    y[i].bwd_in = v[1];
    y[i].bwd_w = v[2];
  }
  fclose(f);
  return rc;
}
