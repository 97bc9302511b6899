#!/usr/bin/env bash
# tb/fpga/test_congestion.sh: fpga/flow/congestion.py, the summary of a router2 congestion heatmap.
# congestion_8x4.csv: 8 columns (lines) of 4 rows, 1 at (1,0), 5 at (2,1), 2 at (4,2), 3 at (6,3).
# By hand: total 11; the middle half of the columns is x 2..5 (4x >= 8 and 4x < 24): 5 + 2 = 7,
# 63.6 %; the 2x2 tiles hold 1 (x 0), 5 (x 2, y 0), 2 (x 4, y 2), 3 (x 6, y 2), the hottest 5,
# 45.5 %; rows 1 and 3 hold 5 + 3 = 8, 72.7 %; the map's characters are " .:-=+*#%@"[v * 10 // 6]: 1 '.', 5 '%', 2 '-', 3 '+'.
# Then inputs it must refuse, each with a message and exit status 1.
set -euo pipefail
cd "$(dirname "$0")/../.."
t=fpga/flow/congestion.py csv=fpga/flow/testdata/congestion_8x4.csv
w=$(mktemp -d); trap 'rm -rf "$w"' EXIT
pass=0 fail=0
check() {  # check WHAT GOT WANT
  if [[ $2 == "$3" ]]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1: got [$2], want [$3]"; fi
}
check "summary" "$(python3 $t $csv --tile 2)" \
  "8 columns x 4 rows, congestion 11: 63.6 % in the middle half of the columns, hottest 2x2 tile at x 2, y 0: 5 (45.5 %)"
check "rows" "$(python3 $t $csv --tile 2 --rows 3,1 | tail -1)" "rows 1,3: 8 (72.7 %)"
check "map" "$(python3 $t $csv --tile 2 --map | tail -2)" "$(printf '  0 .%%\n  2   -+')"
refused() {  # refused WHAT FILE WANT-IN-MESSAGE [ARGS]: exit 1 and a message naming the problem
  local out rc=0
  out=$(python3 $t "$2" ${4:-} 2>&1) || rc=$?
  [[ $rc == 1 && $out == *"$3"* ]] && r=yes || r="no (exit $rc: $out)"
  check "$1 refused" "$r" yes
}
printf '1,2,\nx,3,\n' >"$w/word.csv"
printf '1,-2,\n' >"$w/neg.csv"
: >"$w/empty.csv"
refused "a word" "$w/word.csv" "line 2: not a list of integers"
refused "a negative value" "$w/neg.csv" "line 1: a negative value"
refused "an empty file" "$w/empty.csv" "no values"
refused "a missing file" "$w/none.csv" "No such file"
refused "a tile of 0" "$csv" "must be at least 1" "--tile 0"
refused "a row beyond the grid" "$csv" "rows are 0 to 3" "--rows 4"
refused "a row that is no number" "$csv" "not a comma-separated list" "--rows 1,x"
echo "RESULT congestion pass=$pass fail=$fail"
[[ $fail == 0 ]]
