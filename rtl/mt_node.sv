// SPDX-License-Identifier: Apache-2.0
// mt_node: one network node of the RTL network (rtl/mt_net_top.sv): a router (mt_router) and
// its network interface (mt_ni) wired back to back on the L local ports (latency 1, i.e.
// direct wires: both blocks drive their outputs from registers). The node id is an input
// port (not a parameter), so one Verilator class serves every node in a hierarchical build
// (scripts/net_verilate.sh). The NI's configuration, table write port, start, status and memory port, and
// the router's network ports, watchdog limit and error flags are passed through; the local
// router <-> NI signals are exposed as taps for co-simulation. The node id is sampled at the
// clock edges in reset and at the first edge after it: it must be stable then, and a reset
// must span an edge.
// Contract: docs/reference/interfaces.md, docs/reference/network.md ("RTL network").
`default_nettype none

module mt_node #(
  // topology (router)
  parameter int D           = 2,
  parameter int K0          = 4,
  parameter int K1          = 4,
  parameter int K2          = 1,     // D = 3: the third dimension's width
  parameter int Torus       = 1,
  parameter int L           = 4,     // local ports (router <-> NI)
  parameter logic [15:0] InOff = 16'h0,  // router input ports tied off (mt_router InOff)
  parameter int XbarDor     = 0,     // mt_router XbarDor
  parameter int RtPipe      = 0,     // mt_router RtPipe (the router pipeline)
  parameter int BufRam      = 0,     // mt_router BufRam (VC buffers in block RAM; RTL only)
`include "mt_node_params.svh"
`include "mt_ni_layout_params.svh"
  // the NI's table image ($readmemh at configuration, mt_ni InitFile): an FPGA top's schedule in
  // block RAM (fpga/mt_board.sv); "" = none (written through the write port, or ROM mode below)
  parameter     TableInit   = "",
  localparam int NiN        = 1,
  localparam int NiMp       = MemPorts,   // memory ports per NI (mt_ni_ports.svh)
  localparam int ND         = 2 * D,
  localparam int NP         = ND + L,
  localparam int Lanes      = PayloadW / 32,
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int EntryW     = mt_common_pkg::entry_width(Compact, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int TIW        = mt_common_pkg::idx_w(Depth)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [11:0]           node_id_i,
  // router configuration and error flags
  input  logic [RtWdW-1:0]      rt_wd_limit_i,
  output logic [NP*NumVcs-1:0]  rt_wd_err_o,
  output logic [NP*NumVcs-1:0]  rt_ovf_err_o,
  // network ports of the router (port p < 2*D)
  input  logic [ND*FlitW-1:0]   net_in_flit_i,
  input  logic [ND-1:0]         net_in_valid_i,
  output logic [ND*NumVcs-1:0]  net_in_credit_o,
  output logic [ND*FlitW-1:0]   net_out_flit_o,
  output logic [ND-1:0]         net_out_valid_o,
  input  logic [ND*NumVcs-1:0]  net_out_credit_i,
  input  logic [31:0]           ni_wd_limit_i,   // NI watchdog limit, 0 = off
`include "mt_ni_ports.svh"
  // local taps (router <-> NI), read-only
  output logic [L*FlitW-1:0]    inj_flit_o,
  output logic [L-1:0]          inj_valid_o,
  output logic [L*NumVcs-1:0]   inj_credit_o,
  output logic [L*FlitW-1:0]    ej_flit_o,
  output logic [L-1:0]          ej_valid_o,
  output logic [L*NumVcs-1:0]   ej_credit_o
);
  initial begin
    if (D != 2 && D != 3) $fatal(1, "mt_node: D=%0d, 2-D and 3-D networks only", D);
    if ((D == 3) != (K2 > 1)) $fatal(1, "mt_node: D=%0d K2=%0d: a third dimension needs K2 >= 2, a 2-D node K2 = 1", D, K2);
    if (L < 1) $fatal(1, "mt_node: L=%0d must be >= 1", L);
    // mt_ni checks the combinations; 0 (the C model's "default") must be resolved before
    if (RxEngines < 1 || MemPorts < 1) $fatal(1, "mt_node: RxEngines=%0d MemPorts=%0d must be >= 1", RxEngines, MemPorts);
  end

  // The node id is sampled in reset and at the first edge after it (a strap) and held in a
  // register: the router's route logic and the NI's id comparisons then depend on a register,
  // not on a port. In a hierarchical Verilator build (one mt_node model for every node,
  // docs/results/bench.md "RTL simulation speed") logic fed by a port is evaluated again at every
  // evaluation of the model, several times per cycle; fed by a register, once per edge.
  logic       id_held_q;
  logic [11:0] node_id_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) id_held_q <= 1'b0;
    else id_held_q <= 1'b1;
  end
  always_ff @(posedge clk_i) begin
    if (!id_held_q) node_id_q <= node_id_i;
  end

