// SPDX-License-Identifier: Apache-2.0
// cosim_net.cpp: Verilator co-simulation of the RTL network rtl/mt_net_top.sv (NX x NY
// nodes of rtl/mt_node.sv: router + NI, mt_link delay lines) against the C network model
// cmodel/net/mt_net_*.c, cycle by cycle, running the same all-reduce.
//  * A build is a hardware "shape": topology (NX, NY, torus), NumVcs, VcDepth, EjDepth,
//    LinkLat, SubPktFlits, PktBytes, SQ, RQ and a schedule-table layout (FlowW, StepW, IdW,
//    PortW, EjW, AddrW, SizeW, Children, Depth, MaxFlows), all RTL parameters (-G) that
//    this file also gets as CFG_* macros. Everything else is chosen at run time: algorithm,
//    bytes, dtype, flow control, seed, memory ready %/latency, watchdog limit. The run's
//    schedule is encoded in the build's layout (mt_layout_fit; a schedule that does not fit
//    is refused with the field that is too narrow).
//  * The C model is built with the build's NI (RxEngines, MemPorts, ReduceChain: the
//    configuration's ni_rx_engines/ni_mem_ports/ni_chain resolved as mt_net_new does, or the
//    one-engine NI 1/1) and the build's hardware parameters (mt_net_new_layout: the same layout, table depth and
//    MaxFlows as the RTL NIs).
//  * The RTL NIs' memory ports are served by mt_mem instances created exactly as mt_net_new
//    creates its own (same size, lanes, ready/latency and seeds 0x51ED + 7919*i) and loaded
//    with the same inputs, and called in the same order (comb before the edge, edge with
//    the NI's request registered before it), so the memory timing is identical.
//  * Tables: the RTL tables are written through the NIs' table write ports (every node in
//    parallel, all Depth words, END word and zero padding included, encoded with the C
//    model's own layout mt_net_layout); then the RTL is reset again (the table RAM has no
//    reset), so both models start from reset with the same table; the C model loads the
//    same image by its back door (mt_ni_table_load in mt_net_new_layout).
//  * Every cycle: every directed link's flit/valid/credit bits as presented to its receiver
//    (mt_net_link_slot vs the RTL's link taps), every local router <-> NI interface (both
//    directions, flits and credits), every router's wd/ovf flags, every NI's status (busy,
//    done, err, err_code, err_idx, idx, step, st) and memory request. The first mismatch stops
//    the run with the cycle, node, port, VC and both values. At the end every node's buffer is
//    compared between the models and against mt_ref_result.
// The -G flags of a build are printed by this file built with -DCOSIM_NET_PARAMS_ONLY:
//   cosim_net_params BUILD            a fixed build of `make cosim-net` (kCases[].build)
//   cosim_net_params --shape SPEC     a shape (scripts/regress.py), SPEC = space-separated
//       topo=torus:4x4|mesh:NxM|fattree:K,L|dgx2|bigraph:MxN (a switch network:
//       rtl/mt_swnet_top.sv, one NI link per node) base=small|paper max_bytes=N
//       algos=multitree,ring,... and any
//       `multitree sim --set` field (num_vcs=4 vc_depth=8 ej_depth=8 link_lat=2 ...); the
//       layout is the widest of every listed algorithm that plans on the topology at
//       max_bytes (mt_layout_widen), Depth and MaxFlows their largest.
//   cosim_net_params --shape SPEC --describe             the shape's layout, nodes and algorithms
//   cosim_net_params --shape SPEC --check RUN-OPTIONS    0 if the run is legal on the shape
// Usage: cosim_net --case NAME [OPTIONS]           a fixed case (kCases) on a build of its topology
//        cosim_net --algo A --bytes N [OPTIONS]    any all-reduce on this build's shape
//   RUN-OPTIONS: --dtype int32|fp32 --flow message|packet --seed S --mem-ready P --mem-lat L
//                --wd-limit W --max-cycles N --name NAME
//   OPTIONS: RUN-OPTIONS and --fst FILE, --perturb-router K | --perturb-ni K (NI 2: the stager's, in a
//            build with it), --progress,
//            --perturb-set KEY=VALUE (a `sim --set` field of the C model alone, e.g. link_period1=3),
//            --rtl-only (the RTL alone, no per-cycle comparison: the speed of the Verilated model;
//            then the C model alone; the cycle counts and buffers are compared at the end),
//            --rom DIR (ROM mode, the FPGA path, docs/reference/rtl_sim.md: the RTL alone, every NI's table
//            loaded by $readmemh from DIR/node<i>.hex (`multitree rom --format hex` output;
//            the RTL's +mt_rom_dir plusarg), no table writes, no C model; every node's buffer
//            checked against mt_ref_result), --fst-nodes I,J,... (with --fst: only these nodes),
//            --runs N [--run-algos A,B,...] (N all-reduces back to back without a reset, seeds S, S+1,
//            ...; a run whose algorithm differs from the one before gets its tables written through
//            the NIs' table write ports while idle, in both models in the same cycles: mt_net_load;
//            --perturb-b2b 1|2: the RTL misses the later runs' start pulses, or their table writes,
//            which the co-simulation must catch)
// Prints "RESULT cosim_net_<name> pass=N fail=M" (scripts/runbench.sh) and a "speed" line
// (Verilator and C model cycles per second).
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <vector>
extern "C" {
#include "util/mt_fp32.h"
#include "util/mt_time.h"
#include "table/mt_layout.h"
#include "hw/mt_mem.h"
#include "net/mt_net.h"
#include "plan/mt_ref.h"
#include "table/mt_rom.h"
#include "plan/mt_sched.h"
#include "topo/mt_topo.h"
#include "net/mt_switch.h"
}

struct Case {
  const char *name, *build, *topo, *algo;
  uint64_t bytes;
  int dtype, pkt;
  uint32_t seed;
  int nop;                     // 1: the case is there for its NOP entries (lockstep); it fails if the schedule has none
  int paper_ni;                // the build's NI: 1 the configuration's default (paper) NI, 0 the one-engine NI
  const char *sets = nullptr;  // the build's configuration besides small: `multitree sim --set` fields, space-separated (nullptr: none)
  const char *widen = nullptr; // more algorithms the build's table layout, depth and flow entries hold (comma-separated; --runs --run-algos)
  const char *base = nullptr;  // the build's configuration (configs/net/NAME.cfg) instead of small (nullptr: small)
};
// the fixed builds of `make cosim-net`: topology and schedule of their cases, configuration
// "small" (or the case's base) with the one-engine NI (paper_ni 0) or its default NI (1); a build's -G flags come from its first case (cosim_net_params BUILD)
static const Case kCases[] = {
  {"m2x2_mt_msg_i32", "m2x2_mt", "mesh:2x2", "multitree", 2048, MT_DTYPE_INT32, 0, 11, 0, 0},
  {"m2x2_mt_pkt_f32", "m2x2_mt", "mesh:2x2", "multitree", 2048, MT_DTYPE_FP32, 1, 12, 0, 0},
  {"t4x4_mt_msg_f32", "t4x4_mt", "torus:4x4", "multitree", 4096, MT_DTYPE_FP32, 0, 13, 0, 0},
  // dbtree on the multitree build of the 4x4 torus (its layout fits): NOP entries, so the
  // lockstep count is compared at network level in make test
  {"t4x4_dbt_msg_i32", "t4x4_mt", "torus:4x4", "dbtree", 1024, MT_DTYPE_INT32, 0, 17, 1, 0},
  {"m4x4_ring_pkt_i32", "m4x4_ring", "mesh:4x4", "ring", 4096, MT_DTYPE_INT32, 1, 14, 0, 0},
  // ring2d on a mesh: each ring's closing hop is routed back along the row/column (multi-hop packets)
  {"m4x4_ring2d_pkt_i32", "m4x4_ring2d", "mesh:4x4", "ring2d", 4096, MT_DTYPE_INT32, 1, 16, 0, 0},
  {"m3x5_dbt_msg_i32", "m3x5_dbt", "mesh:3x5", "dbtree", 3840, MT_DTYPE_INT32, 0, 15, 1, 0},
  // the default (paper) NI of the configuration: E = 2L, M = L + 2E, chained reduction
  {"m2x2_mt_pni_msg_i32", "m2x2_mt_pni", "mesh:2x2", "multitree", 2048, MT_DTYPE_INT32, 0, 21, 0, 1},
  {"m2x2_mt_pni_pkt_f32", "m2x2_mt_pni", "mesh:2x2", "multitree", 2048, MT_DTYPE_FP32, 1, 22, 0, 1},
  {"t4x4_mt_pni_msg_f32", "t4x4_mt_pni", "torus:4x4", "multitree", 4096, MT_DTYPE_FP32, 0, 23, 0, 1},
  {"t4x4_dbt_pni_msg_i32", "t4x4_mt_pni", "torus:4x4", "dbtree", 1024, MT_DTYPE_INT32, 0, 27, 1, 1},
  // make demo: MultiTree 16 KiB fp32 on the 4x4 torus, the default (paper) NI, built with waveforms
  {"t4x4_demo_msg_f32", "t4x4_demo", "torus:4x4", "multitree", 16384, MT_DTYPE_FP32, 0, 31, 0, 1},
  // switch networks (rtl/mt_swnet_top.sv, docs/reference/switch.md): halving-doubling on fattree:4,2
  // (MultiTree's entries there have 15 children, the RTL NI at most 8), ring with packets and
  // dbtree on the same build; hd on dgx2
  {"ft42_hd_msg_i32", "ft42_hd", "fattree:4,2", "hd", 4096, MT_DTYPE_INT32, 0, 41, 0, 0},
  {"ft42_ring_pkt_f32", "ft42_hd", "fattree:4,2", "ring", 4096, MT_DTYPE_FP32, 1, 42, 0, 0},
  {"ft42_dbt_msg_i32", "ft42_hd", "fattree:4,2", "dbtree", 2048, MT_DTYPE_INT32, 0, 43, 0, 0},
  {"dgx2_hd_msg_f32", "dgx2_hd", "dgx2", "hd", 4096, MT_DTYPE_FP32, 0, 44, 0, 0},
  // bigraph:4x8: two switch hops within a group, two hop classes of VCs; HDRM, the baseline
  // co-designed for it, and hd with packets on the same build
  {"bg48_hdrm_msg_i32", "bg48_hdrm", "bigraph:4x8", "hdrm", 4096, MT_DTYPE_INT32, 0, 45, 0, 0},
  {"bg48_hd_pkt_f32", "bg48_hdrm", "bigraph:4x8", "hd", 4096, MT_DTYPE_FP32, 1, 46, 0, 0},
  // bucket (issue #18, docs/reference/planner.md): one part per dimension and direction, ring
  // reduce-scatters in rotated dimension order; 256 flows, 124 entries per node
  {"t4x4_bucket_msg_i32", "t4x4_bucket", "torus:4x4", "bucket", 4096, MT_DTYPE_INT32, 0, 81, 0, 0},
  {"t4x4_bucket_pkt_f32", "t4x4_bucket", "torus:4x4", "bucket", 4096, MT_DTYPE_FP32, 1, 82, 0, 0},
  // meshtree (docs/reference/planner.md "meshtree") on the 4x4 mesh with the default (paper) NI:
  // 2 flows per root (32 trees), list-scheduled, gathers of early flows among later reduces
  {"m4x4_meshtree_msg_i32", "m4x4_meshtree", "mesh:4x4", "meshtree", 32768, MT_DTYPE_INT32, 0, 91, 0, 1},
  {"m4x4_meshtree_pkt_f32", "m4x4_meshtree", "mesh:4x4", "meshtree", 32768, MT_DTYPE_FP32, 1, 92, 0, 1},
  // a 3-D heterogeneous torus (docs/reference/network.md "Link rate and latency"), as a Themis system's
  // dimensions of unequal bandwidth: Y links a flit every 2 cycles and 3 long, Z links every
  // 3 cycles and 5 long, X every cycle and 2 long; one NI port per network port (6: with the
  // default 4 two neighbours would share an ejection port, docs/reference/ni.md "Limits")
  {"t333_het_mt_msg_i32", "t333_het", "torus:3x3x3", "multitree", 6912, MT_DTYPE_INT32, 0, 71, 0, 0, "local_ports=6 link_period1=2 link_lat1=3 link_period2=3 link_lat2=5"},
  {"t333_het_mt_pkt_f32", "t333_het", "torus:3x3x3", "multitree", 6912, MT_DTYPE_FP32, 1, 72, 0, 0, "local_ports=6 link_period1=2 link_lat1=3 link_period2=3 link_lat2=5"},
  // an asymmetric hierarchy (docs/reference/flexreduce.md): machines of 3 and 2 learners behind one
  // top switch; FlexReduce's uneven flows with messages, and with packets in fp32
  {"h32_fr_msg_i32", "h32_fr", "hier:3+2,2", "flexreduce", 4096, MT_DTYPE_INT32, 0, 61, 0, 0},
  {"h32_fr_pkt_f32", "h32_fr", "hier:3+2,2", "flexreduce", 4096, MT_DTYPE_FP32, 1, 62, 0, 0},
  // a heterogeneous torus (docs/reference/network.md "Link rate and latency"): the Y links take a flit
  // every 2 cycles and are 5 cycles long, the X links every cycle and 2 long
  {"t4x4_het_mt_msg_i32", "t4x4_het", "torus:4x4", "multitree", 4096, MT_DTYPE_INT32, 0, 51, 0, 0, "link_period1=2 link_lat1=5"},
  {"t4x4_het_mt_pkt_f32", "t4x4_het", "torus:4x4", "multitree", 4096, MT_DTYPE_FP32, 1, 52, 0, 0, "link_period1=2 link_lat1=5"},
  // the NI stager (docs/reference/ni.md "Staging not-due units"): hd on a mesh 8x2 with small buffers,
  // the routed deadlock of docs/reference/ni.md "Limits" (a watchdog stop with ni_stage_after=0): with
  // T = 50 node 14's NI stages units out and replays them; the one-engine NI
  {"m8x2_hd_stg_f32", "m8x2_hd_stg", "mesh:8x2", "hd", 14004, MT_DTYPE_FP32, 0, 713148367, 0, 0,
   "num_vcs=8 vc_depth=13 ej_depth=11 link_lat=1 subpkt_flits=8 pkt_bytes=64 ni_sq=4 ni_rq=8 ni_stage_after=50 ni_stage_ranges=8"},
  // back-to-back all-reduces without a reset (docs/reference/network.md "Back-to-back all-reduces"):
  // a layout that holds MultiTree, ring and dbtree on the 2x2 mesh, so that a later run loads
  // another algorithm's tables while idle (t-net-cosim-b2b: --runs 3 --run-algos ...)
  {"m2x2_b2b_msg_i32", "m2x2_b2b", "mesh:2x2", "multitree", 2048, MT_DTYPE_INT32, 0, 91, 0, 0, nullptr, "ring,dbtree"},
  {"m2x2_b2b_pkt_f32", "m2x2_b2b", "mesh:2x2", "multitree", 2048, MT_DTYPE_FP32, 1, 92, 0, 0, nullptr, "ring,dbtree"},
  // the FPGA shape (configs/net/fpga.cfg, the network of the ULX3S board top fpga/ulx3s/top.sv):
  // 2 VCs of 16 flits, ejection buffers of 5, L = 3, links of two cycles, the one-engine NI, on the board's 2x2 torus
  {"t2x2_fpga_msg_i32", "t2x2_fpga", "torus:2x2", "multitree", 4096, MT_DTYPE_INT32, 0, 91, 0, 0, nullptr, nullptr, "fpga"},
  {"t2x2_fpga_pkt_f32", "t2x2_fpga", "torus:2x2", "multitree", 4096, MT_DTYPE_FP32, 1, 92, 0, 0, nullptr, nullptr, "fpga"},
  // the same with the router pipeline (RtPipe = 1, docs/reference/router.md "Pipeline (RtPipe)"): the same cycles
  {"t2x2_fpgap_msg_i32", "t2x2_fpgap", "torus:2x2", "multitree", 4096, MT_DTYPE_INT32, 0, 91, 0, 0, "rt_pipe=1", nullptr, "fpga"},
  {"t2x2_fpgap_pkt_f32", "t2x2_fpgap", "torus:2x2", "multitree", 4096, MT_DTYPE_FP32, 1, 92, 0, 0, "rt_pipe=1", nullptr, "fpga"},
  // and with its register between VC and switch allocation (RtPipe = 2): a cycle per hop for heads
  {"t2x2_fpgap2_msg_i32", "t2x2_fpgap2", "torus:2x2", "multitree", 4096, MT_DTYPE_INT32, 0, 91, 0, 0, "rt_pipe=2", nullptr, "fpga"},
  {"t2x2_fpgap2_pkt_f32", "t2x2_fpgap2", "torus:2x2", "multitree", 4096, MT_DTYPE_FP32, 1, 92, 0, 0, "rt_pipe=2", nullptr, "fpga"},
  // the NI adder's pipeline (ni_alu_pipe = 2, docs/reference/reduction.md "Pipeline"): each sum
  // two cycles later; on the FPGA shape, and on the paper NI (8 engines, chained reduction)
  {"t2x2_fpgaa_msg_i32", "t2x2_fpgaa", "torus:2x2", "multitree", 4096, MT_DTYPE_INT32, 0, 91, 0, 0, "ni_alu_pipe=2", nullptr, "fpga"},
  {"t2x2_fpgaa_pkt_f32", "t2x2_fpgaa", "torus:2x2", "multitree", 4096, MT_DTYPE_FP32, 1, 92, 0, 0, "ni_alu_pipe=2", nullptr, "fpga"},
  {"m2x2_pnia_msg_f32", "m2x2_pnia", "mesh:2x2", "multitree", 2048, MT_DTYPE_FP32, 0, 23, 0, 1, "ni_alu_pipe=2"},
  {"m2x2_pnia_pkt_i32", "m2x2_pnia", "mesh:2x2", "multitree", 2048, MT_DTYPE_INT32, 1, 24, 0, 1, "ni_alu_pipe=2"},
};

