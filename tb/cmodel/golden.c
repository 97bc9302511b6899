/* SPDX-License-Identifier: Apache-2.0
 * golden.c: record and check golden traces (golden.h, docs/reference/golden.md). */
#include "golden.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct gold {
  int record;
  gzFile f;
  char path[512];
  /* the current run */
  char tag[256];
  unsigned nf;
  const char *const *names;
  uint64_t cyc;
  uint32_t prev[GOLD_MAXF], win[GOLD_MAXF];
  char line[160];
  unsigned nline;
  /* check mode: the recorded run */
  char *dig; /* one digit per cycle */
  size_t ndig, cap;
  uint32_t *kh; /* nk windows x nf hashes */
  uint64_t *kend;
  size_t nk, kcap, ik;
  uint64_t rec_cycles;
  int bad_tag;
  uint64_t first_dig; /* first cycle whose digit differs (UINT64_MAX: none) */
  int first_win;      /* first window whose hashes differ (-1: none) */
  uint32_t win_bad;   /* fields differing in that window */
};

static uint32_t fnv(uint32_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 16777619u;
  }
  return h;
}

gold *gold_open(const char *path, int record, const char *header) {
  gold *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  g->record = record;
  snprintf(g->path, sizeof g->path, "%s", path);
  g->f = gzopen(path, record ? "wb9" : "rb");
  if (!g->f) {
    fprintf(stderr, "golden: cannot open %s\n", path);
    free(g);
    return NULL;
  }
  if (record && header) {
    const char *s = header;
    while (*s) {
      const char *e = strchr(s, '\n');
      size_t n = e ? (size_t)(e - s) : strlen(s);
      gzprintf(g->f, "# %.*s\n", (int)n, s);
      s += n + (e ? 1 : 0);
    }
  }
  return g;
}

/* next non-comment line of the file into buf; 0 at the end */
static int next_line(gold *g, char *buf, int n) {
  while (gzgets(g->f, buf, n)) {
    if (buf[0] == '#') continue;
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == '\n' || buf[l - 1] == '\r')) buf[--l] = 0;
    return 1;
  }
  return 0;
}

int gold_close(gold *g) {
  int rc = 0;
  if (!g) return -1;
  if (!g->record) {
    char buf[512];
    if (next_line(g, buf, sizeof buf)) {
      fprintf(stderr, "golden: %s: runs left unchecked (next: %.80s)\n", g->path, buf);
      rc = -1;
    }
  }
  if (gzclose(g->f) != Z_OK) rc = -1;
  free(g->dig);
  free(g->kh);
  free(g->kend);
  free(g);
  return rc;
}

static void flush_line(gold *g) {
  if (g->nline) {
    gzprintf(g->f, "c %.*s\n", (int)g->nline, g->line);
    g->nline = 0;
  }
}

int gold_begin(gold *g, const char *tag, unsigned nf, const char *const *names) {
  snprintf(g->tag, sizeof g->tag, "%s", tag);
  g->nf = nf < GOLD_MAXF ? nf : GOLD_MAXF;
  g->names = names;
  g->cyc = 0;
  g->nline = 0;
  g->ndig = 0;
  g->nk = 0;
  g->ik = 0;
  g->rec_cycles = 0;
  g->bad_tag = 0;
  g->first_dig = UINT64_MAX;
  g->first_win = -1;
  g->win_bad = 0;
  memset(g->prev, 0, sizeof g->prev);
  for (unsigned i = 0; i < GOLD_MAXF; i++) g->win[i] = 2166136261u;
  if (g->record) {
    gzprintf(g->f, "run %s\n", tag);
    return 0;
  }
  /* load the recorded run */
  char buf[1024];
  if (!next_line(g, buf, sizeof buf) || strncmp(buf, "run ", 4) || strcmp(buf + 4, tag)) {
    fprintf(stderr, "golden: %s: expected run '%s', found '%.200s'\n", g->path, tag, buf);
    g->bad_tag = 1;
    return -1;
  }
  while (next_line(g, buf, sizeof buf)) {
    if (buf[0] == 'c' && buf[1] == ' ') {
      size_t n = strlen(buf + 2);
      if (g->ndig + n > g->cap) {
        g->cap = 2 * (g->ndig + n) + 4096;
        g->dig = realloc(g->dig, g->cap);
      }
      memcpy(g->dig + g->ndig, buf + 2, n);
      g->ndig += n;
    } else if (buf[0] == 'k' && buf[1] == ' ') {
      if (g->nk == g->kcap) {
        g->kcap = 2 * g->kcap + 16;
        g->kh = realloc(g->kh, g->kcap * GOLD_MAXF * sizeof *g->kh);
        g->kend = realloc(g->kend, g->kcap * sizeof *g->kend);
      }
      char *s = buf + 2, *e;
      g->kend[g->nk] = strtoull(s, &e, 10);
      for (unsigned i = 0; i < g->nf; i++) {
        s = e;
        g->kh[g->nk * GOLD_MAXF + i] = (uint32_t)strtoul(s, &e, 16);
      }
      g->nk++;
    } else if (!strncmp(buf, "end ", 4)) {
      g->rec_cycles = strtoull(buf + 4, NULL, 10);
      return 0;
    } else break;
  }
  fprintf(stderr, "golden: %s: run '%s' truncated\n", g->path, tag);
  g->bad_tag = 1;
  return -1;
}

