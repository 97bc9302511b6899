// SPDX-License-Identifier: Apache-2.0
// cosim_router.cpp: Verilator co-simulation of rtl/mt_router.sv against cmodel/mt_router.c.
// Both get the same inputs every cycle; every output (flits, valid bits, credit pulses,
// error flags) is compared every cycle. The traffic generator acts as the upstream routers /
// NIs (credit counters per input VC, never sends without a credit) and as the downstream
// receivers (buffers of VcDepth/EjDepth, random drain rates, random credit delays, long
// stalls). A per-VC monitor on every output checks Head (Body|Sub-Tail)* Tail sequencing and
// payload integrity (packet tag and flit sequence number in every data flit).
// A switch (table = 1, docs/reference/switch.md) gets a route table before the traffic, the same in both
// models (the RTL's through its write port): random entries (port sets of 1..NP ports, some
// invalid), or with --topo T --switch S the table mt_switch_build makes for switch S of
// topology T, whose shape must be this build's. --perturb-table changes one entry of the C
// model's table only: the co-simulation must then find a mismatch.
// Parameter set: compile-time -DCFG_<KEY> macros, made with the verilator -G values from one file,
// configs/router/NAME.cfg (`multitree shape --cflags/--gflags`, mk/router.mk).
// Usage: cosim_router [--seed N] [--cycles N] [--perturb K] [--mode random|eff-ar|eff-pkt|share]
//                     [--cbench] [--linklat N] [--topo T --switch S] [--perturb-table]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vmt_router.h"
#include "util/mt_rng.h"
#include "verilated.h"
#include "fmt/mt_flit.h"
#include "hw/mt_router.h"
#include "net/mt_switch.h"

#ifndef CFG_NAME
#define CFG_NAME "default"
#endif
#ifndef CFG_DIMS
#define CFG_DIMS 2
#endif
#ifndef CFG_LOCAL_PORTS
#define CFG_LOCAL_PORTS 4
#endif
#ifndef CFG_K0
#define CFG_K0 4
#endif
#ifndef CFG_K1
#define CFG_K1 4
#endif
#ifndef CFG_K2
#define CFG_K2 1
#endif
#ifndef CFG_TORUS
#define CFG_TORUS 1
#endif
#ifndef CFG_PAYLOAD_W
#define CFG_PAYLOAD_W 128
#endif
#ifndef CFG_NUM_VCS
#define CFG_NUM_VCS 4
#endif
#ifndef CFG_VC_DEPTH
#define CFG_VC_DEPTH 16
#endif
#ifndef CFG_EJ_DEPTH
#define CFG_EJ_DEPTH 16
#endif
#ifndef CFG_SUBPKT_FLITS
#define CFG_SUBPKT_FLITS 16
#endif
#ifndef CFG_STEP_PRIO
#define CFG_STEP_PRIO 0
#endif
#ifndef CFG_RT_PIPE
#define CFG_RT_PIPE 0
#endif
#ifndef CFG_WD_W
#define CFG_WD_W 24
#endif
#ifndef CFG_TABLE
#define CFG_TABLE 0
#endif
#ifndef CFG_NET_PORTS
#define CFG_NET_PORTS 0
#endif
#ifndef CFG_HOP_CLASSES
#define CFG_HOP_CLASSES 1
#endif
#ifndef CFG_NODES
#define CFG_NODES 16
#endif

static const unsigned ND = CFG_TABLE ? CFG_NET_PORTS : 2 * CFG_DIMS, NP = ND + CFG_LOCAL_PORTS, NV = CFG_NUM_VCS,
                      PW = CFG_PAYLOAD_W;

// ---------------- project PRNG ----------------
struct Rng {
  uint32_t s;
  uint32_t next() { return mt_xs32(&s); }
  unsigned below(unsigned n) { return n ? next() % n : 0; }
  bool chance(unsigned num, unsigned den) { return below(den) < num; }
};