// a case's --set fields into cfg (space-separated); -1 with the field that failed
static int apply_sets(mt_net_cfg *cfg, const char *sets, mt_err *e) {
  for (const char *q = sets; q && *q;) {
    while (*q == ' ') q++;
    const char *z = strchr(q, ' ');
    std::string kv(q, z ? (size_t)(z - q) : strlen(q));
    if (!kv.empty() && mt_net_cfg_set(cfg, kv.c_str(), e)) return -1;
    q = z ? z : q + kv.size();
  }
  return 0;
}

static const Case *find_case(const char *name) {
  for (const Case &c : kCases)
    if (!strcmp(c.name, name) || !strcmp(c.build, name)) return &c;
  return nullptr;
}
// a grid build's topology name (NZ = 1: 2-D), the one name the parameters tool and the harness use
static std::string grid_name(int torus, int nx, int ny, int nz) {
  char tn[64];
  if (nz > 1) snprintf(tn, sizeof tn, "%s:%dx%dx%d", torus ? "torus" : "mesh", nx, ny, nz);
  else snprintf(tn, sizeof tn, "%s:%dx%d", torus ? "torus" : "mesh", nx, ny);
  return tn;
}
static bool is_switch_topo(const char *spec) { return strncmp(spec, "torus:", 6) && strncmp(spec, "mesh:", 5); }
// A switch network build's topology as three numbers (Verilator -CFLAGS -D macros carry no
// strings through its makefiles): the mt_topo kind and its two sizes (fattree:K,L, bigraph:MxN;
// dgx2 none). Topologies from files have no such name: -1.
// hier: topologies (topo/mt_hier.h) are not two numbers: the RTL builds know this fixed list
// of asymmetric hierarchies, and a build names its index in CFG_SWA
static const char *const kHierSpecs[] = {"hier:3+2,2"};
static int switch_topo_code(const mt_topo *t, int *a, int *b) {
  *a = *b = 0;
  if (t->kind == MT_TOPO_DGX2) return 0;
  if (t->kind == MT_TOPO_HIER) {
    for (unsigned i = 0; i < sizeof kHierSpecs / sizeof kHierSpecs[0]; i++)
      if (!strcmp(t->spec, kHierSpecs[i])) return *a = (int)i, 0;
    return -1;
  }
  if (t->kind == MT_TOPO_FATTREE && sscanf(t->spec, "fattree:%d,%d", a, b) == 2) return 0;
  if (t->kind == MT_TOPO_BIGRAPH && sscanf(t->spec, "bigraph:%dx%d", a, b) == 2) return 0;
  return -1;
}
// its name from the three numbers (the one name the parameters tool and the harness use)
static std::string switch_topo_name(int kind, int a, int b) {
  char tn[64];
  if (kind == MT_TOPO_HIER) return kHierSpecs[a];
  if (kind == MT_TOPO_FATTREE) snprintf(tn, sizeof tn, "fattree:%d,%d", a, b);
  else if (kind == MT_TOPO_BIGRAPH) snprintf(tn, sizeof tn, "bigraph:%dx%d", a, b);
  else snprintf(tn, sizeof tn, "dgx2");
  return tn;
}

// ---- one run: what is chosen at run time ----
struct Run {
  std::string name, topo, algo; // topo: from the case, else the build's
  uint64_t bytes = 0;
  int dtype = MT_DTYPE_INT32, pkt = 0;
  uint32_t seed = 1;
  unsigned mem_ready = 100, mem_lat = 1;
  uint32_t wd_limit = 20000; // the `small` configuration's
  uint64_t max_cycles = 2000000;
};

// parse one run option at argv[i]; 1 if taken (i advanced), 0 if not a run option, -1 bad value
static int run_opt(Run &r, int argc, char **argv, int &i) {
  const char *a = argv[i];
  if (i + 1 >= argc) return 0;
  const char *v = argv[i + 1];
  char *end = nullptr;
  auto num = [&](uint64_t &x) { x = strtoull(v, &end, 0); return end != v && !*end; };
  uint64_t x = 0;
  if (!strcmp(a, "--algo")) r.algo = v;
  else if (!strcmp(a, "--bytes")) {
    if (!num(r.bytes)) return -1;
  } else if (!strcmp(a, "--dtype")) {
    if (!strcmp(v, "int32")) r.dtype = MT_DTYPE_INT32;
    else if (!strcmp(v, "fp32")) r.dtype = MT_DTYPE_FP32;
    else return -1;
  } else if (!strcmp(a, "--flow")) {
    unsigned f;
    if (mt_net_flow_parse(v, &f)) return -1;
    r.pkt = f == MT_NET_FLOW_PACKET;
  } else if (!strcmp(a, "--seed")) {
    if (!num(x) || x > 0xFFFFFFFFull) return -1;
    r.seed = (uint32_t)x;
  } else if (!strcmp(a, "--mem-ready")) {
    if (!num(x) || x > 1000000) return -1;
    r.mem_ready = (unsigned)x;
  } else if (!strcmp(a, "--mem-lat")) {
    if (!num(x) || x > 1000000) return -1;
    r.mem_lat = (unsigned)x;
  } else if (!strcmp(a, "--wd-limit")) {
    if (!num(x) || x > 0x7FFFFFFFull) return -1;
    r.wd_limit = (uint32_t)x;
  } else if (!strcmp(a, "--max-cycles")) {
    if (!num(r.max_cycles)) return -1;
  } else if (!strcmp(a, "--name")) r.name = v;
  else return 0;
  i++;
  return 1;
}
[[maybe_unused]] static void run_from_case(Run &r, const Case &c) {
  r.name = c.name;
  r.topo = c.topo;
  r.algo = c.algo;
  r.bytes = c.bytes;
  r.dtype = c.dtype;
  r.pkt = c.pkt;
  r.seed = c.seed;
}

// ---- a build's hardware ----
struct Hw {
  std::string topo; // "torus:NXxNY" / "mesh:NXxNY"
  mt_net_cfg cfg;   // hardware fields (num_vcs ... ni_rq); run-time fields set per run
  mt_layout ly;     // field widths and children (schedule part unused)
  int depth = 0, max_flows = 0;
};

struct Planned {
  mt_topo t;
  mt_sched s;
  mt_tables tb;
  bool ok = false;
};
static bool plan(Planned &p, const char *topo, const char *algo, uint64_t bytes, mt_err *e) {
  memset(&p.t, 0, sizeof p.t);
  memset(&p.s, 0, sizeof p.s);
  memset(&p.tb, 0, sizeof p.tb);
  if (mt_topo_from_name(&p.t, topo, e)) return false;
  if (mt_plan(&p.s, &p.t, algo, bytes, 4, e)) {
    mt_topo_free(&p.t);
    return false;
  }
  if (mt_sched_tables(&p.s, 0, &p.tb, e)) {
    mt_sched_free(&p.s);
    mt_topo_free(&p.t);
    return false;
  }
  p.ok = true;
  return true;
}
static void unplan(Planned &p) {
  if (p.ok) {
    mt_tables_free(&p.tb);
    mt_sched_free(&p.s);
    mt_topo_free(&p.t);
    p.ok = false;
  }
}

// A build's NI: one_engine forces the one-engine NI (E = M = 1); otherwise the configuration's
// values, 0 (default) resolved by mt_ni_bw_defaults as mt_net_new resolves them (E = 2L, or L if 2L > 8; M = L + 2E)
// and written back, so the C model runs the same NI and the RTL gets explicit parameters.
// The stager (ni_stage_after, default 20,000 in small) only where the build asks for it
// (keep_stage: its configuration sets ni_stage_after; docs/reference/ni.md "Staging not-due units"):
// the other builds keep the NI without it, as before the RTL had one.
static void resolve_ni(mt_net_cfg *cfg, bool one_engine, bool sw, bool keep_stage) {
  const unsigned L = sw ? 1u : cfg->local_ports ? cfg->local_ports
                                                : 4u; // a switch network's NI: one NI link
  if (one_engine) cfg->ni_rx_engines = cfg->ni_mem_ports = 1;
  mt_ni_bw_defaults(L, &cfg->ni_rx_engines, &cfg->ni_mem_ports);
  if (!keep_stage) cfg->ni_stage_after = 0;
}

