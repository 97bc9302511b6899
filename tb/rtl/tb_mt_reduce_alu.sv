// SPDX-License-Identifier: Apache-2.0
// tb_mt_reduce_alu: Icarus unit bench of mt_reduce_alu (Lanes = 4) with hand-derived
// vectors (independent of the C model): fp32 sums, signed zeros, subnormals, infinities,
// NaN canonicalisation, ties, overflow, int32 wrap-around; also reset, latency 1 + Pipe (valid_o
// low before it), hold, and (Pipe > 0) vectors on consecutive edges coming out in order.
// Pipe is the DUT's (iverilog -P tb_mt_reduce_alu.Pipe=N).
// Prints `RESULT tb_mt_reduce_alu pass=N fail=M`.
`timescale 1ns/1ps
`default_nettype none

module tb_mt_reduce_alu #(
  parameter int Pipe = 0
);
  localparam int Lanes = 4;
  logic                clk = 1'b0, rst_ni = 1'b1;
  logic                valid_i = 1'b0, dtype_i = 1'b0;
  logic [Lanes*32-1:0] a_i = '0, b_i = '0;
  logic                valid_o;
  logic [Lanes*32-1:0] sum_o;
  int                  n_pass = 0, n_fail = 0;

  mt_reduce_alu #(.Lanes(Lanes), .Pipe(Pipe)) dut (
    .clk_i(clk), .rst_ni(rst_ni), .valid_i(valid_i), .dtype_i(dtype_i),
    .a_i(a_i), .b_i(b_i), .valid_o(valid_o), .sum_o(sum_o)
  );

  always #5 clk = ~clk;

  task automatic check(input string what, input bit ok);
    if (ok) n_pass++;
    else begin n_fail++; $display("FAIL %s t=%0t", what, $time); end
  endtask

  // vectors: {dtype, a, b, expected}
  localparam int NV = 28;
  logic [96:0] vec [0:NV-1];
  initial begin
    vec[0]  = {1'b1, 32'h3f800000, 32'h40000000, 32'h40400000};  // 1 + 2 = 3
    vec[1]  = {1'b1, 32'h3f800000, 32'hbf800000, 32'h00000000};  // 1 + -1 = +0
    vec[2]  = {1'b1, 32'h00000000, 32'h80000000, 32'h00000000};  // +0 + -0 = +0
    vec[3]  = {1'b1, 32'h80000000, 32'h80000000, 32'h80000000};  // -0 + -0 = -0
    vec[4]  = {1'b1, 32'h7f800000, 32'hff800000, 32'h7fc00000};  // inf + -inf = qNaN
    vec[5]  = {1'b1, 32'h7f800000, 32'h3f800000, 32'h7f800000};  // inf + 1 = inf
    vec[6]  = {1'b1, 32'hff800000, 32'h7f7fffff, 32'hff800000};  // -inf + max = -inf
    vec[7]  = {1'b1, 32'h7f800001, 32'h3f800000, 32'h7fc00000};  // sNaN -> canonical
    vec[8]  = {1'b1, 32'h3f800000, 32'hffc00001, 32'h7fc00000};  // -qNaN payload -> canonical
    vec[9]  = {1'b1, 32'h00000001, 32'h00000001, 32'h00000002};  // min sub + min sub
    vec[10] = {1'b1, 32'h00000001, 32'h80000001, 32'h00000000};  // min sub - min sub = +0
    vec[11] = {1'b1, 32'h007fffff, 32'h00000001, 32'h00800000};  // max sub + min sub = min normal
    vec[12] = {1'b1, 32'h00800000, 32'h80000001, 32'h007fffff};  // min normal - min sub
    vec[13] = {1'b1, 32'h00800000, 32'h80800000, 32'h00000000};  // min normal - itself
    vec[14] = {1'b1, 32'h00c00000, 32'h80800000, 32'h00400000};  // 1.5*2^-126 - 2^-126 = subnormal
    vec[15] = {1'b1, 32'h7f7fffff, 32'h7f7fffff, 32'h7f800000};  // max + max = inf
    vec[16] = {1'b1, 32'h7f7fffff, 32'h73000000, 32'h7f800000};  // max + half ulp: tie -> even = inf
    vec[17] = {1'b1, 32'h7f7fffff, 32'h72ffffff, 32'h7f7fffff};  // below half ulp: stays max
    vec[18] = {1'b1, 32'h3f800000, 32'h33800000, 32'h3f800000};  // 1 + 2^-24: tie, even (down)
    vec[19] = {1'b1, 32'h3f800001, 32'h33800000, 32'h3f800002};  // odd + tie: up to even
    vec[20] = {1'b1, 32'h3f800000, 32'h33800001, 32'h3f800001};  // above tie: up
    vec[21] = {1'b1, 32'h3f800000, 32'hb3800000, 32'h3f7fffff};  // 1 - 2^-24 exact
    vec[22] = {1'b1, 32'h40490fdb, 32'hc0490fdb, 32'h00000000};  // pi - pi = +0
    vec[23] = {1'b1, 32'hc0000000, 32'h3f800000, 32'hbf800000};  // -2 + 1 = -1
    vec[24] = {1'b0, 32'h7fffffff, 32'h00000001, 32'h80000000};  // int32 max + 1 wraps
    vec[25] = {1'b0, 32'hffffffff, 32'h00000001, 32'h00000000};  // int32 -1 + 1
    vec[26] = {1'b0, 32'h80000000, 32'h80000000, 32'h00000000};  // int32 min + min
    vec[27] = {1'b0, 32'h3f800000, 32'h3f800000, 32'h7f000000};  // fp bits added as int32
  end

  initial begin : main
    logic [31:0] want, got;
    logic [Lanes*32-1:0] held;
    #1 rst_ni = 1'b0;                    // asynchronous reset edge
    #1 check("valid_o low in reset", valid_o == 1'b0);
    @(negedge clk); rst_ni = 1'b1;
    // each vector in lane (i % Lanes), the other lanes get a rotation of other vectors
    for (int i = 0; i < NV; i++) begin
      @(negedge clk);
      valid_i = 1'b1;
      dtype_i = vec[i][96];
      for (int k = 0; k < Lanes; k++) begin
        a_i[k*32 +: 32] = vec[dtype_i ? i : 24][95:64];
        b_i[k*32 +: 32] = vec[dtype_i ? i : 24][63:32];
      end
      a_i[(i % Lanes)*32 +: 32] = vec[i][95:64];
      b_i[(i % Lanes)*32 +: 32] = vec[i][63:32];
      @(posedge clk); #1;
      valid_i = 1'b0; a_i = '1; b_i = '1;
      for (int d = 0; d < Pipe; d++) begin
        check($sformatf("valid_o low %0d edges after vector %0d", d + 1, i), valid_o == 1'b0);
        @(posedge clk); #1;
      end
      check($sformatf("valid_o for vector %0d", i), valid_o == 1'b1);
      want = vec[i][31:0];
      got  = sum_o[(i % Lanes)*32 +: 32];
      check($sformatf("vector %0d: %08h + %08h = %08h, want %08h", i, vec[i][95:64],
                      vec[i][63:32], got, want), got == want);
    end
    // all four lanes at once, four different fp32 vectors
    @(negedge clk);
    valid_i = 1'b1;
    dtype_i = 1'b1;
    for (int k = 0; k < Lanes; k++) begin
      a_i[k*32 +: 32] = vec[k*5][95:64];
      b_i[k*32 +: 32] = vec[k*5][63:32];
    end
    @(posedge clk); #1;
    valid_i = 1'b0;
    repeat (Pipe) @(posedge clk); #1;
    for (int k = 0; k < Lanes; k++)
      check($sformatf("lane %0d of a mixed vector", k), sum_o[k*32 +: 32] == vec[k*5][31:0]);
    // idle: valid_o drops, sum_o holds
    held = sum_o;
    @(negedge clk);
    valid_i = 1'b0; a_i = '1; b_i = '1;
    @(posedge clk); #1;
    check("valid_o low when idle", valid_o == 1'b0);
    check("sum_o held when idle", sum_o == held);
    // vectors on consecutive edges, one lane each (lane 0): results in order, one per edge
    for (int i = 0; i < NV + Pipe; i++) begin
      @(negedge clk);
      valid_i = (i < NV);
      dtype_i = vec[i % NV][96];
      a_i[31:0] = vec[i % NV][95:64];
      b_i[31:0] = vec[i % NV][63:32];
      @(posedge clk); #1;
      if (i >= Pipe) begin
        check($sformatf("streamed vector %0d valid", i - Pipe), valid_o == 1'b1);
        check($sformatf("streamed vector %0d: %08h, want %08h", i - Pipe, sum_o[31:0], vec[i - Pipe][31:0]),
              sum_o[31:0] == vec[i - Pipe][31:0]);
      end
    end
    @(negedge clk); valid_i = 1'b0;
    @(posedge clk); #1;
    check("valid_o low after the stream", valid_o == 1'b0);
    $display("RESULT tb_mt_reduce_alu pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end

  initial begin
    #100000;
    $display("RESULT tb_mt_reduce_alu pass=%0d fail=%0d (TIMEOUT)", n_pass, n_fail + 1);
    $finish;
  end
endmodule
