/* SPDX-License-Identifier: Apache-2.0
 * test_num: the strict number parser (cmodel/util/mt_num.c): every form a lenient reader
 * (strtoull, strtod, sscanf) takes is refused with its reason and the range; the edges of the
 * ranges; the cursor forms the spec parsers use. */
#include <stdint.h>
#include <string.h>
#include "util/mt_num.h"
#include "mt_test.h"

/* text must be refused with `why` and `range` in the message */
static void no_u64(const char *text, uint64_t lo, uint64_t hi, const char *why, const char *range) {
  mt_err e = {{0}};
  uint64_t v = 12345;
  const int rc = mt_parse_u64(text, lo, hi, "f.csv:3: field 'X'", &e, &v);
  CHECK(rc == -1 && v == 12345, "'%s' accepted as %llu", text, (unsigned long long)v);
  CHECK(strstr(e.msg, "f.csv:3: field 'X'") && strstr(e.msg, why) && strstr(e.msg, range), "'%s': message '%s' (want '%s', '%s')", text,
        e.msg, why, range);
}

static void yes_u64(const char *text, uint64_t lo, uint64_t hi, uint64_t want) {
  mt_err e = {{0}};
  uint64_t v = 0;
  CHECK(!mt_parse_u64(text, lo, hi, "x", &e, &v) && v == want, "'%s': rc/value %llu, %s", text, (unsigned long long)v, e.msg);
}

static void no_real(const char *text, double lo, double hi, const char *why) {
  mt_err e = {{0}};
  double v = 7;
  CHECK(mt_parse_real(text, lo, hi, "--set: clock_ghz", &e, &v) == -1 && v == 7, "'%s' accepted as %g", text, v);
  CHECK(strstr(e.msg, "--set: clock_ghz") && strstr(e.msg, why), "'%s': message '%s' (want '%s')", text, e.msg, why);
}

static void yes_real(const char *text, double lo, double hi, double want) {
  mt_err e = {{0}};
  double v = -1;
  CHECK(!mt_parse_real(text, lo, hi, "x", &e, &v) && v == want, "'%s': value %.17g, %s", text, v, e.msg);
}

