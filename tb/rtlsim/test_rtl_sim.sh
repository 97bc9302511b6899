#!/usr/bin/env bash
# test_rtl_sim.sh BIN: scripts/rtl_sim.sh (the RTL network alone, tables from ROM images) on
# BIN, a mesh 2x2 build of the default NI (make test's m2x2_mt_pni). Must pass: MultiTree
# 2 KiB int32 messages and fp32 packets. Must fail: a ROM image with one entry changed (wrong
# sums or an NI error), a missing image (named), a ROM of another size (its layout does not
# fit the build: named), the paper configuration on this small build (named), and in Icarus the net with RomDir pointing at a missing image
# ($fatal naming it); Icarus must load the images into every NI's table (tb_mt_net_rom.sv).
# Prints one RESULT line (scripts/runbench.sh).
set -u
bin=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
BUILD=${BUILD:-build}
w=$BUILD/rtlsim/test
rm -rf "$w"
mkdir -p "$w"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
base=(--topo mesh:2x2 --algo multitree --bytes 2048 --bin "$bin")
# must_fail WHAT DIR REGEX: the run on ROM directory DIR must exit non-zero and print REGEX
must_fail() {
  local rc
  scripts/rtl_sim.sh "${base[@]}" --seed 21 --rom "$2" >"$w/fail.log" 2>&1
  rc=$?
  sed 's/^/  | /' "$w/fail.log"
  if [[ $rc -ne 0 ]] && grep -Eq "$3" "$w/fail.log"; then ok "$1 (rc=$rc)"; else bad "$1 (rc=$rc)"; fi
}

# (1) good runs: exit 0, the cycles of multitree sim, every word checked
for run in "--seed 21" "--seed 22 --dtype fp32 --flow packet"; do
  # shellcheck disable=SC2086
  scripts/rtl_sim.sh "${base[@]}" $run >"$w/good.log" 2>&1
  rc=$?
  sed 's/^/  | /' "$w/good.log"
  if [[ $rc -eq 0 ]] && grep -q 'cycles: RTL [0-9]*, multitree sim [0-9]*: equal' "$w/good.log" &&
    grep -q '4 nodes x 512 words = 2048 words checked against mt_ref_result, 0 differ' "$w/good.log"; then
    ok "$run: passed"
  else bad "$run: rc=$rc"; fi
done
"$BUILD/multitree" rom --topo mesh:2x2 --algo multitree --bytes 2048 --format hex --out "$w/rom" >/dev/null || bad "multitree rom"

# (2) one entry changed: node 1's first entry names another flow (the low bit of its flow field)
cp -r "$w/rom" "$w/rom_entry"
f=$w/rom_entry/node1.hex
l=$(grep -n -m1 -v '^//' "$f" | cut -d: -f1)
word=$(sed -n "${l}p" "$f")
new=$(printf '%0*x' ${#word} $((0x$word ^ 0x4))) # flow is bits 2..3 of this layout (layout.json)
sed -i "${l}s/.*/$new/" "$f"
echo "  damaged: $f line $l: $word -> $new"
must_fail "changed entry caught" "$w/rom_entry" '[1-9][0-9]* differ$|did not finish'

# (3) a missing image: a clear error naming it, no run
cp -r "$w/rom" "$w/rom_missing"
rm "$w/rom_missing/node2.hex"
must_fail "missing image named" "$w/rom_missing" "rom_missing/node2.hex: cannot open"

# (4) a ROM of another size (4 KiB: wider addr/size fields) on this build: refused, naming layout.json
"$BUILD/multitree" rom --topo mesh:2x2 --algo multitree --bytes 4096 --format hex --out "$w/rom_4k" >/dev/null
must_fail "ROM of another layout refused" "$w/rom_4k" "rom_4k/layout.json: .*field width"

# (4b) the paper configuration on this small build: refused before the run, naming the field
scripts/rtl_sim.sh "${base[@]}" --config paper >"$w/cfg.log" 2>&1
rc=$?
sed 's/^/  | /' "$w/cfg.log"
if [[ $rc -ne 0 ]] && grep -q "its vc_depth is 8, this configuration needs 318" "$w/cfg.log"; then ok "build of another configuration refused (rc=$rc)"
else bad "build of another configuration (rc=$rc)"; fi

# (5) Icarus: the net with RomDir elaborates and loads every table; a missing image stops it.
# The one-engine NI's shape (m2x2_mt, same table layout): with the paper NI (8 engines, 20
# memory ports) Icarus 11 compiles the net but vvp refuses it ("4 unresolved vvp_net
# references", without RomDir too), so it is no Icarus bench for the loader
flags=$("$BUILD/net/cosim_net_params" m2x2_mt) || bad "cosim_net_params"
pflags=$(tr ' ' '\n' <<<"$flags" | sed -n 's/^-G\(.*\)/-Pmt_net_top.\1/p' | tr '\n' ' ')
files="rtl/mt_common_pkg.sv $(ls rtl/*.sv | grep -v '/mt_common_pkg\.sv$' | sort | tr '\n' ' ')"
# shellcheck disable=SC2086
if iverilog -g2012 -Irtl -s mt_net_top -s tb_mt_net_rom $pflags -Pmt_net_top.RomDir="\"$w/rom\"" -o "$w/net_rom.vvp" \
  $files tb/rtlsim/tb_mt_net_rom.sv >"$w/iverilog.log" 2>&1; then
  ok "Icarus elaborates mt_net_top with RomDir"
  vvp -n "$w/net_rom.vvp" +rom0="$w/rom/node0.hex" +rom3="$w/rom/node3.hex" >"$w/vvp.log" 2>&1
  rc=$?
  sed 's/^/  | /' "$w/vvp.log"
  if [[ $rc -eq 0 ]] && grep -q '^tb_mt_net_rom: pass' "$w/vvp.log"; then ok "Icarus loaded the images"; else bad "Icarus load (rc=$rc)"; fi
  vvp -n "$w/net_rom.vvp" +mt_rom_dir="$w/rom_missing" +rom0="$w/rom/node0.hex" +rom3="$w/rom/node3.hex" >"$w/vvp_missing.log" 2>&1
  rc=$?
  sed 's/^/  | /' "$w/vvp_missing.log"
  if [[ $rc -ne 0 ]] && grep -q 'cannot open the ROM image .*rom_missing/node2.hex' "$w/vvp_missing.log"; then
    ok "Icarus: missing image named (rc=$rc)"
  else bad "Icarus: missing image (rc=$rc)"; fi
else
  bad "Icarus elaboration"
  head -20 "$w/iverilog.log"
fi
echo "RESULT rtl_sim pass=$pass fail=$fail"
