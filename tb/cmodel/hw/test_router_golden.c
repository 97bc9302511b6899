/* SPDX-License-Identifier: Apache-2.0
 * test_router_golden.c: the C router (cmodel/hw/mt_router.c) against golden traces recorded
 * from a build of the reference commit (tb/golden/router/, one .gz per parameter set;
 * docs/reference/golden.md). Every field of mt_router_out and the credit counters are compared every
 * cycle (golden.h: a 4-bit digit per cycle, a 32-bit hash per field per 1024 cycles).
 * Traffic: a closed-loop environment (upstream credit counters, downstream buffers with
 * random drain rates) with well-formed packets and all-reduce messages, and "chaos" phases
 * that break every rule: random flit types and VC fields (beyond NumVcs too), flits without
 * credits (overflow), spurious and multi-valued credit pulses, garbage in unused ports/VCs and
 * in the bits above FlitW of the last live word, in_valid values other than 1, node id and
 * watchdog limit changes. Many parameter sets, including NP = 16 x 16 VCs (256 input VCs),
 * PayloadW 512, K = 2 tori, meshes, step priority and both perturbations.
 *   test_router_golden [cycles]             check against MT_GOLDEN_DIR/router (t-c-router_golden)
 *   test_router_golden --record DIR HDR     write the traces (make golden; HDR: header text)
 *   test_router_golden --bench [cycles [CFG]]  speed of mt_router_step alone on a busy router,
 *     inputs recorded from a closed-loop run and replayed (make bench-router); the baseline is
 *     this program built against another commit (BENCH_ROUTER_REF, docs/results/bench.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef MT_GOLDEN_FLAT
#include "mt_flit.h"
#include "mt_router.h"
#define mt_router_init(r, p, e) mt_router_init(r, p) /* the reference's init takes no error buffer */
#else
#include "fmt/mt_flit.h"
#include "hw/mt_router.h"
#endif
#include "golden.h"
#include "mt_test.h"

typedef struct {
  const char *name;
  unsigned d, l, k0, k1, k2, torus, pw, nv, vcd, ejd, sub, prio, wdw, perturb;
} cfg_t;

static const cfg_t cfgs[] = {
  {"d2l4v4", 2, 4, 4, 4, 1, 1, 128, 4, 8, 6, 4, 0, 16, 0},
  {"min", 1, 1, 3, 1, 1, 1, 128, 2, 2, 2, 1, 0, 8, 0},
  {"d3mesh", 3, 2, 3, 2, 2, 0, 160, 6, 5, 7, 3, 1, 12, 0},
  {"paper", 2, 4, 4, 4, 1, 1, 128, 4, 318, 318, 16, 0, 24, 0},
  {"np16v16", 3, 10, 4, 4, 4, 1, 512, 16, 4, 3, 2, 1, 10, 0},
  {"k2v8", 2, 1, 2, 3, 1, 1, 256, 8, 12, 9, 5, 0, 20, 0},
  {"mesh1d", 1, 3, 5, 1, 1, 0, 192, 2, 3, 40, 2, 1, 5, 0},
  {"v12", 2, 2, 3, 3, 1, 1, 224, 12, 6, 5, 2, 1, 14, 0},
  {"d2l4v4_pt1", 2, 4, 4, 4, 1, 1, 128, 4, 8, 6, 4, 0, 16, 1},
  {"d2l4v4_pt2", 2, 4, 4, 4, 1, 1, 128, 4, 8, 6, 4, 1, 16, 2},
};

typedef struct {
  uint32_t s;
} rng_t;
static uint32_t rnext(rng_t *r) { return mt_xs32(&r->s); }
static unsigned below(rng_t *r, unsigned n) { return n ? rnext(r) % n : 0; }
static int chance(rng_t *r, unsigned num, unsigned den) { return below(r, den) < num; }

typedef struct {
  int on, ar;
  unsigned nf, sent;
  uint32_t uid;
  mt_head_info h;
} pkt_t;

