# multitree: MultiTree all-reduce planner, C reference model, RTL and test benches.
# `make demo` and `make test` are the two entry points; both install what is missing.
# Component rules live in mk/*.mk; each appends its test steps to TEST_STEPS.
SHELL      := /bin/bash
.DEFAULT_GOAL := all
BUILD      ?= build
CC         ?= cc
CXX        ?= c++
OPT        ?= -O2
JANSSON_CFLAGS := $(shell pkg-config --cflags jansson 2>/dev/null)
CWARN      := -std=c11 -Wall -Wextra -Werror -ffp-contract=off -D_POSIX_C_SOURCE=200809L
CFLAGS_MT  := $(CWARN) $(OPT) -g -pthread -Icmodel $(JANSSON_CFLAGS)
SAN        := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDLIBS_MT  := -ljansson -lm -pthread
TEST_STEPS :=
# Aggregate targets: each mk/*.mk fragment appends its own sub-targets to these.
FORMAL_STEPS :=
AREA_STEPS   :=
BENCH_STEPS  :=
# Verilator: one thread (CI shares 2 cores), warnings fatal; through scripts/vtimed.sh, which
# records each build's time for make test's timing report (VERILATOR_BIN: the real command).
VERILATOR  ?= $(CURDIR)/scripts/vtimed.sh
# ccache (a Debian package, installed by deps) under Verilator's C++ compiles (verilated.mk's
# OBJCACHE): a second make test recompiles only the models whose code changed. BASEDIR makes
# the cache hit across checkouts (tb/lint/test_runner.sh builds in a copy of the tree).
# The C model's objects go through it too (CCACHE; NOHASHDIR: objects hit across checkouts
# although -g records the directory).
export OBJCACHE := $(shell command -v ccache 2>/dev/null)
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
CCACHE := $(OBJCACHE)
IVERILOG   ?= iverilog

