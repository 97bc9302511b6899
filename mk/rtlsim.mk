# mk/rtlsim.mk: the RTL network alone, the FPGA path (issue #12 item 4; docs/reference/rtl_sim.md): every
# NI's table loaded from `multitree rom --format hex` images by $readmemh (rtl/mt_node.sv),
# no C model in lockstep; every buffer against the reference sum, the cycles against
# `multitree sim`'s. `make rtl-sim RTL_SIM_ARGS="--topo torus:4x4 --algo multitree --bytes 256K
# [--fst out.fst --fst-nodes 0,5]"` (scripts/rtl_sim.sh; builds are cached in build/rtlsim/).
RTL_SIM_ARGS ?= --topo torus:4x4 --algo multitree --bytes 256K
.PHONY: rtl-sim
rtl-sim: $(BUILD)/multitree $(NET_DIR)/cosim_net_params $(LIBMT) | deps-ok
	@$(NET_ENV) scripts/rtl_sim.sh $(RTL_SIM_ARGS)

# make test: ROM runs on the m2x2_mt_pni build of `make test` (its shape is the planner's for
# mesh 2x2 multitree 2 KiB with the default NI, so no build of its own), damaged ROM
# directories that must fail, and the net with RomDir in Icarus (tb/rtlsim/test_rtl_sim.sh)
t-rtl-sim: $(call NET_BIN,m2x2_mt_pni) $(BUILD)/multitree $(NET_DIR)/cosim_net_params
	@$(NET_ENV) scripts/runbench.sh $@ 300 tb/rtlsim/test_rtl_sim.sh $<
TEST_STEPS += t-rtl-sim