static void window_end(gold *g) {
  if (g->record) {
    flush_line(g);
    gzprintf(g->f, "k %llu", (unsigned long long)g->cyc);
    for (unsigned i = 0; i < g->nf; i++) gzprintf(g->f, " %08x", (unsigned)g->win[i]);
    gzprintf(g->f, "\n");
  } else if (!g->bad_tag && g->first_win < 0) {
    uint32_t bad = 0;
    if (g->ik >= g->nk || g->kend[g->ik] != g->cyc) bad = 0xffffffffu;
    else
      for (unsigned i = 0; i < g->nf; i++)
        if (g->kh[g->ik * GOLD_MAXF + i] != g->win[i]) bad |= 1u << i;
    if (bad) {
      g->first_win = (int)g->ik;
      g->win_bad = bad;
    }
  }
  g->ik++;
  for (unsigned i = 0; i < GOLD_MAXF; i++) g->win[i] = 2166136261u;
}

void gold_cycle(gold *g, const gold_field *f) {
  uint32_t h[GOLD_MAXF], all = 2166136261u;
  int same = g->cyc > 0;
  for (unsigned i = 0; i < g->nf; i++) {
    h[i] = fnv(2166136261u, f[i].p, f[i].n);
    if (h[i] != g->prev[i]) same = 0;
    g->prev[i] = h[i];
    g->win[i] = fnv(g->win[i], &h[i], sizeof h[i]);
    all = fnv(all, &h[i], sizeof h[i]);
  }
  unsigned d = 0;
  if (!same) {
    all ^= all >> 16;
    all ^= all >> 8;
    all ^= all >> 4;
    d = all & 15u;
    if (!d) d = 1;
  }
  char c = "0123456789abcdef"[d];
  if (g->record) {
    g->line[g->nline++] = c;
    if (g->nline == 128) flush_line(g);
  } else if (g->first_dig == UINT64_MAX && (g->cyc >= g->ndig || g->dig[g->cyc] != c)) {
    g->first_dig = g->cyc;
  }
  g->cyc++;
  if (g->cyc % GOLD_K == 0) window_end(g);
}

int gold_end(gold *g) {
  if (g->cyc % GOLD_K || g->cyc == 0) window_end(g);
  if (g->record) {
    flush_line(g);
    gzprintf(g->f, "end %llu\n", (unsigned long long)g->cyc);
    return 0;
  }
  if (g->bad_tag) {
    fprintf(stderr, "MISMATCH %s: no matching recorded run\n", g->tag);
    return -1;
  }
  if (g->first_dig == UINT64_MAX && g->cyc != g->rec_cycles) g->first_dig = g->cyc < g->rec_cycles ? g->cyc : g->rec_cycles;
  if (g->first_dig == UINT64_MAX && g->first_win < 0) return 0;
  char fl[512] = "";
  size_t n = 0;
  if (g->first_win >= 0 && g->win_bad != 0xffffffffu)
    for (unsigned i = 0; i < g->nf; i++)
      if (g->win_bad >> i & 1u) n += (size_t)snprintf(fl + n, n < sizeof fl ? sizeof fl - n : 0, "%s%s", n ? "," : "", g->names[i]);
  uint64_t w0 = g->first_win >= 0 ? (uint64_t)g->first_win * GOLD_K : 0;
  if (g->first_dig != UINT64_MAX)
    fprintf(stderr, "MISMATCH %s: first differing cycle %llu", g->tag, (unsigned long long)g->first_dig);
  else
    fprintf(stderr, "MISMATCH %s: cycles %llu..%llu (per-cycle digits alike)", g->tag, (unsigned long long)w0,
            (unsigned long long)(w0 + GOLD_K - 1));
  if (g->first_win >= 0)
    fprintf(stderr, "; fields differing in window %llu..%llu: %s", (unsigned long long)w0,
            (unsigned long long)(w0 + GOLD_K - 1), fl[0] ? fl : "(window missing: run length differs)");
  fprintf(stderr, "; %llu cycles run, %llu recorded\n", (unsigned long long)g->cyc, (unsigned long long)g->rec_cycles);
  return -1;
}

uint64_t gold_cycles(const gold *g) { return g->cyc; }
