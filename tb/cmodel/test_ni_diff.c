/* SPDX-License-Identifier: Apache-2.0
 * test_ni_diff.c: differential test of the optimized C network interface (cmodel/mt_ni.c)
 * against a frozen copy of the original step function (tb/cmodel/ni_ref.c, included here;
 * test only). Both get identical inputs every cycle; the whole mt_ni_out (every byte) and
 * every state register and memory of the model must be identical every cycle.
 * Inputs: the scripted environment of test_ni.c (cmodel/mt_ni_env: 2x2/4x4 mesh and torus,
 * multitree and hd, full and compact layouts, int32/fp32, message/packet mode, back-to-back
 * runs, rx_engines/mem_ports variants, every deliberate fault), once clean and once with
 * "chaos": random garbage injected into the environment's inputs (flit bits incl. type/VC
 * and words above the live ones, spurious ejection flits and credits, memory ready/response
 * garbage, unused ports, compact neighbour tables, NOP size, start pulses, table writes,
 * watchdog limit and data type changes), which drives every error path. Output buffers: two
 * in turn (as mt_net), now and then a third one filled with garbage. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "ni_ref.c"
#include "util/mt_rng.h"
#include "util/mt_time.h"
#include "table/mt_layout.h"
#include "hw/mt_ni.h"
#include "ni_env.h"
#include "plan/mt_sched.h"
#include "mt_test.h"

#include "ni_scen.h"

static uint32_t rs = 12345;
static uint32_t rnd(void) { return mt_xs32(&rs); }
static unsigned below(unsigned n) { return n ? rnd() % n : 0; }

static unsigned long long n_cycles, n_runs, n_bad_cycles;

/* every state register / memory of the reference vs the optimized model; returns a name */
static const char *state_diff(const mt_nref *a, const mt_ni *b) {
#define C(f) do { if (memcmp(&a->f, &b->f, sizeof a->f)) return #f; } while (0)
#define CA(f, n) do { if (memcmp(a->f, b->f, (n))) return #f; } while (0)
  const mt_ni_params *p = &a->p;
  const size_t F = p->max_flows;
  C(st); C(hp); C(ci); C(lock); C(wd); C(err_idx); C(ts); C(prev_step); C(err_code); C(done);
  C(tba); C(rb); C(cred); C(ej_rd); C(ej_cnt); C(rq_v); C(rq_we); C(rq_addr); C(rq_be); C(rq_data);
  C(tq_rd); C(tq_cnt); C(mrr); C(cycles);
  for (unsigned e = 0; e < a->ne; e++) if (memcmp(a->tbb[e], b->tbb[e], sizeof a->tbb[e])) return "tbb";
  if (memcmp(&a->q, &b->q, sizeof a->q)) return "q";
  for (unsigned l = 0; l < MT_NI_MAX_L; l++) {
    const nref_tx *x = &a->tx[l]; const mt_ni_tx *y = &b->tx[l];
#define T(f) do { if (memcmp(&x->f, &y->f, sizeof x->f)) return "tx." #f; } while (0)
    T(act); T(pm); T(op); T(hd); T(step); T(dst); T(nxt); T(ej); T(flow); T(addr); T(len); T(nfl);
    T(rdj); T(txj); T(pc); T(lastmask); T(fifo); T(frd); T(fcnt); T(outst);
#undef T
  }
  for (unsigned e = 0; e < MT_NI_MAX_L; e++) {
    const nref_rx *x = &a->rx[e]; const mt_ni_rx *y = &b->rx[e];
#define R(f) do { if (memcmp(&x->f, &y->f, sizeof x->f)) return "rx." #f; } while (0)
    R(st); R(s); R(sl); R(rr); R(op); R(normal); R(flow); R(src); R(addr); R(len); R(size); R(nfl);
    R(popj); R(wj); R(infl); R(lastmask); R(tidx); R(inq); R(inq_rd); R(inq_cnt); R(wq); R(wq_rd);
    R(wq_cnt); R(alu_v); R(alu_sum);
#undef R
  }
  CA(tbl, (size_t)p->tbl_depth * MT_NI_EW * 8);
  CA(rv, F); CA(gv, F); CA(root, F); CA(grx, F); CA(rdone, F); CA(cnt, F);
  CA(ridx, F * 4); CA(gidx, F * 4); CA(rxb, F * 4);
  CA(ej, (size_t)a->nstreams * p->ej_depth * sizeof(mt_flit));
  CA(tq, (size_t)a->nmp * a->tq_depth);
#undef C
#undef CA
  return NULL;
}

