// SPDX-License-Identifier: Apache-2.0
// mt_ni_fidx_fn.svh: a flow number as the index of the NI's per-flow state, `include'd in the
// body of mt_ni_deps, mt_ni_issue and mt_ni_stage. A flow >= MaxFlows indexes entry 0: the table
// scan has raised NI_E_FLOW for it before any flow state is read. Uses the includer's MaxFlows, FW.

// f < MaxFlows: with MaxFlows a power of two, f's high bits are zero (no carry chain on an FPGA)
localparam bit FPow2 = (MaxFlows & (MaxFlows - 1)) == 0;
function automatic [FW-1:0] fidx(input logic [11:0] f);
  fidx = (FPow2 ? (32'(f) >> $clog2(MaxFlows)) == 0 : 32'(f) < MaxFlows) ? FW'(f) : '0;
endfunction