typedef struct {
  mt_router_params p;
  unsigned np, nd, nv, fw, fb, nodes, pw;
  rng_t rng;
  pkt_t pk[MT_RT_MAX_IVCS];
  unsigned upc[MT_RT_MAX_IVCS];                                 /* upstream credits per input VC */
  unsigned occ[MT_RT_MAX_IVCS];                                 /* downstream occupancy per output VC */
  unsigned inj[MT_RT_MAX_PORTS], drain[MT_RT_MAX_PORTS], start; /* x/16 */
  unsigned chaos;                                               /* 0: well-formed; else rule breaking, x/64 per event */
  int no_long;                                                  /* no normal packets longer than the buffers (bench) */
  unsigned node_id;
  uint32_t wd_limit, uid;
} env_t;

static void env_init(env_t *e, const mt_router_params *p, uint32_t seed) {
  unsigned i;
  memset(e, 0, sizeof *e);
  e->p = *p;
  e->nd = 2 * p->dims;
  e->np = e->nd + p->nlocal;
  e->nv = p->num_vcs;
  e->pw = p->payload_w;
  e->fw = mt_flit_words(p->payload_w, p->num_vcs);
  e->fb = p->payload_w / 8;
  e->nodes = p->k[0] * (p->dims > 1 ? p->k[1] : 1) * (p->dims > 2 ? p->k[2] : 1);
  e->rng.s = seed ? seed : 1;
  for (i = 0; i < 8; i++) rnext(&e->rng);
  for (i = 0; i < e->np * e->nv; i++) e->upc[i] = p->vc_depth;
  e->node_id = below(&e->rng, e->nodes);
  e->wd_limit = 50 + below(&e->rng, 400);
  e->uid = 1;
  for (i = 0; i < e->np; i++) {
    e->inj[i] = 16;
    e->drain[i] = 16;
  }
  e->start = 2;
}

static void start_pkt(env_t *e, unsigned p, unsigned v) {
  rng_t *r = &e->rng;
  pkt_t *k = &e->pk[p * e->nv + v];
  unsigned maxnorm = ((e->p.vc_depth < e->p.ej_depth ? e->p.vc_depth : e->p.ej_depth) - 1) * e->fb;
  memset(k, 0, sizeof *k);
  k->on = 1;
  k->uid = e->uid++;
  k->ar = chance(r, 1, 3);
  k->h.src = below(r, 4096);
  k->h.flow = below(r, 4096);
  k->h.step = below(r, 4);
  k->h.addr = k->uid;
  k->h.eject = chance(r, 1, 20) ? below(r, 16) : below(r, e->p.nlocal);
  if (k->ar) {
    unsigned nfl = chance(r, 1, 10) ? 1 + below(r, 400) : 1 + below(r, 4 * e->p.subpkt_flits);
    k->h.len = (nfl - 1) * e->fb + 1 + below(r, e->fb);
    k->h.op = 1 + below(r, 2);
    k->h.last = 1;
    k->h.dst = below(r, e->nodes);
    if (p < e->nd) k->h.next = chance(r, 1, 20) ? below(r, 16) : below(r, e->p.nlocal);
    else k->h.next = chance(r, 1, 20) ? below(r, 16) : below(r, e->nd);
  } else {
    k->h.len = chance(r, 1, 6) ? 0 : below(r, maxnorm + 1);
    if (!e->no_long && chance(r, 1, 200)) k->h.len = rnext(r); /* too long: waits forever */
    k->h.op = below(r, 3);
    k->h.last = below(r, 2);
    k->h.dst = chance(r, 1, 30) ? below(r, 4096) : below(r, e->nodes);
    k->h.next = below(r, 16);
  }
  k->nf = 1 + mt_payload_flits(k->h.len, e->pw);
  if (k->nf > 500) k->nf = 500;
}

