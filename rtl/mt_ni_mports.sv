// SPDX-License-Identifier: Apache-2.0
// mt_ni_mports: the NI's M memory ports (mt_ni_dma each) and which requester uses which
// (docs/reference/ni.md "Bandwidth", cmodel/hw/mt_ni.c's port map). Requesters: packetiser l (reads)
// and receive engine e (reads of the running sum, writes of sums and gathered flits).
//   M = 1      port 0: packetisers 0..L-1, then engines 0..E-1 (an engine asks for its write
//              before its read), round robin: the one-engine NI's single port;
//   M = L + E  port l: packetiser l; port L+e: engine e (write before read);
//   M = L + 2E port l: packetiser l; port L+e: engine e's reads; port L+E+e: its writes.
// Each port's tag FIFO holds the reads its requesters can have outstanding (with one port
// L*SQ + E*RQ, else SQ or RQ): every requester reserves its response space before it asks.
// Read data goes from the port the requester reads on. wfree_o[e]: engine e's write port
// holds no request after this edge but a new grant (with M = 1 always 1: the single
// in-order port orders a write before every later read). rx_wacc_o[e]: a write of engine e
// is accepted by the memory at this edge (chained reduction counts them).
`default_nettype none

module mt_ni_mports #(
  parameter int L        = 4,
  parameter int E        = 1,
  parameter int M        = 1,
  parameter int PayloadW = 128,
  parameter int SQ       = 4,
  parameter int RQ       = 4,
  parameter int SG       = 0,      // 1: the stager (mt_ni_stage) reads: the last requester of
                                   // the one port (M = 1), the second of port L (M > 1)
  parameter int SgTq     = 4,      // its reads in flight (EjDepth)
  localparam int Lanes   = PayloadW / 32
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  run_i,
  // packetisers
  input  logic [L-1:0]          tx_req_i,
  input  logic [L*32-1:0]       tx_addr_i,
  input  logic [L*Lanes-1:0]    tx_be_i,
  output logic [L-1:0]          tx_gnt_o,
  output logic [L-1:0]          tx_rsp_o,
  output logic [L*PayloadW-1:0] tx_rsp_data_o,
  // receive engines
  input  logic [E-1:0]          rx_rd_i,
  input  logic [E*32-1:0]       rx_rd_addr_i,
  input  logic [E*Lanes-1:0]    rx_rd_be_i,
  input  logic [E-1:0]          rx_wr_i,
  input  logic [E*32-1:0]       rx_wr_addr_i,
  input  logic [E*Lanes-1:0]    rx_wr_be_i,
  input  logic [E*PayloadW-1:0] rx_wr_data_i,
  output logic [E-1:0]          rx_gnt_rd_o,
  output logic [E-1:0]          rx_gnt_wr_o,
  output logic [E-1:0]          rx_wfree_o,
  output logic [E-1:0]          rx_wacc_o,
  output logic [E-1:0]          rx_rsp_o,
  output logic [E*PayloadW-1:0] rx_rsp_data_o,
  // the stager (SG = 1)
  input  logic                  sg_rq_i,
  input  logic [31:0]           sg_addr_i,
  input  logic [Lanes-1:0]      sg_be_i,
  output logic                  sg_gnt_o,
  output logic                  sg_rsp_o,
  output logic [PayloadW-1:0]   sg_rsp_data_o,
  // memory ports, port p at [p]
  output logic [M-1:0]          mem_req_valid_o,
  input  logic [M-1:0]          mem_req_ready_i,
  output logic [M-1:0]          mem_req_we_o,
  output logic [M*32-1:0]       mem_req_addr_o,
  output logic [M*Lanes-1:0]    mem_req_be_o,
  output logic [M*PayloadW-1:0] mem_req_wdata_o,
  input  logic [M-1:0]          mem_rsp_valid_i,
  input  logic [M*PayloadW-1:0] mem_rsp_data_i,
  // status
  output logic                  gnt_any_o,   // a grant on some port (progress)
  output logic                  quiet_o      // no request held, no read outstanding, any port
);
  initial begin
    if (L < 1 || E < 1) $fatal(1, "mt_ni_mports: L=%0d, E=%0d", L, E);
    if (M != 1 && M != L + E && M != L + 2 * E)
      $fatal(1, "mt_ni_mports: M=%0d: 1, L+E=%0d or L+2E=%0d", M, L + E, L + 2 * E);
  end

  logic [M-1:0] quiet;
  assign quiet_o = &quiet;

  if (M == 1) begin : g_one
    localparam int NR = L + E + SG;
    localparam int TW = mt_common_pkg::idx_w(NR);
    logic [NR-1:0]          req, we, gnt;
    logic [NR*32-1:0]       addr;
    logic [NR*Lanes-1:0]    be;
    logic [NR*PayloadW-1:0] wdata;
    logic                   rsp_v, acc, acc_we;
    logic [TW-1:0]          rsp_tag, acc_tag;
    for (genvar l = 0; l < L; l++) begin : g_tx
      assign req[l]                      = tx_req_i[l];
      assign we[l]                       = 1'b0;
      assign addr[32*l +: 32]            = tx_addr_i[32*l +: 32];
      assign be[Lanes*l +: Lanes]        = tx_be_i[Lanes*l +: Lanes];
      assign wdata[PayloadW*l +: PayloadW] = '0;
      assign tx_gnt_o[l]                 = gnt[l];
      assign tx_rsp_o[l]                 = rsp_v && (32'(rsp_tag) == l);
      assign tx_rsp_data_o[PayloadW*l +: PayloadW] = mem_rsp_data_i;
    end
    for (genvar e = 0; e < E; e++) begin : g_rx
      localparam int A = L + e;
      assign req[A]                      = rx_wr_i[e] || rx_rd_i[e];
      assign we[A]                       = rx_wr_i[e];
      assign addr[32*A +: 32]            = rx_wr_i[e] ? rx_wr_addr_i[32*e +: 32] : rx_rd_addr_i[32*e +: 32];
      assign be[Lanes*A +: Lanes]        = rx_wr_i[e] ? rx_wr_be_i[Lanes*e +: Lanes] : rx_rd_be_i[Lanes*e +: Lanes];
      assign wdata[PayloadW*A +: PayloadW] = rx_wr_data_i[PayloadW*e +: PayloadW];
      assign rx_gnt_wr_o[e]              = gnt[A] && rx_wr_i[e];
      assign rx_gnt_rd_o[e]              = gnt[A] && !rx_wr_i[e];
      assign rx_wfree_o[e]               = 1'b1;
      assign rx_wacc_o[e]                = acc && acc_we && (32'(acc_tag) == A);
      assign rx_rsp_o[e]                 = rsp_v && (32'(rsp_tag) == A);
      assign rx_rsp_data_o[PayloadW*e +: PayloadW] = mem_rsp_data_i;
    end
    if (SG != 0) begin : g_sg
      localparam int A = L + E;
      assign req[A]                      = sg_rq_i;
      assign we[A]                       = 1'b0;
      assign addr[32*A +: 32]            = sg_addr_i;
      assign be[Lanes*A +: Lanes]        = sg_be_i;
      assign wdata[PayloadW*A +: PayloadW] = '0;
      assign sg_gnt_o                    = gnt[A];
      assign sg_rsp_o                    = rsp_v && (32'(rsp_tag) == A);
      assign sg_rsp_data_o               = mem_rsp_data_i;
    end else begin : g_nosg
      assign sg_gnt_o      = 1'b0;
      assign sg_rsp_o      = 1'b0;
      assign sg_rsp_data_o = '0;
    end
    logic unused_free;
    mt_ni_dma #(.NR(NR), .PayloadW(PayloadW), .TqDepth(L * SQ + E * RQ + SG * SgTq)) u_port (
      .clk_i, .rst_ni, .run_i,
      .req_i(req), .req_we_i(we), .req_addr_i(addr), .req_be_i(be), .req_wdata_i(wdata), .gnt_o(gnt),
      .mem_req_valid_o, .mem_req_ready_i, .mem_req_we_o, .mem_req_addr_o, .mem_req_be_o,
      .mem_req_wdata_o, .mem_rsp_valid_i,
      .rsp_v_o(rsp_v), .rsp_tag_o(rsp_tag), .quiet_o(quiet[0]), .free_o(unused_free),
      .acc_o(acc), .acc_we_o(acc_we), .acc_tag_o(acc_tag)
    );
    assign gnt_any_o = |gnt;
  end else if (M == L + E || M == L + 2 * E) begin : g_many
    localparam bit Split = (M == L + 2 * E);
    logic [M-1:0] gnt;
    for (genvar l = 0; l < L; l++) begin : g_tx
      logic rsp_v, unused_tag, unused_free, unused_acc, unused_acc_we, unused_acc_tag;
      mt_ni_dma #(.NR(1), .PayloadW(PayloadW), .TqDepth(SQ)) u_port (
        .clk_i, .rst_ni, .run_i,
        .req_i(tx_req_i[l]), .req_we_i(1'b0), .req_addr_i(tx_addr_i[32*l +: 32]),
        .req_be_i(tx_be_i[Lanes*l +: Lanes]), .req_wdata_i({PayloadW{1'b0}}), .gnt_o(gnt[l]),
        .mem_req_valid_o(mem_req_valid_o[l]), .mem_req_ready_i(mem_req_ready_i[l]),
        .mem_req_we_o(mem_req_we_o[l]), .mem_req_addr_o(mem_req_addr_o[32*l +: 32]),
        .mem_req_be_o(mem_req_be_o[Lanes*l +: Lanes]), .mem_req_wdata_o(mem_req_wdata_o[PayloadW*l +: PayloadW]),
        .mem_rsp_valid_i(mem_rsp_valid_i[l]),
        .rsp_v_o(rsp_v), .rsp_tag_o(unused_tag), .quiet_o(quiet[l]), .free_o(unused_free),
        .acc_o(unused_acc), .acc_we_o(unused_acc_we), .acc_tag_o(unused_acc_tag)
      );
      assign tx_gnt_o[l] = gnt[l];
      assign tx_rsp_o[l] = rsp_v;
      assign tx_rsp_data_o[PayloadW*l +: PayloadW] = mem_rsp_data_i[PayloadW*l +: PayloadW];
    end
    logic sg_gnt;
    for (genvar e = 0; e < E; e++) begin : g_rx
      localparam int P = L + e;       // reads (and, without Split, writes)
      localparam int NRP = (e == 0 && SG != 0) ? 2 : 1;  // port L: engine 0, the stager
      logic rsp_v, free_rw, acc_rw, acc_we_rw;
      logic req, we;
      logic [NRP-1:0]          preq, pwe, pgnt;
      logic [NRP*32-1:0]       paddr;
      logic [NRP*Lanes-1:0]    pbe;
      logic [NRP*PayloadW-1:0] pwdata;
      logic [mt_common_pkg::idx_w(NRP)-1:0] ptag, pacc_tag;
      assign req = Split ? rx_rd_i[e] : (rx_wr_i[e] || rx_rd_i[e]);
      assign we  = !Split && rx_wr_i[e];
      assign preq[0]                 = req;
      assign pwe[0]                  = we;
      assign paddr[31:0]             = we ? rx_wr_addr_i[32*e +: 32] : rx_rd_addr_i[32*e +: 32];
      assign pbe[Lanes-1:0]          = we ? rx_wr_be_i[Lanes*e +: Lanes] : rx_rd_be_i[Lanes*e +: Lanes];
      assign pwdata[PayloadW-1:0]    = rx_wr_data_i[PayloadW*e +: PayloadW];
      assign gnt[P]                  = pgnt[0];
      if (NRP == 2) begin : g_sg
        assign preq[1]                     = sg_rq_i;
        assign pwe[1]                      = 1'b0;
        assign paddr[63:32]                = sg_addr_i;
        assign pbe[2*Lanes-1:Lanes]        = sg_be_i;
        assign pwdata[2*PayloadW-1:PayloadW] = '0;
        assign sg_gnt                      = pgnt[1];
        assign sg_rsp_o                    = rsp_v && ptag == 1'b1;
        assign sg_rsp_data_o               = mem_rsp_data_i[PayloadW*P +: PayloadW];
        assign rx_rsp_o[e]                 = rsp_v && ptag == 1'b0;
      end else begin : g_one_rq
        assign rx_rsp_o[e] = rsp_v;
        if (e == 0) begin : g_nosg
          assign sg_gnt        = 1'b0;
          assign sg_rsp_o      = 1'b0;
          assign sg_rsp_data_o = '0;
        end
      end
      mt_ni_dma #(.NR(NRP), .PayloadW(PayloadW), .TqDepth(RQ + ((NRP == 2) ? SgTq : 0))) u_port (
        .clk_i, .rst_ni, .run_i,
        .req_i(preq), .req_we_i(pwe), .req_addr_i(paddr), .req_be_i(pbe), .req_wdata_i(pwdata), .gnt_o(pgnt),
        .mem_req_valid_o(mem_req_valid_o[P]), .mem_req_ready_i(mem_req_ready_i[P]),
        .mem_req_we_o(mem_req_we_o[P]), .mem_req_addr_o(mem_req_addr_o[32*P +: 32]),
        .mem_req_be_o(mem_req_be_o[Lanes*P +: Lanes]), .mem_req_wdata_o(mem_req_wdata_o[PayloadW*P +: PayloadW]),
        .mem_rsp_valid_i(mem_rsp_valid_i[P]),
        .rsp_v_o(rsp_v), .rsp_tag_o(ptag), .quiet_o(quiet[P]), .free_o(free_rw),
        .acc_o(acc_rw), .acc_we_o(acc_we_rw), .acc_tag_o(pacc_tag)
      );
      logic unused_tags;
      assign unused_tags = ^{ptag, pacc_tag};
      assign rx_rsp_data_o[PayloadW*e +: PayloadW] = mem_rsp_data_i[PayloadW*P +: PayloadW];
      if (Split) begin : g_wr
        localparam int W = L + E + e;  // writes
        logic unused_rsp, unused_wtag, unused_wacc_we, unused_wacc_tag;
        mt_ni_dma #(.NR(1), .PayloadW(PayloadW), .TqDepth(1)) u_port (
          .clk_i, .rst_ni, .run_i,
          .req_i(rx_wr_i[e]), .req_we_i(1'b1), .req_addr_i(rx_wr_addr_i[32*e +: 32]),
          .req_be_i(rx_wr_be_i[Lanes*e +: Lanes]), .req_wdata_i(rx_wr_data_i[PayloadW*e +: PayloadW]),
          .gnt_o(gnt[W]),
          .mem_req_valid_o(mem_req_valid_o[W]), .mem_req_ready_i(mem_req_ready_i[W]),
          .mem_req_we_o(mem_req_we_o[W]), .mem_req_addr_o(mem_req_addr_o[32*W +: 32]),
          .mem_req_be_o(mem_req_be_o[Lanes*W +: Lanes]), .mem_req_wdata_o(mem_req_wdata_o[PayloadW*W +: PayloadW]),
          .mem_rsp_valid_i(mem_rsp_valid_i[W]),
          .rsp_v_o(unused_rsp), .rsp_tag_o(unused_wtag), .quiet_o(quiet[W]), .free_o(rx_wfree_o[e]),
          .acc_o(rx_wacc_o[e]), .acc_we_o(unused_wacc_we), .acc_tag_o(unused_wacc_tag)
        );
        assign rx_gnt_wr_o[e] = gnt[W];
        assign rx_gnt_rd_o[e] = gnt[P];
        logic unused_free_rd, unused_wr_rsp;
        assign unused_free_rd = free_rw ^ acc_rw ^ acc_we_rw;  // a read port: nothing to wait for
        assign unused_wr_rsp  = ^mem_rsp_data_i[PayloadW*W +: PayloadW];  // writes get no response
      end else begin : g_rw
        assign rx_gnt_wr_o[e] = gnt[P] && rx_wr_i[e];
        assign rx_gnt_rd_o[e] = gnt[P] && !rx_wr_i[e];
        assign rx_wfree_o[e]  = free_rw;
        assign rx_wacc_o[e]   = acc_rw && acc_we_rw;
      end
    end
    assign gnt_any_o = (|gnt) || sg_gnt;  // (the stager: port L's second requester)
    assign sg_gnt_o  = sg_gnt;
  end
  // (any other M stops at the $fatal above)
  if (SG == 0) begin : g_nosg_in
    logic unused_sg;
    assign unused_sg = ^{sg_rq_i, sg_addr_i, sg_be_i};
  end
endmodule
