// SPDX-License-Identifier: Apache-2.0
// cosim_ni.cpp: Verilator co-simulation of rtl/mt_ni.sv against the C model cmodel/mt_ni.c.
// One scripted environment (cmodel/mt_ni_env.c: processor, memory with random latency and
// stalls, network with random delays, VCs, credits and back-pressure) drives both with the
// same inputs every cycle; every output of both (injected flits, ejection credits, memory
// requests, status, error) is compared every cycle, and at the end of each all-reduce the
// buffer is compared with mt_ref_result and every injected message with mt_ref (env).
// The build fixes the parameters (-G...), matched here by the CFG_* macros (the receive
// engines, memory ports and chaining of the C model come from CFG_NI_RX_ENGINES,
// CFG_NI_MEM_PORTS, CFG_NI_CHAIN: every memory port is driven and compared). Cases:
//   cosim_ni [--perturb] [--quick] [--reps N] [--rtl-perturbed]
// --perturb runs the C model with its lockstep estimate one cycle long and passes only if
// the co-simulation catches the mismatch. --rtl-perturbed (a build with a deliberately wrong
// RTL, e.g. -GPerturbChain=1) runs the cases and passes only if some cycle mismatches.
// Prints RESULT lines (scripts/runbench.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>
#include "Vmt_ni.h"
#include "verilated.h"
extern "C" {
#include "table/mt_layout.h"
#include "hw/mt_mem.h"
#include "util/mt_fp32.h"
#include "hw/mt_ni.h"
#include "ni_env.h"
#include "plan/mt_sched.h"
}

#ifndef CFG_COMPACT
#define CFG_COMPACT 0
#endif
#ifndef CFG_NAME
#define CFG_NAME "full"
#endif
#ifndef CFG_NI_RX_ENGINES
#define CFG_NI_RX_ENGINES 1
#endif
#ifndef CFG_NI_MEM_PORTS
#define CFG_NI_MEM_PORTS 1
#endif
#ifndef CFG_NI_CHAIN
#define CFG_NI_CHAIN 0
#endif
// the stager (docs/reference/ni.md "Staging not-due units"): the build's StageAfter and StageRanges
// (-GStageAfter, -GStageRanges); 0 = an NI without the stager
#ifndef CFG_STAGE_AFTER
#define CFG_STAGE_AFTER 0
#endif
#ifndef CFG_STAGE_RANGES
#define CFG_STAGE_RANGES 16
#endif
// the superset layout every scenario is encoded in (rtl -G parameters match)
static const int kN = 16, kPorts = 4, kL = 4, kC = 4, kF = 16, kSteps = 30;
static const uint64_t kBytes = 65536;
static const unsigned kDepth = 64, kVcs = 2;

double sc_time_stamp() { return 0; }

// ---- bit helpers over Verilator words ----
static uint32_t getbits(const uint32_t *w, unsigned off, unsigned n) {
  uint32_t v = 0;
  for (unsigned i = 0; i < n; i++) v |= ((w[(off + i) / 32] >> ((off + i) % 32)) & 1u) << i;
  return v;
}
static void setbits(uint32_t *w, unsigned off, unsigned n, uint32_t v) {
  for (unsigned i = 0; i < n; i++) {
    uint32_t b = (v >> i) & 1u;
    w[(off + i) / 32] = (w[(off + i) / 32] & ~(1u << ((off + i) % 32))) | (b << ((off + i) % 32));
  }
}
template <std::size_t N>
static uint32_t *wp(VlWide<N> &x) { return &x[0]; }
template <std::size_t N>
static const uint32_t *wp(const VlWide<N> &x) { return &x[0]; }
// n <= 32 bits at off of a port of any width (CData .. QData, or VlWide)
template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static uint32_t getp(const T &x, unsigned off, unsigned n) {
  return (uint32_t)(((uint64_t)x >> off) & (n >= 32 ? 0xffffffffull : (1ull << n) - 1));
}
template <std::size_t N>
static uint32_t getp(const VlWide<N> &x, unsigned off, unsigned n) { return getbits(wp(x), off, n); }
template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
static void setp(T &x, unsigned off, unsigned n, uint32_t v) {
  const uint64_t m = (n >= 32 ? 0xffffffffull : (1ull << n) - 1) << off;
  x = (T)(((uint64_t)x & ~m) | (((uint64_t)v << off) & m));
}
template <std::size_t N>
static void setp(VlWide<N> &x, unsigned off, unsigned n, uint32_t v) { setbits(wp(x), off, n, v); }
static void set_word(QData &q, const uint64_t *w, unsigned) { q = w[0]; }
template <std::size_t N>
static void set_word(VlWide<N> &x, const uint64_t *w, unsigned) {
  for (std::size_t i = 0; i < N; i++) x[i] = (uint32_t)(w[i / 2] >> (32 * (i % 2)));
}

struct Scen {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  mt_layout ly;
  mt_ni_params p;
  bool ok = false;
};