static mt_flit flit_of(env_t *e, pkt_t *k, unsigned v) {
  mt_flit f;
  unsigned i = k->sent, t, w;
  mt_flit_clear(&f);
  if (i == 0) {
    mt_hd_pack(&f, &k->h);
    t = k->ar ? MT_FT_AR_HEAD : (k->nf == 1 ? MT_FT_HEADTAIL : MT_FT_HEAD);
    for (w = 4; w < e->pw / 32; w++) f.w[w] = rnext(&e->rng);
  } else {
    f.w[0] = k->uid;
    f.w[1] = i;
    for (w = 2; w < e->pw / 32; w++) f.w[w] = rnext(&e->rng);
    if (k->ar)
      t = i == k->nf - 1 ? MT_FT_AR_TAIL : (i % e->p.subpkt_flits == 0 ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
    else
      t = i == k->nf - 1 ? MT_FT_TAIL : MT_FT_BODY;
  }
  mt_flit_set_type(&f, e->pw, t);
  mt_flit_set_vc(&f, e->pw, e->nv, v);
  return f;
}

/* inputs of this cycle; out = the router outputs of the previous cycle (already applied) */
static void env_inputs(env_t *e, mt_router_in *in) {
  rng_t *r = &e->rng;
  const unsigned c = e->chaos;
  unsigned p, v, j;
  memset(in, 0, sizeof *in);
  if (c) { /* garbage where it must be ignored */
    for (p = 0; p < MT_RT_MAX_PORTS; p++)
      if (chance(r, c, 64)) {
        for (j = 0; j < MT_FLIT_WORDS && j < e->fw; j++) in->in_flit[p].w[j] = rnext(r);
        if (p >= e->np) in->in_valid[p] = (uint8_t)rnext(r);
        {
          unsigned v = below(r, MT_RT_MAX_VCS); /* one draw per statement (order) */
          in->out_credit[p][v] = p >= e->np ? (uint8_t)rnext(r) : 0;
        }
      }
    if (chance(r, 1, 2000)) e->node_id = below(r, e->nodes + 2);
    if (chance(r, 1, 2000)) e->wd_limit = chance(r, 1, 4) ? 0 : rnext(r) % 600;
  }
  in->node_id = e->node_id;
  in->wd_limit = e->wd_limit;
  for (p = 0; p < e->np; p++) {
    for (v = 0; v < e->nv; v++) {
      pkt_t *k = &e->pk[p * e->nv + v];
      if (!k->on && chance(r, e->start, 16)) start_pkt(e, p, v);
    }
    if (!chance(r, e->inj[p], 16)) continue;
    if (c && chance(r, c, 64)) { /* a random flit, credits or not */
      mt_flit f;
      mt_flit_clear(&f);
      for (j = 0; j < e->fw; j++) f.w[j] = rnext(r);
      /* keep the bits above FlitW zero except, sometimes, in the last live word */
      {
        unsigned fb = mt_flit_bits(e->pw, e->nv);
        if (fb % 32 && !chance(r, 1, 4)) f.w[e->fw - 1] &= (1u << (fb % 32)) - 1u;
      }
      in->in_valid[p] = (uint8_t)(chance(r, 1, 8) ? 1 + below(r, 255) : 1);
      in->in_flit[p] = f;
      v = mt_flit_vc(&f, e->pw, e->nv);
      if (v < e->nv && e->upc[p * e->nv + v]) e->upc[p * e->nv + v]--;
      continue;
    }
    {
      unsigned off = below(r, e->nv);
      for (j = 0; j < e->nv; j++) {
        pkt_t *k;
        v = (off + j) % e->nv;
        k = &e->pk[p * e->nv + v];
        if (!k->on) continue;
        if (e->upc[p * e->nv + v] == 0 && !(c && chance(r, c, 64))) continue;
        in->in_valid[p] = 1;
        in->in_flit[p] = flit_of(e, k, v);
        if (e->upc[p * e->nv + v]) e->upc[p * e->nv + v]--;
        if (++k->sent == k->nf) k->on = 0;
        break;
      }
    }
  }
  /* downstream: drain and return credits */
  for (p = 0; p < e->np; p++)
    for (v = 0; v < e->nv; v++) {
      unsigned *o = &e->occ[p * e->nv + v];
      if (*o > 0 && chance(r, e->drain[p], 16)) {
        (*o)--;
        in->out_credit[p][v] = 1;
      }
      if (c && chance(r, c, 256)) in->out_credit[p][v] = (uint8_t)(chance(r, 1, 8) ? rnext(r) : 1);
    }
}

static void env_outputs(env_t *e, const mt_router_out *out) {
  unsigned p, v;
  for (p = 0; p < e->np; p++) {
    for (v = 0; v < e->nv; v++)
      if (out->in_credit[p][v]) e->upc[p * e->nv + v]++;
    if (out->out_valid[p]) {
      v = mt_flit_vc(&out->out_flit[p], e->pw, e->nv);
      if (v < e->nv) e->occ[p * e->nv + v]++;
    }
  }
}

static void env_phase(env_t *e, int allow_chaos) {
  rng_t *r = &e->rng;
  static const unsigned rates[] = {0, 1, 2, 8, 16, 16};
  unsigned p;
  for (p = 0; p < e->np; p++) {
    e->inj[p] = 1 + below(r, 16);
    e->drain[p] = rates[below(r, 6)];
  }
  e->start = 1 + below(r, 4);
  e->chaos = allow_chaos && chance(r, 1, 3) ? 1 + below(r, 8) : 0;
  if (!e->chaos) { /* back to the rules: credits as the router reports them */
    unsigned i;
    for (i = 0; i < e->np * e->nv; i++)
      if (e->upc[i] > e->p.vc_depth) e->upc[i] = e->p.vc_depth;
  }
}

static void params_of(const cfg_t *c, mt_router_params *p) {
  mt_router_default_params(p);
  p->dims = c->d;
  p->nlocal = c->l;
  p->k[0] = c->k0;
  p->k[1] = c->k1;
  p->k[2] = c->k2;
  p->torus = c->torus;
  p->payload_w = c->pw;
  p->num_vcs = c->nv;
  p->vc_depth = c->vcd;
  p->ej_depth = c->ejd;
  p->subpkt_flits = c->sub;
  p->step_prio = c->prio;
  p->wd_w = c->wdw;
  p->perturb = c->perturb;
}

static const char *const rt_fields[] = {"out_valid", "out_flit", "in_credit", "wd_err", "ovf_err", "cred"};
#define RT_NF (sizeof rt_fields / sizeof rt_fields[0])

/* One golden run (the router re-initialized now and then, as rule breaking wedges it):
 * returns 0 if it matched the trace. */
static int gold_run(gold *g, const cfg_t *c, uint32_t seed, unsigned long cycles, int chaos, unsigned long *flits) {
  static mt_router rn;
  static env_t e;
  static mt_router_in in;
  static mt_router_out on;
  mt_router_params p;
  unsigned long cyc, acc = 0;
  char tag[96];
  params_of(c, &p);
  if (mt_router_init(&rn, &p, NULL)) {
    CHECK(0, "%s: init failed", c->name);
    return -1;
  }
  snprintf(tag, sizeof tag, "%s seed %u %s cycles %lu", c->name, seed, chaos ? "chaos" : "clean", cycles);
  gold_begin(g, tag, RT_NF, rt_fields);
  env_init(&e, &p, seed);
  memset(&on, 0xa5, sizeof on); /* the step must write every byte */
  for (cyc = 0; cyc < cycles; cyc++) {
    if (cyc % 3000 == 0) {
      if (cyc && (e.chaos || chance(&e.rng, 1, 4))) {
        unsigned i, nid = e.node_id;
        uint32_t wl = e.wd_limit;
        acc += rn.flits_out;
        mt_router_free(&rn);
        if (mt_router_init(&rn, &p, NULL)) return -1;
        env_init(&e, &p, seed + (uint32_t)cyc);
        e.node_id = nid;
        e.wd_limit = wl;
        for (i = 0; i < MT_RT_MAX_IVCS; i++) e.occ[i] = 0;
      }
      env_phase(&e, chaos);
    }
    env_inputs(&e, &in);
    mt_router_step(&rn, &in, &on);
    {
      const gold_field f[RT_NF] = {{on.out_valid, sizeof on.out_valid}, {on.out_flit, sizeof on.out_flit}, {on.in_credit, sizeof on.in_credit}, {on.wd_err, sizeof on.wd_err}, {on.ovf_err, sizeof on.ovf_err}, {rn.cred, sizeof rn.cred}};
      gold_cycle(g, f);
    }
    env_outputs(&e, &on);
  }
  *flits = acc + (unsigned long)rn.flits_out;
  mt_router_free(&rn);
  return gold_end(g);
}

/* ---------------- bench: record a busy closed-loop run, replay it ---------------- */
typedef struct {
  uint32_t *w;
  size_t n, cap;
} rec_t;
static void rec_put(rec_t *r, uint32_t x) {
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 1u << 20;
    r->w = (uint32_t *)realloc(r->w, r->cap * sizeof *r->w);
    if (!r->w) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
  }
  r->w[r->n++] = x;
}
/* decode one recorded cycle into *in (only the fields the recording holds) */
static const uint32_t *rec_get(const uint32_t *x, mt_router_in *in, unsigned np, unsigned nv, unsigned fw) {
  unsigned p, v, vm = *x++;
  for (p = 0; p < np; p++) {
    in->in_valid[p] = (uint8_t)((vm >> p) & 1u);
    if (in->in_valid[p]) {
      memcpy(in->in_flit[p].w, x, fw * sizeof *x);
      x += fw;
    }
    {
      uint32_t cm = *x++;
      for (v = 0; v < nv; v++) in->out_credit[p][v] = (uint8_t)((cm >> v) & 1u);
    }
  }
  return x;
}