// ---------------- Verilator vector access ----------------
template <std::size_t N>
static void get_words(const VlWide<N> &v, uint32_t *o) {
  for (std::size_t i = 0; i < N; i++) o[i] = v[i];
}
template <class T>
static void get_words(const T &v, uint32_t *o) {
  uint64_t x = (uint64_t)v;
  o[0] = (uint32_t)x;
  o[1] = (uint32_t)(x >> 32);
}
template <std::size_t N>
static void set_words(VlWide<N> &v, const uint32_t *in) {
  for (std::size_t i = 0; i < N; i++) v[i] = in[i];
}
template <class T>
static void set_words(T &v, const uint32_t *in) {
  v = (T)((uint64_t)in[0] | ((uint64_t)in[1] << 32));
}
static inline unsigned getbit(const uint32_t *a, unsigned b) { return (a[b / 32] >> (b % 32)) & 1u; }
static inline void setbit(uint32_t *a, unsigned b, unsigned v) {
  if (v) a[b / 32] |= 1u << (b % 32);
  else a[b / 32] &= ~(1u << (b % 32));
}
static void put_flit(uint32_t *a, unsigned pos, const mt_flit &f, unsigned w) {
  for (unsigned b = 0; b < w; b++) setbit(a, pos + b, (f.w[b / 32] >> (b % 32)) & 1u);
}
static void take_flit(const uint32_t *a, unsigned pos, mt_flit &f, unsigned w) {
  mt_flit_clear(&f);
  for (unsigned b = 0; b < w; b++)
    if (getbit(a, pos + b)) f.w[b / 32] |= 1u << (b % 32);
}

// ---------------- traffic ----------------
struct Pkt {
  bool on = false;
  bool ar = false;
  unsigned nf = 0, sent = 0;
  uint32_t uid = 0;
  mt_head_info h{};
};
struct Mon { // per (output port, vc)
  bool in = false, ar = false;
  uint32_t uid = 0, seq = 0;
  unsigned occ = 0, pend = 0; // downstream buffer occupancy, credits not yet returned
};

static std::string flit_str(const mt_flit &f, unsigned fw) {
  std::string s;
  char b[16];
  for (int i = (int)((fw + 31) / 32) - 1; i >= 0; i--) {
    snprintf(b, sizeof b, "%08x", f.w[i]);
    s += b;
    if (i) s += "_";
  }
  return s;
}

struct Stats {
  uint64_t cycles = 0, mism = 0, mon_err = 0, started = 0, delivered = 0, flits = 0;
  uint64_t link_flits = 0, link_heads = 0, link_first = 0, link_last = 0;
  uint64_t share_ar = 0, share_n = 0;
  uint64_t rt_err = 0; // input VCs with the RTL's no-route flag up (sticky) in the last cycle
};

