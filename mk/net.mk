# mk/net.mk: the RTL network (issue #5): rtl/mt_net_top.sv (NX x NY rtl/mt_node.sv, torus or
# mesh, mt_link per directed link) co-simulated cycle by cycle against the C network model
# cmodel/net/mt_net_*.c by tb/cosim/cosim_net.cpp. One Verilator build per topology + schedule (the
# table layout is an RTL parameter): the -G flags come from the same source built as
# build/net/cosim_net_params (it plans the schedule and prints them). Standalone: make cosim-net
NET_TOP     := $(CURDIR)
NET_DIR     := $(BUILD)/net
NET_RTL     := rtl/mt_common_pkg.sv $(filter-out rtl/mt_common_pkg.sv,$(sort $(wildcard rtl/*.sv)))  # package first
NET_RTL_ABS := $(addprefix $(NET_TOP)/,$(NET_RTL))
NET_SVH     := $(wildcard rtl/*.svh)  # `include'd by rtl/*.sv (found through -I rtl)

# ---- named network configurations: configs/net/*.cfg compiled into libmt (mt_net_cfg_builtin,
# `multitree sim --config NAME` from any directory); the files stay the one source. The
# object joins the archives through $^ of their rules in the root Makefile. ----
NET_CFGS    := $(sort $(wildcard configs/net/*.cfg))
NET_CFG_GEN := $(BUILD)/gen/net/mt_net_cfg_builtin.c
$(NET_CFG_GEN): $(NET_CFGS) scripts/cfg_embed.sh
	@mkdir -p $(@D)
	@scripts/cfg_embed.sh $@ $(NET_CFGS)
$(BUILD)/obj/gen/net/mt_net_cfg_builtin.o: $(NET_CFG_GEN) cmodel/net/mt_net_cfg.h | deps-ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -c $< -o $@
$(BUILD)/san/gen/net/mt_net_cfg_builtin.o: $(NET_CFG_GEN) cmodel/net/mt_net_cfg.h | deps-ok
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -O1 $(SAN) -c $< -o $@
$(LIBMT): $(BUILD)/obj/gen/net/mt_net_cfg_builtin.o
$(LIBMT_SAN): $(BUILD)/san/gen/net/mt_net_cfg_builtin.o

$(NET_DIR)/cosim_net_params: tb/cosim/cosim_net.cpp $(LIBMT) | deps-ok
	@mkdir -p $(@D)
	$(CXX) -O2 -std=c++17 -Wall -Wextra -DCOSIM_NET_PARAMS_ONLY -Icmodel $< $(LIBMT) $(LDLIBS_MT) -o $@

# Waveforms: `make cosim-net NET_FST=1` builds with --trace-fst (separate obj_net_fst_* dirs;
# with trace code m2x2_mt took 60 s to build against 35 s), then `cosim_net --case C --fst FILE`.
NET_FST   ?= 0
# C++ optimisation of the Verilated model: a run takes a few seconds, the build dominates
# (flags are not tracked: remove build/obj_net_* after changing NET_COPT)
NET_COPT  ?= -O0
NET_SFX   := $(if $(filter 1,$(NET_FST)),_fst,)
NET_TRACE := $(if $(filter 1,$(NET_FST)),--trace-fst,)
# Hierarchical builds (scripts/net_verilate.sh): `make cosim-net NET_HIER=1` Verilates mt_node
# once as a library instead of every node inline (separate obj_net_hier_* dirs; no waveforms
# inside the nodes). The build time then does not grow with the node count (docs/results/bench.md).
NET_HIER  ?= 0
# Builds that are always hierarchical (whatever NET_HIER says): the 4x4 torus builds make test
# runs. Flat, at -O0, t4x4_mt took 277 s to build after the router's second speed round (the
# per-VC procedural blocks grow with every inlined node), hierarchical ~50 s (docs/results/bench.md).
# Switch networks (rtl/mt_swnet_top.sv, docs/reference/switch.md): always hierarchical (every NI and
# switch shape a hierarchy block, scripts/net_verilate.sh)
NET_SW_BUILDS := ft42_hd dgx2_hd bg48_hdrm h32_fr
NET_HIER_ALWAYS := t4x4_mt t4x4_het t333_het t4x4_bucket m4x4_meshtree m8x2_hd_stg $(NET_SW_BUILDS)
# NET_HIER=2: every torus and mesh build with DPI-stepped nodes (obj_net_dpi_* dirs;
# scripts/net_verilate.sh HIER=2, the fastest to run: docs/results/bench.md); switch networks
# stay hierarchical
# Builds that are always DPI-stepped: the paper-NI 4x4 torus of make test, so that make test
# co-simulates that build mode too
NET_DPI_ALWAYS := t4x4_mt_pni
# ... and it steps its nodes on two threads (NET_THREADS of scripts/net_verilate.sh), so that
# make test co-simulates the threaded steps in lockstep too
NET_THREADS2 := t4x4_mt_pni
# $(1): build name -> the _hier/_dpi suffix of its directory, or nothing
NET_HSFX_OF = $(if $(or $(filter 2,$(NET_HIER)),$(filter $(1),$(NET_DPI_ALWAYS))),_dpi,$(if $(or $(filter 1,$(NET_HIER)),$(filter $(1),$(NET_HIER_ALWAYS))),_hier,))
NET_HIER_OF = $(if $(filter _dpi,$(call NET_HSFX_OF,$(1))),2,$(if $(call NET_HSFX_OF,$(1)),1,0))
# $(1): build name (cosim_net.cpp kCases[].build)
# The Verilator command of every network build (the -G/-CFLAGS of the shape, -Mdir and the
# C++ optimisation are added per build, by scripts/net_verilate.sh); scripts/regress.py and
# scripts/bench_rtl.sh get it through the environment.
NET_VERILATE = $(VERILATOR) --cc --exe --build -j 2 --threads 1 -Wall -O3 --x-assign fast --x-initial fast \
  --top-module mt_net_top -I$(NET_TOP)/rtl -o cosim_net -LDFLAGS "$(NET_TOP)/$(LIBMT) -ljansson -lm -pthread"
NET_VSRC     = $(NET_TOP)/tb/cosim/cosim_net.vlt $(NET_RTL_ABS) $(NET_TOP)/tb/cosim/cosim_net.cpp
NET_ENV      = NET_VERILATE='$(NET_VERILATE)' NET_VSRC='$(NET_VSRC)' NET_TOP='$(NET_TOP)' BUILD='$(BUILD)'
define NET_BUILD
$(BUILD)/obj_net$(NET_SFX)$(call NET_HSFX_OF,$(1))_$(1)/cosim_net: $(NET_RTL) $(NET_SVH) tb/cosim/cosim_net.cpp tb/cosim/cosim_net.vlt scripts/net_verilate.sh scripts/net_dpi_node.py $(LIBMT) $(NET_DIR)/cosim_net_params | deps-ok
	@mkdir -p $(BUILD)/obj_net$(NET_SFX)$(call NET_HSFX_OF,$(1))_$(1); rm -f $$@  # relink: Verilator's make does not track libmt.a
	@g=$$$$($(NET_DIR)/cosim_net_params $(1)) || exit 1; \
	 NET_THREADS=$(if $(filter $(1),$(NET_THREADS2)),2,1) $(NET_ENV) scripts/net_verilate.sh $(BUILD)/obj_net$(NET_SFX)$(call NET_HSFX_OF,$(1))_$(1) $(call NET_HIER_OF,$(1)) '$(NET_COPT)' $(NET_TRACE) $$$$g $(NET_GX_$(1))
endef
# RTL-only parameters of a build (the C model has no twin of them): the FPGA shape's VC buffers
# in block RAM, as on the board (mt_router BufRam, docs/reference/router.md "VC buffers in block RAM")
NET_GX_t2x2_fpga := -GBufRam=1
NET_GX_t2x2_fpgap := -GBufRam=1
NET_GX_t2x2_fpgap2 := -GBufRam=1
NET_GX_t2x2_fpgaa := -GBufRam=1
# t4x4_demo: make demo's RTL step (built with NET_FST=1 NET_HIER=1: build/obj_net_fst_hier_t4x4_demo)
NET_BUILDS := m2x2_mt t4x4_mt m4x4_ring m4x4_ring2d m3x5_dbt m2x2_mt_pni t4x4_mt_pni t4x4_demo t4x4_het t333_het t4x4_bucket m4x4_meshtree \
  m8x2_hd_stg m2x2_b2b t2x2_fpga t2x2_fpgap t2x2_fpgap2 t2x2_fpgaa m2x2_pnia $(NET_SW_BUILDS)
$(foreach b,$(NET_BUILDS),$(eval $(call NET_BUILD,$(b))))
NET_BIN = $(BUILD)/obj_net$(NET_SFX)$(call NET_HSFX_OF,$(1))_$(1)/cosim_net

# ---- test steps: case name -> build ----
NET_CASE_m2x2_mt_msg_i32   := m2x2_mt
NET_CASE_m2x2_mt_pkt_f32   := m2x2_mt
NET_CASE_t4x4_mt_msg_f32   := t4x4_mt
NET_CASE_t4x4_dbt_msg_i32  := t4x4_mt
NET_CASE_m4x4_ring_pkt_i32 := m4x4_ring
NET_CASE_m4x4_ring2d_pkt_i32 := m4x4_ring2d
NET_CASE_m3x5_dbt_msg_i32  := m3x5_dbt
# the default (paper) NI: E = 2L = 8 engines, M = L + 2E = 20 memory ports, chained reduction
NET_CASE_m2x2_mt_pni_msg_i32  := m2x2_mt_pni
NET_CASE_m2x2_mt_pni_pkt_f32  := m2x2_mt_pni
NET_CASE_t4x4_mt_pni_msg_f32  := t4x4_mt_pni
NET_CASE_t4x4_dbt_pni_msg_i32 := t4x4_mt_pni
NET_CASE_ft42_hd_msg_i32   := ft42_hd
NET_CASE_ft42_ring_pkt_f32 := ft42_hd
NET_CASE_ft42_dbt_msg_i32  := ft42_hd
NET_CASE_dgx2_hd_msg_f32   := dgx2_hd
NET_CASE_bg48_hdrm_msg_i32 := bg48_hdrm
NET_CASE_bg48_hd_pkt_f32   := bg48_hdrm
# bucket on the 4x4 torus (issue #18)
NET_CASE_t4x4_bucket_msg_i32 := t4x4_bucket
NET_CASE_t4x4_bucket_pkt_f32 := t4x4_bucket
# meshtree on the 4x4 mesh, paper NI (docs/reference/planner.md "meshtree")
NET_CASE_m4x4_meshtree_msg_i32 := m4x4_meshtree
NET_CASE_m4x4_meshtree_pkt_f32 := m4x4_meshtree
# a 3-D torus with three link rates (issue #15: the RTL network was 2-D only)
NET_CASE_t333_het_mt_msg_i32     := t333_het
NET_CASE_t333_het_mt_pkt_f32 := t333_het
# an asymmetric hierarchy, machines of 3 and 2 learners (issue #16): FlexReduce's uneven flows
NET_CASE_h32_fr_msg_i32    := h32_fr
NET_CASE_h32_fr_pkt_f32    := h32_fr
# a heterogeneous torus: Y links a flit every 2 cycles, 5 cycles long (docs/reference/network.md "Link rate and latency")
NET_CASE_t4x4_het_mt_msg_i32   := t4x4_het
NET_CASE_t4x4_het_mt_pkt_f32 := t4x4_het
# the NI stager (docs/reference/ni.md "Staging not-due units"): hd on a mesh 8x2 that deadlocks without it
NET_CASE_m8x2_hd_stg_f32 := m8x2_hd_stg
# the FPGA shape (configs/net/fpga.cfg): the network of the ULX3S board top (mk/board.mk)
NET_CASE_t2x2_fpga_msg_i32 := t2x2_fpga
NET_CASE_t2x2_fpga_pkt_f32 := t2x2_fpga
# the same with the router pipeline (rt_pipe = 1)
NET_CASE_t2x2_fpgap_msg_i32 := t2x2_fpgap
NET_CASE_t2x2_fpgap_pkt_f32 := t2x2_fpgap
# and with its register between VC and switch allocation (rt_pipe = 2: a cycle per hop for heads)
NET_CASE_t2x2_fpgap2_msg_i32 := t2x2_fpgap2
NET_CASE_t2x2_fpgap2_pkt_f32 := t2x2_fpgap2
# the NI adder's pipeline (ni_alu_pipe = 2): the FPGA shape, and the paper NI on the 2x2 mesh
NET_CASE_t2x2_fpgaa_msg_i32 := t2x2_fpgaa
NET_CASE_t2x2_fpgaa_pkt_f32 := t2x2_fpgaa
NET_CASE_m2x2_pnia_msg_f32 := m2x2_pnia
NET_CASE_m2x2_pnia_pkt_i32 := m2x2_pnia
NET_CASES := m2x2_mt_msg_i32 m2x2_mt_pkt_f32 t4x4_mt_msg_f32 t4x4_dbt_msg_i32 m4x4_ring_pkt_i32 m4x4_ring2d_pkt_i32 m3x5_dbt_msg_i32 \
  m2x2_mt_pni_msg_i32 m2x2_mt_pni_pkt_f32 t4x4_mt_pni_msg_f32 t4x4_dbt_pni_msg_i32 \
  ft42_hd_msg_i32 ft42_ring_pkt_f32 ft42_dbt_msg_i32 dgx2_hd_msg_f32 bg48_hdrm_msg_i32 bg48_hd_pkt_f32 \
  t4x4_het_mt_msg_i32 t4x4_het_mt_pkt_f32 h32_fr_msg_i32 h32_fr_pkt_f32 t333_het_mt_msg_i32 t333_het_mt_pkt_f32 t4x4_bucket_msg_i32 t4x4_bucket_pkt_f32 \
  m4x4_meshtree_msg_i32 m4x4_meshtree_pkt_f32 m8x2_hd_stg_f32 t2x2_fpga_msg_i32 t2x2_fpga_pkt_f32 \
  t2x2_fpgap_msg_i32 t2x2_fpgap_pkt_f32 t2x2_fpgap2_msg_i32 t2x2_fpgap2_pkt_f32 \
  t2x2_fpgaa_msg_i32 t2x2_fpgaa_pkt_f32 m2x2_pnia_msg_f32 m2x2_pnia_pkt_i32
define NET_STEP
t-net-cosim-$(1): $(call NET_BIN,$(NET_CASE_$(1)))
	@scripts/runbench.sh $$@ 300 $$< --case $(1)
endef
$(foreach c,$(NET_CASES),$(eval $(call NET_STEP,$(c))))
# the perturbed C model must be caught: routers sending credit pulses one cycle late (1) or
# counting incoming credits one cycle late (2)
t-net-cosim-perturb: $(call NET_BIN,m2x2_mt)
	@scripts/runbench.sh $@ 120 bash -c '$< --case m2x2_mt_msg_i32 --perturb-router 1 && $< --case m2x2_mt_pkt_f32 --perturb-router 2'
# the NI's lockstep estimate one cycle long (needs NOP entries: dbtree has them, on the 3x5
# mesh and on the 4x4 torus, where it runs on the multitree build)
t-net-cosim-perturb-ni: $(call NET_BIN,m3x5_dbt)
	@scripts/runbench.sh $@ 120 $< --case m3x5_dbt_msg_i32 --perturb-ni 1
t-net-cosim-perturb-ni-t4x4: $(call NET_BIN,t4x4_mt)
	@scripts/runbench.sh $@ 120 $< --case t4x4_dbt_msg_i32 --perturb-ni 1
# the C stager replaying staged units before they are due (the NI's perturb 2)
t-net-cosim-perturb-stage: $(call NET_BIN,m8x2_hd_stg)
	@scripts/runbench.sh $@ 120 $< --case m8x2_hd_stg_f32 --perturb-ni 2
# switch network: leaf switch s1 of the C model sends node 5's units to node 4's NI port (4),
# and its switches send credit pulses one cycle late; both must be caught
t-net-cosim-perturb-sw: $(call NET_BIN,ft42_hd)
	@scripts/runbench.sh $@ 120 bash -c '$< --case ft42_hd_msg_i32 --perturb-route 1,5,4 && $< --case ft42_ring_pkt_f32 --perturb-router 1'
# the asymmetric hierarchy: machine switch s0 of the C model sends node 1's units to node 2's
# NI port (3; port 0 is the uplink) must be caught, and switches sending credit pulses late
t-net-cosim-perturb-hier: $(call NET_BIN,h32_fr)
	@scripts/runbench.sh $@ 120 bash -c '$< --case h32_fr_msg_i32 --perturb-route 0,1,3 && $< --case h32_fr_pkt_f32 --perturb-router 1'
# the 3-D torus: the C model's Z links one cycle slower (period 4) or one cycle longer (6)
t-net-cosim-perturb-3d: $(call NET_BIN,t333_het)
	@scripts/runbench.sh $@ 120 bash -c '$< --case t333_het_mt_msg_i32 --perturb-set link_period2=4 && $< --case t333_het_mt_msg_i32 --perturb-set link_lat2=6'
# the allocation register (rt_pipe = 2): the C model without it (rt_pipe = 1) must be caught
t-net-cosim-perturb-pipe2: $(call NET_BIN,t2x2_fpgap2)
	@scripts/runbench.sh $@ 120 $< --case t2x2_fpgap2_msg_i32 --perturb-set rt_pipe=1
# the NI adder's pipeline: the C model one register short (ni_alu_pipe = 1), on the FPGA shape
# and on the paper NI, must be caught
t-net-cosim-perturb-alu: $(call NET_BIN,t2x2_fpgaa) $(call NET_BIN,m2x2_pnia)
	@scripts/runbench.sh $@ 120 bash -c '$< --case t2x2_fpgaa_msg_i32 --perturb-set ni_alu_pipe=1 && $(word 2,$^) --case m2x2_pnia_msg_f32 --perturb-set ni_alu_pipe=1'
# heterogeneous links: the C model with the Y links' period 3 instead of 2, or their latency
# 6 instead of 5, must be caught
t-net-cosim-perturb-het: $(call NET_BIN,t4x4_het)
	@scripts/runbench.sh $@ 120 bash -c '$< --case t4x4_het_mt_msg_i32 --perturb-set link_period1=3 && $< --case t4x4_het_mt_msg_i32 --perturb-set link_lat1=6'
# make test: the cases that fit its ~4-minute budget for this component (three Verilator
# builds: m2x2_mt flat ~48 s, t4x4_mt hierarchical ~57 s, m2x2_mt_pni flat ~81 s, on an idle
# machine; t4x4_dbt_msg_i32 and perturb-ni-t4x4, the schedule with NOP entries, reuse the
# t4x4_mt build), and the switch network fattree:4,2 (ft42_hd, hierarchical: 84 s beside other jobs,
# 47 s CPU; its case and perturb-sw 2 s), and the heterogeneous torus t4x4_het (hierarchical:
# 213 s wall beside other jobs, 69 s CPU; its case 7.5 s, perturb-het 2 s); the others
# run in `make cosim-net` (one more build each)
# Back-to-back all-reduces without a reset (docs/reference/network.md "Back-to-back all-reduces"):
# on the 2x2 mesh build whose layout holds MultiTree, ring and dbtree (m2x2_b2b, flat), three
# consecutive all-reduces with messages (MultiTree twice, then ring's tables written while
# idle) and three with packets in fp32 (MultiTree, dbtree, MultiTree), RTL and C compared every
# cycle, every run's buffers checked; an RTL that misses the later starts, or the later table
# writes, must be caught
t-net-cosim-b2b: $(call NET_BIN,m2x2_b2b)
	@scripts/runbench.sh $@ 300 bash -c '$< --case m2x2_b2b_msg_i32 --runs 3 --run-algos multitree,multitree,ring && \
	  $< --case m2x2_b2b_pkt_f32 --runs 3 --run-algos multitree,dbtree,multitree && \
	  $< --case m2x2_b2b_msg_i32 --runs 2 --perturb-b2b 1 && $< --case m2x2_b2b_msg_i32 --runs 2 --run-algos multitree,ring --perturb-b2b 2'
NET_TEST_CASES := m2x2_mt_msg_i32 m2x2_mt_pkt_f32 t4x4_mt_msg_f32 t4x4_dbt_msg_i32 perturb perturb-ni-t4x4 m2x2_mt_pni_msg_i32 t4x4_mt_pni_msg_f32 \
  ft42_hd_msg_i32 perturb-sw t4x4_het_mt_msg_i32 perturb-het b2b t2x2_fpga_msg_i32 t2x2_fpga_pkt_f32 t2x2_fpgap_msg_i32 t2x2_fpgap_pkt_f32 \
  t2x2_fpgap2_msg_i32 t2x2_fpgap2_pkt_f32 perturb-pipe2 t2x2_fpgaa_msg_i32 t2x2_fpgaa_pkt_f32 m2x2_pnia_msg_f32 \
  m2x2_pnia_pkt_i32 perturb-alu
TEST_STEPS += $(addprefix t-net-cosim-,$(NET_TEST_CASES))

.PHONY: cosim-net
cosim-net: $(addprefix t-net-cosim-,$(NET_CASES)) t-net-cosim-b2b t-net-cosim-perturb t-net-cosim-perturb-stage t-net-cosim-perturb-ni t-net-cosim-perturb-ni-t4x4 t-net-cosim-perturb-sw t-net-cosim-perturb-het t-net-cosim-perturb-hier t-net-cosim-perturb-3d t-net-cosim-perturb-pipe2 t-net-cosim-perturb-alu
	@grep -hE '^(case|links|buffers|MISMATCH|perturbed|RESULT)' $(foreach s,$^,$(BUILD)/logs/$(s).log) | sed 's/^/  /'; \
	 cat $(foreach s,$^,$(BUILD)/results/$(s).result) | awk '{p+=$$1; f+=$$2} END {printf "cosim-net: %d passed, %d failed\n", p, f; exit f>0}'

# ---- make regress (not in make test): docs/reference/regress.md ----
# (a) the paper configuration (Table III, its default NI: 8 engines, 20 memory ports, chained)
# on an 8x8 torus, MultiTree 1 MiB; (b) REGRESS_N random configurations on REGRESS_SHAPES
# random hardware shapes (engines, memory ports and chaining drawn too; every third shape a
# switch network, REGRESS_ARGS=--switch-every K) (one Verilator build each, reused by every configuration drawn for it). Everything
# is drawn from REGRESS_SEED; builds persist in build/regress/obj_<shape> (rebuilt when the
# RTL, the harness or libmt change). Results: build/regress/summary.{txt,csv}.
REGRESS_SEED   ?= 1
REGRESS_N      ?= 50
REGRESS_SHAPES ?= 6
REGRESS_PAPER_BYTES ?= 1048576
# C++ optimisation of the regression builds (longer builds, faster runs than NET_COPT)
REGRESS_COPT   ?= -O1
REGRESS_ARGS   ?=
# the random shapes' builds (scripts/net_verilate.sh): 1 hierarchical (the node Verilated once;
# the default: the 50 configurations and the paper case in about 7 minutes), 0 flat (a 16-node
# paper-NI shape alone takes more than 10 minutes), 2 DPI-stepped nodes;
# REGRESS_PAPER_HIER: the paper case's build (2: DPI-stepped nodes, minutes; 0: flat, ~40 minutes)
REGRESS_HIER   ?= 1
REGRESS_PAPER_HIER ?= 2
.PHONY: regress
regress: $(NET_DIR)/cosim_net_params $(LIBMT) $(BUILD)/multitree | deps-ok
	@$(NET_ENV) REGRESS_HIER='$(REGRESS_HIER)' REGRESS_PAPER_HIER='$(REGRESS_PAPER_HIER)' \
	 nice python3 scripts/regress.py --seed $(REGRESS_SEED) --n $(REGRESS_N) --shapes $(REGRESS_SHAPES) \
	  --paper-bytes $(REGRESS_PAPER_BYTES) --copt='$(REGRESS_COPT)' --params $(NET_DIR)/cosim_net_params \
	  --multitree $(BUILD)/multitree --out $(BUILD)/regress $(REGRESS_ARGS)

# ---- bench: speed of the C network model, `multitree sim` (docs/results/bench.md): 1 MiB runs on
# torus 8x8 (paper) and 4x4 (small), then the 64 MiB MultiTree all-reduce on torus 8x8
# (paper); BENCH_NET_REF=other/multitree adds the 1 MiB runs of another build and the ratio ----
.PHONY: bench-net
bench-net: $(BUILD)/multitree
	@scripts/bench_net.sh $(BUILD)/multitree $(BENCH_NET_REF)
BENCH_STEPS += bench-net

# ---- bench-rtl (not in make test, long): speed of the Verilated RTL network (docs/results/bench.md
# "RTL simulation speed"): per shape (torus 2x2, 4x4, 8x8; small and paper) the build time and
# the cycles/s of the RTL alone (and x nodes: node-cycles/s) and in lockstep with the C model, in
# build/bench/rtl.md and build/bench/rtl.json (scripts/results_json.py).
# BENCH_RTL_HIER: 2 (default) DPI-stepped nodes, 1 Verilator's hierarchical build, 0 flat (an
# 8x8 paper build then takes ~40 minutes); BENCH_RTL_COPT,
# BENCH_RTL_BYTES, BENCH_RTL_SHAPES, BENCH_RTL_REUSE: scripts/bench_rtl.sh ----
.PHONY: bench-rtl
bench-rtl: $(NET_DIR)/cosim_net_params $(LIBMT) | deps-ok
	@$(NET_ENV) scripts/bench_rtl.sh
BENCH_STEPS += bench-rtl
# scripts/perf_share.py (the shares of a profile of a bench build, docs/results/bench.md "Where
# the RTL's time goes") against a hand-derived profile
t-perf-share:
	@scripts/runbench.sh $@ 60 tb/cli/test_perf_share.sh
TEST_STEPS += t-perf-share

# The watchdog limits with NI stagers clearing jams one after another (docs/reference/ni.md "Errors
# and the watchdog"): dgx2 FlexReduce with messages, 256 B to 4 KiB, completes under the default
# watchdog; a real deadlock with the stagers on still stops on it
t-wd-stage: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_wd_stage.sh $(BUILD)/multitree
TEST_STEPS += t-wd-stage

# The watchdog limits on a deep schedule with a slow memory (docs/reference/ni.md "Errors and the
# watchdog"): five DBTree runs with one memory port at 1-2 % ready complete under the default watchdog
t-wd-depth: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_wd_depth.sh $(BUILD)/multitree
TEST_STEPS += t-wd-depth

# Switch networks (issue #13, docs/reference/switch.md): every planner algorithm on fattree:4,2,
# fattree:8,2, dgx2, bigraph:4x8, bigraph:4x16 in `sim --config paper`, known failures listed
# with their reasons; bad switch configurations refused. The switch unit test is t-c-switch.
t-switch-sim: $(BUILD)/multitree
	@scripts/runbench.sh $@ 300 env MT_BIN=$(BUILD)/multitree tb/cli/test_switch_sim.sh
TEST_STEPS += t-switch-sim

# The network model at scale (issue #14, docs/reference/network.md "Data modes", "Threads"): data modes,
# threads (also under ThreadSanitizer: build/multitree-tsan), progress on a terminal
$(BUILD)/multitree-tsan: $(CM_SRC) $(APP_SRC) $(NET_CFG_GEN) | deps-ok
	$(CC) $(CFLAGS_MT) -O1 -fsanitize=thread $^ $(LDLIBS_MT) -o $@
t-sim-scale: $(BUILD)/multitree $(BUILD)/multitree-tsan
	@scripts/runbench.sh $@ 300 tb/cli/test_sim_scale.sh $(BUILD)/multitree $(BUILD)/multitree-tsan
TEST_STEPS += t-sim-scale

# Links of several rates and latencies (issue #15 item 6, docs/reference/network.md "Link rate and
# latency"): the heterogeneous 4x4x4 torus as dims:ring4@100x2,ring4@50x2,ring4@25x2 flit by
# flit (HET_ALGOS=... adds algorithms), threads, data modes, refusals; ~20 s at load
t-het-sim: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_het_sim.sh $(BUILD)/multitree
TEST_STEPS += t-het-sim

# ---- the paper simulator's NI (ni_model=1, --config paper-sim, docs/reference/papersim.md) ----
t-papersim-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 300 tb/cli/test_papersim.sh $(BUILD)/multitree
TEST_STEPS += t-papersim-cli