/* chaos: garbage into this cycle's inputs (rate: 1 in `rate` cycles per kind) */
static void chaos(mt_ni_in *in, const mt_ni_params *p, unsigned rate) {
  if (!below(rate)) { unsigned l = below(MT_NI_MAX_L); in->ej_valid[l] = (uint8_t)(1 + below(2)); in->ej_flit[l].w[below(MT_FLIT_WORDS)] ^= rnd(); }
  if (!below(rate)) { unsigned l = below(MT_NI_MAX_L); in->ej_flit[l].w[p->payload_w / 32] = rnd(); }
  if (!below(rate)) in->inj_credit[below(MT_NI_MAX_L)][below(MT_NI_MAX_VCS)] = (uint8_t)rnd();
  if (!below(rate)) { unsigned m = below(MT_NI_MAX_MP); in->mem_rsp_valid[m] = (uint8_t)below(3); in->mem_rsp_data[m][below(MT_NI_MAX_LANES)] = rnd(); }
  if (!below(rate)) in->mem_req_ready[below(MT_NI_MAX_MP)] = (uint8_t)below(2);
  if (!below(rate)) in->nbr_tx[below(MT_NI_MAX_PORTS)] = (uint16_t)below(20);
  if (!below(rate)) in->nbr_rx[below(MT_NI_MAX_PORTS)] = (uint16_t)below(20);
  if (!below(rate * 4)) in->nop_bytes = below(5000);
  if (!below(rate * 4)) in->start = 1;
  if (!below(rate * 4)) { in->tbl_we = 1; in->tbl_waddr = below(p->tbl_depth + 2); for (int k = 0; k < MT_NI_EW; k++) in->tbl_wdata[k] ^= (uint64_t)rnd() << below(40); }
  if (!below(rate * 4)) in->wd_limit = below(400);
  if (!below(rate * 8)) in->dtype = (uint8_t)below(2);
  if (!below(rate * 8)) in->nflows = (uint16_t)(in->nflows + below(3) - 1);
  if (!below(rate * 8)) { in->elem = below(8); in->base_units = below(300); in->rem_units = below(4); }
}

/* node `node` of scenario c through the runs, reference and optimized side by side */
static void run_diff(scen *c, int node, const mt_ni_env_run *runs, int nruns, unsigned chaos_rate, const char *tag) {
  mt_err e;
  mt_ni ni; mt_nref rf;
  if (mt_ni_init(&ni, &c->p, &e)) { CHECK(0, "%s: init: %s", tag, e.msg); return; }
  if (nref_init(&rf, &c->p, &e)) { CHECK(0, "%s: ref init: %s", tag, e.msg); mt_ni_free(&ni); return; }
  mt_ni_env *env = mt_ni_env_new(&c->s, &c->tb, &c->ly, &c->t, node, &c->p, &e);
  if (!env) { CHECK(0, "%s: env: %s", tag, e.msg); mt_ni_free(&ni); nref_free(&rf); return; }
  /* the back-door image too (also exercises mt_ni_table_load) */
  {
    unsigned n = c->p.tbl_depth;
    uint64_t *img = calloc((size_t)n * MT_NI_EW, 8);
    for (unsigned i = 0; i < n * MT_NI_EW; i++) img[i] = (uint64_t)rnd() << 32 | rnd();
    mt_ni_table_load(&ni, img, n, MT_NI_EW); nref_table_load(&rf, img, n, MT_NI_EW);
    free(img);
  }
  mt_ni_out out[3], oref, prev;
  memset(&prev, 0, sizeof prev);
  unsigned bad = 0;
  uint64_t cyc = 0;
  for (int r = 0; r < nruns && !bad; r++) {
    if (mt_ni_env_begin(env, &runs[r], &e)) { CHECK(0, "%s: begin: %s", tag, e.msg); break; }
    uint64_t t0 = mt_ni_env_cycle(env), lim = chaos_rate ? 30000 : 2000000;
    while (!mt_ni_env_finished(env) && mt_ni_env_cycle(env) - t0 < lim) {
      mt_ni_in in;
      mt_ni_env_comb(env, &in);
      if (chaos_rate) chaos(&in, &c->p, chaos_rate);
      /* two output buffers used in turn, as mt_net does; now and then a third one full of
       * garbage (the step must write all of it) */
      mt_ni_out *o = &out[cyc & 1];
      if (cyc % 997 == 500) { o = &out[2]; memset(o, 0xa5, sizeof *o); }
      nref_step(&rf, &in, &oref);
      mt_ni_step(&ni, &in, o);
      const char *d = memcmp(o, &oref, sizeof oref) ? "out" : state_diff(&rf, &ni);
      if (d) {
        if (bad < 5) fprintf(stderr, "MISMATCH %s run %d cycle %llu: %s differs\n", tag, r, (unsigned long long)cyc, d);
        bad++;
        if (bad >= 5) break;
      }
      cyc++;
      mt_ni_env_edge(env, &prev);
      prev = *o;
    }
    n_runs++;
  }
  n_cycles += cyc; n_bad_cycles += bad;
  CHECK(bad == 0, "%s: %u mismatching cycle(s) in %llu", tag, bad, (unsigned long long)cyc);
  if (getenv("MT_DIFF_VERBOSE")) printf("%s: %llu cycles\n", tag, (unsigned long long)cyc);
  mt_ni_env_free(env);
  mt_ni_free(&ni); nref_free(&rf);
}