// the C model's parameters of this build (the RTL's -G values) for layout ly
static void build_params(mt_ni_params *p, const mt_layout *ly) {
  mt_ni_default_params(p);
  p->fmt = ly->fmt;
  p->nlocal = kL;
  p->net_ports = kPorts;
  p->max_flows = kF;
  p->tbl_depth = kDepth;
  p->num_vcs = kVcs;
  p->ej_depth = 4;
  p->vc_depth = 8;
  p->subpkt_flits = 4;
  p->pkt_bytes = 256;
  p->sq = 4;
  p->rq = 4;
  p->wd_w = 24;
  p->rx_engines = CFG_NI_RX_ENGINES;
  p->mem_ports = CFG_NI_MEM_PORTS;
  p->reduce_chain = CFG_NI_CHAIN;
  p->stage_after = CFG_STAGE_AFTER;
  p->stage_ranges = CFG_STAGE_RANGES;
}

// the RTL after its reset (one clock edge with rst_ni low)
static std::unique_ptr<Vmt_ni> make_dut(VerilatedContext *ctx) {
  std::unique_ptr<Vmt_ni> d(new Vmt_ni(ctx));
  d->clk_i = 0;
  d->rst_ni = 0;
  d->eval();
  d->clk_i = 1;
  d->eval();
  d->clk_i = 0;
  d->eval();
  d->rst_ni = 1;
  d->eval();
  return d;
}

static bool scen_make(Scen &c, const char *topo, const char *algo, uint64_t bytes, int compact) {
  mt_err e;
  memset(&c.t, 0, sizeof c.t);
  memset(&c.s, 0, sizeof c.s);
  memset(&c.tb, 0, sizeof c.tb);
  mt_layout real;
  if (mt_topo_from_name(&c.t, topo, &e) || mt_plan(&c.s, &c.t, algo, bytes, 4, &e) ||
      mt_sched_tables(&c.s, 0, &c.tb, &e) || mt_layout_for(&c.s, &c.tb, compact, &real, &e)) {
    fprintf(stderr, "scenario %s %s: %s\n", topo, algo, e.msg);
    return false;
  }
  mt_layout_make(&c.ly, compact, kN, kPorts, kL, kC, kF, kBytes, kSteps);
  c.ly.elem = real.elem;
  c.ly.base_units = real.base_units;
  c.ly.rem_units = real.rem_units;
  c.ly.nop_bytes = real.nop_bytes;
  build_params(&c.p, &c.ly);
#ifdef CFG_ENTRY_W
  if (mt_ni_entry_bits(&c.p) != CFG_ENTRY_W) {
    fprintf(stderr, "layout of %d bits, the RTL build has EntryW=%d\n", mt_ni_entry_bits(&c.p), CFG_ENTRY_W);
    return false;
  }
#endif
  c.ok = true;
  return true;
}
static void scen_free(Scen &c) {
  if (!c.ok) return;
  mt_tables_free(&c.tb);
  mt_sched_free(&c.s);
  mt_topo_free(&c.t);
}

struct Stats {
  unsigned long pass = 0, fail = 0, cycles = 0, mism = 0;
  // what the runs exercised (read from the C model's state, docs/reference/ni.md "Chained reduction"):
  // units started while another engine was busy, whole messages chained behind a
  // predecessor engine, chained packets started ahead of their turn (cpos > cnt), cycles
  // with a packet range kept beyond a child's prefix
  unsigned long conc = 0, chn = 0, pk_ahead = 0, pend = 0;
};

// count what the C model's engines did at this edge (st: each engine's state before it)
static void cover(const mt_ni &ni, const uint8_t *st, Stats &c) {
  unsigned busy = 0;
  for (unsigned e = 0; e < ni.ne; e++) busy += ni.rx[e].st == 2 && st[e] == 2;
  for (unsigned e = 0; e < ni.ne; e++) {
    const mt_ni_rx &r = ni.rx[e];
    if (r.st != 2 || st[e] == 2) continue;
    c.conc += busy > 0;
    c.chn += r.chn;
    c.pk_ahead += r.pk && r.cpos > ni.cnt[r.flow < ni.p.max_flows ? r.flow : 0];
  }
  if (ni.crow) { // the chain rows written since the start (RAM R of mt_ni_chain)
    const size_t n = (size_t)ni.p.max_flows * (size_t)ni.p.children;
    bool any = false;
    for (size_t i = 0; i < n && !any; i++)
      for (unsigned q = 0; ni.crv[i] && q < MT_NI_PEND; q++) any = any || ni.crow[i * MT_NI_ROWW + 2 + MT_NI_PEND + q] != 0;
    c.pend += any;
  }
}

