/* SPDX-License-Identifier: Apache-2.0
 * mt_mdtopo: multi-dimensional topologies: the spec string, ASTRA-sim style files (JSON and
 * a YAML subset), the Themis Table 2 presets, and their graph (docs/reference/topologies.md). */
#include "topo/mt_mdtopo.h"
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util/mt_io.h"
#include "util/mt_num.h"

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(mt_xcalloc(n, 1), s, n);
}

static const char *const kind_names[] = {"ring", "fc", "sw"};
const char *mt_dim_kind_name(int kind) { return kind >= 0 && kind < 3 ? kind_names[kind] : "?"; }

/* Links per NPU when none are given: a bidirectional ring (one link to each neighbour), one
 * link to every other member of an FC group, one link to the switch. */
static int default_links(int kind, int size) { return kind == MT_DIM_RING ? 2 : kind == MT_DIM_FC ? size - 1
                                                                                                  : 1; }

#define MAX_SIZE MT_MAX_NODES
#define MAX_LINKS 1024
#define MAX_BW 1e9 /* GB/s: 1 EB/s, far above any link */
#define MAX_LAT MT_MAX_LAT_NS

int mt_dims_nodes(const mt_dims *md) {
  long n = 1;
  for (int d = 0; d < md->D; d++) {
    n *= md->d[d].size;
    if (n > MT_MAX_NODES) return MT_MAX_NODES + 1;
  }
  return (int)n;
}

int mt_dims_stride(const mt_dims *md, int d) {
  int s = 1;
  for (int k = 0; k < d; k++) s *= md->d[k].size;
  return s;
}

/* The ring multiplicity of one neighbour link: L/2 links each way (L = 1: one ring, one
 * direction; the graph still holds the link both ways); a 2-ring's neighbours coincide. */
static int ring_mult(const mt_dimspec *ds) { return ds->size == 2 ? ds->links : ds->links == 1 ? 1
                                                                                               : ds->links / 2; }

int mt_dims_validate(const mt_dims *md, const char *where, mt_err *e) {
  if (md->D < 1 || md->D > MT_MD_MAX_DIMS) return mt_fail(e, "%s: %d dimensions; allowed 1..%d", where, md->D, MT_MD_MAX_DIMS);
  for (int d = 0; d < md->D; d++) {
    const mt_dimspec *s = &md->d[d];
    const char *k = mt_dim_kind_name(s->kind);
    if (s->kind < 0 || s->kind > MT_DIM_SW) return mt_fail(e, "%s: dimension %d: unknown kind %d (ring, fc or sw)", where, d + 1, s->kind);
    if (s->size < 2 || s->size > MAX_SIZE) return mt_fail(e, "%s: dimension %d (%s): size %d; allowed 2..%d", where, d + 1, k, s->size, MAX_SIZE);
    if (s->links < 1 || s->links > MAX_LINKS)
      return mt_fail(e, "%s: dimension %d (%s%d): %d links per NPU; allowed 1..%d", where, d + 1, k, s->size, s->links, MAX_LINKS);
    if (s->kind == MT_DIM_RING && s->size > 2 && s->links > 1 && s->links % 2)
      return mt_fail(e, "%s: dimension %d (ring%d): %d links per NPU; a ring takes 1 (one direction) or an even number (half each way)",
                     where, d + 1, s->size, s->links);
    if (s->kind == MT_DIM_FC && s->links % (s->size - 1))
      return mt_fail(e, "%s: dimension %d (fc%d): %d links per NPU; a fully-connected group takes a multiple of %d (one per peer)", where,
                     d + 1, s->size, s->links, s->size - 1);
    if (!(s->bw >= 0 && s->bw <= MAX_BW)) return mt_fail(e, "%s: dimension %d (%s%d): bandwidth %g GB/s; allowed 0..%g", where, d + 1, k, s->size, s->bw, MAX_BW);
    if (!(s->lat >= 0 && s->lat <= MAX_LAT)) return mt_fail(e, "%s: dimension %d (%s%d): latency %g ns; allowed 0..%g", where, d + 1, k, s->size, s->lat, MAX_LAT);
  }
  /* a bandwidth on every dimension (time in ns) or on none (cycles): one without would turn
   * the whole run into cycles and ignore every GB/s and ns given */
  for (int d = 1; d < md->D; d++)
    if ((md->d[d].bw > 0) != (md->d[0].bw > 0)) {
      const int r = md->d[d].bw > 0 ? d : 0, u = md->d[d].bw > 0 ? 0 : d;
      return mt_fail(e, "%s: dimension %d (%s%d) has %g GB/s but dimension %d (%s%d) has no bandwidth: allowed a bandwidth on every dimension (time in ns) or on none (cycles)",
                     where, r + 1, mt_dim_kind_name(md->d[r].kind), md->d[r].size, md->d[r].bw, u + 1, mt_dim_kind_name(md->d[u].kind), md->d[u].size);
    }
  int n = mt_dims_nodes(md);
  if (n > MT_MAX_NODES) return mt_fail(e, "%s: more than %d NPUs, the most the 12-bit node-id fields can carry", where, MT_MAX_NODES);
  return 0;
}

