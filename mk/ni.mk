# mk/ni.mk: network interface (issue #4): C model (cmodel/mt_ni*.c, C unit test t-c-ni via the
# root Makefile), RTL unit benches (Icarus), Verilator co-simulation against the C model,
# formal (yosys-smtbmc + z3), area (Yosys). Standalone: make cosim-ni | formal-ni | area-ni
NI_TOP    := $(CURDIR)
NI_RTL    := rtl/mt_pkg.sv $(sort $(wildcard rtl/mt_ni*.sv)) rtl/mt_credit_counter.sv rtl/mt_reduce_alu.sv rtl/mt_fp32_add.sv
NI_RTL_ABS := $(addprefix $(NI_TOP)/,$(NI_RTL))
NI_DIR    := $(BUILD)/ni

# Co-simulation builds: every scenario is encoded in the layout of a 16-node, 4-port,
# 4-child, 64-KiB schedule (mt_layout_make), so one build per layout kind serves all.
NI_G_COMMON := -GL=4 -GNetPorts=4 -GNumVcs=2 -GEjDepth=4 -GVcDepth=8 -GSubPktFlits=4 -GPktBytes=256 \
               -GDepth=64 -GMaxFlows=16 -GSQ=4 -GRQ=4 -GWdW=24 -GFlowW=4 -GStepW=5 -GIdW=4 -GPortW=3 \
               -GEjW=2 -GAddrW=16 -GSizeW=17 -GChildren=4
NI_G_full    := $(NI_G_COMMON) -GCompact=0
NI_G_compact := $(NI_G_COMMON) -GCompact=1
# CFG_ENTRYW: the table word width of these -G parameters, by the C model's derivation
# (scripts/gen_mt_pkg.c --entry-width, from cmodel/fmt/mt_formats.h like rtl/mt_pkg.sv);
# cosim_ni.cpp also checks it against mt_ni_entry_bits of the scenario's layout.
ni_entryw     = $(shell $(GEN_MT_PKG) --entry-width $(patsubst -G%,%,$(NI_G_$(1))))
NI_D_full     = -DCFG_COMPACT=0 -DCFG_ENTRYW=$(call ni_entryw,full) -DCFG_NAME=\\\"full\\\"
NI_D_compact  = -DCFG_COMPACT=1 -DCFG_ENTRYW=$(call ni_entryw,compact) -DCFG_NAME=\\\"compact\\\"

define NI_BUILD
$(BUILD)/obj_ni_$(1)/cosim_ni: $(NI_RTL) tb/cosim/cosim_ni.cpp $(LIBTB) $(LIBMT) $(GEN_MT_PKG) | deps-ok
	@mkdir -p $(BUILD)/obj_ni_$(1)
	$(VERILATOR) --cc --exe --build -j 2 --threads 1 -Wall -O3 --x-assign fast --x-initial fast \
	  --top-module mt_ni -Mdir $(BUILD)/obj_ni_$(1) -o cosim_ni $(NI_G_$(1)) \
	  -CFLAGS "-O2 -I$(NI_TOP)/cmodel -I$(NI_TOP)/tb/cmodel $$(NI_D_$(1))" -LDFLAGS "-ljansson -lm" \
	  $(NI_RTL_ABS) $(NI_TOP)/tb/cosim/cosim_ni.cpp $(NI_TOP)/$(LIBTB) $(NI_TOP)/$(LIBMT) \
	  >$(BUILD)/obj_ni_$(1).build.log 2>&1 || { tail -30 $(BUILD)/obj_ni_$(1).build.log; exit 1; }
endef
$(foreach k,full compact,$(eval $(call NI_BUILD,$(k))))

# ---- RTL unit benches (Icarus) ----
NI_TBS := $(patsubst tb/rtl/tb_mt_ni_%.sv,%,$(wildcard tb/rtl/tb_mt_ni_*.sv))
# (benches run in $(NI_DIR); tb_mt_ni_table reads the planner's ROM image of Fig. 5 node 0)
$(NI_DIR)/tb_mt_ni_%.vvp: tb/rtl/tb_mt_ni_%.sv $(NI_RTL) | deps-ok
	@mkdir -p $(@D)
	@$(IVERILOG) -g2012 -Irtl -Itb/rtl -o $@ $< $(NI_RTL) 2>&1 | grep -v 'sorry: constant selects' || true
$(NI_DIR)/rom_mesh2x2/node0.hex: $(BUILD)/multitree
	@mkdir -p $(NI_DIR)
	@$(BUILD)/multitree rom --topo mesh:2x2 --algo multitree --bytes 1024 --format hex --out $(NI_DIR)/rom_mesh2x2 >/dev/null
t-ni-tb-table: $(NI_DIR)/rom_mesh2x2/node0.hex
t-ni-tb-%: $(NI_DIR)/tb_mt_ni_%.vvp
	@cd $(NI_DIR) && $(NI_TOP)/scripts/runbench.sh $@ 120 vvp -n $(notdir $<)

# ---- test steps ----
t-ni-cosim-full: $(BUILD)/obj_ni_full/cosim_ni
	@scripts/runbench.sh $@ 300 $<
