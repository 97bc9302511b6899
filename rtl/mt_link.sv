// SPDX-License-Identifier: Apache-2.0
// mt_link: link delay line (flits one way, credit pulses the other; one instance each).
// Contract: Lat >= 1 counts the driving block's output register, so Lat = 1 is a wire and
// Lat = n adds n-1 register stages: a value driven after edge k reaches the receiver's
// input sampled at edge k+Lat. The output is 0 (no valid flit, no credit) until Lat-1 edges
// after reset. The stages are a ring of Lat-1 words with one write pointer, not a shift
// register: the word written Lat-1 edges ago is the one the pointer is at, so every edge
// writes one word and moves one pointer whatever the latency (a 150-cycle link of the paper's
// Table III does not move 149 words per edge in simulation; an FPGA maps it to a RAM).
`default_nettype none
module mt_link #(
  parameter int Width = 8,
  parameter int Lat = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] d_i,
  output logic [Width-1:0] q_o
);
  initial begin
    if (Lat < 1) $fatal(1, "mt_link: Lat=%0d must be >= 1", Lat);
    if (Width < 1) $fatal(1, "mt_link: Width=%0d must be >= 1", Width);
  end

  if (Lat == 1) begin : g_wire
    assign q_o = d_i;
    // clock and reset unused in a wire
    logic unused_ok;
    assign unused_ok = clk_i ^ rst_ni;
  end else if (Lat == 2) begin : g_reg
    logic [Width-1:0] stage_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) stage_q <= '0;
      else stage_q <= d_i;
    end
    assign q_o = stage_q;
  end else begin : g_ring
    localparam int Stages = Lat - 1;
    localparam int PtrW = $clog2(Stages);
    logic [Width-1:0] ring_q [Stages];  // no reset: full_q says which words are valid
    logic [PtrW-1:0] wp_q;
    logic full_q;                       // every word written since reset
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        wp_q <= '0;
        full_q <= 1'b0;
      end else begin
        wp_q <= (wp_q == PtrW'(Stages - 1)) ? '0 : wp_q + 1'b1;
        if (wp_q == PtrW'(Stages - 1)) full_q <= 1'b1;
      end
    end
    always_ff @(posedge clk_i) begin
      ring_q[wp_q] <= d_i;
    end
    assign q_o = full_q ? ring_q[wp_q] : '0;
  end
endmodule