/* ---------- spec string: KIND SIZE [@GBPS [xLINKS]] [:LAT[ns]], comma separated ---------- */

#define SPEC_FORM "KIND SIZE[@GBPS[xLINKS]][:LATns], KIND ring, fc or sw, e.g. dims:ring4@125x2:20ns,sw8@25x4:700ns"

int mt_dims_parse_spec(mt_dims *md, const char *spec, mt_err *e) {
  memset(md, 0, sizeof *md);
  const char *p = spec;
  if (!*p) return mt_fail(e, "dims:%s: no dimensions (" SPEC_FORM ")", spec);
  for (;;) {
    const char *tok = p;
    int tl = (int)strcspn(tok, ",");
    if (!tl)
      return mt_fail(e, "dims:%s: dimension %d is empty (a ',' with nothing after it): allowed " SPEC_FORM, spec, md->D + 1);
    if (md->D == MT_MD_MAX_DIMS) return mt_fail(e, "dims:%s: more than %d dimensions", spec, MT_MD_MAX_DIMS);
    mt_dimspec *s = &md->d[md->D];
    int d1 = md->D + 1;
    if (!strncmp(p, "ring", 4)) s->kind = MT_DIM_RING, p += 4;
    else if (!strncmp(p, "fc", 2)) s->kind = MT_DIM_FC, p += 2;
    else if (!strncmp(p, "sw", 2)) s->kind = MT_DIM_SW, p += 2;
    else return mt_fail(e, "dims:%s: dimension %d '%.*s': unknown kind (expected " SPEC_FORM ")", spec, d1, tl, tok);
    if (mt_scan_int(&p, &s->size, MAX_SIZE))
      return mt_fail(e, "dims:%s: dimension %d '%.*s': expected a size 2..%d after the kind (" SPEC_FORM ")", spec, d1, tl, tok, MAX_SIZE);
    s->links = default_links(s->kind, s->size);
    if (*p == '@') {
      p++;
      if (mt_scan_real(&p, &s->bw))
        return mt_fail(e, "dims:%s: dimension %d '%.*s': expected a bandwidth in GB/s after '@' (" SPEC_FORM ")", spec, d1, tl, tok);
      if (*p == 'x') {
        p++;
        if (mt_scan_int(&p, &s->links, MAX_LINKS))
          return mt_fail(e, "dims:%s: dimension %d '%.*s': expected links per NPU 1..%d after 'x' (" SPEC_FORM ")", spec, d1, tl, tok, MAX_LINKS);
      }
    }
    if (*p == ':') {
      p++;
      if (mt_scan_real(&p, &s->lat))
        return mt_fail(e, "dims:%s: dimension %d '%.*s': expected a latency in ns after ':' (" SPEC_FORM ")", spec, d1, tl, tok);
      if (!strncmp(p, "ns", 2)) p += 2;
    }
    md->D++;
    if (*p == 0) break;
    if (*p != ',') return mt_fail(e, "dims:%s: dimension %d '%.*s': unexpected '%c' (expected " SPEC_FORM ")", spec, d1, tl, tok, *p);
    p++;
  }
  char where[300];
  snprintf(where, sizeof where, "dims:%s", spec);
  return mt_dims_validate(md, where, e);
}

/* ---------- files: ASTRA-sim's analytical network input ---------- */

/* The keys read, with the newer ASTRA-sim names as aliases; the others it writes are
 * known and ignored (they model NIC, router and memory delays this layer has no place for). */
