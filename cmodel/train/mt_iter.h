/* SPDX-License-Identifier: Apache-2.0
 * mt_iter: one training iteration from per-layer compute and all-reduce times (the paper's
 * Section V-B, Fig. 11):
 *   non-overlapped  forward, backward, then one all-reduce of all the gradients (the authors'
 *                   simulator all-reduces the whole model once after training: hmc.py)
 *   overlapped      layer-wise: the backward pass runs from the last layer to the first, each
 *                   layer its weight gradient first, then its input gradient; a layer's
 *                   all-reduce is queued when its weight gradient is ready, the queue runs one
 *                   all-reduce at a time in that order, computation goes on meanwhile.
 * Times in cycles; layers in forward order. */
#ifndef MT_ITER_H
#define MT_ITER_H
#include <stdint.h>

typedef struct {
  uint64_t fwd, bwd_in, bwd_w; /* the accelerator's time for this layer (whole mini-batch) */
  uint64_t ar;                 /* its gradient's all-reduce (0: no parameters) */
} mt_iter_layer;

typedef struct {
  uint64_t compute;    /* forward + backward */
  uint64_t comm;       /* all-reduce time: the one all-reduce, or the sum of the layers' */
  uint64_t exposed;    /* communication not hidden by computation: total - compute */
  uint64_t overlapped; /* communication under computation: comm - exposed */
  uint64_t total;
} mt_iter_result;

/* ar_all: the all-reduce of all gradients at once (used when !overlap). */
mt_iter_result mt_iter_run(const mt_iter_layer *l, int n, uint64_t ar_all, int overlap);
#endif
