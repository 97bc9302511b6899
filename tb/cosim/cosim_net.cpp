// SPDX-License-Identifier: Apache-2.0
// cosim_net.cpp: Verilator co-simulation of the RTL network rtl/mt_net_top.sv (NX x NY
// nodes of rtl/mt_node.sv: router + NI, mt_link delay lines) against the C network model
// cmodel/mt_net.c, cycle by cycle, running the same all-reduce.
//  * The C model is built with the RTL's NI shape (ni_rx_engines=1, ni_mem_ports=1) from the
//    "small" configuration (short links, small buffers).
//  * The RTL NIs' memory ports are served by mt_mem instances created exactly as mt_net_new
//    creates its own (same size, lanes, ready/latency and seeds 0x51ED + 7919*i) and loaded
//    with the same inputs, and called in the same order (comb before the edge, edge with
//    the NI's request registered before it), so the memory timing is identical.
//  * Tables: the RTL tables are written through the NIs' table write ports (every node in
//    parallel, all Depth words, END word and zero padding included, encoded with the C
//    model's own layout mt_net_layout); then the RTL is reset again (the table RAM has no
//    reset), so both models start from reset with the same table; the C model loads the
//    same image by its back door (mt_ni_table_load in mt_net_new).
//  * Every cycle: every directed link's flit/valid/credit bits as presented to its receiver
//    (mt_net_link_slot vs the RTL's link taps), every local router <-> NI interface (both
//    directions, flits and credits), every router's wd/ovf flags, every NI's status (busy,
//    done, err, err_code, err_idx, idx, step, st) and memory request. The first mismatch stops
//    the run with the cycle, node, port, VC and both values. At the end every node's buffer is
//    compared between the models and against mt_ref_result.
// The RTL parameters are fixed per build (-G, printed by this file built with
// -DCOSIM_NET_PARAMS_ONLY: `cosim_net_params BUILD` prints the verilator flags).
// Usage: cosim_net --case NAME [--fst FILE] [--perturb-router K | --perturb-ni K]
// Prints "RESULT cosim_net_<case> pass=N fail=M" (scripts/runbench.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>
extern "C" {
#include "mt_fp32.h"
#include "mt_layout.h"
#include "mt_mem.h"
#include "mt_net.h"
#include "mt_ref.h"
#include "mt_rom.h"
#include "mt_sched.h"
#include "mt_topo.h"
}

struct Case { const char *name, *build, *topo, *algo; uint64_t bytes; int dtype, pkt; uint32_t seed; };
// builds share topology and schedule (the table layout is a build parameter)
static const Case kCases[] = {
  {"m2x2_mt_msg_i32", "m2x2_mt", "mesh:2x2", "multitree", 2048, MT_DTYPE_INT32, 0, 11},
  {"m2x2_mt_pkt_f32", "m2x2_mt", "mesh:2x2", "multitree", 2048, MT_DTYPE_FP32, 1, 12},
  {"t4x4_mt_msg_f32", "t4x4_mt", "torus:4x4", "multitree", 4096, MT_DTYPE_FP32, 0, 13},
  {"m4x4_ring_pkt_i32", "m4x4_ring", "mesh:4x4", "ring", 4096, MT_DTYPE_INT32, 1, 14},
  // ring2d on a mesh: each ring's closing hop is routed back along the row/column (multi-hop packets)
  {"m4x4_ring2d_pkt_i32", "m4x4_ring2d", "mesh:4x4", "ring2d", 4096, MT_DTYPE_INT32, 1, 16},
  {"m3x5_dbt_msg_i32", "m3x5_dbt", "mesh:3x5", "dbtree", 3840, MT_DTYPE_INT32, 0, 15},
};

struct Planned { mt_topo t; mt_sched s; mt_tables tb; bool ok = false; };
static bool plan(Planned &p, const Case &c, mt_err *e) {
  memset(&p.t, 0, sizeof p.t); memset(&p.s, 0, sizeof p.s); memset(&p.tb, 0, sizeof p.tb);
  if (mt_topo_from_name(&p.t, c.topo, e) || mt_plan(&p.s, &p.t, c.algo, c.bytes, 4, e) || mt_sched_tables(&p.s, 0, &p.tb, e))
    return false;
  p.ok = true;
  return true;
}
static void unplan(Planned &p) { if (p.ok) { mt_tables_free(&p.tb); mt_sched_free(&p.s); mt_topo_free(&p.t); } }

