# mk/reduce.mk: the reduction unit's adders (cmodel/util/mt_fp32.*, rtl/mt_fp32_add.sv,
# rtl/mt_reduce_alu.sv). The C unit test tb/cmodel/util/test_fp32.c runs as t-c-fp32 (root
# Makefile). Here: the RTL benches, the negative checks, the fp32 soak and the area report.
#   t-reduce-tb        Icarus: tb/rtl/tb_mt_reduce_alu.sv, hand-derived vectors
#   t-reduce-tb-pipeN  the same with the adder pipeline Pipe = N (1, 2)
#   t-reduce-cosim     Verilator: mt_reduce_alu (Lanes=4) against the C model, REDUCE_COSIM_PAIRS pairs
#   t-reduce-cosim-pipeN  the same at Pipe = N (1, 2), REDUCE_COSIM_PIPE_PAIRS pairs
#   t-reduce-neg-pipe  a build of Pipe = 2 checked as Pipe = 1 must fail the co-simulation
#   t-reduce-neg-c     a truncating C model must fail the host-FPU comparison
#   t-reduce-neg-rtl   a truncating RTL build must fail the co-simulation
#   fp32-soak          (bench) C model against the host FPU, FP32_SOAK_PAIRS pairs, -O2
#   area-reduce        (area) synth/area_reduce.sh: generic synth + stat, synth_ice40, synth_ecp5
RD_DIR             := $(BUILD)/reduce
RD_RTL             := rtl/mt_fp32_add.sv rtl/mt_reduce_alu.sv
RD_RTL_ABS         := $(addprefix $(CURDIR)/,$(RD_RTL))
REDUCE_COSIM_PAIRS ?= 20000000
REDUCE_COSIM_PIPE_PAIRS ?= 4000000
FP32_SOAK_PAIRS    ?= 1000000000
FP32_SOAK_SEED     ?= 1
RD_CFLAGS          := $(CWARN) -O2 -Icmodel
RD_VFLAGS          := --cc --exe --build -j 1 --threads 1 -Wall -O3 -GLanes=4 -I$(CURDIR)/rtl \
                      --top-module mt_reduce_alu -o fp32_add_harness \
                      -CFLAGS "-I$(CURDIR)/cmodel -I$(CURDIR)/tb/cosim -ffp-contract=off -O2"
RD_HARNESS_DEPS    := $(RD_RTL) rtl/mt_fp32_add.svh tb/cosim/fp32_add_harness.cpp tb/cosim/fp32_pairs.h cmodel/util/mt_fp32.h

.PHONY: t-reduce-tb t-reduce-tb-pipe1 t-reduce-tb-pipe2 t-reduce-cosim t-reduce-cosim-pipe1 t-reduce-cosim-pipe2 t-reduce-neg-pipe t-reduce-neg-c t-reduce-neg-rtl fp32-soak area-reduce cosim-fp32

# ---- Icarus unit bench, at Pipe = 0 (t-reduce-tb), 1 and 2 ----
$(RD_DIR)/tb_mt_reduce_alu_pipe%.vvp: tb/rtl/tb_mt_reduce_alu.sv $(RD_RTL) rtl/mt_fp32_add.svh | deps-ok
	@mkdir -p $(@D)
	@rm -f $@; $(IVERILOG) -g2012 -Irtl -P tb_mt_reduce_alu.Pipe=$* -o $@ $(filter %.sv,$^)
t-reduce-tb: $(RD_DIR)/tb_mt_reduce_alu_pipe0.vvp
t-reduce-tb-pipe1: $(RD_DIR)/tb_mt_reduce_alu_pipe1.vvp
t-reduce-tb-pipe2: $(RD_DIR)/tb_mt_reduce_alu_pipe2.vvp
t-reduce-tb t-reduce-tb-pipe1 t-reduce-tb-pipe2:
	@scripts/runbench.sh $@ 60 vvp -n $<

# ---- Verilator co-simulation against the C model: harness obj_fp32_pipeRH, the RTL at Pipe = R
# checked as latency 1 + H (pipe21: the negative check) ----
define rd_pipe_harness
$(BUILD)/obj_fp32_pipe$(1)$(2)/fp32_add_harness: $(RD_HARNESS_DEPS) $(BUILD)/obj/util/mt_fp32.o | deps-ok
	@rm -f $$@
	$(VERILATOR) $(RD_VFLAGS) -GPipe=$(1) -CFLAGS -DALU_PIPE=$(2) -Mdir $$(@D) $(RD_RTL_ABS) \
	  $(CURDIR)/tb/cosim/fp32_add_harness.cpp $(abspath $(BUILD)/obj/util/mt_fp32.o) >$$(@D).log 2>&1 \
	  || { tail -30 $$(@D).log; exit 1; }