typedef void (*step_fn)(void *model, const mt_router_in *in, mt_router_out *out);
static void step_new(void *m, const mt_router_in *in, mt_router_out *out) { mt_router_step((mt_router *)m, in, out); }

/* Replays `cycles` recorded cycles from x into in, stepping `model` (step NULL: decoding
 * only, folded into *sink); returns the wall time. */
static double replay(const uint32_t *x, const env_t *e, unsigned long cycles, mt_router_in *in, mt_router_out *out, step_fn step,
                     void *model, uint64_t *sink) {
  const double t0 = mt_now();
  for (unsigned long cyc = 0; cyc < cycles; cyc++) {
    x = rec_get(x, in, e->np, e->nv, e->fw);
    if (step) step(model, in, out);
    else *sink += in->in_valid[cyc % e->np] + in->out_credit[0][0];
  }
  return mt_now() - t0;
}

static void bench(const cfg_t *c, unsigned long cycles) {
  static mt_router rn;
  static env_t e;
  static mt_router_in in;
  static mt_router_out out;
  mt_router_params p;
  rec_t rec = {NULL, 0, 0};
  unsigned long cyc;
  unsigned pt, v, rep;
  double t_dec = 1e30, t_new = 1e30;
  uint64_t flits = 0, sink = 0;
  params_of(c, &p);
  /* record: busy traffic on every port, fast drains, no chaos; driven by the optimized model */
  mt_router_init(&rn, &p, NULL);
  env_init(&e, &p, 7);
  for (pt = 0; pt < e.np; pt++) {
    e.inj[pt] = 16;
    e.drain[pt] = 15;
  }
  e.start = 8;
  e.no_long = 1;
  memset(&in, 0, sizeof in);
  for (cyc = 0; cyc < cycles; cyc++) {
    uint32_t vm = 0;
    env_inputs(&e, &in);
    for (pt = 0; pt < e.np; pt++) vm |= (in.in_valid[pt] ? 1u : 0u) << pt;
    rec_put(&rec, vm);
    for (pt = 0; pt < e.np; pt++) {
      uint32_t cm = 0;
      if (in.in_valid[pt])
        for (v = 0; v < e.fw; v++) rec_put(&rec, in.in_flit[pt].w[v]);
      for (v = 0; v < e.nv; v++) cm |= (uint32_t)(in.out_credit[pt][v] & 1u) << v;
      rec_put(&rec, cm);
    }
    mt_router_step(&rn, &in, &out);
    env_outputs(&e, &out);
  }
  flits = rn.flits_out;
  mt_router_free(&rn);
  /* replay: decode only, then the model (best of 3 each) */
  for (rep = 0; rep < 3; rep++) {
    double t;
    memset(&in, 0, sizeof in);
    in.node_id = e.node_id;
    in.wd_limit = e.wd_limit;
    t = replay(rec.w, &e, cycles, &in, &out, NULL, NULL, &sink);
    if (t < t_dec) t_dec = t;
    mt_router_init(&rn, &p, NULL);
    t = replay(rec.w, &e, cycles, &in, &out, step_new, &rn, &sink);
    if (t < t_new) t_new = t;
    CHECK(rn.flits_out == flits, "%s: replay differs", c->name);
    mt_router_free(&rn);
  }
  {
    double sn = (t_new - t_dec) / (double)cycles;
    printf("RBENCH %s: %lu cycles, %.3f flits/cycle out of %u ports; step only: %.0f ns (%.0f cycles/s, "
           "%.0f flits/s); replay decoding %.0f ns/cycle (excluded)%s\n",
           c->name, cycles, (double)flits / (double)cycles, e.np, 1e9 * sn, 1.0 / sn,
           (double)flits / (double)cycles / sn, 1e9 * t_dec / (double)cycles, sink == 0 ? "" : "");
  }
  free(rec.w);
}