enum { K_TOPO,
       K_UNITS,
       K_LINKS,
       K_BW,
       K_LAT,
       K_NDIMS,
       K_NAME,
       NKEYS };
static const char *const key_names[NKEYS] = {"topologies-per-dim", "units-count", "links-count", "link-bandwidth",
                                             "link-latency", "dimensions-count", "topology-name"};
static const char *const key_alias[NKEYS] = {"topology", "npus_count", NULL, "bandwidth", "latency", NULL, NULL};
static const char *const ignored_keys[] = {"dimension-type", "nic-latency", "router-latency", "hbm-latency", "hbm-bandwidth", "hbm-scale"};
#define ALLOWED_KEYS \
  "topologies-per-dim (or topology), units-count (or npus_count), links-count, link-bandwidth (or bandwidth), " \
  "link-latency (or latency), dimensions-count, topology-name; ignored: dimension-type, nic-latency, router-latency, " \
  "hbm-latency, hbm-bandwidth, hbm-scale"

typedef struct {
  int seen, line; /* line 0: JSON (jansson gives no line per key) */
  int n;
  char *v[MT_MD_MAX_DIMS + 1]; /* the items as text; v[0] the scalar */
  int is_list;
} keyval;

typedef struct {
  const char *path;
  keyval k[NKEYS];
} kvfile;

static void kv_free(kvfile *f) {
  for (int i = 0; i < NKEYS; i++)
    for (int j = 0; j < f->k[i].n; j++) free(f->k[i].v[j]);
}

static const char *where_key(char *buf, size_t n, const kvfile *f, int key) {
  if (f->k[key].line) snprintf(buf, n, "%s:%d: key '%s'", f->path, f->k[key].line, key_names[key]);
  else snprintf(buf, n, "%s: key '%s'", f->path, key_names[key]);
  return buf;
}

/* Which key a name is: index, NKEYS + 1 for an ignored one, -1 unknown. */
static int key_of(const char *name) {
  for (int i = 0; i < NKEYS; i++)
    if (!strcmp(name, key_names[i]) || (key_alias[i] && !strcmp(name, key_alias[i]))) return i;
  for (size_t i = 0; i < sizeof ignored_keys / sizeof *ignored_keys; i++)
    if (!strcmp(name, ignored_keys[i])) return NKEYS + 1;
  return -1;
}

static int item_kind(const char *s) {
  static const char *const names[3][3] = {{"Ring", "ring", NULL}, {"FullyConnected", "fc", "FC"}, {"Switch", "sw", "switch"}};
  for (int k = 0; k < 3; k++)
    for (int j = 0; j < 3; j++)
      if (names[k][j] && !strcmp(s, names[k][j])) return k;
  return -1;
}