endef
$(eval $(call rd_pipe_harness,0,0))
$(eval $(call rd_pipe_harness,1,1))
$(eval $(call rd_pipe_harness,2,2))
$(eval $(call rd_pipe_harness,2,1))
t-reduce-cosim: $(BUILD)/obj_fp32_pipe00/fp32_add_harness
	@scripts/runbench.sh $@ 300 $< $(REDUCE_COSIM_PAIRS) 1
t-reduce-cosim-pipe1: $(BUILD)/obj_fp32_pipe11/fp32_add_harness
	@scripts/runbench.sh $@ 300 $< $(REDUCE_COSIM_PIPE_PAIRS) 2
t-reduce-cosim-pipe2: $(BUILD)/obj_fp32_pipe22/fp32_add_harness
	@scripts/runbench.sh $@ 300 $< $(REDUCE_COSIM_PIPE_PAIRS) 3
t-reduce-neg-pipe: $(BUILD)/obj_fp32_pipe21/fp32_add_harness
	@scripts/runbench.sh $@ 60 $< 100000 1 --expect-mismatch
cosim-fp32: $(BUILD)/obj_fp32_pipe00/fp32_add_harness
	$< $(REDUCE_COSIM_PAIRS) $(FP32_SOAK_SEED)

# ---- negative checks: deliberately wrong adders (truncation instead of RNE) ----
$(RD_DIR)/fp32_soak_trunc: tb/cmodel/util/fp32_soak.c cmodel/util/mt_fp32.c cmodel/util/mt_fp32.h tb/cosim/fp32_pairs.h | deps-ok
	@mkdir -p $(@D)
	$(CC) $(RD_CFLAGS) -DMT_FP32_MUTANT_TRUNC tb/cmodel/util/fp32_soak.c cmodel/util/mt_fp32.c -o $@
t-reduce-neg-c: $(RD_DIR)/fp32_soak_trunc
	@scripts/runbench.sh $@ 60 $< 100000 1 --expect-mismatch
$(BUILD)/obj_fp32_trunc/fp32_add_harness: $(RD_HARNESS_DEPS) $(BUILD)/obj/util/mt_fp32.o | deps-ok
	@rm -f $@
	$(VERILATOR) $(RD_VFLAGS) -Wno-UNUSEDSIGNAL -DMT_FP32_MUTANT_TRUNC -Mdir $(BUILD)/obj_fp32_trunc \
	  $(RD_RTL_ABS) $(CURDIR)/tb/cosim/fp32_add_harness.cpp $(abspath $(BUILD)/obj/util/mt_fp32.o) \
	  >$(BUILD)/obj_fp32_trunc.log 2>&1 || { tail -30 $(BUILD)/obj_fp32_trunc.log; exit 1; }
t-reduce-neg-rtl: $(BUILD)/obj_fp32_trunc/fp32_add_harness
	@scripts/runbench.sh $@ 60 $< 100000 1 --expect-mismatch

TEST_STEPS += t-reduce-tb t-reduce-cosim t-reduce-neg-c t-reduce-neg-rtl t-reduce-tb-pipe1 t-reduce-tb-pipe2 \
  t-reduce-cosim-pipe1 t-reduce-cosim-pipe2 t-reduce-neg-pipe

# ---- soak: >= 1e8 pairs against the host FPU (bench) ----
$(RD_DIR)/fp32_soak: tb/cmodel/util/fp32_soak.c cmodel/util/mt_fp32.c cmodel/util/mt_fp32.h tb/cosim/fp32_pairs.h | deps-ok
	@mkdir -p $(@D)
	$(CC) $(RD_CFLAGS) tb/cmodel/util/fp32_soak.c cmodel/util/mt_fp32.c -o $@
fp32-soak: $(RD_DIR)/fp32_soak
	@$< $(FP32_SOAK_PAIRS) $(FP32_SOAK_SEED) | tee $(RD_DIR)/fp32_soak.txt; test $${PIPESTATUS[0]} -eq 0
BENCH_STEPS += fp32-soak

# ---- area (Yosys 0.23, synth/area_reduce.sh): cells per block, generic gates and FPGA LUTs ----
area-reduce: $(RD_RTL) | deps-ok
	@synth/area_reduce.sh $(BUILD)
AREA_STEPS += area-reduce