// The C network of run r on hardware hw: plans (on the case's topology, which must be the
// build's), configures and builds it with the build's layout. nullptr with a reason.
static mt_net *make_net(const Hw &hw, const Run &r, Planned &p, mt_net_cfg &cfg, mt_err *e) {
  const std::string topo = r.topo.empty() ? hw.topo : r.topo;
  if (topo != hw.topo) {
    mt_fail(e, "%s is not this build's topology (%s)", topo.c_str(), hw.topo.c_str());
    return nullptr;
  }
  if (r.algo.empty() || !r.bytes) {
    mt_fail(e, "--algo and --bytes are required");
    return nullptr;
  }
  if (!plan(p, topo.c_str(), r.algo.c_str(), r.bytes, e)) return nullptr;
  cfg = hw.cfg;
  cfg.mem_p_ready = r.mem_ready;
  cfg.mem_lat_max = r.mem_lat;
  cfg.wd_limit = r.wd_limit;
  cfg.max_cycles = r.max_cycles;
  mt_err e2;
  cfg.flow = r.pkt ? MT_NET_FLOW_PACKET : MT_NET_FLOW_MESSAGE;
  mt_net *n = mt_net_new_layout(&cfg, &p.s, &p.tb, r.dtype, &hw.ly, (unsigned)hw.depth, (unsigned)hw.max_flows, &e2);
  if (!n) {
    mt_fail(e, "%s %s %llu bytes %s: %s (build: Depth=%d MaxFlows=%d FlowW=%d StepW=%d IdW=%d AddrW=%d SizeW=%d Children=%d)",
            topo.c_str(), r.algo.c_str(), (unsigned long long)r.bytes, r.pkt ? "packets" : "messages", e2.msg, hw.depth,
            hw.max_flows, hw.ly.flow_w, hw.ly.step_w, hw.ly.id_w, hw.ly.addr_w, hw.ly.size_w, hw.ly.children);
    return nullptr;
  }
  return n;
}

#ifdef COSIM_NET_PARAMS_ONLY
// The flags of a build's hardware shape besides its topology: -G of the node and NI
// parameters, then the harness macros (-DCFG_*) of all of them and of LinkLat.
static void print_shape_flags(const Hw &hw) {
  const mt_net_cfg &cfg = hw.cfg;
  const mt_layout &ly = hw.ly;
  // the RTL chains only with E > 1 (the C model ignores ni_chain with one engine)
  const unsigned chain = cfg.ni_rx_engines > 1 ? cfg.ni_chain : 0u;
  // the NIs' ejection VCs: ej_depth on a grid, the NI link's (ni_link_depth, 0 = vc_depth) in a switch network
  const unsigned ejd = mt_net_ej_depth(&cfg, is_switch_topo(hw.topo.c_str()));
  // the router pipeline, only when set (mt_net_top's; the other builds' flags stay as they were)
  if (cfg.rt_pipe) printf(" -GRtPipe=%u -CFLAGS -DCFG_RTPIPE=%u", cfg.rt_pipe, cfg.rt_pipe);
  // the NI adder's pipeline (every build: mt_node has it, so its checks need no default)
  printf(" -GAluPipe=%u -CFLAGS -DCFG_ALUPIPE=%u", cfg.ni_alu_pipe, cfg.ni_alu_pipe);
  printf(" -GPayloadW=%u -GNumVcs=%u -GVcDepth=%u -GEjDepth=%u "
         "-GSubPktFlits=%u -GPktBytes=%u -GStepPrio=%u -GRtWdW=31 -GDepth=%d -GCompact=0 -GFlowW=%d -GStepW=%d -GIdW=%d "
         "-GPortW=%d -GEjW=%d -GAddrW=%d -GSizeW=%d -GChildren=%d -GMaxFlows=%d -GSQ=%u -GRQ=%u -GNiWdW=32 "
         "-GRxEngines=%u -GMemPorts=%u -GReduceChain=%u -CFLAGS -DCFG_RXENG=%u -CFLAGS -DCFG_MEMPORTS=%u -CFLAGS -DCFG_CHAIN=%u "
         "-GStageAfter=%u -GStageRanges=%u -CFLAGS -DCFG_STAGE=%u -CFLAGS -DCFG_STAGE_RANGES=%u "
         "-CFLAGS -DCFG_DEPTH=%d -CFLAGS -DCFG_ENTRYW=%d "
         "-CFLAGS -DCFG_LINKLAT=%u -CFLAGS -DCFG_PAYLOADW=%u -CFLAGS -DCFG_NUMVCS=%u -CFLAGS -DCFG_VCDEPTH=%u "
         "-CFLAGS -DCFG_EJDEPTH=%u -CFLAGS -DCFG_SUBPKT=%u -CFLAGS -DCFG_PKTBYTES=%u -CFLAGS -DCFG_STEPPRIO=%u -CFLAGS -DCFG_SQ=%u "
         "-CFLAGS -DCFG_RQ=%u -CFLAGS -DCFG_FLOWW=%d -CFLAGS -DCFG_STEPW=%d -CFLAGS -DCFG_IDW=%d -CFLAGS -DCFG_PORTW=%d "
         "-CFLAGS -DCFG_EJW=%d -CFLAGS -DCFG_ADDRW=%d -CFLAGS -DCFG_SIZEW=%d -CFLAGS -DCFG_CHILDREN=%d -CFLAGS -DCFG_MAXFLOWS=%d\n",
         cfg.payload_w, cfg.num_vcs, cfg.vc_depth, ejd,
         cfg.subpkt_flits, cfg.pkt_bytes, cfg.step_prio, hw.depth, ly.flow_w, ly.step_w, ly.id_w, ly.port_w, ly.ej_w, ly.addr_w,
         ly.size_w, ly.children, hw.max_flows, cfg.ni_sq, cfg.ni_rq, cfg.ni_rx_engines, cfg.ni_mem_ports, chain,
         cfg.ni_rx_engines, cfg.ni_mem_ports, cfg.ni_chain, cfg.ni_stage_after, cfg.ni_stage_ranges, cfg.ni_stage_after,
         cfg.ni_stage_ranges, hw.depth, ly.width,
         cfg.link_lat, cfg.payload_w, cfg.num_vcs, cfg.vc_depth, ejd, cfg.subpkt_flits, cfg.pkt_bytes, cfg.step_prio,
         cfg.ni_sq, cfg.ni_rq, ly.flow_w, ly.step_w, ly.id_w, ly.port_w, ly.ej_w, ly.addr_w, ly.size_w, ly.children, hw.max_flows);
}
// mt_link's stage loops must be unrolled (Verilator 5.006: no delayed assignment to an
// array in a loop it keeps); the default unroll limit is 64 iterations
static void print_unroll(const Hw &hw) {
  unsigned lat = hw.cfg.link_lat;
  for (int d = 0; d < 3; d++)
    if (hw.cfg.link_lat_d[d] > lat) lat = hw.cfg.link_lat_d[d];
  if (lat > 60) printf("--unroll-count %u ", lat + 16);
}
// Links of different periods or latencies per dimension (docs/reference/network.md "Link rate and
// latency"), only when set (the other builds' flags stay as they were): mt_router's
// LinkPeriods and mt_net_top's LinkLats as Verilog literals (the quote escaped: the flags
// pass through an eval in scripts/net_verilate.sh) and the harness macros. Dimension 2
// exists only in a 3-D network.
static int print_dim_flags(const Hw &hw, const mt_topo *t, mt_err *e) {
  const mt_net_cfg &c = hw.cfg;
  if (t->ndims < 3 && (c.link_period[2] > 1 || c.link_lat_d[2]))
    return mt_fail(e, "link_period2/link_lat2: %s has no third dimension", t->spec);
  unsigned per = 0;
  bool het = false;
  for (int d = 0; d < 3; d++) {
    const unsigned k = c.link_period[d] > 1 ? c.link_period[d] : 1u;
    per |= k << (8 * d);
    het = het || k > 1 || c.link_lat_d[d];
  }
  if (het)
    printf(" -GLinkPeriods=24\\'h%06x -GLinkLats=96\\'h%08x%08x%08x -CFLAGS -DCFG_PERIODS=0x%06x -CFLAGS -DCFG_LAT0=%u -CFLAGS -DCFG_LAT1=%u "
           "-CFLAGS -DCFG_LAT2=%u",
           per, c.link_lat_d[2], c.link_lat_d[1], c.link_lat_d[0], per, c.link_lat_d[0], c.link_lat_d[1], c.link_lat_d[2]);
  return 0;
}
// A grid build (rtl/mt_net_top.sv)
static void print_flags(const Hw &hw, const mt_topo *t) {
  const unsigned L = hw.cfg.local_ports ? hw.cfg.local_ports : 4u;
  print_unroll(hw);
  printf("-GNX=%d -GNY=%d -GTorus=%d -GL=%u -GLinkLat=%u -CFLAGS -DCFG_NX=%d -CFLAGS -DCFG_NY=%d -CFLAGS -DCFG_TORUS=%d -CFLAGS -DCFG_L=%u",
         t->dim[0], t->dim[1], t->kind == MT_TOPO_TORUS, L, hw.cfg.link_lat, t->dim[0], t->dim[1], t->kind == MT_TOPO_TORUS, L);
  if (t->ndims == 3) printf(" -GNZ=%d -CFLAGS -DCFG_NZ=%d", t->dim[2], t->dim[2]);
  mt_err e;
  if (print_dim_flags(hw, t, &e)) {
    fprintf(stderr, "cosim_net_params: %s\n", e.msg);
    exit(1);
  }
  print_shape_flags(hw);
}

// A bit vector printed as a Verilog literal W'h... (parameter vectors of mt_swnet_top)
struct BitVec {
  std::vector<uint32_t> w;
  unsigned n;
  explicit BitVec(unsigned bits) : w((bits + 31) / 32 + 1, 0), n(bits) {}
  void set(unsigned off, unsigned bits, uint32_t v) {
    for (unsigned b = 0; b < bits; b++)
      if ((v >> b) & 1u) w[(off + b) / 32] |= 1u << ((off + b) % 32);
  }
  std::string lit() const {
    std::string h;
    for (int d = (int)((n + 3) / 4) - 1; d >= 0; d--) h += "0123456789abcdef"[(w[(unsigned)d / 8] >> ((unsigned)d % 8 * 4)) & 15u];
    return std::to_string(n) + "'h" + h;
  }
};

// A switch network build (rtl/mt_swnet_top.sv): the connection list of mt_switch_build as
// parameter vectors, the shape's flags as for a torus, and the harness macros; the topology
// as CFG_SWKIND/CFG_SWA/CFG_SWB (switch_topo_code), for fixed builds and shapes alike.
static int print_switch_flags(const Hw &hw, const mt_topo *t, mt_err *e) {
  const mt_net_cfg &cfg = hw.cfg;
  int ta, tb;
  if (switch_topo_code(t, &ta, &tb))
    return mt_fail(e, "%s: the RTL switch network is built for fattree:K,L, dgx2, bigraph:MxN and the hier: specs of kHierSpecs (hier:3+2,2), not a topology from a file or another hierarchy", t->spec);
  mt_switch_net w;
  if (mt_switch_build(&w, t, cfg.num_vcs, e)) return -1;
  const unsigned S = (unsigned)w.n_sw, N = (unsigned)w.n_nodes, NL = (unsigned)w.nl;
  if (S > 256) {
    mt_switch_free(&w);
    return mt_fail(e, "%s: %u switches, mt_swnet_top has 8-bit switch indices", t->spec, S);
  }
  BitVec ports(S * 10), links((NL ? NL : 1) * 24), pin(S * 16 * 12), at(N * 12);
  for (unsigned s = 0; s < S; s++) {
    ports.set(s * 10, 5, (uint32_t)w.nnet[s]);
    ports.set(s * 10 + 5, 5, (uint32_t)w.nloc[s]);
  }
  for (unsigned k = 0; k < NL; k++) {
    links.set(k * 24, 8, (uint32_t)w.lsrc[k]);
    links.set(k * 24 + 8, 4, (uint32_t)w.lsport[k]);
    links.set(k * 24 + 12, 8, (uint32_t)w.ldst[k]);
    links.set(k * 24 + 20, 4, (uint32_t)w.ldport[k]);
    pin.set(((unsigned)w.ldst[k] * 16 + (unsigned)w.ldport[k]) * 12, 12, k);
  }
  for (unsigned i = 0; i < N; i++) {
    at.set(i * 12, 8, (uint32_t)w.ni_sw[i]);
    at.set(i * 12 + 8, 4, (uint32_t)w.ni_port[i]);
    pin.set(((unsigned)w.ni_sw[i] * 16 + (unsigned)w.ni_port[i]) * 12, 12, i);
  }
  print_unroll(hw);
  printf("-GN=%u -GS=%u -GNL=%u -GLinkLat=%u -GHopClasses=%u -GSwPorts=%s -GLinks=%s -GPortIn=%s -GNiAt=%s "
         "-CFLAGS -DCFG_SWITCH=1 -CFLAGS -DCFG_SWKIND=%d -CFLAGS -DCFG_SWA=%d -CFLAGS -DCFG_SWB=%d -CFLAGS -DCFG_NSW=%u "
         "-CFLAGS -DCFG_NLINKS=%u -CFLAGS -DCFG_NX=%u -CFLAGS -DCFG_NY=1 -CFLAGS -DCFG_TORUS=0 -CFLAGS -DCFG_L=1",
         N, S, NL, cfg.link_lat, w.hop_classes, ports.lit().c_str(), links.lit().c_str(), pin.lit().c_str(), at.lit().c_str(), t->kind,
         ta, tb, S, NL, N);
  print_shape_flags(hw);
  mt_switch_free(&w);
  return 0;
}