// drive the RTL inputs from the C input struct
static void drive(Vmt_ni *d, const mt_ni_in &in, const mt_ni_params &p) {
  const unsigned pw = p.payload_w, fw = mt_flit_bits(pw, p.num_vcs);
  d->dtype_i = in.dtype;
  d->pkt_mode_i = in.pkt_mode;
  d->node_id_i = in.node_id;
  d->nflows_i = in.nflows;
  d->base_units_i = in.base_units;
  d->rem_units_i = in.rem_units;
  d->elem_i = in.elem;
  d->nop_bytes_i = in.nop_bytes;
  d->wd_limit_i = in.wd_limit;
  d->stage_base_i = in.stage_base;
  d->stage_slot_i = in.stage_slot;
  for (unsigned k = 0; k < 16; k++) {
    setbits(wp(d->nbr_tx_i), 12 * k, 12, in.nbr_tx[k]);
    setbits(wp(d->nbr_rx_i), 12 * k, 12, in.nbr_rx[k]);
  }
  d->start_i = in.start;
  d->tbl_we_i = in.tbl_we;
  d->tbl_waddr_i = in.tbl_waddr;
  set_word(d->tbl_wdata_i, in.tbl_wdata, 0);
  uint32_t cr = 0, ev = 0;
  for (unsigned l = 0; l < p.nlocal; l++) {
    for (unsigned v = 0; v < p.num_vcs; v++)
      if (in.inj_credit[l][v]) cr |= 1u << (l * p.num_vcs + v);
    if (in.ej_valid[l]) ev |= 1u << l;
    for (unsigned b = 0; b < fw; b += 32) {
      unsigned n = fw - b < 32 ? fw - b : 32;
      setbits(wp(d->ej_flit_i), l * fw + b, n, getbits(in.ej_flit[l].w, b, n));
    }
  }
  d->inj_credit_i = cr;
  d->ej_valid_i = ev;
  // memory port m of the C model is port m of the RTL
  const unsigned nmp = p.mem_ports ? p.mem_ports : 1;
  for (unsigned m = 0; m < nmp; m++) {
    setp(d->mem_req_ready_i, m, 1, in.mem_req_ready[m]);
    setp(d->mem_rsp_valid_i, m, 1, in.mem_rsp_valid[m]);
    for (unsigned k = 0; k < pw / 32; k++) setp(d->mem_rsp_data_i, m * pw + 32 * k, 32, in.mem_rsp_data[m][k]);
  }
}

// compare every RTL output with the C model's; returns the number of differing fields
static unsigned compare(Vmt_ni *d, const mt_ni_out &o, const mt_ni_params &p, uint64_t cyc, const char *tag, unsigned shown) {
  const unsigned pw = p.payload_w, fw = mt_flit_bits(pw, p.num_vcs);
  unsigned bad = 0;
  char what[256] = "";
  auto diff = [&](const char *name, uint64_t r, uint64_t c) {
    if (r != c) {
      bad++;
      if (!what[0]) snprintf(what, sizeof what, "%s rtl %llx c %llx", name, (unsigned long long)r, (unsigned long long)c);
    }
  };
  for (unsigned l = 0; l < p.nlocal; l++) {
    diff("inj_valid", (d->inj_valid_o >> l) & 1u, o.inj_valid[l]);
    for (unsigned b = 0; b < fw; b += 32) {
      unsigned n = fw - b < 32 ? fw - b : 32;
      diff("inj_flit", getbits(wp(d->inj_flit_o), l * fw + b, n), getbits(o.inj_flit[l].w, b, n));
    }
    for (unsigned v = 0; v < p.num_vcs; v++) diff("ej_credit", (d->ej_credit_o >> (l * p.num_vcs + v)) & 1u, o.ej_credit[l][v]);
  }
  const unsigned nmp = p.mem_ports ? p.mem_ports : 1, lanes = pw / 32;
  for (unsigned m = 0; m < nmp; m++) {
    diff("mem_req_valid", getp(d->mem_req_valid_o, m, 1), o.mem_req_valid[m]);
    diff("mem_req_we", getp(d->mem_req_we_o, m, 1), o.mem_req_we[m]);
    diff("mem_req_addr", getp(d->mem_req_addr_o, 32 * m, 32), o.mem_req_addr[m]);
    diff("mem_req_be", getp(d->mem_req_be_o, lanes * m, lanes), o.mem_req_be[m]);
    for (unsigned k = 0; k < lanes; k++) diff("mem_req_wdata", getp(d->mem_req_wdata_o, m * pw + 32 * k, 32), o.mem_req_wdata[m][k]);
  }
  diff("busy", d->busy_o, o.busy);
  diff("done", d->done_o, o.done);
  diff("err", d->err_o, o.err);
  diff("err_code", d->err_code_o, o.err_code);
  diff("err_idx", d->err_idx_o, o.err_idx);
  diff("idx", d->idx_o, o.idx);
  diff("step", d->step_o, o.step);
  diff("st", d->st_o, o.st);
  if (bad && shown < 5) fprintf(stderr, "MISMATCH %s cycle %llu: %u fields, first %s\n", tag, (unsigned long long)cyc, bad, what);
  return bad;
}

