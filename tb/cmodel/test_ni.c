/* SPDX-License-Identifier: Apache-2.0
 * test_ni.c: unit tests of the C network-interface model (cmodel/mt_ni.c) driven by the
 * scripted environment (cmodel/mt_ni_env.c). Expectations are independent of the model:
 * the entry decoder against the planner's mt_layout_decode, final buffers and every
 * injected payload against mt_ref, error codes against the documented list, lockstep
 * timing against hand-derived cycle counts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mt_fp32.h"
#include "mt_layout.h"
#include "mt_ni.h"
#include "mt_ni_env.h"
#include "mt_sched.h"
#include "mt_test.h"

typedef struct {
  mt_topo t; mt_sched s; mt_tables tb; mt_layout ly; mt_ni_params p;
} scen;

static int scen_make(scen *c, const char *topo, const char *algo, uint64_t bytes, int compact) {
  mt_err e;
  memset(c, 0, sizeof *c);
  if (mt_topo_from_name(&c->t, topo, &e) || mt_plan(&c->s, &c->t, algo, bytes, 4, &e) ||
      mt_sched_tables(&c->s, 0, &c->tb, &e) || mt_layout_for(&c->s, &c->tb, compact, &c->ly, &e)) {
    fprintf(stderr, "scenario %s %s: %s\n", topo, algo, e.msg);
    return -1;
  }
  mt_ni_default_params(&c->p);
  mt_ni_params_layout(&c->p, &c->ly);
  c->p.nlocal = (unsigned)c->ly.local_ports;
  c->p.net_ports = (unsigned)c->t.max_ports;
  c->p.max_flows = (unsigned)c->s.n_flows;
  int d = 0;
  for (int n = 0; n < c->tb.n_nodes; n++) if (c->tb.count[n] > d) d = c->tb.count[n];
  c->p.tbl_depth = (unsigned)d + 2;
  c->p.subpkt_flits = 4;
  return 0;
}
static void scen_free(scen *c) { mt_tables_free(&c->tb); mt_sched_free(&c->s); mt_topo_free(&c->t); }

/* Runs node `node` through the runs; returns cycles of the last run (0 on setup error). */
static uint64_t run_node(scen *c, int node, const mt_ni_env_run *runs, int nruns, const char *tag) {
  mt_err e;
  mt_ni ni;
  if (mt_ni_init(&ni, &c->p, &e)) { CHECK(0, "%s: ni init: %s", tag, e.msg); return 0; }
  mt_ni_env *env = mt_ni_env_new(&c->s, &c->tb, &c->ly, &c->t, node, &c->p, &e);
  if (!env) { CHECK(0, "%s: env: %s", tag, e.msg); mt_ni_free(&ni); return 0; }
  mt_ni_out out, prev;
  memset(&prev, 0, sizeof prev);
  uint64_t cyc = 0;
  for (int r = 0; r < nruns; r++) {
    if (mt_ni_env_begin(env, &runs[r], &e)) { CHECK(0, "%s: begin: %s", tag, e.msg); break; }
    uint64_t t0 = mt_ni_env_cycle(env), lim = 2000000;
    while (!mt_ni_env_finished(env) && mt_ni_env_cycle(env) - t0 < lim) {
      mt_ni_in in;
      mt_ni_env_comb(env, &in);
      mt_ni_step(&ni, &in, &out);
      mt_ni_env_edge(env, &prev);
      prev = out;
    }
    cyc = mt_ni_env_cycle(env) - t0;
    char t2[160];
    snprintf(t2, sizeof t2, "%s run %d", tag, r);
    unsigned pass = 0, fail = mt_ni_env_check(env, &out, t2, &pass);
    CHECK(mt_ni_env_finished(env), "%s: did not finish in %llu cycles", t2, (unsigned long long)lim);
    CHECK(fail == 0, "%s: %u check(s) failed", t2, fail);
    mt_t_pass += pass;
    if (fail) break;
  }
  mt_ni_env_free(env);
  mt_ni_free(&ni);
  return cyc;
}