t-ni-cosim-compact: $(BUILD)/obj_ni_compact/cosim_ni
	@scripts/runbench.sh $@ 300 $<
t-ni-perturb: $(BUILD)/obj_ni_full/cosim_ni
	@scripts/runbench.sh $@ 120 $< --perturb
TEST_STEPS += $(addprefix t-ni-tb-,$(NI_TBS)) t-ni-cosim-full t-ni-cosim-compact t-ni-perturb

# ---- speed of the C step: optimized vs the frozen reference (tb/cmodel/ni_ref.c) on recorded
# inputs (test_ni_diff --bench), built without sanitizers ----
$(NI_DIR)/ni_bench: tb/cmodel/test_ni_diff.c tb/cmodel/ni_ref.c tb/cmodel/mt_test.h $(LIBTB) $(LIBMT)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -Itb/cmodel $< $(LIBTB) $(LIBMT) $(LDLIBS_MT) -o $@
bench-ni: $(NI_DIR)/ni_bench
	@$< --bench 20

.PHONY: cosim-ni formal-ni area-ni bench-ni
cosim-ni: t-ni-cosim-full t-ni-cosim-compact t-ni-perturb
	@grep -hE '^(case|cosim_ni|perturbed|RESULT|MISMATCH)' $(foreach s,$^,$(BUILD)/logs/$(s).log) | sed 's/^/  /'; \
	 cat $(foreach s,$^,$(BUILD)/results/$(s).result) | awk '{p+=$$1; f+=$$2} END {printf "cosim-ni: %d passed, %d failed\n", p, f; exit f>0}'

# ---- formal: yosys-smtbmc + z3 (lockstep counter: BMC and induction); the issue logic's
# "no entry issues before its step / while the lockstep counter runs / outside RUN" and
# "the timestep only moves forward by one, towards the head entry's step" by Yosys' built-in
# SAT BMC (z3 4.8.12 did not finish step 0 of this model in 5 minutes, measured); a mutant
# with a wrong property must fail.
NI_FML_ISSUE = read_verilog -sv -formal $(1) rtl/mt_pkg.sv rtl/mt_ni_issue.sv rtl/mt_ni_timestep.sv rtl/mt_ni_lockstep.sv; \
  chparam -set L 2 -set Children 2 -set Depth 8 -set MaxFlows 4 -set WdW 4 mt_ni_issue; prep -top mt_ni_issue; \
  flatten; async2sync; opt -fast; dffunmap
t-ni-formal: | deps-ok
	@mkdir -p $(NI_DIR)
	@scripts/runbench.sh $@ 300 bash -c '\
	  p=0; f=0; \
	  yosys -q -p "read_verilog -sv -formal rtl/mt_ni_lockstep.sv; prep -top mt_ni_lockstep; async2sync; dffunmap; write_smt2 -wires $(NI_DIR)/lock.smt2" && \
	  yosys-smtbmc -s z3 -t 32 $(NI_DIR)/lock.smt2 | tail -1 | grep -q PASSED && echo "lockstep never underflows: BMC 32 steps PASSED" && p=$$((p+1)) || { echo "lockstep BMC FAILED"; f=$$((f+1)); }; \
	  yosys-smtbmc -s z3 -i -t 32 $(NI_DIR)/lock.smt2 | tail -1 | grep -q PASSED && echo "lockstep never underflows: induction PASSED" && p=$$((p+1)) || { echo "lockstep induction FAILED"; f=$$((f+1)); }; \
	  yosys -q -p "$(call NI_FML_ISSUE,); tee -q -o $(NI_DIR)/issue_sat.txt sat -seq 20 -prove-asserts -set-init-zero" ; \
	  grep -q "SUCCESS" $(NI_DIR)/issue_sat.txt && echo "issue before its step: BMC 20 steps PASSED" && p=$$((p+1)) || { echo "issue BMC FAILED"; f=$$((f+1)); }; \
	  yosys -q -p "$(call NI_FML_ISSUE,-DMT_NI_FORMAL_MUTANT); tee -q -o $(NI_DIR)/issue_mut.txt sat -seq 20 -prove-asserts -set-init-zero" ; \
	  grep -q "FAIL" $(NI_DIR)/issue_mut.txt && echo "mutant property caught (proof can fail)" && p=$$((p+1)) || { echo "mutant NOT caught"; f=$$((f+1)); }; \
	  echo "RESULT formal_ni pass=$$p fail=$$f"'
formal-ni: t-ni-formal
	@cat $(BUILD)/logs/t-ni-formal.log
FORMAL_STEPS += formal-ni
TEST_STEPS += t-ni-formal

# ---- area (Yosys 0.23): table bits for N = 16, 64, 256; NI logic without the table for
# the N in NI_AREA_SYNTH (default 16: ~10 minutes) ----
NI_AREA_SYNTH ?= 16
area-ni: $(BUILD)/multitree | deps-ok
	@mkdir -p $(NI_DIR)
	NI_AREA_SYNTH="$(NI_AREA_SYNTH)" tb/cosim/cosim_ni_area.sh $(BUILD) | tee $(BUILD)/area_ni.md
AREA_STEPS += area-ni