// one node through a list of runs (back to back without reset); returns mismatching cycles
static unsigned long run_case(Scen &c, int node, const std::vector<mt_ni_env_run> &runs, const char *tag,
                              int perturb, Stats &st, bool expect_mismatch) {
  mt_err e;
  mt_ni ni;
  mt_ni_params p = c.p;
  p.perturb = (unsigned)perturb;
  if (mt_ni_init(&ni, &p, &e)) {
    fprintf(stderr, "%s: init: %s\n", tag, e.msg);
    st.fail++;
    return 0;
  }
  mt_ni_env *env = mt_ni_env_new(&c.s, &c.tb, &c.ly, &c.t, node, &p, &e);
  if (!env) {
    fprintf(stderr, "%s: env: %s\n", tag, e.msg);
    st.fail++;
    mt_ni_free(&ni);
    return 0;
  }
  std::unique_ptr<VerilatedContext> ctx(new VerilatedContext);
  std::unique_ptr<Vmt_ni> d = make_dut(ctx.get());
  mt_ni_out out, prev;
  memset(&prev, 0, sizeof prev);
  unsigned long mism = 0, cyc = 0;
  unsigned fails_here = 0;
  for (size_t r = 0; r < runs.size(); r++) {
    if (mt_ni_env_begin(env, &runs[r], &e)) {
      fprintf(stderr, "%s: begin: %s\n", tag, e.msg);
      st.fail++;
      break;
    }
    uint64_t t0 = mt_ni_env_cycle(env);
    while (!mt_ni_env_finished(env) && mt_ni_env_cycle(env) - t0 < 500000) {
      mt_ni_in in;
      mt_ni_env_comb(env, &in);
      drive(d.get(), in, p);
      d->eval();
      uint8_t st0[MT_NI_MAX_L];
      for (unsigned e = 0; e < ni.ne; e++) st0[e] = ni.rx[e].st;
      mt_ni_step(&ni, &in, &out);
      cover(ni, st0, st);
      d->clk_i = 1;
      d->eval();
      if (compare(d.get(), out, p, mt_ni_env_cycle(env), tag, (unsigned)mism)) mism++;
      mt_ni_env_edge(env, &prev);
      prev = out;
      d->clk_i = 0;
      d->eval();
      cyc++;
    }
    char t2[200];
    snprintf(t2, sizeof t2, "%s run %zu", tag, r);
    unsigned pass = 0, f = mt_ni_env_check(env, &out, t2, &pass);
    if (!mt_ni_env_finished(env)) {
      f++;
      fprintf(stderr, "%s: did not finish\n", t2);
    }
    if (!expect_mismatch) {
      st.pass += pass;
      st.fail += f;
      fails_here += f;
    }
    printf("case %-44s run %zu: %llu cycles, %s, code %u, mismatching cycles so far %lu\n", tag, r,
           (unsigned long long)(mt_ni_env_cycle(env) - t0), out.done ? "done" : (out.err ? "error" : "unfinished"),
           out.err_code, mism);
    if (f) break;
  }
  st.cycles += cyc;
  if (expect_mismatch) {
    if (mism) st.pass++;
    else {
      st.fail++;
      fprintf(stderr, "%s: perturbed model NOT caught\n", tag);
    }
  } else {
    if (mism) {
      st.fail++;
      st.mism += mism;
    } else st.pass++;
  }
  (void)fails_here;
  mt_ni_env_free(env);
  mt_ni_free(&ni);
  return mism;
}

// ---- the stager (a build with StageAfter > 0, full layout): direct scenarios ----
// The reduction-order scenario of t-c-ni (tb/cmodel/hw/test_ni.c, "The stager"): a root
// Reduce entry per flow with children [1 (ejection port a), 2 (port b)]; child 2's message
// (not due) is offered from cycle 0, child 1's only at cycle `late`. After StageAfter cycles
// without progress child 2's message is staged out (written whole to child slot 1 of the
// staging area), child 1's is added when it comes, then the staged one is replayed and added
// after it. fp32 values whose two orders differ: own 1.0, child 1 +2^24, child 2 -2^24:
// (1 + 2^24) - 2^24 = +0 in the documented order (1 in the other). Both models get the same
// inputs (table through the write port, flits on the ejection ports within the credits the C
// model returns, mt_mem answering the C model's requests); every output is compared every
// cycle. Checked against hand-derived values: +0 in every word of every flow, the staging
// area holds exactly child 2's words in slot 1 (0 elsewhere), one unit out and one replay per
// flow (C model counters), done. perturb 2 (the C stager replays before due) must mismatch.
// Child 2's chunk may come as units of u flits in the order `order` (unit indices; the
// staged ranges then merge, and a pool of StageRanges may run out: such a unit waits until it
// is due). `staged`: the units of each flow expected to be staged out (hand-derived), exp_rep
// the replays expected (ranges after merging, all flows).
struct SMsg {
  int flow, src, ej;
  uint32_t addr, at, nfl;
  uint32_t val;
  unsigned vc; // its VC (messages of one port and VC go one after the other)
};