static mt_ni_env_run run_def(uint32_t seed, int dtype, int pkt) {
  mt_ni_env_run r;
  memset(&r, 0, sizeof r);
  r.seed = seed; r.dtype = dtype; r.pkt_mode = pkt; r.p_ready = 70; r.lat_max = 6; r.p_flit = 80;
  r.p_drain = 60; r.max_delay = 40; r.wd_limit = 5000;
  return r;
}

/* the NI's decoder against the planner's */
static void test_decode(const char *topo, int compact) {
  scen c;
  if (scen_make(&c, topo, "multitree", 4096, compact)) { CHECK(0, "scenario"); return; }
  mt_ni ni; mt_err e;
  CHECK(mt_ni_init(&ni, &c.p, &e) == 0, "init: %s", e.msg);
  CHECK(mt_ni_entry_bits(&c.p) == c.ly.width, "entry bits %d vs layout %d", mt_ni_entry_bits(&c.p), c.ly.width);
  for (int n = 0; n < c.tb.n_nodes; n++) {
    mt_ni_env *env = mt_ni_env_new(&c.s, &c.tb, &c.ly, &c.t, n, &c.p, &e);
    mt_ni_env_run r = run_def(1, 0, 0);
    mt_ni_env_begin(env, &r, &e);
    mt_ni_in cfg; mt_ni_env_comb(env, &cfg);
    const mt_entry *en = mt_node_entries(&c.tb, n);
    for (int i = 0; i < c.tb.count[n]; i++) {
      uint64_t w[MT_LAYOUT_MAX_WORDS], w4[MT_NI_EW] = {0};
      mt_layout_encode(&c.ly, &en[i], w);
      for (int k = 0; k < mt_layout_words(&c.ly); k++) w4[k] = w[k];
      mt_ni_entry d; mt_entry r2; mt_slot sl[64];
      mt_ni_decode(&ni, &cfg, w4, &d);
      mt_layout_decode(&c.ly, &c.t, n, w, &r2, sl, &e);
      int ok = d.op == r2.op && d.step == r2.step && d.addr == r2.addr && d.size == r2.size;
      if (r2.op != MT_OP_NOP) {
        ok = ok && d.flow == r2.flow && d.pv == r2.has_parent && d.nchild == r2.nchild && !d.gap;
        if (r2.has_parent) ok = ok && d.pnode == r2.parent.node && d.pej == r2.parent.eject;
        for (int k = 0; k < r2.nchild; k++) ok = ok && d.cnode[k] == r2.child[k].node && d.cej[k] == r2.child[k].eject;
      }
      CHECK(ok, "%s %s node %d entry %d decodes differently", topo, compact ? "compact" : "full", n, i);
    }
    mt_ni_env_free(env);
  }
  mt_ni_free(&ni);
  scen_free(&c);
}

/* Hand-derived lockstep timing: a table [NOP step 1 size S1, NOP step 2 size S2, END].
 * start in cycle 0 (edge 1 samples it) -> SCAN for 3 cycles (edges 2,3,4: two entries and
 * END) -> RUN: edge 5 issues NOP1 (lock = ceil(S1/16)), the lock counts down one per edge,
 * then one edge advances the timestep, one edge issues NOP2, its lock counts down, one
 * edge moves to FIN (END), one edge to DONE. So done is first seen after edge
 * 5 + c1 + 1 + 1 + c2 + 1 + 1 with c = ceil(S/16). */
