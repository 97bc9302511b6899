// SPDX-License-Identifier: Apache-2.0
// tb_mt_ni_entry_dec: mt_ni_entry_dec (combinational) against words packed by hand.
// Covers: full layout (FlowW 4, StepW 5, IdW 4, PortW 3, EjW 2, AddrW 12, SizeW 13, 4
// children): op/flow/step, parent and child slots (valid, node id, port, eject), addr/size,
// nchild (leading valid children) and gap (a valid child after an empty one); compact layout
// (no ids/addr/size): node ids from nbr_tx (sending slots) / nbr_rx (receiving slots; the
// parent receives for a Gather, the children for a Reduce), addr/size from the chunk tiling
// elem*(f*base+min(f,rem)), elem*(base+(f<rem)), NOP size = nop_bytes.
`timescale 1ns/1ps
module tb_mt_ni_entry_dec;
  `include "mt_tb.svh"

  // full: slot = valid | id(4) | port(3) | ej(2) = 10 bits; entry = 2+4+5+10+40+12+13 = 86
  localparam int FSW = 10, FW = 86, CSW = 6, CW = 2 + 4 + 5 + 6 + 4 * 6;
  logic [FW-1:0] fw;
  logic [CW-1:0] cwd;
  logic [16*12-1:0] ntx, nrx;
  logic [31:0] base_u, rem_u, elem, nop;
  logic [1:0] f_op, c_op;
  logic [11:0] f_flow, c_flow, f_pnode, c_pnode;
  logic [15:0] f_step, c_step;
  logic f_pv, c_pv, f_gap, c_gap;
  logic [3:0] f_pport, f_pej, c_pport, c_pej, f_nch, c_nch;
  logic [3:0] f_cv, c_cv;
  logic [4*12-1:0] f_cnode, c_cnode;
  logic [4*4-1:0] f_cport, f_cej, c_cport, c_cej;
  logic [31:0] f_addr, f_size, c_addr, c_size;

  mt_ni_entry_dec #(.Compact(0), .FlowW(4), .StepW(5), .IdW(4), .PortW(3), .EjW(2), .AddrW(12), .SizeW(13), .Children(4)) u_full (
    .word_i(fw), .nbr_tx_i(ntx), .nbr_rx_i(nrx), .base_units_i(base_u), .rem_units_i(rem_u), .elem_i(elem), .nop_bytes_i(nop),
    .op_o(f_op), .flow_o(f_flow), .step_o(f_step), .pv_o(f_pv), .pnode_o(f_pnode), .pport_o(f_pport), .pej_o(f_pej),
    .cv_o(f_cv), .cnode_o(f_cnode), .cport_o(f_cport), .cej_o(f_cej), .nchild_o(f_nch), .gap_o(f_gap), .addr_o(f_addr), .size_o(f_size));
  mt_ni_entry_dec #(.Compact(1), .FlowW(4), .StepW(5), .IdW(4), .PortW(3), .EjW(2), .Children(4)) u_cmp (
    .word_i(cwd), .nbr_tx_i(ntx), .nbr_rx_i(nrx), .base_units_i(base_u), .rem_units_i(rem_u), .elem_i(elem), .nop_bytes_i(nop),
    .op_o(c_op), .flow_o(c_flow), .step_o(c_step), .pv_o(c_pv), .pnode_o(c_pnode), .pport_o(c_pport), .pej_o(c_pej),
    .cv_o(c_cv), .cnode_o(c_cnode), .cport_o(c_cport), .cej_o(c_cej), .nchild_o(c_nch), .gap_o(c_gap), .addr_o(c_addr), .size_o(c_size));

  function automatic [FSW-1:0] fslot(input bit v, input int id, input int port, input int ej);
    fslot = {2'(ej), 3'(port), 4'(id), v};
  endfunction
  function automatic [CSW-1:0] cslot(input bit v, input int port, input int ej);
    cslot = {2'(ej), 3'(port), v};
  endfunction

  initial begin : main
    for (int p = 0; p < 16; p++) begin ntx[12*p +: 12] = 12'(100 + p); nrx[12*p +: 12] = 12'(200 + p); end
    base_u = 10; rem_u = 3; elem = 16; nop = 777;
    // full: Reduce, flow 9, step 17, parent (id 5, port 2, ej 1), children 0,1 valid (ids 3, 12)
    fw = {13'd4096, 12'd2048, fslot(0, 0, 0, 0), fslot(0, 0, 0, 0), fslot(1, 12, 6, 3), fslot(1, 3, 4, 0),
          fslot(1, 5, 2, 1), 5'd17, 4'd9, 2'd1};
    #1;
    check("full op", f_op == 1); check("full flow", f_flow == 9); check("full step", f_step == 17);
    check("full parent", f_pv && f_pnode == 5 && f_pport == 2 && f_pej == 1);
    check("full cv", f_cv == 4'b0011); check("full child0", f_cnode[11:0] == 3 && f_cport[3:0] == 4 && f_cej[3:0] == 0);
    check("full child1", f_cnode[23:12] == 12 && f_cport[7:4] == 6 && f_cej[7:4] == 3);
    check("full nchild 2", f_nch == 2 && !f_gap);
    check("full addr/size", f_addr == 2048 && f_size == 4096);
    // a gap: children 0 and 2 valid, parent empty, Gather
    fw = {13'd5, 12'd7, fslot(0, 0, 0, 0), fslot(1, 1, 1, 1), fslot(0, 0, 0, 0), fslot(1, 2, 2, 2),
          fslot(0, 0, 0, 0), 5'd31, 4'd15, 2'd2};
    #1;
    check("gap: op/flow/step", f_op == 2 && f_flow == 15 && f_step == 31);
    check("gap: no parent", !f_pv); check("gap: cv", f_cv == 4'b0101);
    check("gap: nchild 1, gap", f_nch == 1 && f_gap);
    check("gap: child2", f_cnode[35:24] == 1 && f_cport[11:8] == 1 && f_cej[11:8] == 1);
    // all four children valid
    fw = {13'd0, 12'd0, fslot(1, 15, 7, 3), fslot(1, 14, 7, 3), fslot(1, 13, 7, 3), fslot(1, 12, 7, 3),
          fslot(1, 0, 0, 0), 5'd0, 4'd0, 2'd3};
    #1;
    check("4 children", f_nch == 4 && !f_gap && f_cv == 4'hf && f_op == 3 && f_cnode[47:36] == 15);
    // compact Reduce flow 2 (2 < rem 3): addr 16*(2*10+2)=352, size 16*11=176; the children
    // receive (nbr_rx), the parent sends (nbr_tx)
    cwd = {cslot(0, 0, 0), cslot(0, 0, 0), cslot(1, 5, 2), cslot(1, 3, 1), cslot(1, 1, 0), 5'd4, 4'd2, 2'd1};
    #1;
    check("cmp op/flow/step", c_op == 1 && c_flow == 2 && c_step == 4);
    check("cmp parent node = nbr_tx[1]", c_pv && c_pnode == 101 && c_pport == 1);
    check("cmp child0 node = nbr_rx[3]", c_cnode[11:0] == 203 && c_cej[3:0] == 1);
    check("cmp child1 node = nbr_rx[5]", c_cnode[23:12] == 205 && c_cport[7:4] == 5 && c_cej[7:4] == 2);
    check("cmp nchild 2", c_nch == 2 && !c_gap);
    check("cmp addr f<rem", c_addr == 352); check("cmp size f<rem", c_size == 176);
    // compact Gather flow 7 (>= rem): addr 16*(70+3)=1168, size 160; parent receives (nbr_rx)
    cwd = {cslot(0, 0, 0), cslot(0, 0, 0), cslot(0, 0, 0), cslot(1, 4, 0), cslot(1, 6, 3), 5'd1, 4'd7, 2'd2};
    #1;
    check("cmp gather parent node = nbr_rx[6]", c_pnode == 206 && c_pej == 3);
    check("cmp gather child node = nbr_tx[4]", c_cnode[11:0] == 104);
    check("cmp addr f>=rem", c_addr == 1168); check("cmp size f>=rem", c_size == 160);
    // compact NOP: size = nop_bytes, addr 0
    cwd = {cslot(0, 0, 0), cslot(0, 0, 0), cslot(0, 0, 0), cslot(0, 0, 0), cslot(0, 0, 0), 5'd3, 4'd1, 2'd0};
    #1;
    check("cmp nop", c_op == 0 && c_addr == 0 && c_size == 777 && c_nch == 0 && !c_gap);
    // compact: child 0 empty, child 1 valid -> gap
    cwd = {cslot(0, 0, 0), cslot(0, 0, 0), cslot(1, 2, 0), cslot(0, 0, 0), cslot(0, 0, 0), 5'd3, 4'd1, 2'd1};
    #1;
    check("cmp gap", c_nch == 0 && c_gap);
    $display("RESULT tb_mt_ni_entry_dec pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
