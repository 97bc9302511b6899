// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_pktz: one packetiser sending a 72-byte chunk (5 flits, the last with 2 lanes) in
// message mode (SubPktFlits = 2) and in packet mode (32-byte packets), against a memory that
// answers one cycle after each grant and a router buffer of 2 credits returning each credit
// 3 cycles after the flit. Expected flit sequences are hand-derived from docs/reference/interfaces.md.
`timescale 1ns/1ps
module tb_mt_ni_pktz;
  localparam int PW = 128, FW = PW + 3 + 1;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `include "mt_tb.svh"

  logic act = 0, pkt = 0, req, gnt, rsp_q = 0, busy, send, valid;
  logic [31:0] raddr;
  logic [3:0]  rbe;
  logic [PW-1:0] rdata_q = '0;
  logic [1:0]  credit;
  logic [FW-1:0] flit;
  mt_ni_pktz #(.PayloadW(PW), .NumVcs(2), .VcDepth(2), .SubPktFlits(2), .PktBytes(32), .InjVc(1), .SQ(2)) dut (
    .clk_i(clk), .rst_ni(rst_n), .clear_i(1'b0), .run_i(1'b1), .node_id_i(12'd4), .pkt_mode_i(pkt),
    .act_i(act), .a_op_i(2'd1), .a_flow_i(12'd5), .a_step_i(16'd3), .a_dst_i(12'd9), .a_port_i(4'd2),
    .a_routed_i(1'b0), .a_ej_i(4'd1), .a_addr_i(32'h40), .a_len_i(32'd72), .busy_o(busy),
    .req_o(req), .req_addr_o(raddr), .req_be_o(rbe), .gnt_i(gnt), .rsp_i(rsp_q), .rsp_data_i(rdata_q),
    .credit_i(credit), .send_o(send), .flit_o(flit), .valid_o(valid));

  // memory: grant every request, answer one cycle later, word = byte address / 4 (masked lanes 0)
  assign gnt = req;
  always @(posedge clk) begin
    rsp_q <= gnt;
    for (int k = 0; k < 4; k++) rdata_q[32*k +: 32] <= rbe[k] ? raddr / 4 + k : 32'd0;
  end
  // router buffer: a credit returns 3 cycles after each flit (VC 1 only)
  logic [2:0] cd = '0;
  always @(posedge clk) cd <= {cd[1:0], valid};
  assign credit = {cd[2], 1'b0};

  logic [FW-1:0] got [0:15];
  int ng = 0;
  always @(posedge clk) if (valid) begin got[ng] <= flit; ng <= ng + 1; end

  function automatic [127:0] head(input [31:0] len, input [31:0] addr, input last, input [3:0] nxt);
    head = {len, addr, 16'd3, 1'b0, last, 2'd1, 12'd5, 4'd1, nxt, 12'd4, 12'd9};
  endfunction
  function automatic [127:0] data(input int q);
    for (int k = 0; k < 4; k++) data[32*k +: 32] = (16 + 4 * q + k < 18 + 16) ? 16 + 4 * q + k : 0;
  endfunction
  task automatic expect_flit(input int i, input [2:0] ty, input [127:0] pl);
    check($sformatf("flit %0d type %0d (got %0d)", i, ty, got[i][PW +: 3]), got[i][PW +: 3] == ty);
    check($sformatf("flit %0d vc 1", i), got[i][PW + 3] == 1'b1);
    check($sformatf("flit %0d payload", i), got[i][PW-1:0] == pl);
  endtask

  initial begin : main
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    // ---- message mode ----
    act = 1; @(negedge clk); act = 0;
    check("busy after activation", busy);
    repeat (60) @(negedge clk);
    check("idle after the tail", !busy);
    check("6 flits", ng == 6);
    expect_flit(0, 3'd0, head(72, 32'h40, 1'b1, 4'd2));
    expect_flit(1, 3'd1, data(0));
    expect_flit(2, 3'd2, data(1));
    expect_flit(3, 3'd1, data(2));
    expect_flit(4, 3'd2, data(3));
    expect_flit(5, 3'd3, data(4));
    // ---- packet mode: 32 + 32 + 8 bytes ----
    ng = 0; pkt = 1; act = 1; @(negedge clk); act = 0;
    repeat (80) @(negedge clk);
    check("idle", !busy);
    check("8 flits", ng == 8);
    expect_flit(0, 3'd4, head(32, 32'h40, 1'b0, 4'd0));
    expect_flit(1, 3'd5, data(0));
    expect_flit(2, 3'd6, data(1));
    expect_flit(3, 3'd4, head(32, 32'h60, 1'b0, 4'd0));
    expect_flit(4, 3'd5, data(2));
    expect_flit(5, 3'd6, data(3));
    expect_flit(6, 3'd4, head(8, 32'h80, 1'b1, 4'd0));
    expect_flit(7, 3'd6, data(4));
    $display("RESULT tb_mt_ni_pktz pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