static unsigned long run_stage(const char *tag, int nflows, uint32_t late, unsigned p_ready, unsigned lat_max, int perturb,
                               uint32_t u, const std::vector<uint32_t> &order, const std::vector<uint32_t> &staged,
                               uint64_t exp_rep, Stats &st, bool two_vcs = false) {
  const uint32_t n = 16, fb = 16;      // flits per message, bytes per flit (PayloadW 128)
  const uint32_t nwords = 2u * n * 4u; // the buffer: 2 chunks of n flits
  const uint32_t bytes = nwords * 4u;
  mt_err e;
  mt_ni_params p;
  mt_layout ly;
  mt_layout_make(&ly, 0, kN, kPorts, kL, kC, kF, kBytes, kSteps);
  build_params(&p, &ly);
  p.perturb = (unsigned)perturb;
  mt_ni ni;
  if (mt_ni_init(&ni, &p, &e)) {
    fprintf(stderr, "%s: init: %s\n", tag, e.msg);
    st.fail++;
    return 0;
  }
  // flow f: root Reduce entry, chunk f, children node 1 on port 2f, node 2 on port 2f+1
  mt_slot sl[2][2] = {{{1, 0, 0}, {2, 1, 1}}, {{1, 2, 2}, {2, 3, 3}}};
  std::vector<std::vector<uint64_t>> img;
  for (int f = 0; f <= nflows; f++) {
    std::vector<uint64_t> w(MT_NI_EW, 0);
    mt_entry en;
    memset(&en, 0, sizeof en);
    en.op = MT_OP_REDUCE;
    en.flow = f;
    en.step = 1;
    en.nchild = 2;
    en.child = sl[f < 2 ? f : 0];
    en.addr = (uint64_t)f * n * fb;
    en.size = n * fb;
    mt_layout_encode(&ly, f < nflows ? &en : NULL, w.data());
    img.push_back(w);
  }
  std::vector<SMsg> msgs;
  for (int f = 0; f < nflows; f++) {
    for (size_t i = 0; i < order.size(); i++) // child 2 (-2^24) first (two_vcs: unit i on VC i % 2)
      msgs.push_back({f, 2, 2 * f + 1, (uint32_t)f * n * fb + order[i] * u * fb, 0, u, 0xcb800000u, two_vcs ? (unsigned)(i % 2) : 0u});
    msgs.push_back({f, 1, 2 * f, (uint32_t)f * n * fb, late, n, 0x4b800000u}); // child 1 (+2^24), late
  }
  mt_mem mem;
  const uint64_t swords = (uint64_t)nwords * (unsigned)p.children;
  const unsigned M = p.mem_ports ? p.mem_ports : 1;
  if (mt_mem_init_mp(&mem, nwords + swords, 4, M, p_ready, lat_max, 5, &e)) {
    fprintf(stderr, "%s: mem: %s\n", tag, e.msg);
    st.fail++;
    mt_ni_free(&ni);
    return 0;
  }
  for (uint32_t i = 0; i < nwords; i++) mem.w[i] = 0x3f800000u; // 1.0f
  std::unique_ptr<VerilatedContext> ctx(new VerilatedContext);
  std::unique_ptr<Vmt_ni> d = make_dut(ctx.get());
  mt_ni_out out, prev;
  memset(&prev, 0, sizeof prev);
  memset(&out, 0, sizeof out);
  int cred[MT_NI_MAX_L][MT_NI_MAX_VCS];
  for (int l = 0; l < MT_NI_MAX_L; l++)
    for (int v = 0; v < MT_NI_MAX_VCS; v++) cred[l][v] = (int)p.ej_depth;
  std::vector<uint32_t> pos(msgs.size(), 0);
  const uint32_t t0 = (uint32_t)img.size() + 1; // table written, then start
  unsigned long mism = 0, cyc = 0;
  bool done = false, err = false;
  const bool trace = getenv("STAGE_TRACE") != nullptr; // debugging: the C stager's state per cycle
  for (uint32_t c = 0; c < 20000 && !done && !err; c++) {
    mt_ni_in in;
    memset(&in, 0, sizeof in);
    in.dtype = MT_DTYPE_FP32;
    in.nflows = (uint16_t)nflows;
    in.wd_limit = 5000;
    in.stage_base = bytes;
    in.stage_slot = bytes;
    if (c < img.size()) {
      in.tbl_we = 1;
      in.tbl_waddr = c;
      for (unsigned k = 0; k < MT_NI_EW; k++) in.tbl_wdata[k] = img[c][k];
    }
    in.start = c == t0 - 1;
    for (unsigned l = 0; l < p.nlocal; l++)
      for (unsigned v = 0; v < p.num_vcs; v++) cred[l][v] += prev.ej_credit[l][v];
    for (size_t i = 0; i < msgs.size() && c >= t0; i++) {
      const SMsg &m = msgs[i];
      const unsigned l = (unsigned)m.ej;
      if (c - t0 < m.at || pos[i] > m.nfl || cred[l][m.vc] <= 0 || in.ej_valid[l]) continue;
      bool before = false; // messages on one port go one after the other
      for (size_t j = 0; j < i; j++)
        if (msgs[j].ej == m.ej && msgs[j].vc == m.vc && pos[j] <= msgs[j].nfl) before = true;
      if (before) continue;
      const uint32_t wv[4] = {m.val, m.val, m.val, m.val};
      mt_flit f;
      mt_ni_direct_flit(&p, (unsigned)m.src, (unsigned)m.flow, m.addr, m.nfl, l, pos[i], wv, &f);
      mt_flit_set_vc(&f, p.payload_w, p.num_vcs, m.vc);
      in.ej_valid[l] = 1;
      in.ej_flit[l] = f;
      cred[l][m.vc]--;
      pos[i]++;
    }
    for (unsigned m = 0; m < M; m++) mt_mem_comb_port(&mem, m, &in.mem_req_ready[m], &in.mem_rsp_valid[m], in.mem_rsp_data[m]);
    drive(d.get(), in, p);
    d->eval();
    mt_ni_step(&ni, &in, &out);
    d->clk_i = 1;
    d->eval();
    if (compare(d.get(), out, p, c, tag, (unsigned)mism)) mism++;
    if (trace)
      fprintf(stderr, "%s c%u sgst %u sgp %u sgx %u sgj %u sgn %u sgo %u R %u rx st %u s %u op %u flow %u cpos %u | mem v%u a%x\n", tag, c, ni.sgst,
              ni.sgp, ni.sgx, ni.sgj, ni.sgn, ni.sgo, ni.ej_cnt[ni.nstreams], ni.rx[0].st, ni.rx[0].s, ni.rx[0].op, ni.rx[0].flow,
              ni.rx[0].cpos, out.mem_req_valid[0], out.mem_req_addr[0]);
    if (trace) {
      fprintf(stderr, "   engines:");
      for (unsigned e2 = 0; e2 < ni.ne; e2++) fprintf(stderr, " %u:%u/%u", e2, ni.rx[e2].st, ni.rx[e2].s);
      fprintf(stderr, " sgon %u port4 v%u a%x\n", ni.sgon, out.mem_req_valid[4], out.mem_req_addr[4]);
    }
    mt_mem_edge_mp(&mem, prev.mem_req_valid, prev.mem_req_we, prev.mem_req_addr, prev.mem_req_be, &prev.mem_req_wdata[0][0],
                   MT_NI_MAX_LANES);
    prev = out;
    d->clk_i = 0;
    d->eval();
    cyc++;
    err = out.err;
    done = c >= t0 && out.done;
  }
  st.cycles += cyc;
  unsigned bad = 0, sbad = 0;
  for (uint32_t i = 0; i < (uint32_t)nflows * n * 4; i++) bad += mem.w[i] != 0u;
  for (uint64_t i = 0; i < swords; i++) {
    const uint64_t sl_k = i / nwords, off = i % nwords; // child slot, word in the slot
    bool in_unit = false;                               // a word of a staged unit of child 2 (slot 1)
    for (uint32_t x : staged) in_unit = in_unit || (off % (n * 4) >= x * u * 4 && off % (n * 4) < (x + 1) * u * 4);
    const uint32_t want = sl_k == 1 && off < (uint64_t)nflows * n * 4 && in_unit ? 0xcb800000u : 0u;
    sbad += mem.w[nwords + i] != want;
  }
  if (perturb) {
    printf("case %-44s %lu cycles, %s, code %u, %u wrong words; perturbed C stager: %lu mismatching cycles (must be > 0)\n", tag, cyc,
           done ? "done" : (err ? "error" : "unfinished"), out.err_code, bad, mism);
    if (mism) st.pass++;
    else {
      st.fail++;
      fprintf(stderr, "%s: perturbed C stager NOT caught\n", tag);
    }
  } else {
    const uint64_t exp_out = (uint64_t)nflows * staged.size();
    const bool ok = done && !err && bad == 0 && sbad == 0 && ni.sg_out == exp_out && ni.sg_rep == exp_rep &&
      mem.errors == 0 && mism == 0;
    printf("case %-44s %lu cycles, %s, code %u, %llu units staged, %llu replays (hand-derived %llu, %llu), at most %u ranges, %u "
           "wrong sums, %u wrong staging words, mismatching cycles %lu\n",
           tag, cyc, done ? "done" : (err ? "error" : "unfinished"), out.err_code, (unsigned long long)ni.sg_out,
           (unsigned long long)ni.sg_rep, (unsigned long long)exp_out, (unsigned long long)exp_rep, ni.sgpeak, bad, sbad, mism);
    if (ok) st.pass++;
    else st.fail++;
    st.mism += mism;
  }
  mt_mem_free(&mem);
  mt_ni_free(&ni);
  return mism;
}