// mt_ni_entry_dec's Children parameter (1..8, checked at elaboration): MultiTree on the
// 16-node switch networks has entries of 15 children (docs/reference/switch.md), so a shape drops it
static const int kRtlMaxChildren = 8;
// A shape from SPEC; algos_ok/algos_skip: which of the listed algorithms plan on the topology
static int shape_from_spec(Hw &hw, mt_topo &t, const char *spec, std::string &algos_ok, std::string &algos_skip, mt_err *e) {
  std::string topo, base = "small", algos = "multitree";
  uint64_t max_bytes = 65536;
  std::vector<std::string> sets;
  std::string s(spec);
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') i++;
    size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    std::string kv = s.substr(i, j - i);
    i = j;
    if (kv.empty()) continue;
    size_t eq = kv.find('=');
    if (eq == std::string::npos) return mt_fail(e, "shape: '%s' is not name=value", kv.c_str());
    std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    if (k == "topo") topo = v;
    else if (k == "base") base = v;
    else if (k == "algos") algos = v;
    else if (k == "max_bytes") max_bytes = strtoull(v.c_str(), nullptr, 0);
    else if (k == "mem_p_ready" || k == "mem_lat_max" || k == "wd_limit" || k == "max_cycles" || k == "payload_w" ||
             k == "local_ports")
      return mt_fail(e, "shape: %s is a run-time setting or not a free parameter of the RTL network", k.c_str());
    else sets.push_back(kv);
  }
  if (topo.empty()) return mt_fail(e, "shape: topo= is required");
  if (mt_net_cfg_by_name(&hw.cfg, base.c_str(), e)) return -1;
  for (const std::string &kv : sets)
    if (mt_net_cfg_set(&hw.cfg, kv.c_str(), e)) return -1;
  if (mt_topo_from_name(&t, topo.c_str(), e)) return -1;
  const bool sw = !mt_topo_is_grid(&t);
  bool keep_stage = false;
  for (const std::string &kv : sets) keep_stage = keep_stage || kv.rfind("ni_stage_after=", 0) == 0;
  resolve_ni(&hw.cfg, false, sw, keep_stage);
  int ta, tb;
  if (sw) {
    // a switch network (rtl/mt_swnet_top.sv): refused here, with mt_switch_build's reason,
    // if its build would be (a file topology, too many ports, VCs not a multiple of the
    // hop classes), so that --describe and --check say so too
    mt_switch_net w;
    if (switch_topo_code(&t, &ta, &tb)) {
      mt_topo_free(&t);
      return mt_fail(e, "shape: %s: the RTL switch network is built for fattree:K,L, dgx2, bigraph:MxN or hier:3+2,2", topo.c_str());
    }
    if (mt_switch_build(&w, &t, hw.cfg.num_vcs, e)) {
      mt_topo_free(&t);
      return -1;
    }
    mt_switch_free(&w);
    hw.topo = switch_topo_name(t.kind, ta, tb);
  } else if (t.ndims != 2 && t.ndims != 3) {
    mt_topo_free(&t);
    return mt_fail(e, "shape: %s is not a 2-D or 3-D torus or mesh, fattree:K,L, dgx2 or bigraph:MxN", topo.c_str());
  } else {
    hw.topo = grid_name(t.kind == MT_TOPO_TORUS, t.dim[0], t.dim[1], t.ndims == 3 ? t.dim[2] : 1);
  }
  bool any = false;
  size_t a = 0;
  while (a <= algos.size()) {
    size_t b = algos.find(',', a);
    if (b == std::string::npos) b = algos.size();
    std::string al = algos.substr(a, b - a);
    a = b + 1;
    if (al.empty()) continue;
    Planned p;
    mt_layout ly;
    mt_err e2;
    if (!plan(p, hw.topo.c_str(), al.c_str(), max_bytes, &e2) || mt_layout_for(&p.s, &p.tb, 0, &ly, &e2) ||
        (ly.children > kRtlMaxChildren &&
         mt_fail(&e2, "entries of %d children; the RTL NI decodes at most %d (rtl/mt_ni_entry_dec.sv)", ly.children, kRtlMaxChildren))) {
      unplan(p);
      algos_skip += (algos_skip.empty() ? "" : " || ") + al + ": " + e2.msg;
      continue;
    }
    if (!any) hw.ly = ly;
    else mt_layout_widen(&hw.ly, &ly);
    if (mt_layout_depth(&p.tb) > hw.depth) hw.depth = mt_layout_depth(&p.tb);
    if (p.s.n_flows > hw.max_flows) hw.max_flows = p.s.n_flows;
    any = true;
    algos_ok += (algos_ok.empty() ? "" : ",") + al;
    unplan(p);
  }
  if (!any) {
    mt_topo_free(&t);
    return mt_fail(e, "shape: none of the algorithms plans on %s (%s)", topo.c_str(), algos_skip.c_str());
  }
  return 0;
}

int main(int argc, char **argv) {
  mt_err e;
  Hw hw;
  mt_topo t;
  memset(&t, 0, sizeof t);
  if (argc == 2 && argv[1][0] != '-') {
    // a fixed build of `make cosim-net`: the case's topology and schedule, configuration small
    const Case *c = find_case(argv[1]);
    if (!c) {
      fprintf(stderr, "unknown build %s\n", argv[1]);
      return 2;
    }
    Planned p;
    if (!c->base) mt_net_cfg_small(&hw.cfg);
    else if (mt_net_cfg_by_name(&hw.cfg, c->base, &e)) {
      fprintf(stderr, "case %s: %s\n", c->name, e.msg);
      return 1;
    }
    if (apply_sets(&hw.cfg, c->sets, &e)) {
      fprintf(stderr, "case %s: %s\n", c->name, e.msg);
      return 1;
    }
    hw.topo = c->topo; // print_shape_flags: grid or switch network (the NIs' ejection depth)
    resolve_ni(&hw.cfg, !c->paper_ni, is_switch_topo(c->topo), c->sets && strstr(c->sets, "ni_stage_after="));
    if (!plan(p, c->topo, c->algo, c->bytes, &e) || mt_layout_for(&p.s, &p.tb, 0, &hw.ly, &e)) {
      fprintf(stderr, "%s\n", e.msg);
      return 1;
    }
    hw.depth = mt_layout_depth(&p.tb);
    hw.max_flows = p.s.n_flows;
    for (const char *q = c->widen; q && *q;) { // the layout of every algorithm of c->widen too
      const char *z = strchr(q, ',');
      const std::string a(q, z ? (size_t)(z - q) : strlen(q));
      Planned w;
      mt_layout lw;
      if (!plan(w, c->topo, a.c_str(), c->bytes, &e) || mt_layout_for(&w.s, &w.tb, 0, &lw, &e)) {
        fprintf(stderr, "case %s: widen %s: %s\n", c->name, a.c_str(), e.msg);
        return 1;
      }
      mt_layout_widen(&hw.ly, &lw);
      if (mt_layout_depth(&w.tb) > hw.depth) hw.depth = mt_layout_depth(&w.tb);
      if (w.s.n_flows > hw.max_flows) hw.max_flows = w.s.n_flows;
      unplan(w);
      q = z ? z + 1 : q + a.size();
    }
    if (is_switch_topo(c->topo)) {
      if (print_switch_flags(hw, &p.t, &e)) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
      }
    } else {
      print_flags(hw, &p.t);
    }
    unplan(p);
    return 0;
  }
  if (argc < 3 || strcmp(argv[1], "--shape")) {
    fprintf(stderr, "usage: cosim_net_params BUILD | --shape SPEC [--describe | --check RUN-OPTIONS]\n");
    return 2;
  }
  std::string ok, skip;
  if (shape_from_spec(hw, t, argv[2], ok, skip, &e)) {
    fprintf(stderr, "cosim_net_params: %s\n", e.msg);
    return 1;
  }
  int rc = 0;
  if (argc == 3) {
    if (mt_topo_is_grid(&t)) print_flags(hw, &t);
    else if (print_switch_flags(hw, &t, &e)) {
      fprintf(stderr, "cosim_net_params: %s\n", e.msg);
      rc = 1;
    }
  } else if (!strcmp(argv[3], "--describe")) {
    printf("topo=%s depth=%d max_flows=%d flow_w=%d step_w=%d id_w=%d port_w=%d ej_w=%d addr_w=%d size_w=%d children=%d entry_w=%d\n",
           hw.topo.c_str(), hw.depth, hw.max_flows, hw.ly.flow_w, hw.ly.step_w, hw.ly.id_w, hw.ly.port_w, hw.ly.ej_w, hw.ly.addr_w,
           hw.ly.size_w, hw.ly.children, hw.ly.width);
    printf("nodes=%d\n", t.n_nodes);
    printf("algos=%s\n", ok.c_str());
    printf("skipped=%s\n", skip.c_str());
  } else if (!strcmp(argv[3], "--check")) {
    Run r;
    for (int i = 4; i < argc; i++) {
      int k = run_opt(r, argc, argv, i);
      if (k <= 0) {
        fprintf(stderr, "cosim_net_params --check: bad option %s\n", argv[i]);
        return 2;
      }
    }
    Planned p;
    mt_net_cfg cfg;
    mt_net *n = make_net(hw, r, p, cfg, &e);
    if (n) printf("ok\n");
    else {
      printf("illegal: %s\n", e.msg);
      rc = 1;
    }
    mt_net_free(n);
    unplan(p);
  } else {
    fprintf(stderr, "cosim_net_params: unknown option %s\n", argv[3]);
    rc = 2;
  }
  mt_topo_free(&t);
  return rc;
}
#else
#ifndef CFG_SWITCH
#define CFG_SWITCH 0
#define CFG_NSW 0
#define CFG_NLINKS 0
#endif
#ifndef CFG_NZ
#define CFG_NZ 1 // a 2-D build
#endif
#if defined(CFG_PERIODS) && !defined(CFG_LAT2)
#define CFG_LAT2 0
#endif
#if CFG_SWITCH
// a switch network build (rtl/mt_swnet_top.sv): links indexed as the C model's, NIs on NI links
#include "Vmt_swnet_top.h"
typedef Vmt_swnet_top Vtop;
#else
#include "Vmt_net_top.h"
typedef Vmt_net_top Vtop;
#endif
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

double sc_time_stamp() { return 0; }


// ---- bit access over any Verilator port type (n <= 32); always inlined (the memory exchange
// calls them for every memory port every cycle) ----
#define BITS_AI __attribute__((always_inline)) inline
static BITS_AI uint32_t getb(uint64_t x, unsigned off, unsigned n) { return (uint32_t)((x >> off) & (n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1))); }
static BITS_AI uint32_t getb(const uint32_t *w, unsigned off, unsigned n) {
  const unsigned i = off / 32, s = off % 32;
  uint64_t v = w[i] >> s;
  if (s + n > 32) v |= (uint64_t)w[i + 1] << (32 - s);
  return (uint32_t)(v & (n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1)));
}
template <std::size_t W>
static BITS_AI uint32_t getb(const VlWide<W> &x, unsigned off, unsigned n) { return getb(&x[0], off, n); }
template <typename T>
static BITS_AI void setb(T &x, unsigned off, unsigned n, uint32_t v) {
  uint64_t m = (n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1)) << off;
  x = (T)(((uint64_t)x & ~m) | (((uint64_t)v << off) & m));
}
static BITS_AI void setb(uint32_t *w, unsigned off, unsigned n, uint32_t v) {
  const uint64_t m = n >= 32 ? 0xFFFFFFFFull : ((1ull << n) - 1);
  const uint64_t x = (uint64_t)v & m;
  const unsigned i = off / 32, s = off % 32;
  w[i] = (w[i] & ~(uint32_t)(m << s)) | (uint32_t)(x << s);
  if (s + n > 32) {
    const unsigned k = 32 - s;
    w[i + 1] = (w[i + 1] & ~(uint32_t)(m >> k)) | (uint32_t)(x >> k);
  }
}
template <std::size_t W>
static BITS_AI void setb(VlWide<W> &x, unsigned off, unsigned n, uint32_t v) { setb(&x[0], off, n, v); }

