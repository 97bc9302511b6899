/* SPDX-License-Identifier: Apache-2.0
 * mt_workload: the layer table reader; every field checked, every refusal names the file,
 * line, field and what is allowed. */
#include "train/mt_workload.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/mt_io.h"
#include "util/mt_num.h"

static const char *const kind_name[] = {"weights", "shared", "matmul", "embed"};
enum { NKIND = 4,
       NCOL = 11,
       MAXLINE = 1024 };
static const char *const col_name[NCOL] = {"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height", "Filter Width", "Channels",
                                           "Num Filter", "Strides", "Kind", "Params", "Gradient bytes"};

const char *mt_layer_kind_name(mt_layer_kind k) { return (unsigned)k < NKIND ? kind_name[k] : "?"; }

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) s[--n] = 0;
  return s;
}

/* a whole number in [lo, hi] (mt_parse_u64) */
static int field_u64(const char *path, int ln, int col, const char *v, uint64_t lo, uint64_t hi, uint64_t *out, mt_err *e) {
  char what[1200];
  snprintf(what, sizeof what, "%s:%d: field '%s'", path, ln, col_name[col]);
  return mt_parse_u64(v, lo, hi, what, e, out);
}

/* The row's parameter count against its dimensions (Kind's rule) */
static int check_params(const char *path, int ln, const mt_layer *l, mt_err *e) {
  const uint64_t w = (uint64_t)l->fh * l->fw * l->ch * l->nf;
  switch (l->kind) {
  case MT_LK_WEIGHTS:
    if (l->params >= w && (l->params - w) % l->nf == 0 && (l->params - w) / l->nf <= 3) return 0;
    return mt_fail(e,
                   "%s:%d: field 'Params': %" PRIu64 " for a 'weights' row of %ux%ux%ux%u: allowed FH*FW*C*NF + e*NF, e = 0..3 "
                   "(bias, a norm's gamma and beta): %" PRIu64 "..%" PRIu64 " in steps of %u",
                   path, ln, l->params, l->fh, l->fw, l->ch, l->nf, w, w + 3u * l->nf, l->nf);
  case MT_LK_SHARED:
  case MT_LK_MATMUL:
    if (l->params == 0) return 0;
    return mt_fail(e, "%s:%d: field 'Params': %" PRIu64 " for a '%s' row: allowed 0 (its weights are counted elsewhere or it has none)",
                   path, ln, l->params, kind_name[l->kind]);
  case MT_LK_EMBED:
    if (l->params > 0 && l->params % l->nf == 0) return 0;
    return mt_fail(e, "%s:%d: field 'Params': %" PRIu64 " for an 'embed' row: allowed a positive multiple of Num Filter (%u): rows x width",
                   path, ln, l->params, l->nf);
  }
  return mt_fail(e, "%s:%d: bad kind", path, ln);
}

static int parse_row(const char *path, int ln, char *line, mt_layer *l, mt_err *e) {
  char *f[NCOL + 1];
  int n = 0;
  for (char *p = line;;) {
    char *c = strchr(p, ',');
    if (c) *c = 0;
    if (n <= NCOL) f[n] = trim(p);
    n++;
    if (!c) break;
    p = c + 1;
  }
  /* SCALE-Sim rows end in a comma: an empty last field */
  if (n == NCOL + 1 && !*f[NCOL]) n = NCOL;
  if (n != NCOL)
    return mt_fail(e, "%s:%d: %d fields: expected %d (%s, ..., %s), each row may end in a comma", path, ln, n, NCOL, col_name[0],
                   col_name[NCOL - 1]);
  if (!*f[0] || strlen(f[0]) >= sizeof l->name)
    return mt_fail(e, "%s:%d: field 'Layer name': '%s': expected 1..%zu characters", path, ln, f[0], sizeof l->name - 1);
  memset(l, 0, sizeof *l);
  strcpy(l->name, f[0]);
  uint32_t *d[7] = {&l->ifh, &l->ifw, &l->fh, &l->fw, &l->ch, &l->nf, &l->stride};
  for (int i = 0; i < 7; i++) {
    uint64_t v;
    if (field_u64(path, ln, i + 1, f[i + 1], 1, 1u << 24, &v, e)) return -1;
    *d[i] = (uint32_t)v;
  }
  if (l->fh > l->ifh || l->fw > l->ifw)
    return mt_fail(e, "%s:%d: field 'Filter Height'/'Filter Width': %ux%u larger than the IFMAP %ux%u: allowed at most the IFMAP (padding "
                      "goes into the IFMAP size)",
                   path, ln, l->fh, l->fw, l->ifh, l->ifw);
  /* the layer's multiply-accumulates OH*OW*NF*FH*FW*C, each factor at most 2^24: a running
   * product checked against the limit before every step, so no product wraps */
  const uint64_t oh = (l->ifh - l->fh) / l->stride + 1, ow = (l->ifw - l->fw) / l->stride + 1;
  const uint64_t fac[6] = {oh, ow, l->nf, l->fh, l->fw, l->ch};
  uint64_t macs = 1;
  for (int i = 0; i < 6; i++) {
    if (macs > MT_LAYER_MAX_MACS / fac[i])
      return mt_fail(e,
                     "%s:%d: fields 'IFMAP Height'..'Strides': the layer's multiply-accumulates OH*OW*NF*FH*FW*C = %" PRIu64 "*%" PRIu64
                     "*%u*%u*%u*%u exceed 2^%d: allowed at most %" PRIu64,
                     path, ln, oh, ow, l->nf, l->fh, l->fw, l->ch, MT_LAYER_MAX_MACS_LOG2, MT_LAYER_MAX_MACS);
    macs *= fac[i];
  }
  int k = 0;
  while (k < NKIND && strcmp(f[8], kind_name[k])) k++;
  if (k == NKIND) return mt_fail(e, "%s:%d: field 'Kind': '%s': allowed weights, shared, matmul, embed", path, ln, f[8]);
  l->kind = (mt_layer_kind)k;
  if (field_u64(path, ln, 9, f[9], 0, MT_WORKLOAD_MAX_PARAMS, &l->params, e) || field_u64(path, ln, 10, f[10], 0, UINT64_C(1) << 42, &l->grad_bytes, e))
    return -1;
  if (l->grad_bytes != 4 * l->params)
    return mt_fail(e, "%s:%d: field 'Gradient bytes': %" PRIu64 ": allowed 4 x Params = %" PRIu64 " (fp32)", path, ln, l->grad_bytes,
                   4 * l->params);
  return check_params(path, ln, l, e);
}

