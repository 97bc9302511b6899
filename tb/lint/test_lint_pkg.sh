#!/usr/bin/env bash
# test_lint_pkg.sh: make lint's package check (scripts/lint.sh step 1) passes the tree and
# fails copies broken on purpose: a hand edit of rtl/mt_common_pkg.sv (a flit type value, a removed
# `///` line), and an edit of the one source cmodel/fmt/mt_formats.h (an error code value, a
# new head field) without `make rtl-pkg`. Each must fail and name rtl/mt_common_pkg.sv. Then the same
# edit of the table followed by regeneration must pass again, and the C width tool must follow
# the table (gen_mt_pkg --entry-width: 94 / 41 for mk/ni.mk's sets; 95 with a wider op).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() { LINT_PKG_ONLY=1 LINT_RTL="$tmp/rtl" LINT_FMT="$tmp/cmodel" BUILD="$tmp/build" "$top/scripts/lint.sh" >"$tmp/out" 2>&1; }
fresh() { rm -rf "$tmp/rtl" "$tmp/cmodel"; mkdir -p "$tmp/cmodel"; cp -r "$top/rtl" "$tmp/rtl"; cp -r "$top/cmodel/fmt" "$tmp/cmodel/fmt"; }

fresh
if run; then ok "the tree passes"; else bad "the tree fails:"; cat "$tmp/out"; fi

# broken NAME FILE SED_EXPR
broken() {
  local name=$1 file=$2 expr=$3
  fresh
  sed -i "$expr" "$tmp/$file"
  if cmp -s "$top/$file" "$tmp/$file"; then bad "$name: the edit changed nothing"; return; fi
  if run; then bad "$name: lint passed"; return; fi
  if grep -q "rtl/mt_common_pkg.sv differs" "$tmp/out"; then ok "$name: $(grep -m1 'differs' "$tmp/out" | sed "s|$tmp/||g")"
  else bad "$name: message does not name rtl/mt_common_pkg.sv"; cat "$tmp/out"; fi
}
broken "hand edit of a flit type in the package" rtl/mt_common_pkg.sv "s/FT_HEAD = 3'd4/FT_HEAD = 3'd5/"
broken "hand-deleted /// line in the package"     rtl/mt_common_pkg.sv "/NI_E_WATCHDOG/d"
broken "error code changed in the table only"     cmodel/fmt/mt_formats.h 's/X(EJ_OVF, 10,/X(EJ_OVF, 12,/'
broken "head field added in the table only"       cmodel/fmt/mt_formats.h 's/  X(LEN, 96, 32, "length in bytes")/  X(LEN, 96, 32, "length in bytes") X(PAD, 128, 1, "x")/'

# the table edited AND regenerated: passes again
fresh
sed -i 's/X(EJ_OVF, 10,/X(EJ_OVF, 12,/' "$tmp/cmodel/fmt/mt_formats.h"
mkdir -p "$tmp/build"
if cc -std=c11 -Wall -Wextra -Werror -I"$tmp/cmodel" "$top/scripts/gen_mt_pkg.c" "$tmp/cmodel/fmt/mt_entry.c" -o "$tmp/build/gen" &&
   "$tmp/build/gen" >"$tmp/rtl/mt_common_pkg.sv" && run; then ok "table edited and regenerated: passes"
else bad "table edited and regenerated: fails"; cat "$tmp/out"; fi

# the width tool follows the table
cc -std=c11 -Wall -Wextra -Werror -I"$top/cmodel" "$top/scripts/gen_mt_pkg.c" "$top/cmodel/fmt/mt_entry.c" -o "$tmp/build/gen0"
G="FlowW=4 StepW=5 IdW=4 PortW=3 EjW=2 AddrW=16 SizeW=17 Children=4"
w0=$("$tmp/build/gen0" --entry-width $G Compact=0); w1=$("$tmp/build/gen0" --entry-width $G Compact=1)
[[ $w0 == 94 && $w1 == 41 ]] && ok "entry width full $w0, compact $w1" || bad "entry width full $w0 compact $w1, want 94 41"
fresh
sed -i 's/#define MT_OP_W 2/#define MT_OP_W 3/' "$tmp/cmodel/fmt/mt_formats.h"
cc -std=c11 -Wall -Wextra -Werror -I"$tmp/cmodel" "$top/scripts/gen_mt_pkg.c" "$tmp/cmodel/fmt/mt_entry.c" -o "$tmp/build/gen3"
w3=$("$tmp/build/gen3" --entry-width $G Compact=0)
[[ $w3 == 95 ]] && ok "a 3-bit op field gives width $w3" || bad "3-bit op: width $w3, want 95"

echo "RESULT lint_pkg pass=$p fail=$f"
