/* SPDX-License-Identifier: Apache-2.0
 * test_ni_golden.c: the C network interface (cmodel/hw/mt_ni.c) against golden traces
 * recorded from a build of the reference commit (tb/golden/ni/, one .gz per group, docs/reference/golden.md).
 * Inputs: the scripted environment of test_ni.c (tb/cmodel/ni_env.c: 2x2/4x4 mesh and torus,
 * multitree and hd, full and compact layouts, int32/fp32, message/packet mode, back-to-back
 * runs, rx_engines/mem_ports variants, chained reduction (reduce_chain=1, rx_engines = L),
 * every deliberate fault, the perturbed lockstep), once clean and once with "chaos": random
 * garbage injected into the environment's inputs (flit bits incl. type/VC and words above
 * the live ones, spurious ejection flits and credits, memory ready/response garbage, unused
 * ports, compact neighbour tables, NOP size, start pulses, table writes, watchdog limit and
 * data type changes), which drives every error path. Every field of mt_ni_out is compared
 * every cycle (golden.h: a 4-bit digit per cycle, a 32-bit hash per field per 1024 cycles).
 * Output buffers: two in turn (as mt_net), now and then a third one filled with garbage.
 *   test_ni_golden                    check against MT_GOLDEN_DIR/ni (make t-c-ni_golden)
 *   test_ni_golden --record DIR HDR   write the traces (make golden; HDR: header text)
 *   test_ni_golden --bench [reps]     ns per step of mt_ni_step on recorded inputs (make bench-ni) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef MT_GOLDEN_FLAT
#include "mt_ni.h"
#include "mt_ni_env.h"
#else
#include "hw/mt_ni.h"
#include "ni_env.h"
#endif
#include "golden.h"
#include "mt_test.h"
#ifdef MT_GOLDEN_FLAT
/* the reference's environment predates mt_ni_env_run_default: the same defaults as tb/cmodel/ni_env.c */
static mt_ni_env_run mt_ni_env_run_default(uint32_t seed, int dtype, int pkt_mode) {
  return (mt_ni_env_run){.seed = seed, .dtype = dtype, .pkt_mode = pkt_mode, .p_ready = 70, .lat_max = 6, .p_flit = 80, .p_drain = 60, .max_delay = 40, .wd_limit = 5000};
}
#endif
#include "ni_scen.h"

/* 64-bit parts of a table word that the stimulus draws garbage for and the back-door image
 * holds: MT_NI_EW when the traces were recorded (256 bits; every scenario's entry is narrower).
 * Fixed, so that a wider MT_NI_EW keeps the same random draws, hence the same stimulus. */
#define GOLD_TW 4

static uint32_t rs = 12345;
static uint32_t rnd(void) { return mt_xs32(&rs); }
static unsigned below(unsigned n) { return n ? rnd() % n : 0; }

static unsigned long long n_cycles, n_runs, n_bad_runs;
static const char *rec_dir, *rec_hdr; /* --record DIR HDR */

/* the fields of mt_ni_out compared every cycle */
static const char *const ni_fields[] = {"inj_valid", "inj_flit", "ej_credit", "mem_req_valid", "mem_req_we",
                                        "mem_req_addr", "mem_req_be", "mem_req_wdata", "busy", "done", "err",
                                        "err_code", "st", "err_idx", "idx", "step"};
#define NI_NF (sizeof ni_fields / sizeof ni_fields[0])
static void ni_cycle(gold *g, const mt_ni_out *o) {
#define F(x) \
  { &o->x, sizeof o->x }
  const gold_field f[NI_NF] = {F(inj_valid), F(inj_flit), F(ej_credit), F(mem_req_valid), F(mem_req_we),
                               F(mem_req_addr), F(mem_req_be), F(mem_req_wdata), F(busy), F(done), F(err),
                               F(err_code), F(st), F(err_idx), F(idx), F(step)};
#undef F
  gold_cycle(g, f);
}

/* one golden file per scenario group: tb/golden/ni/<name>.gz */
static gold *group_open(const char *name) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s.gz", rec_dir ? rec_dir : MT_GOLDEN_DIR "/ni", name);
  gold *g = gold_open(path, rec_dir != NULL, rec_hdr);
  CHECK(g != NULL, "%s: cannot open", path);
  return g;
}
static void group_close(gold *g) {
  if (g) CHECK(gold_close(g) == 0, "golden file not fully checked");
}


