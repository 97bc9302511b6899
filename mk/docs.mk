# mk/docs.mk: the guide's commands, run and checked (docs/guide/README.md "How the guide is
# tested"). t-docs first checks the runner on broken pages (tb/docs/test_run_guide.sh:
# a failing command, a changed or reordered output line, a hung block, a bad directive must
# each be caught), then runs every sh block of docs/guide/*.md (tb/docs/run_guide.py) in
# build/docs/<page>/ and checks the text block after it. The blocks use build/multitree,
# Icarus, Verilator (lint only), Yosys (the table and the one-engine NI, about a minute) and
# gnuplot.
t-docs: $(BUILD)/multitree | deps-ok
	@scripts/runbench.sh $@ 300 bash -c 'BUILD=$(abspath $(BUILD)) tb/docs/test_run_guide.sh; python3 tb/docs/run_guide.py --build $(BUILD)'
TEST_STEPS += t-docs
