/* SPDX-License-Identifier: Apache-2.0
 * fuzz_cfg: the configuration-file reader (cmodel/net/mt_net_cfg.c, docs/reference/config.md):
 * the file as `--config FILE` reads it (mt_net_cfg_load: size and line caps, NUL bytes, a
 * byte-order mark, base = NAME beside it) and its text as a network, router and NI shape
 * (mt_shape_parse, base = a built-in configuration). Oracles on a text a reader accepts: every
 * key's value within its range and whole where the key is whole; every value written in the
 * file is plain decimal (digits, a fraction only for a real key: no blank, sign, exponent, hex,
 * inf or nan: the strict parser, docs/reference/formats.md "Numbers"); the shape written back
 * with plain decimal numbers reads back to the same keys and values. A refusal must say why.
 * Input: the file's text. */
#include <ctype.h>
#include <string.h>
#include "fuzz.h"
#include "net/mt_net_cfg.h"

static int plain(const char *v, size_t n, int real) {
  size_t i = 0;
  while (i < n && isdigit((unsigned char)v[i])) i++;
  if (!i) return 0;
  if (i < n && v[i] == '.' && real) {
    const size_t f = ++i;
    while (i < n && isdigit((unsigned char)v[i])) i++;
    if (i == f) return 0;
  }
  return i == n;
}

/* Every "key = value" line of an accepted text: a number key's value text is plain decimal. */
static void values_plain(const char *text, const mt_cfg_key *k, int nk) {
  for (const char *p = text; *p;) {
    const char *eol = strchr(p, '\n');
    if (!eol) eol = p + strlen(p);
    const char *h = memchr(p, '#', (size_t)(eol - p)), *end = h ? h : eol, *eq = memchr(p, '=', (size_t)(end - p));
    if (eq) {
      const char *ks = p, *ke = eq, *vs = eq + 1, *ve = end;
      while (ks < ke && isspace((unsigned char)*ks)) ks++;
      while (ke > ks && isspace((unsigned char)ke[-1])) ke--;
      while (vs < ve && isspace((unsigned char)*vs)) vs++;
      while (ve > vs && isspace((unsigned char)ve[-1])) ve--;
      for (int i = 0; i < nk; i++)
        if ((size_t)(ke - ks) == strlen(k[i].key) && !strncmp(ks, k[i].key, (size_t)(ke - ks)) && !plain(vs, (size_t)(ve - vs), k[i].real))
          FZ_BUG("key %s: value '%.*s' accepted, not plain decimal", k[i].key, (int)(ve - vs), vs);
    }
    p = *eol ? eol + 1 : eol;
  }
}

static void check_shape(const mt_shape *s, const mt_cfg_key *k, int nk, unsigned scope) {
  for (int i = 0; i < s->n; i++) {
    const int q = s->kv[i].key;
    if (q < 0 || q >= nk) FZ_BUG("shape key index %d outside 0..%d", q, nk - 1);
    const double v = s->kv[i].v;
    if (!(v >= k[q].min && v <= k[q].max)) FZ_BUG("key %s = %.17g outside %.17g..%.17g accepted", k[q].key, v, k[q].min, k[q].max);
    if (!k[q].real && v != (double)(uint64_t)v) FZ_BUG("key %s = %.17g, a whole number expected, accepted", k[q].key, v);
    if (!(k[q].scope & scope)) FZ_BUG("key %s accepted outside its scope", k[q].key);
  }
  /* written back: whole numbers as digits, reals with 25 decimals (plain, and exact to 17
   * significant digits over the real keys' ranges) */
  char text[MT_SHAPE_MAX * 96] = "";
  size_t n = 0;
  for (int i = 0; i < s->n; i++) {
    const mt_cfg_key *kk = &k[s->kv[i].key];
    n += (size_t)snprintf(text + n, sizeof text - n, kk->real ? "%s = %.25f\n" : "%s = %.0f\n", kk->key, s->kv[i].v);
  }
  mt_shape s2;
  mt_err e = {{0}};
  if (mt_shape_parse(&s2, text, "written.cfg", NULL, scope, &e)) FZ_BUG("the accepted shape written back is refused: %s\n%s", e.msg, text);
  if (s2.n != s->n) FZ_BUG("written back: %d keys, read %d", s->n, s2.n);
  for (int i = 0; i < s->n; i++)
    if (s2.kv[i].key != s->kv[i].key || s2.kv[i].v != s->kv[i].v)
      FZ_BUG("key %s = %.17g reads back as %.17g", k[s->kv[i].key].key, s->kv[i].v, s2.kv[i].v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int nk;
  const mt_cfg_key *k = mt_cfg_keys(&nk);
  mt_err e = {{0}};
  /* the file reader */
  mt_net_cfg c;
  if (mt_net_cfg_load(&c, fz_file(0, data, size), &e) && !e.msg[0]) FZ_BUG("--config refused the file without a reason");
  /* the text as each kind of shape */
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  static const unsigned scopes[3] = {MT_KEY_NET, MT_KEY_ROUTER, MT_KEY_NI};
  for (int i = 0; i < 3; i++) {
    mt_shape s;
    e.msg[0] = 0;
    if (mt_shape_parse(&s, text, "fuzz.cfg", NULL, scopes[i], &e)) {
      if (!e.msg[0]) FZ_BUG("scope %u: refused without a reason", scopes[i]);
      continue;
    }
    values_plain(text, k, nk);
    check_shape(&s, k, nk, scopes[i]);
  }
  free(text);
  return 0;
}