int main(int argc, char **argv) {
  bool perturb = false, quick = false, rtl_perturbed = false;
  int reps = 3;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--perturb")) perturb = true;
    else if (!strcmp(argv[i], "--quick")) quick = true;
    else if (!strcmp(argv[i], "--rtl-perturbed")) rtl_perturbed = true;
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
  }
  Stats st;
  const int compact = CFG_COMPACT;
  if (CFG_STAGE_AFTER) {
    // a stager build: the direct scenarios (the environment's do not set a staging area)
    if (compact) {
      fprintf(stderr, "the stager scenarios need the full layout\n");
      return 1;
    }
    for (int pt = 0; pt < (perturb ? 2 : 1); pt++) {
      const int pz = pt ? 2 : 0;
      const char *pn = pt ? " perturbed" : "";
      char tag[120];
      snprintf(tag, sizeof tag, "%s stage order%s", CFG_NAME, pn);
      run_stage(tag, 1, 300, 100, 1, pz, 16, {0}, {0}, 1, st);
      snprintf(tag, sizeof tag, "%s stage order 2 flows%s", CFG_NAME, pn);
      run_stage(tag, 2, 300, 100, 1, pz, 16, {0}, {0}, 2, st);
      snprintf(tag, sizeof tag, "%s stage order slow memory%s", CFG_NAME, pn);
      run_stage(tag, 2, 400, 30, 6, pz, 16, {0}, {0}, 2, st);
      // 4 units of 4 flits out of address order: [2], [0], [2,4) (extends [2]), [0,4) (joins
      // [0] and [2,4)): all 4 staged, one range replayed
      snprintf(tag, sizeof tag, "%s stage units merged%s", CFG_NAME, pn);
      run_stage(tag, 1, 300, 100, 1, pz, 4, {2, 0, 3, 1}, {0, 1, 2, 3}, 1, st);
      // 2 flows, 8 units of 2 flits each, order 6 4 2 0 7 5 3 1: units 6 and 4 of both flows
      // take the 4 ranges; unit 2 (touching none) waits until child 1 has come (it is due
      // then, as are the rest); the two ranges of each flow are replayed: 4 replays
      snprintf(tag, sizeof tag, "%s stage ranges exhausted%s", CFG_NAME, pn);
      run_stage(tag, 2, 400, 100, 1, pz, 2, {6, 4, 2, 0, 7, 5, 3, 1}, {6, 4}, 4, st);
      // the same with order 6 4 5 2 0 7 3 1: the 4 ranges are in use when unit 5 looks (a
      // unit is staged only while a range is free, even one that would join two: the walk
      // through the list in RAM comes after the claim), so it waits until due: 4 replays
      snprintf(tag, sizeof tag, "%s stage ranges full, join waits%s", CFG_NAME, pn);
      run_stage(tag, 2, 400, 100, 1, pz, 2, {6, 4, 5, 2, 0, 7, 3, 1}, {6, 4}, 4, st);
      // one flow, order 6 4 5 2 0 7 3 1: [6], [4] before it, 5 joins [4] and [6] (a range
      // freed), [2] takes the freed range (the free list), [0] a new one, 7 extends [4,7), 3
      // joins [2] and [4,8), 1 joins [0] and [2,8): all 8 staged, one range replayed
      snprintf(tag, sizeof tag, "%s stage ranges joined, freed, reused%s", CFG_NAME, pn);
      run_stage(tag, 1, 400, 100, 1, pz, 2, {6, 4, 5, 2, 0, 7, 3, 1}, {6, 4, 5, 2, 0, 7, 3, 1}, 1, st);
      // the same with the units on VCs 0 and 1 alternately (in the paper NI two engines take
      // them, so one (flow, slot)'s claims come back to back: the RAMs' bypass): all 8 staged,
      // one range replayed
      snprintf(tag, sizeof tag, "%s stage two VCs%s", CFG_NAME, pn);
      run_stage(tag, 1, 400, 100, 1, pz, 2, {6, 4, 5, 2, 0, 7, 3, 1}, {6, 4, 5, 2, 0, 7, 3, 1}, 1, st, true);
      // ... in another order: in the paper NI an engine's claim meets the walker's last write
      // of that (flow, slot)'s H word at one edge (the bypass mutant differs there), which the
      // order above no longer does since the engines spend a LOAD cycle before LOOK
      snprintf(tag, sizeof tag, "%s stage two VCs, other order%s", CFG_NAME, pn);
      run_stage(tag, 1, 400, 100, 1, pz, 2, {2, 4, 1, 6, 3, 5, 7, 0}, {2, 4, 1, 6, 3, 5, 7, 0}, 1, st, true);
      if (!perturb) break;
    }
    printf("cosim_ni %s: %lu cycles co-simulated, %lu mismatching cycles\n", CFG_NAME, st.cycles, st.mism);
    if (rtl_perturbed) { // the stager's RTL is wrong on purpose (PerturbStage): some case must mismatch
      printf("perturbed RTL: %lu mismatching cycles (must be > 0)\n", st.mism);
      printf("RESULT cosim_ni_rtl_perturbed_%s pass=%d fail=%d\n", CFG_NAME, st.mism ? 1 : 0, st.mism ? 0 : 1);
      return 0;
    }
    printf("RESULT cosim_ni_%s%s pass=%lu fail=%lu\n", CFG_NAME, perturb ? "_perturb" : "", st.pass, st.fail);
    return 0;
  }
  if (perturb) {
    // a mesh node whose table has NOPs: the lockstep estimate one cycle long must be caught
    Scen c;
    if (scen_make(c, "mesh:4x4", "multitree", 4096, compact)) {
      int node = -1;
      for (int n = 0; n < c.tb.n_nodes && node < 0; n++) {
        const mt_entry *en = mt_node_entries(&c.tb, n);
        for (int i = 0; i < c.tb.count[n]; i++)
          if (en[i].op == MT_OP_NOP) {
            node = n;
            break;
          }
      }
      std::vector<mt_ni_env_run> runs{mt_ni_env_run_default(77, 1, 0)};
      char tag[80];
      snprintf(tag, sizeof tag, "%s perturbed lockstep mesh4x4 node %d", CFG_NAME, node);
      unsigned long m = run_case(c, node, runs, tag, 1, st, true);
      printf("perturbed model: %lu mismatching cycles (must be > 0)\n", m);
    } else st.fail++;
    scen_free(c);
    printf("RESULT cosim_ni_perturb_%s pass=%lu fail=%lu\n", CFG_NAME, st.pass, st.fail);
    return 0;
  }
  for (int rep = 0; rep < reps; rep++) {
    const uint32_t so = 100000u * (uint32_t)rep;
    // 1. Fig. 5: 2x2 mesh, every node; int32/fp32 x message/packet mode
    {
      Scen c;
      if (scen_make(c, "mesh:2x2", "multitree", 1000, compact)) {
        for (int n = 0; n < 4; n++)
          for (int m = 0; m < 4; m++) {
            if (quick && m != n) continue;
            std::vector<mt_ni_env_run> runs{mt_ni_env_run_default(so + 1000 + 4 * n + m, m & 1, m >> 1)};
            char tag[80];
            snprintf(tag, sizeof tag, "%s mesh2x2 node %d %s %s", CFG_NAME, n, (m & 1) ? "fp32" : "int32", (m >> 1) ? "pkt" : "msg");
            run_case(c, n, runs, tag, 0, st, false);
          }
      } else st.fail++;
      scen_free(c);
    }
    // 2. 4x4 torus and 4x4 mesh (NOPs); two back-to-back all-reduces without reset
    {
      const char *topo[] = {"torus:4x4", "mesh:4x4"};
      for (int k = 0; k < 2; k++) {
        Scen c;
        if (!scen_make(c, topo[k], "multitree", 4096, compact)) {
          st.fail++;
          continue;
        }
        int nodes[] = {0, 5, 10, 15};
        for (int i = 0; i < (quick ? 2 : 4); i++) {
          std::vector<mt_ni_env_run> runs{mt_ni_env_run_default(so + 2000 + 10 * k + i, i & 1, (i >> 1) & 1)};
          if (i == 1) runs.push_back(mt_ni_env_run_default(so + 3000 + k, 0, 1)); // back to back: fp32 msg, then int32 pkt
          char tag[80];
          snprintf(tag, sizeof tag, "%s %s node %d%s", CFG_NAME, topo[k], nodes[i], i == 1 ? " x2" : "");
          run_case(c, nodes[i], runs, tag, 0, st, false);
        }
        scen_free(c);
      }
    }
    // 3. routed (multi-hop) slots: halving-doubling on a 4x4 mesh (full layout only)
    if (!compact) {
      Scen c;
      if (scen_make(c, "mesh:4x4", "hd", 4096, 0)) {
        std::vector<mt_ni_env_run> runs{mt_ni_env_run_default(so + 4000, 1, 0)};
        run_case(c, 6, runs, CFG_NAME " mesh4x4 hd node 6 (routed)", 0, st, false);
      } else st.fail++;
      scen_free(c);
    }
    // 4. long messages: 4-KiB chunks (256 flits: 64 sub-packets, 16 packets)
    {
      Scen c;
      if (scen_make(c, "mesh:2x2", "multitree", 16384, compact)) {
        for (int n = 0; n < 4; n++) {
          std::vector<mt_ni_env_run> runs{mt_ni_env_run_default(so + 6000 + n, n & 1, n >> 1)};
          char tag[80];
          snprintf(tag, sizeof tag, "%s mesh2x2 16KiB node %d", CFG_NAME, n);
          run_case(c, n, runs, tag, 0, st, false);
        }
      } else st.fail++;
      scen_free(c);
    }
    // 5. a slow memory (every port ready 20 % of cycles, reads answered after 1..12 cycles):
    // engines wait for their write ports (M > 1) and share the one port under back-pressure
    {
      Scen c;
      if (scen_make(c, "torus:4x4", "multitree", 4096, compact)) {
        const int nodes[] = {5, 10};
        for (int i = 0; i < 4; i++) {
          mt_ni_env_run r = mt_ni_env_run_default(so + 7000 + i, i & 1, i >> 1);
          r.p_ready = 20;
          r.lat_max = 12;
          std::vector<mt_ni_env_run> runs{r};
          char tag[80];
          snprintf(tag, sizeof tag, "%s torus:4x4 slow memory node %d %s %s", CFG_NAME, nodes[i & 1], (i & 1) ? "fp32" : "int32", (i >> 1) ? "pkt" : "msg");
          run_case(c, nodes[i & 1], runs, tag, 0, st, false);
        }
      } else st.fail++;
      scen_free(c);
    }
  } // reps
  // 6. error cases: each must end with its documented code, both models agreeing
  {
    Scen c;
    if (scen_make(c, "mesh:2x2", "multitree", 1024, compact)) {
      for (int f = 1; f < MT_NI_F_COUNT; f++) {
        mt_ni_env_run r = mt_ni_env_run_default(5000 + f, 0, 0);
        r.fault = f;
        r.wd_limit = 3000;
        std::vector<mt_ni_env_run> runs{r};
        char tag[80];
        snprintf(tag, sizeof tag, "%s fault %s", CFG_NAME, mt_ni_fault_name(f));
        run_case(c, 1, runs, tag, 0, st, false);
      }
    } else st.fail++;
    scen_free(c);
  }
  printf("cosim_ni %s: %lu cycles co-simulated, %lu mismatching cycles\n", CFG_NAME, st.cycles, st.mism);
  printf("cosim_ni %s exercised: %lu units started beside a busy engine, %lu chained whole messages, %lu chained "
         "packets ahead of their turn, %lu cycles with a packet range beyond a prefix\n",
         CFG_NAME, st.conc, st.chn, st.pk_ahead, st.pend);
  if (rtl_perturbed) {
    // the RTL is wrong on purpose: the co-simulation must see it
    printf("perturbed RTL: %lu mismatching cycles (must be > 0)\n", st.mism);
    printf("RESULT cosim_ni_rtl_perturbed_%s pass=%d fail=%d\n", CFG_NAME, st.mism ? 1 : 0, st.mism ? 0 : 1);
    return 0;
  }
  printf("RESULT cosim_ni_%s pass=%lu fail=%lu\n", CFG_NAME, st.pass, st.fail);
  return 0;
}
