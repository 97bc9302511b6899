#!/usr/bin/env bash
# test_sim_scale.sh BIN TSAN_BIN: `multitree sim` at scale (issue #14, docs/reference/network.md "Data
# modes", "Threads", "Progress"): the data modes give the cycles of --data full and store
# (peak memory) and check what they say; threads give the same JSON, and the ThreadSanitizer
# build finds no race; a terminal gets progress lines with cycles/s and the time left.
set -u
bin=${1:?BIN}; tsan=${2:?TSAN_BIN}
pass=0; fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
# json_eq A B [KEYS...]: the two summaries equal but for wall-clock keys and KEYS
json_eq() { python3 "$(dirname "$0")/json_eq.py" "$@"; }
run=(sim --topo torus:4x4 --algo multitree --bytes 1M --config paper --flow message --seed 3)
# data modes: the same cycles, what is checked said in the text and the JSON
for m in full sample none; do "$bin" "${run[@]}" --data "$m" --json "$d/$m.json" >"$d/$m.out" 2>&1 || echo "rc $?" >>"$d/$m.out"; done
if why=$(json_eq "$d/full.json" "$d/none.json" correct data checked_words_per_node) && why2=$(json_eq "$d/full.json" "$d/sample.json" data checked_words_per_node); then ok
else bad "data modes differ in timing: none: $why; sample: $why2"; fi
grep -q "result not checked (--data none)" "$d/none.out" && grep -q '"correct":null' "$d/none.json" && grep -q '"checked_words_per_node":0' "$d/none.json" && ok || bad "--data none: $(head -1 "$d/none.out")"
grep -q "result correct on every node's sampled words (32768 of 262144 per node)" "$d/sample.out" && ok || bad "--data sample: $(head -1 "$d/sample.out")"
grep -q '"correct":true,' "$d/full.json" && grep -q '"checked_words_per_node":262144' "$d/full.json" && ok || bad "--data full: $(cat "$d/full.json")"
# peak memory: 16 nodes x 32 MiB stored at full (the run cut after 100 cycles), not at none
for m in full none; do
  /usr/bin/time -f "%M" -o "$d/$m.rss" "$bin" sim --topo torus:4x4 --algo multitree --bytes 32M --config paper --data "$m" --set max_cycles=100 >/dev/null 2>&1
done
f=$(tail -1 "$d/full.rss"); n=$(tail -1 "$d/none.rss")
if ((f > 16 * 32 * 1024 && n < 64 * 1024)); then ok; echo "peak RSS at 16 x 32 MiB: full $((f / 1024)) MiB, none $((n / 1024)) MiB"
else bad "peak RSS at 16 x 32 MiB: full $f KiB (want > $((16 * 32 * 1024))), none $n KiB (want < 65536)"; fi
# refused: a bad mode, a dump of what is not stored
"$bin" "${run[@]}" --data some >"$d/o" 2>&1; rc=$?
((rc == 2)) && grep -q "expected full, sample or none" "$d/o" && ok || bad "--data some: rc $rc: $(cat "$d/o")"
"$bin" "${run[@]}" --data none --dump-dir "$d/dump" >"$d/o" 2>&1; rc=$?
((rc == 2)) && grep -q "needs --data full" "$d/o" && ok || bad "--data none --dump-dir: rc $rc: $(cat "$d/o")"
"$bin" "${run[@]}" --threads 0 >"$d/o" 2>&1; rc=$?
((rc == 2)) && grep -q "expected a whole number 1..64" "$d/o" && ok || bad "--threads 0: rc $rc: $(cat "$d/o")"
# threads: the same summary; under ThreadSanitizer no race (link_lat 20: blocks of 19 cycles; 2 and 4 threads)
small=(sim --topo torus:4x4 --algo multitree --bytes 64K --config paper --set link_lat=20 --seed 5)
"$bin" "${small[@]}" --json "$d/t1.json" >/dev/null 2>&1
for t in 2 5; do
  TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$tsan" "${small[@]}" --threads $t --json "$d/t$t.json" >"$d/t$t.out" 2>&1; rc=$?
  if ((rc == 0)) && why=$(json_eq "$d/t1.json" "$d/t$t.json" threads); then ok; else bad "--threads $t under ThreadSanitizer: rc $rc $why: $(grep -m3 -i "warning\|error" "$d/t$t.out")"; fi
done
# the threads used: as asked, at most blocks x nodes / 64 = 19 x 16 / 64 = 4
grep -q '"threads":2' "$d/t2.json" && grep -q '"threads":4' "$d/t5.json" && ok || bad "threads used: $(grep -o '"threads":[0-9]*' "$d/t2.json" "$d/t5.json")"
# progress on a terminal (script(1) gives the run one): cycles/s and the time left
if command -v script >/dev/null; then
  script -qec "$bin sim --topo torus:8x8 --algo multitree --bytes 1M --config paper --data none" /dev/null >"$d/tty" 2>&1
  grep -q "cycles/s, step [0-9.]* of [0-9]*, about [0-9]* s left" "$d/tty" && ok || bad "no progress line on a terminal: $(tr '\r' '\n' <"$d/tty" | head -3)"
else echo "(script(1) missing: progress not checked)"; fi
echo "RESULT sim-scale pass=$pass fail=$fail"
((fail == 0))