/* The keys as an mt_dims. */
static int kv_to_dims(kvfile *f, mt_dims *md, mt_err *e) {
  char w[600], w2[600];
  memset(md, 0, sizeof *md);
  const int req[] = {K_TOPO, K_UNITS, K_BW, K_LAT};
  for (int i = 0; i < 4; i++)
    if (!f->k[req[i]].seen) return mt_fail(e, "%s: missing key '%s' (a list, one value per dimension)", f->path, key_names[req[i]]);
  for (int i = 0; i < NKEYS; i++) {
    keyval *k = &f->k[i];
    if (!k->seen) continue;
    int want_list = i != K_NDIMS && i != K_NAME;
    if (k->is_list != want_list)
      return mt_fail(e, "%s: expected %s", where_key(w, sizeof w, f, i), want_list ? "a list [a, b, ...], one value per dimension" : "a single value");
  }
  const int D = f->k[K_TOPO].n;
  if (D < 1 || D > MT_MD_MAX_DIMS) return mt_fail(e, "%s: %d dimensions; allowed 1..%d", where_key(w, sizeof w, f, K_TOPO), D, MT_MD_MAX_DIMS);
  for (int i = K_UNITS; i <= K_LAT; i++)
    if (f->k[i].seen && f->k[i].n != D)
      return mt_fail(e, "%s: %d values, but %s has %d: every list needs one value per dimension", where_key(w, sizeof w, f, i), f->k[i].n,
                     where_key(w2, sizeof w2, f, K_TOPO), D);
  if (f->k[K_NDIMS].seen) {
    int nd;
    if (mt_parse_int(f->k[K_NDIMS].v[0], 1, MT_MD_MAX_DIMS, where_key(w, sizeof w, f, K_NDIMS), e, &nd)) return -1;
    if (nd != D)
      return mt_fail(e, "%s: '%s' is not the number of dimensions the lists give (%d)", where_key(w, sizeof w, f, K_NDIMS), f->k[K_NDIMS].v[0], D);
  }
  if (f->k[K_NAME].seen && strcmp(f->k[K_NAME].v[0], "Hierarchical"))
    return mt_fail(e, "%s: '%s'; allowed: Hierarchical (a multi-dimensional network)", where_key(w, sizeof w, f, K_NAME), f->k[K_NAME].v[0]);
  md->D = D;
  for (int d = 0; d < D; d++) {
    mt_dimspec *s = &md->d[d];
    const char *v = f->k[K_TOPO].v[d];
    if ((s->kind = item_kind(v)) < 0)
      return mt_fail(e, "%s: value %d '%s': allowed Ring, FullyConnected, Switch", where_key(w, sizeof w, f, K_TOPO), d + 1, v);
    char what[sizeof w + 64];
    v = f->k[K_UNITS].v[d];
    snprintf(what, sizeof what, "%s: value %d", where_key(w, sizeof w, f, K_UNITS), d + 1);
    if (mt_parse_int(v, 2, MAX_SIZE, what, e, &s->size)) return -1;
    s->links = default_links(s->kind, s->size);
    if (f->k[K_LINKS].seen) {
      v = f->k[K_LINKS].v[d];
      snprintf(what, sizeof what, "%s: value %d", where_key(w, sizeof w, f, K_LINKS), d + 1);
      if (mt_parse_int(v, 1, MAX_LINKS, what, e, &s->links)) return -1;
    }
    v = f->k[K_BW].v[d];
    snprintf(what, sizeof what, "%s: value %d (a bandwidth in GB/s)", where_key(w, sizeof w, f, K_BW), d + 1);
    if (mt_parse_real(v, 0, MAX_BW, what, e, &s->bw)) return -1;
    v = f->k[K_LAT].v[d];
    snprintf(what, sizeof what, "%s: value %d (a latency in ns)", where_key(w, sizeof w, f, K_LAT), d + 1);
    if (mt_parse_real(v, 0, MAX_LAT, what, e, &s->lat)) return -1;
  }
  /* kind-dependent rules: blamed on links-count when it was given */
  return mt_dims_validate(md, where_key(w, sizeof w, f, f->k[K_LINKS].seen ? K_LINKS : K_TOPO), e);
}

static int json_item(json_t *x, char **out) {
  char buf[64];
  if (json_is_string(x)) *out = xstrdup(json_string_value(x));
  else if (json_is_integer(x)) {
    snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(x));
    *out = xstrdup(buf);
  } else if (json_is_real(x)) {
    const double r = json_real_value(x);
    /* an integral real keeps its point (4.0 is not the whole number 4); a negative or
     * exponent form fails mt_parse_real, as it should */
    if (r == floor(r) && fabs(r) < 1e17) snprintf(buf, sizeof buf, "%.1f", r);
    else snprintf(buf, sizeof buf, "%.17g", r);
    *out = xstrdup(buf);
  } else return -1;
  return 0;
}

