#!/usr/bin/env bash
# test_cli.sh BIN: the multitree command line: exit codes (0 ok, 1 violation, 2 bad input),
# error messages naming the problem, tampered schedules and images caught.
set -u
BIN=${1:-build/multitree}
D=$(dirname "$0")/../cmodel/data
T=build/test_cli; rm -rf "$T"; mkdir -p "$T"
pass=0; fail=0
# expect RC NEEDLE CMD...: exit code RC and output (stdout+stderr) containing NEEDLE
expect() {
  local rc=$1 needle=$2; shift 2
  local out; out=$("$@" 2>&1); local got=$?
  if [[ $got -eq $rc && $out == *"$needle"* ]]; then pass=$((pass+1))
  else fail=$((fail+1)); echo "FAIL: $* -> rc=$got (want $rc), output lacks '$needle':"; echo "$out" | head -5; fi
}
expect 0 "multitree plan" "$BIN" plan --help
expect 2 "unknown command" "$BIN" frobnicate
expect 2 "required" "$BIN" plan --topo torus:4x4 --algo multitree
expect 2 "unknown algorithm" "$BIN" plan --topo torus:4x4 --algo bogus --bytes 1M
expect 2 "zero" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 0
expect 2 "expected a byte count" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 12q
expect 2 "unknown format" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format xyz --out "$T/x"
expect 2 "bad_syntax.topo:4:" "$BIN" plan --topo "file:$D/bad_syntax.topo" --algo multitree --bytes 1M
expect 2 "disconnected" "$BIN" plan --topo "file:$D/bad_disconnected.topo" --algo multitree --bytes 1M
expect 2 "4096" "$BIN" plan --topo torus:128x64 --algo multitree --bytes 1M
expect 2 "at least 2" "$BIN" plan --topo ring:1 --algo multitree --bytes 1M
expect 2 "cannot open" "$BIN" check "$T/none.json"
printf '{"format": "multitree-schedule/1",\n  "algorithm": }\n' >"$T/broken.json"
expect 2 "broken.json:2:" "$BIN" check "$T/broken.json"
# plan -> JSON -> check
expect 0 "planned in" "$BIN" plan --topo torus:4x4 --algo multitree --bytes 1M --json "$T/t44.json" --dot "$T/t44.dot"
expect 0 "OK" "$BIN" check "$T/t44.json"
expect 0 "subgraph cluster_15" cat "$T/t44.dot"
# a tampered schedule: node 0's first entry now names the wrong parent
sed '0,/"parent":1,/s//"parent":2,/' "$T/t44.json" >"$T/t44_bad.json"
if cmp -s "$T/t44.json" "$T/t44_bad.json"; then fail=$((fail+1)); echo "FAIL: tampering did not change the file"; fi
expect 1 "violation" "$BIN" check "$T/t44_bad.json"
# ROM images decode back to the same tables; a flipped bit is caught
expect 0 "images of" "$BIN" rom --topo torus:4x4 --algo multitree --bytes 1M --format hex --out "$T/rom"
expect 0 "identical" "$BIN" decode "$T/rom" --compare "$T/t44.json"
sed -i '3s/^\(.\{20\}\)./\1f/' "$T/rom/node5.hex"
expect 1 "DIFFER" "$BIN" decode "$T/rom" --compare "$T/t44.json"
expect 0 "compact layout" "$BIN" rom --topo mesh:3x5 --algo multitree --bytes 60000 --format coe --compact --out "$T/romc"
expect 0 "identical" "$BIN" decode "$T/romc" --topo mesh:3x5 --algo multitree --bytes 60000
expect 2 "one-hop" "$BIN" rom --topo mesh:3x5 --algo ring --bytes 60000 --format hex --compact --out "$T/romr"
expect 0 "| 1024 |" "$BIN" sizes
# --trace: mesh 2x2 MultiTree has 4 trees of 3 edges, each used once to reduce and once
# to gather: 24 messages sent and finished, 12 reduced and 12 gathered
if "$BIN" sim --topo mesh:2x2 --algo multitree --bytes 1K --trace "$T/trace.csv" >/dev/null 2>&1; then
  got=$(awk -F, 'NR==1 {h=$0} NR>1 {n[$3]++} END {printf "%s|%d %d %d %d %d", h, n["send"], n["sent"], n["reduce"], n["gather"], n["received"]}' "$T/trace.csv")
  if [[ $got == "cycle,node,event,unit,flow,step,peer,bytes|24 24 12 12 24" ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: trace counts: $got"; fi
else fail=$((fail+1)); echo "FAIL: sim --trace"; fi
expect 2 "--trace" "$BIN" sim --topo mesh:2x2 --algo multitree --bytes 1K --trace /nonexistent/dir/t.csv
# a watchdog stop (a 1-cycle limit against 150-cycle links): error exit and the deadlock dump,
# a line per node (16); a hold-up the model itself cannot have is then visible
"$BIN" sim --topo torus:4x4 --algo multitree --bytes 64 --config paper --set wd_limit=1 >"$T/wd.out" 2>&1; rc=$?
got="$rc $(grep -c '^node [0-9]*: NI ' "$T/wd.out") $(grep -c 'what the network holds' "$T/wd.out")"
if [[ $got == "1 16 1" ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: watchdog dump: rc, node lines, header = $got"; fi
# the multi-hop rule: dbtree on a torus sends routed packets even with message flow control
expect 2 "multi-hop transfers" "$BIN" sim --topo torus:4x3 --algo dbtree --bytes 1324 --config small --set vc_depth=1 --set ej_depth=1 --set subpkt_flits=1 --set pkt_bytes=16
echo "RESULT test_cli pass=$pass fail=$fail"
