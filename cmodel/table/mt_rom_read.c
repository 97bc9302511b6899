/* SPDX-License-Identifier: Apache-2.0
 * mt_rom_read: reading one ROM image back, strictly. An image gives every address
 * 0..depth-1 exactly one word of at most `width` bits, its header (where the format has
 * one) agrees with layout.json, and nothing follows its end; anything else is refused
 * with the file, the line and the reason. A tool loading an image onto a board or into
 * a simulator would fill a missing word with 0 (a NOP at step 0) or X, and would
 * truncate a wide one, so "mostly right" is not decodable. */
#include "table/mt_rom.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "util/mt_num.h"

typedef struct {
  const char *path;
  int fmt, node;
  const mt_layout *ly;
  int depth, nw;
  uint64_t *words;
  int *line_of; /* the line that gave each address its word; 0: none yet */
  const char *p, *end;
  int line, last_line; /* current line; line of the last token */
  int bol;             /* at the beginning of a line (COE comments, C preprocessor lines) */
  int coe_vec;         /* COE: inside the vector, where ';' ends it (else it starts a comment) */
  mt_err *e;
} rd_t;

/* kind: 'w' a word (run of other characters), '#' a whole '#' line (.mem, C header),
 * 'R' "..", or the punctuation character itself */
typedef struct {
  const char *s;
  int n, line, kind;
} tok_t;

/* a token for a message: at most 40 characters, anything unprintable as \xNN */
static const char *tq(const tok_t *t, char *buf) {
  int o = 0;
  for (int i = 0; i < t->n && i < 40; i++) {
    unsigned char c = (unsigned char)t->s[i];
    o += isprint(c) ? sprintf(buf + o, "%c", c) : sprintf(buf + o, "\\x%02x", c);
  }
  if (t->n > 40) o += sprintf(buf + o, "...");
  buf[o] = 0;
  return buf;
}
#define TQ(t) tq((t), (char[200]){0})

