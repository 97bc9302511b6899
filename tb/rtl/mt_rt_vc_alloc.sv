// SPDX-License-Identifier: Apache-2.0
// mt_rt_vc_alloc: output VC choice for the head at the front of one input VC.
// Contract: combinational. A VC is eligible if allowed (mask_i), not allocated to another
// packet/message (busy_i) and has the credits the first allocation unit needs: a normal Head
// needs the whole packet (virtual cut-through: cred >= 1 + ceil(len/FlitBytes), evaluated
// as (cred-1)*FlitBytes >= len), Head&Tail and the all-reduce Head need 1. Toward a local
// (ejection) output (local_i) a VC must be empty, all EjDepth credits back: the NI consumes
// units in schedule order, so no unit may wait behind another in one ejection FIFO; and
// none if cap_i (the head's source already holds NumVcs-1 VCs of that output, so one
// source's not-yet-due units cannot take every VC). The lowest eligible VC wins; ok_o = 0
// if none.
`default_nettype none
module mt_rt_vc_alloc #(
  parameter int NumVcs = 4,
  parameter int CntW = 5,
  parameter int FlitBytes = 16,
  parameter int EjDepth = 16,
  parameter int VcW = mt_common_pkg::vc_w(NumVcs)
) (
  input  logic [NumVcs-1:0]      mask_i,
  input  logic [NumVcs-1:0]      busy_i,
  input  logic [NumVcs*CntW-1:0] cred_i,
  input  logic [2:0]             type_i,
  input  logic                   local_i,
  input  logic                   cap_i,
  input  logic [31:0]            len_i,
  output logic                   ok_o,
  output logic [VcW-1:0]         vc_o
);
`include "mt_rt_vc_alloc_fn.svh"

  assign {ok_o, vc_o} = mt_rt_vc_alloc_f(mask_i, busy_i, cred_i, type_i, local_i, cap_i, len_i, '0);  // no joining (a switch's, checked by cosim-router)
endmodule
