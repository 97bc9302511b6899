# lib_refuse.sh: sourced by tb/cli tests (test_themis.sh, test_flexreduce.sh). Counters and
# the refusal check: `refuse WANT ARGS...` runs "$bin" ARGS and passes when it exits 2 with
# WANT (fixed string) in its output.
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
refuse() { # expected message, then the command's arguments
  local want=$1
  shift
  out=$("$bin" "$@" 2>&1)
  rc=$?
  if [[ $rc -eq 2 ]] && grep -qF -- "$want" <<<"$out"; then ok; else bad "$* -> rc $rc: $(head -2 <<<"$out") (want '$want')"; fi
}
