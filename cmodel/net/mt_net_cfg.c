/* SPDX-License-Identifier: Apache-2.0
 * mt_net_cfg: the key table, the parser of configs/DIR/NAME.cfg files and `--set key=value`. */
#include "net/mt_net_cfg.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hw/mt_link.h"
#include "util/mt_io.h"
#include "util/mt_num.h"
#include "hw/mt_mem.h"
#include "hw/mt_ni.h"

#define NET MT_KEY_NET
#define RT MT_KEY_ROUTER
#define NI MT_KEY_NI
#define U32MAX 4294967295.0
#define F(fld, t) t, offsetof(mt_net_cfg, fld)
/* key, scope, C field, RTL parameter, min, max, real, where in mt_net_cfg, what it is.
 * Ranges are what each field can be on its own (the router's and NI's parameter checks,
 * mt_router_check_params / mt_ni_check_params); combinations are checked by the models. */
static const mt_cfg_key keys[] = {
  {"payload_w", NET | RT, "mt_net_cfg.payload_w, mt_router_params.payload_w", "PayloadW", 128, 512, 0, F(payload_w, 1), "flit payload bits, a multiple of 32"},
  {"num_vcs", NET | RT | NI, "mt_net_cfg.num_vcs, mt_router_params.num_vcs", "NumVcs", 1, 16, 0, F(num_vcs, 1), "virtual channels per port"},
  {"vc_depth", NET | RT | NI, "mt_net_cfg.vc_depth, mt_router_params.vc_depth", "VcDepth", 1, 65535, 0, F(vc_depth, 1), "flits per input VC buffer"},
  {"ej_depth", NET | RT | NI, "mt_net_cfg.ej_depth, mt_router_params.ej_depth", "EjDepth", 1, 65535, 0, F(ej_depth, 1), "flits per ejection VC buffer"},
  {"ni_link_depth", NET, "mt_net_cfg.ni_link_depth", "EjDepth", 0, MT_NI_MAX_EJD, 0, F(ni_link_depth, 1), "switch networks: flits per NI ejection VC, the NI end of the NI link (0 = vc_depth, as every Table III link)"},
  {"link_lat", NET, "mt_net_cfg.link_lat", "LinkLat", 1, MT_LINK_LAT_MAX, 0, F(link_lat, 1), "link latency in cycles"},
  {"link_period0", NET, "mt_net_cfg.link_period[0], mt_router_params.period[0]", "LinkPeriods[7:0]", 1, 255, 0, F(link_period[0], 1), "torus/mesh: a link of dimension 0 (X) takes a flit every this many cycles"},
  {"link_period1", NET, "mt_net_cfg.link_period[1], mt_router_params.period[1]", "LinkPeriods[15:8]", 1, 255, 0, F(link_period[1], 1), "torus/mesh: a link of dimension 1 (Y) takes a flit every this many cycles"},
  {"link_period2", NET, "mt_net_cfg.link_period[2], mt_router_params.period[2]", "LinkPeriods[23:16]", 1, 255, 0, F(link_period[2], 1), "torus/mesh: a link of dimension 2 (Z) takes a flit every this many cycles"},
  {"link_lat0", NET, "mt_net_cfg.link_lat_d[0]", "LinkLats[31:0]", 0, MT_LINK_LAT_MAX, 0, F(link_lat_d[0], 1), "torus/mesh: latency of the links of dimension 0 (X) in cycles, 0 = link_lat"},
  {"link_lat1", NET, "mt_net_cfg.link_lat_d[1]", "LinkLats[63:32]", 0, MT_LINK_LAT_MAX, 0, F(link_lat_d[1], 1), "torus/mesh: latency of the links of dimension 1 (Y) in cycles, 0 = link_lat"},
  {"link_lat2", NET, "mt_net_cfg.link_lat_d[2]", NULL, 0, MT_LINK_LAT_MAX, 0, F(link_lat_d[2], 1), "torus/mesh: latency of the links of dimension 2 (Z) in cycles, 0 = link_lat (the RTL network is 2-D)"},
  {"subpkt_flits", NET | RT | NI, "mt_net_cfg.subpkt_flits, mt_router_params.subpkt_flits", "SubPktFlits", 1, 65535, 0, F(subpkt_flits, 1), "flits per sub-packet"},
  {"pkt_bytes", NET | NI, "mt_net_cfg.pkt_bytes, mt_ni_params.pkt_bytes", "PktBytes", 1, U32MAX, 0, F(pkt_bytes, 1), "packet payload bytes"},
  {"step_prio", NET | RT, "mt_net_cfg.step_prio, mt_router_params.step_prio", "StepPrio", 0, 1, 0, F(step_prio, 1), "0 round-robin, 1 earlier step first"},
  {"rt_pipe", NET | RT, "mt_net_cfg.rt_pipe, mt_router_params.pipe", "RtPipe", 0, 2, 0, F(rt_pipe, 1), "torus/mesh router pipeline: 0 none, 1 route at buffer write and a front-flit register per VC (the same cycles), 2 the same and a register between VC and switch allocation (a cycle per hop; docs/reference/router.md)"},
  {"local_ports", NET | RT | NI, "mt_net_cfg.local_ports, mt_router_params.nlocal", "L", 0, 8, 0, F(local_ports, 1), "local ports L (network: 0 = 2 x dimensions)"},
  {"mem_p_ready", NET, "mt_net_cfg.mem_p_ready", NULL, 1, 100, 0, F(mem_p_ready, 1), "% of cycles the memory accepts a request"},
  {"mem_lat_max", NET, "mt_net_cfg.mem_lat_max", NULL, 1, MT_MEM_LAT_MAX, 0, F(mem_lat_max, 1), "memory read latency 1..this"},
  {"ni_sq", NET | NI, "mt_net_cfg.ni_sq, mt_ni_params.sq", "SQ", 1, 16, 0, F(ni_sq, 1), "NI sender data FIFO depth"},
  {"ni_rq", NET | NI, "mt_net_cfg.ni_rq, mt_ni_params.rq", "RQ", 1, 16, 0, F(ni_rq, 1), "NI receive pipeline depth"},
  {"ni_alu_pipe", NET | NI, "mt_net_cfg.ni_alu_pipe, mt_ni_params.alu_pipe", "AluPipe", 0, MT_NI_MAX_ALU_PIPE, 0, F(ni_alu_pipe, 1), "NI reduction unit: registers inside the fp32 adder, 0 none, 1 after the sum, 2 also after the alignment (a reduced flit's sum 1 + this many cycles after its running sum; docs/reference/reduction.md \"Pipeline\")"},
  {"ni_rx_engines", NET | NI, "mt_net_cfg.ni_rx_engines, mt_ni_params.rx_engines", "RxEngines", 0, MT_NI_MAX_L, 0, F(ni_rx_engines, 1), "NI receive engines (0 = 2L, or L when 2L > 8: mt_ni_bw_defaults)"},
  {"ni_mem_ports", NET | NI, "mt_net_cfg.ni_mem_ports, mt_ni_params.mem_ports", "MemPorts", 0, MT_MEM_MAX_PORTS, 0, F(ni_mem_ports, 1), "NI memory ports (0 = L + 2E: mt_ni_bw_defaults)"},
  {"ni_chain", NET | NI, "mt_net_cfg.ni_chain, mt_ni_params.reduce_chain", "ReduceChain", 0, 1, 0, F(ni_chain, 1), "NI chained reduction 1 on, 0 off"},
  {"ni_stage_after", NET, "mt_net_cfg.ni_stage_after, mt_ni_params.stage_after", NULL, 0, U32MAX, 0, F(ni_stage_after, 1), "NI stager: stage not-due units after this many cycles without progress, 0 off (RTL: mt_ni StageAfter, docs/reference/ni.md)"},
  {"ni_stage_ranges", NET, "mt_net_cfg.ni_stage_ranges, mt_ni_params.stage_ranges", NULL, 1, 1048576, 0, F(ni_stage_ranges, 1), "NI stager: staged address ranges per NI, shared by its flows and child slots (RTL: mt_ni StageRanges)"},
  {"ni_model", NET, "mt_net_cfg.ni_model", NULL, 0, 1, 0, F(ni_model, 1), "NI model: 0 this project's NI (cmodel/hw/mt_ni*.c), 1 the paper simulator's (cmodel/hw/mt_paper_ni.c, C model only, docs/reference/papersim.md)"},
  {"ni_paper_sendq", NET, "mt_net_cfg.ni_paper_sendq, mt_pni_params.sendq", NULL, 0, 65535, 0, F(ni_paper_sendq, 1), "paper NI (ni_model=1): pkt_bytes units a port's send buffers hold; the port takes its next flow once its last is in them (0: once injected)"},
  {"ni_paper_acc_width", NET, "mt_net_cfg.ni_paper_acc_width, mt_pni_params.acc_width", NULL, 1, 65535, 0, F(ni_paper_acc_width, 1), "paper NI (ni_model=1): accelerator elements aggregated per cycle (the PE array's side)"},
  {"ni_paper_acc_pes", NET, "mt_net_cfg.ni_paper_acc_pes, mt_pni_params.acc_pes", NULL, 1, 65535, 0, F(ni_paper_acc_pes, 1), "paper NI (ni_model=1): accelerator PEs (Table III: 16)"},
  {"wd_limit", NET, "mt_net_cfg.wd_limit", NULL, 0, U32MAX, 0, F(wd_limit, 2), "watchdog: cycles without progress"},
  {"max_cycles", NET, "mt_net_cfg.max_cycles", NULL, 1, 18446744073709549568.0, 0, F(max_cycles, 3), "cycle limit of a run"},
  {"clock_ghz", NET, "mt_net_cfg.clock_ghz", NULL, 1e-6, 1000, 1, F(clock_ghz, 4), "clock in GHz, for GB/s figures"},
  {"dims", RT, "mt_router_params.dims", "D", 1, 3, 0, 0, 0, "network dimensions D"},
  {"k0", RT, "mt_router_params.k[0]", "K0", 1, 4096, 0, 0, 0, "nodes along dimension 0"},
  {"k1", RT, "mt_router_params.k[1]", "K1", 1, 4096, 0, 0, 0, "nodes along dimension 1"},
  {"k2", RT, "mt_router_params.k[2]", "K2", 1, 4096, 0, 0, 0, "nodes along dimension 2"},
  {"torus", RT, "mt_router_params.torus", "Torus", 0, 1, 0, 0, 0, "1 torus, 0 mesh"},
  {"wd_w", RT | NI, "mt_router_params.wd_w, mt_ni_params.wd_w", "WdW", 1, 32, 0, 0, 0, "watchdog counter bits"},
  {"net_ports", RT | NI, "mt_router_params.nnet, mt_ni_params.net_ports", "NetPorts", 0, 16, 0, 0, 0, "network ports of the router (a switch's, with table = 1)"},
  {"table", RT, "mt_router_params.table", "Table", 0, 1, 0, 0, 0, "0 torus/mesh router, 1 switch (route table)"},
  {"hop_classes", RT, "mt_router_params.hop_classes", "HopClasses", 1, 16, 0, 0, 0, "switch: VC classes by switch hops"},
  {"nodes", RT, "mt_router_load_table n", "Nodes", 1, 4096, 0, 0, 0, "switch: route table entries"},
  {"tbl_depth", NI, "mt_ni_params.tbl_depth", "Depth", 2, 65536, 0, 0, 0, "schedule table words"},
  {"max_flows", NI, "mt_ni_params.max_flows", "MaxFlows", 1, 4096, 0, 0, 0, "flows tracked"},
  {"flow_w", NI, "mt_ni_params.flow_w", "FlowW", 1, 12, 0, 0, 0, "table entry: flow id bits"},
  {"step_w", NI, "mt_ni_params.step_w", "StepW", 1, 16, 0, 0, 0, "table entry: step bits"},
  {"id_w", NI, "mt_ni_params.id_w", "IdW", 1, 12, 0, 0, 0, "table entry: node id bits"},
  {"port_w", NI, "mt_ni_params.port_w", "PortW", 1, 4, 0, 0, 0, "table entry: port bits"},
  {"ej_w", NI, "mt_ni_params.ej_w", "EjW", 1, 4, 0, 0, 0, "table entry: ejection port bits"},
  {"addr_w", NI, "mt_ni_params.addr_w", "AddrW", 1, 32, 0, 0, 0, "table entry: address bits"},
  {"size_w", NI, "mt_ni_params.size_w", "SizeW", 1, 32, 0, 0, 0, "table entry: size bits"},
  {"children", NI, "mt_ni_params.children", "Children", 1, 8, 0, 0, 0, "table entry: child slots"},
  {"compact", NI, "mt_ni_params.compact", "Compact", 0, 1, 0, 0, 0, "1 compact table layout, 0 full"},
};
#undef F

