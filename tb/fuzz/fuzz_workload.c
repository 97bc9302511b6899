/* SPDX-License-Identifier: Apache-2.0
 * fuzz_workload: the workload CSV reader (cmodel/train/mt_workload.c, docs/reference/training.md)
 * and the compute-cycles CSV reader (mt_cycles_load, cmodel/train/mt_systolic.c). Input: the
 * workload CSV, then optionally a NUL byte and a cycles CSV for it. Oracles on a workload the
 * reader accepts: every field within its documented range, Gradient bytes = 4 x Params, the
 * parameter sum and each layer's multiply-accumulates within their limits, the compute cycles
 * of every GEMM without a wrap (against long double), and the table written back in canonical
 * form reads back to the same layers (a number read as another value differs). A cycles CSV
 * that is accepted holds counts within 0..2^48. A refusal must say why. */
#include <inttypes.h>
#include <string.h>
#include "fuzz.h"
#include "train/mt_systolic.h"
#include "train/mt_workload.h"

static void check_layers(const mt_workload *w) {
  uint64_t sum = 0;
  for (int i = 0; i < w->n; i++) {
    const mt_layer *l = &w->l[i];
    const uint32_t d[7] = {l->ifh, l->ifw, l->fh, l->fw, l->ch, l->nf, l->stride};
    for (int k = 0; k < 7; k++)
      if (d[k] < 1 || d[k] > (1u << 24)) FZ_BUG("layer %d '%s': field %d = %u outside 1..2^24", i, l->name, k + 1, d[k]);
    if (l->fh > l->ifh || l->fw > l->ifw) FZ_BUG("layer '%s': filter %ux%u larger than the IFMAP %ux%u", l->name, l->fh, l->fw, l->ifh, l->ifw);
    if (l->grad_bytes != 4 * l->params) FZ_BUG("layer '%s': gradient bytes %" PRIu64 " != 4 x %" PRIu64, l->name, l->grad_bytes, l->params);
    if (!l->name[0]) FZ_BUG("layer %d: empty name accepted", i);
    for (int j = 0; j < i; j++)
      if (!strcmp(w->l[j].name, l->name)) FZ_BUG("layer name '%s' accepted twice", l->name);
    sum += l->params;
    if (sum > MT_WORKLOAD_MAX_PARAMS) FZ_BUG("parameter sum %" PRIu64 " above 2^40 accepted", sum);
    const long double oh = (l->ifh - l->fh) / l->stride + 1, ow = (l->ifw - l->fw) / l->stride + 1;
    const long double macs = oh * ow * l->nf * l->fh * l->fw * (long double)l->ch;
    if (macs > (long double)MT_LAYER_MAX_MACS) FZ_BUG("layer '%s': %.0Lf multiply-accumulates above 2^48 accepted", l->name, macs);
    /* a 128 x 128 array: each GEMM's cycles against the formula in long double */
    const mt_accel a = {.rows = 128, .cols = 128, .pes = 1, .batch = 1};
    const mt_layer_cycles y = mt_layer_os_cycles(&a, l, i == 0);
    const mt_gemm g = mt_layer_gemm(l);
    const long double lim = ((long double)g.m + 128) * ((long double)g.n + 128) * ((long double)g.k + 256);
    if (y.fwd > lim || y.bwd_in > lim || y.bwd_w > lim) FZ_BUG("layer '%s': cycles %" PRIu64 "/%" PRIu64 "/%" PRIu64 " wrapped", l->name, y.fwd, y.bwd_in, y.bwd_w);
  }
}

