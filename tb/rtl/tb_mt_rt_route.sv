// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_route: hand-derived routes on a 4x4 torus and a 3x3 mesh (same cases as the C test).
`timescale 1ns/1ps
module tb_mt_rt_route;
  logic [11:0] node;
  logic [3:0] inp, port_t, port_m;
  logic cls1, normal, swap_t, swap_m;
  logic [31:0] info;
  logic [3:0] mask_t, mask_m;
  int n_pass = 0, n_fail = 0;
  mt_rt_route #(.D(2), .L(4), .NumVcs(4), .K0(4), .K1(4), .K2(1), .Torus(1)) ut (.node_id_i(node),
    .in_port_i(inp), .in_cls1_i(cls1), .normal_i(normal), .info_i(info), .port_o(port_t), .mask_o(mask_t), .swap_o(swap_t));
  mt_rt_route #(.D(2), .L(4), .NumVcs(4), .K0(3), .K1(3), .K2(1), .Torus(0)) um (.node_id_i(node),
    .in_port_i(inp), .in_cls1_i(cls1), .normal_i(normal), .info_i(info), .port_o(port_m), .mask_o(mask_m), .swap_o(swap_m));
  task automatic t(input string what, input int nd, input int ip, input bit c1, input bit nrm, input int dst,
                   input int nx, input int ej, input bit torus, input int ep, input int em, input bit es);
    node = 12'(nd); inp = 4'(ip); cls1 = c1; normal = nrm;
    info = {4'(ej), 4'(nx), 12'd0, 12'(dst)};
    #1;
    if (torus ? (port_t == 4'(ep) && mask_t == 4'(em) && swap_t == es)
              : (port_m == 4'(ep) && mask_m == 4'(em) && swap_m == es)) n_pass++;
    else begin
      n_fail++;
      $display("FAIL %s: torus port %0d mask %h swap %0d / mesh port %0d mask %h", what, port_t, mask_t, swap_t, port_m, mask_m);
    end
  endtask
  initial begin
    // injected at local input 4 for a neighbour (one hop): only the highest VC of the class
    // (in-order injection); more than one hop: the whole class
    t("0->3 wrap -X cls1", 0, 4, 0, 1, 3, 0, 0, 1, 1, 'h8, 0);
    t("5->7 tie +X cls0, 2 hops", 5, 4, 0, 1, 7, 0, 0, 1, 0, 'h3, 0);
    t("5->6 +X cls0, 1 hop", 5, 5, 0, 1, 6, 0, 0, 1, 0, 'h2, 0);
    t("5->10 +X then +Y, 2 hops", 5, 4, 0, 1, 10, 0, 0, 1, 0, 'h3, 0);
    t("3->0 wrap +X, 1 hop", 3, 4, 0, 1, 0, 0, 0, 1, 0, 'h8, 0);
    t("5->7 stays cls1", 5, 1, 1, 1, 7, 0, 0, 1, 0, 'hc, 0);
    t("5->9 dim change cls0", 5, 0, 1, 1, 9, 0, 0, 1, 2, 'h3, 0);
    t("13->1 wrap +Y cls1", 13, 4, 0, 1, 1, 0, 0, 1, 2, 'h8, 0);
    t("13->1 transit -X cls0", 13, 1, 0, 1, 1, 0, 0, 1, 2, 'hc, 0);
    t("6->6 eject 2", 6, 0, 0, 1, 6, 0, 2, 1, 6, 'hf, 0);
    t("eject >= L -> 0", 6, 0, 0, 1, 6, 0, 9, 1, 4, 'hf, 0);
    t("ar source next=3 swap", 0, 5, 0, 0, 4, 3, 1, 1, 3, 'hf, 1);
    t("ar receiver next=2", 4, 3, 1, 0, 4, 2, 3, 1, 6, 'hf, 0);
    t("ar receiver next>=L", 4, 3, 1, 0, 4, 7, 3, 1, 4, 'hf, 0);
    t("mesh 4->0 -X, 2 hops", 4, 4, 0, 1, 0, 0, 0, 0, 1, 'hf, 0);
    t("mesh 4->3 -X, 1 hop", 4, 4, 0, 1, 3, 0, 0, 0, 1, 'h8, 0);
    t("mesh 4->7 +Y", 4, 4, 0, 1, 7, 0, 0, 0, 2, 'h8, 0);
    t("mesh 4->7 transit", 4, 0, 0, 1, 7, 0, 0, 0, 2, 'hf, 0);
    t("mesh 0->2 +X (no wrap), 2 hops", 0, 4, 0, 1, 2, 0, 0, 0, 0, 'hf, 0);
    t("mesh 1->2 +X, 1 hop", 1, 4, 0, 1, 2, 0, 0, 0, 0, 'h8, 0);
    $display("RESULT tb_mt_rt_route pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