int main(void) {
  /* whole numbers: the forms strtoull/strtoul/sscanf("%llu") accept or wrap */
  no_u64("", 0, 10, "empty", "0..10");
  no_u64(" 5", 0, 10, "a leading blank", "0..10");
  no_u64("\t5", 0, 10, "a leading blank", "0..10");
  no_u64("\v5", 0, 10, "a leading blank", "0..10");
  no_u64("+5", 0, 10, "a sign", "0..10");
  no_u64("-1", 0, 10, "a sign", "0..10");
  no_u64("-18446744073709551615", 0, UINT64_MAX, "a sign", "0..18446744073709551615"); /* strtoull: 1 */
  no_u64("-0", 0, 10, "a sign", "0..10");
  no_u64("0x10", 0, 100, "hexadecimal", "0..100");
  no_u64("0X10", 0, 100, "hexadecimal", "0..100");
  no_u64("1e3", 0, 100000, "an exponent", "0..100000");
  no_u64("1E3", 0, 100000, "an exponent", "0..100000");
  no_u64("2.5", 0, 10, "a fraction", "0..10");
  no_u64("2.0", 0, 10, "a fraction", "0..10");
  no_u64("5 ", 0, 10, "a blank inside or after", "0..10");
  no_u64("5\n", 0, 10, "a blank inside or after", "0..10");
  no_u64("1 2", 0, 100, "a blank inside or after", "0..100");
  no_u64("5x", 0, 10, "text after the number", "0..10");
  no_u64("5e", 0, 10, "text after the number", "0..10");
  no_u64("four", 0, 10, "not a number", "0..10");
  no_u64(".5", 0, 10, "no digit before the point", "0..10");
  no_u64("11", 0, 10, "out of range", "0..10");
  no_u64("0", 1, 10, "out of range", "1..10");
  no_u64("4294967296", 0, UINT32_MAX, "out of range", "0..4294967295");
  no_u64("18446744073709551616", 0, UINT64_MAX, "out of range", "0..18446744073709551615"); /* 2^64 */
  no_u64("99999999999999999999999999999", 0, UINT64_MAX, "out of range", "18446744073709551615");
  no_u64("184467440737095516160", 0, UINT64_MAX, "out of range", "18446744073709551615"); /* 10 * 2^64 wraps to 0 */
  /* a long text is shown cut, never overflowing the message */
  char lng[600];
  memset(lng, '9', sizeof lng - 1);
  lng[sizeof lng - 1] = 0;
  no_u64(lng, 0, 10, "out of range", "0..10");
  yes_u64("0", 0, 10, 0);
  yes_u64("10", 0, 10, 10);
  yes_u64("007", 0, 10, 7);
  yes_u64("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
  yes_u64("4294967295", 0, UINT32_MAX, UINT32_MAX);
  /* the span form reads exactly n characters */
  {
    mt_err e;
    uint64_t v = 0;
    CHECK(!mt_parse_u64n("123 456", 3, 0, 1000, "x", &e, &v) && v == 123, "span 3 of '123 456': %llu", (unsigned long long)v);
    CHECK(mt_parse_u64n("123 456", 4, 0, 1000, "x", &e, &v) == -1, "span 4 of '123 456' accepted");
    CHECK(mt_parse_u64n("123", 0, 0, 1000, "x", &e, &v) == -1 && strstr(e.msg, "empty"), "span 0 accepted: %s", e.msg);
    CHECK(mt_parse_u64n("5", 1, 0, 10, "x", NULL, &v) == 0, "a NULL mt_err");
    CHECK(mt_parse_u64n("-5", 2, 0, 10, "x", NULL, &v) == -1, "a NULL mt_err, refused");
    int i = 0;
    CHECK(!mt_parse_int("2147483647", 0, 2147483647, "x", &e, &i) && i == 2147483647, "int max: %d", i);
    CHECK(mt_parse_int("2147483648", 0, 2147483647, "x", &e, &i) == -1, "int max + 1 accepted");
  }

  /* reals: the forms strtod accepts */
  no_real("", 0, 10, "empty");
  no_real(" 1", 0, 10, "a leading blank");
  no_real("+1", 0, 10, "a sign");
  no_real("-1", 0, 10, "a sign where the range has no negative numbers");
  no_real("1e3", 0, 1e6, "an exponent");
  no_real("1.5e-3", 0, 1e6, "an exponent");
  no_real("0x1p3", 0, 1e6, "hexadecimal");
  no_real("inf", 0, 1e6, "not a number");
  no_real("infinity", 0, 1e6, "not a number");
  no_real("nan", 0, 1e6, "not a number");
  no_real("1.", 0, 10, "no digit after the point");
  no_real(".5", 0, 10, "no digit before the point");
  no_real("1.5x", 0, 10, "text after the number");
  no_real("1,5", 0, 10, "text after the number");
  no_real("10.5", 0, 10, "out of range; expected a number 0..10");
  no_real("0.5", 1, 10, "out of range; expected a number 1..10");
  no_real("0.0000001", 0.001, 10, "0.001..10");
  char lr[100];
  memset(lr, '1', sizeof lr - 1);
  lr[sizeof lr - 1] = 0;
  no_real(lr, 0, 1e300, "more characters than a number takes");
  yes_real("0", 0, 10, 0);
  yes_real("10", 0, 10, 10);
  yes_real("2.5", 0, 10, 2.5);
  yes_real("0.000001", 0, 10, 0.000001);
  yes_real("-2.5", -10, 10, -2.5);
  no_real("-20", -10, 10, "out of range");
  no_real("--2", -10, 10, "a sign");

  /* cursor forms: the number at *p, *p after it */
  {
    const char *p = "16:500ns";
    uint64_t u;
    int i;
    double d;
    CHECK(!mt_scan_u64(&p, &u, 100) && u == 16 && *p == ':', "scan 16: %llu '%s'", (unsigned long long)u, p);
    p = "1.25:5000";
    CHECK(!mt_scan_real(&p, &d) && d == 1.25 && *p == ':', "scan 1.25: %g '%s'", d, p);
    p = "101x";
    CHECK(mt_scan_int(&p, &i, 100) == -1 && *p == '1', "scan 101 above 100 accepted");
    p = "99999999999999999999999";
    CHECK(mt_scan_u64(&p, &u, UINT64_MAX) == -1, "scan past 2^64 accepted");
    p = "18446744073709551615,";
    CHECK(!mt_scan_u64(&p, &u, UINT64_MAX) && u == UINT64_MAX && *p == ',', "scan 2^64-1");
    p = "+4";
    CHECK(mt_scan_int(&p, &i, 100) == -1, "scan '+4' accepted");
    p = " 4";
    CHECK(mt_scan_int(&p, &i, 100) == -1, "scan ' 4' accepted");
    p = "1.";
    CHECK(mt_scan_real(&p, &d) == -1, "scan '1.' accepted");
    p = "1e5";
    CHECK(!mt_scan_real(&p, &d) && d == 1 && *p == 'e', "scan '1e5' stops at e");
  }
  return MT_TEST_END("num");
}