const mt_cfg_key *mt_cfg_keys(int *n) {
  if (n) *n = (int)(sizeof keys / sizeof keys[0]);
  return keys;
}

static int find_key(const char *k) {
  for (int i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++)
    if (!strcmp(keys[i].key, k)) return i;
  return -1;
}

static const char *scope_name(unsigned scope) {
  return scope == NET ? "network configuration" : scope == RT ? "router shape"
    : scope == NI                                             ? "NI shape"
                                                              : "shape";
}

/* the keys allowed in scope, space-separated */
static void key_list(char *buf, size_t n, unsigned scope) {
  size_t o = 0;
  buf[0] = 0;
  for (size_t i = 0; i < sizeof keys / sizeof keys[0] && o < n; i++)
    if (keys[i].scope & scope) o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " " : "", keys[i].key);
}

/* value text -> number within key ki's range (mt_parse_u64 or mt_parse_real); where: "FILE:LINE" or "--set" */
static int parse_value(int ki, const char *txt, double *v, const char *where, mt_err *e) {
  const mt_cfg_key *k = &keys[ki];
  char what[320];
  snprintf(what, sizeof what, "%s: %s", where, k->key);
  uint64_t x;
  if (k->real ? mt_parse_real(txt, k->min, k->max, what, e, v) : mt_parse_u64(txt, (uint64_t)k->min, (uint64_t)k->max, what, e, &x)) {
    char m[sizeof e->msg];
    snprintf(m, sizeof m, "%s", e->msg);
    return mt_fail(e, "%.*s (%s)", (int)(sizeof m - 200), m, k->what);
  }
  if (k->real) return 0;
  /* the value is kept as a double: a whole number it cannot hold exactly is refused */
  if ((uint64_t)(double)x != x)
    return mt_fail(e, "%s: '%s': more significant digits than the setting holds (at most 2^53 exactly; %s)", what, txt, k->what);
  *v = (double)x;
  return 0;
}

