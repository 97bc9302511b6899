#!/usr/bin/env bash
# tb/fuzz/run.sh BUILD TARGET...: `make fuzz` (docs/reference/fuzz.md). Runs build/fuzz/fuzz_<target> for
# FUZZ_SECONDS each (FUZZ_JOBS at a time), on the work corpus build/fuzz/corpus/<target> (new
# inputs land there) plus the committed seeds tb/fuzz/corpus/<target> (read only), with
# tb/fuzz/<target>.dict. A crash, leak, timeout or out-of-memory is saved as
# build/fuzz/crashes/<target>-*, and the harness is started again for the time left (at most
# 20 times; not when the corpus itself crashes). Figures per harness (executions, time, coverage, crashes) go to
# build/fuzz/results.md and, with FUZZ_DOC=1, into docs/results/reliability.md between the results markers.
# Exit 1 when anything crashed.
set -u
build=$1; shift
top=$(cd "$(dirname "$0")/../.." && pwd)
secs=${FUZZ_SECONDS:-900}
jobs=${FUZZ_JOBS:-1}
fz=$build/fuzz
mkdir -p "$fz/logs" "$fz/crashes"
# inputs larger than the largest seed of each kind give the fuzzer room; -timeout: one input
# must finish in 10 s; 2 GiB of memory is far more than any accepted input needs
declare -A maxlen=([topo]=4096 [sched]=32768 [rom]=16384 [cli]=1024 [workload]=8192 [cfg]=4096)

# libFuzzer's "cov: N ft: N corp: N/" of a status line: "cov ft corp"
cov_of() { sed -nE 's/.* cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)\/.*/\1 \2 \3/p' | tail -1; }

run_one() {
  local t=$1 work=$fz/corpus/$1 log=$fz/logs/$1.log
  mkdir -p "$work"
  : >"$log"
  local t0 now left runs=0 sessions=0 start_cov="" end_cov="" rc
  local before
  before=$(ls "$fz/crashes" | grep -c "^$t-")
  t0=$(date +%s)
  left=$secs
  while ((left > 0 && sessions < 20)); do
    sessions=$((sessions + 1))
    echo "=== session $sessions: $left s" >>"$log"
    "$fz/fuzz_$t" "$work" "$top/tb/fuzz/corpus/$t" -dict="$top/tb/fuzz/$t.dict" -max_len="${maxlen[$t]}" \
      -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_total_time="$left" -close_fd_mask=3 \
      -print_final_stats=1 -artifact_prefix="$fz/crashes/$t-" </dev/null >"$log.part" 2>&1
    rc=$?
    cat "$log.part" >>"$log"
    local n
    n=$(sed -nE 's/^stat::number_of_executed_units: ([0-9]+)$/\1/p' "$log.part" | tail -1)
    runs=$((runs + ${n:-0}))
    [[ -z $start_cov ]] && start_cov=$(grep -E 'INITED' "$log.part" | cov_of)
    local c
    c=$(grep -E '^#[0-9]+[[:space:]]' "$log.part" | cov_of)
    [[ -n $c ]] && end_cov=$c
    now=$(date +%s)
    left=$((secs - (now - t0)))
    ((rc == 0)) && break
    # an input of the corpus itself crashes: starting again would only repeat it
    grep -q 'INITED' "$log.part" || { echo "fuzz_$t: the corpus crashes before fuzzing starts; see $log" >&2; break; }
  done
  rm -f "$log.part"
  now=$(date +%s)
  local el=$((now - t0)) crashes
  crashes=$(($(ls "$fz/crashes" | grep -c "^$t-") - before))
  read -r c0 f0 k0 <<<"${start_cov:-0 0 0}"
  read -r c1 f1 k1 <<<"${end_cov:-0 0 0}"
  printf '| fuzz_%s | %d | %d | %d | %d -> %d (+%d) | %d -> %d (+%d) | %d -> %d | %d |\n' "$t" "$el" "$runs" \
    $((runs / (el > 0 ? el : 1))) "$c0" "$c1" $((c1 - c0)) "$f0" "$f1" $((f1 - f0)) "$k0" "$k1" "$crashes" >"$fz/result.$t"
  echo "fuzz_$t: $runs executions in $el s, coverage $c0 -> $c1 edges, $crashes crash(es); log $log"
}

start=$(date +%s)
for t in "$@"; do
  rm -f "$fz/result.$t"
  run_one "$t" &
  while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
done
wait

total=0; crashes=0
{
  echo "Measured $(date +%F) on this machine: $(nproc) cores ($(sed -nE 's/^model name\s*: //p' /proc/cpuinfo | head -1)), shared with other jobs."
  echo "Command: \`make fuzz FUZZ_SECONDS=$secs FUZZ_JOBS=$jobs\` ($(( $(date +%s) - start )) s wall time); libFuzzer flags \`-max_len=<per target> -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -close_fd_mask=3\`."
  echo
  echo "| harness | seconds | executions | exec/s | coverage (edges) | features | corpus (inputs) | crashes |"
  echo "|---|---:|---:|---:|---|---|---|---:|"
  for t in "$@"; do
    cat "$fz/result.$t"
    total=$((total + $(cut -d'|' -f4 "$fz/result.$t")))
    crashes=$((crashes + $(cut -d'|' -f9 "$fz/result.$t")))
  done
  echo
  echo "Total: $total executions, $crashes crash(es)."
} >"$fz/results.md"
cat "$fz/results.md"
if [[ ${FUZZ_DOC:-0} == 1 ]]; then
  doc=$top/docs/results/reliability.md
  python3 - "$doc" "$fz/results.md" <<'PY'
import sys
doc, res = sys.argv[1], open(sys.argv[2]).read()
b, e = "<!-- fuzz-results:begin -->", "<!-- fuzz-results:end -->"
s = open(doc).read()
i, j = s.index(b) + len(b), s.index(e)
open(doc, "w").write(s[:i] + "\n" + res + s[j:])
PY
  echo "fuzz: results written into docs/results/reliability.md"
fi
[[ $crashes -eq 0 ]] || { echo "fuzz: $crashes crash(es) in $fz/crashes/ (replay: build/fuzz/replay_<target> FILE)"; exit 1; }