static int net_cfg(mt_net_cfg *cfg, mt_err *e) {
  mt_net_cfg_small(cfg);
  if (mt_net_cfg_set(cfg, "ni_rx_engines=1", e) || mt_net_cfg_set(cfg, "ni_mem_ports=1", e)) return -1;
  return 0;
}

static const Case *find_case(const char *name) {
  for (const Case &c : kCases) if (!strcmp(c.name, name) || !strcmp(c.build, name)) return &c;
  return nullptr;
}

#ifdef COSIM_NET_PARAMS_ONLY
// cosim_net_params BUILD: the verilator -G flags and harness -D flags of one build
int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: cosim_net_params BUILD\n"); return 2; }
  const Case *c = find_case(argv[1]);
  if (!c) { fprintf(stderr, "unknown build %s\n", argv[1]); return 2; }
  mt_err e; Planned p; mt_net_cfg cfg; mt_layout ly;
  if (net_cfg(&cfg, &e) || !plan(p, *c, &e) || mt_layout_for(&p.s, &p.tb, 0, &ly, &e)) { fprintf(stderr, "%s\n", e.msg); return 1; }
  const mt_topo *t = &p.t;
  printf("-GNX=%d -GNY=%d -GTorus=%d -GL=%u -GLinkLat=%u -GPayloadW=%u -GNumVcs=%u -GVcDepth=%u -GEjDepth=%u "
         "-GSubPktFlits=%u -GPktBytes=%u -GStepPrio=%u -GRtWdW=31 -GDepth=%d -GCompact=0 -GFlowW=%d -GStepW=%d -GIdW=%d "
         "-GPortW=%d -GEjW=%d -GAddrW=%d -GSizeW=%d -GChildren=%d -GMaxFlows=%d -GSQ=%u -GRQ=%u -GNiWdW=32 "
         "-CFLAGS -DCFG_NX=%d -CFLAGS -DCFG_NY=%d -CFLAGS -DCFG_TORUS=%d -CFLAGS -DCFG_DEPTH=%d -CFLAGS -DCFG_ENTRYW=%d\n",
         t->dim[0], t->dim[1], t->kind == MT_TOPO_TORUS, cfg.local_ports ? cfg.local_ports : 4u, cfg.link_lat, cfg.payload_w,
         cfg.num_vcs, cfg.vc_depth, cfg.ej_depth, cfg.subpkt_flits, cfg.pkt_bytes, cfg.step_prio, mt_rom_depth(&p.tb),
         ly.flow_w, ly.step_w, ly.id_w, ly.port_w, ly.ej_w, ly.addr_w, ly.size_w, ly.children, p.s.n_flows, cfg.ni_sq, cfg.ni_rq,
         t->dim[0], t->dim[1], t->kind == MT_TOPO_TORUS, mt_rom_depth(&p.tb), ly.width);
  unplan(p);
  return 0;
}
#else
#include "Vmt_net_top.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

double sc_time_stamp() { return 0; }

// ---- bit access over any Verilator port type ----
static uint32_t getb(uint64_t x, unsigned off, unsigned n) { return (uint32_t)((x >> off) & (n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1))); }
static uint32_t getb(const uint32_t *w, unsigned off, unsigned n) {
  uint32_t v = 0;
  for (unsigned i = 0; i < n; i++) v |= ((w[(off + i) / 32] >> ((off + i) % 32)) & 1u) << i;
  return v;
}
template <std::size_t W> static uint32_t getb(const VlWide<W> &x, unsigned off, unsigned n) { return getb(&x[0], off, n); }
template <typename T> static void setb(T &x, unsigned off, unsigned n, uint32_t v) {
  uint64_t m = (n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1)) << off;
  x = (T)(((uint64_t)x & ~m) | (((uint64_t)v << off) & m));
}
static void setb(uint32_t *w, unsigned off, unsigned n, uint32_t v) {
  for (unsigned i = 0; i < n; i++) {
    uint32_t b = (v >> i) & 1u;
    w[(off + i) / 32] = (w[(off + i) / 32] & ~(1u << ((off + i) % 32))) | (b << ((off + i) % 32));
  }
}
template <std::size_t W> static void setb(VlWide<W> &x, unsigned off, unsigned n, uint32_t v) { setb(&x[0], off, n, v); }