/* chaos: garbage into this cycle's inputs (rate: 1 in `rate` cycles per kind). One draw per
 * statement: the order of two draws in one expression is unspecified (UBSan builds chose
 * another order than -O2 ones, so the stimulus differed between builds). */
static void chaos(mt_ni_in *in, const mt_ni_params *p, unsigned rate) {
  if (!below(rate)) {
    unsigned l = below(MT_NI_MAX_L);
    in->ej_valid[l] = (uint8_t)(1 + below(2));
    unsigned w = below(MT_FLIT_WORDS);
    in->ej_flit[l].w[w] ^= rnd();
  }
  if (!below(rate)) {
    unsigned l = below(MT_NI_MAX_L);
    in->ej_flit[l].w[p->payload_w / 32] = rnd();
  }
  if (!below(rate)) {
    unsigned l = below(MT_NI_MAX_L), v = below(MT_NI_MAX_VCS);
    in->inj_credit[l][v] = (uint8_t)rnd();
  }
  if (!below(rate)) {
    unsigned m = below(MT_NI_MAX_MP);
    in->mem_rsp_valid[m] = (uint8_t)below(3);
    unsigned w = below(MT_NI_MAX_LANES);
    in->mem_rsp_data[m][w] = rnd();
  }
  if (!below(rate)) {
    unsigned m = below(MT_NI_MAX_MP);
    in->mem_req_ready[m] = (uint8_t)below(2);
  }
  if (!below(rate)) {
    unsigned q = below(MT_NI_MAX_PORTS);
    in->nbr_tx[q] = (uint16_t)below(20);
  }
  if (!below(rate)) {
    unsigned q = below(MT_NI_MAX_PORTS);
    in->nbr_rx[q] = (uint16_t)below(20);
  }
  if (!below(rate * 4)) in->nop_bytes = below(5000);
  if (!below(rate * 4)) in->start = 1;
  if (!below(rate * 4)) {
    in->tbl_we = 1;
    in->tbl_waddr = below(p->tbl_depth + 2);
    for (int k = 0; k < GOLD_TW; k++) {
      uint64_t x = rnd();
      in->tbl_wdata[k] ^= x << below(40);
    }
  }
  if (!below(rate * 4)) in->wd_limit = below(400);
  if (!below(rate * 8)) in->dtype = (uint8_t)below(2);
  if (!below(rate * 8)) in->nflows = (uint16_t)(in->nflows + below(3) - 1);
  if (!below(rate * 8)) {
    in->elem = below(8);
    in->base_units = below(300);
    in->rem_units = below(4);
  }
}

