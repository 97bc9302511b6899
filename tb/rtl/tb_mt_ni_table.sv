// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_table: the schedule table initialised from the planner's $readmemh image of the
// Fig. 5 2x2 mesh, node 0 (multitree, 1024 bytes, full layout of 52 bits), decoded by
// mt_ni_entry_dec; expected fields are those of Fig. 5 / `multitree plan --print`:
//   reduce(3,1,-,1) reduce(1,1,-,2) reduce(2,2,[1],2) reduce(0,root,[1,2],3)
//   gather(0,root,[2,1],3) gather(2,2,[1],4) END
// (the root reduce entry sits in the step after its children send, docs/reference/formats.md)
// Then the write port: a write and a read of one word at one edge return the old word.
`timescale 1ns/1ps
module tb_mt_ni_table;
  localparam int W = 52;
  logic clk = 1'b0;
  always #5 clk = ~clk;
  `include "mt_tb.svh"

  logic we = 0;
  logic [5:0] wa = 0, ra = 0, rb = 0;
  logic [W-1:0] wd = '0, qa, qb;
  mt_ni_table #(.Depth(64), .Width(W), .InitFile("rom_mesh2x2/node0.hex")) u_t (
    .clk_i(clk), .we_i(we), .waddr_i(wa), .wdata_i(wd), .ra_i(ra), .rda_o(qa), .rb_i(rb), .rdb_o(qb));

  logic [1:0] op; logic [11:0] flow, pnode; logic [15:0] step; logic pv, gap;
  logic [3:0] pport, pej, nchild; logic [1:0] cv; logic [23:0] cnode; logic [7:0] cport, cej;
  logic [31:0] addr, size;
  mt_ni_entry_dec #(.Compact(0), .FlowW(2), .StepW(3), .IdW(2), .PortW(3), .EjW(2), .AddrW(10),
                    .SizeW(11), .Children(2)) u_dec (
    .word_i(qa), .nbr_tx_i(192'd0), .nbr_rx_i(192'd0), .base_units_i(32'd0), .rem_units_i(32'd0),
    .elem_i(32'd0), .nop_bytes_i(32'd0), .op_o(op), .flow_o(flow), .step_o(step), .pv_o(pv), .pnode_o(pnode),
    .pport_o(pport), .pej_o(pej), .cv_o(cv), .cnode_o(cnode), .cport_o(cport), .cej_o(cej),
    .nchild_o(nchild), .gap_o(gap), .addr_o(addr), .size_o(size));

  // expected per entry i (byte i of each constant): op, flow, step, parent (FF = root),
  // nchild, child0, child1
  localparam logic [55:0] EOp   = {8'd3, 8'd2, 8'd2, 8'd1, 8'd1, 8'd1, 8'd1};
  localparam logic [55:0] EFlow = {8'd0, 8'd2, 8'd0, 8'd0, 8'd2, 8'd1, 8'd3};
  localparam logic [55:0] EStep = {8'd0, 8'd4, 8'd3, 8'd3, 8'd2, 8'd2, 8'd1};
  localparam logic [55:0] EPar  = {8'd0, 8'd2, 8'hff, 8'hff, 8'd2, 8'd1, 8'd1};
  localparam logic [55:0] ENc   = {8'd0, 8'd1, 8'd2, 8'd2, 8'd1, 8'd0, 8'd0};
  localparam logic [55:0] EC0   = {8'd0, 8'd1, 8'd2, 8'd1, 8'd1, 8'd0, 8'd0};
  localparam logic [55:0] EC1   = {8'd0, 8'd0, 8'd1, 8'd2, 8'd0, 8'd0, 8'd0};

  initial begin : main
    for (int i = 0; i < 7; i++) begin
      ra = 6'(i);
      @(negedge clk); #1;
      check($sformatf("entry %0d op %0d", i, op), op == 2'(32'(EOp[8*i +: 8])));
      if (32'(EOp[8*i +: 8]) != 3) begin
        check($sformatf("entry %0d flow/step", i), flow == 12'(32'(EFlow[8*i +: 8])) && step == 16'(32'(EStep[8*i +: 8])));
        check($sformatf("entry %0d parent", i), EPar[8*i +: 8] == 8'hff ? !pv : (pv && pnode == 12'(EPar[8*i +: 8])));
        check($sformatf("entry %0d children", i), nchild == 4'(32'(ENc[8*i +: 8])) && !gap &&
              (32'(ENc[8*i +: 8]) < 1 || cnode[11:0] == 12'(32'(EC0[8*i +: 8]))) && (32'(ENc[8*i +: 8]) < 2 || cnode[23:12] == 12'(32'(EC1[8*i +: 8]))));
        check($sformatf("entry %0d chunk", i), addr == 32'(32'(EFlow[8*i +: 8]) * 256) && size == 32'd256);
      end
    end
    // write port: read-old on a same-word write, new value one edge later
    ra = 6'd2; wa = 6'd2; wd = {W{1'b1}}; we = 1;
    @(negedge clk); we = 0; #1;
    check("read-during-write returns the old word", op == 2'd1 && flow == 12'd2);
    @(negedge clk); #1;
    check("the new word", qa == {W{1'b1}});
    rb = 6'd6; @(negedge clk); #1 check("port B reads END", qb[1:0] == 2'd3);
    $display("RESULT tb_mt_ni_table pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
