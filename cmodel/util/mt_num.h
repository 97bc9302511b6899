/* SPDX-License-Identifier: Apache-2.0
 * mt_num: the one strict number parser of every numeric option, field and spec the tool reads
 * (docs/reference/formats.md "Numbers"). A whole number is decimal digits only: no blank, sign,
 * fraction, exponent, hexadecimal prefix or trailing text, and never more than fits (no value
 * is read modulo 2^64). A real is digits with an optional fraction (a leading '-' only where
 * the range is negative): no exponent, inf or nan. Every refusal names `what` (the option, or
 * the file, line and field), the text, why it is refused and the allowed range. */
#ifndef MT_NUM_H
#define MT_NUM_H
#include <stddef.h>
#include <stdint.h>
#include "util/mt_err.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The whole of text, a whole number in lo..hi, into *out: 0, or -1 with the reason in e. */
int mt_parse_u64(const char *text, uint64_t lo, uint64_t hi, const char *what, mt_err *e, uint64_t *out);
/* The same on the n characters at text (a field of a longer line). */
int mt_parse_u64n(const char *text, size_t n, uint64_t lo, uint64_t hi, const char *what, mt_err *e, uint64_t *out);
/* mt_parse_u64 into an int (hi at most INT_MAX). */
int mt_parse_int(const char *text, int lo, int hi, const char *what, mt_err *e, int *out);

/* The whole of text, a real in lo..hi, into *out: 0, or -1 with the reason in e. */
int mt_parse_real(const char *text, double lo, double hi, const char *what, mt_err *e, double *out);

/* Cursor forms for specs (topology names): the number at *p, which then points after it. The
 * caller checks what follows. 0, or -1 (nothing is a number there, or it is above hi). */
int mt_scan_u64(const char **p, uint64_t *out, uint64_t hi);
int mt_scan_int(const char **p, int *out, int hi);
/* digits with an optional fraction (no sign, exponent, inf or nan), at most 63 characters */
int mt_scan_real(const char **p, double *out);

#ifdef __cplusplus
}
#endif
#endif
