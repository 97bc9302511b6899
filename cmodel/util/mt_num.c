/* SPDX-License-Identifier: Apache-2.0
 * mt_num: the strict number parser (mt_num.h). */
#include "util/mt_num.h"
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SHOW_MAX = 40,
       REAL_MAX = 63 };

static int dig(char c) { return c >= '0' && c <= '9'; }

/* Why the n characters at s (not all digits, or empty) are not a number of the kind wanted. */
static const char *why_not(const char *s, size_t n, int real) {
  if (!n) return "empty";
  if (isspace((unsigned char)s[0])) return "a leading blank";
  if (s[0] == '+' || s[0] == '-') return real ? "a sign where the range has no negative numbers" : "a sign";
  if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return "hexadecimal";
  size_t i = 0;
  while (i < n && dig(s[i])) i++;
  if (!i) {
    if (s[0] == '.') return "no digit before the point";
    return "not a number";
  }
  if (s[i] == '.' && !real) return "a fraction where a whole number is wanted";
  if (s[i] == '.') {
    if (++i == n || !dig(s[i])) return "no digit after the point";
    while (i < n && dig(s[i])) i++;
  }
  if (i == n) return "out of range";
  if ((s[i] == 'e' || s[i] == 'E') && i + 1 < n && (dig(s[i + 1]) || s[i + 1] == '-' || s[i + 1] == '+'))
    return "an exponent (write the digits out)";
  if (isspace((unsigned char)s[i])) return "a blank inside or after the number";
  return "text after the number";
}

/* the n characters at s as a message shows them: at most SHOW_MAX, a control character or
 * a byte above 126 as \xNN, "..." when cut */
static const char *shown(char *buf, const char *s, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n && i < SHOW_MAX; i++) {
    const unsigned char c = (unsigned char)s[i];
    if (c >= 32 && c < 127) buf[o++] = (char)c;
    else o += (size_t)snprintf(buf + o, 5, "\\x%02x", c);
  }
  if (n > SHOW_MAX) memcpy(buf + o, "...", 3), o += 3;
  buf[o] = 0;
  return buf;
}
enum { SHOWN = SHOW_MAX * 4 + 4 };

int mt_parse_u64n(const char *text, size_t n, uint64_t lo, uint64_t hi, const char *what, mt_err *e, uint64_t *out) {
  uint64_t x = 0;
  size_t i = 0;
  int over = 0;
  for (; i < n && dig(text[i]); i++) {
    const unsigned d = (unsigned)(text[i] - '0');
    if (x > (UINT64_MAX - d) / 10) over = 1;
    else x = x * 10 + d;
  }
  const char *why = NULL;
  if (!i || i < n) why = why_not(text, n, 0);
  else if (over || x < lo || x > hi) why = "out of range";
  char sh[SHOWN];
  if (why) return mt_fail(e, "%s: '%s': %s; expected a whole number %" PRIu64 "..%" PRIu64, what, shown(sh, text, n), why, lo, hi);
  *out = x;
  return 0;
}

int mt_parse_u64(const char *text, uint64_t lo, uint64_t hi, const char *what, mt_err *e, uint64_t *out) {
  return mt_parse_u64n(text, strlen(text), lo, hi, what, e, out);
}

int mt_parse_int(const char *text, int lo, int hi, const char *what, mt_err *e, int *out) {
  uint64_t x;
  if (mt_parse_u64(text, (uint64_t)(lo < 0 ? 0 : lo), (uint64_t)(hi < 0 ? 0 : hi), what, e, &x)) return -1;
  *out = (int)x;
  return 0;
}

/* a real bound as text a user could type back: whole values without exponent */
static void bound_text(char *buf, size_t n, double v) {
  if (!(fabs(v) < 1e18)) {
    snprintf(buf, n, "%g", v);
    return;
  }
  snprintf(buf, n, "%.12f", v);
  char *z = buf + strlen(buf);
  while (z[-1] == '0') *--z = 0;
  if (z[-1] == '.') z[-1] = 0;
}

int mt_parse_real(const char *text, double lo, double hi, const char *what, mt_err *e, double *out) {
  const size_t n = strlen(text);
  const char *s = text;
  const int neg = lo < 0 && *s == '-';
  if (neg) s++;
  const char *p = s;
  double x = 0;
  const char *why = NULL;
  if (n > REAL_MAX) why = "more characters than a number takes";
  else if (mt_scan_real(&p, &x) || *p) why = why_not(s, strlen(s), 1);
  else {
    if (neg) x = -x;
    if (!(x >= lo && x <= hi)) why = "out of range";
  }
  if (why) {
    char a[32], b[32];
    bound_text(a, sizeof a, lo);
    bound_text(b, sizeof b, hi);
    char sh[SHOWN];
    return mt_fail(e, "%s: '%s': %s; expected a number %s..%s", what, shown(sh, text, n), why, a, b);
  }
  *out = x;
  return 0;
}

int mt_scan_u64(const char **p, uint64_t *out, uint64_t hi) {
  const char *s = *p;
  uint64_t x = 0;
  if (!dig(*s)) return -1;
  for (; dig(*s); s++) {
    const unsigned d = (unsigned)(*s - '0');
    if (x > (hi - d) / 10 || d > hi) return -1;
    x = x * 10 + d;
  }
  *out = x;
  *p = s;
  return 0;
}

int mt_scan_int(const char **p, int *out, int hi) {
  uint64_t x;
  if (hi < 0 || mt_scan_u64(p, &x, (uint64_t)hi)) return -1;
  *out = (int)x;
  return 0;
}

int mt_scan_real(const char **p, double *out) {
  const char *s = *p, *q = s;
  while (dig(*q)) q++;
  if (q == s) return -1;
  if (*q == '.') {
    q++;
    if (!dig(*q)) return -1;
    while (dig(*q)) q++;
  }
  char buf[REAL_MAX + 1];
  if ((size_t)(q - s) > REAL_MAX) return -1;
  memcpy(buf, s, (size_t)(q - s));
  buf[q - s] = 0;
  *out = strtod(buf, NULL); /* the only strtod: on checked plain decimal text */
  *p = q;
  return 0;
}