static void shape_put(mt_shape *s, int ki, double v) {
  for (int i = 0; i < s->n; i++)
    if (s->kv[i].key == ki) {
      s->kv[i].v = v;
      return;
    }
  s->kv[s->n].key = ki;
  s->kv[s->n].v = v;
  s->n++; /* MT_SHAPE_MAX >= number of keys */
}

static char *read_all(const char *path, mt_err *e) { return mt_read_file(path, MT_FILE_MAX, NULL, e); }

static int parse_rec(mt_shape *s, const char *text, const char *src, const char *dir, unsigned scope, int depth, mt_err *e) {
  int line = 0, base_line = 0;
  int first[sizeof keys / sizeof keys[0]] = {0}; /* line of each key set in this file, 0 = not yet */
  const char *p = text;
  while (*p) {
    line++;
    const char *eol = strchr(p, '\n');
    if (!eol) eol = p + strlen(p);
    char buf[256];
    size_t len = (size_t)(eol - p);
    if (len >= sizeof buf) return mt_fail(e, "%s:%d: line longer than %zu characters", src, line, sizeof buf - 1);
    memcpy(buf, p, len);
    buf[len] = 0;
    p = *eol ? eol + 1 : eol;
    char *h = strchr(buf, '#');
    if (h) *h = 0;
    char *b = buf;
    while (isspace((unsigned char)*b)) b++;
    char *z = b + strlen(b);
    while (z > b && isspace((unsigned char)z[-1])) *--z = 0;
    if (!*b) continue;
    char *eq = strchr(b, '=');
    if (!eq) return mt_fail(e, "%s:%d: '%s': expected key = value", src, line, b);
    char *ke = eq;
    while (ke > b && isspace((unsigned char)ke[-1])) ke--;
    *ke = 0;
    char *val = eq + 1;
    while (isspace((unsigned char)*val)) val++;
    char where[300];
    snprintf(where, sizeof where, "%s:%d", src, line);
    if (!strcmp(b, "base")) {
      if (base_line) return mt_fail(e, "%s: key 'base' set again (first set on line %d)", where, base_line);
      base_line = line;
      if (depth >= 4) return mt_fail(e, "%s: base: more than 4 levels of base", where);
      if (!*val || strchr(val, '/')) return mt_fail(e, "%s: base: '%s' is not a configuration name", where, val);
      char path[4096];
      if (dir) snprintf(path, sizeof path, "%s/%s.cfg", dir, val);
      if (!dir || (access(path, F_OK) && errno == ENOENT)) { /* no NAME.cfg beside the file: the built-in NAME */
        const mt_cfg_text *t = mt_net_cfg_builtin;
        while (t->name && strcmp(t->name, val)) t++;
        if (!t->name && dir) return mt_fail(e, "%s: base: no file %s and no built-in configuration '%s'", where, path, val);
        if (!t->name) return mt_fail(e, "%s: base: no built-in configuration '%s'", where, val);
        char bsrc[64];
        snprintf(bsrc, sizeof bsrc, "configs/net/%s.cfg", t->name);
        if (parse_rec(s, t->text, bsrc, NULL, scope, depth + 1, e)) return -1;
      } else {
        char *t = read_all(path, e);
        if (!t) {
          char m[sizeof e->msg];
          snprintf(m, sizeof m, "%.200s: base: %.300s", where, e->msg);
          return mt_fail(e, "%s", m);
        }
        int rc = parse_rec(s, t, path, dir, scope, depth + 1, e);
        free(t);
        if (rc) return -1;
      }
      continue;
    }
    int ki = find_key(b);
    if (ki < 0 || !(keys[ki].scope & scope)) {
      char kl[1024];
      key_list(kl, sizeof kl, scope);
      return mt_fail(e, "%s: unknown key '%s' in a %s (keys: base %s)", where, b, scope_name(scope), kl);
    }
    if (first[ki]) return mt_fail(e, "%s: key '%s' set again (first set on line %d)", where, b, first[ki]);
    first[ki] = line;
    double v;
    if (parse_value(ki, val, &v, where, e)) return -1;
    shape_put(s, ki, v);
  }
  return 0;
}

