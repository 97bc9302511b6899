#!/usr/bin/env bash
# test_lint_rtl.sh: scripts/lint.sh's parallel checks report a failure of each kind. On a small
# rtl/ (two modules of the tree) with one module added, each run (restricted to the checks of that module by LINT_ONLY)
# must fail and name it: a Verilator -Wall warning (an unused signal), an Icarus syntax error,
# and a net with two drivers, which Yosys's check -assert refuses (make test's t-lint).
# The untouched copy must pass the same checks.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# lint MODE REGEX: scripts/lint.sh on the copy, only the checks matching REGEX; the output in $tmp/out
lint() { LINT_RTL="$tmp/rtl" BUILD="$tmp/build" LINT_ONLY="$2" "$top/scripts/lint.sh" "$1" >"$tmp/out" 2>&1; }
fails_naming() { ! lint "$1" "$2" && grep -q "^FAIL.*$3" "$tmp/out" && grep -Eq '^RESULT lint pass=[0-9]+ fail=[1-9]' "$tmp/out"; }
# module LINE...: a small rtl/ (the package, the credit counter) with mt_zz_lint.sv of these lines
module() {
  rm -rf "$tmp/rtl"; mkdir -p "$tmp/rtl"; cp "$top/rtl/mt_common_pkg.sv" "$top/rtl/mt_credit_counter.sv" "$tmp/rtl/"
  printf '%s\n' "$@" >"$tmp/rtl/mt_zz_lint.sv"
}

module 'module mt_zz_lint (input logic a, output logic y);' '  assign y = a;' 'endmodule'
if lint quick 'mt_zz_lint' && grep -q '^RESULT lint pass=[1-9][0-9]* fail=0' "$tmp/out"; then ok "a clean module passes"
else bad "a clean module fails:"; cat "$tmp/out"; fi
module 'module mt_zz_lint (input logic a, input logic b, output logic y);' '  assign y = a;' 'endmodule'
fails_naming quick 'verilator.*mt_zz_lint' 'verilator -Wall: .*mt_zz_lint' && ok "Verilator -Wall: an unused input is reported" || { bad "an unused input passed"; cat "$tmp/out"; }
module 'module mt_zz_lint (input logic a, output logic y);' '  assign y = a' 'endmodule'
fails_naming quick 'iverilog: rtl/' 'iverilog' && ok "Icarus: a syntax error is reported" || { bad "a syntax error passed Icarus"; cat "$tmp/out"; }
module 'module mt_zz_lint (input logic a, input logic b, output logic y);' '  assign y = a;' '  assign y = b;' 'endmodule'
fails_naming yosys 'rtl/' 'check -assert' && ok "Yosys check -assert: a net with two drivers is reported" || { bad "two drivers passed Yosys"; cat "$tmp/out"; }
echo "RESULT lint_rtl pass=$p fail=$f"
[[ $f -eq 0 ]]
