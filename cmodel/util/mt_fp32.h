/* SPDX-License-Identifier: Apache-2.0
 * mt_fp32: the reduction unit's element adders, bit-accurate model of rtl/mt_fp32_add.sv
 * and rtl/mt_reduce_alu.sv.
 * Contract: int32 adds wrap around (two's complement, as uint32_t). fp32 is IEEE-754
 * binary32 addition, round to nearest even, subnormals kept (no flush), signed zeros and
 * infinities as IEEE; any NaN result (NaN operand, inf + -inf) is the canonical quiet NaN
 * 0x7FC00000. Integer arithmetic only: the result never depends on the host FPU. */
#ifndef MT_FP32_H
#define MT_FP32_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type of an all-reduce (the NI's dtype select; RTL dtype_i = value). */
enum mt_dtype { MT_DTYPE_INT32 = 0,
                MT_DTYPE_FP32 = 1 };

#define MT_FP32_QNAN UINT32_C(0x7FC00000)

/* binary32 a + b, RNE, canonical NaN. */
uint32_t mt_fp32_add(uint32_t a, uint32_t b);
/* int32 a + b, wrap-around. */
uint32_t mt_int32_add(uint32_t a, uint32_t b);
/* acc + incoming for one element: MT_DTYPE_FP32 -> mt_fp32_add, anything else -> int32. */
uint32_t mt_reduce_add(int dtype, uint32_t a, uint32_t b);

#ifdef __cplusplus
}
#endif
#endif