static void base_name(char *out, size_t n, const char *path) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  size_t l = strlen(b);
  if (l > 4 && !strcmp(b + l - 4, ".cfg")) l -= 4;
  if (l >= n) l = n - 1;
  memcpy(out, b, l);
  out[l] = 0;
}

int mt_shape_parse(mt_shape *s, const char *text, const char *src, const char *dir, unsigned scope, mt_err *e) {
  memset(s, 0, sizeof *s);
  base_name(s->name, sizeof s->name, src);
  return parse_rec(s, text, src, dir, scope, 0, e);
}

int mt_shape_load(mt_shape *s, const char *path, unsigned scope, mt_err *e) {
  char *t = read_all(path, e);
  if (!t) return -1;
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", path);
  char *sl = strrchr(dir, '/');
  if (sl) *sl = 0;
  else snprintf(dir, sizeof dir, ".");
  int rc = mt_shape_parse(s, t, path, dir, scope, e);
  free(t);
  return rc;
}

static void net_store(mt_net_cfg *c, const mt_cfg_key *k, double v) {
  char *p = (char *)c + k->net_off;
  switch (k->net_type) {
  case 1: *(unsigned *)(void *)p = (unsigned)v; break;
  case 2: *(uint32_t *)(void *)p = (uint32_t)v; break;
  case 3: *(uint64_t *)(void *)p = (uint64_t)v; break;
  case 4: *(double *)(void *)p = v; break;
  default: break;
  }
}

