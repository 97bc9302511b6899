/* SPDX-License-Identifier: Apache-2.0
 * test_router_diff.c: differential test of the optimized C router (cmodel/mt_router.c)
 * against a frozen copy of the original step function (tb/cmodel/router_ref.c, included
 * here; test only). Both get identical inputs every cycle; the whole mt_router_out (every
 * byte) and the credit counters must be identical every cycle. Traffic: a closed-loop
 * environment (upstream credit counters, downstream buffers with random drain rates) with
 * well-formed packets and all-reduce messages, and "chaos" phases that break every rule:
 * random flit types and VC fields (beyond NumVcs too), flits without credits (overflow),
 * spurious and multi-valued credit pulses, garbage in unused ports/VCs and in the bits above
 * FlitW of the last live word, in_valid values other than 1, node id and watchdog limit
 * changes. Many parameter sets, including NP = 16 x 16 VCs (256 input VCs), PayloadW 512,
 * K = 2 tori, meshes, step priority and both perturbations.
 * With --bench [cycles]: speed of mt_router_step (new and reference) on a busy router,
 * inputs recorded from a closed-loop run and replayed (make bench-router);
 * --bench CYCLES CFG new: only the set CFG, only the optimized model (for profiling). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "router_ref.c"
#include "util/mt_rng.h"
#include "util/mt_time.h"
#include "fmt/mt_flit.h"
#include "hw/mt_router.h"
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
  unsigned upc[MT_RT_MAX_IVCS]; /* upstream credits per input VC */
  unsigned occ[MT_RT_MAX_IVCS]; /* downstream occupancy per output VC */
  unsigned inj[MT_RT_MAX_PORTS], drain[MT_RT_MAX_PORTS], start; /* x/16 */
  unsigned chaos;                /* 0: well-formed; else rule breaking, x/64 per event */
  int no_long;                   /* no normal packets longer than the buffers (bench) */
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
  for (i = 0; i < e->np; i++) { e->inj[i] = 16; e->drain[i] = 16; }
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
        in->out_credit[p][below(r, MT_RT_MAX_VCS)] = p >= e->np ? (uint8_t)rnext(r) : 0;
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
  p->dims = c->d; p->nlocal = c->l; p->k[0] = c->k0; p->k[1] = c->k1; p->k[2] = c->k2;
  p->torus = c->torus; p->payload_w = c->pw; p->num_vcs = c->nv; p->vc_depth = c->vcd;
  p->ej_depth = c->ejd; p->subpkt_flits = c->sub; p->step_prio = c->prio; p->wd_w = c->wdw;
  p->perturb = c->perturb;
}

