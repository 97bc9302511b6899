// SPDX-License-Identifier: Apache-2.0
// mt_swnet_top: an RTL switch network (docs/reference/switch.md "RTL switch network"): N end nodes, each
// an NI (rtl/mt_ni.sv, one local port) behind an NI link to one port of its leaf switch, and S
// switches (rtl/mt_router.sv with Table = 1, each of its own radix), as cmodel/net/mt_net_build.c
// builds them from a planner topology with cmodel/net/mt_switch.c. The connection list comes
// in parameter vectors computed by the C side (mt_switch_build; cosim_net_params prints them
// as -G flags; the defaults are fattree:4,2):
//   SwPorts  switch s at [s*10 +: 10]: {NI ports, network ports}, 5 bits each; network
//            ports are 0..n-1, NI ports after them (mt_switch_net.nnet, nloc)
//   Links    directed switch-to-switch physical link k at [k*24 +: 24]: {receiving port,
//            receiving switch, sending port, sending switch}, ports 4 bits, switches 8
//            (mt_switch_net.lsrc, lsport, ldst, ldport)
//   PortIn   switch s input port p at [(s*16 + p)*12 +: 12]: a network port the link k that
//            feeds it, an NI port its node (redundant with Links and NiAt; given so that no
//            elaboration-time search is needed)
//   NiAt     node i at [i*12 +: 12]: {port, switch} it attaches to (ni_port, ni_sw)
// Every directed link, the NI links included, is one mt_link of latency LinkLat carrying
// {credits, valid, flit}: the sender's flit on its port and the sender's input credits of
// that port, which are for the receiver's output on it (as mt_net_top and mt_net_cycle.c). The
// route tables are written through sw_tab_*_i (switch s's entry sw_tab_addr_i :=
// sw_tab_data_i[s*16 +: 16] when sw_tab_we_i[s]) before traffic, as the NI tables through
// tbl_*_i. Read-only taps of every link at its receiver, in the C model's link order (the NL
// switch links, then node i's NI link up at NL + i and down at NL + N + i), and of every NI's
// outputs toward its link serve co-simulation (tb/cosim/cosim_net.cpp).
`default_nettype none

// rtl/ has two network tops, this one and mt_net_top (tori and meshes); every build names its
// top (--top-module), and a lint of all of rtl/ without one sees both
/* verilator lint_off MULTITOP */
module mt_swnet_top #(
  parameter int N          = 16,
  parameter int S          = 8,
  parameter int NL         = 32,
  parameter int LinkLat    = 2,
  parameter int HopClasses = 1,
  parameter logic [S*10-1:0]    SwPorts = 80'h01004010042108421084,
  parameter logic [NL*24-1:0]   Links   = 768'h303307307303203306306203103305305103003304304003302207207302202206206202102205205102002204204002301107107301201106106201101105105101001104104001300007007300200006006200100005005100000004004000,
  parameter logic [S*16*12-1:0] PortIn  = 1536'h00000000000000000000000000000000000001e01600e00600000000000000000000000000000000000001c01400c00400000000000000000000000000000000000001a01200a00200000000000000000000000000000000000001801000800000000000000000000000000000f00e00d00c01f01d01b01900000000000000000000000000b00a00900801701501301100000000000000000000000000700600500400f00d00b009000000000000000000000000003002001000007005003001,
  parameter logic [N*12-1:0]    NiAt    = 192'h703603503403702602502402701601501401700600500400,
`include "mt_node_params.svh"
`include "mt_ni_layout_params.svh"
  localparam int NiN        = N,
  localparam int NiMp       = MemPorts,   // memory ports per NI (mt_ni_ports.svh)
  localparam int NK         = NL + 2 * N, // directed links, NI links included
  localparam int Lanes      = PayloadW / 32,
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int LinkW      = NumVcs + 1 + FlitW,
  localparam int EntryW     = mt_common_pkg::entry_width(Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int TIW        = mt_common_pkg::idx_w(Depth)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // switches: watchdog limits, error flags (switch s input port p VC v at (s*16 + p)*NumVcs + v;
  // 0 beyond its radix), route table write port
  input  logic [S*RtWdW-1:0]      rt_wd_limit_i,
  output logic [S*16*NumVcs-1:0]  rt_wd_err_o,
  output logic [S*16*NumVcs-1:0]  rt_ovf_err_o,
  output logic [S*16*NumVcs-1:0]  rt_rt_err_o,
  input  logic [S-1:0]            sw_tab_we_i,
  input  logic [11:0]             sw_tab_addr_i,
  input  logic [S*16-1:0]         sw_tab_data_i,
  input  logic [N*32-1:0]         ni_wd_limit_i,
`include "mt_ni_ports.svh"
  // taps: what every directed link presents to its receiver (link k at [k*W +: W]) ...
  output logic [NK*FlitW-1:0]     lnk_flit_o,
  output logic [NK-1:0]           lnk_valid_o,
  output logic [NK*NumVcs-1:0]    lnk_credit_o,
  // ... and what every NI drives into its NI link (flits, ejection credits)
  output logic [N*FlitW-1:0]      inj_flit_o,
  output logic [N-1:0]            inj_valid_o,
  output logic [N*NumVcs-1:0]     ej_credit_o
);
  initial begin
    if (N < 2 || N > 4096) $fatal(1, "mt_swnet_top: N=%0d end nodes must be 2..4096 (12-bit node ids)", N);
    if (S < 1 || S > 256) $fatal(1, "mt_swnet_top: S=%0d switches must be 1..256", S);
    if (NL < 0 || NL > 4096) $fatal(1, "mt_swnet_top: NL=%0d links must be 0..4096", NL);
    if (LinkLat < 1) $fatal(1, "mt_swnet_top: LinkLat=%0d must be >= 1", LinkLat);
    // mt_node_params.svh's per-dimension link periods are a torus/mesh's: every link here is alike
    for (int d = 0; d < 3; d++)
      if (LinkPeriods[8*d +: 8] > 8'd1) $fatal(1, "mt_swnet_top: LinkPeriods[%0d]=%0d: a switch network's links are alike (0 or 1)", d, LinkPeriods[8*d +: 8]);
    if (RxEngines < 1 || MemPorts < 1) $fatal(1, "mt_swnet_top: RxEngines=%0d MemPorts=%0d must be >= 1", RxEngines, MemPorts);
    if (RomDir != "") $fatal(1, "mt_swnet_top: RomDir: ROM mode (docs/reference/rtl_sim.md) is mt_net_top's; here the tables are written through tbl_*_i");
  end

  // one net per switch port (s*16 + p): router outputs (link inputs) and inputs (link outputs)
  logic [FlitW-1:0]  o_flit  [S*16];
  logic              o_valid [S*16];
  logic [NumVcs-1:0] o_cred  [S*16];
  logic [FlitW-1:0]  i_flit  [S*16];
  logic              i_valid [S*16];
  logic [NumVcs-1:0] i_cred  [S*16];
  // one per link: its output
  logic [LinkW-1:0]  lq      [NK];
  // one per NI: its outputs toward the switch
  logic [FlitW-1:0]  n_flit  [N];
  logic              n_valid [N];
  logic [NumVcs-1:0] n_cred  [N];

  // ---- links: switch to switch, NI up, NI down ----
  for (genvar k = 0; k < NK; k++) begin : g_link
    logic [LinkW-1:0] d;
    if (k < NL) begin : g_sw
      localparam int Src = 16 * 32'(Links[k*24 +: 8]) + 32'(Links[k*24 + 8 +: 4]);
      assign d = {o_cred[Src], o_valid[Src], o_flit[Src]};
    end else if (k < NL + N) begin : g_up
      assign d = {n_cred[k - NL], n_valid[k - NL], n_flit[k - NL]};
    end else begin : g_down
      localparam int At = 16 * 32'(NiAt[(k - NL - N)*12 +: 8]) + 32'(NiAt[(k - NL - N)*12 + 8 +: 4]);
      assign d = {o_cred[At], o_valid[At], o_flit[At]};
    end
    mt_link #(.Width(LinkW), .Lat(LinkLat)) u_link (.clk_i, .rst_ni, .d_i(d), .q_o(lq[k]));
    assign lnk_flit_o[k*FlitW +: FlitW]    = lq[k][FlitW-1:0];
    assign lnk_valid_o[k]                  = lq[k][FlitW];
    assign lnk_credit_o[k*NumVcs +: NumVcs] = lq[k][FlitW+1 +: NumVcs];
  end

  // ---- switches ----
  for (genvar s = 0; s < S; s++) begin : g_sw
    localparam int NN = 32'(SwPorts[s*10 +: 5]);      // network ports
    localparam int NI = 32'(SwPorts[s*10 + 5 +: 5]);  // NI ports
    localparam int NP = NN + NI;
    logic [NP*FlitW-1:0]  r_in_flit, r_out_flit;
    logic [NP-1:0]        r_in_valid, r_out_valid;
    logic [NP*NumVcs-1:0] r_in_cred, r_out_cred, r_wd, r_ovf, r_rt;
    for (genvar p = 0; p < 16; p++) begin : g_port
      localparam int Q = s * 16 + p;
      if (p < NP) begin : g_used
        // the link into this input: a switch link (network port) or the node's NI link up
        localparam int K = (p < NN) ? 32'(PortIn[Q*12 +: 12]) : NL + 32'(PortIn[Q*12 +: 12]);
        assign i_flit[Q]  = lq[K][FlitW-1:0];
        assign i_valid[Q] = lq[K][FlitW];
        assign i_cred[Q]  = lq[K][FlitW+1 +: NumVcs];
        assign r_in_flit[p*FlitW +: FlitW]     = i_flit[Q];
        assign r_in_valid[p]                   = i_valid[Q];
        assign r_out_cred[p*NumVcs +: NumVcs]  = i_cred[Q];
        assign o_flit[Q]  = r_out_flit[p*FlitW +: FlitW];
        assign o_valid[Q] = r_out_valid[p];
        assign o_cred[Q]  = r_in_cred[p*NumVcs +: NumVcs];
        assign rt_wd_err_o[Q*NumVcs +: NumVcs]  = r_wd[p*NumVcs +: NumVcs];
        assign rt_ovf_err_o[Q*NumVcs +: NumVcs] = r_ovf[p*NumVcs +: NumVcs];
        assign rt_rt_err_o[Q*NumVcs +: NumVcs]  = r_rt[p*NumVcs +: NumVcs];
      end else begin : g_none
        assign i_flit[Q]  = '0;
        assign i_valid[Q] = 1'b0;
        assign i_cred[Q]  = '0;
        assign o_flit[Q]  = '0;
        assign o_valid[Q] = 1'b0;
        assign o_cred[Q]  = '0;
        assign rt_wd_err_o[Q*NumVcs +: NumVcs]  = '0;
        assign rt_ovf_err_o[Q*NumVcs +: NumVcs] = '0;
        assign rt_rt_err_o[Q*NumVcs +: NumVcs]  = '0;
      end
    end
    mt_router #(
      .L(NI), .PayloadW(PayloadW), .NumVcs(NumVcs), .VcDepth(VcDepth), .EjDepth(EjDepth),
      .SubPktFlits(SubPktFlits), .StepPrio(StepPrio), .WdW(RtWdW), .Table(1), .NetPorts(NN),
      .HopClasses(HopClasses), .Nodes(N)
    ) u_sw (
      .clk_i, .rst_ni,
      .node_id_i   (12'd0),  // a switch routes by its table alone
      .wd_limit_i  (rt_wd_limit_i[s*RtWdW +: RtWdW]),
      .tab_we_i    (sw_tab_we_i[s]),
      .tab_addr_i  (sw_tab_addr_i),
      .tab_data_i  (sw_tab_data_i[s*16 +: 16]),
      .in_flit_i   (r_in_flit),
      .in_valid_i  (r_in_valid),
      .in_credit_o (r_in_cred),
      .out_flit_o  (r_out_flit),
      .out_valid_o (r_out_valid),
      .out_credit_i(r_out_cred),
      .wd_err_o    (r_wd),
      .ovf_err_o   (r_ovf),
      .rt_err_o    (r_rt)
    );
  end

  // ---- network interfaces: each on its NI links (down: the switch's output toward it) ----
  for (genvar n = 0; n < N; n++) begin : g_ni
    localparam int Kd = NL + N + n;
    assign inj_flit_o[n*FlitW +: FlitW]    = n_flit[n];
    assign inj_valid_o[n]                  = n_valid[n];
    assign ej_credit_o[n*NumVcs +: NumVcs] = n_cred[n];
    mt_ni #(
      .PayloadW(PayloadW), .NumVcs(NumVcs), .L(1), .NetPorts(1), .EjDepth(EjDepth), .VcDepth(VcDepth),
      .SubPktFlits(SubPktFlits), .PktBytes(PktBytes), .InjVc(0), .Depth(Depth), .Compact(Compact),
      .FlowW(FlowW), .StepW(StepW), .IdW(IdW), .PortW(PortW), .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW),
      .Children(Children), .InitFile(""), .MaxFlows(MaxFlows), .SQ(SQ), .RQ(RQ), .AluPipe(AluPipe), .WdW(NiWdW),
      .RxEngines(RxEngines), .MemPorts(MemPorts), .ReduceChain(ReduceChain),
      .StageAfter(StageAfter), .StageRanges(StageRanges)
    ) u_ni (
      .clk_i, .rst_ni,
`include "mt_ni_ports_conn.svh"
      .node_id_i       (12'(n)),
      .wd_limit_i      (ni_wd_limit_i[n*32 +: 32]),
      .inj_flit_o      (n_flit[n]),
      .inj_valid_o     (n_valid[n]),
      .inj_credit_i    (lq[Kd][FlitW+1 +: NumVcs]),
      .ej_flit_i       (lq[Kd][FlitW-1:0]),
      .ej_valid_i      (lq[Kd][FlitW]),
      .ej_credit_o     (n_cred[n])
    );
  end
endmodule