/* every network key must be set: a file names its whole configuration (or its base) */
static int net_from_shape(mt_net_cfg *c, const mt_shape *s, const char *src, mt_err *e) {
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "%.15s", s->name);
  for (int i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++) {
    if (!(keys[i].scope & NET)) continue;
    int j = 0;
    while (j < s->n && s->kv[j].key != i) j++;
    if (j == s->n) return mt_fail(e, "%s: key '%s' missing (%s; or start the file with base = small|paper)", src, keys[i].key, keys[i].what);
    net_store(c, &keys[i], s->kv[j].v);
  }
  return 0;
}

int mt_net_cfg_by_name(mt_net_cfg *c, const char *name, mt_err *e) {
  const mt_cfg_text *t = mt_net_cfg_builtin;
  char names[256] = "";
  size_t o = 0;
  for (; t->name; t++) {
    if (!strcmp(t->name, name)) {
      mt_shape s;
      char src[64];
      snprintf(src, sizeof src, "configs/net/%s.cfg", t->name);
      if (mt_shape_parse(&s, t->text, src, NULL, NET, e)) return -1;
      return net_from_shape(c, &s, src, e);
    }
    if (o < sizeof names) o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", o ? ", " : "", t->name);
  }
  return mt_fail(e, "unknown configuration '%s' (%s, or a file path)", name, names);
}