int mt_workload_load(mt_workload *w, const char *path, mt_err *e) {
  memset(w, 0, sizeof *w);
  FILE *fp = mt_open_text(path, "a workload CSV file", e);
  if (!fp) return -1;
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  snprintf(w->name, sizeof w->name, "%.*s", (int)(strlen(b) > 4 && !strcmp(b + strlen(b) - 4, ".csv") ? strlen(b) - 4 : strlen(b)), b);
  char line[MAXLINE + 2];
  int ln = 0, cap = 0, rc = 0;
  int *row_ln = NULL;  /* the line of each row, for the duplicate-name message */
  uint64_t params = 0; /* each row at most 2^40: the sum cannot wrap before the check */
  while (fgets(line, sizeof line, fp)) {
    ln++;
    if (!strchr(line, '\n') && !feof(fp)) {
      rc = mt_fail(e, "%s:%d: line longer than %d characters", path, ln, MAXLINE);
      break;
    }
    char *s = trim(line);
    if (ln == 1) { /* the header: SCALE-Sim's first column name */
      if (strncmp(s, "Layer name", 10)) {
        rc = mt_fail(e, "%s:1: expected the header line 'Layer name, IFMAP Height, ...' (docs/reference/training.md)", path);
        break;
      }
      continue;
    }
    if (!*s || *s == '#') continue;
    if (w->n == cap) {
      cap = cap ? 2 * cap : 64;
      w->l = mt_xrealloc(w->l, (size_t)cap * sizeof *w->l);
      row_ln = mt_xrealloc(row_ln, (size_t)cap * sizeof *row_ln);
    }
    row_ln[w->n] = ln;
    if ((rc = parse_row(path, ln, s, &w->l[w->n], e))) break;
    for (int i = 0; i < w->n && !rc; i++)
      if (!strcmp(w->l[i].name, w->l[w->n].name))
        rc = mt_fail(e, "%s:%d: field 'Layer name': '%s' set again (first set on line %d): allowed a new name", path, ln, w->l[i].name,
                     row_ln[i]);
    if (rc) break;
    params += w->l[w->n].params;
    if (params > MT_WORKLOAD_MAX_PARAMS) {
      rc = mt_fail(e, "%s:%d: field 'Params': the rows' sum reaches %" PRIu64 ": allowed at most 2^40 = %" PRIu64 " parameters in a workload",
                   path, ln, params, MT_WORKLOAD_MAX_PARAMS);
      break;
    }
    w->n++;
  }
  if (!rc && ferror(fp)) rc = mt_fail(e, "%s: read error", path);
  if (!rc && ln == 0) rc = mt_fail(e, "%s: empty file: expected the header line and one row per layer", path);
  if (!rc && w->n == 0) rc = mt_fail(e, "%s:%d: no layer rows after the header", path, ln);
  fclose(fp);
  free(row_ln);
  if (rc) mt_workload_free(w);
  return rc;
}

void mt_workload_free(mt_workload *w) {
  free(w->l);
  memset(w, 0, sizeof *w);
}

uint64_t mt_workload_params(const mt_workload *w) {
  uint64_t p = 0;
  for (int i = 0; i < w->n; i++) p += w->l[i].params;
  return p;
}

mt_gemm mt_layer_gemm(const mt_layer *l) {
  const uint64_t oh = (l->ifh - l->fh) / l->stride + 1, ow = (l->ifw - l->fw) / l->stride + 1;
  mt_gemm g = {oh * ow, l->nf, (uint64_t)l->fh * l->fw * l->ch};
  return g;
}