/* --bench [reps]: ns per step of the optimized and the reference step on recorded inputs
 * (torus:4x4 multitree node 5, 2 back-to-back runs, replayed reps times on fresh models) */
static int bench(int reps, int compact) {
  scen c; mt_err e;
  if (scen_make(&c, "torus:4x4", "multitree", 16384, compact)) return 1;
  mt_ni ni; mt_nref rf;
  mt_ni_init(&ni, &c.p, &e);
  mt_ni_env *env = mt_ni_env_new(&c.s, &c.tb, &c.ly, &c.t, 5, &c.p, &e);
  size_t cap = 1u << 16, n = 0;
  mt_ni_in *rec = malloc(cap * sizeof *rec);
  mt_ni_out out, prev; memset(&prev, 0, sizeof prev);
  for (int r = 0; r < 2; r++) {
    mt_ni_env_run run = mt_ni_env_run_default(77 + (uint32_t)r, r, 0);
    mt_ni_env_begin(env, &run, &e);
    while (!mt_ni_env_finished(env)) {
      if (n == cap) { cap *= 2; rec = realloc(rec, cap * sizeof *rec); }
      mt_ni_env_comb(env, &rec[n]);
      mt_ni_step(&ni, &rec[n], &out); n++;
      mt_ni_env_edge(env, &prev); prev = out;
    }
  }
  mt_ni_env_free(env); mt_ni_free(&ni);
  /* each step's inputs are copied into one hot scratch first (as mt_net builds them); the
   * time of the copies alone is subtracted */
  double tn = 0, tr = 0, tc = 0;
  static mt_ni_out ob[2];
  static mt_ni_in hot;
  for (int k = 0; k < reps; k++) {
    mt_ni_init(&ni, &c.p, &e);
    double t0 = mt_now();
    for (size_t i = 0; i < n; i++) { hot = rec[i]; mt_ni_step(&ni, &hot, &ob[i & 1]); }
    tn += mt_now() - t0; mt_ni_free(&ni);
    nref_init(&rf, &c.p, &e);
    t0 = mt_now();
    for (size_t i = 0; i < n; i++) { hot = rec[i]; nref_step(&rf, &hot, &ob[i & 1]); }
    tr += mt_now() - t0; nref_free(&rf);
    t0 = mt_now();
    for (size_t i = 0; i < n; i++) { hot = rec[i]; __asm__ volatile("" ::"r"(&hot) : "memory"); }
    tc += mt_now() - t0;
  }
  tn -= tc; tr -= tc;
  printf("bench %s: %zu cycles x %d: optimized %.1f ns/step, reference %.1f ns/step (%.2fx)\n", compact ? "compact" : "full", n, reps,
         1e9 * tn / ((double)n * reps), 1e9 * tr / ((double)n * reps), tr / tn);
  free(rec); scen_free(&c);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--bench")) {
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    return bench(reps, 0) || bench(reps, 1);
  }
  static const unsigned chaos_rates[] = {0, 50, 7};
  for (int ch = 0; ch < 3; ch++) {
    const unsigned cr = chaos_rates[ch];
    /* topologies x algorithms x layouts x engines/ports, every mode */
    const char *topo[] = {"mesh:2x2", "mesh:2x2", "torus:4x4", "torus:4x4", "mesh:4x4", "mesh:4x4"};
    const char *algo[] = {"multitree", "multitree", "multitree", "multitree", "hd", "multitree"};
    const uint64_t bytes[] = {1000, 4096, 4096, 2048, 4096, 4096};
    const int compact[] = {0, 1, 1, 0, 0, 1};
    for (int k = 0; k < 6; k++) {
      scen c;
      if (scen_make(&c, topo[k], algo[k], bytes[k], compact[k])) { CHECK(0, "scenario"); continue; }
      const unsigned L = c.p.nlocal;
      const unsigned Es[4] = {1, L, L, L}, Ms[4] = {1, 1, 2 * L, 3 * L};
      for (int v = 0; v < 4; v++) {
        c.p.rx_engines = Es[v]; c.p.mem_ports = Ms[v];
        c.p.payload_w = v == 2 ? 256 : 128; c.p.num_vcs = v == 3 ? 3 : 2; c.p.ej_depth = v == 1 ? 2 : 4;
        c.p.sq = v == 3 ? 2 : 4; c.p.rq = v == 2 ? 8 : 4;
        int nodes[] = {0, 1, 3, 5};
        for (int i = 0; i < (cr ? 2 : 4); i++) {
          if (nodes[i] >= c.tb.n_nodes) continue;
          for (int mode = 0; mode < 4; mode++) {
            if (k == 4 && (mode >> 1)) continue;
            mt_ni_env_run r[2] = {mt_ni_env_run_default((uint32_t)(300 + k * 40 + v * 10 + i * 4 + mode + 1000 * ch), mode & 1, mode >> 1),
                                  mt_ni_env_run_default((uint32_t)(700 + k * 40 + v * 10 + i * 4 + mode + 1000 * ch), !(mode & 1), mode >> 1)};
            char tag[128];
            snprintf(tag, sizeof tag, "chaos %u %s %s%s node %d E=%u M=%u PW=%u dtype %d pkt %d", cr, topo[k], algo[k],
                     compact[k] ? " compact" : "", nodes[i], Es[v], Ms[v], c.p.payload_w, mode & 1, mode >> 1);
            run_diff(&c, nodes[i], r, 2, cr, tag);
          }
        }
      }
      scen_free(&c);
    }
    /* every deliberate fault, 1 engine / 1 port and L engines / L + 2L ports */
    {
      scen c;
      if (scen_make(&c, "mesh:2x2", "multitree", 1024, 0) == 0) {
        for (int bw = 0; bw < 2; bw++) {
          c.p.rx_engines = bw ? c.p.nlocal : 1; c.p.mem_ports = bw ? 3 * c.p.nlocal : 1;
          for (int f = 1; f < MT_NI_F_COUNT; f++) {
            mt_ni_env_run r = mt_ni_env_run_default(7 + (uint32_t)ch, f & 1, 0);
            r.fault = f; r.wd_limit = 3000;
            char tag[96]; snprintf(tag, sizeof tag, "chaos %u fault %s E=%u", cr, mt_ni_fault_name(f), c.p.rx_engines);
            run_diff(&c, 1, &r, 1, cr, tag);
          }
        }
        scen_free(&c);
      }
    }
    /* perturbed lockstep estimate */
    {
      scen c;
      if (scen_make(&c, "mesh:4x4", "multitree", 4096, 0) == 0) {
        c.p.perturb = 1;
        mt_ni_env_run r = mt_ni_env_run_default(55 + (uint32_t)ch, 0, 0);
        run_diff(&c, 5, &r, 1, cr, "perturb 1");
        scen_free(&c);
      }
    }
  }
  printf("ni_diff: %llu runs, %llu cycles compared, %llu mismatching cycles\n", n_runs, n_cycles, n_bad_cycles);
  return MT_TEST_END("test_ni_diff");
}