struct Cosim {
  const Case &c;
  mt_net *n = nullptr;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vmt_net_top> d;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tr;
#endif
  std::vector<mt_mem> mem;
  int N = 0, L = 4, NV = 0, ND = 4, NP = 8;
  unsigned PW = 0, FW = 0, lanes = 0;
  uint64_t cycles = 0, checks = 0, link_flits = 0, transit_heads = 0;
  bool mism = false;
  explicit Cosim(const Case &cc) : c(cc) {}

  void tick_half(int clk) {
    d->clk_i = (uint8_t)clk; d->eval();
#if VM_TRACE
    if (tr) tr->dump(ctx->time());
#endif
    ctx->timeInc(1);
  }
  void fail(const char *what, int node, int port, int vc, uint64_t rtl, uint64_t cm) {
    if (mism) return;
    mism = true;
    printf("MISMATCH cycle %llu node %d port %d vc %d: %s rtl 0x%llx c 0x%llx\n", (unsigned long long)mt_net_cycle(n) - 1, node, port,
           vc, what, (unsigned long long)rtl, (unsigned long long)cm);
  }
  template <typename T> void cmp_flit(const char *what, const T &v, unsigned base, const mt_flit &f, int node, int port) {
    for (unsigned b = 0; b < FW; b += 32) {
      unsigned k = FW - b < 32 ? FW - b : 32;
      uint32_t r = getb(v, base + b, k), m = getb(f.w, b, k);
      checks++;
      if (r != m) { char s[96]; snprintf(s, sizeof s, "%s bits [%u +: %u]", what, b, k); fail(s, node, port, -1, r, m); }
    }
  }
  void cmp(const char *what, uint64_t r, uint64_t m, int node, int port, int vc) { checks++; if (r != m) fail(what, node, port, vc, r, m); }

