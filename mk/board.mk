# mk/board.mk: the FPGA board top (fpga/: a 2x2 torus of complete nodes in the FPGA shape,
# configs/{net,ni}/fpga.cfg, one self-checking all-reduce from images; docs/guide/
# tutorial-fpga-images.md "Run it on a ULX3S").
#   t-fpga-board-sim (make test): fpga/ulx3s/top.sv Verilated and run to its LEDs with the images
#     of fpga/board_images.py (pass, in multitree sim's cycles), and two mutants that must light
#     fail (a wrong checksum, a corrupted table): tb/fpga/test_board_sim.sh
#   fpga-board (not in make test: PyPI tools, minutes): the bitstream build/fpga/ulx3s.bit, its
#     utilisation and Fmax, and the test that patches a second schedule into it
#     (fpga/ulx3s/build.sh; results in build/fpga/board/report.txt)
#   fpga-bram-patch (make fpga): the patch test alone on the placed design of fpga-board, or
#     fpga-board (whose last step is the patch test) if there is none: schedule B patched in with
#     ecpbram, read back, decoded
BOARD_SIM := $(BUILD)/fpga/sim
BOARD_IMG := $(BOARD_SIM)/img
BOARD_RTL := rtl/mt_common_pkg.sv $(filter-out rtl/mt_common_pkg.sv rtl/mt_net_top.sv rtl/mt_swnet_top.sv,$(sort $(wildcard rtl/*.sv))) \
  fpga/mt_board_ram.sv fpga/mt_board.sv fpga/ulx3s/top.sv
BOARD_CFGS := configs/net/fpga.cfg configs/ni/fpga.cfg

$(BOARD_IMG)/board_params.svh: fpga/board_images.py $(BOARD_CFGS) $(BUILD)/multitree
	@python3 fpga/board_images.py --multitree $(BUILD)/multitree --net configs/net/fpga.cfg --ni configs/ni/fpga.cfg --out $(BOARD_IMG)
# C++ at -O0: the run takes milliseconds, the build dominates
$(BOARD_SIM)/obj_board/board_sim: $(BOARD_RTL) $(wildcard rtl/*.svh) tb/fpga/board_sim.cpp $(BOARD_IMG)/board_params.svh | deps-ok
	@mkdir -p $(@D); rm -f $@
	$(VERILATOR) --cc --exe --build -j 1 -Wall -O3 --x-assign fast --x-initial fast --top-module top -Irtl -I$(BOARD_IMG) \
	  -Mdir $(BOARD_SIM)/obj_board -MAKEFLAGS "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0" -o board_sim \
	  $(addprefix $(CURDIR)/,$(BOARD_RTL) tb/fpga/board_sim.cpp) >$(BOARD_SIM)/build.log 2>&1 || { tail -30 $(BOARD_SIM)/build.log; exit 1; }
t-fpga-board-sim: $(BOARD_SIM)/obj_board/board_sim
	@scripts/runbench.sh $@ 300 tb/fpga/test_board_sim.sh $< $(BOARD_IMG)
TEST_STEPS += t-fpga-board-sim

# ---- the bitstream (open ECP5 flow from PyPI, in the virtual environment FPGA_VENV) ----
# fpga-tools and FPGA_VENV: mk/fpga.mk
# synth_ecp5 -nowidelut: LUT4s only, no PFU multiplexers; ABC9 maps the wide multiplexers of the
# router's crossbar with fewer LUT4s so (docs/results/fpga.md "The ULX3S board top")
BOARD_SYNTH_OPTS ?= -nowidelut
# nextpnr's router2: router1 routes the 2x2 (299,103 arcs at 90 % of the logic cells) at about
# 125 arcs a second on this machine, over 40 minutes. --no-tmdriv: placed for wire length alone
# and routed for congestion alone; timing-driven, router2 did not converge with seeds 1 to 3 at
# 20 MHz (docs/results/fpga.md "The ULX3S board top")
BOARD_PNR_OPTS ?= --router router2 --no-tmdriv
# mt_board BufRam of the bitstream: the routers' VC buffers in block RAM (1: 28 buffers in 112
# DP16KD; what the board simulation and the t2x2_fpga co-simulations run) or distributed RAM (0).
# 0: nextpnr does not route 1 (without timing router2 stops falling at about 37,600 overused wires
# with HeAP and 7,300 with the static placer: the placer packs it into the middle of the device;
# docs/results/fpga.md "The ULX3S board top")
BOARD_BUFRAM ?= 0
# the design's clock in MHz: an EHXPLLL from the 25 MHz oscillator (fpga/ulx3s/build.sh); 25 runs
# it on the oscillator. 15: placed and routed without timing (BOARD_PNR_OPTS) the 2x2 runs at
# 15.73 MHz (docs/results/fpga.md "The ULX3S board top")
BOARD_MHZ ?= 15
# nextpnr's seeds: fpga/ulx3s/build.sh reads BOARD_SEED (first seed, default 1), BOARD_SEEDS (most
# tried, default 3) and BOARD_STALL (default 20) from the environment: a router2 that has not
# found fewer overused wires in BOARD_STALL iterations is stopped and the next seed placed
.PHONY: fpga-board fpga-bram-patch
fpga-board: $(BUILD)/multitree fpga-tools
	@BOARD_MHZ=$(BOARD_MHZ) BOARD_BUFRAM=$(BOARD_BUFRAM) FPGA_SYNTH_OPTS="$(BOARD_SYNTH_OPTS)" FPGA_PNR_OPTS="$(BOARD_PNR_OPTS)" fpga/ulx3s/build.sh $(BUILD)/fpga $(BUILD)/multitree $(FPGA_VENV)
fpga-bram-patch: $(BUILD)/multitree fpga-tools
	@if test -s $(BUILD)/fpga/board/placeholder.config; then \
	  FPGA_REUSE=1 BOARD_MHZ=$(BOARD_MHZ) BOARD_BUFRAM=$(BOARD_BUFRAM) FPGA_SYNTH_OPTS="$(BOARD_SYNTH_OPTS)" FPGA_PNR_OPTS="$(BOARD_PNR_OPTS)" fpga/ulx3s/build.sh $(BUILD)/fpga $(BUILD)/multitree $(FPGA_VENV); \
	else $(MAKE) --no-print-directory fpga-board; fi
