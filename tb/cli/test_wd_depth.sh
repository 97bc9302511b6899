#!/usr/bin/env bash
# test_wd_depth.sh: a watchdog stop means a deadlock, also on a deep schedule with a slow memory
# (docs/reference/ni.md "Errors and the watchdog"). DBTree with messages, one memory port
# (ni_mem_ports=1) and a memory that accepts 1% or 2% of requests: a node waits for the steps
# above it, each paced by its busiest node's memory. These five legal runs stopped on NI
# error 11 while the limits counted the largest chunk once (scripts/wd_scan.py); each must
# complete, correct, under the default watchdog (`small`: wd_limit 20,000 and the model's terms).
set -u
bin=${1:-build/multitree}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
while read -r topo bytes sets; do
  args=()
  for s in $sets; do args+=(--set "$s"); done
  out=$("$bin" sim --topo "$topo" --algo dbtree --bytes "$bytes" --flow message --config small "${args[@]}" 2>&1 | grep -v '^sim: cycle')
  if grep -q "result correct on every node" <<<"$out" && ! grep -q "error 11" <<<"$out"; then
    ok "$topo $bytes B $sets: $(grep -o '[0-9]* cycles' <<<"$out" | head -1)"
  else
    bad "$topo $bytes B $sets: $(head -1 <<<"$out")"
  fi
done <<'CASES'
mesh:8 32768 mem_p_ready=1 ni_mem_ports=1
mesh:16 16384 mem_p_ready=1 ni_mem_ports=1
ring:8 32768 mem_p_ready=1 ni_mem_ports=1
mesh:4x4 32768 mem_p_ready=2 ni_mem_ports=1
torus:4x4 16384 mem_p_ready=1 ni_mem_ports=1 ni_rx_engines=1
CASES
echo "RESULT wd_depth pass=$pass fail=$fail"
