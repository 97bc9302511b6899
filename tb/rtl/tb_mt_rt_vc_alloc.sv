// SPDX-License-Identifier: Apache-2.0
// tb_mt_rt_vc_alloc: lowest eligible VC; virtual cut-through credit rule for normal heads;
// toward a local output only an empty VC (all EjDepth = 9 credits back).
`timescale 1ns/1ps
module tb_mt_rt_vc_alloc;
  logic [3:0] mask, busy;
  logic [4*5-1:0] cred;
  logic [2:0] typ;
  logic [31:0] len;
  logic ok, loc, cap;
  logic [1:0] vc;
  int n_pass = 0, n_fail = 0;
  mt_rt_vc_alloc #(.NumVcs(4), .CntW(5), .FlitBytes(16), .EjDepth(9), .VcW(2)) dut (.mask_i(mask), .busy_i(busy),
    .cred_i(cred), .type_i(typ), .local_i(loc), .cap_i(cap), .len_i(len), .ok_o(ok), .vc_o(vc));
  task automatic t(input string what, input int m, input int b, input int c0, input int c1, input int c2,
                   input int c3, input int ty, input int ln, input bit eok, input int evc);
    loc = 1'b0;
    cap = 1'b1;  // ignored toward network outputs
    mask = 4'(m); busy = 4'(b); cred = {5'(c3), 5'(c2), 5'(c1), 5'(c0)}; typ = 3'(ty); len = 32'(ln);
    #1;
    if (ok == eok && (!eok || vc == 2'(evc))) n_pass++;
    else begin n_fail++; $display("FAIL %s: ok %0d vc %0d", what, ok, vc); end
  endtask
  // the same toward a local (ejection) output
  task automatic tl(input string what, input int m, input int b, input int c0, input int c1, input int c2,
                    input int c3, input int ty, input int ln, input bit eok, input int evc);
    mask = 4'(m); busy = 4'(b); cred = {5'(c3), 5'(c2), 5'(c1), 5'(c0)}; typ = 3'(ty); len = 32'(ln);
    loc = 1'b1;
    cap = 1'b0;
    #1;
    if (ok == eok && (!eok || vc == 2'(evc))) n_pass++;
    else begin n_fail++; $display("FAIL %s: ok %0d vc %0d", what, ok, vc); end
  endtask
  initial begin
    // head, len 48 B = 3 payload flits: needs 4 credits
    t("vct exact", 'hf, 0, 4, 9, 9, 9, 4, 48, 1, 0);
    t("vct short", 'hf, 0, 3, 4, 9, 9, 4, 48, 1, 1);
    t("vct 49 B needs 5", 'hf, 0, 4, 4, 5, 9, 4, 49, 1, 2);
    t("mask upper", 'hc, 0, 9, 9, 9, 9, 4, 0, 1, 2);
    t("busy skipped", 'hf, 'h3, 9, 9, 9, 9, 4, 0, 1, 2);
    t("none", 'h3, 'h1, 9, 0, 9, 9, 7, 0, 0, 0);
    t("head&tail needs 1", 'hf, 0, 0, 1, 0, 0, 7, 1000, 1, 1);
    t("ar head needs 1", 'hf, 0, 0, 0, 0, 1, 0, 65536, 1, 3);
    t("len huge", 'hf, 0, 31, 31, 31, 31, 4, 'hffff_ffff, 0, 0);
    tl("local: empty VC only", 'hf, 0, 8, 4, 9, 9, 4, 16, 1, 2);
    tl("local: ar head too", 'hf, 0, 8, 9, 9, 9, 0, 16, 1, 1);
    tl("local: head&tail too", 'hf, 0, 1, 8, 0, 9, 7, 0, 1, 3);
    tl("local: none empty", 'hf, 0, 8, 8, 8, 8, 7, 0, 0, 0);
    tl("local: empty but busy", 'hf, 'h8, 8, 8, 8, 9, 7, 0, 0, 0);
    // the source already holds NumVcs-1 VCs: none even if empty
    mask = 'hf; busy = 0; cred = {5'd9, 5'd9, 5'd9, 5'd9}; typ = 3'd0; len = 32'd16; loc = 1'b1; cap = 1'b1;
    #1;
    if (!ok) n_pass++; else begin n_fail++; $display("FAIL local: source capped: ok %0d vc %0d", ok, vc); end
    $display("RESULT tb_mt_rt_vc_alloc pass=%0d fail=%0d", n_pass, n_fail);
    $finish;
  end
endmodule