/* The accepted table written back with plain decimal numbers must read back identical. */
static void round_trip(const mt_workload *w) {
  static const char *const kinds[] = {"weights", "shared", "matmul", "embed"};
  size_t cap = 200 + (size_t)w->n * 260, n = 0;
  char *t = malloc(cap);
  n += (size_t)snprintf(t + n, cap - n,
                        "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides, Kind, Params, Gradient bytes,\n");
  for (int i = 0; i < w->n; i++) {
    const mt_layer *l = &w->l[i];
    n += (size_t)snprintf(t + n, cap - n, "%s,%u,%u,%u,%u,%u,%u,%u,%s,%" PRIu64 ",%" PRIu64 ",\n", l->name, l->ifh, l->ifw, l->fh, l->fw, l->ch, l->nf,
                          l->stride, kinds[l->kind], l->params, l->grad_bytes);
  }
  mt_workload w2;
  mt_err e = {{0}};
  if (mt_workload_load(&w2, fz_file(2, (const uint8_t *)t, n), &e)) FZ_BUG("the accepted table written back is refused: %s", e.msg);
  if (w2.n != w->n) FZ_BUG("written back: %d layers, read %d", w->n, w2.n);
  for (int i = 0; i < w->n; i++)
    if (memcmp(&w2.l[i], &w->l[i], sizeof w->l[i])) FZ_BUG("layer %d '%s' reads back different", i, w->l[i].name);
  mt_workload_free(&w2);
  free(t);
}

/* Every number field of an accepted row, blanks and tabs around it aside, is decimal digits
 * only (the strict parser, docs/reference/formats.md "Numbers"). A NUL ends a line's text. */
static void fields_plain(const uint8_t *d, size_t n) {
  size_t ln = 0;
  for (size_t p = 0; p < n;) {
    size_t e = p;
    while (e < n && d[e] != '\n') e++;
    size_t z = p;
    while (z < e && d[z]) z++;
    ln++;
    size_t a = p;
    while (a < z && (d[a] == ' ' || d[a] == '\t')) a++;
    if (ln > 1 && a < z && d[a] != '#' && d[a] != '\r') {
      int col = 0;
      for (size_t f = a; f <= z; col++) {
        size_t g = f;
        while (g < z && d[g] != ',') g++;
        size_t fa = f, fz = g;
        while (fa < fz && (d[fa] == ' ' || d[fa] == '\t')) fa++;
        while (fz > fa && (d[fz - 1] == ' ' || d[fz - 1] == '\t' || d[fz - 1] == '\r')) fz--;
        if ((col >= 1 && col <= 7) || col == 9 || col == 10)
          for (size_t q = fa; q < fz || q == fa; q++)
            if (q == fz || d[q] < '0' || d[q] > '9') FZ_BUG("line %zu field %d: '%.*s' accepted, not plain digits", ln, col + 1, (int)(fz - fa), (const char *)d + fa);
        f = g + 1;
      }
    }
    p = e + 1;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const uint8_t *nul = memchr(data, 0, size);
  const size_t n1 = nul ? (size_t)(nul - data) : size;
  mt_workload w;
  mt_err e = {{0}};
  if (mt_workload_load(&w, fz_file(0, data, n1), &e)) {
    if (!e.msg[0]) FZ_BUG("the workload reader refused the file without a reason");
    return 0;
  }
  check_layers(&w);
  fields_plain(data, n1);
  round_trip(&w);
  if (nul) {
    mt_layer_cycles *y = calloc((size_t)w.n + 1, sizeof *y);
    int *have = calloc((size_t)w.n + 1, sizeof *have);
    e.msg[0] = 0;
    if (!mt_cycles_load(fz_file(1, nul + 1, size - n1 - 1), &w, y, have, &e)) {
      for (int i = 0; i < w.n; i++)
        if (have[i] && (y[i].fwd > MT_LAYER_MAX_MACS || y[i].bwd_in > MT_LAYER_MAX_MACS || y[i].bwd_w > MT_LAYER_MAX_MACS))
          FZ_BUG("cycles of layer '%s' above 2^48 accepted", w.l[i].name);
    } else if (!e.msg[0]) FZ_BUG("the cycles reader refused the file without a reason");
    free(y);
    free(have);
  }
  mt_workload_free(&w);
  return 0;
}
