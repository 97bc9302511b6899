// SPDX-License-Identifier: Apache-2.0
// mt_node_params.svh: the parameters of one network node (router + NI) besides its topology
// and its local ports L, declared once for mt_node and mt_net_top, which passes them to every
// mt_node, and for mt_swnet_top (its NIs and switches) (`include inside the parameter port
// list, before at least one more parameter; the table layout comes from
// mt_ni_layout_params.svh).
  // network
  parameter int PayloadW    = 128,
  parameter int NumVcs      = 4,
  parameter int VcDepth     = 8,
  parameter int EjDepth     = 8,
  parameter int SubPktFlits = 4,
  parameter int PktBytes    = 64,
  parameter int StepPrio    = 0,
  parameter int RtWdW       = 31,
  // torus/mesh: a flit every LinkPeriods[8d +: 8] cycles on the links of dimension d (mt_router)
  parameter logic [23:0] LinkPeriods = 24'h010101,
  // NI table depth and micro-architecture
  parameter int Depth       = 64,
  parameter int MaxFlows    = 16,
  parameter int SQ          = 4,
  parameter int RQ          = 8,
  parameter int AluPipe     = 0,   // registers inside the NI's adder (mt_reduce_alu Pipe)
  parameter int NiWdW       = 32,
  // NI bandwidth (mt_ni; docs/reference/ni.md "Bandwidth"): E receive engines, M memory ports, chained
  // reduction; 1, 1, 0 is the one-engine NI. Resolved values only (the C model's 0 = default
  // is resolved by cosim_net_params).
  parameter int RxEngines   = 1,
  parameter int MemPorts    = 1,
  parameter int ReduceChain = 0,
  // the NI stager (docs/reference/ni.md "Staging not-due units"): T cycles without progress, 0 = none;
  // its pool of staged ranges
  parameter int StageAfter  = 0,
  parameter int StageRanges = 16,
  // ROM mode (simulation only, docs/reference/rtl_sim.md): every NI's schedule table is loaded from
  // "<dir>/node<id>.hex" by $readmemh at the first clock edge in reset, dir = the plusarg
  // +mt_rom_dir=DIR or else RomDir; both empty (the default): the table is written through
  // the write port. Synthesis ignores it (an FPGA's single NI: mt_ni InitFile).
  parameter     RomDir      = "",
