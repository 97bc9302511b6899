#!/usr/bin/env bash
# lint_format.sh [FILE...]: C and C++ formatting against .clang-format (clang-format --dry-run
# --Werror). Without arguments: every tracked *.c, *.h, *.cpp under cmodel/, tb/ and scripts/.
# Prints the first lines clang-format would change per file and
# RESULT lint_format pass=N fail=M; exit 1 on any file that is not formatted.
# Fix with: clang-format -i FILE (the style file is at the top of the tree).
set -u
cd "$(dirname "$0")/.."
if [[ $# -gt 0 ]]; then files=("$@")
else mapfile -t files < <(git ls-files 'cmodel/*.c' 'cmodel/*.h' 'tb/*.c' 'tb/*.h' 'tb/*.cpp' 'scripts/*.c' 2>/dev/null)
fi
pass=0; fail=0
for f in "${files[@]}"; do
  if out=$(clang-format --dry-run --Werror --style=file "$f" 2>&1); then pass=$((pass+1))
  else fail=$((fail+1)); echo "not formatted: $f (clang-format -i $f)"; echo "$out" | head -6; fi
done
echo "RESULT lint_format pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