/* node `node` of scenario c through the runs, one golden run */
static void run_gold(gold *g, scen *c, int node, const mt_ni_env_run *runs, int nruns, unsigned chaos_rate, const char *tag) {
  mt_err e;
  mt_ni ni;
  if (!g) return;
  if (mt_ni_init(&ni, &c->p, &e)) {
    CHECK(0, "%s: init: %s", tag, e.msg);
    return;
  }
  mt_ni_env *env = mt_ni_env_new(&c->s, &c->tb, &c->ly, &c->t, node, &c->p, &e);
  if (!env) {
    CHECK(0, "%s: env: %s", tag, e.msg);
    mt_ni_free(&ni);
    return;
  }
  /* the back-door image too (also exercises mt_ni_table_load) */
  {
    unsigned n = c->p.tbl_depth;
    uint64_t *img = calloc((size_t)n * GOLD_TW, 8);
    for (unsigned i = 0; i < n * GOLD_TW; i++) {
      uint64_t hi = rnd();
      img[i] = hi << 32 | rnd();
    }
    mt_ni_table_load(&ni, img, n, GOLD_TW);
    free(img);
  }
  gold_begin(g, tag, NI_NF, ni_fields);
  mt_ni_out out[3], prev;
  memset(&prev, 0, sizeof prev);
  uint64_t cyc = 0;
  for (int r = 0; r < nruns; r++) {
    if (mt_ni_env_begin(env, &runs[r], &e)) {
      CHECK(0, "%s: begin: %s", tag, e.msg);
      break;
    }
    uint64_t t0 = mt_ni_env_cycle(env), lim = chaos_rate ? 30000 : 2000000;
    while (!mt_ni_env_finished(env) && mt_ni_env_cycle(env) - t0 < lim) {
      mt_ni_in in;
      mt_ni_env_comb(env, &in);
      if (chaos_rate) chaos(&in, &c->p, chaos_rate);
      /* two output buffers used in turn, as mt_net does; now and then a third one full of
       * garbage (the step must write all of it) */
      mt_ni_out *o = &out[cyc & 1];
      if (cyc % 997 == 500) {
        o = &out[2];
        memset(o, 0xa5, sizeof *o);
      }
      mt_ni_step(&ni, &in, o);
      ni_cycle(g, o);
      cyc++;
      mt_ni_env_edge(env, &prev);
      prev = *o;
    }
    n_runs++;
  }
  int bad = gold_end(g);
  n_cycles += cyc;
  n_bad_runs += bad != 0;
  CHECK(bad == 0, "%s: differs from the golden trace (%llu cycles)", tag, (unsigned long long)cyc);
  if (getenv("MT_DIFF_VERBOSE")) printf("%s: %llu cycles\n", tag, (unsigned long long)cyc);
  mt_ni_env_free(env);
  mt_ni_free(&ni);
}

/* --bench [reps]: ns per step of mt_ni_step on recorded inputs (torus:4x4 multitree node 5,
 * 2 back-to-back runs, replayed reps times on fresh models). The baseline is this program built
 * against another commit (make bench-ni BENCH_NI_REF=<commit>, docs/results/bench.md). */