#ifndef CFG_STAGE
#define CFG_STAGE 0
#endif
#ifndef CFG_STAGE_RANGES
#define CFG_STAGE_RANGES 16
#endif
// this build's hardware (the -G parameters, also given as CFG_* macros)
static Hw build_hw() {
  Hw hw;
  mt_net_cfg_small(&hw.cfg);
  snprintf(hw.cfg.name, sizeof hw.cfg.name, "build");
  hw.cfg.ni_rx_engines = CFG_RXENG;
  hw.cfg.ni_mem_ports = CFG_MEMPORTS;
  hw.cfg.ni_chain = CFG_CHAIN;
  hw.cfg.ni_stage_after = CFG_STAGE; // the stager (0: none)
  hw.cfg.ni_stage_ranges = CFG_STAGE_RANGES;
  hw.cfg.payload_w = CFG_PAYLOADW;
  hw.cfg.num_vcs = CFG_NUMVCS;
  hw.cfg.vc_depth = CFG_VCDEPTH;
  hw.cfg.ej_depth = CFG_EJDEPTH;
  hw.cfg.ni_link_depth = CFG_EJDEPTH; // a switch network's NIs (mt_net_ej_depth); grids use ej_depth
  hw.cfg.link_lat = CFG_LINKLAT;
  hw.cfg.subpkt_flits = CFG_SUBPKT;
  hw.cfg.pkt_bytes = CFG_PKTBYTES;
  hw.cfg.step_prio = CFG_STEPPRIO;
#ifdef CFG_RTPIPE
  hw.cfg.rt_pipe = CFG_RTPIPE;
#endif
  hw.cfg.ni_alu_pipe = CFG_ALUPIPE;
  hw.cfg.local_ports = CFG_L;
  hw.cfg.ni_sq = CFG_SQ;
  hw.cfg.ni_rq = CFG_RQ;
#ifdef CFG_PERIODS
  for (int d = 0; d < 3; d++) hw.cfg.link_period[d] = (CFG_PERIODS >> (8 * d)) & 255u;
  hw.cfg.link_lat_d[0] = CFG_LAT0;
  hw.cfg.link_lat_d[1] = CFG_LAT1;
  hw.cfg.link_lat_d[2] = CFG_LAT2;
#endif
#if CFG_SWITCH
  hw.topo = switch_topo_name(CFG_SWKIND, CFG_SWA, CFG_SWB);
#else
  hw.topo = grid_name(CFG_TORUS, CFG_NX, CFG_NY, CFG_NZ);
#endif
  memset(&hw.ly, 0, sizeof hw.ly);
  hw.ly.op_w = 2;
  hw.ly.flow_w = CFG_FLOWW;
  hw.ly.step_w = CFG_STEPW;
  hw.ly.id_w = CFG_IDW;
  hw.ly.port_w = CFG_PORTW;
  hw.ly.ej_w = CFG_EJW;
  hw.ly.addr_w = CFG_ADDRW;
  hw.ly.size_w = CFG_SIZEW;
  hw.ly.children = CFG_CHILDREN;
  mt_layout_offsets(&hw.ly);
  hw.depth = CFG_DEPTH;
  hw.max_flows = CFG_MAXFLOWS;
  return hw;
}

struct Cosim {
  mt_net *n = nullptr;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vtop> d;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> tr;
#endif
  std::vector<mt_mem> mem;
  std::vector<uint8_t> conn;                       // [node*ND + port]: input fed by a link
  int N = 0, L = 4, NV = 0, ND = 4, NP = 8, M = 1; // M: memory ports per NI
  std::vector<int> swnp;                           // switch networks: every switch's radix
  unsigned PW = 0, FW = 0, lanes = 0;
  uint64_t cycles = 0, checks = 0, link_flits = 0, transit_heads = 0;
  double t_rtl = 0, t_c = 0, t_cmp = 0;
  bool mism = false;

