// SPDX-License-Identifier: Apache-2.0
// mt_net_top: the RTL network, NX x NY (x NZ) nodes (rtl/mt_node.sv: router + NI), a torus
// (Torus = 1) or a mesh (Torus = 0), 2-D (NZ = 1) or 3-D (NZ >= 2), node id = x + NX*y +
// NX*NY*z as in cmodel/topo/mt_topo.c. Every
// directed network link is one mt_link of latency LinkLat (dimension d: LinkLats[32d +: 32]
// when not 0, docs/reference/network.md "Link rate and latency") carrying {credits, valid, flit}
// (credits flow against the flits of the link they ride on, exactly as cmodel/net/mt_net_cycle.c: the
// link from node s port sp to node i port p carries s's flit on sp and s's input credits of
// port sp, which are for i's output p). Neighbours: input port 2d+1 (-d) of node c is fed by
// port 2d of c - e_d, input port 2d (+d) by port 2d+1 of c + e_d; in a torus dimension of
// width 2 the single link uses port +d at both ends (port -d unconnected); on mesh edges
// and unconnected ports every input is tied to 0. The gradient memories live outside:
// every node's NI memory ports (MemPorts per node, port p of node i
// at [(i*MemPorts + p)*W +: W]), table write port, configuration, start and status are flat
// vectors (node i at [i*W +: W]). Read-only taps of every link (at the receiver) and of
// every router <-> NI local interface serve co-simulation (tb/cosim/cosim_net.cpp).
`default_nettype none

// one of rtl/'s tops (mt_swnet_top, mt_fp32_add): a lint of all of rtl/ without a top sees them all
/* verilator lint_off MULTITOP */
module mt_net_top #(
  parameter int NX          = 2,
  parameter int NY          = 2,
  parameter int NZ          = 1,     // 1: a 2-D network; >= 2: the third dimension
  parameter int Torus       = 0,
  parameter int LinkLat     = 2,
  parameter logic [95:0] LinkLats = 96'h0,  // per dimension d at [32d +: 32]: its links' latency, 0 = LinkLat
  parameter int L           = 4,     // local ports (router <-> NI)
  parameter int RtPipe      = 0,     // mt_router RtPipe (the router pipeline; rt_pipe)
  parameter int BufRam      = 0,     // mt_router BufRam (VC buffers in block RAM; RTL only, the FPGA shape's builds)
`include "mt_node_params.svh"
`include "mt_ni_layout_params.svh"
  localparam int D          = (NZ > 1) ? 3 : 2,
  localparam int N          = NX * NY * NZ,
  localparam int NiN        = N,
  localparam int NiMp       = MemPorts,   // memory ports per NI (mt_ni_ports.svh)
  localparam int ND         = 2 * D,
  localparam int NP         = ND + L,
  localparam int Lanes      = PayloadW / 32,
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int LinkW      = NumVcs + 1 + FlitW,
  localparam int EntryW     = mt_common_pkg::entry_width(Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int TIW        = mt_common_pkg::idx_w(Depth)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // routers
  input  logic [N*RtWdW-1:0]      rt_wd_limit_i,
  output logic [N*NP*NumVcs-1:0]  rt_wd_err_o,
  output logic [N*NP*NumVcs-1:0]  rt_ovf_err_o,
  input  logic [N*32-1:0]         ni_wd_limit_i,
`include "mt_ni_ports.svh"
  // taps: what each router input port p < 4 receives (link outputs; 0 when unconnected) ...
  output logic [N*ND*FlitW-1:0]   lnk_flit_o,
  output logic [N*ND-1:0]         lnk_valid_o,
  output logic [N*ND*NumVcs-1:0]  lnk_credit_o,
  // ... the local interfaces (inj: NI -> router flits, router -> NI credits; ej: the reverse)
  output logic [N*L*FlitW-1:0]    inj_flit_o,
  output logic [N*L-1:0]          inj_valid_o,
  output logic [N*L*NumVcs-1:0]   inj_credit_o,
  output logic [N*L*FlitW-1:0]    ej_flit_o,
  output logic [N*L-1:0]          ej_valid_o,
  output logic [N*L*NumVcs-1:0]   ej_credit_o
);
  initial begin
    if (NX < 2 || NY < 2 || NZ < 1) $fatal(1, "mt_net_top: NX=%0d NY=%0d NZ=%0d, NX and NY must be >= 2, NZ >= 1", NX, NY, NZ);
    if (N > 4096) $fatal(1, "mt_net_top: %0d nodes exceed the 12-bit node ids", N);
    if (Torus != 0 && Torus != 1) $fatal(1, "mt_net_top: Torus=%0d must be 0 or 1", Torus);
    if (LinkLat < 1) $fatal(1, "mt_net_top: LinkLat=%0d must be >= 1", LinkLat);
    if (LinkLats[31:0] > 32'd1000000 || LinkLats[63:32] > 32'd1000000 || LinkLats[95:64] > 32'd1000000)
      $fatal(1, "mt_net_top: LinkLats=%0d,%0d,%0d: each 0 (LinkLat) or 1..1000000", LinkLats[31:0], LinkLats[63:32], LinkLats[95:64]);
    if (D == 2 && LinkLats[95:64] != 32'd0) $fatal(1, "mt_net_top: LinkLats[95:64]=%0d for a dimension the 2-D network does not have", LinkLats[95:64]);
    if (L < 1 || L > 8) $fatal(1, "mt_net_top: L=%0d must be 1..8", L);
    if (RxEngines < 1 || MemPorts < 1) $fatal(1, "mt_net_top: RxEngines=%0d MemPorts=%0d must be >= 1", RxEngines, MemPorts);
  end

  // one net per port: router outputs (link inputs) and router inputs (link outputs)
  logic [FlitW-1:0]  o_flit  [N*ND];
  logic              o_valid [N*ND];
  logic [NumVcs-1:0] o_cred  [N*ND];
  logic [FlitW-1:0]  i_flit  [N*ND];
  logic              i_valid [N*ND];
  logic [NumVcs-1:0] i_cred  [N*ND];
  // The wide per-node outputs and taps go into unpacked arrays first and into the flat ports
  // through one loop (g_gather): connected slice by slice, Verilator 5.006 builds each flat
  // port as one concatenation grown node by node, O(N^2) words at every update (at 8x8 a fifth
  // of the simulation time, for the memory write data alone 64 x 2,560 bits).
  logic [NiMp*32-1:0]       ni_req_addr  [N];
  logic [NiMp*Lanes-1:0]    ni_req_be    [N];
  logic [NiMp*PayloadW-1:0] ni_req_wdata [N];
  logic [L*FlitW-1:0]       n_inj_flit   [N];
  logic [L*FlitW-1:0]       n_ej_flit    [N];
  logic [ND*FlitW-1:0]      n_lnk_flit   [N];
  always_comb begin : g_gather
    for (int i = 0; i < N; i++) begin
      mem_req_addr_o[i*NiMp*32 +: NiMp*32]                = ni_req_addr[i];
      mem_req_be_o[i*NiMp*Lanes +: NiMp*Lanes]            = ni_req_be[i];
      mem_req_wdata_o[i*NiMp*PayloadW +: NiMp*PayloadW]   = ni_req_wdata[i];
      inj_flit_o[i*L*FlitW +: L*FlitW]                    = n_inj_flit[i];
      ej_flit_o[i*L*FlitW +: L*FlitW]                     = n_ej_flit[i];
      lnk_flit_o[i*ND*FlitW +: ND*FlitW]                  = n_lnk_flit[i];
    end
  end

  for (genvar n = 0; n < N; n++) begin : g_node
    localparam int X = n % NX;
    localparam int Y = (n / NX) % NY;
    localparam int Z = n / (NX * NY);
    logic [ND*FlitW-1:0]  nin_flit, nout_flit;
    logic [ND-1:0]        nin_valid, nout_valid;
    logic [ND*NumVcs-1:0] nin_cred, nout_cred;

    for (genvar p = 0; p < ND; p++) begin : g_port
      localparam int Dm   = p / 2;
      localparam int K    = (Dm == 0) ? NX : (Dm == 1) ? NY : NZ;
      localparam int C    = (Dm == 0) ? X : (Dm == 1) ? Y : Z;
      localparam int Plus = (p % 2 == 0) ? 1 : 0;
      // the neighbour's coordinate in dimension Dm, the port it sends on, and whether it exists
      localparam int Nc   = (K == 2 && Torus != 0) ? (1 - C)
                          : (Plus != 0) ? ((C + 1) % K) : ((C + K - 1) % K);
      localparam int Conn = (K == 2 && Torus != 0) ? Plus
                          : (Torus != 0) ? 1
                          : (Plus != 0) ? ((C + 1 < K) ? 1 : 0) : ((C > 0) ? 1 : 0);
      localparam int Sp   = (K == 2 && Torus != 0) ? p : (p ^ 1);
      localparam int S    = (Dm == 0) ? (Nc + NX * Y + NX * NY * Z) : (Dm == 1) ? (X + NX * Nc + NX * NY * Z) : (X + NX * Y + NX * NY * Nc);
      localparam int Lat  = (LinkLats[32*Dm +: 32] != 32'd0) ? LinkLats[32*Dm +: 32] : LinkLat;
      assign o_flit[n*ND+p]  = nout_flit[p*FlitW +: FlitW];
      assign o_valid[n*ND+p] = nout_valid[p];
      assign o_cred[n*ND+p]  = nout_cred[p*NumVcs +: NumVcs];
      if (Conn != 0) begin : g_link
        logic [LinkW-1:0] q;
        mt_link #(.Width(LinkW), .Lat(Lat)) u_link (
          .clk_i, .rst_ni,
          .d_i({o_cred[S*ND+Sp], o_valid[S*ND+Sp], o_flit[S*ND+Sp]}),
          .q_o(q)
        );
        assign i_flit[n*ND+p]  = q[FlitW-1:0];
        assign i_valid[n*ND+p] = q[FlitW];
        assign i_cred[n*ND+p]  = q[FlitW+1 +: NumVcs];
      end else begin : g_tie
        assign i_flit[n*ND+p]  = '0;
        assign i_valid[n*ND+p] = 1'b0;
        assign i_cred[n*ND+p]  = '0;
      end
      assign nin_flit[p*FlitW +: FlitW]    = i_flit[n*ND+p];
      assign nin_valid[p]                  = i_valid[n*ND+p];
      assign nin_cred[p*NumVcs +: NumVcs]  = i_cred[n*ND+p];
    end

    assign n_lnk_flit[n]                          = nin_flit;
    assign lnk_valid_o[n*ND +: ND]                = nin_valid;
    assign lnk_credit_o[n*ND*NumVcs +: ND*NumVcs] = nin_cred;

    mt_node #(
      .D(D), .L(L), .K0(NX), .K1(NY), .K2(NZ), .Torus(Torus), .PayloadW(PayloadW), .NumVcs(NumVcs), .LinkPeriods(LinkPeriods),
      .VcDepth(VcDepth), .EjDepth(EjDepth), .SubPktFlits(SubPktFlits), .PktBytes(PktBytes),
      .StepPrio(StepPrio), .RtPipe(RtPipe), .BufRam(BufRam), .RtWdW(RtWdW), .Depth(Depth), .Compact(Compact), .FlowW(FlowW),
      .StepW(StepW), .IdW(IdW), .PortW(PortW), .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW),
      .Children(Children), .MaxFlows(MaxFlows), .SQ(SQ), .RQ(RQ), .AluPipe(AluPipe), .NiWdW(NiWdW),
      .RxEngines(RxEngines), .MemPorts(MemPorts), .ReduceChain(ReduceChain), .RomDir(RomDir),
      .StageAfter(StageAfter), .StageRanges(StageRanges)
    ) u_node (
      .clk_i, .rst_ni,
      .node_id_i       (12'(n)),
      .rt_wd_limit_i   (rt_wd_limit_i[n*RtWdW +: RtWdW]),
      .rt_wd_err_o     (rt_wd_err_o[n*NP*NumVcs +: NP*NumVcs]),
      .rt_ovf_err_o    (rt_ovf_err_o[n*NP*NumVcs +: NP*NumVcs]),
      .net_in_flit_i   (nin_flit),
      .net_in_valid_i  (nin_valid),
      .net_in_credit_o (nout_cred),
      .net_out_flit_o  (nout_flit),
      .net_out_valid_o (nout_valid),
      .net_out_credit_i(nin_cred),
      .inj_flit_o      (n_inj_flit[n]),
      .inj_valid_o     (inj_valid_o[n*L +: L]),
      .inj_credit_o    (inj_credit_o[n*L*NumVcs +: L*NumVcs]),
      .ej_flit_o       (n_ej_flit[n]),
      .ej_valid_o      (ej_valid_o[n*L +: L]),
      .ej_credit_o     (ej_credit_o[n*L*NumVcs +: L*NumVcs]),
`define MT_NI_CONN_MEM_ARRAYS
`include "mt_ni_ports_conn.svh"
`undef MT_NI_CONN_MEM_ARRAYS
      .ni_wd_limit_i   (ni_wd_limit_i[n*32 +: 32])
    );
  end
endmodule