`ifndef SYNTHESIS
  // ROM mode (RomDir, mt_node_params.svh): the NI's table image "<dir>/node<id>.hex" is
  // loaded once, at the first clock edge in reset, as an FPGA's block RAM holds its image
  // before the design runs; a reset later does not reload it. The id comes from the
  // node_id_i port (constant), so one module still serves every node (no per-node parameter,
  // which would give a C++ class per node; and $sformatf in a localparam is refused by both
  // simulators of make test, Icarus and Verilator). The plusarg lets one build run any directory.
  // A missing image stops the simulation naming the file (Verilator and Icarus would only
  // warn and load nothing).
  logic rom_done = 1'b0;
  always @(posedge clk_i) begin
    if (!id_held_q && !rom_done) begin : rom_load  // in reset
      string dir, f;
      integer fd;
      if (!$value$plusargs("mt_rom_dir=%s", dir)) dir = RomDir;
      if (dir != "") begin
        $sformat(f, "%s/node%0d.hex", dir, node_id_i);
        fd = $fopen(f, "r");
        if (fd == 0) $fatal(1, "mt_node %0d: cannot open the ROM image %s", node_id_i, f);
        $fclose(fd);
        $readmemh(f, u_ni.u_table.mem);
      end
      rom_done <= 1'b1;
    end
  end
`endif

  logic [NP*FlitW-1:0]  r_in_flit, r_out_flit;
  logic [NP-1:0]        r_in_valid, r_out_valid;
  logic [NP*NumVcs-1:0] r_in_credit, r_out_credit;

  // router port order: network ports 0..2D-1, then local ports 2D..2D+L-1
  assign r_in_flit    = {inj_flit_o, net_in_flit_i};
  assign r_in_valid   = {inj_valid_o, net_in_valid_i};
  assign r_out_credit = {ej_credit_o, net_out_credit_i};
  assign net_out_flit_o  = r_out_flit[ND*FlitW-1:0];
  assign net_out_valid_o = r_out_valid[ND-1:0];
  assign net_in_credit_o = r_in_credit[ND*NumVcs-1:0];
  assign ej_flit_o    = r_out_flit[NP*FlitW-1:ND*FlitW];
  assign ej_valid_o   = r_out_valid[NP-1:ND];
  assign inj_credit_o = r_in_credit[NP*NumVcs-1:ND*NumVcs];

  logic [NP*NumVcs-1:0] rt_rt_err;  // always 0 at Table = 0
  mt_router #(
    .D(D), .L(L), .K0(K0), .K1(K1), .K2(K2), .Torus(Torus), .PayloadW(PayloadW), .NumVcs(NumVcs),
    .VcDepth(VcDepth), .EjDepth(EjDepth), .SubPktFlits(SubPktFlits), .StepPrio(StepPrio), .WdW(RtWdW),
    .LinkPeriods(LinkPeriods), .InOff(InOff), .XbarDor(XbarDor), .RtPipe(RtPipe), .BufRam(BufRam)
  ) u_router (
    .clk_i, .rst_ni,
    .node_id_i   (node_id_q),
    .wd_limit_i  (rt_wd_limit_i),
    .in_flit_i   (r_in_flit),
    .in_valid_i  (r_in_valid),
    .in_credit_o (r_in_credit),
    .out_flit_o  (r_out_flit),
    .out_valid_o (r_out_valid),
    .out_credit_i(r_out_credit),
    .wd_err_o    (rt_wd_err_o),
    .ovf_err_o   (rt_ovf_err_o),
    .tab_we_i    (1'b0),       // a torus router has no route table (Table = 0)
    .tab_addr_i  (12'd0),
    .tab_data_i  (16'd0),
    .rt_err_o    (rt_rt_err)
  );
  logic unused_rt;
  assign unused_rt = ^rt_rt_err;

  mt_ni #(
    .PayloadW(PayloadW), .NumVcs(NumVcs), .L(L), .NetPorts(ND), .EjDepth(EjDepth), .VcDepth(VcDepth),
    .SubPktFlits(SubPktFlits), .PktBytes(PktBytes), .InjVc(0), .Depth(Depth), .Compact(Compact),
    .FlowW(FlowW), .StepW(StepW), .IdW(IdW), .PortW(PortW), .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW),
    .Children(Children), .InitFile(TableInit), .MaxFlows(MaxFlows), .SQ(SQ), .RQ(RQ), .AluPipe(AluPipe), .WdW(NiWdW),
    .RxEngines(RxEngines), .MemPorts(MemPorts), .ReduceChain(ReduceChain),
    .StageAfter(StageAfter), .StageRanges(StageRanges)
  ) u_ni (
    .clk_i, .rst_ni,
    .dtype_i, .pkt_mode_i,
    .node_id_i   (node_id_q),
    .nflows_i, .base_units_i, .rem_units_i, .elem_i, .nop_bytes_i,
    .wd_limit_i  (ni_wd_limit_i),
    .stage_base_i, .stage_slot_i,
    .nbr_tx_i, .nbr_rx_i,
    .start_i, .tbl_we_i, .tbl_waddr_i, .tbl_wdata_i,
    .busy_o, .done_o, .err_o, .err_code_o, .err_idx_o, .idx_o, .step_o, .st_o,
    .inj_flit_o  (inj_flit_o),
    .inj_valid_o (inj_valid_o),
    .inj_credit_i(inj_credit_o),
    .ej_flit_i   (ej_flit_o),
    .ej_valid_i  (ej_valid_o),
    .ej_credit_o (ej_credit_o),
    .mem_req_valid_o, .mem_req_ready_i, .mem_req_we_o, .mem_req_addr_o, .mem_req_be_o, .mem_req_wdata_o,
    .mem_rsp_valid_i, .mem_rsp_data_i
  );
endmodule