  // before the edge: the links (what every router input sees during this cycle)
  void compare_links() {
    for (int k = 0; k < mt_net_num_links(n); k++) {
      int s, sp, dn, dp;
      mt_net_link_ends(n, k, &s, &sp, &dn, &dp);
      const mt_link_slot *ls = mt_net_link_slot(n, k);
      const unsigned q = (unsigned)(dn * ND + dp);
      if (ls->valid) {
        link_flits++;
        // a normal packet's head arriving at a node that is not its destination: a multi-hop route
        const unsigned ft = mt_flit_type(&ls->flit, PW);
        if ((ft == MT_FT_HEAD || ft == MT_FT_HEADTAIL) && (int)(ls->flit.w[0] & 0xFFFu) != dn) transit_heads++;
      }
      cmp("link valid", getb(d->lnk_valid_o, q, 1), ls->valid, dn, dp, -1);
      cmp_flit("link flit", d->lnk_flit_o, q * FW, ls->flit, dn, dp);
      for (int v = 0; v < NV; v++) cmp("link credit", getb(d->lnk_credit_o, q * NV + v, 1), (ls->credits >> v) & 1u, dn, dp, v);
    }
    // unconnected router inputs must stay 0
    for (int i = 0; i < N; i++)
      for (int p = 0; p < ND; p++) {
        bool conn = false;
        for (int k = 0; k < mt_net_num_links(n) && !conn; k++) { int s, sp, dn, dp; mt_net_link_ends(n, k, &s, &sp, &dn, &dp); conn = dn == i && dp == p; }
        if (!conn) cmp("unconnected input valid", getb(d->lnk_valid_o, i * ND + p, 1), 0, i, p, -1);
      }
  }
  // after the edge: every registered output the harness can see
  void compare_outputs() {
    for (int i = 0; i < N; i++) {
      const mt_router_out *ro = mt_net_router_out(n, i);
      const mt_ni_out *no = mt_net_ni_out(n, i);
      for (int l = 0; l < L; l++) {
        const unsigned q = (unsigned)(i * L + l), rp = (unsigned)(ND + l);
        cmp("inj valid (NI -> router)", getb(d->inj_valid_o, q, 1), no->inj_valid[l], i, (int)rp, -1);
        cmp_flit("inj flit (NI -> router)", d->inj_flit_o, q * FW, no->inj_flit[l], i, (int)rp);
        cmp("ej valid (router -> NI)", getb(d->ej_valid_o, q, 1), ro->out_valid[rp], i, (int)rp, -1);
        cmp_flit("ej flit (router -> NI)", d->ej_flit_o, q * FW, ro->out_flit[rp], i, (int)rp);
        for (int v = 0; v < NV; v++) {
          cmp("inj credit (router -> NI)", getb(d->inj_credit_o, q * NV + v, 1), ro->in_credit[rp][v], i, (int)rp, v);
          cmp("ej credit (NI -> router)", getb(d->ej_credit_o, q * NV + v, 1), no->ej_credit[l][v], i, (int)rp, v);
        }
      }
      for (int p = 0; p < NP; p++)
        for (int v = 0; v < NV; v++) {
          cmp("router wd_err", getb(d->rt_wd_err_o, (i * NP + p) * NV + v, 1), ro->wd_err[p][v], i, p, v);
          cmp("router ovf_err", getb(d->rt_ovf_err_o, (i * NP + p) * NV + v, 1), ro->ovf_err[p][v], i, p, v);
        }
      cmp("NI busy", getb(d->busy_o, i, 1), no->busy, i, -1, -1);
      cmp("NI done", getb(d->done_o, i, 1), no->done, i, -1, -1);
      cmp("NI err", getb(d->err_o, i, 1), no->err, i, -1, -1);
      cmp("NI err_code", getb(d->err_code_o, 4 * i, 4), no->err_code, i, -1, -1);
      cmp("NI err_idx", getb(d->err_idx_o, 16 * i, 16), no->err_idx & 0xFFFF, i, -1, -1);
      cmp("NI idx", getb(d->idx_o, 16 * i, 16), no->idx & 0xFFFF, i, -1, -1);
      cmp("NI step", getb(d->step_o, 16 * i, 16), no->step, i, -1, -1);
      cmp("NI st", getb(d->st_o, 3 * i, 3), no->st, i, -1, -1);
      cmp("NI mem_req_valid", getb(d->mem_req_valid_o, i, 1), no->mem_req_valid[0], i, -1, -1);
      if (no->mem_req_valid[0]) {
        cmp("NI mem_req_we", getb(d->mem_req_we_o, i, 1), no->mem_req_we[0], i, -1, -1);
        cmp("NI mem_req_addr", getb(d->mem_req_addr_o, 32 * i, 32), no->mem_req_addr[0], i, -1, -1);
        cmp("NI mem_req_be", getb(d->mem_req_be_o, lanes * i, lanes), no->mem_req_be[0], i, -1, -1);
        for (unsigned k = 0; k < lanes; k++)
          cmp("NI mem_req_wdata", getb(d->mem_req_wdata_o, PW * i + 32 * k, 32), no->mem_req_wdata[0][k], i, -1, (int)k);
      }
    }
  }
};

