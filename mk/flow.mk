# mk/flow.mk: the flow-level simulator (issue #15 item 5, cmodel/flow, docs/reference/flowsim.md).
# The C unit test tb/cmodel/flow/test_flow.c runs as t-c-flow (automatic). The command line
# test (summary, JSON, front ends agreeing, the 1 GB Table 2 run, refusals) takes under a second.
t-flowsim-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_flowsim.sh
TEST_STEPS += t-flowsim-cli

# The incremental max-min solve on runs the first engine took minutes for (a 512-NPU switch
# system, MultiTree 1 GiB: 133 s then), with that engine's results; a few seconds.
t-flowspeed-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_flowspeed.sh
TEST_STEPS += t-flowspeed-cli

# The validation against the cycle model (long: the cycle runs, about 20 minutes at JOBS=1 on
# this 2-core machine): the table of docs/reference/flowsim.md "Validation"; resumable.
.PHONY: flowsim-validate
flowsim-validate: $(BUILD)/multitree
	@scripts/flowsim_validate.sh $(BUILD)/multitree $(BUILD)/flowsim_validate

# Fig. 10 at 375 KiB x N at the flow level (scripts/fig10_flow.sh) against the cycle model's
# committed points (docs/results/fig10_375k.csv); about a second.
t-fig10-flow: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_fig10_flow.sh
TEST_STEPS += t-fig10-flow
