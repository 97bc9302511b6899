// SPDX-License-Identifier: Apache-2.0
// mt_ni_ports.svh: the NI's external ports (configuration, processor side, memory port),
// declared once for mt_ni, mt_node and mt_net_top (`include inside the ANSI port list, with
// ports before and after it: every line ends with a comma). The including module declares
// NiN, how many NIs the vectors carry (1; N in mt_net_top, NI i at [i*W +: W]), NiMp, the
// memory ports of each NI (memory port p of NI i at [(i*NiMp + p)*W +: W]), and TIW,
// EntryW, Lanes, PayloadW. Configuration inputs must be stable while busy_o.
  // NI configuration
  input  logic [NiN-1:0]          dtype_i,        // 0 int32, 1 fp32
  input  logic [NiN-1:0]          pkt_mode_i,     // 1: baseline 256-B packets
  input  logic [NiN*12-1:0]       nflows_i,
  input  logic [NiN*32-1:0]       base_units_i,   // compact: chunk tiling
  input  logic [NiN*32-1:0]       rem_units_i,
  input  logic [NiN*32-1:0]       elem_i,
  input  logic [NiN*32-1:0]       nop_bytes_i,    // compact: NOP estimate in bytes
  input  logic [NiN*16*12-1:0]    nbr_tx_i,       // compact: node behind output port p
  input  logic [NiN*16*12-1:0]    nbr_rx_i,       // compact: node sending to us through its port p
  input  logic [NiN*32-1:0]       stage_base_i,   // stager (StageAfter > 0): staging area (byte address)
  input  logic [NiN*32-1:0]       stage_slot_i,   // stager: bytes per child slot
  // NI processor side
  input  logic [NiN-1:0]          start_i,
  input  logic [NiN-1:0]          tbl_we_i,
  input  logic [NiN*TIW-1:0]      tbl_waddr_i,
  input  logic [NiN*EntryW-1:0]   tbl_wdata_i,
  output logic [NiN-1:0]          busy_o,
  output logic [NiN-1:0]          done_o,
  output logic [NiN-1:0]          err_o,
  output logic [NiN*4-1:0]        err_code_o,
  output logic [NiN*16-1:0]       err_idx_o,
  output logic [NiN*16-1:0]       idx_o,
  output logic [NiN*16-1:0]       step_o,
  output logic [NiN*3-1:0]        st_o,
  // NI memory ports (gradient buffer)
  output logic [NiN*NiMp-1:0]          mem_req_valid_o,
  input  logic [NiN*NiMp-1:0]          mem_req_ready_i,
  output logic [NiN*NiMp-1:0]          mem_req_we_o,
  output logic [NiN*NiMp*32-1:0]       mem_req_addr_o,
  output logic [NiN*NiMp*Lanes-1:0]    mem_req_be_o,
  output logic [NiN*NiMp*PayloadW-1:0] mem_req_wdata_o,
  input  logic [NiN*NiMp-1:0]          mem_rsp_valid_i,
  input  logic [NiN*NiMp*PayloadW-1:0] mem_rsp_data_i,
