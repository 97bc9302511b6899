/* SPDX-License-Identifier: Apache-2.0
 * mt_ref: the all-reduce computed from the inputs and the schedule tables alone, with
 * no timing, in the documented reduction order (docs/reference/interfaces.md): at every node a
 * flow's partial sum is its own chunk, then each child's partial sum added in the
 * order of the reduce entry's Children field. Used to check the NI, the network model
 * and the RTL bit for bit, for int32 and fp32 alike. */
#ifndef MT_REF_H
#define MT_REF_H
#include <stdint.h>
#include "plan/mt_sched.h"
#include "util/mt_rng.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Node inputs from a seed (docs/reference/formats.md): xorshift32 seeded with
 * seed * 0x9E3779B1 ^ (node + 1) * 0x85EBCA6B (0 -> 1). int32: one draw per element.
 * fp32: two draws per element, sign = bit 31 of the first, exponent 112 + (bits 23..27
 * of the first) (so |x| in [2^-15, 2^17)), mantissa = low 23 bits of the second. */
void mt_ref_inputs(uint32_t seed, int node, int dtype, uint32_t *words, uint64_t nwords);
/* Words [w0, w0 + nwords) of the same inputs (J: mt_xs32_jumps_init), without the draws before w0. */
void mt_ref_inputs_at(const mt_xs32_jumps *J, uint32_t seed, int node, int dtype, uint64_t w0, uint32_t *words, uint64_t nwords);
/* partial[n] (bytes/4 words): for every flow n sends a reduce for, its partial sum; for
 * the flows n is root of, the final sum; elsewhere n's input. */
int mt_ref_partials(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint32_t **partial, mt_err *e);
/* The result every node must end with (bytes/4 words). */
int mt_ref_result(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint32_t *out, mt_err *e);
/* Words [w0, w0 + n) of that result, from those words of every node's inputs (in[x] points at
 * node x's word w0): the reduction is element by element, so a range needs only its own
 * words (nodes x n words of partial sums instead of nodes x bytes). */
int mt_ref_result_range(const mt_sched *s, const mt_tables *tb, int dtype, uint32_t *const *in, uint64_t w0, uint64_t n, uint32_t *out,
                        mt_err *e);

#ifdef __cplusplus
}
#endif
#endif
