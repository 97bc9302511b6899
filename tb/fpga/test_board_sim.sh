#!/usr/bin/env bash
# test_board_sim.sh SIM IMG: the ULX3S board top (fpga/ulx3s/top.sv) simulated to its LEDs
# (tb/fpga/board_sim.cpp, make t-fpga-board-sim): with the images of fpga/board_images.py in
# IMG (the directory the build was made for) it must light pass, with the all-reduce as long as
# `multitree sim --config fpga` says; two mutants must light fail: node 2's expected checksum
# with one bit flipped, and node 3's table with one bit of its first entry's address flipped.
# The images are restored afterwards.
set -u
sim=$1 img=$2
cyc=$(sed -n 's/.* cycles=\([0-9]*\) .*/\1/p' "$img/run.txt")
[[ -n $cyc ]] || { echo "no cycle count in $img/run.txt"; echo "RESULT board_sim pass=0 fail=1"; exit 0; }
bak=$(mktemp -d)
cp "$img/expect.hex" "$img/rom/node3.bram" "$bak/"
restore() { cp "$bak/expect.hex" "$img/expect.hex"; cp "$bak/node3.bram" "$img/rom/node3.bram"; rm -rf "$bak"; }
trap restore EXIT
"$sim" --expect pass --cycles "$cyc" --name images
# a wrong checksum: node 2's word of expect.hex, bit 0 flipped
python3 - "$img/expect.hex" <<'PY'
import sys
p = sys.argv[1]; w = open(p).read().split()
w[2] = "%08x" % (int(w[2], 16) ^ 1); open(p, "w").write("".join(x + "\n" for x in w))
PY
"$sim" --expect fail --name wrong_checksum
cp "$bak/expect.hex" "$img/expect.hex"
# a corrupted table: node 3's first entry, bit 4 of its address field (configs/ni/fpga.cfg's layout)
python3 - "$img/rom/node3.bram" "$img/rom/layout.json" <<'PY'
import json, sys
p, lj = sys.argv[1], json.load(open(sys.argv[2]))
lsb = [f["lsb"] for f in lj["fields"] if f["name"] == "addr"][0]
w = open(p).read().split()
w[0] = "%0*x" % (len(w[0]), int(w[0], 16) ^ (1 << (lsb + 4))); open(p, "w").write("".join(x + "\n" for x in w))
PY
"$sim" --expect fail --name corrupted_table
exit 0