int main(int argc, char **argv) {
  unsigned ci, s;
  const char *rec_dir = NULL, *rec_hdr = "";
  if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
    unsigned long cycles = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000ul;
    for (ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++)
      if (argc > 3 ? strcmp(argv[3], cfgs[ci].name) == 0
                   : strcmp(cfgs[ci].name, "d2l4v4") == 0 || strcmp(cfgs[ci].name, "paper") == 0)
        bench(&cfgs[ci], cycles);
    return MT_TEST_END("bench_router");
  }
  if (argc > 2 && strcmp(argv[1], "--record") == 0) {
    rec_dir = argv[2];
    rec_hdr = argc > 3 ? argv[3] : "";
  }
  {
    unsigned long cycles = !rec_dir && argc > 1 ? strtoul(argv[1], NULL, 0) : 60000ul, total = 0;
    for (ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++) {
      char path[600];
      gold *g;
      snprintf(path, sizeof path, "%s/%s.gz", rec_dir ? rec_dir : MT_GOLDEN_DIR "/router", cfgs[ci].name);
      g = gold_open(path, rec_dir != NULL, rec_hdr);
      CHECK(g != NULL, "%s: cannot open", path);
      if (!g) continue;
      for (s = 1; s <= 2; s++) {
        unsigned long fl = 0;
        /* seed 1: well-formed traffic only; seed 2: with chaos phases */
        int bad = gold_run(g, &cfgs[ci], 1000u * ci + s, cycles, s == 2, &fl);
        printf("golden %-11s seed %u %s: %lu cycles, %lu flits out, %s\n", cfgs[ci].name, 1000u * ci + s,
               s == 2 ? "chaos" : "clean", cycles, fl, rec_dir ? "recorded" : bad ? "DIFFERS"
                                                                                  : "matches");
        CHECK(bad == 0, "%s seed %u: differs from the golden trace", cfgs[ci].name, s);
        CHECK(fl > cycles / 40, "%s seed %u: too little traffic (%lu flits)", cfgs[ci].name, s, fl);
        total += cycles;
      }
      CHECK(gold_close(g) == 0, "%s: golden file not fully checked", path);
    }
    printf("router_golden: %lu cycles compared%s\n", total, rec_dir ? " (recorded)" : "");
  }
  return MT_TEST_END("test_router_golden");
}