int main(int argc, char **argv) {
  uint32_t seed = 1;
  uint64_t cycles = 100000;
  unsigned perturb = 0, linklat = 150;
  bool cbench = false, perturb_table = false;
  std::string mode = "random", topo;
  int sw = -1;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto nxt = [&]() { return i + 1 < argc ? argv[++i] : (char *)"0"; };
    if (a == "--seed") seed = (uint32_t)strtoul(nxt(), nullptr, 0);
    else if (a == "--cycles") cycles = strtoull(nxt(), nullptr, 0);
    else if (a == "--perturb") perturb = (unsigned)strtoul(nxt(), nullptr, 0);
    else if (a == "--mode") mode = nxt();
    else if (a == "--linklat") linklat = (unsigned)strtoul(nxt(), nullptr, 0);
    else if (a == "--cbench") cbench = true;
    else if (a == "--topo") topo = nxt();
    else if (a == "--switch") sw = atoi(nxt());
    else if (a == "--perturb-table") perturb_table = true;
    else if (a[0] == '+') continue; // verilator plusargs
    else {
      fprintf(stderr, "unknown argument %s\n", a.c_str());
      return 2;
    }
  }
  if (!seed) seed = 1;
  const bool random_mode = mode == "random";
  if ((!topo.empty() || sw >= 0 || perturb_table) && !CFG_TABLE) {
    fprintf(stderr, "--topo, --switch and --perturb-table need a switch shape (table = 1); %s is a torus/mesh router\n", CFG_NAME);
    return 2;
  }
  if (topo.empty() != (sw < 0)) {
    fprintf(stderr, "--topo T and --switch S go together\n");
    return 2;
  }
  std::string rname = std::string("cosim_router_") + CFG_NAME + "_" + mode + (topo.empty() ? "" : "_" + topo + "_s" + std::to_string(sw)) +
    (perturb || perturb_table ? "_perturbed" : "");
  for (auto &c : rname)
    if (c == ':' || c == ',') c = '-';

  mt_router_params prm;
  mt_router_default_params(&prm);
  prm.dims = CFG_DIMS;
  prm.k[0] = CFG_K0;
  prm.k[1] = CFG_K1;
  prm.k[2] = CFG_K2;
  prm.torus = CFG_TORUS;
  prm.nlocal = CFG_LOCAL_PORTS;
  prm.payload_w = CFG_PAYLOAD_W;
  prm.num_vcs = CFG_NUM_VCS;
  prm.vc_depth = CFG_VC_DEPTH;
  prm.ej_depth = CFG_EJ_DEPTH;
  prm.subpkt_flits = CFG_SUBPKT_FLITS;
  prm.step_prio = CFG_STEP_PRIO;
  prm.pipe = CFG_RT_PIPE;
  prm.wd_w = CFG_WD_W;
  prm.perturb = perturb;
  prm.table = CFG_TABLE;
  prm.nnet = CFG_NET_PORTS;
  prm.hop_classes = CFG_HOP_CLASSES;
  mt_err err;
  mt_router cr;
  if (mt_router_init(&cr, &prm, &err)) {
    fprintf(stderr, "bad params: %s\n", err.msg);
    return 2;
  }
  const unsigned FW = mt_flit_bits(PW, NV), FB = PW / 8;
  const unsigned nodes = CFG_TABLE ? CFG_NODES : CFG_K0 * (CFG_DIMS > 1 ? CFG_K1 : 1) * (CFG_DIMS > 2 ? CFG_K2 : 1);
  Rng rng{seed * 2654435761u ^ 0x9e3779b9u};
  if (!rng.s) rng.s = 1;
  for (int i = 0; i < 8; i++) rng.next();
  // switch: the route table of both models
  std::vector<uint16_t> tab(nodes, 0);
  if (CFG_TABLE && !topo.empty()) {
    mt_topo t;
    mt_switch_net w;
    if (mt_topo_from_name(&t, topo.c_str(), &err) || mt_switch_build(&w, &t, NV, &err)) {
      fprintf(stderr, "--topo %s: %s\n", topo.c_str(), err.msg);
      return 2;
    }
    if (sw >= w.n_sw || w.nnet[sw] != (int)ND || w.nloc[sw] != CFG_LOCAL_PORTS || w.hop_classes != CFG_HOP_CLASSES || w.n_nodes > (int)nodes) {
      fprintf(stderr, "--topo %s --switch %d: %s; this build (%s) is net_ports=%u local_ports=%u hop_classes=%u nodes=%u\n", topo.c_str(), sw,
              sw >= w.n_sw ? "no such switch" : "another shape", CFG_NAME, ND, (unsigned)CFG_LOCAL_PORTS, (unsigned)CFG_HOP_CLASSES, nodes);
      return 2;
    }
    for (int d = 0; d < w.n_nodes; d++) tab[d] = w.tab[(size_t)sw * w.n_nodes + d];
    mt_switch_free(&w);
    mt_topo_free(&t);
  } else if (CFG_TABLE) {
    // random entries: one port in 2 of 3, else a set of 2..NP ports; one in 16 invalid
    for (unsigned d = 0; d < nodes; d++) {
      const unsigned n = rng.chance(2, 3) ? 1 : 2 + rng.below(NP - 1);
      const unsigned base = rng.below(NP - n + 1);
      tab[d] = rng.chance(1, 16) ? 0 : MT_RT_TAB(base, n);
    }
  }
  if (CFG_TABLE && mt_router_load_table(&cr, tab.data(), nodes, &err)) {
    fprintf(stderr, "route table: %s\n", err.msg);
    return 2;
  }
  unsigned pt_dst = 0;
  if (perturb_table) {
    // one valid entry points at the next port of the switch (C model only)
    std::vector<uint16_t> pt(tab);
    for (pt_dst = 0; pt_dst < nodes && !(pt[pt_dst] & MT_RT_TAB_VALID); pt_dst++) {
    }
    if (pt_dst == nodes || NP < 2) {
      fprintf(stderr, "--perturb-table: no valid entry to perturb\n");
      return 2;
    }
    pt[pt_dst] = MT_RT_TAB(((pt[pt_dst] & 15u) + 1u) % NP, 1);
    if (mt_router_load_table(&cr, pt.data(), nodes, &err)) {
      fprintf(stderr, "route table: %s\n", err.msg);
      return 2;
    }
  }
  const unsigned node_id = random_mode ? rng.below(nodes) : 0;
  // Verilator does not mask over-wide input values: keep the limit within WdW bits
  const uint32_t wd_limit = (random_mode ? (rng.chance(1, 2) ? 300u : 5000u) : 0u) & ((1u << CFG_WD_W) - 1u);

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto dut = std::make_unique<Vmt_router>(ctx.get());
  dut->clk_i = 0;
  dut->rst_ni = 0;
  dut->node_id_i = node_id;
  dut->wd_limit_i = wd_limit;
  dut->in_valid_i = 0;
  static uint32_t wbuf[1024], wcred[64];
  memset(wbuf, 0, sizeof wbuf);
  memset(wcred, 0, sizeof wcred);
  set_words(dut->in_flit_i, wbuf);
  set_words(dut->out_credit_i, wcred);
  dut->eval();
  dut->clk_i = 1;
  dut->eval();
  dut->clk_i = 0;
  dut->eval();
  dut->rst_ni = 1;
  dut->eval();
  if (CFG_TABLE) {
    // the RTL's table through its write port, one entry per cycle before the traffic; then
    // an entry beyond Nodes, which the RTL must ignore (as the C model has none there)
    for (unsigned d = 0; d <= nodes && d < 4096; d++) {
      dut->tab_we_i = 1;
      dut->tab_addr_i = d;
      dut->tab_data_i = d < nodes ? tab[d] : MT_RT_TAB(0, 1);
      dut->clk_i = 1;
      dut->eval();
      dut->clk_i = 0;
      dut->eval();
    }
    dut->tab_we_i = 0;
    dut->eval();
  }

  // upstream state per (input port, vc)
  std::vector<Pkt> pk(NP * NV);
  std::vector<unsigned> upc(NP * NV, CFG_VC_DEPTH);
  std::vector<Mon> mon(NP * NV);
  std::vector<unsigned> inj_rate(NP, 4), drain_rate(NP, 16), cred_rate(NP, 16); // x/16
  // fixed-latency credit delay line (efficiency modes model a link of linklat cycles)
  const unsigned dl = random_mode ? 1 : 2 * linklat;
  std::vector<std::vector<uint8_t>> cdelay(dl, std::vector<uint8_t>(NP * NV, 0));
  uint32_t uid = 1;
  Stats st;
  mt_router_in cin;
  mt_router_out cout_;
  memset(&cin, 0, sizeof cin);
  memset(&cout_, 0, sizeof cout_);
  cin.node_id = node_id;
  cin.wd_limit = wd_limit;
  unsigned eff_pkts_left = mode == "eff-pkt" ? 256 : 0;
  bool eff_ar_left = mode == "eff-ar";
  unsigned share_n_left = mode == "share" ? 3000 : 0;
  bool share_ar_left = mode == "share";
  const uint64_t drain_start = cycles;
  uint64_t drain_limit = cycles + 20000 + (random_mode ? 0 : 4 * linklat + 70000);
  uint64_t ar_max_flits = 0;

  auto start_pkt = [&](unsigned p, unsigned v, bool ar, unsigned len, unsigned dst, unsigned next,
                       unsigned eject) {
    Pkt &k = pk[p * NV + v];
    k.on = true;
    k.ar = ar;
    k.sent = 0;
    k.uid = uid++;
    k.h = mt_head_info{};
    k.h.dst = dst;
    // half of the heads come from source 0 or 1, so that one source does fill NumVcs-1
    // VCs of an ejection port (the source cap, docs/reference/router.md); one draw as before, so the
    // random stream is unchanged
    const unsigned src = rng.below(4096);
    k.h.src = (src & 0x800u) ? (src & 1u) : src;
    k.h.next = next;
    k.h.eject = eject;
    k.h.flow = rng.below(4096);
    k.h.op = ar ? 1 + rng.below(2) : rng.below(3);
    k.h.last = ar ? 1 : rng.below(2);
    k.h.step = rng.below(4);
    k.h.addr = k.uid;
    k.h.len = len;
    k.nf = 1 + mt_payload_flits(len, PW);
    if (ar && k.nf - 1 > ar_max_flits) ar_max_flits = k.nf - 1;
    st.started++;
  };
  auto flit_of = [&](const Pkt &k, unsigned v) {
    mt_flit f;
    mt_flit_clear(&f);
    unsigned i = k.sent, t;
    if (i == 0) {
      mt_hd_pack(&f, &k.h);
      t = k.ar ? MT_FT_AR_HEAD : (k.nf == 1 ? MT_FT_HEADTAIL : MT_FT_HEAD);
      for (unsigned w = 4; w < PW / 32; w++) f.w[w] = rng.next();
    } else {
      f.w[0] = k.uid;
      f.w[1] = i;
      for (unsigned w = 2; w < PW / 32; w++) f.w[w] = rng.next();
      if (k.ar) t = i == k.nf - 1 ? MT_FT_AR_TAIL : (i % CFG_SUBPKT_FLITS == 0 ? MT_FT_AR_SUBTAIL : MT_FT_AR_BODY);
      else t = i == k.nf - 1 ? MT_FT_TAIL : MT_FT_BODY;
    }
    mt_flit_set_type(&f, PW, t);
    mt_flit_set_vc(&f, PW, NV, v);
    return f;
  };
  const unsigned maxnorm = ((CFG_VC_DEPTH < CFG_EJ_DEPTH ? CFG_VC_DEPTH : CFG_EJ_DEPTH) - 1) * FB;

  auto t0 = std::chrono::steady_clock::now();
  uint64_t cyc = 0;
  for (; cyc < drain_limit; cyc++) {
    const bool draining = cyc >= drain_start;
    // ---- phase changes: injection and drain rates ----
    if (random_mode && cyc % 2000 == 0 && !draining) {
      static const unsigned rates[] = {0, 1, 2, 8, 16, 16};
      for (unsigned p = 0; p < NP; p++) {
        inj_rate[p] = 1 + rng.below(16);
        drain_rate[p] = rates[rng.below(6)];
        cred_rate[p] = 2 + rng.below(15);
      }
    }
    if (draining) {
      for (unsigned p = 0; p < NP; p++) {
        drain_rate[p] = 16;
        cred_rate[p] = 16;
      }
    }
    // ---- upstream: start packets ----
    memset(cin.in_valid, 0, sizeof cin.in_valid);
    memset(wbuf, 0, sizeof wbuf);
    for (unsigned p = 0; p < NP; p++) {
      for (unsigned v = 0; v < NV; v++) {
        Pkt &k = pk[p * NV + v];
        if (k.on || (draining && (random_mode || mode == "share"))) continue;
        if (random_mode) {
          if (!rng.chance(1, 8)) continue;
          bool ar = rng.chance(1, 3);
          if (ar) {
            unsigned nfl = rng.chance(1, 10) ? 1 + rng.below(400) : 1 + rng.below(4 * CFG_SUBPKT_FLITS);
            unsigned len = (nfl - 1) * FB + 1 + rng.below(FB);
            unsigned nx, ej = rng.below(CFG_LOCAL_PORTS);
            if (p < ND) nx = rng.chance(1, 20) ? rng.below(16) : rng.below(CFG_LOCAL_PORTS);
            else nx = rng.chance(1, 20) ? rng.below(16) : rng.below(ND);
            if (rng.chance(1, 20)) ej = rng.below(16);
            start_pkt(p, v, true, len, rng.below(nodes), nx, ej);
          } else {
            unsigned len = rng.chance(1, 6) ? 0 : rng.below(maxnorm + 1);
            // beyond the nodes: rarer at a switch, where it raises a sticky flag of the VC
            unsigned dst = rng.chance(1, CFG_TABLE ? 1000 : 30) ? rng.below(4096) : rng.below(nodes);
            unsigned ej = rng.chance(1, 20) ? rng.below(16) : rng.below(CFG_LOCAL_PORTS);
            start_pkt(p, v, false, len, dst, rng.below(16), ej);
          }
        } else if (p == ND && v == 0 && eff_ar_left) {
          eff_ar_left = false;
          start_pkt(p, v, true, 65536, 1, 0, 1);
        } else if (p == ND && v == 0 && eff_pkts_left) {
          eff_pkts_left--;
          start_pkt(p, v, false, 256, 1 % nodes, 0, 1);
        } else if (p == ND && v == 0 && share_ar_left) {
          share_ar_left = false;
          start_pkt(p, v, true, 16 * 12000, 1, 0, 1);
        } else if (p == ND + 1 && v == 1 && share_n_left) {
          share_n_left--;
          start_pkt(p, v, false, 64, 1 % nodes, 0, 2);
        }
        if (pk[p * NV + v].on) pk[p * NV + v].h.step = mode == "random" ? pk[p * NV + v].h.step : 0;
      }
      // ---- upstream: send one flit on this port ----
      if (random_mode && !rng.chance(inj_rate[p], 16)) continue;
      unsigned off = rng.below(NV);
      for (unsigned j = 0; j < NV; j++) {
        unsigned v = (off + j) % NV;
        Pkt &k = pk[p * NV + v];
        if (!k.on || upc[p * NV + v] == 0) continue;
        mt_flit f = flit_of(k, v);
        cin.in_valid[p] = 1;
        cin.in_flit[p] = f;
        put_flit(wbuf, p * FW, f, FW);
        upc[p * NV + v]--;
        if (++k.sent == k.nf) k.on = false;
        break;
      }
    }
    // ---- downstream: credits toward the router ----
    memset(cin.out_credit, 0, sizeof cin.out_credit);
    memset(wcred, 0, sizeof wcred);
    {
      std::vector<uint8_t> &slot = cdelay[cyc % dl];
      for (unsigned o = 0; o < NP; o++)
        for (unsigned v = 0; v < NV; v++) {
          Mon &m = mon[o * NV + v];
          unsigned j = o * NV + v;
          if (slot[j]) {
            cin.out_credit[o][v] = 1;
            setbit(wcred, j, 1);
            slot[j] = 0;
          }
          // drain one flit from the downstream buffer
          if (m.occ > 0 && rng.chance(drain_rate[o], 16)) {
            m.occ--;
            m.pend++;
          }
          // return one pending credit (into the delay line)
          if (m.pend > 0 && rng.chance(cred_rate[o], 16)) {
            unsigned at = (unsigned)((cyc + dl - 1) % dl);
            if (dl == 1) at = (unsigned)(cyc % dl);
            if (!cdelay[at][j]) {
              m.pend--;
              if (dl == 1) {
                cin.out_credit[o][v] = 1;
                setbit(wcred, j, 1);
              } else cdelay[at][j] = 1;
            }
          }
        }
    }
    // ---- one edge in both worlds ----
    set_words(dut->in_flit_i, wbuf);
    {
      uint32_t vw[2] = {0, 0};
      for (unsigned p = 0; p < NP; p++)
        if (cin.in_valid[p]) vw[0] |= 1u << p;
      set_words(dut->in_valid_i, vw);
    }
    set_words(dut->out_credit_i, wcred);
    if (!cbench) {
      dut->clk_i = 1;
      dut->eval();
      dut->clk_i = 0;
      dut->eval();
    }
    mt_router_step(&cr, &cin, &cout_);
    st.cycles++;
    // ---- compare ----
    static uint32_t rf[1024], rv[2], rc[64], rw[64], ro[64], rt[64];
    const mt_router_out *ref = &cout_;
    mt_router_out rtl;
    if (!cbench) {
      get_words(dut->out_flit_o, rf);
      get_words(dut->out_valid_o, rv);
      get_words(dut->in_credit_o, rc);
      get_words(dut->wd_err_o, rw);
      get_words(dut->ovf_err_o, ro);
      get_words(dut->rt_err_o, rt);
      memset(&rtl, 0, sizeof rtl);
      st.rt_err = 0;
      bool bad = false;
      for (unsigned o = 0; o < NP; o++) {
        rtl.out_valid[o] = (uint8_t)getbit(rv, o);
        take_flit(rf, o * FW, rtl.out_flit[o], FW);
        bool fb = rtl.out_valid[o] != ref->out_valid[o] || !mt_flit_eq(&rtl.out_flit[o], &ref->out_flit[o]);
        if (fb) {
          bad = true;
          if (st.mism < 10)
            printf("MISMATCH cycle %llu out port %u: valid rtl %u c %u, vc rtl %u c %u\n  rtl %s\n  c   %s\n",
                   (unsigned long long)cyc, o, rtl.out_valid[o], ref->out_valid[o],
                   mt_flit_vc(&rtl.out_flit[o], PW, NV), mt_flit_vc(&ref->out_flit[o], PW, NV),
                   flit_str(rtl.out_flit[o], FW).c_str(), flit_str(ref->out_flit[o], FW).c_str());
        }
        for (unsigned v = 0; v < NV; v++) {
          unsigned j = o * NV + v;
          rtl.in_credit[o][v] = (uint8_t)getbit(rc, j);
          rtl.wd_err[o][v] = (uint8_t)getbit(rw, j);
          rtl.ovf_err[o][v] = (uint8_t)getbit(ro, j);
          rtl.rt_err[o][v] = (uint8_t)getbit(rt, j);
          if (rtl.rt_err[o][v]) st.rt_err++;
          if (rtl.in_credit[o][v] != ref->in_credit[o][v] || rtl.wd_err[o][v] != ref->wd_err[o][v] ||
              rtl.ovf_err[o][v] != ref->ovf_err[o][v] || rtl.rt_err[o][v] != ref->rt_err[o][v]) {
            bad = true;
            if (st.mism < 10)
              printf("MISMATCH cycle %llu in port %u vc %u: credit rtl %u c %u, wd_err rtl %u c %u, ovf rtl %u c %u, rt_err rtl %u c %u\n",
                     (unsigned long long)cyc, o, v, rtl.in_credit[o][v], ref->in_credit[o][v], rtl.wd_err[o][v], ref->wd_err[o][v],
                     rtl.ovf_err[o][v], ref->ovf_err[o][v], rtl.rt_err[o][v], ref->rt_err[o][v]);
          }
        }
      }
      if (bad) st.mism++;
    }
    const mt_router_out *drv = cbench ? ref : &rtl; // the RTL drives the environment
    // ---- upstream credit counters ----
    for (unsigned p = 0; p < NP; p++)
      for (unsigned v = 0; v < NV; v++)
        if (drv->in_credit[p][v]) {
          if (++upc[p * NV + v] > CFG_VC_DEPTH) {
            st.mon_err++;
            if (st.mon_err < 10) printf("ERROR cycle %llu: credit overflow upstream of port %u vc %u\n",
                                        (unsigned long long)cyc, p, v);
          }
        }
    // ---- downstream receivers and monitors ----
    for (unsigned o = 0; o < NP; o++) {
      if (!drv->out_valid[o]) continue;
      const mt_flit &f = drv->out_flit[o];
      unsigned t = mt_flit_type(&f, PW), v = mt_flit_vc(&f, PW, NV);
      st.flits++;
      if (o == 0) {
        if (!st.link_flits) st.link_first = cyc;
        st.link_last = cyc;
        st.link_flits++;
        if (mt_ft_is_head(t)) st.link_heads++;
        if (cyc >= 2000 && cyc < 10000) {
          if (mt_ft_is_normal(t)) st.share_n++;
          else st.share_ar++;
        }
      }
      if (v >= NV) {
        st.mon_err++;
        continue;
      }
      Mon &m = mon[o * NV + v];
      const char *err = nullptr;
      unsigned depth = o < ND ? CFG_VC_DEPTH : CFG_EJ_DEPTH;
      if (++m.occ + m.pend > depth) err = "sent without a credit (downstream overflow)";
      if (mt_ft_is_head(t)) {
        if (m.in) err = "head inside a packet";
        m.in = t != MT_FT_HEADTAIL;
        m.ar = !mt_ft_is_normal(t);
        m.uid = mt_hd_addr(&f);
        m.seq = 1;
        if (t == MT_FT_HEADTAIL) st.delivered++;
      } else {
        if (!m.in) err = "body/tail outside a packet";
        else if (m.ar == (bool)mt_ft_is_normal(t)) err = "flit kind changes inside a packet";
        else if (f.w[0] != m.uid || f.w[1] != m.seq) err = "payload tag/sequence wrong";
        m.seq++;
        if (mt_ft_is_tail(t)) {
          m.in = false;
          st.delivered++;
        }
      }
      if (err) {
        st.mon_err++;
        if (st.mon_err < 10) printf("MONITOR cycle %llu port %u vc %u type %u: %s\n", (unsigned long long)cyc, o, v, t, err);
      }
    }
    // ---- end of drain: all started packets delivered and all credits home ----
    if (draining) {
      bool idle = true;
      for (unsigned j = 0; j < NP * NV && idle; j++)
        if (pk[j].on || mon[j].occ || mon[j].pend || mon[j].in || upc[j] != CFG_VC_DEPTH) idle = false;
      for (unsigned j = 0; j < dl && idle; j++)
        for (unsigned x = 0; x < NP * NV; x++)
          if (cdelay[j][x]) idle = false;
      if (idle && st.delivered == st.started) {
        cyc++;
        break;
      }
    }
  }
  auto t1 = std::chrono::steady_clock::now();
  double secs = std::chrono::duration<double>(t1 - t0).count();
  dut->final();

  unsigned pass = 0, fail = 0;
  auto check = [&](bool ok, const char *what) {
    if (ok) pass++;
    else {
      fail++;
      printf("FAIL %s: %s\n", rname.c_str(), what);
    }
  };
  printf("%s: seed %u node %u cycles %llu mismatching-cycles %llu monitor-errors %llu packets %llu/%llu flits %llu "
         "max-msg %llu flits, %.2f s, %.0f cycles/s%s\n",
         rname.c_str(), seed, node_id, (unsigned long long)st.cycles, (unsigned long long)st.mism,
         (unsigned long long)st.mon_err, (unsigned long long)st.delivered, (unsigned long long)st.started,
         (unsigned long long)st.flits, (unsigned long long)ar_max_flits, secs, st.cycles / secs,
         cbench ? " (C model only)" : "");
  if (CFG_TABLE)
    printf("%s: switch table of %u entries%s, %llu input VCs raised the no-route flag%s\n", rname.c_str(), nodes,
           topo.empty() ? " (random)" : "", (unsigned long long)st.rt_err,
           perturb_table ? (" (C model's entry " + std::to_string(pt_dst) + " perturbed)").c_str() : "");
  if (cbench) {
    printf("CBENCH %s: %.0f cycles/s, %.0f flits/s\n", CFG_NAME, st.cycles / secs, st.flits / secs);
  }
  if (perturb || perturb_table) {
    // the perturbed C model must be caught
    check(st.mism > 0, "perturbed C model not detected");
    printf("RESULT %s pass=%u fail=%u\n", rname.c_str(), pass, fail);
    mt_router_free(&cr);
    return 0;
  }
  if (!cbench) check(st.mism == 0, "RTL and C model differ");
  check(st.mon_err == 0, "monitor errors");
  check(st.delivered == st.started && st.started > 0, "not every packet delivered after the drain");
  if (mode == "eff-ar" || mode == "eff-pkt") {
    double eff = (double)(st.link_flits - st.link_heads) / (double)st.link_flits;
    double rate = (double)st.link_flits / (double)(st.link_last - st.link_first + 1);
    printf("EFFICIENCY %s %s: link +X %llu flits, %llu heads, payload share %.5f, %.4f flits/cycle "
           "(link latency %u: credit delay %u cycles)\n",
           CFG_NAME, mode.c_str(), (unsigned long long)st.link_flits, (unsigned long long)st.link_heads, eff,
           rate, linklat, dl);
    if (mode == "eff-ar") check(eff >= 0.99 && rate >= 0.99, "all-reduce efficiency below 99%");
    else check(eff > 0.9411 && eff < 0.9412 && rate >= 0.99, "256-B packet efficiency not 16/17 at full rate");
  }
  if (mode == "share") {
    printf("SHARE %s: cycles 2000..10000 on link +X: all-reduce %llu flits, normal %llu flits\n", CFG_NAME,
           (unsigned long long)st.share_ar, (unsigned long long)st.share_n);
    // round-robin per allocation unit: SubPktFlits-flit sub-packets vs 5-flit packets
    double exp_n = 5.0 / (5.0 + CFG_SUBPKT_FLITS);
    double got_n = (double)st.share_n / (double)(st.share_n + st.share_ar);
    check(st.share_ar + st.share_n >= 7900 && got_n > exp_n - 0.01 && got_n < exp_n + 0.01,
          "normal packets and the all-reduce message do not share the link as expected");
  }
  printf("RESULT %s pass=%u fail=%u\n", rname.c_str(), pass, fail);
  mt_router_free(&cr);
  return 0;
}
