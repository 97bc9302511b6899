// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_ejbuf: ejection FIFOs: per-(port, VC) FIFO order, one credit pulse per pop in the
// next cycle, overflow flagged (and the flit dropped) when a FIFO is full before the edge.
`timescale 1ns/1ps
module tb_mt_ni_ejbuf;
  localparam int L = 2, NV = 2, D = 3, PW = 128, FW = PW + 3 + 1, S = L * NV;
  logic clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  `include "mt_tb.svh"

  logic [L*FW-1:0] flit = '0;
  logic [L-1:0] valid = '0;
  logic [S-1:0] cred, ne;
  logic pop = 0, ovf;
  logic [1:0] pop_s = 0, sel = 0;
  logic [FW-1:0] front;
  logic [S*FW-1:0] head;
  assign front = head[FW*sel +: FW];  // an engine's view: the head of the stream it selects
  mt_ni_ejbuf #(.L(L), .NumVcs(NV), .EjDepth(D), .PayloadW(PW)) dut (
    .clk_i(clk), .rst_ni(rst_n), .ej_flit_i(flit), .ej_valid_i(valid), .ej_credit_o(cred),
    .pop_i(pop), .pop_s_i(pop_s), .head_o(head), .nonempty_o(ne), .ovf_o(ovf));

  function automatic [FW-1:0] mk(input int vc, input int tag);
    mk = '0; mk[31:0] = tag; mk[PW+3] = vc[0];
  endfunction

  initial begin : main
    repeat (2) @(negedge clk);
    rst_n = 1'b1;
    // port 1: three flits on VC 1 (stream 3), port 0: one flit on VC 0 (stream 0)
    for (int i = 0; i < 3; i++) begin
      flit = '0; valid = '0;
      flit[FW +: FW] = mk(1, 100 + i); valid[1] = 1;
      if (i == 0) begin flit[0 +: FW] = mk(0, 7); valid[0] = 1; end
      #1 check("no overflow while filling", !ovf);  // before the edge that takes the flit
      @(negedge clk);
    end
    valid = '0;
    check("nonempty 0 and 3", ne == 4'b1001);
    sel = 3; #1 check("front of stream 3 = 100", front[31:0] == 100);
    // a fourth flit into the full stream 3: overflow, dropped
    flit[FW +: FW] = mk(1, 103); valid[1] = 1; #1 check("ovf flagged", ovf);
    @(negedge clk); valid = '0; #1 check("ovf gone", !ovf);
    // pop stream 3 three times: 100, 101, 102, a credit pulse per pop the cycle after
    for (int i = 0; i < 3; i++) begin
      sel = 3; #1 check("fifo order", front[31:0] == 100 + i);
      pop = 1; pop_s = 3; @(negedge clk); pop = 0;
      check("credit pulse on 3", cred == 4'b1000);
    end
    @(negedge clk); check("credit is a pulse", cred == 4'b0000);
    check("stream 3 empty", ne == 4'b0001);
    sel = 0; #1 check("stream 0 front = 7", front[31:0] == 7);
    // pop and push the same stream in one cycle
    flit = '0; flit[0 +: FW] = mk(0, 8); valid[0] = 1; pop = 1; pop_s = 0;
    @(negedge clk); valid = '0; pop = 0;
    check("pop+push: one left", ne == 4'b0001);
    #1 check("front now 8", front[31:0] == 8);
    $display("RESULT tb_mt_ni_ejbuf pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
