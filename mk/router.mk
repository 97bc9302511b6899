# mk/router.mk: router (issue #3): C model unit test (t-c-router, automatic), Icarus unit
# benches, Verilator co-simulation against the C model, formal, area, bench.
# Standalone: make cosim-router | formal-router | area-router | bench-router
RT_TOP      := $(CURDIR)
RT_RTL      := $(addprefix $(RT_TOP)/rtl/,mt_common_pkg.sv mt_router.sv \
                 mt_rt_sw_alloc.sv mt_rt_vc_buffer.sv mt_rt_ram.sv \
                 mt_rt_watchdog.sv mt_credit_counter.sv)
RT_COBJ_DIR := $(BUILD)/router_c
RT_COBJ     := $(RT_COBJ_DIR)/mt_router.o $(RT_COBJ_DIR)/mt_link.o
RT_CFLAGS   := $(CWARN) -O2 -g -Icmodel
RT_SVH      := $(wildcard rtl/mt_rt_*.svh)  # `include'd by the router and its route and VC allocation modules

# Parameter sets: configs/router/<set>.cfg (d2l4v4, min, d3mesh, paper; the switches sw4,
# sw4top, sw8, sw8bg, sw16; what each value is and where it comes from is in the file). One file gives the verilator -G list and the
# harness's -DCFG_<KEY> macros (`multitree shape --gflags/--cflags`, cmodel/app/mt_shape.c).
RT_SETS   := $(patsubst configs/router/%.cfg,%,$(sort $(wildcard configs/router/*.cfg)))
RT_SHAPE   = configs/router/$(1).cfg

$(RT_COBJ_DIR)/%.o: cmodel/hw/%.c cmodel/hw/mt_router.h cmodel/hw/mt_link.h cmodel/fmt/mt_flit.h cmodel/fmt/mt_formats.h cmodel/util/mt_err.h | deps-ok
	@mkdir -p $(@D)
	$(CC) $(RT_CFLAGS) -c $< -o $@

# one Verilator build per parameter set: build/obj_router_<set>/cosim_router; libmt for the
# switch tables of real topologies (mt_switch_build). $(2): a suffix of the build directory and
# $(3) more -G flags (RTL-only parameters, which the C model has no twin of); $(4) the sed edit
# of a mutant rtl/mt_rt_vc_buffer.sv (the rule fails if the edit no longer applies)
define RT_BUILD
$(BUILD)/obj_router_$(1)$(2)/cosim_router: $(RT_RTL) $(RT_SVH) tb/cosim/cosim_router.cpp $(RT_COBJ) $(LIBMT) $(call RT_SHAPE,$(1)) $(if $(4),mk/router.mk) | $(BUILD)/multitree deps-ok
	@mkdir -p $(BUILD)/obj_router_$(1)$(2); rm -f $$@  # relink: Verilator's make does not track the C objects
	$(if $(4),@sed -e "$(4)" rtl/mt_rt_vc_buffer.sv >$$(@D)/mt_rt_vc_buffer.sv; \
	 if cmp -s rtl/mt_rt_vc_buffer.sv $$(@D)/mt_rt_vc_buffer.sv; then \
	   echo "mutant: the edit '$(4)' no longer applies to rtl/mt_rt_vc_buffer.sv"; exit 1; fi)
	g=$$$$($(BUILD)/multitree shape --gflags $(call RT_SHAPE,$(1))) && d=$$$$($(BUILD)/multitree shape --cflags $(call RT_SHAPE,$(1))) || exit 1; \
	$(VERILATOR) --cc --exe --build -j 2 -Wall --x-assign fast --x-initial fast -O3 -I$(RT_TOP)/rtl \
	  --top-module mt_router -Mdir $(BUILD)/obj_router_$(1)$(2) -o cosim_router \
	  $$$$g $(3) -CFLAGS "-O2 -I$(RT_TOP)/cmodel $$$$d" \
	  $(if $(4),$(filter-out %/mt_rt_vc_buffer.sv,$(RT_RTL)) $(abspath $(BUILD)/obj_router_$(1)$(2))/mt_rt_vc_buffer.sv,$(RT_RTL)) \
	  $(RT_TOP)/tb/cosim/cosim_router.cpp $(addprefix $(RT_TOP)/,$(RT_COBJ)) -LDFLAGS "$(abspath $(LIBMT)) $(LDLIBS_MT)" \
	  >$(BUILD)/obj_router_$(1)$(2).build.log 2>&1 || { tail -30 $(BUILD)/obj_router_$(1)$(2).build.log; exit 1; }
endef
$(foreach s,$(RT_SETS),$(eval $(call RT_BUILD,$(s))))
RT_BIN = $(BUILD)/obj_router_$(1)/cosim_router
# the VC buffers in block RAM (BufRam = 1, docs/reference/router.md "VC buffers in block RAM"):
# min (buffers of 2 flits: the bypass register's corner cases), d2l4v4, minp (RtPipe = 1: the
# side band in the buffer) and d3meshp2 (RtPipe = 2, step priority), against the same C model
RT_BRAM_SETS := min d2l4v4 minp d3meshp2
$(foreach s,$(RT_BRAM_SETS),$(eval $(call RT_BUILD,$(s),_bram,-GBufRam=1)))

# ---- test steps (make test) ----
# random traffic, co-simulated: 1.25 M cycles in total over three parameter sets
t-router-cosim-d2l4v4: $(call RT_BIN,d2l4v4)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 11 --cycles 300000 && $< --seed 12 --cycles 200000'
t-router-cosim-min: $(call RT_BIN,min)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 21 --cycles 250000 && $< --seed 22 --cycles 150000'
t-router-cosim-d3mesh: $(call RT_BIN,d3mesh)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 31 --cycles 250000 && $< --seed 32 --cycles 100000'
# the perturbed C model (credit pulses one cycle late / credits counted one cycle late) must be caught
t-router-perturb: $(call RT_BIN,d2l4v4)
	@scripts/runbench.sh $@ 120 bash -c '$< --seed 5 --cycles 20000 --perturb 1 && $< --seed 6 --cycles 20000 --perturb 2'
# paper parameters: efficiency of a 64 KiB message vs 256-B packets over a 150-cycle link; sharing
t-router-eff: $(call RT_BIN,paper)
	@scripts/runbench.sh $@ 300 bash -c '$< --mode eff-ar --cycles 10 && $< --mode eff-pkt --cycles 10 && $< --mode share --cycles 12000 && $< --seed 41 --cycles 30000'
TEST_STEPS += t-router-cosim-d2l4v4 t-router-cosim-min t-router-cosim-d3mesh t-router-perturb t-router-eff
# the router pipeline (RtPipe = 1, docs/reference/router.md "Pipeline (RtPipe)") against the same C
# model: d2l4v4, min (buffers of 2 flits: the front register's corner cases) and d3mesh (step priority)
t-router-cosim-pipe: $(call RT_BIN,d2l4v4p) $(call RT_BIN,minp) $(call RT_BIN,d3meshp)
	@scripts/runbench.sh $@ 300 bash -c '$(call RT_BIN,d2l4v4p) --seed 111 --cycles 150000 && $(call RT_BIN,minp) --seed 121 --cycles 150000 && $(call RT_BIN,d3meshp) --seed 131 --cycles 100000'
# negative check: minp built with a mutant VC buffer whose front register misses the flit that
# arrives as the pop empties the buffer (the edit by sed, so it follows the real file) must be
# caught by the same co-simulation (its own RESULT line is dropped: its failures are the pass)
RT_PIPE_MUT := s/(empty_o || (re \&\& cnt_q == CntW.(1)))/(empty_o)/
$(eval $(call RT_BUILD,minp,_mut,,$(RT_PIPE_MUT)))
# a mutant's co-simulation must fail: $(1) the name of its RESULT line, $(2) its seed
RT_MUT_RUN = o=$$($< --seed $(2) --cycles 20000 | grep -v "^RESULT"); echo "$$o" | grep -E "^(FAIL|cosim_router)" | head -3; \
  if echo "$$o" | grep -q "^FAIL .*RTL and C model differ"; then echo "RESULT $(1) pass=1 fail=0"; \
  else echo "RESULT $(1) pass=0 fail=1"; fi
t-router-cosim-pipe-mutant: $(BUILD)/obj_router_minp_mut/cosim_router
	@scripts/runbench.sh $@ 120 bash -c '$(call RT_MUT_RUN,pipe_mutant_caught,121)'
TEST_STEPS += t-router-cosim-pipe t-router-cosim-pipe-mutant
# BufRam = 1 (docs/reference/router.md "VC buffers in block RAM"), and its negative check: min
# with a mutant buffer whose front is always the RAM's read register (the bypass register of a
# flit written into an empty buffer not used: the front is a stale RAM word)
t-router-cosim-bram: $(foreach s,$(RT_BRAM_SETS),$(call RT_BIN,$(s)_bram))
	@scripts/runbench.sh $@ 300 bash -c '$(call RT_BIN,min_bram) --seed 321 --cycles 150000 && $(call RT_BIN,d2l4v4_bram) --seed 311 --cycles 100000 && \
	  $(call RT_BIN,minp_bram) --seed 331 --cycles 100000 && $(call RT_BIN,d3meshp2_bram) --seed 341 --cycles 60000'
RT_BRAM_MUT := s/else if (wfront) byp_sel_q <= 1'b1/else if (wfront) byp_sel_q <= 1'b0/
$(eval $(call RT_BUILD,min,_bram_mut,-GBufRam=1,$(RT_BRAM_MUT)))
t-router-cosim-bram-mutant: $(BUILD)/obj_router_min_bram_mut/cosim_router
	@scripts/runbench.sh $@ 120 bash -c '$(call RT_MUT_RUN,bram_mutant_caught,321)'
TEST_STEPS += t-router-cosim-bram t-router-cosim-bram-mutant
# RtPipe = 2 (docs/reference/router.md "Pipeline (RtPipe)": a register between VC and switch
# allocation, a cycle per hop in both models): d2l4v4, min and d3mesh (step priority)
t-router-cosim-pipe2: $(call RT_BIN,d2l4v4p2) $(call RT_BIN,minp2) $(call RT_BIN,d3meshp2)
	@scripts/runbench.sh $@ 300 bash -c '$(call RT_BIN,d2l4v4p2) --seed 211 --cycles 150000 && $(call RT_BIN,minp2) --seed 221 --cycles 150000 && $(call RT_BIN,d3meshp2) --seed 231 --cycles 100000'
# negative check: the RTL of minp2 against the C model of minp (without the register) must differ
$(BUILD)/obj_router_minp2_mut/cosim_router: $(RT_RTL) $(RT_SVH) tb/cosim/cosim_router.cpp $(RT_COBJ) $(LIBMT) $(call RT_SHAPE,minp2) $(call RT_SHAPE,minp) | $(BUILD)/multitree deps-ok
	@mkdir -p $(@D); rm -f $@; \
	 g=$$($(BUILD)/multitree shape --gflags $(call RT_SHAPE,minp2)) && d=$$($(BUILD)/multitree shape --cflags $(call RT_SHAPE,minp)) || exit 1; \
	$(VERILATOR) --cc --exe --build -j 2 -Wall --x-assign fast --x-initial fast -O3 -I$(RT_TOP)/rtl \
	  --top-module mt_router -Mdir $(@D) -o cosim_router \
	  $$g -CFLAGS "-O2 -I$(RT_TOP)/cmodel $$d" \
	  $(RT_RTL) $(RT_TOP)/tb/cosim/cosim_router.cpp $(addprefix $(RT_TOP)/,$(RT_COBJ)) -LDFLAGS "$(abspath $(LIBMT)) $(LDLIBS_MT)" \
	  >$(@D).build.log 2>&1 || { tail -30 $(@D).build.log; exit 1; }
t-router-cosim-pipe2-mutant: $(BUILD)/obj_router_minp2_mut/cosim_router
	@scripts/runbench.sh $@ 120 bash -c '$(call RT_MUT_RUN,pipe2_mutant_caught,221)'
TEST_STEPS += t-router-cosim-pipe2 t-router-cosim-pipe2-mutant
# switches (docs/reference/switch.md): random traffic through random route tables and through the
# tables mt_switch_build makes for real switches (fattree:4,2 top and leaf, bigraph:4x8,
# dgx2); a C model with one perturbed table entry must be caught
t-router-cosim-sw4: $(call RT_BIN,sw4)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 51 --cycles 150000 && $< --seed 52 --cycles 100000 && $< --seed 53 --cycles 20000 --perturb-table'
t-router-cosim-sw4top: $(call RT_BIN,sw4top)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 61 --cycles 100000 --topo fattree:4,2 --switch 4 && $< --seed 62 --cycles 100000'
t-router-cosim-sw8: $(call RT_BIN,sw8)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 71 --cycles 100000 --topo fattree:4,2 --switch 1 && $< --seed 72 --cycles 100000 && $< --seed 73 --cycles 20000 --topo fattree:4,2 --switch 1 --perturb-table'
t-router-cosim-sw8bg: $(call RT_BIN,sw8bg)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 81 --cycles 100000 --topo bigraph:4x8 --switch 5 && $< --seed 82 --cycles 100000'
t-router-cosim-sw16: $(call RT_BIN,sw16)
	@scripts/runbench.sh $@ 300 bash -c '$< --seed 91 --cycles 100000 --topo dgx2 --switch 0 && $< --seed 92 --cycles 100000 && $< --seed 93 --cycles 20000 --topo dgx2 --switch 1 --perturb-table'
RT_SW_STEPS := t-router-cosim-sw4 t-router-cosim-sw4top t-router-cosim-sw8 t-router-cosim-sw8bg t-router-cosim-sw16

.PHONY: cosim-router formal-router area-router bench-router
cosim-router: t-router-cosim-d2l4v4 t-router-cosim-min t-router-cosim-d3mesh t-router-perturb t-router-eff t-router-cosim-pipe $(RT_SW_STEPS)
	@cat $(foreach s,$^,$(BUILD)/logs/$(s).log) | grep -E '^(cosim_router|EFFICIENCY|SHARE|RESULT|MISMATCH|MONITOR|FAIL)' ; \
	 cat $(foreach s,$^,$(BUILD)/results/$(s).result) | awk '{p+=$$1; f+=$$2} END {printf "cosim-router: %d passed, %d failed\n", p, f; exit f>0}'

# ---- Icarus unit benches of the submodules: t-router-tb-<module> ----
RT_TBS := mt_credit_counter mt_link mt_rt_vc_buffer mt_rt_watchdog mt_rt_route mt_rt_vc_alloc mt_rt_sw_alloc
# tb/rtl/mt_rt_route.sv, mt_rt_vc_alloc.sv: test wrappers of the functions mt_router calls
RT_TB_RTL := rtl/mt_common_pkg.sv rtl/mt_credit_counter.sv rtl/mt_link.sv $(wildcard rtl/mt_rt_*.sv) tb/rtl/mt_rt_route.sv tb/rtl/mt_rt_vc_alloc.sv
define RT_TB
$(BUILD)/router_tb/tb_$(1).vvp: tb/rtl/tb_$(1).sv tb/rtl/mt_tb.svh $(RT_TB_RTL) $(RT_SVH) | deps-ok
	@mkdir -p $$(@D)
	@rm -f $$@; $(IVERILOG) -g2012 -Itb/rtl -Irtl -o $$@ tb/rtl/tb_$(1).sv $(RT_TB_RTL) >$$@.log 2>&1; rc=$$$$?; grep -v 'sorry: constant selects' $$@.log; exit $$$$rc
t-router-tb-$(1): $(BUILD)/router_tb/tb_$(1).vvp
	@scripts/runbench.sh $$@ 120 vvp -n $$<
TEST_STEPS += t-router-tb-$(1)
endef
$(foreach t,$(RT_TBS),$(eval $(call RT_TB,$(t))))

# ---- negative check: the switch-allocator bench must catch mutant allocators ----
# Each mutant is rtl/mt_rt_sw_alloc.sv with one edit (sed), so it follows the real file; the
# rule fails if the edit no longer applies. The bench runs with +expect_fail and passes only
# if its directed step-priority checks and its random checks both failed.
#   noprio: step priority ignored (every requester takes part, plain round-robin)
#   minall: the smallest step taken over every input, requesting or not
RT_SA_MUTANTS    := noprio minall
RT_SA_MUT_noprio := s/(StepPrio == 0 || /(1 || /
RT_SA_MUT_minall := s/if (req_i\[i\] \&\& prio_i\[i\*16 +: 16\] < minp)/if (prio_i[i*16 +: 16] < minp)/
define RT_SA_MUT
$(BUILD)/router_tb/mut_$(1)/tb_mt_rt_sw_alloc.vvp: tb/rtl/tb_mt_rt_sw_alloc.sv tb/rtl/mt_tb.svh $(RT_TB_RTL) mk/router.mk | deps-ok
	@mkdir -p $$(@D)
	@rm -f $$@; sed -e '$(RT_SA_MUT_$(1))' rtl/mt_rt_sw_alloc.sv >$$(@D)/mt_rt_sw_alloc.sv; \
	 if cmp -s rtl/mt_rt_sw_alloc.sv $$(@D)/mt_rt_sw_alloc.sv; then \
	   echo "mutant $(1): the edit '$(RT_SA_MUT_$(1))' no longer applies to rtl/mt_rt_sw_alloc.sv"; exit 1; fi; \
	 $(IVERILOG) -g2012 -Itb/rtl -Irtl -o $$@ tb/rtl/tb_mt_rt_sw_alloc.sv $(filter-out rtl/mt_rt_sw_alloc.sv,$(RT_TB_RTL)) \
	   $$(@D)/mt_rt_sw_alloc.sv >$$@.log 2>&1; rc=$$$$?; grep -v 'sorry: constant selects' $$@.log; exit $$$$rc
endef
$(foreach m,$(RT_SA_MUTANTS),$(eval $(call RT_SA_MUT,$(m))))
t-router-tb-sw-alloc-mutants: $(foreach m,$(RT_SA_MUTANTS),$(BUILD)/router_tb/mut_$(m)/tb_mt_rt_sw_alloc.vvp)
	@scripts/runbench.sh $@ 120 bash -c 'for v in $^; do echo "== $$v"; vvp -n $$v +expect_fail || exit 1; done'
TEST_STEPS += t-router-tb-sw-alloc-mutants

# ---- formal: credit counter (smtbmc + z3, BMC + induction), router credit safety (BMC) ----
RT_FORMAL_DEPTH ?= 6
formal-router: | deps-ok
	@scripts/runbench.sh $@ 900 synth/formal_router.sh $(RT_FORMAL_DEPTH)
	@cat $(BUILD)/logs/$@.log
t-router-formal: | deps-ok
	@scripts/runbench.sh $@ 300 synth/formal_router.sh 4
TEST_STEPS += t-router-formal
FORMAL_STEPS += formal-router

# ---- area (Yosys): the generic cells of both sets; ROUTER_AREA_FLOWS="gen ice ecp" adds the
# iCE40 and ECP5 mappings (slow, docs/results/area.md), ROUTER_AREA_SETS picks the sets ----
ROUTER_AREA_SETS  ?= default paper
ROUTER_AREA_FLOWS ?= gen
area-router: $(BUILD)/multitree | deps-ok
	@ROUTER_AREA_SETS="$(ROUTER_AREA_SETS)" ROUTER_AREA_FLOWS="$(ROUTER_AREA_FLOWS)" synth/area_router.sh
AREA_STEPS += area-router

# ---- C model: t-c-router_golden (automatic, ASan) replays tb/golden/router/ (docs/reference/golden.md);
# the same program at -O2 against libmt, for the speed of the step alone (--bench) ----
$(RT_COBJ_DIR)/bench_router: tb/cmodel/hw/test_router_golden.c tb/cmodel/mt_test.h $(LIBTB) $(LIBMT)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -Itb/cmodel $< $(LIBTB) $(LIBMT) $(LDLIBS_MT) -lz -o $@

# ---- bench: C model speed and co-simulation speed ----
# RBENCH: mt_router_step alone (busy router, recorded inputs replayed); BENCH_ROUTER_REF=<commit>
# adds the same program built against that commit's model (docs/results/bench.md);
# CBENCH: the C model inside the co-simulation harness (includes its traffic generator).
bench-router: $(call RT_BIN,d2l4v4) $(call RT_BIN,paper) $(RT_COBJ_DIR)/bench_router
	@{ echo "# bench-router $$(date -u +%Y-%m-%dT%H:%MZ) on $$(nproc) cores: $$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"; \
	  $(RT_COBJ_DIR)/bench_router --bench 1000000 | grep -E '^RBENCH'; \
	  if [ -n "$(BENCH_ROUTER_REF)" ]; then GOLDEN_BUILD_ONLY=1 tb/golden/record.sh $(BENCH_ROUTER_REF) $(BUILD) >/dev/null && \
	    $(BUILD)/golden_rec/rec_router --bench 1000000 | sed 's/^RBENCH/RBENCH $(BENCH_ROUTER_REF)/' | grep -E '^RBENCH'; fi; \
	  $(call RT_BIN,d2l4v4) --seed 7 --cycles 2000000 --cbench | grep -E '^(CBENCH|cosim)'; \
	  $(call RT_BIN,paper) --seed 7 --cycles 2000000 --cbench | grep -E '^(CBENCH|cosim)'; \
	  $(call RT_BIN,d2l4v4) --seed 7 --cycles 1000000 | grep -E '^(cosim|RESULT)'; \
	  $(call RT_BIN,paper) --seed 7 --cycles 300000 | grep -E '^(cosim|RESULT)'; } | tee $(BUILD)/bench_router.txt
BENCH_STEPS += bench-router
