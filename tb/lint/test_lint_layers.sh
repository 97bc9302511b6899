#!/usr/bin/env bash
# test_lint_layers.sh: the layer lint (scripts/lint_layers.py) passes the tree and fails
# copies of it broken on purpose: a hardware model that includes the planner's layout, a
# layer that includes the command line, an include without a layer, a header that does not
# exist, an include cycle, two files of a layer that call each other (the topology builder
# calling back into the hierarchy parser; a subcommand calling back into sim), and a function
# of the network model over 150 lines. Each broken copy must fail and name the file (and line).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
lint="python3 $top/scripts/lint_layers.py"
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if $lint "$top/cmodel" >"$tmp/out" 2>&1; then ok "the tree passes"; else bad "the tree fails:"; cat "$tmp/out"; fi

# broken NAME FILE LINE_TO_ADD EXPECTED_MESSAGE_PART
broken() {
  local name=$1 file=$2 line=$3 want=$4
  rm -rf "$tmp/c"; cp -r "$top/cmodel" "$tmp/c"
  # insert after the first #include line so that the line number is known
  local n; n=$(grep -n '^#include' "$tmp/c/$file" | head -1 | cut -d: -f1)
  sed -i "${n}a $line" "$tmp/c/$file"
  if $lint "$tmp/c" >"$tmp/out" 2>&1; then bad "$name: lint passed"; return; fi
  if grep -qF "$file:$((n + 1)): " "$tmp/out" && grep -qF "$want" "$tmp/out"; then ok "$name: $(grep -F "$want" "$tmp/out" | head -1 | sed "s|$tmp/c/||")"
  else bad "$name: message does not name $file:$((n + 1)) / '$want'"; cat "$tmp/out"; fi
}
broken "hw includes the planner's layout" hw/mt_ni.h '#include "table/mt_layout.h"' "layer 'hw' may not include 'table'"
broken "hw includes the schedule"         hw/mt_router.c '#include "plan/mt_sched.h"' "layer 'hw' may not include 'plan'"
broken "plan includes the network"        plan/mt_check.c '#include "net/mt_net.h"' "layer 'plan' may not include 'net'"
broken "an include without a layer"       net/mt_net_build.c '#include "mt_ni.h"' "names no layer"
broken "a header that does not exist"     table/mt_rom.c '#include "table/mt_nope.h"' "no such header"
broken "util includes fmt"                util/mt_err.h '#include "fmt/mt_flit.h"' "layer 'util' may not include 'fmt'"

# an include cycle inside one layer: mt_err.h -> mt_rng.h -> mt_err.h
rm -rf "$tmp/c"; cp -r "$top/cmodel" "$tmp/c"
sed -i '0,/^#include/s//#include "util\/mt_rng.h"\n#include/' "$tmp/c/util/mt_err.h"
sed -i '0,/^#include/s//#include "util\/mt_err.h"\n#include/' "$tmp/c/util/mt_rng.h"
if ! $lint "$tmp/c" >"$tmp/out" 2>&1 && grep -q "include cycle: .*util/mt_err.h" "$tmp/out"; then ok "include cycle: $(grep 'include cycle' "$tmp/out" | head -1 | sed "s|$tmp/c|cmodel|")"
else bad "include cycle not caught"; cat "$tmp/out"; fi

# calls_back NAME FILE CODE WANT: CODE appended to FILE must make the lint fail with WANT
calls_back() {
  local name=$1 file=$2 code=$3 want=$4
  rm -rf "$tmp/c"; cp -r "$top/cmodel" "$tmp/c"
  printf '%s\n' "$code" >>"$tmp/c/$file"
  if $lint "$tmp/c" >"$tmp/out" 2>&1; then bad "$name: lint passed"; return; fi
  if grep -qF "$want" "$tmp/out"; then ok "$name: $(grep -F "$want" "$tmp/out" | head -1 | sed "s|$tmp/c|cmodel|" | cut -c1-160)"
  else bad "$name: no '$want'"; cat "$tmp/out"; fi
}
# mt_hier.c builds through mt_topo.c (mt_topo_from_links_attr): mt_topo.c must not call it back
calls_back "topo files call each other" topo/mt_topo.c \
  'int mt_topo_lint_probe(mt_topo *t, mt_err *e) { return mt_topo_from_hier_name(t, "hier:2", e); }' \
  "topo/mt_hier.c and topo/mt_topo.c call each other"
# mt_cmd_sim.c hands sim --level flow to mt_cmd_flowsim.c: flowsim must not call sim
calls_back "app files call each other" app/mt_cmd_flowsim.c \
  'int mt_app_lint_probe(const mt_app_opts *o) { return mt_app_sim(o); }' \
  "app/mt_cmd_flowsim.c and app/mt_cmd_sim.c call each other"
# a function of 152 lines in the network model
long_fn=$(printf 'int mt_net_lint_long(int x) {\n'; for i in $(seq 149); do printf '  x += %d;\n' "$i"; done; printf '  return x;\n}\n')
calls_back "a long function in net/" net/mt_net_view.c "$long_fn" "function mt_net_lint_long is 152 lines; at most 150 in net/"

echo "RESULT lint_layers_test pass=$p fail=$f"
[[ $f -eq 0 ]]
