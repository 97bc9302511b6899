# Planner (issue #2): command-line tests and the planning benchmark.
# The C unit tests tb/cmodel/plan/test_planner.c and tb/cmodel/table/test_rom.c run as t-c-planner, t-c-rom.
t-planner-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 300 tb/cli/test_cli.sh $(BUILD)/multitree
TEST_STEPS += t-planner-cli

# Output files written whole or not at all, standard output write errors, inputs read within a
# bound (cmodel/util/mt_io.c): tb/cli/test_io.sh, a few seconds.
t-cli-io: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 env MT_BIN=$(BUILD)/multitree tb/cli/test_io.sh
TEST_STEPS += t-cli-io

# Switch-network planning speed (issue #11 item 10): a 1024-node star planned within a CPU
# budget, checked; tb/cli/test_plan_speed.sh.
t-planner-speed: $(BUILD)/multitree
	@scripts/runbench.sh $@ 300 tb/cli/test_plan_speed.sh $(BUILD)/multitree
TEST_STEPS += t-planner-speed

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
t-sweep: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_sweep.sh $(BUILD)/multitree
TEST_STEPS += t-sweep

# Mutation check of `check` (issue #11): valid schedules of every algorithm on 7 topologies
# must pass (themis with 2 chunks, on ring:8 only); 52 classes of corruption of each must be refused with the field named.
t-check-mutate: $(BUILD)/multitree
	@scripts/runbench.sh $@ 300 python3 scripts/mutate_check.py $(BUILD)/multitree $(BUILD)/check_mutate
TEST_STEPS += t-check-mutate

# Themis and the chunked baseline (issue #15 items 3-4, docs/reference/themis.md): plan + check on a
# heterogeneous 3-D system and torus:4x4x4, the cycle model on torus:4x4x4 (hier, themis,
# 64 KiB, result correct), bad options refused; about 20 s. The unit test is t-c-themis.
t-themis-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_themis.sh $(BUILD)/multitree
TEST_STEPS += t-themis-cli

# FlexReduce and BlueConnect (issue #16, docs/reference/flexreduce.md): plan + check on hier:
# hierarchies, the cycle model on machines of 4 and 3 (flexreduce) and 4 + 4 (blueconnect),
# 64 KiB, result correct; the flow level; bad inputs refused; about 2 s. The unit test is
# t-c-flexreduce.
t-flexreduce-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_flexreduce.sh $(BUILD)/multitree
TEST_STEPS += t-flexreduce-cli

# Inputs refused before they wrap or change units (docs/reference/training.md "Limits",
# topologies.md, flexreduce.md, themis.md): workload sizes and compute cycles past their
# limits, hier:/dims: specs with an empty level or rates on some levels only, chunk counts
# whose steps cannot fit 16 bits (each refused within 2 s); about 1 s.
t-relinput-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 60 tb/cli/test_relinput.sh $(BUILD)/multitree
TEST_STEPS += t-relinput-cli

# A command refuses every option it does not use (docs/reference/cli.md): each command and mode's valid line runs, and each option outside its list is
# refused, naming it; about 3 s.
t-relopts-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 60 tb/cli/test_relopts.sh $(BUILD)/multitree
TEST_STEPS += t-relopts-cli

# The input readers' messages (docs/reference/formats.md, config.md, topologies.md): a UTF-8
# byte-order mark skipped by every text reader, a directory refused as one, a quoted number in
# layout.json named a string, bound/train naming themselves, the hier: latency cap, base =
# NAME falling back to the built-in configuration; about 1 s.
t-relmsgs-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 60 tb/cli/test_relmsgs.sh $(BUILD)/multitree
TEST_STEPS += t-relmsgs-cli
# A key, directive or layer name given twice in one file, refused with both lines (topology
# nodes/switches, a configuration key or base, a workload layer name); under 1 s.
t-reldup-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 60 tb/cli/test_reldup.sh $(BUILD)/multitree
TEST_STEPS += t-reldup-cli
# Every input format's numbers through the one strict parser (docs/reference/formats.md
# "Numbers"): options, --set, .cfg, topology names and files, dimensions files, workload and
# compute CSVs, ROM headers; a blank, sign, hexadecimal, exponent, fraction or overflow is
# refused naming the field and range; about 1 s.
t-relnum-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 60 tb/cli/test_relnum.sh $(BUILD)/multitree
TEST_STEPS += t-relnum-cli

# The bucket planner and the bounds (issue #18, docs/reference/planner.md "bucket", "Bounds"): bound's
# hand values, check on six tori/meshes, the cycle model on torus:4x4 at 1 MiB (>= 94% of the
# per-node bound, correct, faster than MultiTree) and on torus:4x8 at 1 MiB (pipelined chunks,
# >= 72%), edited plans refused (mesh:4x4 and a pipelined torus:4x8), bad inputs refused;
# about 10 s. The unit tests are t-c-bucket and t-c-bound.
t-bucket-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_bucket.sh $(BUILD)/multitree
TEST_STEPS += t-bucket-cli

# meshtree (docs/reference/planner.md "meshtree"): >= 90 % of the lower bound at the flow level on
# mesh:4x4 and mesh:3x4x2 at 64 MiB (the rule refuses multitree's 62.5 %), check, best's
# choice, a switch network refused; about 3 s. The unit test is t-c-meshtree.
t-meshtree-cli: $(BUILD)/multitree
	@scripts/runbench.sh $@ 120 tb/cli/test_meshtree.sh $(BUILD)/multitree
TEST_STEPS += t-meshtree-cli

# bucket's mesh lines in phase (issue #18, docs/reference/planner.md "Mesh lines in phase"): the NOP
# estimate of bucket on mesh:8x8 against the busiest link's bytes from the transfer list, the
# cycle model at 1 MiB with ni_stage_after=300 staging nothing (correct, >= 95 %), broken
# NOP tables refused by check; about 15 s.
t-bucket-mesh: $(BUILD)/multitree
	@scripts/runbench.sh $@ 180 tb/cli/test_bucket_mesh.sh $(BUILD)/multitree
TEST_STEPS += t-bucket-mesh