static void test_lockstep_hand(unsigned perturb) {
  mt_ni_params p; mt_err e;
  mt_ni_default_params(&p);
  p.perturb = perturb;
  mt_ni ni;
  CHECK(mt_ni_init(&ni, &p, &e) == 0, "init");
  mt_layout ly; mt_layout_make(&ly, 0, 16, 4, 4, 4, 16, 4096, 30);
  CHECK(mt_ni_entry_bits(&p) == ly.width, "default params = layout of 16 nodes");
  mt_entry a; memset(&a, 0, sizeof a);
  uint64_t img[3][MT_NI_EW]; memset(img, 0, sizeof img);
  uint64_t w[MT_LAYOUT_MAX_WORDS];
  a.op = MT_OP_NOP; a.step = 1; a.size = 100; mt_layout_encode(&ly, &a, w); img[0][0] = w[0]; img[0][1] = w[1];
  a.step = 2; a.size = 32; mt_layout_encode(&ly, &a, w); img[1][0] = w[0]; img[1][1] = w[1];
  mt_layout_encode(&ly, NULL, w); img[2][0] = w[0]; img[2][1] = w[1];
  mt_ni_table_load(&ni, &img[0][0], 3, MT_NI_EW);
  mt_ni_in in; memset(&in, 0, sizeof in);
  in.nflows = 0; in.mem_req_ready = 1;
  mt_ni_out out;
  unsigned edge = 0, done_edge = 0, c1 = 7, c2 = 2;
  for (edge = 1; edge < 100 && !done_edge; edge++) {
    in.start = edge == 1;
    mt_ni_step(&ni, &in, &out);
    if (out.done) done_edge = edge;
  }
  unsigned want = 5 + c1 + 1 + 1 + c2 + 1 + 1 + (perturb ? 2 : 0);
  if (!perturb) CHECK(done_edge == want, "lockstep: done after edge %u, hand-derived %u", done_edge, want);
  else CHECK(done_edge == want, "perturbed lockstep: done after edge %u, expected %u", done_edge, want);
  mt_ni_free(&ni);
}

int main(void) {
  test_decode("mesh:2x2", 0);
  test_decode("torus:4x4", 1);
  test_decode("mesh:4x4", 1);
  test_lockstep_hand(0);
  test_lockstep_hand(1);

  /* Fig. 5: 2x2 mesh, every node, int32 and fp32, both flow-control modes; 1000 bytes
   * (chunks of 252/248 bytes: partial last flits) and 4096 bytes (4 packets per chunk) */
  {
    scen c;
    if (scen_make(&c, "mesh:2x2", "multitree", 1000, 0) == 0) {
      for (int n = 0; n < 4; n++)
        for (int mode = 0; mode < 4; mode++) {
          mt_ni_env_run r = run_def((uint32_t)(11 + n * 4 + mode), mode & 1, mode >> 1);
          char tag[64]; snprintf(tag, sizeof tag, "2x2 node %d dtype %d pkt %d", n, mode & 1, mode >> 1);
          run_node(&c, n, &r, 1, tag);
        }
      scen_free(&c);
    }
    if (scen_make(&c, "mesh:2x2", "multitree", 4096, 1) == 0) {
      for (int n = 0; n < 4; n++) {
        mt_ni_env_run r[2] = {run_def(5, 1, 1), run_def(6, 0, 0)};
        char tag[64]; snprintf(tag, sizeof tag, "2x2 compact 4096 node %d back-to-back", n);
        run_node(&c, n, r, 2, tag);
      }
      scen_free(&c);
    }
  }
  /* 4x4 torus and mesh (NOPs), multi-hop baseline (routed slots) */
  {
    const char *topo[] = {"torus:4x4", "mesh:4x4", "mesh:4x4"};
    const char *algo[] = {"multitree", "multitree", "hd"};
    for (int k = 0; k < 3; k++) {
      scen c;
      if (scen_make(&c, topo[k], algo[k], 4096, 0)) { CHECK(0, "scenario"); continue; }
      int nodes[] = {0, 5, 15};
      for (int i = 0; i < 3; i++) {
        mt_ni_env_run r = run_def((uint32_t)(100 + k * 10 + i), i & 1, k == 2 ? 0 : (i == 2));
        char tag[80]; snprintf(tag, sizeof tag, "%s %s node %d", topo[k], algo[k], nodes[i]);
        run_node(&c, nodes[i], &r, 1, tag);
      }
      scen_free(&c);
    }
  }
  /* error cases: each ends with its documented code */
  {
    scen c;
    if (scen_make(&c, "mesh:2x2", "multitree", 1024, 0) == 0) {
      for (int f = 1; f < MT_NI_F_COUNT; f++) {
        mt_ni_env_run r = run_def(7, 0, 0);
        r.fault = f; r.wd_limit = 3000;
        char tag[64]; snprintf(tag, sizeof tag, "fault %s", mt_ni_fault_name(f));
        run_node(&c, 1, &r, 1, tag);
      }
      scen_free(&c);
    }
  }
  return MT_TEST_END("test_ni");
}