static int read_json(kvfile *f, mt_err *e) {
  json_error_t je;
  size_t len;
  char *text = mt_read_file(f->path, MT_FILE_MAX, &len, e);
  if (!text) return -1;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  free(text);
  if (!root) return mt_fail(e, "%s:%d: not valid JSON: %s", f->path, je.line, je.text);
  int rc = -1;
  if (!json_is_object(root)) {
    mt_fail(e, "%s: expected a JSON object of keys (" ALLOWED_KEYS ")", f->path);
    goto out;
  }
  const char *name;
  json_t *val;
  json_object_foreach(root, name, val) {
    int k = key_of(name);
    if (k < 0) {
      mt_fail(e, "%s: unknown key '%s' (allowed: " ALLOWED_KEYS ")", f->path, name);
      goto out;
    }
    if (k > NKEYS) continue;
    keyval *kv = &f->k[k];
    if (kv->seen) {
      mt_fail(e, "%s: key '%s' given twice (as '%s' and its alias)", f->path, key_names[k], name);
      goto out;
    }
    kv->seen = 1;
    kv->is_list = json_is_array(val);
    json_t *it;
    size_t i;
    if (kv->is_list) {
      if (json_array_size(val) > MT_MD_MAX_DIMS) {
        mt_fail(e, "%s: key '%s': %zu values; at most %d dimensions", f->path, key_names[k], json_array_size(val), MT_MD_MAX_DIMS);
        goto out;
      }
      json_array_foreach(val, i, it) {
        if (json_item(it, &kv->v[kv->n])) {
          mt_fail(e, "%s: key '%s': value %zu is not a number or a string", f->path, key_names[k], i + 1);
          goto out;
        }
        kv->n++;
      }
    } else if (json_item(val, &kv->v[kv->n])) {
      mt_fail(e, "%s: key '%s': expected a list, a number or a string", f->path, key_names[k]);
      goto out;
    } else kv->n++;
  }
  rc = 0;
out:
  json_decref(root);
  return rc;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1])) *--end = 0;
  /* one pair of quotes */
  size_t n = strlen(s);
  if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
    s[n - 1] = 0;
    s++;
  }
  return s;
}

#define YAML_FORM "'key: [a, b, ...]' or 'key: value' per line, '#' comments"
#define LINE_MAX_ 1022

/* The YAML subset: one `key: [a, b, c]` or `key: value` a line, # comments, blank lines. */
static int read_yaml(kvfile *f, FILE *in, mt_err *e) {
  char *line = NULL;
  size_t cap = 0;
  long len;
  int ln = 0, rc = -1;
  while ((len = mt_getline(&line, &cap, in, LINE_MAX_)) > 0) {
    ln++;
    if (memchr(line, 0, (size_t)len)) {
      mt_fail(e, "%s:%d: NUL byte (a topology file is text)", f->path, ln);
      goto out;
    }
    if (len > LINE_MAX_) {
      mt_fail(e, "%s:%d: line longer than %d characters", f->path, ln, LINE_MAX_);
      goto out;
    }
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *s = trim(line);
    if (!*s || !strcmp(s, "---")) continue;
    if (*s == '-') {
      mt_fail(e, "%s:%d: a block list item; write the list on the key's line: " YAML_FORM, f->path, ln);
      goto out;
    }
    char *colon = strchr(s, ':');
    if (!colon) {
      mt_fail(e, "%s:%d: expected " YAML_FORM, f->path, ln);
      goto out;
    }
    *colon = 0;
    char *name = trim(s), *val = trim(colon + 1);
    int k = key_of(name);
    if (k < 0) {
      mt_fail(e, "%s:%d: unknown key '%s' (allowed: " ALLOWED_KEYS ")", f->path, ln, name);
      goto out;
    }
    if (k > NKEYS) continue;
    keyval *kv = &f->k[k];
    if (kv->seen) {
      mt_fail(e, "%s:%d: key '%s' given twice (first on line %d)", f->path, ln, key_names[k], kv->line);
      goto out;
    }
    kv->seen = 1;
    kv->line = ln;
    if (!*val) {
      mt_fail(e, "%s:%d: key '%s' has no value (expected " YAML_FORM ")", f->path, ln, key_names[k]);
      goto out;
    }
    if (*val == '[') {
      kv->is_list = 1;
      size_t n = strlen(val);
      if (val[n - 1] != ']') {
        mt_fail(e, "%s:%d: key '%s': a list must close with ']' on the same line (" YAML_FORM ")", f->path, ln, key_names[k]);
        goto out;
      }
      val[n - 1] = 0;
      char *body = trim(val + 1);
      if (!*body) continue; /* [] : no dimensions, reported with the counts */
      for (char *it = body;;) {
        char *comma = strchr(it, ',');
        if (comma) *comma = 0;
        char *item = trim(it);
        if (!*item || strchr(item, '[') || strchr(item, ']')) {
          mt_fail(e, "%s:%d: key '%s': value %d is empty or nested; expected [a, b, ...]", f->path, ln, key_names[k], kv->n + 1);
          goto out;
        }
        if (kv->n == MT_MD_MAX_DIMS) {
          mt_fail(e, "%s:%d: key '%s': more than %d values; at most %d dimensions", f->path, ln, key_names[k], MT_MD_MAX_DIMS, MT_MD_MAX_DIMS);
          goto out;
        }
        kv->v[kv->n++] = xstrdup(item);
        if (!comma) break;
        it = comma + 1;
      }
    } else kv->v[kv->n++] = xstrdup(val);
  }
  if (ferror(in)) {
    mt_fail(e, "%s: read error: %s", f->path, strerror(errno));
    goto out;
  }
  rc = 0;
out:
  free(line);
  return rc;
}

