// SPDX-License-Identifier: Apache-2.0
// mt_link: link delay line (flits one way, credit pulses the other; one instance each).
// Contract: Lat >= 1 counts the driving block's output register, so Lat = 1 is a wire and
// Lat = n adds n-1 register stages: a value driven after edge k reaches the receiver's
// input sampled at edge k+Lat. All stages reset to 0 (no valid flit, no credit).
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
  end else begin : g_regs
    localparam int Stages = Lat - 1;
    logic [Width-1:0] stage_q [Stages];
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int s = 0; s < Stages; s++) stage_q[s] <= '0;
      end else begin
        stage_q[0] <= d_i;
        for (int s = 1; s < Stages; s++) stage_q[s] <= stage_q[s-1];
      end
    end
    assign q_o = stage_q[Stages-1];
  end
endmodule
