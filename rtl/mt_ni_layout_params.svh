// SPDX-License-Identifier: Apache-2.0
// mt_ni_layout_params.svh: the schedule-table entry layout parameters (cmodel/fmt/mt_entry.h,
// `multitree rom` layout.json), declared once for mt_ni_entry_dec, mt_ni, mt_node and
// mt_net_top (`include inside the parameter port list, before at least one more parameter).
  parameter int Compact     = 0,
  parameter int FlowW       = 4,
  parameter int StepW       = 5,
  parameter int IdW         = 4,
  parameter int PortW       = 3,
  parameter int EjW         = 2,
  parameter int AddrW       = 12,
  parameter int SizeW       = 13,
  parameter int Children    = 4,
