/* SPDX-License-Identifier: Apache-2.0
 * mt_json_split: a JSON document's top-level members and big arrays, one piece at a time
 * (mt_json_split.h). The scanner only finds where each value's text ends: a string runs to
 * its closing quote (escapes skipped), an object or array to the bracket that closes it, a
 * number or literal to the next delimiter. jansson then parses that text, so every value
 * is checked as strictly as a whole-file load would check it. */
#define _FILE_OFFSET_BITS 64
#include "table/mt_json_split.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include "util/mt_io.h"

#define JS_BUF (1u << 20)

struct mt_jsplit {
  FILE *f;
  char *path;
  unsigned char *buf;
  size_t len, pos;
  off_t base; /* file offset of buf[0] */
  long line;  /* of the next character */
  char *txt;  /* the text of the value being kept */
  size_t tlen, tcap;
  int nbig, has[MT_JSPLIT_MAX_BIG];
  off_t off[MT_JSPLIT_MAX_BIG]; /* where each big array's '[' is, and its line */
  long oline[MT_JSPLIT_MAX_BIG];
  int first; /* mt_jsplit_next: the next element is the first */
  int ended;
};

static int peek(mt_jsplit *j) {
  if (j->pos == j->len) {
    j->base += (off_t)j->len;
    j->len = fread(j->buf, 1, JS_BUF, j->f);
    j->pos = 0;
    if (!j->len) return -1;
  }
  return j->buf[j->pos];
}
static int next(mt_jsplit *j) {
  const int c = peek(j);
  if (c >= 0) {
    j->pos++;
    if (c == '\n') j->line++;
  }
  return c;
}
static int skip_ws(mt_jsplit *j) {
  int c;
  while ((c = peek(j)) == ' ' || c == '\t' || c == '\n' || c == '\r') next(j);
  return c;
}
/* n bytes appended to the kept text */
static void keep_n(mt_jsplit *j, const unsigned char *p, size_t n) {
  if (j->tlen + n + 1 > j->tcap) {
    while (j->tlen + n + 1 > j->tcap) j->tcap = j->tcap ? 2 * j->tcap : 4096;
    j->txt = mt_xrealloc(j->txt, j->tcap);
  }
  memcpy(j->txt + j->tlen, p, n);
  j->tlen += n;
}
static void keep(mt_jsplit *j, int c) {
  const unsigned char b = (unsigned char)c;
  keep_n(j, &b, 1);
}
static int fail_at(mt_jsplit *j, long line, mt_err *e, const char *what) {
  return mt_fail(e, "%s:%ld: invalid JSON: %s", j->path, line, what);
}
/* A kept value (one node, one transfer, the head) is held whole: at most MT_FILE_MAX bytes. */
static int too_long(mt_jsplit *j, mt_err *e) {
  return j->tlen > MT_FILE_MAX ? mt_fail(e, "%s:%ld: a value longer than %zu bytes", j->path, j->line, MT_FILE_MAX) : 0;
}

/* The rest of a string (its opening quote read), kept or not. */
static int scan_string(mt_jsplit *j, int k, mt_err *e) {
  for (;;) {
    int c = next(j);
    if (c < 0) return fail_at(j, j->line, e, "unexpected end of file in a string");
    if (k) keep(j, c);
    if (c == '"') return 0;
    if (k && too_long(j, e)) return -1;
    if (c == '\\') {
      c = next(j);
      if (c < 0) return fail_at(j, j->line, e, "unexpected end of file in a string");
      if (k) keep(j, c);
    }
  }
}
/* One value's text from the next non-blank character: kept in j->txt (k) or skipped. */
static int scan_value(mt_jsplit *j, int k, mt_err *e) {
  j->tlen = 0;
  int c = skip_ws(j);
  if (c < 0) return fail_at(j, j->line, e, "unexpected end of file (a value expected)");
  if (c == '"') {
    next(j);
    if (k) keep(j, c);
    return scan_string(j, k, e);
  }
  if (c == '{' || c == '[') { /* a buffer's worth at a time: the bulk of a schedule file */
    int depth = 0, instr = 0, esc = 0;
    for (;;) {
      if (peek(j) < 0) return fail_at(j, j->line, e, "unexpected end of file (an object or array not closed)");
      const unsigned char *p = j->buf + j->pos, *q = p, *end = j->buf + j->len;
      int closed = 0;
      for (; q < end && !closed; q++) {
        const unsigned char ch = *q;
        if (ch == '\n') j->line++;
        if (instr) {
          if (esc) esc = 0;
          else if (ch == '\\') esc = 1;
          else if (ch == '"') instr = 0;
        } else if (ch == '"') instr = 1;
        else if (ch == '{' || ch == '[') depth++;
        else if (ch == '}' || ch == ']') closed = --depth == 0;
      }
      if (k) keep_n(j, p, (size_t)(q - p));
      j->pos += (size_t)(q - p);
      if (k && too_long(j, e)) return -1;
      if (closed) return 0;
    }
  }
  while (c >= 0 && !strchr(",]}: \t\r\n", c)) {
    next(j);
    if (k) keep(j, c);
    if (k && too_long(j, e)) return -1;
    c = peek(j);
  }
  if (!j->tlen && k) return fail_at(j, j->line, e, "unexpected character (a value expected)");
  return 0;
}
/* j->txt parsed by jansson; line: where the text began. */
static json_t *parse_kept(mt_jsplit *j, long line, mt_err *e) {
  json_error_t je;
  json_t *v = json_loadb(j->txt, j->tlen, JSON_DECODE_ANY, &je);
  if (!v) fail_at(j, line + (je.line > 0 ? je.line - 1 : 0), e, je.text);
  return v;
}

