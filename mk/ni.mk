# mk/ni.mk: network interface (issue #4): C model (cmodel/hw/mt_ni*.c, C unit test t-c-ni via the
# root Makefile), RTL unit benches (Icarus), Verilator co-simulation against the C model,
# formal (yosys-smtbmc + z3), area (Yosys). Standalone: make cosim-ni | formal-ni | area-ni
NI_TOP    := $(CURDIR)
NI_RTL    := rtl/mt_common_pkg.sv $(sort $(wildcard rtl/mt_ni*.sv)) rtl/mt_credit_counter.sv rtl/mt_reduce_alu.sv rtl/mt_fp32_add.sv
NI_RTL_ABS := $(addprefix $(NI_TOP)/,$(NI_RTL))
NI_SVH    := $(wildcard rtl/*.svh)   # port/parameter lists `include'd by rtl/*.sv (found through -I rtl)
NI_DIR    := $(BUILD)/ni

# Co-simulation builds: configs/ni/{full,compact}.cfg give the -G list and the harness's
# -DCFG_<KEY> macros (`multitree shape`). Every scenario is encoded in the layout of a 16-node,
# 4-port, 4-child, 64-KiB schedule (mt_layout_make), so one build per layout kind serves all.
# CFG_ENTRY_W: the table word width of those -G parameters by the C derivation
# (scripts/gen_mt_pkg.c --entry-width, from cmodel/fmt/mt_formats.h like rtl/mt_common_pkg.sv);
# cosim_ni.cpp checks it against mt_ni_entry_bits of the scenario's layout.
# NI_COSIMS: the one-engine NI (full, compact) and the bandwidth shapes (receive engines E,
# memory ports M; docs/reference/ni.md "Bandwidth"), each one build and one test step t-ni-cosim-<name>.
NI_SHAPE = configs/ni/$(1).cfg
NI_COSIMS := full compact e2 e8_compact e4_m8 e8_m20 e2_m8_compact paper e2_chain e4_m8_chain_compact

# $(1): build name, $(2): configs/ni/$(2).cfg, $(3): extra -G flags
# (the archives go in -LDFLAGS before -ljansson: libmt.a needs jansson, topo/mt_mdtopo.c reads JSON,
# and the linker resolves left to right)
define NI_BUILD
$(BUILD)/obj_ni_$(1)/cosim_ni: $(NI_RTL) $(NI_SVH) tb/cosim/cosim_ni.cpp $(LIBTB) $(LIBMT) $(call NI_SHAPE,$(2)) configs/ni/full.cfg configs/ni/compact.cfg $(GEN_MT_PKG) | $(BUILD)/multitree deps-ok
	@mkdir -p $(BUILD)/obj_ni_$(1); rm -f $$@  # relink: Verilator's make does not track libmt.a
	g=$$$$($(BUILD)/multitree shape --gflags $(call NI_SHAPE,$(2))) && d=$$$$($(BUILD)/multitree shape --cflags $(call NI_SHAPE,$(2))) && \
	w=$$$$($(GEN_MT_PKG) --entry-width $$$${g//-G/}) || exit 1; \
	$(VERILATOR) --cc --exe --build -j 2 --threads 1 -Wall -O3 --x-assign fast --x-initial fast \
	  --top-module mt_ni -I$(NI_TOP)/rtl -Mdir $(BUILD)/obj_ni_$(1) -o cosim_ni $$$$g $(3) \
	  -CFLAGS "-O2 -I$(NI_TOP)/cmodel -I$(NI_TOP)/tb/cmodel $$$$d -DCFG_ENTRY_W=$$$$w" \
	  -LDFLAGS "$(NI_TOP)/$(LIBTB) $(NI_TOP)/$(LIBMT) -ljansson -lm -pthread" \
	  $(NI_RTL_ABS) $(NI_TOP)/tb/cosim/cosim_ni.cpp \
	  >$(BUILD)/obj_ni_$(1).build.log 2>&1 || { tail -30 $(BUILD)/obj_ni_$(1).build.log; exit 1; }
endef
$(foreach k,$(NI_COSIMS),$(eval $(call NI_BUILD,$(k),$(k),)))
# the paper NI with engines that ignore the chaining order (PerturbChain): t-ni-perturb-chain
$(eval $(call NI_BUILD,paper_perturb,paper,-GPerturbChain=1))
# the paper NI's chain RAMs without bypass (PerturbRam=1) and the completions of one edge queued
# in the other engine order (2): t-ni-perturb-ram-bypass, t-ni-perturb-ram-arb
$(eval $(call NI_BUILD,paper_ram_byp,paper,-GPerturbRam=1))
$(eval $(call NI_BUILD,paper_ram_arb,paper,-GPerturbRam=2))
# mt_ni_deps' rxb RAMs without bypass (PerturbRam=4) and its done grant round robin the other
# way (5): t-ni-perturb-rxb-bypass, t-ni-perturb-rxb-arb
$(eval $(call NI_BUILD,paper_rxb_byp,paper,-GPerturbRam=4))
$(eval $(call NI_BUILD,paper_rxb_arb,paper,-GPerturbRam=5))
# mt_ni_deps' entry-index RAMs read one edge late, at the engine's previous flow (PerturbRam=6):
# t-ni-perturb-idx-late
$(eval $(call NI_BUILD,paper_idx_late,paper,-GPerturbRam=6))
# mt_ni_deps' engine copies of cnt, grx and act without bypass (PerturbRam=7), and act taken
# from the engine's own start copy instead of the largest of all (8):
# t-ni-perturb-cnt-bypass, t-ni-perturb-act-own
$(eval $(call NI_BUILD,paper_cnt_byp,paper,-GPerturbRam=7))
$(eval $(call NI_BUILD,paper_act_own,paper,-GPerturbRam=8))
# port A's copies (cnt, grx, rdone of the head's flow) read at the head's flow, not at the
# next head's (PerturbRam=9): t-ni-perturb-head-late
$(eval $(call NI_BUILD,paper_head_late,paper,-GPerturbRam=9))
# the engine's pick made a cycle ahead ignoring the edge's FIFO writes (PerturbPick=1):
# t-ni-perturb-pick
$(eval $(call NI_BUILD,full_pick,full,-GPerturbPick=1))
# the stager (docs/reference/ni.md "Staging not-due units"): StageAfter T = 50, a pool of 4 ranges, in the
# one-engine NI (the network's), two engines sharing the one memory port (e2) and the paper NI;
# cosim_ni runs its direct stager scenarios
NI_STAGE_FLAGS := -GStageAfter=50 -GStageRanges=4 -CFLAGS -DCFG_STAGE_AFTER=50 -CFLAGS -DCFG_STAGE_RANGES=4
NI_STAGE_COSIMS := stage stage_e2 stage_paper
$(eval $(call NI_BUILD,stage,full,$(NI_STAGE_FLAGS)))
$(eval $(call NI_BUILD,stage_e2,e2,$(NI_STAGE_FLAGS)))
$(eval $(call NI_BUILD,stage_paper,paper,$(NI_STAGE_FLAGS)))
# the stager's RAMs without bypass (PerturbStage=1; in the paper NI, where two engines take one
# child's units), its list walk stopping at the first range of a (flow, slot) (2) and its scan
# reading sgnz at the scan pointer, not at the next one (3):
# t-ni-perturb-stage-bypass, t-ni-perturb-stage-order, t-ni-perturb-stage-late
$(eval $(call NI_BUILD,stage_byp,paper,$(NI_STAGE_FLAGS) -GPerturbStage=1))
$(eval $(call NI_BUILD,stage_ord,full,$(NI_STAGE_FLAGS) -GPerturbStage=2))
$(eval $(call NI_BUILD,stage_late,full,$(NI_STAGE_FLAGS) -GPerturbStage=3))

# ---- RTL unit benches (Icarus) ----
NI_TBS := $(patsubst tb/rtl/tb_mt_ni_%.sv,%,$(wildcard tb/rtl/tb_mt_ni_*.sv))
# (benches run in $(NI_DIR); tb_mt_ni_table reads the planner's ROM image of Fig. 5 node 0)
$(NI_DIR)/tb_mt_ni_%.vvp: tb/rtl/tb_mt_ni_%.sv tb/rtl/mt_tb.svh $(NI_RTL) $(NI_SVH) | deps-ok
	@mkdir -p $(@D)
	@rm -f $@; $(IVERILOG) -g2012 -Irtl -Itb/rtl -o $@ $< $(NI_RTL) >$@.log 2>&1; rc=$$?; grep -v 'sorry: constant selects' $@.log; exit $$rc
$(NI_DIR)/rom_mesh2x2/node0.hex: $(BUILD)/multitree
	@mkdir -p $(NI_DIR)
	@$(BUILD)/multitree rom --topo mesh:2x2 --algo multitree --bytes 1024 --format hex --out $(NI_DIR)/rom_mesh2x2 >/dev/null
t-ni-tb-table: $(NI_DIR)/rom_mesh2x2/node0.hex
t-ni-tb-%: $(NI_DIR)/tb_mt_ni_%.vvp
	@cd $(NI_DIR) && $(NI_TOP)/scripts/runbench.sh $@ 120 vvp -n $(notdir $<)

# ---- test steps ----
define NI_STEP
t-ni-cosim-$(1): $(BUILD)/obj_ni_$(1)/cosim_ni
	@scripts/runbench.sh $$@ 300 $$<
endef
$(foreach k,$(NI_COSIMS) $(NI_STAGE_COSIMS),$(eval $(call NI_STEP,$(k))))
# passes only if the co-simulation catches the C stager replaying a staged unit before it is
# due (perturb 2), besides the exact runs
t-ni-perturb-stage: $(BUILD)/obj_ni_stage/cosim_ni
	@scripts/runbench.sh $@ 120 $< --perturb
# passes only if the co-simulation catches the stager's RAM mutants (docs/reference/ni.md "The
# stager's state in RAM"; the RTL perturbed, the C model exact)
t-ni-perturb-stage-bypass: $(BUILD)/obj_ni_stage_byp/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-stage-order: $(BUILD)/obj_ni_stage_ord/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-stage-late: $(BUILD)/obj_ni_stage_late/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb: $(BUILD)/obj_ni_full/cosim_ni
	@scripts/runbench.sh $@ 120 $< --perturb
# passes only if the co-simulation catches the paper NI's engines reading a chained running
# sum before the predecessor wrote it (the RTL perturbed, the C model exact)
t-ni-perturb-chain: $(BUILD)/obj_ni_paper_perturb/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed --reps 1
# passes only if the co-simulation catches the chain unit's RAM mutants (docs/reference/ni.md
# "State in RAM"; the RTL perturbed, the C model exact)
t-ni-perturb-ram-bypass: $(BUILD)/obj_ni_paper_ram_byp/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
# (six repetitions of the scenarios: with three no completions of one edge meet in an order
# that changes an output)
t-ni-perturb-ram-arb: $(BUILD)/obj_ni_paper_ram_arb/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed --reps 6
# ... and mt_ni_deps' rxb RAM mutants (the same)
t-ni-perturb-rxb-bypass: $(BUILD)/obj_ni_paper_rxb_byp/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-rxb-arb: $(BUILD)/obj_ni_paper_rxb_arb/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-idx-late: $(BUILD)/obj_ni_paper_idx_late/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-cnt-bypass: $(BUILD)/obj_ni_paper_cnt_byp/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-act-own: $(BUILD)/obj_ni_paper_act_own/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-head-late: $(BUILD)/obj_ni_paper_head_late/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
t-ni-perturb-pick: $(BUILD)/obj_ni_full_pick/cosim_ni
	@scripts/runbench.sh $@ 120 $< --rtl-perturbed
# make test runs a subset that still covers every kind (E = 1 and > 1; M = 1, L + E, L + 2E;
# chaining; both layouts), each build about a minute; make cosim-ni runs them all
NI_TEST_COSIMS := full compact e2_m8_compact paper e4_m8_chain_compact stage
TEST_STEPS += $(addprefix t-ni-tb-,$(NI_TBS)) $(addprefix t-ni-cosim-,$(NI_TEST_COSIMS)) t-ni-perturb t-ni-perturb-chain \
  t-ni-perturb-stage t-ni-perturb-ram-bypass t-ni-perturb-ram-arb t-ni-perturb-rxb-bypass t-ni-perturb-rxb-arb t-ni-perturb-idx-late t-ni-perturb-cnt-bypass t-ni-perturb-act-own t-ni-perturb-head-late t-ni-perturb-pick t-ni-perturb-stage-bypass t-ni-perturb-stage-order t-ni-perturb-stage-late

# ---- speed of the C step on recorded inputs (test_ni_golden --bench), built without
# sanitizers; BENCH_NI_REF=<commit> adds the same program built against that commit's model
# (tb/golden/record.sh builds it; docs/results/bench.md) ----
$(NI_DIR)/ni_bench: tb/cmodel/hw/test_ni_golden.c tb/cmodel/mt_test.h $(LIBTB) $(LIBMT)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -Itb/cmodel $< $(LIBTB) $(LIBMT) $(LDLIBS_MT) -lz -o $@
bench-ni: $(NI_DIR)/ni_bench
	@echo "this tree:"; $< --bench 20
	@if [ -n "$(BENCH_NI_REF)" ]; then GOLDEN_BUILD_ONLY=1 tb/golden/record.sh $(BENCH_NI_REF) $(BUILD) && \
	  echo "$(BENCH_NI_REF):" && $(BUILD)/golden_rec/rec_ni --bench 20; fi

.PHONY: cosim-ni formal-ni area-ni bench-ni
cosim-ni: $(addprefix t-ni-cosim-,$(NI_COSIMS) $(NI_STAGE_COSIMS)) t-ni-perturb t-ni-perturb-chain t-ni-perturb-stage \
  t-ni-perturb-ram-bypass t-ni-perturb-ram-arb t-ni-perturb-rxb-bypass t-ni-perturb-rxb-arb t-ni-perturb-idx-late t-ni-perturb-cnt-bypass t-ni-perturb-act-own t-ni-perturb-head-late t-ni-perturb-pick t-ni-perturb-stage-bypass t-ni-perturb-stage-order t-ni-perturb-stage-late
	@grep -hE '^(case|cosim_ni|perturbed|RESULT|MISMATCH)' $(foreach s,$^,$(BUILD)/logs/$(s).log) | sed 's/^/  /'; \
	 cat $(foreach s,$^,$(BUILD)/results/$(s).result) | awk '{p+=$$1; f+=$$2} END {printf "cosim-ni: %d passed, %d failed\n", p, f; exit f>0}'

# ---- formal (synth/formal_ni.sh): yosys-smtbmc + z3 (lockstep counter: BMC and induction);
# the issue logic by Yosys' built-in SAT BMC; a mutant with a wrong property must fail.
t-ni-formal: | deps-ok
	@mkdir -p $(NI_DIR)
	@scripts/runbench.sh $@ 300 synth/formal_ni.sh $(NI_DIR)
formal-ni: t-ni-formal
	@cat $(BUILD)/logs/t-ni-formal.log
FORMAL_STEPS += formal-ni
TEST_STEPS += t-ni-formal

# ---- area (Yosys 0.23): table bits for N = 16, 64, 256; NI logic without the table and the
# RAMs (mt_ni_ram, counted apart as depth x width per instance) for the N in NI_AREA_SYNTH
# (default 16; "16 64 256" for the current table) and the shapes NI_AREA_SHAPES
# (configs/ni/<name>.cfg; default the one-engine NI in both layouts, about 6 min each; "full
# paper" for the current table, docs/results/area.md), each without and/or with the stager
# (NI_AREA_STAGER "0", "1", "0 1"); NI_AREA_HIER=1 adds the cells per module (where the area
# goes), NI_AREA_FLOWS the Yosys flows (gen ice ecp). Also writes build/area/ni.json ----
NI_AREA_SYNTH  ?= 16
NI_AREA_SHAPES ?= full compact
NI_AREA_STAGER ?= 0
NI_AREA_FLOWS  ?= gen ice ecp
NI_AREA_HIER   ?= 0
area-ni: $(BUILD)/multitree | deps-ok
	@mkdir -p $(NI_DIR)
	NI_AREA_SYNTH="$(NI_AREA_SYNTH)" NI_AREA_SHAPES="$(NI_AREA_SHAPES)" NI_AREA_FLOWS="$(NI_AREA_FLOWS)" \
	  NI_AREA_STAGER="$(NI_AREA_STAGER)" NI_AREA_HIER="$(NI_AREA_HIER)" synth/area_ni.sh $(BUILD) | tee $(BUILD)/area_ni.md
	@if [ "$(NI_AREA_HIER)" = 1 ]; then for s in $(NI_AREA_SHAPES); do for n in $(NI_AREA_SYNTH); do \
	  echo; cat $(NI_DIR)/area/hier_$${s}_$$n.md; done; done; fi
AREA_STEPS += area-ni
# the checker of build/area/ni.json and build/bench/rtl.json (scripts/results_json.py) against
# good rows and planted malformed ones (1 s)
t-results-json:
	@scripts/runbench.sh $@ 60 tb/lint/test_results_json.sh
TEST_STEPS += t-results-json