int main(int argc, char **argv) {
  const char *cname = nullptr, *fst = nullptr;
  unsigned prt = 0, pni = 0;
  uint64_t max_cycles = 2000000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--case") && i + 1 < argc) cname = argv[++i];
    else if (!strcmp(argv[i], "--fst") && i + 1 < argc) fst = argv[++i];
    else if (!strcmp(argv[i], "--perturb-router") && i + 1 < argc) prt = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--perturb-ni") && i + 1 < argc) pni = (unsigned)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) max_cycles = strtoull(argv[++i], nullptr, 0);
    else { fprintf(stderr, "usage: cosim_net --case NAME [--fst FILE] [--perturb-router K | --perturb-ni K] [--max-cycles N]\n"); return 2; }
  }
  const Case *cp = cname ? find_case(cname) : nullptr;
  if (!cp) { fprintf(stderr, "cosim_net: --case NAME required (one of this build's cases)\n"); return 2; }
  const bool perturbed = prt || pni;
  char rname[96];
  snprintf(rname, sizeof rname, "cosim_net_%s%s", cp->name, prt ? "_perturb_router" : pni ? "_perturb_ni" : "");
  unsigned long pass = 0, fail = 0;
  mt_err e;
  Planned p;
  mt_net_cfg cfg;
  if (net_cfg(&cfg, &e) || !plan(p, *cp, &e)) { printf("%s: %s\nRESULT %s pass=0 fail=1\n", cp->name, e.msg, rname); return 0; }
  Cosim cs(*cp);
  cs.n = mt_net_new(&cfg, &p.s, &p.tb, cp->dtype, cp->pkt, &e);
  if (!cs.n || mt_net_start(cs.n, cp->seed, &e)) { printf("%s: %s\nRESULT %s pass=0 fail=1\n", cp->name, e.msg, rname); return 0; }
  if (p.t.dim[0] != CFG_NX || p.t.dim[1] != CFG_NY || (p.t.kind == MT_TOPO_TORUS) != CFG_TORUS ||
      mt_rom_depth(&p.tb) != CFG_DEPTH || mt_net_layout(cs.n)->width != CFG_ENTRYW || mt_net_mem_ports(cs.n) != 1) {
    printf("%s: this build (NX=%d NY=%d Torus=%d Depth=%d EntryW=%d) does not fit the case (%s %s, depth %d, %d-bit entries)\n",
           cp->name, CFG_NX, CFG_NY, CFG_TORUS, CFG_DEPTH, CFG_ENTRYW, cp->topo, cp->algo, mt_rom_depth(&p.tb), mt_net_layout(cs.n)->width);
    printf("RESULT %s pass=0 fail=1\n", rname);
    return 0;
  }
  if (perturbed) mt_net_set_perturb(cs.n, prt, pni);
  mt_net *n = cs.n;
  const int N = mt_net_nodes(n);
  cs.N = N; cs.NV = (int)cfg.num_vcs; cs.L = cfg.local_ports ? (int)cfg.local_ports : 4; cs.ND = 4; cs.NP = cs.ND + cs.L;
  cs.PW = cfg.payload_w; cs.FW = mt_flit_bits(cfg.payload_w, cfg.num_vcs); cs.lanes = cfg.payload_w / 32;
  const uint64_t nw = p.s.bytes / 4;
  // the RTL's memories: exactly as mt_net_new / mt_net_start make the C model's
  cs.mem.resize((size_t)N);
  for (int i = 0; i < N; i++) {
    if (mt_mem_init_mp(&cs.mem[i], nw, cfg.payload_w / 32, mt_net_mem_ports(n), cfg.mem_p_ready, cfg.mem_lat_max, 0x51ED + (uint32_t)i * 7919u)) {
      printf("memory init failed\nRESULT %s pass=0 fail=1\n", rname); return 0;
    }
    memcpy(cs.mem[i].w, mt_net_input(n, i), nw * 4);
  }
  cs.ctx.reset(new VerilatedContext);
#if VM_TRACE
  if (fst) cs.ctx->traceEverOn(true);
#else
  if (fst) { printf("--fst needs a build with --trace-fst (make cosim-net NET_FST=1)\nRESULT %s pass=0 fail=1\n", rname); return 0; }
#endif
  cs.d.reset(new Vmt_net_top(cs.ctx.get()));
  Vmt_net_top *d = cs.d.get();
#if VM_TRACE
  if (fst) { cs.tr.reset(new VerilatedFstC); d->trace(cs.tr.get(), 99); cs.tr->open(fst); }
