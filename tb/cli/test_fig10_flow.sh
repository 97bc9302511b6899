#!/usr/bin/env bash
# test_fig10_flow.sh: scripts/fig10_flow.sh (Fig. 10 at 375 KiB x N at the flow level) against
# the cycle model's committed runs of the same points (docs/results/fig10_375k.csv, 16-144
# nodes): every point that has a cycle-model run within 0.5 %, and a cycle CSV with one point
# moved by 5 % is caught.
set -u
bin=${MT_BIN:-build/multitree}
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# within TOL % on every paired point; prints the number of pairs
check() { awk -F, -v tol="$2" 'NR > 1 && $10 != "" {n++; e = $10 < 0 ? -$10 : $10; if (e > tol) {print "off:", $0 > "/dev/stderr"; b++}} END {print n + 0; exit b > 0}' "$1"; }
FIG10_SIDES="4 6 8 10 12" OUT="$tmp/o" FIG10F_CSV="$tmp/f.csv" scripts/fig10_flow.sh "$bin" >"$tmp/out" 2>&1 || bad "fig10_flow.sh: $(cat "$tmp/out")"
[[ $(wc -l <"$tmp/f.csv") -eq 21 ]] && ok || bad "rows: $(wc -l <"$tmp/f.csv") (expected 20 runs and a header)"
n=$(check "$tmp/f.csv" 0.5) && [[ $n -eq 19 ]] && ok || bad "flow level against the cycle model: $n pairs (expected 19 within 0.5 %)"
# Ring at 16 nodes is the normalisation point: 1.000 there, (N-1)/15 at N nodes within 0.5 % (2(N-1)/N x 375 KiB x N)
awk -F, '$3 == "ring" {r = $7 / (($2 - 1) / 15); if (r < 0.995 || r > 1.005) b++} END {exit b > 0}' "$tmp/f.csv" && ok || bad "Ring not linear in N"
# a broken input: the 8x8 MultiTreeMsg cycle count 5 % higher must be caught
awk -F, -v OFS=, '$1 == "torus:8x8" && $2 == "multitree" && $3 == "message" {$5 = int($5 * 1.05)} 1' docs/results/fig10_375k.csv >"$tmp/bad.csv"
FIG10_SIDES="8" OUT="$tmp/o2" FIG10F_CSV="$tmp/f2.csv" FIG10_CYCLE_CSV="$tmp/bad.csv" scripts/fig10_flow.sh "$bin" >/dev/null 2>&1 || bad "fig10_flow.sh on 8x8"
check "$tmp/f2.csv" 0.5 >/dev/null 2>&1 && bad "a 5 % error was not caught" || ok
echo "RESULT test_fig10_flow pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
