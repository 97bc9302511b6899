// SPDX-License-Identifier: Apache-2.0
// mt_board: a self-checking all-reduce on one FPGA: a 2x2 torus of complete nodes (rtl/mt_node.sv:
// router + NI + schedule table) in the FPGA shape (configs/net/fpga.cfg, configs/ni/fpga.cfg),
// a gradient buffer of block RAM per node (fpga/mt_board_ram.sv), and a sequencer that starts
// one all-reduce after reset and then checks every node's buffer against the reference's
// checksum. Everything the run needs comes from images in ImgDir, loaded at configuration
// ($readmemh: block RAM contents on an FPGA; fpga/board_images.py writes them):
//   rom/node<n>.bram    node n's schedule table (`multitree rom --format bram --fit
//                       configs/ni/fpga.cfg`), the NI's table (mt_node TableInit)
//   grad/node<n>.bank<b>.hex  node n's seeded gradients (mt_ref_inputs), bank b of its buffer
//   expect.hex          one 32-bit word per node: the FNV-1a of its result that `multitree ref`
//                       printed (FNV-1a over the 32-bit elements in order: h = (h ^ e) * 16777619)
// Status: running_o while the all-reduce runs, checking_o while the buffers are hashed, then
// pass_o (every node's hash equal to its expected one, no error) or fail_o, held until reset;
// node_ok_o per node, cause_o why it failed (CAUSE_*), cycles_o the all-reduce's cycles from
// start to the last node's done. The configuration inputs of the NIs are parameters (the
// schedule's flow count and tiling, layout.json's flows, elem, base_units, rem_units).
`default_nettype none

module mt_board #(
  // network (configs/net/fpga.cfg)
  parameter int PayloadW    = 128,
  parameter int NumVcs      = 2,
  parameter int VcDepth     = 16,
  parameter int EjDepth     = 16,
  parameter int SubPktFlits = 4,
  parameter int PktBytes    = 64,
  parameter int L           = 3,
  parameter int LinkLat     = 1,
  parameter int SQ          = 4,
  parameter int RQ          = 4,
  parameter int AluPipe     = 0,   // mt_ni AluPipe (ni_alu_pipe): registers inside the reduction unit's adder
  parameter int RtWdW       = 20,
  parameter int RtPipe      = 0,   // mt_router RtPipe (rt_pipe)
  parameter int BufRam      = 1,   // mt_router BufRam: the VC buffers in block RAM (DP16KD)
  parameter int NiWdW       = 24,
  // NI and its table layout (configs/ni/fpga.cfg)
  parameter int Depth       = 512,
  parameter int MaxFlows    = 8,
  parameter int FlowW       = 3,
  parameter int StepW       = 4,
  parameter int IdW         = 2,
  parameter int PortW       = 3,
  parameter int EjW         = 2,
  parameter int AddrW       = 13,
  parameter int SizeW       = 14,
  parameter int Children    = 2,
  // the all-reduce (fpga/board_images.py: layout.json of the images)
  parameter int Bytes       = 4096,
  parameter int Flows       = 4,
  parameter int Elem        = 4,
  parameter int BaseUnits   = 256,
  parameter int RemUnits    = 0,
  parameter int Dtype       = 0,        // 0 int32, 1 fp32
  parameter int Timeout     = 16 * Bytes + 4096,  // cycles the all-reduce may take (MultiTree 4 KiB: 1056)
  parameter     ImgDir      = "",
  localparam int N          = 4,
  localparam int ND         = 4,
  localparam int NP         = ND + L,
  localparam int Lanes      = PayloadW / 32,
  localparam int Rows       = Bytes / (4 * Lanes),
  localparam int RW         = mt_common_pkg::idx_w(Rows),
  localparam int FlitW      = mt_common_pkg::flit_w(PayloadW, NumVcs),
  localparam int LinkW      = NumVcs + 1 + FlitW,
  localparam int EntryW     = mt_common_pkg::entry_width(0, Children, FlowW, StepW, IdW, PortW, EjW, AddrW, SizeW),
  localparam int TIW        = mt_common_pkg::idx_w(Depth)
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  output logic          running_o,
  output logic          checking_o,
  output logic          pass_o,
  output logic          fail_o,
  output logic [N-1:0]  node_ok_o,
  output logic [2:0]    cause_o,
  output logic [31:0]   cycles_o
);
  // why the board failed
  localparam logic [2:0] CAUSE_NONE = 3'd0, CAUSE_NI = 3'd1, CAUSE_ROUTER = 3'd2, CAUSE_TIMEOUT = 3'd3, CAUSE_SUM = 3'd4;

  // a number below 16 as one hex digit (file names)
  function automatic logic [7:0] hexd(input int v);
    hexd = (v < 10) ? 8'(48 + v) : 8'(87 + v);
  endfunction

  // ---- sequencer ----
  typedef enum logic [2:0] {S_START, S_RUN, S_READ, S_LATCH, S_HASH, S_CMP, S_DONE} state_e;
  state_e st_q;
  logic [31:0] cyc_q;
  logic [RW-1:0] row_q;
  logic [$clog2(Lanes)-1:0] lane_q;
  logic pass_q, fail_q;
  logic [2:0] cause_q;

  logic [N-1:0] done, err, rt_err, ok;
  logic [31:0] expect_mem [N];
  initial if (ImgDir != "") $readmemh({ImgDir, "/expect.hex"}, expect_mem);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= S_START;
      cyc_q <= '0;
      row_q <= '0;
      lane_q <= '0;
      pass_q <= 1'b0;
      fail_q <= 1'b0;
      cause_q <= CAUSE_NONE;
    end else begin
      unique case (st_q)
        S_START: st_q <= S_RUN;  // start_i is high in this cycle
        S_RUN: begin
          cyc_q <= cyc_q + 1'b1;
          if (|err || |rt_err || cyc_q == 32'(Timeout)) begin
            st_q <= S_DONE;
            fail_q <= 1'b1;
            cause_q <= |err ? CAUSE_NI : |rt_err ? CAUSE_ROUTER : CAUSE_TIMEOUT;
          end else if (&done) begin
            st_q <= S_READ;
          end
        end
        S_READ: st_q <= S_LATCH;  // the banks read row_q at this edge
        S_LATCH: st_q <= S_HASH;  // the row is latched at this edge
        S_HASH: begin
          lane_q <= lane_q + 1'b1;
          if (lane_q == $bits(lane_q)'(Lanes - 1)) begin
            row_q <= row_q + 1'b1;
            st_q <= (row_q == RW'(Rows - 1)) ? S_CMP : S_READ;
          end
        end
        S_CMP: begin
          st_q <= S_DONE;
          pass_q <= &ok;
          fail_q <= ~&ok;
          cause_q <= &ok ? CAUSE_NONE : CAUSE_SUM;
        end
        default: ;
      endcase
    end
  end

  assign running_o  = (st_q == S_RUN);
  assign checking_o = (st_q == S_READ) || (st_q == S_LATCH) || (st_q == S_HASH) || (st_q == S_CMP);
  assign pass_o     = pass_q;
  assign fail_o     = fail_q;
  assign node_ok_o  = ok & {N{pass_q | fail_q}};
  assign cause_o    = cause_q;
  assign cycles_o   = cyc_q;

  // ---- the network: 2x2 torus, node n = x + 2y; in a dimension of width 2 the one link between
  // two nodes uses port +d at both ends (port 2d), port -d (2d+1) is unconnected (rtl/mt_net_top.sv) ----
  logic [N-1:0][ND*FlitW-1:0]  nin_flit, nout_flit;
  logic [N-1:0][ND-1:0]        nin_valid, nout_valid;
  logic [N-1:0][ND*NumVcs-1:0] nin_cred, nout_cred;

  for (genvar n = 0; n < N; n++) begin : g_node
    for (genvar p = 0; p < ND; p++) begin : g_port
      if (p % 2 == 0) begin : g_link
        localparam int S = n ^ (1 << (p / 2));  // the neighbour in dimension p/2
        logic [LinkW-1:0] q;
        mt_link #(.Width(LinkW), .Lat(LinkLat)) u_link (
          .clk_i, .rst_ni,
          .d_i({nout_cred[S][p*NumVcs +: NumVcs], nout_valid[S][p], nout_flit[S][p*FlitW +: FlitW]}),
          .q_o(q)
        );
        assign nin_flit[n][p*FlitW +: FlitW]   = q[FlitW-1:0];
        assign nin_valid[n][p]                 = q[FlitW];
        assign nin_cred[n][p*NumVcs +: NumVcs] = q[FlitW+1 +: NumVcs];
      end else begin : g_tie
        assign nin_flit[n][p*FlitW +: FlitW]   = '0;
        assign nin_valid[n][p]                 = 1'b0;
        assign nin_cred[n][p*NumVcs +: NumVcs] = '0;
      end
    end

    logic                mreq_valid, mreq_ready, mreq_we, mrsp_valid;
    logic [31:0]         mreq_addr;
    logic [Lanes-1:0]    mreq_be;
    logic [PayloadW-1:0] mreq_wdata, mrsp_data, chk_data;
    logic [NP*NumVcs-1:0] wd_err, ovf_err;
    logic                busy, ni_err;
    logic [3:0]          err_code;
    logic [15:0]         err_idx, idx, step;
    logic [2:0]          ni_st;
    logic [L*FlitW-1:0]  inj_flit, ej_flit;   // the local taps: not used on the board
    logic [L-1:0]        inj_valid, ej_valid;
    logic [L*NumVcs-1:0] inj_cred, ej_cred;

    mt_node #(
      .D(2), .L(L), .InOff(16'b1010), .XbarDor(1), .K0(2), .K1(2), .K2(1), .Torus(1), .PayloadW(PayloadW), .NumVcs(NumVcs),
      .VcDepth(VcDepth), .EjDepth(EjDepth), .SubPktFlits(SubPktFlits), .PktBytes(PktBytes),
      .StepPrio(0), .RtPipe(RtPipe), .BufRam(BufRam), .RtWdW(RtWdW), .Depth(Depth), .Compact(0), .FlowW(FlowW), .StepW(StepW),
      .IdW(IdW), .PortW(PortW), .EjW(EjW), .AddrW(AddrW), .SizeW(SizeW), .Children(Children),
      .MaxFlows(MaxFlows), .SQ(SQ), .RQ(RQ), .AluPipe(AluPipe), .NiWdW(NiWdW), .RxEngines(1), .MemPorts(1),
      .ReduceChain(0), .StageAfter(0),
      .TableInit((ImgDir != "") ? {ImgDir, "/rom/node", hexd(n), ".bram"} : "")
    ) u_node (
      .clk_i, .rst_ni,
      .node_id_i       (12'(n)),
      .rt_wd_limit_i   ({RtWdW{1'b1}}),
      .rt_wd_err_o     (wd_err),
      .rt_ovf_err_o    (ovf_err),
      .net_in_flit_i   (nin_flit[n]),
      .net_in_valid_i  (nin_valid[n]),
      .net_in_credit_o (nout_cred[n]),
      .net_out_flit_o  (nout_flit[n]),
      .net_out_valid_o (nout_valid[n]),
      .net_out_credit_i(nin_cred[n]),
      .ni_wd_limit_i   (32'((64'(1) << NiWdW) - 1)),
      .dtype_i         (Dtype[0]),
      .pkt_mode_i      (1'b0),
      .nflows_i        (12'(Flows)),
      .base_units_i    (32'(BaseUnits)),
      .rem_units_i     (32'(RemUnits)),
      .elem_i          (32'(Elem)),
      .nop_bytes_i     (32'd0),
      .nbr_tx_i        ('0),
      .nbr_rx_i        ('0),
      .stage_base_i    (32'd0),
      .stage_slot_i    (32'd0),
      .start_i         (st_q == S_START),
      .tbl_we_i        (1'b0),
      .tbl_waddr_i     (TIW'(0)),
      .tbl_wdata_i     (EntryW'(0)),
      .busy_o          (busy),
      .done_o          (done[n]),
      .err_o           (ni_err),
      .err_code_o      (err_code),
      .err_idx_o       (err_idx),
      .idx_o           (idx),
      .step_o          (step),
      .st_o            (ni_st),
      .mem_req_valid_o (mreq_valid),
      .mem_req_ready_i (mreq_ready),
      .mem_req_we_o    (mreq_we),
      .mem_req_addr_o  (mreq_addr),
      .mem_req_be_o    (mreq_be),
      .mem_req_wdata_o (mreq_wdata),
      .mem_rsp_valid_i (mrsp_valid),
      .mem_rsp_data_i  (mrsp_data),
      .inj_flit_o      (inj_flit),
      .inj_valid_o     (inj_valid),
      .inj_credit_o    (inj_cred),
      .ej_flit_o       (ej_flit),
      .ej_valid_o      (ej_valid),
      .ej_credit_o     (ej_cred)
    );
    assign err[n]    = ni_err;
    assign rt_err[n] = |{wd_err, ovf_err};

    mt_board_ram #(
      .PayloadW(PayloadW), .Bytes(Bytes),
      .InitPrefix((ImgDir != "") ? {ImgDir, "/grad/node", hexd(n), ".bank"} : "")
    ) u_ram (
      .clk_i,
      .req_valid_i(mreq_valid),
      .req_ready_o(mreq_ready),
      .req_we_i   (mreq_we),
      .req_addr_i (mreq_addr),
      .req_be_i   (mreq_be),
      .req_wdata_i(mreq_wdata),
      .rsp_valid_o(mrsp_valid),
      .rsp_data_o (mrsp_data),
      .chk_en_i   (st_q == S_READ),
      .chk_row_i  (row_q),
      .chk_data_o (chk_data)
    );

    // the check: FNV-1a over the buffer's elements in order, one lane a cycle
    logic [PayloadW-1:0] row_data_q;
    logic [31:0] hash_q, x;
    assign x = hash_q ^ row_data_q[32*lane_q +: 32];
    always_ff @(posedge clk_i) begin
      if (st_q == S_LATCH) row_data_q <= chk_data;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) hash_q <= 32'd2166136261;
      // x * 16777619 (0x01000193) as shifts and adds
      else if (st_q == S_HASH) hash_q <= x + (x << 1) + (x << 4) + (x << 7) + (x << 8) + (x << 24);
    end
    assign ok[n] = (hash_q == expect_mem[n]);  // final from S_CMP on (the hash no longer moves)
    logic unused;
    assign unused = ^{busy, err_code, err_idx, idx, step, ni_st, inj_flit, ej_flit, inj_valid, ej_valid, inj_cred, ej_cred};
  end
endmodule
