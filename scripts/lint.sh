#!/usr/bin/env bash
# lint.sh: every rtl/*.sv as its own top under `verilator --lint-only -Wall`, then all of
# rtl/ through Yosys (read_verilog -sv) and Icarus (-g2012). Prints RESULT lint pass=N fail=M.
set -u
cd "$(dirname "$0")/.."
files=$(ls rtl/*.sv 2>/dev/null | sort | tr '\n' ' ')
pass=0; fail=0
if [[ -z $files ]]; then echo "lint: no RTL yet"; echo "RESULT lint pass=0 fail=0"; exit 0; fi
for f in $files; do
  top=$(basename "$f" .sv)
  if out=$(verilator --lint-only -Wall -Irtl --top-module "$top" $files 2>&1); then pass=$((pass+1))
  else fail=$((fail+1)); echo "verilator -Wall: $f"; echo "$out" | head -20; fi
done
if out=$(yosys -q -p "read_verilog -sv $files; hierarchy; proc; check -assert" 2>&1); then pass=$((pass+1))
else fail=$((fail+1)); echo "yosys:"; echo "$out" | head -20; fi
if out=$(iverilog -g2012 -Irtl -o /dev/null $files 2>&1); then pass=$((pass+1))
else fail=$((fail+1)); echo "iverilog:"; echo "$out" | head -20; fi
echo "RESULT lint pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
