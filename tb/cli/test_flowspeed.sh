#!/usr/bin/env bash
# test_flowspeed.sh: the flow level's incremental max-min solve (docs/reference/flowsim.md "The incremental max-min solve") on
# runs that take minutes when every message is solved at every change: MultiTree, 1 GiB, on
# a 512-NPU 3-D switch system (3d-sw-sw-sw-hetero's links, 16x8x4; 133 s wall that way),
# here within 30 s and with the recorded time, events and max-min solves; a 32x32 torus
# likewise (fast either way); the JSON's
# planning share and solved message rates (on average a few per solve, not hundreds).
set -u
bin=${MT_BIN:-build/multitree}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh" # the counters (no refusals here: no new options)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

T=dims:sw16@25x8:700ns,sw8@25x4:700ns,sw4@50x1:1700ns
s0=$(date +%s.%N)
timeout 30 "$bin" sim --level flow --topo $T --algo multitree --bytes 1G --json "$tmp/a.json" >"$tmp/a.out" 2>&1
rc=$?
s1=$(date +%s.%N)
wall=$(awk -v a="$s0" -v b="$s1" 'BEGIN { printf "%.2f", b - a }')
if [[ $rc -eq 0 ]]; then ok; else bad "512 NPUs MultiTree 1 GiB: exit $rc after $wall s (limit 30 s): $(tail -2 "$tmp/a.out")"; fi
# the first engine: 17457543.2697899 ns, 1046528 events, 479315 solves
if jq -e '.nodes == 512 and (.time - 17457543.2697899 | fabs) < 1e-6 and .events == 1046528 and .solves == 479315' "$tmp/a.json" >/dev/null 2>&1; then
  ok
else bad "512 NPUs: $(jq -c '[.time, .events, .solves]' "$tmp/a.json" 2>&1), want [17457543.2697899, 1046528, 479315]"; fi
if jq -e '.plan_s > 0 and .plan_s <= .wall_s and .rates_solved > 0 and .rates_solved < 10 * .solves' "$tmp/a.json" >/dev/null 2>&1; then
  ok
  echo "512 NPUs MultiTree 1 GiB: $wall s ($(jq -r '"\(.plan_s * 100 | round / 100) s planning, \(.rates_solved / .solves * 10 | round / 10) rates a solve"' "$tmp/a.json"))"
else bad "512 NPUs: plan_s / rates_solved: $(jq -c '[.wall_s, .plan_s, .solves, .rates_solved]' "$tmp/a.json" 2>&1)"; fi

# torus:32x32, paper, 64 MiB: the first engine's 2099941.8 cycles, 65 solves
timeout 30 "$bin" sim --level flow --topo torus:32x32 --algo multitree --bytes 64M --config paper --json "$tmp/b.json" >"$tmp/b.out" 2>&1
rc=$?
if [[ $rc -eq 0 ]] && jq -e '.nodes == 1024 and .time == 2099941.8 and .solves == 65 and .units == "cycles"' "$tmp/b.json" >/dev/null; then
  ok
else bad "torus:32x32: exit $rc, $(jq -c '[.time, .solves]' "$tmp/b.json" 2>&1), want [2099941.8, 65]"; fi
echo "RESULT test_flowspeed pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
