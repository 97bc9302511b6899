#!/usr/bin/env bash
# tb/fpga/test_router2_stall.sh: fpga/flow/router2_stall.py, the board build's router2 stall test.
# The logs are nextpnr's lines of router2's overused wires per iteration: router2_stalled.log the
# board placed with seed 1 (fewest 1, first at iteration 55, 1 through 72 when it was stopped),
# router2_diverged.log the board placed with seed 3 (fewest 3,180 at 28, then up to 4,365 at 32
# when it was stopped), router2_routed.log a small block (ni_ram, bounding-box margin 6: 1 from 23
# to 35, none at 36). The test is replayed one iteration at a time, as the build's watch sees the
# log grow; the first iteration at which it fires is derived by hand from those numbers.
set -euo pipefail
cd "$(dirname "$0")/../.."
t=fpga/flow/router2_stall.py d=fpga/flow/testdata
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
pass=0 fail=0
check() {  # check WHAT GOT WANT
  if [[ $2 == "$3" ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1: got $2, want $3"; fi
}
first() {  # first LOG WINDOW: the first iteration at which the stall test fires, or none
  python3 -c 'import sys; sys.path.insert(0, "fpga/flow"); import router2_stall as p
v = p.overused(open(sys.argv[1]).read())
print(next((k for k in range(1, len(v) + 1) if p.is_stalled(v[:k], int(sys.argv[2]))), "none"))' "$1" "$2"
}
# no new fewest in the window: 55 + 10, 55 + 17, none by 72; 23 + 10, 23 + 12, none (0 at 36);
# 3,180 at 28, so a window of 4 fires at 32, of 5 not (3,180 < 3,191 at 25)
check "stalled, window 10" "$(first $d/router2_stalled.log 10)" 65
check "stalled, window 17" "$(first $d/router2_stalled.log 17)" 72
check "stalled, window 20" "$(first $d/router2_stalled.log 20)" none
check "routed, window 10" "$(first $d/router2_routed.log 10)" 33
check "routed, window 12" "$(first $d/router2_routed.log 12)" 35
check "routed, window 20" "$(first $d/router2_routed.log 20)" none
check "diverged, window 4" "$(first $d/router2_diverged.log 4)" 32
check "diverged, window 5" "$(first $d/router2_diverged.log 5)" none
# the whole routed log: 1 from 23 to 35, then 0, a new fewest: finished, not stalled
python3 $t $d/router2_routed.log --window 13 && r=stalled || r=not
check "routed log ending at 0, window 13" $r not
python3 $t $d/router2_stalled.log --window 17 >/dev/null && r=stalled || r=not
check "the stalled log, window 17" $r stalled
python3 $t "$w/none.log" && r=stalled || r=not
check "no log yet" $r not
echo "RESULT router2_stall pass=$pass fail=$fail"
[[ $fail == 0 ]]