static int bench(int reps, int compact) {
  scen c;
  mt_err e;
  if (scen_make(&c, "torus:4x4", "multitree", 16384, compact)) return 1;
  mt_ni ni;
  mt_ni_init(&ni, &c.p, &e);
  mt_ni_env *env = mt_ni_env_new(&c.s, &c.tb, &c.ly, &c.t, 5, &c.p, &e);
  size_t cap = 1u << 16, n = 0;
  mt_ni_in *rec = malloc(cap * sizeof *rec);
  mt_ni_out out, prev;
  memset(&prev, 0, sizeof prev);
  for (int r = 0; r < 2; r++) {
    mt_ni_env_run run = mt_ni_env_run_default(77 + (uint32_t)r, r, 0);
    mt_ni_env_begin(env, &run, &e);
    while (!mt_ni_env_finished(env)) {
      if (n == cap) {
        cap *= 2;
        rec = realloc(rec, cap * sizeof *rec);
      }
      mt_ni_env_comb(env, &rec[n]);
      mt_ni_step(&ni, &rec[n], &out);
      n++;
      mt_ni_env_edge(env, &prev);
      prev = out;
    }
  }
  mt_ni_env_free(env);
  mt_ni_free(&ni);
  /* each step's inputs are copied into one hot scratch first (as mt_net builds them); the
   * time of the copies alone is subtracted */
  double tn = 0, tc = 0;
  static mt_ni_out ob[2];
  static mt_ni_in hot;
  for (int k = 0; k < reps; k++) {
    mt_ni_init(&ni, &c.p, &e);
    double t0 = mt_now();
    for (size_t i = 0; i < n; i++) {
      hot = rec[i];
      mt_ni_step(&ni, &hot, &ob[i & 1]);
    }
    tn += mt_now() - t0;
    mt_ni_free(&ni);
    t0 = mt_now();
    for (size_t i = 0; i < n; i++) {
      hot = rec[i];
      __asm__ volatile("" ::"r"(&hot)
                       : "memory");
    }
    tc += mt_now() - t0;
  }
  tn -= tc;
  printf("bench %s: %zu cycles x %d: mt_ni_step %.1f ns/step\n", compact ? "compact" : "full", n, reps,
         1e9 * tn / ((double)n * reps));
  free(rec);
  scen_free(&c);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--bench")) {
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    return bench(reps, 0) || bench(reps, 1);
  }
  if (argc > 2 && !strcmp(argv[1], "--record")) {
    rec_dir = argv[2];
    rec_hdr = argc > 3 ? argv[3] : "";
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
      char gname[64];
      snprintf(gname, sizeof gname, "chaos%u_%d", cr, k);
      gold *g = group_open(gname);
      if (scen_make(&c, topo[k], algo[k], bytes[k], compact[k])) {
        CHECK(0, "scenario");
        gold_close(g);
        continue;
      }
      const unsigned L = c.p.nlocal;
      /* variant 4 (not in the frozen copy the golden traces replace): chained reduction */
      const unsigned Es[5] = {1, L, L, L, L}, Ms[5] = {1, 1, 2 * L, 3 * L, 3 * L};
      for (int v = 0; v < 5; v++) {
        c.p.rx_engines = Es[v];
        c.p.mem_ports = Ms[v];
        c.p.reduce_chain = v == 4;
        c.p.payload_w = v == 2 ? 256 : 128;
        c.p.num_vcs = v == 3 ? 3 : 2;
        c.p.ej_depth = v == 1 ? 2 : 4;
        c.p.sq = v == 3 ? 2 : 4;
        c.p.rq = v == 2 ? 8 : 4;
        int nodes[] = {0, 1, 3, 5};
        for (int i = 0; i < (cr ? 2 : 4); i++) {
          if (nodes[i] >= c.tb.n_nodes) continue;
          for (int mode = 0; mode < 4; mode++) {
            if (k == 4 && (mode >> 1)) continue;
            mt_ni_env_run r[2] = {mt_ni_env_run_default((uint32_t)(300 + k * 40 + v * 10 + i * 4 + mode + 1000 * ch), mode & 1, mode >> 1),
                                  mt_ni_env_run_default((uint32_t)(700 + k * 40 + v * 10 + i * 4 + mode + 1000 * ch), !(mode & 1), mode >> 1)};
            char tag[128];
            snprintf(tag, sizeof tag, "chaos %u %s %s%s node %d E=%u M=%u PW=%u chain %u dtype %d pkt %d", cr, topo[k], algo[k],
                     compact[k] ? " compact" : "", nodes[i], Es[v], Ms[v], c.p.payload_w, c.p.reduce_chain, mode & 1, mode >> 1);
            run_gold(g, &c, nodes[i], r, 2, cr, tag);
          }
        }
      }
      scen_free(&c);
      group_close(g);
    }
    /* every deliberate fault, 1 engine / 1 port and L engines / L + 2L ports (chained too);
     * the perturbed lockstep estimate */
    {
      scen c;
      char gname[64];
      snprintf(gname, sizeof gname, "chaos%u_faults", cr);
      gold *g = group_open(gname);
      if (scen_make(&c, "mesh:2x2", "multitree", 1024, 0) == 0) {
        for (int bw = 0; bw < 3; bw++) {
          c.p.rx_engines = bw ? c.p.nlocal : 1;
          c.p.mem_ports = bw ? 3 * c.p.nlocal : 1;
          c.p.reduce_chain = bw == 2;
          for (int f = 1; f < MT_NI_F_COUNT; f++) {
            mt_ni_env_run r = mt_ni_env_run_default(7 + (uint32_t)ch, f & 1, 0);
            r.fault = f;
            r.wd_limit = 3000;
            char tag[96];
            snprintf(tag, sizeof tag, "chaos %u fault %s E=%u chain %u", cr, mt_ni_fault_name(f), c.p.rx_engines, c.p.reduce_chain);
            run_gold(g, &c, 1, &r, 1, cr, tag);
          }
        }
        scen_free(&c);
      }
      if (scen_make(&c, "mesh:4x4", "multitree", 4096, 0) == 0) {
        c.p.perturb = 1;
        mt_ni_env_run r = mt_ni_env_run_default(55 + (uint32_t)ch, 0, 0);
        run_gold(g, &c, 5, &r, 1, cr, "perturb 1");
        scen_free(&c);
      }
      group_close(g);
    }
  }
  printf("ni_golden: %llu runs, %llu cycles compared, %llu runs differing%s\n", n_runs, n_cycles, n_bad_runs,
         rec_dir ? " (recorded)" : "");
  return MT_TEST_END("test_ni_golden");
}
