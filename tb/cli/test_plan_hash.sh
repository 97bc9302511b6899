#!/usr/bin/env bash
# test_plan_hash.sh BIN: the planners build the recorded schedules. `plan --json` of each
# case in tb/cli/plan_hashes.txt (switch networks: fat-trees, stars, DGX-2, BiGraph, the test
# files; direct ones: tori, meshes, a ring, the dumbbell; hier: hierarchies; MultiTree and
# the baselines) is reduced to a digest of its schedule (tb/cli/plan_digest.py: steps, flows,
# transfers with their paths, the order of each node's entries) and compared with the
# recorded one. A planner change that alters any schedule fails here; one that means to
# alter them records the new digests with PLAN_HASH_UPDATE=1 (and says why in its commit).
# About 15-35 s.
set -u
BIN=${1:-build/multitree}
here=$(cd "$(dirname "$0")" && pwd)
rec=$here/plan_hashes.txt
D=$here/../cmodel/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# generated topologies: a star of 100 end nodes, the dumbbell (two 4-cliques joined by a link)
{ echo "nodes 100"; echo "switches 1"; for ((i = 0; i < 100; i++)); do echo "link $i s0"; done; } >"$tmp/star100.topo"
{ echo "nodes 8"; echo "switches 0"
  for a in 0 1 2 3; do for b in 0 1 2 3; do [ $a -lt $b ] && echo "link $a $b" && echo "link $((a + 4)) $((b + 4))"; done; done
  echo "link 3 4"; } >"$tmp/dumbbell.topo"
# file: names in the record are relative: data/ (tb/cmodel/data) or gen/ (generated here)
resolve() { local t=$1; t=${t/file:data\//file:$D/}; echo "${t/file:gen\//file:$tmp/}"; }
pass=0 fail=0
out=$rec.new
[ "${PLAN_HASH_UPDATE:-0}" = 1 ] && : >"$out"
while read -r topo algo want; do
  [[ -z $topo || $topo == \#* ]] && continue
  if ! "$BIN" plan --topo "$(resolve "$topo")" --algo "$algo" --bytes 1M --quiet --json "$tmp/p.json" 2>"$tmp/err"; then
    echo "FAIL: plan --topo $topo --algo $algo: $(head -1 "$tmp/err")"; fail=$((fail + 1)); continue
  fi
  got=$(python3 "$here/plan_digest.py" "$tmp/p.json")
  [ "${PLAN_HASH_UPDATE:-0}" = 1 ] && echo "$topo $algo $got" >>"$out"
  if [ "$got" = "$want" ]; then pass=$((pass + 1))
  else echo "FAIL: $topo $algo: schedule digest $got, recorded $want"; fail=$((fail + 1)); fi
done <"$rec"
[ "${PLAN_HASH_UPDATE:-0}" = 1 ] && { grep '^#' "$rec" | cat - "$out" >"$rec.tmp" && mv "$rec.tmp" "$rec"; rm -f "$out"; echo "recorded $rec"; }
echo "RESULT plan_hash pass=$pass fail=$fail"
