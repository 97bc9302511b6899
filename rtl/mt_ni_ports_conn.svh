// SPDX-License-Identifier: Apache-2.0
// mt_ni_ports_conn.svh: NI n's external ports (mt_ni_ports.svh) connected to a network top's
// flat vectors (NI n at [n*W +: W]; mt_net_top: its mt_node n, mt_swnet_top: its mt_ni n),
// declared once for both (`include inside the instance's port connection list, with a
// connection after it: every line ends with a comma). The includer has the genvar n and
// NiMp, TIW, EntryW, Lanes, PayloadW; the NI's watchdog limit is connected apart (mt_node's
// ni_wd_limit_i, mt_ni's wd_limit_i).
      .dtype_i         (dtype_i[n]),
      .pkt_mode_i      (pkt_mode_i[n]),
      .nflows_i        (nflows_i[n*12 +: 12]),
      .base_units_i    (base_units_i[n*32 +: 32]),
      .rem_units_i     (rem_units_i[n*32 +: 32]),
      .elem_i          (elem_i[n*32 +: 32]),
      .nop_bytes_i     (nop_bytes_i[n*32 +: 32]),
      .nbr_tx_i        (nbr_tx_i[n*192 +: 192]),
      .nbr_rx_i        (nbr_rx_i[n*192 +: 192]),
      .stage_base_i    (stage_base_i[n*32 +: 32]),
      .stage_slot_i    (stage_slot_i[n*32 +: 32]),
      .start_i         (start_i[n]),
      .tbl_we_i        (tbl_we_i[n]),
      .tbl_waddr_i     (tbl_waddr_i[n*TIW +: TIW]),
      .tbl_wdata_i     (tbl_wdata_i[n*EntryW +: EntryW]),
      .busy_o          (busy_o[n]),
      .done_o          (done_o[n]),
      .err_o           (err_o[n]),
      .err_code_o      (err_code_o[n*4 +: 4]),
      .err_idx_o       (err_idx_o[n*16 +: 16]),
      .idx_o           (idx_o[n*16 +: 16]),
      .step_o          (step_o[n*16 +: 16]),
      .st_o            (st_o[n*3 +: 3]),
      .mem_req_valid_o (mem_req_valid_o[n*NiMp +: NiMp]),
      .mem_req_ready_i (mem_req_ready_i[n*NiMp +: NiMp]),
      .mem_req_we_o    (mem_req_we_o[n*NiMp +: NiMp]),
`ifdef MT_NI_CONN_MEM_ARRAYS
      // the includer gathers these three into its flat outputs itself (mt_net_top)
      .mem_req_addr_o  (ni_req_addr[n]),
      .mem_req_be_o    (ni_req_be[n]),
      .mem_req_wdata_o (ni_req_wdata[n]),
`else
      .mem_req_addr_o  (mem_req_addr_o[n*NiMp*32 +: NiMp*32]),
      .mem_req_be_o    (mem_req_be_o[n*NiMp*Lanes +: NiMp*Lanes]),
      .mem_req_wdata_o (mem_req_wdata_o[n*NiMp*PayloadW +: NiMp*PayloadW]),
`endif
      .mem_rsp_valid_i (mem_rsp_valid_i[n*NiMp +: NiMp]),
      .mem_rsp_data_i  (mem_rsp_data_i[n*NiMp*PayloadW +: NiMp*PayloadW]),
