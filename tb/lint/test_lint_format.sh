#!/usr/bin/env bash
# test_lint_format.sh: the format check (scripts/lint_format.sh) passes the tree and fails a
# copy of a model file with a statement moved onto its function's line and an indent broken.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
p=0; f=0
tmp=$(mktemp -d "$top/build/lintfmt.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
if "$top/scripts/lint_format.sh" >"$tmp/out" 2>&1; then echo "ok   the tree is formatted"; p=$((p+1))
else echo "FAIL the tree is not formatted:"; tail -20 "$tmp/out"; f=$((f+1)); fi
# a broken copy inside the tree (the style file is found from the file's folder upwards)
bad="$tmp/mt_err.c"
cp "$top/cmodel/util/mt_err.c" "$bad"
sed -i 's/^  if (!e) return -1;$/      if (!e)   return -1;/' "$bad"
if cmp -s "$bad" "$top/cmodel/util/mt_err.c"; then echo "FAIL the test could not break the file"; f=$((f+1))
elif "$top/scripts/lint_format.sh" "$bad" >"$tmp/out" 2>&1; then echo "FAIL a misformatted file passed"; f=$((f+1))
elif grep -q "not formatted: $bad" "$tmp/out"; then echo "ok   misformatted copy caught: $(grep -m1 'warning\|error' "$tmp/out" | sed "s|$tmp/||")"; p=$((p+1))
else echo "FAIL no file named"; cat "$tmp/out"; f=$((f+1)); fi
echo "RESULT lint_format_test pass=$p fail=$f"
[[ $f -eq 0 ]]