int mt_dims_read_file(mt_dims *md, const char *path, mt_err *e) {
  memset(md, 0, sizeof *md);
  FILE *in = mt_open_text(path, "a dimensions file (YAML or ASTRA-sim's network JSON)", e);
  if (!in) return -1;
  const off_t start = ftello(in); /* past a byte-order mark */
  int c;
  while ((c = getc(in)) != EOF && isspace(c)) {}
  if (ferror(in)) {
    fclose(in);
    return mt_fail(e, "%s: read error: %s", path, strerror(errno));
  }
  kvfile f = {.path = path};
  int rc;
  if (c == '{') {
    fclose(in);
    rc = read_json(&f, e);
  } else {
    rc = fseeko(in, start < 0 ? 0 : start, SEEK_SET) ? mt_fail(e, "%s: cannot rewind: %s", path, strerror(errno)) : read_yaml(&f, in, e);
    fclose(in);
  }
  if (!rc) rc = kv_to_dims(&f, md, e);
  kv_free(&f);
  return rc;
}

/* ---------- Themis Table 2 ----------
 * The paper's BW/link is in Gb/s; ASTRA-sim's link-bandwidth (and ours) in GB/s: 200 Gb/s
 * = 25 GB/s. Latency: Table 2's network latency (step latency, ns) per dimension. */
#define R_(n, bwgbit, l, ns) \
  { MT_DIM_RING, n, l, (bwgbit) / 8.0, ns }
#define F_(n, bwgbit, l, ns) \
  { MT_DIM_FC, n, l, (bwgbit) / 8.0, ns }
#define S_(n, bwgbit, l, ns) \
  { MT_DIM_SW, n, l, (bwgbit) / 8.0, ns }
const mt_themis_preset mt_themis_presets[] = {
  {"2d-sw-sw", "2D-SW_SW", {2, {S_(16, 200, 6, 700), S_(64, 800, 1, 1700)}}},
  {"3d-sw-sw-sw-homo", "3D-SW_SW_SW_homo", {3, {S_(16, 200, 4, 700), S_(8, 200, 4, 700), S_(8, 800, 1, 1700)}}},
  {"3d-sw-sw-sw-hetero", "3D-SW_SW_SW_hetero", {3, {S_(16, 200, 8, 700), S_(8, 200, 4, 700), S_(8, 400, 1, 1700)}}},
  {"3d-fc-ring-sw", "3D-FC_Ring_SW", {3, {F_(8, 200, 7, 700), R_(16, 200, 4, 700), S_(8, 400, 1, 1700)}}},
  {"4d-ring-sw-sw-sw", "4D-Ring_SW_SW_SW", {4, {R_(4, 1000, 2, 20), S_(4, 200, 8, 700), S_(8, 200, 4, 700), S_(8, 400, 1, 1700)}}},
  {"4d-ring-fc-ring-sw", "4D-Ring_FC_Ring_SW", {4, {R_(4, 1500, 2, 20), F_(8, 200, 7, 700), R_(4, 200, 6, 700), S_(8, 800, 1, 1700)}}},
};
const int mt_themis_n_presets = (int)(sizeof mt_themis_presets / sizeof mt_themis_presets[0]);
#undef R_
#undef F_
#undef S_

int mt_dims_preset(mt_dims *md, const char *name, mt_err *e) {
  for (int i = 0; i < mt_themis_n_presets; i++)
    if (!strcmp(name, mt_themis_presets[i].name)) {
      *md = mt_themis_presets[i].md;
      return 0;
    }
  char list[400] = "";
  for (int i = 0; i < mt_themis_n_presets; i++) {
    size_t n = strlen(list);
    snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", mt_themis_presets[i].name);
  }
  return mt_fail(e, "themis:%s: unknown preset (the Themis Table 2 systems: %s)", name, list);
}