int mt_net_cfg_load(mt_net_cfg *c, const char *path, mt_err *e) {
  mt_shape s;
  if (mt_shape_load(&s, path, NET, e)) return -1;
  return net_from_shape(c, &s, path, e);
}

int mt_net_cfg_set(mt_net_cfg *c, const char *kv, mt_err *e) {
  const char *eq = strchr(kv, '=');
  if (!eq) return mt_fail(e, "--set '%s': expected name=value", kv);
  char key[32];
  size_t kl = (size_t)(eq - kv);
  if (kl == 0 || kl >= sizeof key) return mt_fail(e, "--set '%s': bad name", kv);
  memcpy(key, kv, kl);
  key[kl] = 0;
  int ki = find_key(key);
  if (ki < 0 || !(keys[ki].scope & NET)) {
    char l[1024];
    key_list(l, sizeof l, NET);
    return mt_fail(e, "--set: unknown field '%s' (%s)", key, l);
  }
  double v;
  if (parse_value(ki, eq + 1, &v, "--set", e)) return -1;
  net_store(c, &keys[ki], v);
  return 0;
}

static void builtin_or_abort(mt_net_cfg *c, const char *name) {
  mt_err e;
  if (mt_net_cfg_by_name(c, name, &e)) {
    fprintf(stderr, "built-in configuration %s: %s\n", name, e.msg);
    abort();
  }
}
static const char *const flow_names[] = {"message", "packet"};
int mt_net_flow_parse(const char *name, unsigned *flow) {
  for (unsigned k = 0; k < sizeof flow_names / sizeof *flow_names; k++)
    if (!strcmp(name, flow_names[k])) {
      *flow = k;
      return 0;
    }
  return -1;
}
const char *mt_net_flow_name(unsigned flow) { return flow < sizeof flow_names / sizeof *flow_names ? flow_names[flow] : "?"; }

void mt_net_cfg_paper(mt_net_cfg *c) { builtin_or_abort(c, "paper"); }
void mt_net_cfg_small(mt_net_cfg *c) { builtin_or_abort(c, "small"); }
