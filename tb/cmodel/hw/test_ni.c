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
#include "util/mt_fp32.h"
#include "table/mt_layout.h"
#include "hw/mt_mem.h"
#include "hw/mt_ni.h"
#include "ni_env.h"
#include "plan/mt_ref.h"
#include "plan/mt_sched.h"
#include "mt_test.h"

#include "ni_scen.h"

/* Runs node `node` through the runs; returns cycles of the last run (0 on setup error). */
static uint64_t run_node(scen *c, int node, const mt_ni_env_run *runs, int nruns, const char *tag) {
  mt_err e;
  mt_ni ni;
  if (mt_ni_init(&ni, &c->p, &e)) {
    CHECK(0, "%s: ni init: %s", tag, e.msg);
    return 0;
  }
  mt_ni_env *env = mt_ni_env_new(&c->s, &c->tb, &c->ly, &c->t, node, &c->p, &e);
  if (!env) {
    CHECK(0, "%s: env: %s", tag, e.msg);
    mt_ni_free(&ni);
    return 0;
  }
  mt_ni_out out, prev;
  memset(&prev, 0, sizeof prev);
  uint64_t cyc = 0;
  for (int r = 0; r < nruns; r++) {
    if (mt_ni_env_begin(env, &runs[r], &e)) {
      CHECK(0, "%s: begin: %s", tag, e.msg);
      break;
    }
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

/* the NI's decoder against the planner's */
static void test_decode(const char *topo, int compact) {
  scen c;
  if (scen_make(&c, topo, "multitree", 4096, compact)) {
    CHECK(0, "scenario");
    return;
  }
  mt_ni ni;
  mt_err e;
  c.p.net_ports = (unsigned)mt_topo_node_ports(&c.t); /* behind a switch: the NI link, not the radix */
  CHECK(mt_ni_init(&ni, &c.p, &e) == 0, "init: %s", e.msg);
  CHECK(mt_ni_entry_bits(&c.p) == c.ly.width, "entry bits %d vs layout %d", mt_ni_entry_bits(&c.p), c.ly.width);
  for (int n = 0; n < c.tb.n_nodes; n++) {
    mt_ni_env *env = mt_ni_env_new(&c.s, &c.tb, &c.ly, &c.t, n, &c.p, &e);
    mt_ni_env_run r = mt_ni_env_run_default(1, 0, 0);
    mt_ni_env_begin(env, &r, &e);
    mt_ni_in cfg;
    mt_ni_env_comb(env, &cfg);
    const mt_entry *en = mt_node_entries(&c.tb, n);
    for (int i = 0; i < c.tb.count[n]; i++) {
      uint64_t w[MT_LAYOUT_MAX_WORDS], w4[MT_NI_EW] = {0};
      mt_layout_encode(&c.ly, &en[i], w);
      for (int k = 0; k < mt_layout_words(&c.ly); k++) w4[k] = w[k];
      mt_ni_entry d;
      mt_entry r2;
      mt_slot sl[64];
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

/* Table words wider than 256 bits (switch networks: MultiTree gives a node up to N - 1
 * children in one entry, 622 bits on fattree:8,2). (a) The widest entry the parameter limits
 * allow fits MT_NI_EW; one more child is refused. (b) Through the write port and the scan
 * (port A, its decoded-entry cache): entry 1 equals entry 0 below bit 256 and has a child slot
 * above it valid after an empty one (a gap); the scan must stop with error ENTRY at index 1.
 * An NI that kept or compared only the low 256 bits would take entry 1 for entry 0. */
static void test_wide_word(void) {
  mt_ni_params p;
  mt_err e;
  mt_ni_default_params(&p);
  p.compact = 0;
  p.children = MT_NI_MAX_C;
  p.flow_w = 12;
  p.id_w = 12;
  p.step_w = 16;
  p.port_w = 4;
  p.ej_w = 4;
  p.addr_w = 32;
  p.size_w = 32;
  CHECK(mt_ni_check_params(&p, &e) == 0, "widest legal entry refused: %s", e.msg);
  CHECK(mt_ni_entry_bits(&p) == 1459 && 1459 <= 64 * MT_NI_EW, "widest legal entry %d bits, table word %d", mt_ni_entry_bits(&p), 64 * MT_NI_EW);
  p.children = MT_NI_MAX_C + 1;
  CHECK(mt_ni_check_params(&p, &e) != 0 && strstr(e.msg, "Children=65"), "65 children accepted");

  mt_layout ly;
  mt_layout_make(&ly, 0, 64, 4, 4, 40, 16, 4096, 30); /* 40 child slots of 12 bits */
  mt_ni_default_params(&p);
  p.fmt = ly.fmt;
  p.max_flows = 16;
  mt_ni ni;
  if (mt_ni_init(&ni, &p, &e)) {
    CHECK(0, "wide init: %s", e.msg);
    return;
  }
  const int nw = mt_layout_words(&ly), gap_slot = 35, o = ly.o_child + gap_slot * ly.slot_w;
  CHECK(ly.width > 256 && o >= 256 && nw <= MT_NI_EW, "wide layout: %d bits, slot %d at bit %d", ly.width, gap_slot, o);
  mt_entry a;
  memset(&a, 0, sizeof a);
  a.op = MT_OP_GATHER; /* two equal Gathers pass the scan (two equal Reduces would not) */
  a.flow = 0;
  a.step = 1;
  a.size = 64;
  a.has_parent = 1;
  a.parent.node = 1;
  mt_slot ch = {2, 0, 0};
  a.nchild = 1;
  a.child = &ch;
  uint64_t img[3 * MT_LAYOUT_MAX_WORDS], w1[MT_NI_EW] = {0};
  memset(img, 0, sizeof img);
  mt_layout_encode(&ly, &a, &img[0]);
  mt_layout_encode(&ly, &a, &img[nw]);
  mt_layout_encode(&ly, NULL, &img[2 * nw]);
  mt_ni_table_load(&ni, img, 3, (unsigned)nw);
  memcpy(w1, &img[0], (size_t)nw * 8);
  mt_bits_put(w1, o, 1, 1); /* slot 35 valid, slots 1..34 empty */
  mt_ni_in in;
  memset(&in, 0, sizeof in);
  in.nflows = 1;
  in.mem_req_ready[0] = 1;
  in.wd_limit = 1000;
  mt_ni_out out;
  memset(&out, 0, sizeof out);
  in.tbl_we = 1; /* entry 1 through the write port (the RTL's load path) */
  in.tbl_waddr = 1;
  memcpy(in.tbl_wdata, w1, sizeof w1);
  mt_ni_step(&ni, &in, &out);
  in.tbl_we = 0;
  for (int edge = 0; edge < 50 && !out.err; edge++) {
    in.start = edge == 0;
    mt_ni_step(&ni, &in, &out);
  }
  CHECK(out.err && out.err_code == MT_NI_E_ENTRY && out.err_idx == 1, "wide entry 1 (gap above bit 256): err %d code %d idx %u, want ENTRY at 1",
        out.err, out.err_code, out.err_idx);
  mt_ni_free(&ni);
}

/* Hand-derived lockstep timing: a table [NOP step 1 size S1, NOP step 2 size S2, END].
 * start in cycle 0 (edge 1 samples it) -> SCAN for 3 cycles (edges 2,3,4: two entries and
 * END) -> RUN: edge 5 issues NOP1 (lock = ceil(S1/16)), the lock counts down one per edge,
 * then one edge advances the timestep, one edge issues NOP2, its lock counts down, one
 * edge moves to FIN (END), one edge to DONE. So done is first seen after edge
 * 5 + c1 + 1 + 1 + c2 + 1 + 1 with c = ceil(S/16). */
static void test_lockstep_hand(unsigned perturb) {
  mt_ni_params p;
  mt_err e;
  mt_ni_default_params(&p);
  p.perturb = perturb;
  mt_ni ni;
  CHECK(mt_ni_init(&ni, &p, &e) == 0, "init");
  mt_layout ly;
  mt_layout_make(&ly, 0, 16, 4, 4, 4, 16, 4096, 30);
  CHECK(mt_ni_entry_bits(&p) == ly.width, "default params = layout of 16 nodes");
  mt_entry a;
  memset(&a, 0, sizeof a);
  uint64_t img[3][MT_NI_EW];
  memset(img, 0, sizeof img);
  uint64_t w[MT_LAYOUT_MAX_WORDS];
  a.op = MT_OP_NOP;
  a.step = 1;
  a.size = 100;
  mt_layout_encode(&ly, &a, w);
  img[0][0] = w[0];
  img[0][1] = w[1];
  a.step = 2;
  a.size = 32;
  mt_layout_encode(&ly, &a, w);
  img[1][0] = w[0];
  img[1][1] = w[1];
  mt_layout_encode(&ly, NULL, w);
  img[2][0] = w[0];
  img[2][1] = w[1];
  mt_ni_table_load(&ni, &img[0][0], 3, MT_NI_EW);
  mt_ni_in in;
  memset(&in, 0, sizeof in);
  in.nflows = 0;
  in.mem_req_ready[0] = 1;
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

/* ---- bandwidth parameters (rx_engines, mem_ports), driven directly ----
 * Node 0 of a hand-made table (full layout of 16 nodes, L = 4, defaults otherwise, RQ 8):
 * root Reduce entries, step 1. Incoming reduce messages (n payload flits each, VC 0) are
 * offered on their ejection ports from cycle `at` on, one flit per cycle whenever the
 * port's VC has a credit; the memory (mt_mem, mem_ports ports, always ready, latency 1)
 * starts with `own`. Returns the edge after which done was first seen (0: not within
 * the limit), and the final buffer in *buf. */
typedef struct {
  int flow, src, ej;
  uint32_t addr, at;
  const uint32_t *data;
} dmsg;

/* the stager (docs/reference/ni.md "Staging"): drive_direct runs with p.stage_after = g_stage_after
 * and p.perturb = g_perturb, the staging area after the nwords of the buffer (Children slots
 * of nwords each), and reports the stager's counters and the staging area */
static unsigned g_stage_after, g_perturb, g_alu_pipe;
static uint64_t g_sg_out, g_sg_rep;
static uint32_t g_stage_area[4 * 512];

static unsigned drive_direct(unsigned E, unsigned M, const mt_entry *ents, int nent, unsigned nflows,
                             const dmsg *msgs, int nmsg, uint32_t nflit, const uint32_t *own, uint32_t nwords,
                             int dtype, uint32_t *buf, unsigned *err) {
  mt_ni_params p;
  mt_err e;
  mt_ni_default_params(&p);
  p.rx_engines = E;
  p.mem_ports = M;
  p.rq = 8;
  p.stage_after = g_stage_after;
  p.perturb = g_perturb;
  p.alu_pipe = g_alu_pipe;
  mt_layout ly;
  mt_layout_make(&ly, 0, 16, 4, 4, 4, 16, 4096, 30);
  mt_ni ni;
  *err = 0;
  if (mt_ni_init(&ni, &p, &e)) {
    CHECK(0, "direct: init E=%u M=%u: %s", E, M, e.msg);
    return 0;
  }
  uint64_t img[8][MT_NI_EW];
  memset(img, 0, sizeof img);
  uint64_t w[MT_LAYOUT_MAX_WORDS];
  for (int i = 0; i <= nent; i++) {
    mt_layout_encode(&ly, i < nent ? &ents[i] : NULL, w);
    for (int k = 0; k < mt_layout_words(&ly); k++) img[i][k] = w[k];
  }
  mt_ni_table_load(&ni, &img[0][0], (unsigned)nent + 1, MT_NI_EW);
  mt_mem mem;
  const uint64_t swords = g_stage_after ? (uint64_t)nwords * (unsigned)p.children : 0;
  if (mt_mem_init_mp(&mem, nwords + swords, 4, M, 100, 1, 1, NULL)) {
    CHECK(0, "mem init");
    mt_ni_free(&ni);
    return 0;
  }
  memcpy(mem.w, own, nwords * 4);
  mt_ni_in in;
  mt_ni_out out, prev;
  memset(&prev, 0, sizeof prev);
  int cred[MT_NI_MAX_L];
  uint32_t pos[8] = {0}; /* flits of message i delivered (0 = head next) */
  for (int l = 0; l < MT_NI_MAX_L; l++) cred[l] = (int)p.ej_depth;
  unsigned done_edge = 0;
  for (unsigned edge = 1; edge < 20000 && !done_edge; edge++) {
    const unsigned cyc = edge - 1;
    memset(&in, 0, sizeof in);
    in.dtype = (uint8_t)dtype;
    in.node_id = 0;
    in.nflows = (uint16_t)nflows;
    in.wd_limit = 5000;
    in.stage_base = nwords * 4;
    in.stage_slot = nwords * 4;
    in.start = edge == 1;
    for (unsigned l = 0; l < p.nlocal; l++) cred[l] += prev.ej_credit[l][0];
    for (int i = 0; i < nmsg; i++) {
      const dmsg *m = &msgs[i];
      unsigned l = (unsigned)m->ej;
      if (cyc < m->at || pos[i] > nflit || cred[l] <= 0 || in.ej_valid[l]) continue;
      /* messages on one port go one after the other */
      int busy_before = 0;
      for (int j = 0; j < i; j++)
        if (msgs[j].ej == m->ej && pos[j] <= nflit) busy_before = 1;
      if (busy_before) continue;
      mt_flit f;
      mt_ni_direct_flit(&p, (unsigned)m->src, (unsigned)m->flow, m->addr, nflit, l, pos[i], pos[i] ? m->data + (pos[i] - 1) * 4 : NULL, &f);
      in.ej_valid[l] = 1;
      in.ej_flit[l] = f;
      cred[l]--;
      pos[i]++;
    }
    for (unsigned m = 0; m < M; m++) mt_mem_comb_port(&mem, m, &in.mem_req_ready[m], &in.mem_rsp_valid[m], in.mem_rsp_data[m]);
    mt_ni_step(&ni, &in, &out);
    mt_mem_edge_mp(&mem, prev.mem_req_valid, prev.mem_req_we, prev.mem_req_addr, prev.mem_req_be, &prev.mem_req_wdata[0][0], MT_NI_MAX_LANES);
    prev = out;
    if (out.err) {
      *err = out.err_code;
      break;
    }
    if (out.done) done_edge = edge;
  }
  memcpy(buf, mem.w, nwords * 4);
  g_sg_out = ni.sg_out;
  g_sg_rep = ni.sg_rep;
  if (swords && swords <= sizeof g_stage_area / 4) memcpy(g_stage_area, mem.w + nwords, swords * 4);
  CHECK(mem.errors == 0, "direct E=%u M=%u: %llu memory protocol errors", E, M, (unsigned long long)mem.errors);
  mt_mem_free(&mem);
  mt_ni_free(&ni);
  return done_edge;
}

static mt_entry root_reduce(int flow, uint32_t addr, uint32_t size, mt_slot *ch, int nch) {
  mt_entry a;
  memset(&a, 0, sizeof a);
  a.op = MT_OP_REDUCE;
  a.flow = flow;
  a.step = 1;
  a.has_parent = 0;
  a.nchild = nch;
  a.child = ch;
  a.addr = addr;
  a.size = size;
  return a;
}

/* Concurrency: flows 0 and 1 (1 KiB = n = 64 flits each) rooted here, one child each,
 * child 1 on ejection port 0, child 2 on port 1; both messages offered from cycle 0.
 * Hand-derived bounds:
 *  - one memory port (any E): every flit costs a read and a write on it, one request per
 *    cycle: done after >= 4n edges;
 *  - one engine with its own read and write ports (E = 1, M = L + 2 = 6): one flit per
 *    cycle, the messages one after the other: >= 2n;
 *  - L engines, L + 2L ports: both at once, exactly n + 16 edges. Engine e: pick (edge 5;
 *    RUN after the scan of 2 entries + END at edges 2..4), the entry index loaded (6: the
 *    table's port-B address), look-up (7), read of payload flit j granted at edge 8 + j (the
 *    FIFO refills in one cycle; RQ 8 > the 5 edges a flit is in flight), accepted by the
 *    memory at 9 + j, response -> ALU at 10 + j, -> write queue at 11 + j, write granted at
 *    12 + j; the last (j = n-1) at n + 11, accepted at n + 12 where the engine finishes
 *    (cnt[f] + 1: done waits for its write to be accepted); the two root entries issue at
 *    n + 13 and n + 14, END -> FIN at n + 15, DONE at n + 16.
 *  - 2 engines (engine 0: ports 0, 2; engine 1: ports 1, 3), L + 4 ports: the same.
 *  - with alu_pipe = P (registers inside the adder): each sum reaches the write queue at
 *    11 + P + j, the flit is 5 + P edges in flight (still below RQ 8 for P <= 2), so one flit per
 *    cycle still and every later step P edges later: exactly n + 16 + P. */
static void test_bandwidth_direct(void) {
  enum { NF = 64,
         NW = 512 };
  static uint32_t own[NW], a[NF * 4], b[NF * 4], c2[NF * 4], buf[NW];
  const unsigned L = 4, n = NF;
  for (int dt = 0; dt < 2; dt++) {
    mt_ref_inputs(7, 0, dt, own, NW);
    mt_ref_inputs(7, 1, dt, a, NF * 4);
    mt_ref_inputs(7, 2, dt, b, NF * 4);
    mt_slot s1[1] = {{1, 0, 0}}, s2[1] = {{2, 1, 1}};
    mt_entry ents[2] = {root_reduce(0, 0, n * 16, s1, 1), root_reduce(1, n * 16, n * 16, s2, 1)};
    dmsg ms[2] = {{0, 1, 0, 0, 0, a}, {1, 2, 1, n * 16, 0, b}};
    uint32_t want[NW];
    for (unsigned i = 0; i < NW; i++) {
      want[i] = own[i];
      if (i < n * 4) want[i] = mt_reduce_add(dt, own[i], a[i]);
      else if (i < 2 * n * 4) want[i] = mt_reduce_add(dt, own[i], b[i - n * 4]);
    }
    const struct { unsigned E, M; } cf[] = {{1, 1}, {L, 1}, {1, L + 2}, {L, L + L}, {L, L + 2 * L}, {2, L + 4}};
    unsigned t[6];
    for (int k = 0; k < 6; k++) {
      unsigned er;
      t[k] = drive_direct(cf[k].E, cf[k].M, ents, 2, 2, ms, 2, n, own, NW, dt, buf, &er);
      CHECK(t[k] && !er, "direct E=%u M=%u dtype %d: done=%u err=%u", cf[k].E, cf[k].M, dt, t[k], er);
      unsigned bad = 0;
      for (unsigned i = 0; i < NW; i++) bad += buf[i] != want[i];
      CHECK(bad == 0, "direct E=%u M=%u dtype %d: %u words differ from own + incoming", cf[k].E, cf[k].M, dt, bad);
    }
    CHECK(t[0] >= 4 * n && t[1] >= 4 * n, "one memory port: %u / %u edges, bound >= %u", t[0], t[1], 4 * n);
    CHECK(t[2] >= 2 * n && t[2] < 4 * n, "one engine, own ports: %u edges, want [%u, %u)", t[2], 2 * n, 4 * n);
    CHECK(t[4] == n + 16, "L engines, L+2L ports: %u edges, hand-derived %u", t[4], n + 16);
    CHECK(t[3] >= 2 * n && t[3] < t[2] + n, "L engines, L+L ports (a read and a write share a port): %u edges", t[3]);
    CHECK(t[5] == n + 16, "2 engines (ports 0,2 / 1,3), L+4 ports: %u edges, hand-derived %u", t[5], n + 16);
    if (dt == 0) printf("bandwidth direct (n=%u flits per message): E1M1 %u, E4M1 %u, E1M6 %u, E4M8 %u, E4M12 %u, E2M8 %u edges\n",
                        n, t[0], t[1], t[2], t[3], t[4], t[5]);
    for (unsigned P = 1; P <= MT_NI_MAX_ALU_PIPE; P++) { /* the adder's pipeline: P edges later */
      unsigned er, bad = 0;
      g_alu_pipe = P;
      const unsigned tp = drive_direct(L, L + 2 * L, ents, 2, 2, ms, 2, n, own, NW, dt, buf, &er);
      g_alu_pipe = 0;
      for (unsigned i = 0; i < NW; i++) bad += buf[i] != want[i];
      CHECK(tp && !er && bad == 0, "alu_pipe %u dtype %d: done=%u err=%u, %u words wrong", P, dt, tp, er, bad);
      CHECK(tp == n + 16 + P, "alu_pipe %u, L engines, L+2L ports: %u edges, hand-derived %u", P, tp, n + 16 + P);
    }
  }
  /* Reduction order with L engines: flow 0 with children [1 (port 0), 2 (port 1)]; child 2's
   * message is offered at cycle 0, child 1's only at cycle 300. Engine 1 must wait (the
   * shared per-flow counter): fp32 values chosen so the two orders give different sums:
   * own 1.0, child 1 2^24, child 2 -2^24: (1 + 2^24) - 2^24 = 0 (the documented order), the
   * other order gives 1. */
  {
    static uint32_t own1[NW];
    for (unsigned i = 0; i < NW; i++) own1[i] = 0x3f800000u; /* 1.0f */
    for (unsigned i = 0; i < n * 4; i++) {
      a[i] = 0x4b800000u;
      c2[i] = 0xcb800000u;
    } /* +-2^24 */
    mt_slot sc[2] = {{1, 0, 0}, {2, 1, 1}};
    mt_entry ents[1] = {root_reduce(0, 0, n * 16, sc, 2)};
    dmsg ms[2] = {{0, 1, 0, 0, 300, a}, {0, 2, 1, 0, 0, c2}};
    const struct { unsigned E, M; } cf[] = {{1, 1}, {L, L + 2 * L}, {L, 1}};
    for (int k = 0; k < 3; k++) {
      unsigned er, bad = 0;
      unsigned te = drive_direct(cf[k].E, cf[k].M, ents, 1, 1, ms, 2, n, own1, NW, MT_DTYPE_FP32, buf, &er);
      CHECK(te && !er, "order E=%u M=%u: done=%u err=%u", cf[k].E, cf[k].M, te, er);
      for (unsigned i = 0; i < n * 4; i++) bad += buf[i] != 0u;
      CHECK(bad == 0, "order E=%u M=%u: %u words are not (1 + 2^24) - 2^24 = +0 (the documented order)", cf[k].E, cf[k].M, bad);
      /* child 1 arrives at 300: nothing can finish before 300 + n */
      CHECK(te >= 300 + n, "order E=%u M=%u: done after %u edges, before child 1 could be reduced", cf[k].E, cf[k].M, te);
    }
  }
  /* The stager (stage_after = 50), the same scenario: child 2's message (not due) holds
   * ejection port 1 from cycle 0; after 50 cycles without progress it is staged out, written
   * whole (one unit, n flits) to child slot 1's area (stage_base + 1 x stage_slot + its
   * address 0), the port is free; child 1 arrives at 300 and is added; then the staged
   * unit is replayed (once) and added after it: (1 + 2^24) - 2^24 = +0 as without the
   * stager, and nothing is left staged. Hand-derived: 1 unit out, 1 replay, the staging
   * area's slot 1 holds child 2's n x 4 words exactly, slot 0 and the rest nothing (0);
   * done after >= 300 + 2n edges (child 1's n flits, then the replay's n reads). A broken
   * stager that replays before the unit is due (perturb 2) must be caught: a wrong sum or
   * a stop (error), never the right result. */
  {
    static uint32_t own1[NW];
    for (unsigned i = 0; i < NW; i++) own1[i] = 0x3f800000u;
    for (unsigned i = 0; i < n * 4; i++) {
      a[i] = 0x4b800000u;
      c2[i] = 0xcb800000u;
    }
    mt_slot sc[2] = {{1, 0, 0}, {2, 1, 1}};
    mt_entry ents[1] = {root_reduce(0, 0, n * 16, sc, 2)};
    dmsg ms[2] = {{0, 1, 0, 0, 300, a}, {0, 2, 1, 0, 0, c2}};
    const struct { unsigned E, M; } cf[] = {{1, 1}, {L, L + 2 * L}, {L, 1}, {2 * L, 1}};
    for (int k = 0; k < 4; k++) {
      for (unsigned pt = 0; pt < 2; pt++) {
        unsigned er, bad = 0, sbad = 0;
        g_stage_after = 50;
        g_perturb = pt ? 2u : 0u;
        memset(g_stage_area, 0xa5, sizeof g_stage_area);
        unsigned te = drive_direct(cf[k].E, cf[k].M, ents, 1, 1, ms, 2, n, own1, NW, MT_DTYPE_FP32, buf, &er);
        g_stage_after = g_perturb = 0;
        for (unsigned i = 0; i < n * 4; i++) bad += buf[i] != 0u;
        if (pt) {
          CHECK(!(te && !er && bad == 0), "broken stager (replay before due) E=%u M=%u not caught: done=%u err=%u", cf[k].E, cf[k].M, te, er);
          continue;
        }
        CHECK(te && !er, "stager E=%u M=%u: done=%u err=%u", cf[k].E, cf[k].M, te, er);
        CHECK(bad == 0, "stager E=%u M=%u: %u words are not (1 + 2^24) - 2^24 = +0", cf[k].E, cf[k].M, bad);
        CHECK(g_sg_out == 1 && g_sg_rep == 1, "stager E=%u M=%u: %llu units staged, %llu replayed; hand-derived 1 and 1", cf[k].E,
              cf[k].M, (unsigned long long)g_sg_out, (unsigned long long)g_sg_rep);
        for (unsigned i = 0; i < 4 * NW; i++) {
          uint32_t want_s = i >= NW && i < NW + n * 4 ? c2[i - NW] : 0u;
          sbad += g_stage_area[i] != want_s;
        }
        CHECK(sbad == 0, "stager E=%u M=%u: %u words of the staging area differ from child 2 in slot 1 and 0 elsewhere", cf[k].E, cf[k].M, sbad);
        CHECK(te >= 300 + 2 * n, "stager E=%u M=%u: done after %u edges, before the replay could be added", cf[k].E, cf[k].M, te);
        if (k == 0) printf("stager (order scenario, T=50, n=%u): E1M1 done after %u edges\n", n, te);
      }
    }
  }
  /* illegal combinations are refused */
  {
    mt_ni_params p;
    mt_err e;
    mt_ni_default_params(&p);
    p.rx_engines = 3;
    CHECK(mt_ni_check_params(&p, &e) != 0, "rx_engines=3 with L=4 accepted");
    p.rx_engines = 4;
    p.mem_ports = 5;
    CHECK(mt_ni_check_params(&p, &e) != 0, "mem_ports=5 accepted");
    p.mem_ports = 12;
    CHECK(mt_ni_check_params(&p, &e) == 0, "rx_engines=4 mem_ports=12 refused: %s", e.msg);
    p.alu_pipe = MT_NI_MAX_ALU_PIPE + 1;
    CHECK(mt_ni_check_params(&p, &e) != 0 && strstr(e.msg, "AluPipe=3"), "alu_pipe=3 accepted");
  }
}

/* Several receive engines sharing the memory ports under memory back-pressure (issue #11
 * item 5: with one memory port and reduce_chain an engine finished a message when its last
 * write was granted, the shared request register still held it, and its acceptance was
 * counted for the engine's next message, so a chained successor read a running sum one
 * flit early: wrong sums). Every combination of E in {2, L, 2L}, M in {1, L+E, L+2E},
 * memory ready 10/30/60 %, int32/fp32, message/packet, chained and strict, checked
 * against mt_ref (every injected message and the final buffer). Returns the runs. */
static unsigned test_mem_backpressure(void) {
  const char *topo[] = {"torus:2x2", "torus:4x4", "mesh:4x4"};
  const char *algo[] = {"multitree", "multitree", "hd"};
  const uint64_t bytes[] = {256, 4096, 2048};
  const int node[] = {0, 5, 5};
  static const unsigned pr[] = {10, 30, 60};
  unsigned runs = 0;
  for (int k = 0; k < 3; k++) {
    scen c;
    if (scen_make(&c, topo[k], algo[k], bytes[k], 0)) {
      CHECK(0, "scenario %s %s", topo[k], algo[k]);
      continue;
    }
    const unsigned L = c.p.nlocal, Es[3] = {2, L, 2 * L};
    for (int ei = 0; ei < 3; ei++) {
      const unsigned E = Es[ei], Ms[3] = {1, L + E, L + 2 * E};
      for (int mi = 0; mi < 3; mi++)
        for (unsigned chain = 0; chain < 2; chain++)
          for (int pi = 0; pi < 3; pi++)
            for (int mode = 0; mode < 4; mode++) {
              if (k == 2 && (mode >> 1)) continue; /* hd: routed slots are packets anyway */
              c.p.rx_engines = E;
              c.p.mem_ports = Ms[mi];
              c.p.reduce_chain = chain;
              mt_err e;
              if (mt_ni_check_params(&c.p, &e)) continue; /* E = 2L needs 2L <= 8 and 2 | NumVcs */
              mt_ni_env_run r = mt_ni_env_run_default((uint32_t)(900 + k * 1000 + ei * 300 + mi * 100 + chain * 50 + pi * 10 + mode), mode & 1, mode >> 1);
              r.p_ready = pr[pi];
              char tag[128];
              snprintf(tag, sizeof tag, "backpressure %s %s node %d E=%u M=%u chain %u ready %u%% dtype %d pkt %d", topo[k], algo[k], node[k], E,
                       Ms[mi], chain, pr[pi], mode & 1, mode >> 1);
              run_node(&c, node[k], &r, 1, tag);
              runs++;
            }
    }
    scen_free(&c);
  }
  return runs;
}

/* Chained packets with fewer engines than ejection ports (E < L: engine e serves ports e,
 * e + E, ...). A packet of child k may be admitted before its predecessors' packets only if
 * none of them needs k's engine. Comparing ejection ports instead is wrong: a child on port
 * 2 would hold engine 0 waiting for a child on port 0, whose packets only engine 0 takes: a
 * deadlock (watchdog), found by scripts/ni_mem_sweep.sh (torus:3x3 multitree,
 * --flow packet --set ni_rx_engines=2 --set ni_chain=1). Every node of a 3x3 torus (4
 * children per root), E = 2, M in {1, L+E, L+2E}, against mt_ref. Returns the runs. */
static unsigned test_chain_shared_engine(void) {
  scen c;
  unsigned runs = 0;
  if (scen_make(&c, "torus:3x3", "multitree", 9216, 0)) {
    CHECK(0, "scenario torus:3x3 multitree");
    return 0;
  }
  const unsigned L = c.p.nlocal, E = 2, Ms[3] = {1, L + E, L + 2 * E};
  for (int mi = 0; mi < 3; mi++)
    for (int n = 0; n < c.tb.n_nodes; n++)
      for (int dt = 0; dt < 2; dt++) {
        c.p.rx_engines = E;
        c.p.mem_ports = Ms[mi];
        c.p.reduce_chain = 1;
        c.p.num_vcs = 4;
        c.p.pkt_bytes = 64; /* 16 packets per chunk */
        mt_ni_env_run r = mt_ni_env_run_default((uint32_t)(5000 + mi * 100 + n * 2 + dt), dt, 1);
        r.p_ready = 40;
        r.max_delay = 4; /* children's packets overlap */
        char tag[96];
        snprintf(tag, sizeof tag, "shared engine torus:3x3 node %d E=%u M=%u chain 1 dtype %d pkt 1", n, E, Ms[mi], dt);
        run_node(&c, n, &r, 1, tag);
        runs++;
      }
  scen_free(&c);
  return runs;
}

int main(void) {
  test_decode("mesh:2x2", 0);
  test_decode("torus:4x4", 1);
  test_decode("mesh:4x4", 1);
  test_decode("fattree:8,2", 0); /* 622-bit entries, up to 63 children */
  test_decode("bigraph:4x16", 0);
  test_wide_word();
  test_lockstep_hand(0);
  test_lockstep_hand(1);
  test_bandwidth_direct();
  printf("test_ni: %u runs of engines sharing memory ports under back-pressure\n", test_mem_backpressure());
  printf("test_ni: %u runs of chained packets with E < L\n", test_chain_shared_engine());

  /* Fig. 5: 2x2 mesh, every node, int32 and fp32, both flow-control modes; 1000 bytes
   * (chunks of 252/248 bytes: partial last flits) and 4096 bytes (4 packets per chunk) */
  {
    scen c;
    if (scen_make(&c, "mesh:2x2", "multitree", 1000, 0) == 0) {
      for (int n = 0; n < 4; n++)
        for (int mode = 0; mode < 4; mode++) {
          mt_ni_env_run r = mt_ni_env_run_default((uint32_t)(11 + n * 4 + mode), mode & 1, mode >> 1);
          char tag[64];
          snprintf(tag, sizeof tag, "2x2 node %d dtype %d pkt %d", n, mode & 1, mode >> 1);
          run_node(&c, n, &r, 1, tag);
        }
      scen_free(&c);
    }
    if (scen_make(&c, "mesh:2x2", "multitree", 4096, 1) == 0) {
      for (int n = 0; n < 4; n++) {
        mt_ni_env_run r[2] = {mt_ni_env_run_default(5, 1, 1), mt_ni_env_run_default(6, 0, 0)};
        char tag[64];
        snprintf(tag, sizeof tag, "2x2 compact 4096 node %d back-to-back", n);
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
      if (scen_make(&c, topo[k], algo[k], 4096, 0)) {
        CHECK(0, "scenario");
        continue;
      }
      int nodes[] = {0, 5, 15};
      for (int i = 0; i < 3; i++) {
        mt_ni_env_run r = mt_ni_env_run_default((uint32_t)(100 + k * 10 + i), i & 1, k == 2 ? 0 : (i == 2));
        char tag[80];
        snprintf(tag, sizeof tag, "%s %s node %d", topo[k], algo[k], nodes[i]);
        run_node(&c, nodes[i], &r, 1, tag);
      }
      scen_free(&c);
    }
  }
  /* rx_engines / mem_ports: the same scenarios with L engines and 1, L+E and L+2E memory
   * ports (the environment's memory serves every port with random ready and latency):
   * every injected message and the final buffer still equal mt_ref (fp32: the documented
   * order, so the same bits as with one engine) */
  {
    const char *topo[] = {"mesh:2x2", "torus:4x4", "mesh:4x4"};
    const char *algo[] = {"multitree", "multitree", "hd"};
    const uint64_t bytes[] = {1000, 4096, 4096};
    for (int k = 0; k < 3; k++) {
      scen c;
      if (scen_make(&c, topo[k], algo[k], bytes[k], k == 1)) {
        CHECK(0, "scenario");
        continue;
      }
      const unsigned L = c.p.nlocal, Ms[3] = {1, 2 * L, 3 * L};
      for (int mi = 0; mi < 3; mi++) {
        c.p.rx_engines = L;
        c.p.mem_ports = Ms[mi];
        int nodes[] = {0, 1, 3};
        for (int i = 0; i < 3; i++)
          for (int mode = 0; mode < 4; mode++) {
            if (k == 2 && (mode >> 1)) continue;
            mt_ni_env_run r[2] = {mt_ni_env_run_default((uint32_t)(300 + k * 40 + mi * 10 + i * 4 + mode), mode & 1, mode >> 1),
                                  mt_ni_env_run_default((uint32_t)(700 + k * 40 + mi * 10 + i * 4 + mode), !(mode & 1), mode >> 1)};
            char tag[96];
            snprintf(tag, sizeof tag, "%s %s node %d E=%u M=%u dtype %d pkt %d", topo[k], algo[k], nodes[i], L, Ms[mi], mode & 1, mode >> 1);
            run_node(&c, nodes[i], r, 2, tag);
          }
      }
      scen_free(&c);
    }
  }
  /* error cases: each ends with its documented code */
  {
    scen c;
    if (scen_make(&c, "mesh:2x2", "multitree", 1024, 0) == 0) {
      for (int bw = 0; bw < 2; bw++) { /* 1 engine, 1 port; then L engines, L + 2L ports */
        c.p.rx_engines = bw ? c.p.nlocal : 1;
        c.p.mem_ports = bw ? 3 * c.p.nlocal : 1;
        for (int f = 1; f < MT_NI_F_COUNT; f++) {
          mt_ni_env_run r = mt_ni_env_run_default(7, 0, 0);
          r.fault = f;
          r.wd_limit = 3000;
          char tag[64];
          snprintf(tag, sizeof tag, "fault %s E=%u", mt_ni_fault_name(f), c.p.rx_engines);
          run_node(&c, 1, &r, 1, tag);
        }
      }
      scen_free(&c);
    }
  }
  return MT_TEST_END("test_ni");
}
