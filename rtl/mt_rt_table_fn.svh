// SPDX-License-Identifier: Apache-2.0
// mt_rt_table_fn.svh: the route function of the switch (mt_router with Table = 1,
// docs/reference/switch.md), `include'd in the body of mt_router, which calls it only for an idle input
// VC with a head at its front. The C twin is table_route in cmodel/hw/mt_router.c. Uses the
// includer's parameters NP, NumVcs, HopClasses, TabW and NetMask (bit p: port p is a network
// port; a mask rather than a comparison with ND, which may be 0).

// {port[3:0], mask[NumVcs-1:0], err} of a head from source src whose destination's table
// entry is e ({valid, n - 1, base}, MT_RT_TAB without its unused bits; '0 when the
// destination lies beyond the table), arriving on in_port in VC in_vc: port base + src mod n
// of the set of n ports; toward a network port the VCs of its hop class (class 0 from an NI
// port, else the class after the arrival VC's, at most HopClasses - 1), toward an NI port
// every VC. No valid entry: port 0 and err (the sticky rt_err_o flag).
function automatic logic [NumVcs+4:0] mt_rt_table_f(input logic [TabW-1:0] e, input logic [11:0] src,
                                                    input logic [3:0] in_port, input logic [3:0] in_vc);
  logic [4:0] cnt, port, off;
  logic [NumVcs-1:0] mask;
  logic err;
  int cls;
  cnt = {1'b0, e[7:4]} + 5'd1;
  // off = src mod cnt, one bit of src at a time (restoring division): a 5-bit compare and
  // subtract per bit instead of a $mod cell, which Yosys' SHARE pass tries to share across
  // the input VCs until it runs out of memory (over 22 GB: docs/results/area.md "Router")
  off = '0;
  for (int b = 11; b >= 0; b--) begin
    off = {off[3:0], src[b]};
    if (off >= cnt) off = off - cnt;
  end
  port = {1'b0, e[3:0]} + off;
  err = !e[8] || ({1'b0, port} >= 6'(NP));  // the second: never in a table the C side loads
  if (err) port = '0;
  // the class toward a network port depends on the arrival port and VC alone (constants at
  // every call), so the class mask is a constant and the port only selects it
  cls = 0;
  if (NetMask[in_port]) cls = 32'(in_vc) / (NumVcs / HopClasses) + 1;
  if (cls > HopClasses - 1) cls = HopClasses - 1;
  mask = '1;
  if (HopClasses > 1 && NetMask[port[3:0]]) mask = NumVcs'((1 << (NumVcs / HopClasses)) - 1) << (cls * (NumVcs / HopClasses));
  mt_rt_table_f = {port[3:0], mask, err};
endfunction