  void tick_half(int clk) {
    d->clk_i = (uint8_t)clk;
    d->eval();
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
  template <typename T>
  void cmp_flit(const char *what, const T &v, unsigned base, const mt_flit &f, int node, int port) {
    for (unsigned b = 0; b < FW; b += 32) {
      unsigned k = FW - b < 32 ? FW - b : 32;
      uint32_t r = getb(v, base + b, k), m = f.w[b / 32] & (k >= 32 ? 0xFFFFFFFFu : ((1u << k) - 1));
      checks++;
      if (r != m) {
        char s[96];
        snprintf(s, sizeof s, "%s bits [%u +: %u]", what, b, k);
        fail(s, node, port, -1, r, m);
      }
    }
  }
  void cmp(const char *what, uint64_t r, uint64_t m, int node, int port, int vc) {
    checks++;
    if (r != m) fail(what, node, port, vc, r, m);
  }

  // before the edge: the links (what every router input sees during this cycle)
  void compare_links() {
    for (int k = 0; k < mt_net_num_links(n); k++) {
      int s, sp, dn, dp;
      mt_net_link_ends(n, k, &s, &sp, &dn, &dp);
      const mt_link_slot *ls = mt_net_link_slot(n, k);
      // the RTL's taps: a switch network's in the C model's link order, a grid's by receiver port
      const unsigned q = CFG_SWITCH ? (unsigned)k : (unsigned)(dn * ND + dp);
      if (ls->valid) {
        link_flits++;
        // a normal packet's head arriving at a node that is not its destination: a multi-hop
        // route (in a switch network: a head entering a switch from another switch)
        const unsigned ft = mt_flit_type(&ls->flit, PW);
        if ((ft == MT_FT_HEAD || ft == MT_FT_HEADTAIL) && (CFG_SWITCH ? s >= N : (int)(ls->flit.w[0] & 0xFFFu) != dn)) transit_heads++;
      }
      cmp("link valid", getb(d->lnk_valid_o, q, 1), ls->valid, dn, dp, -1);
      cmp_flit("link flit", d->lnk_flit_o, q * FW, ls->flit, dn, dp);
      for (int v = 0; v < NV; v++) cmp("link credit", getb(d->lnk_credit_o, q * NV + v, 1), (ls->credits >> v) & 1u, dn, dp, v);
    }
    // unconnected router inputs must stay 0 (a switch network has none)
    for (int i = 0; i < N && !CFG_SWITCH; i++)
      for (int p = 0; p < ND; p++)
        if (!conn[(size_t)(i * ND + p)]) cmp("unconnected input valid", getb(d->lnk_valid_o, i * ND + p, 1), 0, i, p, -1);
  }
  // after the edge: every registered output the harness can see
  void compare_outputs() {
#if CFG_SWITCH
    // the switches' flags (switch s port p VC v at (s*16 + p)*NV + v); their flits and credits
    // are compared on the links, LinkLat cycles later
    for (int s = 0; s < (int)swnp.size(); s++) {
      const mt_router_out *ro = mt_net_router_out(n, s);
      for (int p = 0; p < swnp[(size_t)s]; p++)
        for (int v = 0; v < NV; v++) {
          const unsigned q = (unsigned)((s * 16 + p) * NV + v);
          cmp("switch wd_err", getb(d->rt_wd_err_o, q, 1), ro->wd_err[p][v], s, p, v);
          cmp("switch ovf_err", getb(d->rt_ovf_err_o, q, 1), ro->ovf_err[p][v], s, p, v);
          cmp("switch rt_err", getb(d->rt_rt_err_o, q, 1), ro->rt_err[p][v], s, p, v);
        }
    }
#endif
    for (int i = 0; i < N; i++) {
      const mt_ni_out *no = mt_net_ni_out(n, i);
#if CFG_SWITCH
      // what the NI drives into its NI link (what it receives comes out of the down link)
      cmp("inj valid (NI -> link)", getb(d->inj_valid_o, (unsigned)i, 1), no->inj_valid[0], i, 0, -1);
      cmp_flit("inj flit (NI -> link)", d->inj_flit_o, (unsigned)i * FW, no->inj_flit[0], i, 0);
      for (int v = 0; v < NV; v++) cmp("ej credit (NI -> link)", getb(d->ej_credit_o, (unsigned)(i * NV + v), 1), no->ej_credit[0][v], i, 0, v);
#else
      const mt_router_out *ro = mt_net_router_out(n, i);
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
#endif
      cmp("NI busy", getb(d->busy_o, i, 1), no->busy, i, -1, -1);
      cmp("NI done", getb(d->done_o, i, 1), no->done, i, -1, -1);
      cmp("NI err", getb(d->err_o, i, 1), no->err, i, -1, -1);
      cmp("NI err_code", getb(d->err_code_o, 4 * i, 4), no->err_code, i, -1, -1);
      cmp("NI err_idx", getb(d->err_idx_o, 16 * i, 16), no->err_idx & 0xFFFF, i, -1, -1);
      cmp("NI idx", getb(d->idx_o, 16 * i, 16), no->idx & 0xFFFF, i, -1, -1);
      cmp("NI step", getb(d->step_o, 16 * i, 16), no->step, i, -1, -1);
      cmp("NI st", getb(d->st_o, 3 * i, 3), no->st, i, -1, -1);
      // every memory port (port q of node i at i*M + q; "port" in a mismatch is q)
      for (int mp = 0; mp < M; mp++) {
        const unsigned q = (unsigned)(i * M + mp);
        cmp("NI mem_req_valid", getb(d->mem_req_valid_o, q, 1), no->mem_req_valid[mp], i, mp, -1);
        if (no->mem_req_valid[mp]) {
          cmp("NI mem_req_we", getb(d->mem_req_we_o, q, 1), no->mem_req_we[mp], i, mp, -1);
          cmp("NI mem_req_addr", getb(d->mem_req_addr_o, 32 * q, 32), no->mem_req_addr[mp], i, mp, -1);
          cmp("NI mem_req_be", getb(d->mem_req_be_o, lanes * q, lanes), no->mem_req_be[mp], i, mp, -1);
          for (unsigned k = 0; k < lanes; k++)
            cmp("NI mem_req_wdata", getb(d->mem_req_wdata_o, PW * q + 32 * k, 32), no->mem_req_wdata[mp][k], i, mp, (int)k);
        }
      }
    }
  }
};

// ROM mode: DIR must hold `multitree rom --format hex` images of this run's schedule in this
// build's layout (a board's ROMs must fit its RTL), one readable node<i>.hex per node; the
// images themselves are not checked here (the RTL loads them as a board would; `multitree
// decode DIR` checks them). An empty string if fine, else what is wrong, naming the file.
static std::string check_rom(const char *dir, const Hw &hw, const Run &r, int n_flows, int N) {
  mt_topo t;
  mt_layout ly;
  mt_err e;
  int fmt = 0, depth = 0, steps = 0;
  char buf[1024];
  if (mt_rom_read_layout(dir, &t, &ly, &fmt, &depth, &steps, &e)) return e.msg;
  const bool grid = mt_topo_is_grid(&t) && (t.ndims == 2 || t.ndims == 3);
  const std::string tn = grid ? grid_name(t.kind == MT_TOPO_TORUS, t.dim[0], t.dim[1], t.ndims == 3 ? t.dim[2] : 1) : "other";
  mt_topo_free(&t);
  std::string lj = std::string(dir) + "/layout.json";
  if (fmt != MT_ROM_HEX) {
    snprintf(buf, sizeof buf, "%s: image format %s; the RTL loads $readmemh images (multitree rom --format hex)", lj.c_str(),
             mt_rom_format_name(fmt));
    return buf;
  }
  if (!grid || hw.topo != tn) {
    snprintf(buf, sizeof buf, "%s: topology %s, this build is %s", lj.c_str(), tn.c_str(), hw.topo.c_str());
    return buf;
  }
  if (ly.compact) return lj + ": compact layout; the RTL network is built for the full layout (multitree rom without --compact)";
  struct F {
    const char *name;
    int rom, build;
  } fs[] = {{"flow", ly.flow_w, hw.ly.flow_w}, {"step", ly.step_w, hw.ly.step_w}, {"node id", ly.id_w, hw.ly.id_w}, {"port", ly.port_w, hw.ly.port_w}, {"eject", ly.ej_w, hw.ly.ej_w}, {"addr", ly.addr_w, hw.ly.addr_w}, {"size", ly.size_w, hw.ly.size_w}, {"children", ly.children, hw.ly.children}, {"width", ly.width, CFG_ENTRYW}};
  for (const F &f : fs)
    if (f.rom != f.build) {
      snprintf(buf, sizeof buf, "%s: %s %s %d, this build's RTL has %d (a ROM of another schedule or size: build for it)", lj.c_str(),
               f.name, strcmp(f.name, "children") && strcmp(f.name, "width") ? "field width" : "=", f.rom, f.build);
      return buf;
    }
  if (depth > CFG_DEPTH) {
    snprintf(buf, sizeof buf, "%s: depth %d words, this build's table holds %d", lj.c_str(), depth, CFG_DEPTH);
    return buf;
  }
  if (ly.bytes != r.bytes || ly.n_flows != n_flows) {
    snprintf(buf, sizeof buf, "%s: %llu bytes in %d flows, but the run is %llu bytes in %d flows", lj.c_str(), (unsigned long long)ly.bytes,
             ly.n_flows, (unsigned long long)r.bytes, n_flows);
    return buf;
  }
  for (int i = 0; i < N; i++) {
    snprintf(buf, sizeof buf, "%s/node%d.hex", dir, i);
    FILE *f = fopen(buf, "r");
    if (!f) return std::string(buf) + ": cannot open: " + strerror(errno) + " (one $readmemh image per node)";
    fclose(f);
  }
  return "";
}

static void usage() {
  fprintf(stderr,
          "usage: cosim_net (--case NAME | --algo A --bytes N) [--dtype int32|fp32] [--flow message|packet] [--seed S]\n"
          "                 [--mem-ready P] [--mem-lat L] [--wd-limit W] [--max-cycles N] [--name NAME] [--fst FILE]\n"
          "                 [--perturb-router K | --perturb-ni K | --perturb-set KEY=VALUE] [--progress] [--rtl-only] [--rom DIR] [--fst-nodes I,J,..]\n"
          "                 [--runs N [--run-algos A,B,..] [--perturb-b2b 1|2]] | --shape\n"
          "  --runs N: N all-reduces back to back without a reset (seeds S, S+1, ...; --run-algos: each run's algorithm, a new one's\n"
          "    tables written while idle), each compared cycle by cycle and checked.\n"
          "  --shape prints this build's hardware shape.\n"
          "  --rtl-only runs the RTL alone (no lockstep comparison), then the C model alone: cycle counts and buffers compared at the end.\n"
          "  --rom DIR runs the RTL alone with every table loaded by $readmemh from DIR/node<i>.hex (no C model; buffers against mt_ref_result).\n");
}

int main(int argc, char **argv) {
  const char *cname = nullptr, *fst = nullptr, *rom = nullptr, *fst_nodes = nullptr;
  unsigned prt = 0, pni = 0;
  const char *pset = nullptr;   // --perturb-set KEY=VALUE: the C model's configuration only (e.g. link_period1=3)
  int proute[3] = {-1, -1, -1}; // --perturb-route S,D,P: switch S sends node D's units to port P (C model only)
  bool progress = false, case_opts = false, need_nop = false, rtl_only = false;
  int runs = 1;                       // --runs N: consecutive all-reduces without a reset
  unsigned pb2b = 0;                  // --perturb-b2b K: the RTL of later runs not started (1) or its tables not written (2)
  std::vector<std::string> run_algos; // --run-algos A,B,...: each run's algorithm (default: --algo's)
  Run r;
  const Hw hw = build_hw();
  for (int i = 1; i < argc; i++) {
    int k = run_opt(r, argc, argv, i);
    if (k < 0) {
      fprintf(stderr, "cosim_net: bad value for %s\n", argv[i]);
      return 2;
    }
    if (k > 0) {
      case_opts = true;
      continue;
    }
    if (!strcmp(argv[i], "--case") && i + 1 < argc) cname = argv[++i];
    else if (!strcmp(argv[i], "--fst") && i + 1 < argc) fst = argv[++i];
    else if (!strcmp(argv[i], "--fst-nodes") && i + 1 < argc) fst_nodes = argv[++i];
    else if (!strcmp(argv[i], "--rom") && i + 1 < argc) rom = argv[++i];
    else if ((!strcmp(argv[i], "--perturb-router") || !strcmp(argv[i], "--perturb-ni")) && i + 1 < argc) {
      char *end = nullptr;
      unsigned long k = strtoul(argv[i + 1], &end, 10);
      if (!*argv[i + 1] || *end || k < 1 || k > 9) {
        fprintf(stderr, "cosim_net: %s %s: expected a perturbation number (router 1 or 2, NI 1)\n", argv[i], argv[i + 1]);
        return 2;
      }
      (argv[i][10] == 'r' ? prt : pni) = (unsigned)k;
      i++;
    } else if (!strcmp(argv[i], "--perturb-route") && i + 1 < argc) {
      if (sscanf(argv[++i], "%d,%d,%d", &proute[0], &proute[1], &proute[2]) != 3 || proute[0] < 0 || proute[1] < 0 || proute[2] < 0 ||
          proute[2] > 15 || !CFG_SWITCH) {
        fprintf(stderr, "cosim_net: --perturb-route %s: expected S,D,P (switch, destination node, port 0..15) on a switch network build\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--perturb-set") && i + 1 < argc) {
      pset = argv[++i];
    } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
      char *end = nullptr;
      const unsigned long k = strtoul(argv[++i], &end, 10);
      if (!*argv[i] || *end || k < 1 || k > 16) {
        fprintf(stderr, "cosim_net: --runs %s: expected 1..16 consecutive all-reduces\n", argv[i]);
        return 2;
      }
      runs = (int)k;
    } else if (!strcmp(argv[i], "--perturb-b2b") && i + 1 < argc) {
      pb2b = (unsigned)(argv[++i][0] - '0');
      if (argv[i][1] || (pb2b != 1 && pb2b != 2)) {
        fprintf(stderr, "cosim_net: --perturb-b2b %s: 1 (later runs' start not given to the RTL) or 2 (their table writes not given to it)\n", argv[i]);
        return 2;
      }
    } else if (!strcmp(argv[i], "--run-algos") && i + 1 < argc) {
      run_algos.clear();
      for (const char *q = argv[++i]; *q;) {
        const char *z = strchr(q, ',');
        run_algos.emplace_back(q, z ? (size_t)(z - q) : strlen(q));
        q = z ? z + 1 : q + strlen(q);
      }
    } else if (!strcmp(argv[i], "--progress")) progress = true;
    else if (!strcmp(argv[i], "--rtl-only")) rtl_only = true;
    else if (!strcmp(argv[i], "--shape")) {
      printf("%s num_vcs=%u vc_depth=%u ej_depth=%u link_lat=%u subpkt_flits=%u pkt_bytes=%u ni_sq=%u ni_rq=%u ni_alu_pipe=%u depth=%d max_flows=%d "
             "flow_w=%d step_w=%d id_w=%d port_w=%d ej_w=%d addr_w=%d size_w=%d children=%d entry_w=%d\n",
             hw.topo.c_str(), hw.cfg.num_vcs, hw.cfg.vc_depth, hw.cfg.ej_depth, hw.cfg.link_lat, hw.cfg.subpkt_flits, hw.cfg.pkt_bytes,
             hw.cfg.ni_sq, hw.cfg.ni_rq, hw.cfg.ni_alu_pipe, hw.depth, hw.max_flows, hw.ly.flow_w, hw.ly.step_w, hw.ly.id_w, hw.ly.port_w, hw.ly.ej_w,
             hw.ly.addr_w, hw.ly.size_w, hw.ly.children, hw.ly.width);
      return 0;
    } else {
      usage();
      return 2;
    }
  }
  // the perturbations the C model has (mt_router.h, mt_ni.h); any other K would run the exact
  // model and be reported as "NOT caught" for the wrong reason
  if (prt > 2 || pni > 2 || (pni == 2 && !CFG_STAGE)) {
    fprintf(stderr, "cosim_net: --perturb-router %u / --perturb-ni %u: the C model has router 1 (credit pulses leave a cycle late), "
                    "router 2 (incoming credits counted a cycle late), NI 1 (lockstep estimate a cycle long) and, in a build with "
                    "the stager, NI 2 (staged units replayed before they are due)\n",
            prt, pni);
    return 2;
  }
  if (cname) {
    const Case *cp = find_case(cname);
    if (!cp) {
      fprintf(stderr, "cosim_net: unknown case %s\n", cname);
      return 2;
    }
    // the case's settings, then any run option given overrides them
    r = Run();
    run_from_case(r, *cp);
    need_nop = cp->nop != 0;
    for (int i = 1; i < argc && case_opts; i++) (void)run_opt(r, argc, argv, i);
  } else if (r.algo.empty() || !r.bytes) {
    usage();
    return 2;
  }
  if (r.name.empty()) {
    char nm[160];
    snprintf(nm, sizeof nm, "%s_%s_%llu_%s_%s_s%u", hw.topo.c_str(), r.algo.c_str(), (unsigned long long)r.bytes,
             r.pkt ? "pkt" : "msg", r.dtype == MT_DTYPE_FP32 ? "f32" : "i32", r.seed);
    for (char *c = nm; *c; c++)
      if (*c == ':') *c = '_';
    r.name = nm;
  }
  const bool perturbed = prt || pni || proute[0] >= 0 || pset;
  if (run_algos.empty()) run_algos.assign((size_t)runs, r.algo);
  if ((int)run_algos.size() != runs || run_algos[0] != r.algo) {
    fprintf(stderr, "cosim_net: --run-algos: one algorithm per run (--runs %d), the first the run's (%s)\n", runs, r.algo.c_str());
    return 2;
  }
  if (runs > 1 && (perturbed || rtl_only || rom)) {
    fprintf(stderr, "cosim_net: --runs co-simulates consecutive all-reduces in lockstep; not with --rtl-only, --rom or a perturbation\n");
    return 2;
  }
  if (pb2b && runs < 2) {
    fprintf(stderr, "cosim_net: --perturb-b2b perturbs the runs after the first: give --runs 2 or more\n");
    return 2;
  }
  if (rom && CFG_SWITCH) {
    fprintf(stderr, "cosim_net: --rom: ROM mode is the grid network's (mt_net_top); this is a switch network build\n");
    return 2;
  }
  if (rom && (perturbed || cname)) {
    fprintf(stderr, "cosim_net: --rom runs the RTL alone; it takes --algo/--bytes (the ROM's schedule), not --case or a perturbation\n");
    return 2;
  }
  if (fst_nodes && !fst) {
    fprintf(stderr, "cosim_net: --fst-nodes needs --fst FILE\n");
    return 2;
  }
  if (rom) rtl_only = true;
  char rname[224];
  snprintf(rname, sizeof rname, "%s_%s%s", rom ? "rtl_sim" : "cosim_net", r.name.c_str(),
           prt ? "_perturb_router" : pni ? "_perturb_ni"
             : proute[0] >= 0            ? "_perturb_route"
             : pset                      ? "_perturb_set"
             : pb2b                      ? "_perturb_b2b"
                                         : "");
  const char *nm = r.name.c_str();
  unsigned long pass = 0, fail = 0;
  mt_err e;
  Planned p;
  mt_net_cfg cfg;
  Cosim cs;
  Hw hwc = hw; // the C model's hardware: the build's, or perturbed by --perturb-set
  if (pset && mt_net_cfg_set(&hwc.cfg, pset, &e)) {
    fprintf(stderr, "cosim_net: --perturb-set %s: %s\n", pset, e.msg);
    return 2;
  }
  cs.n = make_net(hwc, r, p, cfg, &e);
  if (!cs.n) {
    printf("%s: does not run on this build: %s\nRESULT %s pass=0 fail=1\n", nm, e.msg, rname);
    unplan(p);
    return 0;
  }
  if (mt_net_start(cs.n, r.seed, &e)) {
    printf("%s: %s\nRESULT %s pass=0 fail=1\n", nm, e.msg, rname);
    return 0;
  }
  if (mt_net_layout(cs.n)->width != CFG_ENTRYW || mt_net_mem_ports(cs.n) != CFG_MEMPORTS) {
    printf("%s: internal: layout of %d bits (build %d), %u memory ports\nRESULT %s pass=0 fail=1\n", nm, mt_net_layout(cs.n)->width,
           CFG_ENTRYW, mt_net_mem_ports(cs.n), rname);
    return 0;
  }
  if (prt || pni) mt_net_set_perturb(cs.n, prt, pni);
  if (proute[0] >= 0 && mt_net_set_route(cs.n, proute[0], proute[1], MT_RT_TAB(proute[2], 1), &e)) {
    printf("%s: --perturb-route: %s\nRESULT %s pass=0 fail=1\n", nm, e.msg, rname);
    return 0;
  }
  int nops = 0;
  for (int k = 0; k < p.tb.n_entries; k++) nops += p.tb.entries[k].op == MT_OP_NOP;
  mt_net *n = cs.n;
  const int N = mt_net_nodes(n);
  cs.N = N;
  cs.NV = (int)cfg.num_vcs;
  cs.L = CFG_SWITCH ? 1 : cfg.local_ports ? (int)cfg.local_ports
                                          : 4;
  cs.ND = CFG_NZ > 1 ? 6 : 4; // a switch network's taps: 4 (rtl/mt_swnet_top.sv)
  cs.NP = cs.ND + cs.L;
  // a switch network: the route tables of the RTL's switches, made from the build's topology
  // as the C model makes its own (mt_switch_build), so that a perturbed C table differs
  mt_switch_net swn;
  memset(&swn, 0, sizeof swn);
#if CFG_SWITCH
  if (mt_switch_build(&swn, &p.t, cfg.num_vcs, &e) || swn.n_sw != CFG_NSW || swn.nl != CFG_NLINKS) {
    printf("%s: switches: %s\nRESULT %s pass=0 fail=1\n", nm, swn.n_sw ? "not this build's switches" : e.msg, rname);
    return 0;
  }
  for (int s = 0; s < swn.n_sw; s++) cs.swnp.push_back(swn.nnet[s] + swn.nloc[s]);
#endif
  cs.M = CFG_MEMPORTS;
  cs.PW = cfg.payload_w;
  cs.FW = mt_flit_bits(cfg.payload_w, cfg.num_vcs);
  cs.lanes = cfg.payload_w / 32;
  cs.conn.assign((size_t)N * cs.ND, 0);
  for (int k = 0; k < mt_net_num_links(n) && !CFG_SWITCH; k++) {
    int s, sp, dn, dp;
    mt_net_link_ends(n, k, &s, &sp, &dn, &dp);
    cs.conn[(size_t)(dn * cs.ND + dp)] = 1;
  }
  const uint64_t nw = p.s.bytes / 4;
  // the stager's area after the buffer: a slot of the buffer's size per child slot (mt_net_new)
  const uint64_t sw_words = CFG_STAGE ? nw * (uint64_t)CFG_CHILDREN : 0;
  // the RTL's memories: exactly as mt_net_new / mt_net_start make the C model's
  cs.mem.resize((size_t)N);
  for (int i = 0; i < N; i++) {
    if (mt_mem_init_mp(&cs.mem[i], nw + sw_words, cfg.payload_w / 32, mt_net_mem_ports(n), cfg.mem_p_ready, cfg.mem_lat_max, 0x51ED + (uint32_t)i * 7919u, &e)) {
      printf("%s\nRESULT %s pass=0 fail=1\n", e.msg, rname);
      return 0;
    }
    memcpy(cs.mem[i].w, mt_net_input(n, i), nw * 4);
  }
  if (rom) {
    const std::string why = check_rom(rom, hw, r, p.s.n_flows, N);
    if (!why.empty()) {
      printf("rom: %s\nRESULT %s pass=0 fail=1\n", why.c_str(), rname);
      return 1;
    }
    printf("rom: %s/node0.hex .. node%d.hex, loaded by $readmemh in reset (no table writes)\n", rom, N - 1);
  }
  cs.ctx.reset(new VerilatedContext);
  // the RTL's mt_node reads the plusarg +mt_rom_dir=DIR (rtl/mt_node.sv): ROM mode with it;
  // Verilator aborts a $value$plusargs without commandArgs, so every run sets them
  const std::string plus = std::string("+mt_rom_dir=") + (rom ? rom : "");
  const char *pa[] = {argv[0], plus.c_str()};
  cs.ctx->commandArgs(rom ? 2 : 1, pa);
#if VM_TRACE
  if (fst) cs.ctx->traceEverOn(true);
#else
  if (fst) {
    printf("--fst needs a build with --trace-fst (make cosim-net NET_FST=1)\nRESULT %s pass=0 fail=1\n", rname);
    return 0;
  }
#endif
  cs.d.reset(new Vtop(cs.ctx.get()));
  Vtop *d = cs.d.get();
#if VM_TRACE
  if (fst) {
    cs.tr.reset(new VerilatedFstC);
    // --fst-nodes: only these nodes' signals (Verilator matches scope-name prefixes)
    for (const char *q = fst_nodes; q && *q;) {
      char *end = nullptr;
      const long k = strtol(q, &end, 10);
      if (end == q || k < 0 || k >= N || (*end && *end != ',')) {
        printf("--fst-nodes %s: expected node numbers 0..%d separated by commas\nRESULT %s pass=0 fail=1\n", fst_nodes, N - 1, rname);
        return 2;
      }
      char sc[64];
      snprintf(sc, sizeof sc, "TOP.mt_net_top.g_node[%ld]", k);
      cs.tr->dumpvars(99, sc);
      q = *end ? end + 1 : end;
    }
    // a hierarchical build creates its nodes' libraries at the first eval(); tracing them
    // before that dereferences a null model (Verilator 5.006), so evaluate once first (no edge)
    d->eval();
    d->trace(cs.tr.get(), 99);
    cs.tr->open(fst);
  }
#endif
  // static configuration (the C model's per-node NI configuration and router watchdog); again
  // after a table load of a later run (--runs), while every NI is idle
  auto set_cfg = [&]() {
    const uint32_t rwd = mt_net_router_wd_limit(n);
    for (int i = 0; i < (CFG_SWITCH ? CFG_NSW : N); i++) setb(d->rt_wd_limit_i, 31 * i, 31, rwd);
    for (int i = 0; i < N; i++) {
      const mt_ni_in *cf = mt_net_ni_cfg(n, i);
      setb(d->dtype_i, i, 1, cf->dtype);
      setb(d->pkt_mode_i, i, 1, cf->pkt_mode);
      setb(d->nflows_i, 12 * i, 12, cf->nflows);
      setb(d->base_units_i, 32 * i, 32, cf->base_units);
      setb(d->rem_units_i, 32 * i, 32, cf->rem_units);
      setb(d->elem_i, 32 * i, 32, cf->elem);
      setb(d->nop_bytes_i, 32 * i, 32, cf->nop_bytes);
      setb(d->ni_wd_limit_i, 32 * i, 32, cf->wd_limit);
      setb(d->stage_base_i, 32 * i, 32, cf->stage_base);
      setb(d->stage_slot_i, 32 * i, 32, cf->stage_slot);
      for (int k = 0; k < 16; k++) {
        setb(d->nbr_tx_i, 192 * i + 12 * k, 12, cf->nbr_tx[k]);
        setb(d->nbr_rx_i, 192 * i + 12 * k, 12, cf->nbr_rx[k]);
      }
      if (cf->node_id != i) {
        printf("node id %d != %d\n", cf->node_id, i);
        fail++;
      }
    }
  };
  set_cfg();
  d->start_i = 0;
  d->tbl_we_i = 0;
  for (int q = 0; q < cs.N * cs.M; q++) { // N*M bits: a word or a VlWide
    setb(d->mem_req_ready_i, (unsigned)q, 1, 0);
    setb(d->mem_rsp_valid_i, (unsigned)q, 1, 0);
  }
  // reset, load the tables through the write ports (all Depth words of the build), reset again
  auto reset = [&]() { d->rst_ni = 0; cs.tick_half(0); cs.tick_half(1); cs.tick_half(0); d->rst_ni = 1; cs.tick_half(0); };
  reset();
  const mt_layout *ly = mt_net_layout(n);
  if (!rom) {
    const int depth = CFG_DEPTH, TIW = depth > 1 ? (int)mt_clog2((unsigned)depth) : 1;
    const int tw = mt_layout_words(ly);
    std::vector<uint64_t> img((size_t)N * depth * tw);
    for (int i = 0; i < N; i++) mt_layout_node_image(ly, &p.tb, i, depth, tw, &img[(size_t)i * depth * tw]);
    for (int k = 0; k < depth; k++) {
      for (int i = 0; i < N; i++) {
        const uint64_t *word = &img[((size_t)i * depth + k) * tw];
        setb(d->tbl_we_i, i, 1, 1);
        setb(d->tbl_waddr_i, TIW * i, TIW, (uint32_t)k);
        for (int b = 0; b < ly->width; b += 32) {
          int m = ly->width - b < 32 ? ly->width - b : 32;
          setb(d->tbl_wdata_i, CFG_ENTRYW * i + b, m, (uint32_t)(word[b / 64] >> (b % 64)));
        }
      }
      cs.tick_half(0);
      cs.tick_half(1);
      cs.tick_half(0);
    }
    d->tbl_we_i = 0;
#if CFG_SWITCH
    // every switch's route table, entry a of every switch in one cycle (no reset clears them)
    for (int a = 0; a < N; a++) {
      setb(d->sw_tab_addr_i, 0, 12, (uint32_t)a);
      for (int s = 0; s < swn.n_sw; s++) {
        setb(d->sw_tab_we_i, (unsigned)s, 1, 1);
        setb(d->sw_tab_data_i, 16 * (unsigned)s, 16, swn.tab[(size_t)s * (size_t)N + (size_t)a]);
      }
      cs.tick_half(0);
      cs.tick_half(1);
      cs.tick_half(0);
    }
    for (int s = 0; s < swn.n_sw; s++) setb(d->sw_tab_we_i, (unsigned)s, 1, 0);
#endif
    reset();
  }
  // lockstep, run by run: with --runs the next all-reduce starts without a reset once every NI
  // is done (docs/reference/network.md "Back-to-back all-reduces"), its inputs loaded into the
  // memories of both models while idle; a run of another algorithm first writes its tables
  // through the NIs' table write ports, the same word in the same cycle in both (mt_net_load)
  bool all_done = false, any_err = false;
  uint32_t rsp[MT_MEM_MAX_LANES];
  const int M = cs.M, lanes = (int)cs.lanes;
  std::vector<uint8_t> rv((size_t)N * M), rwe((size_t)N * M);
  std::vector<uint32_t> raddr((size_t)N * M), rbe((size_t)N * M), rwdata((size_t)N * M * MT_MEM_MAX_LANES);
  std::vector<uint8_t> rsp_set((size_t)N * M, 1); // port q's response lanes may be nonzero (all at first)
  // Two evaluations per cycle: the inputs of the cycle together with the clock's falling half
  // (the model's outputs are registered, so the values read before the edge are those of the
  // whole cycle), then the rising edge. Verilator evaluates the logic fed by top-level inputs
  // at every eval() (its "ico" region), so a third evaluation per cycle cost time for nothing.
  std::vector<Planned> pl((size_t)runs); // the schedules loaded for later runs
  Planned *cur = &p;
  std::vector<uint64_t> limg; // a load's table images, node by node
  const int TIW = CFG_DEPTH > 1 ? (int)mt_clog2((unsigned)CFG_DEPTH) : 1, ltw = mt_layout_words(ly);
  uint64_t c_cycles = 0;
  for (int run = 0; run < runs; run++) {
    const uint32_t seed = r.seed + (uint32_t)run;
    uint64_t wcy = 0; // cycles of table writes before the start
    if (run > 0) {
      const std::string &algo = run_algos[(size_t)run];
      if (algo != run_algos[(size_t)run - 1]) {
        if (!plan(pl[(size_t)run], hw.topo.c_str(), algo.c_str(), r.bytes, &e) || mt_net_load(n, &pl[(size_t)run].s, &pl[(size_t)run].tb, &e)) {
          printf("run %d of %d: %s: %s\n", run + 1, runs, algo.c_str(), e.msg);
          fail++;
          break;
        }
        cur = &pl[(size_t)run];
        limg.assign((size_t)N * CFG_DEPTH * ltw, 0);
        for (int i = 0; i < N; i++) mt_layout_node_image(ly, &cur->tb, i, CFG_DEPTH, ltw, &limg[(size_t)i * CFG_DEPTH * ltw]);
        wcy = CFG_DEPTH;
        set_cfg();
      }
      if (mt_net_start(n, seed, &e)) {
        printf("run %d of %d: %s\n", run + 1, runs, e.msg);
        fail++;
        break;
      }
      for (int i = 0; i < N; i++) memcpy(cs.mem[i].w, mt_net_input(n, i), cur->s.bytes);
    }
    const uint64_t nwr = cur->s.bytes / 4;
    cs.cycles = cs.link_flits = cs.transit_heads = 0; // this run's (the comparisons: all runs')
    cs.t_rtl = cs.t_c = cs.t_cmp = 0;
    const double t0 = mt_now();
    double tlast = t0;
    while (!cs.mism && (cs.cycles < wcy || cs.cycles - wcy < r.max_cycles)) {
      const bool start = cs.cycles == wcy, tw = cs.cycles < wcy;
      double ta = mt_now();
      if (wcy && cs.cycles <= wcy) { // table word k of every node in cycle k, the write enables off after the last
        for (int i = 0; i < N; i++) {
          setb(d->tbl_we_i, i, 1, tw && pb2b != 2);
          if (!tw) continue;
          const uint64_t *word = &limg[((size_t)i * CFG_DEPTH + cs.cycles) * ltw];
          setb(d->tbl_waddr_i, TIW * i, TIW, (uint32_t)cs.cycles);
          for (int b = 0; b < ly->width; b += 32) setb(d->tbl_wdata_i, CFG_ENTRYW * i + b, ly->width - b < 32 ? ly->width - b : 32, (uint32_t)(word[b / 64] >> (b % 64)));
        }
      }
      for (int i = 0; i < N; i++) {
        for (int mp = 0; mp < M; mp++) {
          const unsigned q = (unsigned)(i * M + mp);
          // mt_mem_comb_port for a port with a response queued (rspm), else ready alone
          uint8_t rdy = cs.mem[i].ready[mp], vld = 0;
          if (cs.mem[i].rspm >> mp & 1u) mt_mem_comb_port(&cs.mem[i], (unsigned)mp, &rdy, &vld, rsp);
          setb(d->mem_req_ready_i, q, 1, rdy);
          setb(d->mem_rsp_valid_i, q, 1, vld);
          // the data lanes: the response's, zero without one (written only when they change:
          // a port's lanes are nonzero only after a response, rsp_set)
          if (vld || rsp_set[q]) {
            if (!vld) memset(rsp, 0, sizeof rsp);
            for (int k = 0; k < lanes; k++) setb(d->mem_rsp_data_i, cs.PW * q + 32 * (unsigned)k, 32, rsp[k]);
            rsp_set[q] = vld;
          }
        }
        setb(d->start_i, i, 1, start && !(pb2b == 1 && run > 0));
      }
      cs.tick_half(0);
      // the NIs' registered requests during this cycle; mt_mem_edge_mp reads the other fields
      // of a port only when it presents a request
      for (int q = 0; q < N * M; q++) {
        rv[(size_t)q] = (uint8_t)getb(d->mem_req_valid_o, (unsigned)q, 1);
        if (!rv[(size_t)q]) continue;
        rwe[(size_t)q] = (uint8_t)getb(d->mem_req_we_o, (unsigned)q, 1);
        raddr[(size_t)q] = getb(d->mem_req_addr_o, 32 * (unsigned)q, 32);
        rbe[(size_t)q] = getb(d->mem_req_be_o, cs.lanes * (unsigned)q, cs.lanes);
        for (int k = 0; k < lanes; k++)
          rwdata[(size_t)q * MT_MEM_MAX_LANES + (size_t)k] = getb(d->mem_req_wdata_o, cs.PW * (unsigned)q + 32 * (unsigned)k, 32);
      }
      double tb = mt_now(), tc = tb, td = tb;
      if (!rtl_only) {
        mt_net_step(n);
        tc = mt_now();
        cs.compare_links();
        td = mt_now();
      }
      cs.tick_half(1);
      for (int i = 0; i < N; i++) {
        const size_t q = (size_t)i * M;
        mt_mem_edge_mp(&cs.mem[i], &rv[q], &rwe[q], &raddr[q], &rbe[q], &rwdata[q * MT_MEM_MAX_LANES], MT_MEM_MAX_LANES);
      }
      double te = mt_now(), tf = te;
      if (!rtl_only) {
        cs.compare_outputs();
        tf = mt_now();
      }
      cs.t_rtl += (tb - ta) + (te - td);
      cs.t_c += tc - tb;
      cs.t_cmp += (td - tc) + (tf - te);
      cs.cycles++;
      all_done = true;
      any_err = false;
      for (int i = 0; i < N; i++) {
        if (rtl_only) {
          all_done &= getb(d->done_o, i, 1) != 0;
          any_err |= getb(d->err_o, i, 1) != 0;
        } else {
          all_done &= mt_net_ni_out(n, i)->done != 0;
          any_err |= mt_net_ni_out(n, i)->err != 0;
        }
      }
      if (cs.cycles > wcy && (all_done || any_err)) break;
      if (progress && (cs.cycles & 0x3FF) == 0 && tf - tlast > 30.0) {
        fprintf(stderr, "cosim_net %s: cycle %llu, %.0f s\n", nm, (unsigned long long)cs.cycles, tf - t0);
        tlast = tf;
      }
    }
    const double wall = mt_now() - t0;
    cs.cycles -= wcy; // the all-reduce's cycles, from its start
    if (runs > 1)
      printf("run %d of %d: %s seed %u%s, started at cycle %llu: %llu cycles\n", run + 1, runs, cur->s.algo, seed,
             wcy ? ", its tables written while idle" : "", (unsigned long long)(mt_net_cycle(n) - cs.cycles), (unsigned long long)cs.cycles);
    // --rtl-only: the C model runs alone afterwards; its cycle count must be the RTL's
    if (rtl_only && !rom) {
      const bool rtl_done = all_done;
      const double tc0 = mt_now();
      all_done = false;
      while (!all_done && c_cycles < r.max_cycles) {
        mt_net_step(n);
        c_cycles++;
        all_done = true;
        bool err = false;
        for (int i = 0; i < N; i++) {
          all_done &= mt_net_ni_out(n, i)->done != 0;
          err |= mt_net_ni_out(n, i)->err != 0;
        }
        if (err) break;
      }
      cs.t_c = mt_now() - tc0;
      all_done = all_done && rtl_done;
    }
    if (rom) {
      printf("run %s: %s %s %llu bytes %s %s, seed %u, memory ready %u%% latency 1..%u: %llu cycles, RTL alone, tables from ROM images\n", nm,
             hw.topo.c_str(), r.algo.c_str(), (unsigned long long)r.bytes, r.dtype == MT_DTYPE_FP32 ? "fp32" : "int32",
             r.pkt ? "packets" : "messages", r.seed, cfg.mem_p_ready, cfg.mem_lat_max, (unsigned long long)cs.cycles);
      printf("speed: %llu cycles in %.2f s wall (%.0f cycles/s, the Verilated model and its memories)\n", (unsigned long long)cs.cycles, wall,
             cs.cycles / (wall > 0 ? wall : 1e-9));
    } else {
      printf("case %s: %s %s %llu bytes %s %s, seed %u, memory ready %u%% latency 1..%u%s: %llu cycles co-simulated, %llu comparisons, %s\n",
             nm, hw.topo.c_str(), cur->s.algo, (unsigned long long)r.bytes, r.dtype == MT_DTYPE_FP32 ? "fp32" : "int32",
             r.pkt ? "packets" : "messages", seed, cfg.mem_p_ready, cfg.mem_lat_max,
             prt ? " (C routers perturbed)" : pni ? " (C NIs perturbed)"
                                                  : "",
             (unsigned long long)cs.cycles, (unsigned long long)cs.checks,
             rtl_only ? "RTL alone (no lockstep comparison)" : cs.mism ? "MISMATCH"
                                                                       : "no mismatch");
      if (run == 0) printf("schedule: %d entries, %d of them NOP (lockstep waits)\n", p.tb.n_entries, nops);
      printf("links: %d directed, %llu flits carried, %llu packet heads passed through a node on a multi-hop route\n", mt_net_num_links(n),
             (unsigned long long)cs.link_flits, (unsigned long long)cs.transit_heads);
      printf("speed: %llu cycles in %.2f s wall (%.0f %s cycles/s); Verilator %.2f s = %.0f cycles/s, C model %.2f s = %.0f cycles/s, "
             "comparisons %.2f s\n",
             (unsigned long long)cs.cycles, wall, cs.cycles / (wall > 0 ? wall : 1e-9), rtl_only ? "RTL-alone" : "co-simulated", cs.t_rtl,
             cs.cycles / (cs.t_rtl > 0 ? cs.t_rtl : 1e-9), cs.t_c, (rtl_only ? c_cycles : cs.cycles) / (cs.t_c > 0 ? cs.t_c : 1e-9), cs.t_cmp);
    }
    if (rom) printf("cycles: RTL %llu (ROM mode: no C model here; scripts/rtl_sim.sh compares with multitree sim)\n", (unsigned long long)cs.cycles);
    else if (rtl_only) {
      printf("cycles: RTL %llu, C model alone %llu, %s\n", (unsigned long long)cs.cycles, (unsigned long long)c_cycles,
             cs.cycles == c_cycles ? "equal" : "DIFFERENT");
      if (!perturbed) {
        if (cs.cycles == c_cycles) pass++;
        else fail++;
      }
    }
    const unsigned long pass0 = pass, fail0 = fail; // --perturb-b2b counts only whether it was caught
    if (perturbed) {
      // the perturbed C model must be caught (a mismatch, or, RTL alone, the cycle counts differ)
      if (cs.mism || (rtl_only && cs.cycles != c_cycles)) {
        pass++;
        printf("perturbed model caught\n");
      } else {
        fail++;
        printf("perturbed model NOT caught\n");
      }
    } else {
      if (!rtl_only) {
        if (cs.mism) fail++;
        else pass++;
      }
      if (!all_done) {
        fail++;
        int en = -1;
        for (int i = 0; i < N && en < 0; i++)
          if (rom ? getb(d->err_o, i, 1) : mt_net_ni_out(n, i)->err) en = i;
        if (en >= 0 && rom)
          printf("the all-reduce did not finish (RTL NI error: node %d error %u \"%s\" at table entry %u, cycle %llu)\n", en,
                 getb(d->err_code_o, 4 * en, 4), mt_ni_err_name((int)getb(d->err_code_o, 4 * en, 4)), getb(d->err_idx_o, 16 * en, 16),
                 (unsigned long long)cs.cycles);
        else if (en >= 0) printf("the all-reduce did not finish (NI error: node %d %s)\n", en, mt_ni_err_name(mt_net_ni_out(n, en)->err_code));
        else printf("the all-reduce did not finish (%s)\n", cs.mism ? "stopped at the mismatch" : "cycle limit");
      } else pass++;
      // buffers: RTL vs C model, and both against the reference
      std::vector<uint32_t> ref(nwr + 1);
      std::vector<uint32_t *> in((size_t)N);
      for (int i = 0; i < N; i++) in[i] = const_cast<uint32_t *>(mt_net_input(n, i));
      if (mt_ref_result(&cur->s, &cur->tb, r.dtype, in.data(), ref.data(), &e)) {
        printf("reference: %s\n", e.msg);
        fail++;
      } else {
        uint64_t bad_rc = 0, bad_ref = 0;
        for (int i = 0; i < N; i++)
          for (uint64_t k = 0; k < nwr; k++) {
            const uint32_t rr = cs.mem[i].w[k], m = rom ? rr : mt_net_buffer(n, i)[k];
            if (rr != m && bad_rc++ < 3) printf("buffer node %d word %llu: rtl 0x%08x c 0x%08x\n", i, (unsigned long long)k, rr, m);
            if (rr != ref[k] && bad_ref++ < 3) printf("buffer node %d word %llu: rtl 0x%08x reference 0x%08x\n", i, (unsigned long long)k, rr, ref[k]);
          }
        for (int i = 0; i < N; i++)
          if (cs.mem[i].errors) {
            printf("node %d: RTL memory port errors %llu\n", i, (unsigned long long)cs.mem[i].errors);
            bad_rc++;
          }
        if (rom)
          printf("buffers: %d nodes x %llu words = %llu words checked against mt_ref_result, %llu differ\n", N, (unsigned long long)nwr,
                 (unsigned long long)(N * nwr), (unsigned long long)bad_ref);
        else
          printf("buffers: %d nodes x %llu words, %llu differ between RTL and C, %llu from mt_ref_result\n", N, (unsigned long long)nwr,
                 (unsigned long long)bad_rc, (unsigned long long)bad_ref);
        if (CFG_STAGE && !rom) {
          // the stager: what the C model's NIs did, and the staging areas (RTL vs C)
          uint64_t so, sr, sbad = 0;
          int sn;
          unsigned sp;
          mt_net_stage_stats(n, &so, &sr, &sn, &sp);
          for (int i = 0; i < N; i++)
            for (uint64_t k = nw; k < nw + sw_words; k++) sbad += cs.mem[i].w[k] != mt_net_buffer(n, i)[k];
          printf("stager (ni_stage_after=%u): %llu units staged out at %d nodes, %llu replays, at most %u of %u ranges at one NI; "
                 "staging areas: %d nodes x %llu words, %llu differ between RTL and C\n",
                 CFG_STAGE, (unsigned long long)so, sn, (unsigned long long)sr, sp, CFG_STAGE_RANGES, N, (unsigned long long)sw_words,
                 (unsigned long long)sbad);
          if (sbad) bad_rc++;
        }
        if (rom && bad_rc) fail++; // memory port errors only
        else if (!rom) {
          if (bad_rc) fail++;
          else pass++;
        }
        if (bad_ref) fail++;
        else pass++;
      }
    }
    if (pb2b) pass = pass0, fail = fail0;
    if (cs.mism || !all_done) break; // no further run after a failure
  }
  if (pb2b) { // the perturbed later runs must be caught
    printf("perturbed RTL inputs (%s) %s\n", pb2b == 1 ? "later starts" : "later table writes", cs.mism ? "caught" : "NOT caught");
    if (cs.mism) pass++;
    else fail++;
  }
#if VM_TRACE
  if (cs.tr) cs.tr->close();
#endif
  if (need_nop) {
    // a case kept for its NOP entries proves nothing about the lockstep count without them
    if (nops) pass++;
    else {
      fail++;
      printf("case %s needs NOP entries, the schedule has none\n", nm);
    }
  }
  for (int i = 0; i < N; i++) mt_mem_free(&cs.mem[i]);
  mt_switch_free(&swn);
  mt_net_free(n);
  cs.d.reset();
  unplan(p);
  printf("RESULT %s pass=%lu fail=%lu\n", rname, pass, fail);
  return rom && fail ? 1 : 0; // ROM mode is a user's run (scripts/rtl_sim.sh): its exit code says it
}
#endif
