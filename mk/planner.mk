# A command-line test step: $(1) the step, $(2) its time limit in seconds, $(3) the script in
# tb/cli/, run on build/multitree
define CLI_STEP
$(1): $$(BUILD)/multitree
	@scripts/runbench.sh $$@ $(2) tb/cli/$(3) $$(BUILD)/multitree
TEST_STEPS += $(1)
endef

# Planner (issue #2): command-line tests and the planning benchmark.
# The C unit tests tb/cmodel/plan/test_planner.c and tb/cmodel/table/test_rom.c run as t-c-planner, t-c-rom.
$(eval $(call CLI_STEP,t-planner-cli,300,test_cli.sh))

# Output files written whole or not at all, standard output write errors, inputs read within a
# bound (cmodel/util/mt_io.c): tb/cli/test_io.sh, a few seconds.
t-cli-io: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_io.sh
TEST_STEPS += t-cli-io

# Schedules unchanged (docs/reference/planner.md "Planning switch networks"): the digest of
# each recorded case's `plan --json` against tb/cli/plan_hashes.txt (MultiTree on switch,
# direct and hier: networks, the baselines on a few); a planner change that alters a
# schedule fails; PLAN_HASH_UPDATE=1 records new digests; about 15-35 s.
$(eval $(call CLI_STEP,t-plan-hash,300,test_plan_hash.sh))

# Switch-network planning speed (issue #11 item 10): a 1024-node star planned within a CPU
# budget, checked; fattree:16,3 (4096 nodes) within 20 s of tree CPU and 800,000 KB peak;
# tb/cli/test_plan_speed.sh.
$(eval $(call CLI_STEP,t-planner-speed,300,test_plan_speed.sh))

# Schedules at scale: the 1024-node schedule written with --json and torus:64x64 planned,
# this build and BENCH_PLANNER_REF's (built from git archive; empty: this build only) in the
# same run; docs/results/bench.md "Schedules at scale". The default reference is the planner
# before the streaming writer and the faster 64x64 planning, the baseline of that page.
BENCH_PLANNER_REF ?= ade92ee
.PHONY: bench-planner
bench-planner: $(BUILD)/multitree
	@scripts/bench_planner.sh $(BUILD)/multitree
	@scripts/bench_sched_scale.sh $(BUILD)/multitree $(BENCH_PLANNER_REF)
BENCH_STEPS += bench-planner

# The paper's experiments (issue #5): long; results in docs/results/ (fig9.md, fig9sw.md, fig10.md). Fig. 9a/9b
# (tori, meshes), Fig. 9c/9d (switch networks) and Fig. 10; parts of them with the variables
# of scripts/paper.sh, e.g. only Fig. 9c/9d:
#   make paper FIG9_TOPOS= FIG10_TOPOS= FIG9SW_SIZES="32K 64M" JOBS=1 OUT=build/paper_sw
.PHONY: paper
paper: $(BUILD)/multitree
	@scripts/paper.sh $(BUILD)/multitree

# paper.sh's sweep machinery (issue #14 item 4, docs/reference/sweeps.md): a 3-run sweep through GNU
# parallel, a second call and a killed one resumed, the Slurm array script's tasks run by
# hand and merged, a stand-in ssh host; about 10 s
$(eval $(call CLI_STEP,t-sweep,120,test_sweep.sh))

# Mutation check of `check` (issue #11): valid schedules of every algorithm on 7 topologies
# must pass (themis with 2 chunks, on ring:8 only); 52 classes of corruption of each must be refused with the field named.
t-check-mutate: $(BUILD)/multitree
	@scripts/runbench.sh $@ 300 python3 scripts/mutate_check.py $(BUILD)/multitree $(BUILD)/check_mutate
TEST_STEPS += t-check-mutate

# Themis and the chunked baseline (issue #15 items 3-4, docs/reference/themis.md): plan + check on a
# heterogeneous 3-D system and torus:4x4x4, the cycle model on torus:4x4x4 (hier, themis,
# 64 KiB, result correct), bad options refused; about 20 s. The unit test is t-c-themis.
$(eval $(call CLI_STEP,t-themis-cli,120,test_themis.sh))