/* ---------- the graph ---------- */

/* Switch vertices: dimension by dimension, one per group (the NPUs that differ only in that
 * dimension), numbered by the NPU id with that digit removed. */
int mt_dims_switch_of(const mt_dims *md, int n, int d) {
  if (d < 0 || d >= md->D || md->d[d].kind != MT_DIM_SW) return -1;
  const int N = mt_dims_nodes(md);
  int v = N;
  for (int k = 0; k < d; k++)
    if (md->d[k].kind == MT_DIM_SW) v += N / md->d[k].size;
  int st = mt_dims_stride(md, d), lo = n % st, hi = n / (st * md->d[d].size);
  return v + hi * st + lo;
}

int mt_topo_from_dims(mt_topo *t, const char *spec, const mt_dims *md, mt_err *e) {
  memset(t, 0, sizeof *t);
  snprintf(t->spec, sizeof t->spec, "%s", spec);
  if (mt_dims_validate(md, spec, e)) return -1;
  t->kind = MT_TOPO_DIMS;
  t->md = *md;
  const int N = mt_dims_nodes(md);
  int ns = 0, cap = 0;
  for (int d = 0; d < md->D; d++) {
    const mt_dimspec *s = &md->d[d];
    if (s->kind == MT_DIM_SW) ns += N / s->size;
    cap += s->kind == MT_DIM_FC ? N * (s->size - 1) / 2 : N;
  }
  int(*ll)[3] = mt_xcalloc((size_t)cap + 1, sizeof *ll);
  int *dim = mt_xcalloc((size_t)cap + 1, sizeof(int)), nl = 0;
  double *bw = mt_xcalloc((size_t)cap + 1, sizeof(double)), *lat = mt_xcalloc((size_t)cap + 1, sizeof(double));
  /* dimension by dimension, so that an NPU's ports are grouped by dimension */
  for (int d = 0; d < md->D; d++) {
    const mt_dimspec *s = &md->d[d];
    const int st = mt_dims_stride(md, d), k = s->size;
    for (int v = 0; v < N; v++) {
      const int c = (v / st) % k, base = v - c * st;
      int peers[MAX_SIZE], np = 0, m = s->links;
      if (s->kind == MT_DIM_RING) {
        /* the link to the next NPU round the ring; a 2-ring has one link, from coordinate 0 */
        if (k > 2 || c == 0) peers[np++] = base + ((c + 1) % k) * st;
        m = ring_mult(s);
      } else if (s->kind == MT_DIM_FC) {
        for (int u = c + 1; u < k; u++) peers[np++] = base + u * st;
        m = s->links / (k - 1);
      } else peers[np++] = mt_dims_switch_of(md, v, d);
      for (int i = 0; i < np; i++) {
        ll[nl][0] = v;
        ll[nl][1] = peers[i];
        ll[nl][2] = m;
        dim[nl] = d;
        bw[nl] = s->bw;
        lat[nl] = s->lat;
        nl++;
      }
    }
  }
  int rc = mt_topo_from_links_attr(t, spec, N, ns, nl, (const int(*)[3])ll, dim, bw, lat, e);
  if (!rc) {
    /* mt_topo_from_links_attr keeps the kind; its finish() does not clear md */
    t->md = *md;
  }
  free(ll);
  free(dim);
  free(bw);
  free(lat);
  return rc;
}

int mt_topo_from_dims_name(mt_topo *t, const char *name, mt_err *e) {
  mt_dims md;
  int rc;
  if (strlen(name) >= sizeof t->spec) return mt_fail(e, "topology '%.60s...': longer than %zu characters", name, sizeof t->spec - 1);
  if (!strncmp(name, "dims:", 5)) rc = mt_dims_parse_spec(&md, name + 5, e);
  else if (!strncmp(name, "dimsfile:", 9)) rc = mt_dims_read_file(&md, name + 9, e);
  else if (!strncmp(name, "themis:", 7)) rc = mt_dims_preset(&md, name + 7, e);
  else return mt_fail(e, "topology '%s': not a multi-dimensional one (dims:, dimsfile:, themis:)", name);
  return rc ? -1 : mt_topo_from_dims(t, name, &md, e);
}
