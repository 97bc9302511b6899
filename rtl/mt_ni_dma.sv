// SPDX-License-Identifier: Apache-2.0
// mt_ni_dma: one memory port of the NI (mt_ni_mports has MemPorts of them). NR requesters
// (with one port: the packetisers 0..L-1, reads of the chunk being sent, then the receive
// engines, reads of the running sum, writes of results and gathered data). One request
// register drives the valid/ready port; a new request is granted (round robin after the last
// grant) when the register is empty or its request is accepted at this edge. Reads complete
// in order: a tag FIFO of TqDepth entries (with one port L*SQ + E*RQ: every requester
// reserves its response space before it asks) routes each response to its requester
// (rsp_v_o, rsp_tag_o).
// Contract of the port: valid/ready as docs/reference/interfaces.md (valid from a register, held with
// its fields while not ready); responses arrive in request order, one per read, with no
// back-pressure; a write needs no response. Fields are zero when valid is low.
`default_nettype none

module mt_ni_dma #(
  parameter int NR       = 5,      // requesters
  parameter int PayloadW = 128,
  parameter int TqDepth  = 20,
  localparam int Lanes   = PayloadW / 32,
  localparam int TW      = mt_common_pkg::idx_w(NR),
  localparam int QW      = mt_common_pkg::idx_w(TqDepth),
  localparam int QCW     = $clog2(TqDepth + 1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                run_i,
  // requesters
  input  logic [NR-1:0]       req_i,
  input  logic [NR-1:0]       req_we_i,
  input  logic [NR*32-1:0]    req_addr_i,
  input  logic [NR*Lanes-1:0] req_be_i,
  input  logic [NR*PayloadW-1:0] req_wdata_i,  // write data (requesters that write)
  output logic [NR-1:0]       gnt_o,
  // memory port
  output logic                mem_req_valid_o,
  input  logic                mem_req_ready_i,
  output logic                mem_req_we_o,
  output logic [31:0]         mem_req_addr_o,
  output logic [Lanes-1:0]    mem_req_be_o,
  output logic [PayloadW-1:0] mem_req_wdata_o,
  input  logic                mem_rsp_valid_i,
  // response routing
  output logic                rsp_v_o,
  output logic [TW-1:0]       rsp_tag_o,
  output logic                quiet_o,     // no request held, no read outstanding
  output logic                free_o,      // no request held after this edge but a new grant
  // the held request accepted at this edge, and by whom (chained reduction counts writes)
  output logic                acc_o,
  output logic                acc_we_o,
  output logic [TW-1:0]       acc_tag_o
);
  initial begin
    if (NR < 1) $fatal(1, "mt_ni_dma: NR=%0d", NR);
    if (TqDepth < 1) $fatal(1, "mt_ni_dma: TqDepth=%0d", TqDepth);
  end

  logic                rq_v_q, rq_we_q;
  logic [31:0]         rq_addr_q;
  logic [Lanes-1:0]    rq_be_q;
  logic [PayloadW-1:0] rq_data_q;
  logic [TW-1:0]       mrr_q;
  logic [TW-1:0]       tq_q [0:TqDepth-1];
  logic [QW-1:0]       tq_rd_q;
  logic [QCW-1:0]      tq_cnt_q;

  // round robin after the last grant
  logic          slot_free, any;
  logic [TW-1:0] g;
  assign slot_free = !rq_v_q || mem_req_ready_i;
  assign free_o    = slot_free;
  assign acc_o     = rq_v_q && mem_req_ready_i;
  assign acc_we_o  = rq_we_q;
  assign acc_tag_o = mrr_q;      // the requester of the held request (its grant set both)
  always_comb begin
    logic [31:0] i;
    any = 1'b0;
    g   = '0;
    for (int k = 1; k <= NR; k++) begin
      i = 32'(mrr_q) + 32'(k);
      if (i >= 32'(NR)) i = i - 32'(NR);
      if (!any && req_i[i[TW-1:0]]) begin
        any = 1'b1;
        g   = i[TW-1:0];
      end
    end
  end
  logic grant;
  assign grant = run_i && slot_free && any;
  always_comb begin
    gnt_o = '0;
    if (grant) gnt_o[g] = 1'b1;
  end

  assign rsp_v_o   = mem_rsp_valid_i && (tq_cnt_q != '0);
  assign rsp_tag_o = tq_q[tq_rd_q];
  assign quiet_o   = !rq_v_q && (tq_cnt_q == '0);

  function automatic [QW-1:0] wrap(input logic [31:0] x);
    wrap = (x >= 32'(TqDepth)) ? QW'(x - 32'(TqDepth)) : QW'(x);
  endfunction

  logic push;
  assign push = grant && !req_we_i[g];

  always_ff @(posedge clk_i) begin
    if (push) tq_q[wrap(32'(tq_rd_q) + 32'(tq_cnt_q))] <= g;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rq_v_q <= 1'b0; rq_we_q <= 1'b0; rq_addr_q <= '0; rq_be_q <= '0; rq_data_q <= '0;
      mrr_q <= '0; tq_rd_q <= '0; tq_cnt_q <= '0;
    end else begin
      if (rq_v_q && mem_req_ready_i) rq_v_q <= 1'b0;
      if (grant) begin
        mrr_q     <= g;
        rq_v_q    <= 1'b1;
        rq_we_q   <= req_we_i[g];
        rq_addr_q <= req_addr_i[32*g +: 32];
        rq_be_q   <= req_be_i[Lanes*g +: Lanes];
        rq_data_q <= req_we_i[g] ? req_wdata_i[PayloadW*g +: PayloadW] : '0;
      end
      if (rsp_v_o) tq_rd_q <= wrap(32'(tq_rd_q) + 32'd1);
      tq_cnt_q <= tq_cnt_q + QCW'(push) - QCW'(rsp_v_o);
    end
  end

  assign mem_req_valid_o = rq_v_q;
  assign mem_req_we_o    = rq_v_q && rq_we_q;
  assign mem_req_addr_o  = rq_v_q ? rq_addr_q : '0;
  assign mem_req_be_o    = rq_v_q ? rq_be_q : '0;
  assign mem_req_wdata_o = rq_v_q ? rq_data_q : '0;
endmodule
