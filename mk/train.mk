# mk/train.mk: DNN training workloads and the iteration model (issue #17, cmodel/train,
# docs/reference/training.md). The C unit test tb/cmodel/train/test_train.c runs as t-c-train
# (automatic: the iteration model, the tables' parameter counts, the OS formula, refusals).
# The command line test runs the 3-layer toy end to end on torus:4x4 (a few seconds).
t-train-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_train.sh
TEST_STEPS += t-train-cli
# the all-reduce cache: keys from the inputs' contents, damaged lines (a few seconds)
t-train-cache: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_train_cache.sh
TEST_STEPS += t-train-cache

# Fig. 11 (long; docs/reference/training.md): FIG11_TOPO, FIG11_MODELS, FIG11_CONFIG, JOBS
.PHONY: fig11
fig11: $(BUILD)/multitree
	@scripts/fig11.sh $(BUILD)/multitree