static int rfail(const rd_t *r, int line, const char *fmt, ...) {
  char m[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return line > 0 ? mt_fail(r->e, "%s:%d: %s", r->path, line, m) : mt_fail(r->e, "%s: %s", r->path, m);
}

static int is_punct(char c) {
  switch (c) {
  case ':':
  case ';':
  case '[':
  case ']':
  case '=':
  case ',':
  case '{':
  case '}':
  case '.': return 1;
  default: return 0;
  }
}
/* a hexadecimal digit's value, -1 if none */
static int hexval(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
                              : c >= 'A' && c <= 'F'                                     ? c - 'A' + 10
                                                                                         : -1; }

/* Skip blanks and comments: // and block comments (hex, C header), -- and %...% (MIF),
 * ';' first on a line outside the vector (COE). */
static int skip(rd_t *r) {
  while (r->p < r->end) {
    const char *p = r->p;
    const int two = r->end - p >= 2;
    if (*p == '\n') {
      r->line++;
      r->bol = 1;
      r->p++;
    } else if (isspace((unsigned char)*p)) r->p++;
    else if ((r->fmt == MT_ROM_HEX || r->fmt == MT_ROM_CHDR) && two && p[0] == '/' && p[1] == '/') {
      while (r->p < r->end && *r->p != '\n') r->p++;
    } else if ((r->fmt == MT_ROM_HEX || r->fmt == MT_ROM_CHDR) && two && p[0] == '/' && p[1] == '*') {
      int at = r->line;
      for (r->p += 2; r->p < r->end && !(r->p[0] == '*' && r->end - r->p >= 2 && r->p[1] == '/'); r->p++)
        if (*r->p == '\n') r->line++;
      if (r->p >= r->end) return rfail(r, at, "a /* comment is never closed (truncated?)");
      r->p += 2;
    } else if (r->fmt == MT_ROM_MIF && two && p[0] == '-' && p[1] == '-') {
      while (r->p < r->end && *r->p != '\n') r->p++;
    } else if (r->fmt == MT_ROM_MIF && *p == '%') {
      int at = r->line;
      for (r->p++; r->p < r->end && *r->p != '%'; r->p++)
        if (*r->p == '\n') r->line++;
      if (r->p >= r->end) return rfail(r, at, "a %% comment is never closed (truncated?)");
      r->p++;
    } else if (r->fmt == MT_ROM_COE && *p == ';' && r->bol && !r->coe_vec) {
      while (r->p < r->end && *r->p != '\n') r->p++;
    } else return 0;
  }
  return 0;
}

/* The next token: 1, 0 at the end of the file, -1 on an error. */
static int next(rd_t *r, tok_t *t) {
  if (skip(r)) return -1;
  if (r->p >= r->end) return 0;
  const char *p = r->p;
  t->s = p;
  t->line = r->last_line = r->line;
  if (*p == '#' && (r->fmt == MT_ROM_MEM || (r->fmt == MT_ROM_CHDR && r->bol))) {
    while (r->p < r->end && *r->p != '\n') r->p++;
    t->kind = '#';
    t->n = (int)(r->p - p);
    while (t->n > 1 && isspace((unsigned char)p[t->n - 1])) t->n--;
  } else if (*p == '.' && r->end - p >= 2 && p[1] == '.') {
    t->kind = 'R';
    t->n = 2;
    r->p += 2;
  } else if (is_punct(*p)) {
    t->kind = *p;
    t->n = 1;
    r->p++;
  } else {
    while (r->p < r->end && !isspace((unsigned char)*r->p) && !is_punct(*r->p) &&
           !((r->fmt == MT_ROM_HEX || r->fmt == MT_ROM_CHDR) && r->p[0] == '/' && r->end - r->p >= 2 && (r->p[1] == '/' || r->p[1] == '*')) &&
           !(r->fmt == MT_ROM_MIF && (*r->p == '%' || (r->p[0] == '-' && r->end - r->p >= 2 && r->p[1] == '-'))) && !(r->fmt == MT_ROM_MEM && *r->p == '#'))
      r->p++;
    t->kind = 'w';
    t->n = (int)(r->p - p);
  }
  r->bol = 0;
  return 1;
}

static int tok_is(const tok_t *t, const char *word) { return t->kind == 'w' && (int)strlen(word) == t->n && !strncasecmp(t->s, word, (size_t)t->n); }

/* The next token must be punctuation `kind` (or the word `word`); else an error saying `what`. */
static int expect(rd_t *r, int kind, const char *word, const char *what) {
  tok_t t;
  int k = next(r, &t);
  if (k < 0) return -1;
  if (k == 0) return rfail(r, r->last_line, "the file ends where %s belongs (truncated?)", what);
  if (word ? tok_is(&t, word) : t.kind == kind) return 0;
  return rfail(r, t.line, "'%s' where %s belongs", TQ(&t), what);
}

/* A whole number in `base`; -1 if the token is not one. Saturates far above any depth. */
static int number(const tok_t *t, int base, long long *v) {
  *v = 0;
  if (t->kind != 'w' || t->n == 0) return -1;
  for (int i = 0; i < t->n; i++) {
    int c = tolower((unsigned char)t->s[i]);
    int d = isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                                                          : 99;
    if (d >= base) return -1;
    if (*v < (1ll << 40)) *v = *v * base + d;
  }
  return 0;
}

/* A hexadecimal word (digits, '_' separators) into w[nw], at most `width` bits. */
static int hex_word(const rd_t *r, const tok_t *t, uint64_t *w) {
  const int width = r->ly->width;
  memset(w, 0, (size_t)r->nw * 8);
  int bit = 0, digits = 0;
  for (int i = t->n; i-- > 0;) {
    char c = t->s[i];
    if (c == '_') continue;
    int lc = tolower((unsigned char)c), v = hexval(c);
    const tok_t d1 = {t->s + i, 1, t->line, 'w'};
    if (v < 0 && strchr("xz?", lc))
      return rfail(r, t->line, "'%s': digit '%c' would load as an unknown value (allowed: 0-9, a-f, _)", TQ(t), c);
    if (v < 0) return rfail(r, t->line, "'%s' is not a hexadecimal word (digit '%s'; allowed: 0-9, a-f, _)", TQ(t), TQ(&d1));
    digits++;
    if (v && (bit >= width || (width - bit < 4 && v >> (width - bit))))
      return rfail(r, t->line, "'%s' has more than %d bits (layout.json width)", TQ(t), width);
    if (v) w[bit / 64] |= (uint64_t)v << (bit % 64); /* bit is a multiple of 4: never straddles */
    bit += 4;
  }
  if (!digits) return rfail(r, t->line, "'%s' has no digits", TQ(t));
  return 0;
}

/* Word token t for address a: in range, not given before, a valid word. */
static int store(rd_t *r, long long a, const tok_t *t) {
  if (a < 0 || a >= r->depth)
    return rfail(r, t->line, "a word for address %lld, outside 0..%d (layout.json depth %d)", a, r->depth - 1, r->depth);
  if (r->line_of[a]) return rfail(r, t->line, "address %lld is given a second word (the first on line %d)", a, r->line_of[a]);
  if (hex_word(r, t, r->words + (size_t)a * (size_t)r->nw)) return -1;
  r->line_of[a] = t->line;
  return 0;
}

/* Every address got its word. */
static int covered(rd_t *r) {
  for (int a = 0; a < r->depth; a++) {
    if (r->line_of[a]) continue;
    int b = a;
    while (b < r->depth && !r->line_of[b]) b++;
    char gap[48];
    snprintf(gap, sizeof gap, b - a > 1 ? "addresses %d..%d" : "address %d", a, b - 1);
    if (b < r->depth)
      return rfail(r, r->line_of[b], "no word for %s before this one, address %d (every address 0..%d needs exactly one word)", gap, b,
                   r->depth - 1);
    int given = 0;
    for (int i = 0; i < r->depth; i++) given += r->line_of[i] > 0;
    return rfail(r, r->last_line, "the image ends with %d of its %d words (layout.json depth; no word for address %d on; "
                                  "a short image would load as X in simulation)",
                 given, r->depth, a);
  }
  return 0;
}

/* $readmemh: words and @addresses (hexadecimal); comments. */
static int read_hex(rd_t *r) {
  long long a = 0;
  tok_t t;
  int k;
  while ((k = next(r, &t)) > 0) {
    if (t.kind == 'w' && t.s[0] == '@') {
      tok_t u = {t.s + 1, t.n - 1, t.line, 'w'};
      if (number(&u, 16, &a)) return rfail(r, t.line, "'%s' is not an address (@ and hexadecimal digits)", TQ(&t));
      if (a >= r->depth) return rfail(r, t.line, "address %s = %lld is outside 0..%d (layout.json depth %d)", TQ(&t), a, r->depth - 1, r->depth);
      continue;
    }
    if (t.kind != 'w') return rfail(r, t.line, "unexpected '%s' (a $readmemh image holds hexadecimal words, @addresses and comments)", TQ(&t));
    if (a >= r->depth) return rfail(r, t.line, "'%s' is a word beyond the last address %d (layout.json depth %d)", TQ(&t), r->depth - 1, r->depth);
    if (store(r, a++, &t)) return -1;
  }
  return k < 0 ? -1 : covered(r);
}

/* bram (ecpbram, icebram): words alone, ceil(width/4) digits each, one a line from address 0. */
static int read_bram(rd_t *r) {
  const int nd = (r->ly->width + 3) / 4;
  long long a = 0;
  tok_t t;
  int k;
  while ((k = next(r, &t)) > 0) {
    int hexdigits = t.kind == 'w';
    for (int i = 0; i < t.n && hexdigits; i++) hexdigits = isxdigit((unsigned char)t.s[i]) != 0;
    if (!hexdigits)
      return rfail(r, t.line, "unexpected '%s' (a bram image holds hexadecimal words alone, no comments or @addresses)", TQ(&t));
    if (t.n != nd) return rfail(r, t.line, "'%s' has %d digits; every word of a bram image has %d (layout.json width %d)", TQ(&t), t.n, nd, r->ly->width);
    if (a >= r->depth) return rfail(r, t.line, "'%s' is a word beyond the last address %d (layout.json depth %d)", TQ(&t), r->depth - 1, r->depth);
    if (store(r, a++, &t)) return -1;
  }
  return k < 0 ? -1 : covered(r);
}

/* MIF: header statements, CONTENT BEGIN, "a : w ...;" / "[a..b] : w;", END; */
static int read_mif(rd_t *r) {
  static const char *const radixes[] = {"BIN", "OCT", "DEC", "UNS", "HEX"};
  static const int bases[] = {2, 8, 10, 10, 16};
  long long W = -1, D = -1;
  int abase = -1, wl = 0, dl = 0, al = 0, hl = 0;
  tok_t t;
  int k;
  for (;;) {
    if ((k = next(r, &t)) < 0) return -1;
    if (!k) return rfail(r, r->last_line, "no CONTENT BEGIN (the file ends in the MIF header: truncated?)");
    if (tok_is(&t, "CONTENT")) {
      if (expect(r, 0, "BEGIN", "BEGIN after CONTENT")) return -1;
      break;
    }
    int *lp = tok_is(&t, "WIDTH") ? &wl : tok_is(&t, "DEPTH") ? &dl
      : tok_is(&t, "ADDRESS_RADIX")                           ? &al
      : tok_is(&t, "DATA_RADIX")                              ? &hl
                                                              : NULL;
    if (!lp) return rfail(r, t.line, "'%s' is not a MIF header statement (WIDTH=, DEPTH=, ADDRESS_RADIX=, DATA_RADIX=, CONTENT BEGIN)", TQ(&t));
    if (*lp) return rfail(r, t.line, "%s is given twice (first on line %d)", TQ(&t), *lp);
    *lp = t.line;
    tok_t v;
    if (expect(r, '=', NULL, "'='") || (k = next(r, &v)) < 0) return -1;
    if (!k || v.kind != 'w') return rfail(r, t.line, "%s= has no value", TQ(&t));
    if (lp == &wl || lp == &dl) {
      if (number(&v, 10, lp == &wl ? &W : &D)) return rfail(r, v.line, "%s=%s is not a decimal number", TQ(&t), TQ(&v));
    } else {
      int i = 0;
      while (i < 5 && !tok_is(&v, radixes[i])) i++;
      if (i == 5) return rfail(r, v.line, "%s=%s is not a radix (BIN, OCT, DEC, UNS, HEX)", TQ(&t), TQ(&v));
      if (lp == &al) abase = bases[i];
      else if (i != 4) return rfail(r, v.line, "DATA_RADIX=%s: the decoder reads HEX data only (what the writer writes)", TQ(&v));
    }
    if (expect(r, ';', NULL, "';' after the header value")) return -1;
  }
  if (!wl || !dl || !al || !hl)
    return rfail(r, t.line, "the MIF header lacks %s before CONTENT BEGIN", !wl ? "WIDTH=" : !dl ? "DEPTH="
                   : !al                                                                         ? "ADDRESS_RADIX="
                                                                                                 : "DATA_RADIX=");
  if (W != r->ly->width) return rfail(r, wl, "WIDTH=%lld, but layout.json width is %d", W, r->ly->width);
  if (D != r->depth) return rfail(r, dl, "DEPTH=%lld, but layout.json depth is %d", D, r->depth);
  for (;;) {
    if ((k = next(r, &t)) < 0) return -1;
    if (!k) return rfail(r, r->last_line, "no END; (the file ends inside CONTENT: truncated?)");
    if (tok_is(&t, "END")) {
      if (expect(r, ';', NULL, "';' after END")) return -1;
      break;
    }
    long long a, b;
    int range = t.kind == '[';
    tok_t at = t;
    if (range && (k = next(r, &at)) < 0) return -1;
    if (number(&at, abase, &a)) return rfail(r, at.line, "'%s' is not an address in ADDRESS_RADIX (expected 'address : word;' or END;)", TQ(&at));
    b = a;
    if (range) {
      tok_t bt;
      if (expect(r, 'R', NULL, "'..' of an address range") || (k = next(r, &bt)) < 0) return -1;
      if (!k || number(&bt, abase, &b) || b < a) return rfail(r, at.line, "an address range must be [first..last], first <= last");
      if (expect(r, ']', NULL, "']' closing the address range")) return -1;
    }
    if (expect(r, ':', NULL, "':' after the address")) return -1;
    int nwd = 0;
    while ((k = next(r, &t)) > 0 && t.kind == 'w') {
      if (range && nwd) return rfail(r, t.line, "the range [%lld..%lld] takes one word here (a second: '%s')", a, b, TQ(&t));
      for (long long x = a + nwd; x <= (range ? b : a + nwd); x++)
        if (store(r, x, &t)) return -1;
      nwd++;
    }
    if (k < 0) return -1;
    if (!k) return rfail(r, r->last_line, "no END; (the file ends inside CONTENT: truncated?)");
    if (t.kind != ';') return rfail(r, t.line, "missing ';' after the word for address %lld", a);
    if (!nwd) return rfail(r, t.line, "address %lld has no word", a);
  }
  if ((k = next(r, &t)) != 0) return k < 0 ? -1 : rfail(r, t.line, "text after END;: '%s'", TQ(&t));
  return covered(r);
}

/* COE: memory_initialization_radix=16; memory_initialization_vector= w, w, ... w; */
static int read_coe(rd_t *r) {
  int rl = 0;
  tok_t t, v;
  int k;
  for (;;) {
    if ((k = next(r, &t)) < 0) return -1;
    if (!k) return rfail(r, r->last_line, "no memory_initialization_vector= (truncated?)");
    int radix = tok_is(&t, "memory_initialization_radix");
    if (!radix && !tok_is(&t, "memory_initialization_vector"))
      return rfail(r, t.line, "'%s' is not a COE statement (memory_initialization_radix=16; then memory_initialization_vector=)", TQ(&t));
    if (expect(r, '=', NULL, "'='")) return -1;
    if (!radix) {
      if (!rl) return rfail(r, t.line, "memory_initialization_vector= before memory_initialization_radix= (the radix comes first)");
      break;
    }
    if (rl) return rfail(r, t.line, "memory_initialization_radix is given twice (first on line %d)", rl);
    rl = t.line;
    long long x;
    if ((k = next(r, &v)) <= 0) return k < 0 ? -1 : rfail(r, t.line, "memory_initialization_radix= has no value");
    if (number(&v, 10, &x) || x != 16) return rfail(r, v.line, "memory_initialization_radix=%s: the decoder reads radix 16 only (what the writer writes)", TQ(&v));
    if (expect(r, ';', NULL, "';' after the radix")) return -1;
  }
  r->coe_vec = 1;
  long long a = 0;
  int after_word = 0;
  for (;;) {
    if ((k = next(r, &t)) < 0) return -1;
    if (!k) return rfail(r, r->last_line, "the vector has no closing ';' (truncated?)");
    if (t.kind == ';') {
      if (!after_word) return rfail(r, t.line, "%s", a ? "a ',' before the closing ';' (an empty value)" : "the vector is empty");
      break;
    }
    if (t.kind == ',') {
      if (!after_word) return rfail(r, t.line, "an empty value (',' with no word before it)");
      after_word = 0;
      continue;
    }
    if (t.kind != 'w') return rfail(r, t.line, "unexpected '%s' in the vector", TQ(&t));
    if (a >= r->depth) return rfail(r, t.line, "'%s' is a word beyond the last address %d (layout.json depth %d)", TQ(&t), r->depth - 1, r->depth);
    if (store(r, a++, &t)) return -1;
    after_word = 1;
  }
  r->coe_vec = 0;
  if ((k = next(r, &t)) != 0) return k < 0 ? -1 : rfail(r, t.line, "text after the vector's closing ';': '%s'", TQ(&t));
  return covered(r);
}

/* Lattice .mem: #Key=Value header lines, #Data, one word per line; '#' comments. */
static int read_mem(rd_t *r) {
  static const char *const keys[] = {"Format", "Depth", "Width", "AddrRadix", "DataRadix"};
  int kl[5] = {0};
  long long val[5] = {0};
  tok_t t;
  int k, data = 0;
  while (!data) {
    if ((k = next(r, &t)) < 0) return -1;
    if (!k) return rfail(r, r->last_line, "no #Data line (truncated?)");
    if (t.kind != '#') return rfail(r, t.line, "'%s' before the #Data line", TQ(&t));
    const char *s = t.s + 1;
    int n = t.n - 1;
    if (n == 0 || isspace((unsigned char)*s)) continue; /* "# comment" */
    if (n == 4 && !strncmp(s, "Data", 4)) {
      data = t.line;
      break;
    }
    const char *eq = memchr(s, '=', (size_t)n);
    int i = 0;
    while (eq && i < 5 && !((int)strlen(keys[i]) == eq - s && !strncmp(s, keys[i], (size_t)(eq - s)))) i++;
    if (!eq || i == 5) return rfail(r, t.line, "'%s' is not a .mem header line (#Format=Hex, #Depth=, #Width=, #AddrRadix=3, #DataRadix=3, #Data)", TQ(&t));
    if (kl[i]) return rfail(r, t.line, "#%s is given twice (first on line %d)", keys[i], kl[i]);
    kl[i] = t.line;
    tok_t v = {eq + 1, n - (int)(eq + 1 - s), t.line, 'w'};
    if (i == 0 ? !tok_is(&v, "Hex") : number(&v, 10, &val[i]))
      return rfail(r, t.line, "'%s': the value must be %s", TQ(&t), i == 0 ? "Hex" : "a decimal number");
  }
  for (int i = 0; i < 5; i++)
    if (!kl[i]) return rfail(r, data, "the .mem header lacks #%s= before #Data", keys[i]);
  if (val[1] != r->depth) return rfail(r, kl[1], "#Depth=%lld, but layout.json depth is %d", val[1], r->depth);
  if (val[2] != r->ly->width) return rfail(r, kl[2], "#Width=%lld, but layout.json width is %d", val[2], r->ly->width);
  for (int i = 3; i < 5; i++)
    if (val[i] != 3) return rfail(r, kl[i], "#%s=%lld: the decoder reads 3 (hexadecimal) only (what the writer writes)", keys[i], val[i]);
  long long a = 0;
  int prev = 0;
  while ((k = next(r, &t)) > 0) {
    if (t.kind == '#') continue;
    if (t.kind != 'w') return rfail(r, t.line, "unexpected '%s' (a .mem data line is one hexadecimal word)", TQ(&t));
    if (t.line == prev) return rfail(r, t.line, "a second word '%s' on one line (a .mem image has one word per line)", TQ(&t));
    prev = t.line;
    if (a >= r->depth) return rfail(r, t.line, "'%s' is a word beyond the last address %d (#Depth=%d)", TQ(&t), r->depth - 1, r->depth);
    if (store(r, a++, &t)) return -1;
  }
  return k < 0 ? -1 : covered(r);
}

/* The C header the writer makes: #defines of WIDTH and DEPTH, then
 * static const uint8_t mt_rom_node<i>[DEPTH][BYTES] = { {0x.., ...}, ... }; */
static int read_chdr(rd_t *r) {
  const int nb = (r->ly->width + 7) / 8;
  long long W = -1, D = -1;
  int wl = 0, dl = 0;
  tok_t t;
  int k;
  for (;;) {
    if ((k = next(r, &t)) < 0) return -1;
    if (!k) return rfail(r, r->last_line, "no array 'static const uint8_t mt_rom_node<i>[DEPTH][BYTES]' (truncated?)");
    if (t.kind == 'w' && tok_is(&t, "static")) break;
    if (t.kind != '#') return rfail(r, t.line, "unexpected '%s' before the array", TQ(&t));
    char ln[256], name[128];
    int node, len = t.n < 255 ? t.n : 255, at = 0;
    memcpy(ln, t.s, (size_t)len);
    ln[len] = 0;
    if (sscanf(ln, "# include %127s", name) == 1) continue;
    /* "# define NAME VALUE": VALUE a whole number (mt_parse_u64), NAME MT_ROM_NODE<i>_... */
    const char *np = name + 11;
    uint64_t v = 0;
    mt_err ve;
    if (sscanf(ln, "# define %127s %n", name, &at) != 1 || !at || strncmp(name, "MT_ROM_NODE", 11) || mt_scan_int(&np, &node, MT_MAX_NODES) ||
        *np != '_')
      return rfail(r, t.line, "'%s': expected #include or #define MT_ROM_NODE<i>_WIDTH / _DEPTH", TQ(&t));
    if (mt_parse_u64(ln + at, 0, INT32_MAX, name, &ve, &v)) return rfail(r, t.line, "%s", ve.msg);
    const tok_t nt = {name, (int)strlen(name), t.line, 'w'};
    const char *us = strrchr(name, '_');
    int isw = !strcmp(us, "_WIDTH"), isd = !strcmp(us, "_DEPTH");
    if (!isw && !isd) return rfail(r, t.line, "'%s' is not MT_ROM_NODE<i>_WIDTH or _DEPTH", TQ(&nt));
    if (r->node >= 0 && node != r->node) return rfail(r, t.line, "%s names node %d; this is node %d's image", TQ(&nt), node, r->node);
    int *lp = isw ? &wl : &dl;
    if (*lp) return rfail(r, t.line, "%s is defined twice (first on line %d)", TQ(&nt), *lp);
    *lp = t.line;
    *(isw ? &W : &D) = v;
  }
  if (!wl || !dl) return rfail(r, t.line, "the header lacks #define MT_ROM_NODE<i>_%s", !wl ? "WIDTH" : "DEPTH");
  if (W != r->ly->width) return rfail(r, wl, "WIDTH %lld, but layout.json width is %d", W, r->ly->width);
  if (D != r->depth) return rfail(r, dl, "DEPTH %lld, but layout.json depth is %d", D, r->depth);
  tok_t dt, bt;
  if (expect(r, 0, "const", "'const'") || expect(r, 0, "uint8_t", "'uint8_t'") || (k = next(r, &t)) < 0) return -1;
  char want[48];
  snprintf(want, sizeof want, "mt_rom_node%d", r->node);
  if (!k || t.kind != 'w' || t.n < 11 || strncmp(t.s, "mt_rom_node", 11) || (r->node >= 0 && !tok_is(&t, want)))
    return rfail(r, k ? t.line : r->last_line, "the array must be named %s", r->node >= 0 ? want : "mt_rom_node<i>");
  long long d2, b2;
  if (expect(r, '[', NULL, "'['") || next(r, &dt) <= 0 || expect(r, ']', NULL, "']'") || expect(r, '[', NULL, "'['") || next(r, &bt) <= 0 ||
      expect(r, ']', NULL, "']'") || expect(r, '=', NULL, "'='") || expect(r, '{', NULL, "'{'"))
    return r->e->msg[0] ? -1 : rfail(r, r->last_line, "the array declaration is cut short");
  if (number(&dt, 10, &d2) || d2 != r->depth) return rfail(r, dt.line, "array of %s rows, but layout.json depth is %d", TQ(&dt), r->depth);
  if (number(&bt, 10, &b2) || b2 != nb) return rfail(r, bt.line, "rows of %s bytes, but layout.json width %d takes %d", TQ(&bt), r->ly->width, nb);
  long long a = 0;
  for (;;) {
    if ((k = next(r, &t)) <= 0) return k < 0 ? -1 : rfail(r, r->last_line, "the array is not closed (truncated?)");
    if (t.kind == '}') break;
    if (t.kind != '{') return rfail(r, t.line, "'%s' where a row '{0x.., ...}' belongs", TQ(&t));
    if (a >= r->depth) return rfail(r, t.line, "a row beyond the last address %d (layout.json depth %d)", r->depth - 1, r->depth);
    uint64_t *w = r->words + (size_t)a * (size_t)r->nw;
    int b = 0;
    long long last = 0;
    for (;;) {
      tok_t x;
      long long v;
      if ((k = next(r, &x)) <= 0) return k < 0 ? -1 : rfail(r, r->last_line, "row %lld is not closed (truncated?)", a);
      if (x.kind == 'w' && x.n >= 3 && x.n <= 4 && x.s[0] == '0' && (x.s[1] == 'x' || x.s[1] == 'X')) {
        tok_t hx = {x.s + 2, x.n - 2, x.line, 'w'};
        if (number(&hx, 16, &v)) v = -1;
      } else v = -1;
      if (v < 0) return rfail(r, x.line, "row %lld: '%s' is not a byte (0x00..0xff)", a, TQ(&x));
      if (b >= nb) return rfail(r, x.line, "row %lld has more than %d bytes", a, nb);
      if (b == nb - 1) last = v;
      w[b / 8] |= (uint64_t)v << (8 * (b % 8));
      b++;
      if ((k = next(r, &x)) <= 0) return k < 0 ? -1 : rfail(r, r->last_line, "row %lld is not closed (truncated?)", a);
      if (x.kind == '}') break;
      if (x.kind != ',') return rfail(r, x.line, "row %lld: '%s' where ',' or '}' belongs", a, TQ(&x));
    }
    if (b != nb) return rfail(r, t.line, "row %lld has %d bytes, expected %d", a, b, nb);
    if (r->ly->width % 8 && last >> (r->ly->width % 8))
      return rfail(r, t.line, "row %lld: byte %d = 0x%02llx sets bits above the width %d", a, nb - 1, last, r->ly->width);
    r->line_of[a++] = t.line;
    if ((k = next(r, &t)) <= 0) return k < 0 ? -1 : rfail(r, r->last_line, "the array is not closed (truncated?)");
    if (t.kind == '}') break;
    if (t.kind != ',') return rfail(r, t.line, "'%s' where ',' or '}' belongs", TQ(&t));
  }
  if (a != r->depth) return rfail(r, t.line, "the array has %lld rows, expected %d (layout.json depth)", a, r->depth);
  if (expect(r, ';', NULL, "';' after the array")) return -1;
  if ((k = next(r, &t)) != 0) return k < 0 ? -1 : rfail(r, t.line, "text after the array: '%s'", TQ(&t));
  return 0;
}

/* raw: exactly depth words of ceil(width/8) bytes, no bit above the width */
static int read_bin(rd_t *r, const unsigned char *buf, size_t len) {
  const size_t nb = (size_t)(r->ly->width + 7) / 8;
  if (len != nb * (size_t)r->depth)
    return rfail(r, 0, "%zu bytes, expected %d words of %zu bytes = %zu (layout.json depth and width)", len, r->depth, nb, nb * (size_t)r->depth);
  for (int i = 0; i < r->depth; i++)
    for (size_t b = 0; b < nb; b++) {
      unsigned v = buf[(size_t)i * nb + b];
      if (b == nb - 1 && r->ly->width % 8 && v >> (r->ly->width % 8))
        return rfail(r, 0, "word %d (byte %zu = 0x%02x) sets bits above the width %d", i, (size_t)i * nb + b, v, r->ly->width);
      r->words[(size_t)i * (size_t)r->nw + b / 8] |= (uint64_t)v << (8 * (b % 8));
    }
  return 0;
}

int mt_rom_read_node(const char *path, int fmt, const mt_layout *ly, int depth, int node, uint64_t *words, int *lines, mt_err *e) {
  if (fmt < 0 || fmt >= MT_ROM_NFORMATS) return mt_fail(e, "%s: unknown ROM format %d", path, fmt);
  rd_t r = {.path = path, .fmt = fmt, .node = node, .ly = ly, .depth = depth, .nw = mt_layout_words(ly), .words = words, .line = 1, .bol = 1, .e = e};
  e->msg[0] = 0;
  struct stat st;
  if (stat(path, &st)) return mt_fail(e, "%s: cannot open: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode)) return mt_fail(e, "%s: not a regular file", path);
  /* far more than any spelling of depth words takes: refuse before reading it */
  const long long cap = (1ll << 20) + (long long)depth * ((ly->width + 7) / 8 * 8 + 256);
  if (st.st_size > cap) return mt_fail(e, "%s: %lld bytes, more than a %d-word image of %d bits can take (%lld)", path, (long long)st.st_size, depth, ly->width, cap);
  FILE *f = fopen(path, "rb");
  if (!f) return mt_fail(e, "%s: cannot open: %s", path, strerror(errno));
  size_t cap2 = (size_t)st.st_size + 1, len = 0, got;
  char *buf = mt_xcalloc(cap2 + 1, 1);
  while (len < cap2 && (got = fread(buf + len, 1, cap2 - len, f)) > 0) len += got;
  int rerr = ferror(f);
  fclose(f);
  int *line_of = lines ? lines : mt_xcalloc((size_t)depth, sizeof(int));
  memset(line_of, 0, (size_t)depth * sizeof(int));
  memset(words, 0, (size_t)depth * (size_t)r.nw * 8);
  r.line_of = line_of;
  r.p = buf + (fmt != MT_ROM_BIN && len >= 3 && !memcmp(buf, "\xEF\xBB\xBF", 3) ? 3 : 0); /* a text image's byte-order mark */
  r.end = buf + len;
  int rc = -1;
  const char *nul = fmt == MT_ROM_BIN ? NULL : memchr(buf, 0, len);
  if (rerr) mt_fail(e, "%s: read error", path);
  else if (len > (size_t)st.st_size) mt_fail(e, "%s: the file grew while being read", path);
  else if (len == 0) mt_fail(e, "%s: empty file (expected %d words)", path, depth);
  else if (nul) {
    int ln = 1;
    for (const char *q = buf; q < nul; q++) ln += *q == '\n';
    rfail(&r, ln, "a NUL byte: not a text image");
  } else {
    switch (fmt) {
    case MT_ROM_HEX: rc = read_hex(&r); break;
    case MT_ROM_MIF: rc = read_mif(&r); break;
    case MT_ROM_COE: rc = read_coe(&r); break;
    case MT_ROM_MEM: rc = read_mem(&r); break;
    case MT_ROM_CHDR: rc = read_chdr(&r); break;
    case MT_ROM_BRAM: rc = read_bram(&r); break;
    default: rc = read_bin(&r, (const unsigned char *)buf, len); break;
    }
  }
  if (!lines) free(line_of);
  free(buf);
  return rc;
}

int mt_rom_read_image(const char *path, int fmt, const mt_layout *ly, int depth, uint64_t *words, mt_err *e) {
  return mt_rom_read_node(path, fmt, ly, depth, -1, words, NULL, e);
}