#endif
  // static configuration (the C model's per-node NI configuration and router watchdog)
  const uint32_t rwd = mt_net_router_wd_limit(n);
  for (int i = 0; i < N; i++) {
    const mt_ni_in *cf = mt_net_ni_cfg(n, i);
    setb(d->rt_wd_limit_i, 31 * i, 31, rwd);
    setb(d->dtype_i, i, 1, cf->dtype); setb(d->pkt_mode_i, i, 1, cf->pkt_mode);
    setb(d->nflows_i, 12 * i, 12, cf->nflows);
    setb(d->base_units_i, 32 * i, 32, cf->base_units); setb(d->rem_units_i, 32 * i, 32, cf->rem_units);
    setb(d->elem_i, 32 * i, 32, cf->elem); setb(d->nop_bytes_i, 32 * i, 32, cf->nop_bytes);
    setb(d->ni_wd_limit_i, 32 * i, 32, cf->wd_limit);
    for (int k = 0; k < 16; k++) { setb(d->nbr_tx_i, 192 * i + 12 * k, 12, cf->nbr_tx[k]); setb(d->nbr_rx_i, 192 * i + 12 * k, 12, cf->nbr_rx[k]); }
    if (cf->node_id != i) { printf("node id %d != %d\n", cf->node_id, i); fail++; }
  }
  d->start_i = 0; d->tbl_we_i = 0; d->mem_req_ready_i = 0; d->mem_rsp_valid_i = 0;
  // reset, load the tables through the write ports, reset again
  auto reset = [&]() { d->rst_ni = 0; cs.tick_half(0); cs.tick_half(1); cs.tick_half(0); d->rst_ni = 1; cs.tick_half(0); };
  reset();
  const mt_layout *ly = mt_net_layout(n);
  const int depth = mt_rom_depth(&p.tb), TIW = depth > 1 ? (int)mt_clog2((unsigned)depth) : 1;
  uint64_t word[MT_LAYOUT_MAX_WORDS];
  for (int k = 0; k < depth; k++) {
    for (int i = 0; i < N; i++) {
      const mt_entry *en = mt_node_entries(&p.tb, i);
      if (k <= p.tb.count[i]) mt_layout_encode(ly, k < p.tb.count[i] ? &en[k] : nullptr, word);
      else memset(word, 0, sizeof word);
      setb(d->tbl_we_i, i, 1, 1);
      setb(d->tbl_waddr_i, TIW * i, TIW, (uint32_t)k);
      for (int b = 0; b < ly->width; b += 32) {
        int m = ly->width - b < 32 ? ly->width - b : 32;
        setb(d->tbl_wdata_i, CFG_ENTRYW * i + b, m, (uint32_t)(word[b / 64] >> (b % 64)));
      }
    }
    cs.tick_half(0); cs.tick_half(1); cs.tick_half(0);
  }
  d->tbl_we_i = 0;
  reset();
  // lockstep
  bool all_done = false, any_err = false;
  uint32_t rsp[MT_MEM_MAX_LANES];
  std::vector<uint8_t> rv((size_t)N), rwe((size_t)N);
  std::vector<uint32_t> raddr((size_t)N), rbe((size_t)N), rwdata((size_t)N * 16);
  while (!cs.mism && cs.cycles < max_cycles) {
    const bool start = mt_net_cycle(n) == 0;
    for (int i = 0; i < N; i++) {
      uint8_t rdy, vld;
      memset(rsp, 0, sizeof rsp);
      mt_mem_comb_port(&cs.mem[i], 0, &rdy, &vld, rsp);
      setb(d->mem_req_ready_i, i, 1, rdy); setb(d->mem_rsp_valid_i, i, 1, vld);
      for (unsigned k = 0; k < cs.lanes; k++) setb(d->mem_rsp_data_i, cs.PW * i + 32 * k, 32, rsp[k]);
      setb(d->start_i, i, 1, start);
    }
    d->eval();
    for (int i = 0; i < N; i++) {  // the NI's registered request during this cycle
      rv[i] = (uint8_t)getb(d->mem_req_valid_o, i, 1); rwe[i] = (uint8_t)getb(d->mem_req_we_o, i, 1);
      raddr[i] = getb(d->mem_req_addr_o, 32 * i, 32); rbe[i] = getb(d->mem_req_be_o, cs.lanes * i, cs.lanes);
      for (unsigned k = 0; k < cs.lanes; k++) rwdata[16 * i + k] = getb(d->mem_req_wdata_o, cs.PW * i + 32 * k, 32);
    }
    mt_net_step(n);
    cs.compare_links();
    cs.tick_half(1);
    for (int i = 0; i < N; i++) mt_mem_edge(&cs.mem[i], rv[i], rwe[i], raddr[i], rbe[i], &rwdata[16 * i]);
    cs.compare_outputs();
    cs.tick_half(0);
    cs.cycles++;
    all_done = true; any_err = false;
    for (int i = 0; i < N; i++) { all_done &= mt_net_ni_out(n, i)->done != 0; any_err |= mt_net_ni_out(n, i)->err != 0; }
    if (all_done || any_err) break;
  }