void mt_jsplit_close(mt_jsplit *j) {
  if (!j) return;
  if (j->f) fclose(j->f);
  free(j->path);
  free(j->buf);
  free(j->txt);
  free(j);
}

mt_jsplit *mt_jsplit_open(const char *path, const char *const *big, int nbig, json_t **head, mt_err *e) {
  *head = NULL;
  if (nbig > MT_JSPLIT_MAX_BIG) nbig = MT_JSPLIT_MAX_BIG;
  mt_jsplit *j = mt_xcalloc(1, sizeof *j);
  j->path = mt_xrealloc(NULL, strlen(path) + 1);
  strcpy(j->path, path);
  j->buf = mt_xrealloc(NULL, JS_BUF);
  j->line = 1;
  j->nbig = nbig;
  j->f = mt_open_text(path, "a schedule JSON file (plan --json writes one)", e);
  if (!j->f) {
    mt_jsplit_close(j);
    return NULL;
  }
  j->base = ftello(j->f); /* past a byte-order mark: the offsets of the big arrays count from the file's start */
  if (j->base < 0) j->base = 0;
  json_t *h = json_object();
  int c = skip_ws(j);
  if (c != '{') {
    fail_at(j, j->line, e, c < 0 ? "empty file (an object expected)" : "the top level is not an object");
    goto bad;
  }
  next(j);
  if (skip_ws(j) == '}') next(j);
  else
    for (;;) {
      const long kl = j->line;
      if (skip_ws(j) != '"') {
        fail_at(j, j->line, e, "a member name (string) expected");
        goto bad;
      }
      if (scan_value(j, 1, e)) goto bad;
      json_t *kv = parse_kept(j, kl, e);
      if (!kv) goto bad;
      char *key = mt_xrealloc(NULL, strlen(json_string_value(kv)) + 1);
      strcpy(key, json_string_value(kv));
      json_decref(kv);
      if (skip_ws(j) != ':') {
        free(key);
        fail_at(j, j->line, e, "':' expected after a member name");
        goto bad;
      }
      next(j);
      int bi = -1; /* which big member this is, if any */
      for (int i = 0; i < nbig; i++)
        if (!strcmp(key, big[i])) bi = i;
      const int b = skip_ws(j) == '[' ? bi : -1;
      const long vl = j->line;
      if (b >= 0) { /* located, skipped; a repeated member: the last one counts, as in jansson */
        j->off[b] = j->base + (off_t)j->pos;
        j->oline[b] = vl;
        j->has[b] = 1;
        json_object_del(h, key);
        if (scan_value(j, 0, e)) {
          free(key);
          goto bad;
        }
      } else {
        json_t *v = scan_value(j, 1, e) ? NULL : parse_kept(j, vl, e);
        if (!v) {
          free(key);
          goto bad;
        }
        if (bi >= 0) j->has[bi] = 0; /* a later non-array value replaces an earlier array */
        json_object_set_new(h, key, v);
      }
      free(key);
      c = skip_ws(j);
      next(j);
      if (c == '}') break;
      if (c != ',') {
        fail_at(j, j->line, e, "',' or '}' expected after a member");
        goto bad;
      }
    }
  if (skip_ws(j) >= 0) {
    fail_at(j, j->line, e, "end of file expected after the top-level object");
    goto bad;
  }
  if (ferror(j->f)) {
    mt_fail(e, "%s: read error", path);
    goto bad;
  }
  *head = h;
  return j;
bad:
  json_decref(h);
  mt_jsplit_close(j);
  return NULL;
}

int mt_jsplit_has(const mt_jsplit *j, int k) { return k >= 0 && k < j->nbig && j->has[k]; }

int mt_jsplit_begin(mt_jsplit *j, int k, mt_err *e) {
  if (!mt_jsplit_has(j, k)) return mt_fail(e, "%s: no such array", j->path);
  if (fseeko(j->f, j->off[k], SEEK_SET)) return mt_fail(e, "%s: seek failed: %s", j->path, strerror(errno));
  j->base = j->off[k];
  j->len = j->pos = 0;
  j->line = j->oline[k];
  next(j); /* '[' */
  j->first = 1;
  j->ended = 0;
  return 0;
}

int mt_jsplit_next(mt_jsplit *j, json_t **elem, mt_err *e) {
  *elem = NULL;
  if (j->ended) return 0;
  int c = skip_ws(j);
  if (c == ']') {
    next(j);
    j->ended = 1;
    return 0;
  }
  if (!j->first) {
    if (c != ',') return fail_at(j, j->line, e, "',' or ']' expected after an array element");
    next(j);
    c = skip_ws(j);
    if (c == ']') return fail_at(j, j->line, e, "a value expected after ','");
  }
  j->first = 0;
  const long vl = j->line;
  if (scan_value(j, 1, e)) return -1;
  *elem = parse_kept(j, vl, e);
  return *elem ? 1 : -1;
}
