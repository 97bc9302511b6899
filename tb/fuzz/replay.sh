#!/usr/bin/env bash
# tb/fuzz/replay.sh BUILD TARGET...: step t-fuzz-replay of make test (docs/reference/fuzz.md). Every seed of
# tb/fuzz/corpus/<target>/ and every regression input tb/fuzz/crashes/<target>-* goes once through
# build/fuzz/replay_<target> (gcc, ASan+UBSan) and, when it was built (clang present), through
# the libFuzzer build build/fuzz/fuzz_<target>. One RESULT line per corpus and binary, one per
# regression input, so that a failure names its input.
set -u
build=$1; shift
top=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
one() { # NAME CMD...: RESULT line from the exit status
  local name=$1; shift
  if "$@" >"$build/fuzz/replay.out" 2>&1; then echo "RESULT $name pass=1 fail=0"
  else echo "RESULT $name pass=0 fail=1"; tail -30 "$build/fuzz/replay.out"; fail=1; fi
}
for t in "$@"; do
  seeds=("$top"/tb/fuzz/corpus/"$t"/*)
  one "replay_$t-corpus(${#seeds[@]})" "$build/fuzz/replay_$t" "${seeds[@]}"
  [[ -x $build/fuzz/fuzz_$t && -n ${FUZZ_LIBFUZZER-} ]] && one "fuzz_$t-corpus(${#seeds[@]})" "$build/fuzz/fuzz_$t" "${seeds[@]}"
  for c in "$top"/tb/fuzz/crashes/"$t"-*; do
    [[ -e $c ]] || continue
    one "replay_$t-crash-${c##*/}" "$build/fuzz/replay_$t" "$c"
    [[ -x $build/fuzz/fuzz_$t && -n ${FUZZ_LIBFUZZER-} ]] && one "fuzz_$t-crash-${c##*/}" "$build/fuzz/fuzz_$t" "$c"
  done
done
exit $fail
