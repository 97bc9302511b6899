/* SPDX-License-Identifier: Apache-2.0
 * mt_workload: a DNN's layer table (workloads/<model>.csv, docs/reference/training.md): SCALE-Sim's
 * convolution columns (layer name, IFMAP height and width, filter height and width,
 * channels, number of filters, strides; padding folded into the IFMAP size), then Kind,
 * Params and Gradient bytes (fp32). A fully connected layer or GEMM is a 1x1 convolution
 * with an IFMAP of M x 1, Channels K and Num Filter N. */
#ifndef MT_WORKLOAD_H
#define MT_WORKLOAD_H
#include <stdint.h>
#include "util/mt_err.h"

/* Kind: what the row's parameters are (the check each row passes in mt_workload_load) */
typedef enum {
  MT_LK_WEIGHTS, /* Params = FH*FW*C*NF + e*NF, e in 0..3 (bias, a norm's gamma and beta) */
  MT_LK_SHARED,  /* weights counted at an earlier row; Params 0 */
  MT_LK_MATMUL,  /* a product of two activations (attention); Params 0 */
  MT_LK_EMBED    /* a lookup table: Params a multiple of NF (rows x NF) */
} mt_layer_kind;

typedef struct {
  char name[64];
  uint32_t ifh, ifw, fh, fw, ch, nf, stride;
  mt_layer_kind kind;
  uint64_t params, grad_bytes;
} mt_layer;

typedef struct {
  char name[64]; /* the file's base name without .csv */
  int n;
  mt_layer *l;
} mt_workload;

/* The GEMM of a layer's forward pass: M output pixels (rows), N filters (columns), K the
 * window (reduction), as SCALE-Sim maps a convolution. */
typedef struct {
  uint64_t m, n, k;
} mt_gemm;

const char *mt_layer_kind_name(mt_layer_kind k);
/* Limits of a workload: one layer's multiply-accumulates (every cycle count of the compute
 * model then fits 64 bits with room for the sums) and the parameters of all rows */
#define MT_LAYER_MAX_MACS_LOG2 48
#define MT_LAYER_MAX_MACS (UINT64_C(1) << MT_LAYER_MAX_MACS_LOG2)
#define MT_WORKLOAD_MAX_PARAMS (UINT64_C(1) << 40)
/* the compute cycles of one iteration, all layers */
#define MT_ITER_MAX_CYCLES_LOG2 56
#define MT_ITER_MAX_CYCLES (UINT64_C(1) << MT_ITER_MAX_CYCLES_LOG2)

/* Read path into w: 0, or -1 with "path:line: field 'F': ... (allowed ...)" in e. */

int mt_workload_load(mt_workload *w, const char *path, mt_err *e);
void mt_workload_free(mt_workload *w);
uint64_t mt_workload_params(const mt_workload *w);
/* The forward GEMM of layer l (embed: K = 1, one lookup per IFMAP row). */
mt_gemm mt_layer_gemm(const mt_layer *l);
#endif