# dimbal, the dimension-balanced chunk schedule (docs/reference/themis.md "dimbal"): at least
# 99 % of the bound and no slower than Themis+SCF on the six Table 2 systems (flow level,
# 1 GiB, --overlap), check on a 3-D system and torus:4x4x4, the cycle model, best's pick;
# about 10 s. The unit test is t-c-dimbal.
$(eval $(call CLI_STEP,t-dimbal-cli,120,test_dimbal.sh))

# FlexReduce and BlueConnect (issue #16, docs/reference/flexreduce.md): plan + check on hier:
# hierarchies, the cycle model on machines of 4 and 3 (flexreduce) and 4 + 4 (blueconnect),
# 64 KiB, result correct; the flow level; bad inputs refused; about 2 s. The unit test is
# t-c-flexreduce.
$(eval $(call CLI_STEP,t-flexreduce-cli,120,test_flexreduce.sh))

# Inputs refused before they wrap or change units (docs/reference/training.md "Limits",
# topologies.md, flexreduce.md, themis.md): workload sizes and compute cycles past their
# limits, hier:/dims: specs with an empty level or rates on some levels only, chunk counts
# whose steps cannot fit 16 bits (each refused within 2 s); about 1 s.
$(eval $(call CLI_STEP,t-relinput-cli,60,test_relinput.sh))

# A command refuses every option it does not use (docs/reference/cli.md): each command and mode's valid line runs, and each option outside its list is
# refused, naming it; about 3 s.
$(eval $(call CLI_STEP,t-relopts-cli,60,test_relopts.sh))

# The input readers' messages (docs/reference/formats.md, config.md, topologies.md): a UTF-8
# byte-order mark skipped by every text reader, a directory refused as one, a quoted number in
# layout.json named a string, bound/train naming themselves, the hier: latency cap, base =
# NAME falling back to the built-in configuration; about 1 s.
$(eval $(call CLI_STEP,t-relmsgs-cli,60,test_relmsgs.sh))
# A key, directive or layer name given twice in one file, refused with both lines (topology
# nodes/switches, a configuration key or base, a workload layer name); under 1 s.
$(eval $(call CLI_STEP,t-reldup-cli,60,test_reldup.sh))
# Every input format's numbers through the one strict parser (docs/reference/formats.md
# "Numbers"): options, --set, .cfg, topology names and files, dimensions files, workload and
# compute CSVs, ROM headers; a blank, sign, hexadecimal, exponent, fraction or overflow is
# refused naming the field and range; about 1 s.
$(eval $(call CLI_STEP,t-relnum-cli,60,test_relnum.sh))

# The bucket planner and the bounds (issue #18, docs/reference/planner.md "bucket", "Bounds"): bound's
# hand values, check on six tori/meshes, the cycle model on torus:4x4 at 1 MiB (>= 94% of the
# per-node bound, correct, faster than MultiTree) and on torus:4x8 at 1 MiB (pipelined chunks,
# >= 72%), edited plans refused (mesh:4x4 and a pipelined torus:4x8), bad inputs refused;
# about 10 s. The unit tests are t-c-bucket and t-c-bound.
$(eval $(call CLI_STEP,t-bucket-cli,120,test_bucket.sh))

# meshtree (docs/reference/planner.md "meshtree"): >= 90 % of the lower bound at the flow level on
# mesh:4x4 and mesh:3x4x2 at 64 MiB (the rule refuses multitree's 62.5 %), check, best's
# choice, a switch network refused; about 3 s. The unit test is t-c-meshtree.
$(eval $(call CLI_STEP,t-meshtree-cli,120,test_meshtree.sh))

# bucket's mesh lines in phase (issue #18, docs/reference/planner.md "Mesh lines in phase"): the NOP
# estimate of bucket on mesh:8x8 against the busiest link's bytes from the transfer list, the
# cycle model at 1 MiB with ni_stage_after=300 staging nothing (correct, >= 95 %), broken
# NOP tables refused by check; about 15 s.
$(eval $(call CLI_STEP,t-bucket-mesh,180,test_bucket_mesh.sh))
