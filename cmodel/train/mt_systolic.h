/* SPDX-License-Identifier: Apache-2.0
 * mt_systolic: compute cycles of the paper's accelerator (Table III: PEs of R x C
 * output-stationary systolic arrays) per layer, forward and backward, as GEMMs:
 *   forward        Y  = X W        M x N, reduction K   (SCALE-Sim's mapping of a convolution)
 *   input gradient dX = dY W^T     M x K, reduction N   (then col2im, not a MAC)
 *   weight gradient dW = X^T dY    K x N, reduction M
 * Each GEMM on one array: ceil(M/R) * ceil(N/C) folds of K + R + C - 2 cycles, less one
 * (the fill of the skewed operands, the K MACs, the drain): exactly the "Total Cycles" of
 * scalesim 3.0.0's OS dataflow with ample bandwidth (docs/reference/training.md, measured per layer). */
#ifndef MT_SYSTOLIC_H
#define MT_SYSTOLIC_H
#include <stdint.h>
#include "train/mt_workload.h"

typedef struct {
  uint32_t rows, cols; /* one PE's array (32 x 32) */
  uint32_t pes;        /* PEs of one accelerator (16), each takes whole samples */
  uint32_t batch;      /* samples per accelerator per iteration (16) */
} mt_accel;

/* Table III of the paper: 16 PEs of 32 x 32, mini-batch 16 per accelerator */
#define MT_ACCEL_PAPER ((mt_accel){32, 32, 16, 16})

typedef struct {
  uint64_t fwd, bwd_in, bwd_w; /* one sample on one PE */
} mt_layer_cycles;

/* One GEMM M x N (reduction K) on an R x C output-stationary array; 0 when empty. */
uint64_t mt_os_cycles(uint32_t r, uint32_t c, uint64_t m, uint64_t n, uint64_t k);
/* The three passes of layer l for one sample. first: the network's first layer (no input
 * gradient: its input is the data); embed rows: no input gradient (their input is indices),
 * the weight gradient a scatter-add of one row per lookup (the forward GEMM's shape). */
mt_layer_cycles mt_layer_os_cycles(const mt_accel *a, const mt_layer *l, int first);
/* Samples one PE runs per iteration: ceil(batch / pes) */
uint32_t mt_accel_samples_per_pe(const mt_accel *a);
/* The PEs' gradients of `params` values summed inside the accelerator before the all-reduce,
 * as the authors' simulator does it (npu.py aggregate: each PE a 1/pes slice, one array
 * row of max(R, C) values a cycle, pes partial sums each): 0 with one PE. */
uint64_t mt_accel_local_reduce(const mt_accel *a, uint64_t params);
/* A committed cycle table (workloads/cycles/<model>.csv, written by
 * scripts/gen_workload_cycles.sh from scalesim): header "Layer name, Forward, Backward
 * input, Backward weight," then one row per layer of w, by name, in any order, some may be
 * missing. Into y[i] and have[i] (1: the table has layer i); 0, or -1 with file:line in e. */
int mt_cycles_load(const char *path, const mt_workload *w, mt_layer_cycles *y, int *have, mt_err *e);
#endif