# ---- C model library: cmodel/<layer>/*.c, one folder per layer (docs/reference/architecture.md);
# cmodel/app/ is the command-line front end. Includes name the layer: "hw/mt_ni.h". ----
CM_LAYERS  := util fmt topo plan flow table hw net train
# The NI's block files (cmodel/hw/mt_ni_<block>.c) are phases #included by mt_ni.c, one
# translation unit so that they inline into mt_ni_step (cmodel/hw/mt_ni_blocks.h).
CM_PHASES  := $(filter-out cmodel/hw/mt_ni.c,$(wildcard cmodel/hw/mt_ni*.c))
CM_SRC     := $(filter-out $(CM_PHASES),$(foreach l,$(CM_LAYERS),$(wildcard cmodel/$(l)/*.c)))
CM_OBJ     := $(CM_SRC:cmodel/%.c=$(BUILD)/obj/%.o)
CM_SAN_OBJ := $(CM_SRC:cmodel/%.c=$(BUILD)/san/%.o)
APP_SRC    := $(wildcard cmodel/app/*.c)
LIBMT      := $(BUILD)/libmt.a
LIBMT_SAN  := $(BUILD)/libmt_san.a
# test-only C code (NI environment, fault injection, golden traces): tb/cmodel/*.c (the test
# programs live in the layer folders tb/cmodel/<layer>/, tb/README.md)
TB_SRC     := $(wildcard tb/cmodel/*.c)
LIBTB      := $(BUILD)/libmttb.a
LIBTB_SAN  := $(BUILD)/libmttb_san.a

$(BUILD)/obj/%.o: cmodel/%.c | deps-ok
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_MT) -MMD -MP -c $< -o $@
$(BUILD)/san/%.o: cmodel/%.c | deps-ok
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_MT) -O1 $(SAN) -MMD -MP -c $< -o $@
$(BUILD)/obj/tb/%.o: tb/cmodel/%.c | deps-ok
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_MT) -Itb/cmodel -MMD -MP -c $< -o $@
$(BUILD)/san/tb/%.o: tb/cmodel/%.c | deps-ok
	@mkdir -p $(@D)
	$(CCACHE) $(CC) $(CFLAGS_MT) -Itb/cmodel -O1 $(SAN) -MMD -MP -c $< -o $@
$(LIBMT): $(CM_OBJ)
	@rm -f $@; ar rcs $@ $^
$(LIBMT_SAN): $(CM_SAN_OBJ)
	@rm -f $@; ar rcs $@ $^
$(LIBTB): $(TB_SRC:tb/cmodel/%.c=$(BUILD)/obj/tb/%.o)
	@rm -f $@; ar rcs $@ $^
$(LIBTB_SAN): $(TB_SRC:tb/cmodel/%.c=$(BUILD)/san/tb/%.o)
	@rm -f $@; ar rcs $@ $^
$(BUILD)/multitree: $(APP_SRC:cmodel/%.c=$(BUILD)/obj/%.o) $(LIBMT)
	$(CC) $(CFLAGS_MT) $^ $(LDLIBS_MT) -o $@
$(BUILD)/multitree-san: $(APP_SRC:cmodel/%.c=$(BUILD)/san/%.o) $(LIBMT_SAN)
	$(CC) $(CFLAGS_MT) -O1 $(SAN) $^ $(LDLIBS_MT) -o $@
# header dependencies of the objects above (only these: a stale .d of a moved file must not
# name a target that no longer exists)
MT_ALL_OBJ := $(CM_OBJ) $(CM_SAN_OBJ) $(APP_SRC:cmodel/%.c=$(BUILD)/obj/%.o) $(APP_SRC:cmodel/%.c=$(BUILD)/san/%.o) \
              $(TB_SRC:tb/cmodel/%.c=$(BUILD)/obj/tb/%.o) $(TB_SRC:tb/cmodel/%.c=$(BUILD)/san/tb/%.o)
-include $(MT_ALL_OBJ:.o=.d)

# C unit tests: tb/cmodel/<layer>/test_<x>.c (grouped like cmodel/), built with ASan+UBSan,
# run as step t-c-<x>; test_*_golden replay the traces of tb/golden/ (docs/reference/golden.md).
C_TEST_SRC := $(wildcard tb/cmodel/*/test_*.c)
C_TESTS    := $(patsubst test_%.c,%,$(notdir $(C_TEST_SRC)))
c_test_src = $(filter %/test_$(1).c,$(C_TEST_SRC))
.SECONDEXPANSION:
$(BUILD)/tests/test_%: $$(call c_test_src,$$*) $(wildcard tb/cmodel/*.h) $(LIBTB_SAN) $(LIBMT_SAN)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -O1 $(SAN) -Itb/cmodel -DMT_TEST_DATA='"$(CURDIR)/tb/cmodel/data"' -DMT_GOLDEN_DIR='"$(CURDIR)/tb/golden"' $< $(LIBTB_SAN) $(LIBMT_SAN) $(LDLIBS_MT) -lz -o $@
t-c-%: $(BUILD)/tests/test_% $(BUILD)/multitree
	@scripts/runbench.sh $@ 600 env MT_BIN=$(BUILD)/multitree $(BUILD)/tests/test_$*
TEST_STEPS += $(addprefix t-c-,$(C_TESTS))

# keep test binaries (they are intermediates of pattern rules)
.SECONDARY:

include $(sort $(wildcard mk/*.mk))

# ---- entry points ----
.PHONY: all deps deps-ok test check demo lint bench clean help
all: $(BUILD)/multitree

deps:
	@scripts/deps.sh
# order-only prerequisite of every build rule: checks quickly, installs when root.
deps-ok:
	@scripts/deps.sh

# make test: every step, TEST_JOBS at a time (default: the number of cores); make check: the
# quick tier (CHECK_STEPS, below). Both end with the timing report and 'N passed, N failed'.
test: deps
	@MAKE="$(MAKE)" scripts/run_tests.sh $(TEST_STEPS)
check: deps
	@MAKE="$(MAKE)" scripts/run_tests.sh $(CHECK_STEPS)

# the RTL step co-simulates the 4x4 torus (Verilator, hierarchical: mt_node Verilated once,
# with waveforms of the links and of every node's ports: router links, memory ports, NI status)
demo: deps $(BUILD)/multitree
	@scripts/demo.sh $(BUILD) '$(MAKE) --no-print-directory NET_FST=1 NET_HIER=1 $(BUILD)/obj_net_fst_hier_t4x4_demo/cosim_net'

# Every rtl/*.sv linted as its own top by Verilator -Wall, read by Yosys and Icarus, and the
# shapes of scripts/lint.sh elaborated; the C model's layer rule (scripts/lint_layers.py: which
# layer may include which, no two files of a layer calling each other); C/C++ format
# (scripts/lint_format.sh against .clang-format); the docs (scripts/lint_docs.sh: no work
# diary, links and docs/ paths that exist). make test's t-lint adds Yosys's proc + check of
# every shape (minutes: the paper NI's shapes and the 3-D network).
lint: deps
	@scripts/lint.sh quick; a=$$?; python3 scripts/lint_layers.py; b=$$?; scripts/lint_format.sh | tail -20; c=$${PIPESTATUS[0]}; scripts/lint_docs.sh | tail -40; d=$${PIPESTATUS[0]}; exit $$((a | b | c | d))
t-lint:
	@scripts/runbench.sh $@ 1200 scripts/lint.sh all
# everything lint.sh checks, Yosys's proc + check of the heavy shapes too (minutes more)
.PHONY: lint-full
lint-full: deps
	@scripts/lint.sh full
# the layer lint on the tree, and on copies broken on purpose (it must catch them)
t-lint-layers:
	@scripts/runbench.sh $@ 120 tb/lint/test_lint_layers.sh
# the format check on the tree, and on a copy broken on purpose
t-lint-format:
	@mkdir -p $(BUILD)
	@scripts/runbench.sh $@ 300 tb/lint/test_lint_format.sh
# make test cannot say green on a broken tree: a bench that does not compile, a formal block that
# does not parse, a timeout line and a changed C model under a co-simulation each turn a step red
t-runner:
	@mkdir -p $(BUILD)
	@scripts/runbench.sh $@ 900 tb/lint/test_runner.sh
# lint.sh reports each kind of failure (Verilator, Icarus, Yosys) on a module broken on purpose
t-lint-rtl:
	@scripts/runbench.sh $@ 300 tb/lint/test_lint_rtl.sh
TEST_STEPS += t-lint t-lint-rtl t-lint-layers t-lint-format t-runner

# ---- what most steps share, built first (scripts/run_tests.sh), and the steps with the longest
# builds or runs first, so that make's job slots finish together ----
.PHONY: test-prereqs
test-prereqs: $(BUILD)/multitree $(BUILD)/multitree-san $(LIBMT) $(LIBMT_SAN) $(LIBTB) $(LIBTB_SAN) $(NET_DIR)/cosim_net_params $(GEN_MT_PKG)
TEST_FIRST := t-lint t-net-cosim-m2x2_mt_pni_msg_i32 t-net-cosim-ft42_hd_msg_i32 t-net-cosim-t4x4_het_mt_msg_i32 \
  t-net-cosim-t4x4_mt_msg_f32 t-check-mutate t-runner t-c-planner t-planner-cli
TEST_STEPS := $(TEST_FIRST) $(filter-out $(TEST_FIRST),$(TEST_STEPS))

# ---- make check: the quick tier, for after a small change (CONTRIBUTING.md): the C unit tests
# under the sanitizers (with the golden traces), the layer, format, package and docs lints, and one
# small co-simulation or unit bench per RTL block. Under 3 minutes with a warm build.
CHECK_STEPS := $(addprefix t-c-,$(C_TESTS)) t-lint-layers t-lint-format t-lint-pkg t-lint-rtl t-lint-docs t-docs-generated \
  t-router-cosim-min $(filter t-router-tb-%,$(TEST_STEPS)) \
  t-ni-cosim-full $(filter t-ni-tb-%,$(TEST_STEPS)) \
  t-reduce-tb t-reduce-cosim t-net-cosim-m2x2_mt_msg_i32

.PHONY: formal area
formal: deps $(FORMAL_STEPS)
area: deps $(AREA_STEPS)
bench: deps $(BENCH_STEPS)

clean:
	rm -rf $(BUILD) obj_dir

help:
	@echo "make demo | test | check | lint | lint-full | bench | area | formal | cosim-router | cosim-ni | cosim-net | paper | regress | fuzz | soak | fpga-tools | fpga | clean"

# ---- golden traces of the NI and router models (docs/reference/golden.md; not in make test):
# regenerate tb/golden/{ni,router}/ from a build of GOLDEN_REF (GOLDEN_REF_TREE=/path: an
# already built checkout of it) ----
GOLDEN_REF ?= 5c3eebf
.PHONY: golden
golden: | deps-ok
	@tb/golden/record.sh $(GOLDEN_REF) $(BUILD)