#if VM_TRACE
  if (cs.tr) cs.tr->close();
#endif
  printf("case %s: %s %s %llu bytes %s %s, seed %u%s: %llu cycles co-simulated, %llu comparisons, %s\n", cp->name, cp->topo, cp->algo,
         (unsigned long long)cp->bytes, cp->dtype == MT_DTYPE_FP32 ? "fp32" : "int32", cp->pkt ? "packets" : "messages", cp->seed,
         prt ? " (C routers perturbed)" : pni ? " (C NIs perturbed)" : "", (unsigned long long)cs.cycles, (unsigned long long)cs.checks,
         cs.mism ? "MISMATCH" : "no mismatch");
  printf("links: %d directed, %llu flits carried, %llu packet heads passed through a node on a multi-hop route\n", mt_net_num_links(n),
         (unsigned long long)cs.link_flits, (unsigned long long)cs.transit_heads);
  if (perturbed) {
    // the perturbed C model must be caught (a mismatch, or the models ending differently)
    if (cs.mism) { pass++; printf("perturbed model caught\n"); }
    else { fail++; printf("perturbed model NOT caught\n"); }
  } else {
    if (cs.mism) fail++; else pass++;
    if (!all_done) { fail++; printf("the all-reduce did not finish (%s)\n", any_err ? "NI error" : "cycle limit"); }
    else pass++;
    // buffers: RTL vs C model, and both against the reference
    std::vector<uint32_t> ref(nw + 1);
    std::vector<uint32_t *> in((size_t)N);
    for (int i = 0; i < N; i++) in[i] = const_cast<uint32_t *>(mt_net_input(n, i));
    if (mt_ref_result(&p.s, &p.tb, cp->dtype, in.data(), ref.data(), &e)) { printf("reference: %s\n", e.msg); fail++; }
    else {
      uint64_t bad_rc = 0, bad_ref = 0;
      for (int i = 0; i < N; i++)
        for (uint64_t k = 0; k < nw; k++) {
          const uint32_t r = cs.mem[i].w[k], m = mt_net_buffer(n, i)[k];
          if (r != m && bad_rc++ < 3) printf("buffer node %d word %llu: rtl 0x%08x c 0x%08x\n", i, (unsigned long long)k, r, m);
          if (r != ref[k] && bad_ref++ < 3) printf("buffer node %d word %llu: rtl 0x%08x reference 0x%08x\n", i, (unsigned long long)k, r, ref[k]);
        }
      for (int i = 0; i < N; i++) if (cs.mem[i].errors) { printf("node %d: RTL memory port errors %llu\n", i, (unsigned long long)cs.mem[i].errors); bad_rc++; }
      printf("buffers: %d nodes x %llu words, %llu differ between RTL and C, %llu from mt_ref_result\n", N, (unsigned long long)nw,
             (unsigned long long)bad_rc, (unsigned long long)bad_ref);
      if (bad_rc) fail++; else pass++;
      if (bad_ref) fail++; else pass++;
    }
  }
  mt_net_free(n);
  cs.d.reset();
  unplan(p);
  printf("RESULT %s pass=%lu fail=%lu\n", rname, pass, fail);
  return 0;
}
#endif
