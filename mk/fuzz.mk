# mk/fuzz.mk: libFuzzer harnesses of the C model's input paths (issue #11, docs/reference/fuzz.md).
#   make fuzz           build the harnesses with clang (-fsanitize=fuzzer,address,undefined) and run
#                       each for FUZZ_SECONDS (about 75 minutes for the six); figures into docs/results/reliability.md,
#                       crashes into build/fuzz/crashes/
#   t-fuzz-replay       (make test) every seed of tb/fuzz/corpus/<target>/ and every regression input
#                       tb/fuzz/crashes/<target>-* through the harnesses once: built with gcc and
#                       ASan+UBSan (no clang needed), and with the libFuzzer builds too when clang is there
FUZZ_TARGETS := topo sched rom cli workload cfg
FUZZ_CC      ?= clang
FUZZ_DIR     := $(BUILD)/fuzz
# coverage instrumentation everywhere, the libFuzzer main() only in the harness link
FUZZ_CFLAGS  := $(CWARN) -O1 -g -Icmodel -Itb/fuzz $(JANSSON_CFLAGS) -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link
FUZZ_LIB     := $(FUZZ_DIR)/libmt_fuzz.a
# the library and the command line's shared code (not mt_main.c: the harness has the main())
FUZZ_APP_SRC := $(filter-out cmodel/app/mt_main.c,$(APP_SRC))
FUZZ_LIB_OBJ := $(patsubst cmodel/%.c,$(FUZZ_DIR)/obj/%.o,$(CM_SRC) $(FUZZ_APP_SRC)) $(FUZZ_DIR)/obj/gen/net/mt_net_cfg_builtin.o
FUZZ_TB_HDR  := tb/fuzz/fuzz.h

$(FUZZ_DIR)/obj/%.o: cmodel/%.c | fuzz-deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
# (mk/net.mk generates it; it is included after this file, so the path is spelt out)
$(FUZZ_DIR)/obj/gen/net/mt_net_cfg_builtin.o: $(BUILD)/gen/net/mt_net_cfg_builtin.c cmodel/net/mt_net_cfg.h | fuzz-deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_DIR)/obj/tb/%.o: tb/fuzz/%.c $(FUZZ_TB_HDR) | fuzz-deps
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	@rm -f $@; ar rcs $@ $^
$(FUZZ_DIR)/fuzz_%: $(FUZZ_DIR)/obj/tb/fuzz_%.o $(FUZZ_DIR)/obj/tb/fuzz_file.o $(FUZZ_LIB)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $^ $(LDLIBS_MT) -o $@

# the same harnesses without libFuzzer: gcc, ASan+UBSan, a main() that replays files
FUZZ_REPLAY_DEPS := tb/fuzz/replay_main.c tb/fuzz/fuzz_file.c $(FUZZ_TB_HDR) \
                    $(FUZZ_APP_SRC:cmodel/%.c=$(BUILD)/san/%.o) $(LIBMT_SAN)
$(FUZZ_DIR)/replay_%: tb/fuzz/fuzz_%.c $(FUZZ_REPLAY_DEPS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_MT) -O1 $(SAN) -Itb/fuzz $(filter %.c %.o %.a,$^) $(LDLIBS_MT) -o $@
-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_DIR)/obj/tb/fuzz_file.d $(FUZZ_TARGETS:%=$(FUZZ_DIR)/obj/tb/fuzz_%.d)

.PHONY: fuzz fuzz-build fuzz-deps
fuzz-deps:
	@scripts/deps.sh fuzz
fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%) $(FUZZ_TARGETS:%=$(FUZZ_DIR)/replay_%)
# FUZZ_SECONDS per harness, FUZZ_JOBS harnesses at a time: 1,500 s two at a time gave 13.5 million
# executions over the four on this 2-core machine (50 minutes, docs/results/reliability.md; 900 s would give
# about 8 million at the rates measured); FUZZ_DOC=0 leaves docs/results/reliability.md alone
FUZZ_SECONDS ?= 1500
FUZZ_JOBS    ?= 2
FUZZ_DOC     ?= 1
fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) FUZZ_DOC=$(FUZZ_DOC) tb/fuzz/run.sh $(BUILD) $(FUZZ_TARGETS)

# clang and its libFuzzer runtime present (make fuzz installs them): the libFuzzer builds replay too
FUZZ_HAVE_CLANG := $(wildcard $(shell $(FUZZ_CC) -print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-x86_64.a)
t-fuzz-replay: $(FUZZ_TARGETS:%=$(FUZZ_DIR)/replay_%) $(if $(FUZZ_HAVE_CLANG),$(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%))
	@FUZZ_LIBFUZZER=$(if $(FUZZ_HAVE_CLANG),1) scripts/runbench.sh $@ 300 tb/fuzz/replay.sh $(BUILD) $(FUZZ_TARGETS)
TEST_STEPS += t-fuzz-replay
