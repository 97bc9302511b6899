# mk/soak.mk: `make soak` (issue #11, "make the search permanent"; docs/reference/soak.md): random
# all-reduce simulations under ASan+UBSan, drawn from SOAK_SEED (run i alone: SOAK_ONLY=i),
# SOAK_JOBS at a time through GNU parallel; every failure printed with the command that
# reproduces it; exit 1 on any wrong sum, sanitizer report, watchdog stop, crash or timeout.
SOAK_SEED ?= 1
SOAK_RUNS ?= 1000
SOAK_JOBS ?= 2
SOAK_ONLY ?=
SOAK_ARGS ?=
.PHONY: soak
soak: $(BUILD)/multitree-san $(BUILD)/multitree | deps-ok
	@python3 scripts/soak.py --seed $(SOAK_SEED) --runs $(SOAK_RUNS) --jobs $(SOAK_JOBS) $(if $(SOAK_ONLY),--only $(SOAK_ONLY)) \
	  --bin $(BUILD)/multitree-san --triage-bin $(BUILD)/multitree --out $(BUILD)/soak $(SOAK_ARGS)

# make test: a fixed-seed slice of the same driver (50 runs, well under a minute here)
SOAK_SLICE_SEED ?= 1
SOAK_SLICE_RUNS ?= 50
t-soak-slice: $(BUILD)/multitree-san $(BUILD)/multitree
	@scripts/runbench.sh $@ 600 python3 scripts/soak.py --seed $(SOAK_SLICE_SEED) --runs $(SOAK_SLICE_RUNS) --jobs 2 --quiet \
	  --bin $(BUILD)/multitree-san --triage-bin $(BUILD)/multitree --out $(BUILD)/soak-slice
TEST_STEPS += t-soak-slice
# the soak's own test: a fake multitree per failure class (sanitizer report, wrong sum,
# watchdog, NI error, signal, hang, no output) and a network key without a draw rule must
# each turn it red; a refusal must not
t-soak-selftest: $(BUILD)/multitree-san
	@scripts/runbench.sh $@ 300 python3 scripts/soak.py --self-test --bin $(BUILD)/multitree-san
TEST_STEPS += t-soak-selftest