/* One differential run: returns the number of mismatching cycles. */
static unsigned long diff_run(const cfg_t *c, uint32_t seed, unsigned long cycles, int chaos,
                              unsigned long *flits) {
  static mt_router rn;
  static mt_rref rf;
  static env_t e;
  static mt_router_in in;
  static mt_router_out on, of;
  mt_router_params p;
  unsigned long cyc, bad = 0, acc = 0;
  params_of(c, &p);
  if (mt_router_init(&rn, &p) || rref_init(&rf, &p)) {
    CHECK(0, "%s: init failed", c->name);
    return 1;
  }
  env_init(&e, &p, seed);
  memset(&on, 0xa5, sizeof on); /* the step must write every byte */
  memset(&of, 0x5a, sizeof of);
  for (cyc = 0; cyc < cycles; cyc++) {
    if (cyc % 3000 == 0) {
      /* rule breaking (and a packet longer than the buffers) wedges the router for good:
       * reset both now and then */
      if (cyc && (e.chaos || chance(&e.rng, 1, 4))) {
        unsigned i, nid = e.node_id;
        uint32_t wl = e.wd_limit;
        acc += rn.flits_out;
        if (rn.flits_out != rf.flits_out) bad++;
        mt_router_free(&rn);
        rref_free(&rf);
        if (mt_router_init(&rn, &p) || rref_init(&rf, &p)) return bad + 1;
        env_init(&e, &p, seed + (uint32_t)cyc);
        e.node_id = nid;
        e.wd_limit = wl;
        for (i = 0; i < MT_RT_MAX_IVCS; i++) e.occ[i] = 0;
      }
      env_phase(&e, chaos);
    }
    env_inputs(&e, &in);
    mt_router_step(&rn, &in, &on);
    rref_step(&rf, &in, &of);
    if (memcmp(&on, &of, sizeof on) || memcmp(rn.cred, rf.cred, sizeof rn.cred)) {
      if (bad < 5) {
        unsigned o, v;
        fprintf(stderr, "MISMATCH %s seed %u cycle %lu\n", c->name, seed, cyc);
        for (o = 0; o < MT_RT_MAX_PORTS; o++) {
          if (on.out_valid[o] != of.out_valid[o] || !mt_flit_eq(&on.out_flit[o], &of.out_flit[o]))
            fprintf(stderr, "  out %u: valid new %u ref %u type %u/%u vc %u/%u\n", o, on.out_valid[o],
                    of.out_valid[o], mt_flit_type(&on.out_flit[o], p.payload_w),
                    mt_flit_type(&of.out_flit[o], p.payload_w), mt_flit_vc(&on.out_flit[o], p.payload_w, p.num_vcs),
                    mt_flit_vc(&of.out_flit[o], p.payload_w, p.num_vcs));
          for (v = 0; v < MT_RT_MAX_VCS; v++)
            if (on.in_credit[o][v] != of.in_credit[o][v] || on.wd_err[o][v] != of.wd_err[o][v] ||
                on.ovf_err[o][v] != of.ovf_err[o][v] || rn.cred[o][v] != rf.cred[o][v])
              fprintf(stderr, "  port %u vc %u: credit %u/%u wd %u/%u ovf %u/%u cred %u/%u\n", o, v,
                      on.in_credit[o][v], of.in_credit[o][v], on.wd_err[o][v], of.wd_err[o][v],
                      on.ovf_err[o][v], of.ovf_err[o][v], rn.cred[o][v], rf.cred[o][v]);
        }
      }
      bad++;
      of = on; /* keep going from the same outputs (the states may differ from now on) */
    }
    env_outputs(&e, &on);
  }
  *flits = acc + (unsigned long)rn.flits_out;
  CHECK(rn.flits_out == rf.flits_out, "%s: flit counts %llu vs %llu", c->name,
        (unsigned long long)rn.flits_out, (unsigned long long)rf.flits_out);
  mt_router_free(&rn);
  rref_free(&rf);
  return bad;
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
    if (!r->w) { fprintf(stderr, "out of memory\n"); exit(2); }
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
static void step_ref(void *m, const mt_router_in *in, mt_router_out *out) { rref_step((mt_rref *)m, in, out); }

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

static void bench(const cfg_t *c, unsigned long cycles, int new_only) {
  static mt_router rn;
  static mt_rref rf;
  static env_t e;
  static mt_router_in in;
  static mt_router_out out;
  mt_router_params p;
  rec_t rec = {NULL, 0, 0};
  unsigned long cyc;
  unsigned pt, v, rep;
  double t_dec = 1e30, t_new = 1e30, t_ref = 1e30;
  uint64_t flits = 0, sink = 0;
  params_of(c, &p);
  /* record: busy traffic on every port, fast drains, no chaos; driven by the optimized model */
  mt_router_init(&rn, &p);
  env_init(&e, &p, 7);
  for (pt = 0; pt < e.np; pt++) { e.inj[pt] = 16; e.drain[pt] = 15; }
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
  /* replay: decode only, new model, reference model (best of 3 each) */
  for (rep = 0; rep < 3; rep++) {
    double t;
    memset(&in, 0, sizeof in);
    in.node_id = e.node_id;
    in.wd_limit = e.wd_limit;
    t = replay(rec.w, &e, cycles, &in, &out, NULL, NULL, &sink);
    if (t < t_dec) t_dec = t;
    mt_router_init(&rn, &p);
    t = replay(rec.w, &e, cycles, &in, &out, step_new, &rn, &sink);
    if (t < t_new) t_new = t;
    CHECK(rn.flits_out == flits, "%s: replay differs", c->name);
    mt_router_free(&rn);
    if (new_only) {
      t_ref = t_new;
      continue;
    }
    rref_init(&rf, &p);
    t = replay(rec.w, &e, cycles, &in, &out, step_ref, &rf, &sink);
    if (t < t_ref) t_ref = t;
    CHECK(rf.flits_out == flits, "%s: reference replay differs", c->name);
    rref_free(&rf);
  }
  {
    double sn = (t_new - t_dec) / (double)cycles, sr = (t_ref - t_dec) / (double)cycles;
    printf("RBENCH %s: %lu cycles, %.3f flits/cycle out of %u ports; step only: reference %.0f ns "
           "(%.0f cycles/s, %.0f flits/s), optimized %.0f ns (%.0f cycles/s, %.0f flits/s), %.1fx; "
           "replay decoding %.0f ns/cycle (excluded)%s\n",
           c->name, cycles, (double)flits / (double)cycles, e.np, 1e9 * sr, 1.0 / sr,
           (double)flits / (double)cycles / sr, 1e9 * sn, 1.0 / sn, (double)flits / (double)cycles / sn,
           sr / sn, 1e9 * t_dec / (double)cycles, sink == 0 ? "" : "");
  }
  free(rec.w);
}

int main(int argc, char **argv) {
  unsigned ci, s;
  if (argc > 1 && strcmp(argv[1], "--bench") == 0) {
    unsigned long cycles = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000000ul;
    for (ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++)
      if (argc > 3 ? strcmp(argv[3], cfgs[ci].name) == 0
                   : strcmp(cfgs[ci].name, "d2l4v4") == 0 || strcmp(cfgs[ci].name, "paper") == 0)
        bench(&cfgs[ci], cycles, argc > 4 && strcmp(argv[4], "new") == 0);
    return MT_TEST_END("bench_router_diff");
  }
  {
    unsigned long cycles = argc > 1 ? strtoul(argv[1], NULL, 0) : 60000ul;
    for (ci = 0; ci < sizeof cfgs / sizeof cfgs[0]; ci++)
      for (s = 1; s <= 2; s++) {
        unsigned long fl = 0, bad;
        /* seed 1: well-formed traffic only; seed 2: with chaos phases */
        bad = diff_run(&cfgs[ci], 1000u * ci + s, cycles, s == 2, &fl);
        printf("diff %-11s seed %u %s: %lu cycles, %lu flits out, %lu mismatching cycles\n", cfgs[ci].name,
               1000u * ci + s, s == 2 ? "chaos" : "clean", cycles, fl, bad);
        CHECK(bad == 0, "%s seed %u: %lu mismatching cycles", cfgs[ci].name, s, bad);
        CHECK(fl > cycles / 40, "%s seed %u: too little traffic (%lu flits)", cfgs[ci].name, s, fl);
      }
  }
  return MT_TEST_END("test_router_diff");
}
