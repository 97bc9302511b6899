#!/usr/bin/env bash
# test_train_cache.sh: the all-reduce cache of multitree train (docs/reference/training.md
# "All-reduce times"): a changed input gives another key even when its name stays the same
# (a configuration file edited in place, a topology file whose link multiplicity changes,
# --set lists that differ only late), and a damaged cache line (a negative, overflowing or
# non-numeric count, a count one digit off, a truncated line) is a miss with a message.
set -u
bin=${MT_BIN:-build/multitree}
source "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
toy=tb/train/toy.csv
ar() { sed -n 's/^train: all-reduce \([0-9]*\) cycles.*/\1/p' "$1"; }
# train ARGS... with --cache FILE twice around EDIT (a command), then once without a cache:
# the second run must give the uncached value and say it simulated one all-reduce
twice() { # name, cache, edit command, train arguments...
  local name=$1 cache=$2 edit=$3
  shift 3
  "$bin" train --model $toy "$@" --cache "$cache" >"$tmp/o1" 2>&1 || bad "$name: first run: $(tail -1 "$tmp/o1")"
  eval "$edit"
  "$bin" train --model $toy "$@" --cache "$cache" >"$tmp/o2" 2>&1 || bad "$name: second run: $(tail -1 "$tmp/o2")"
  "$bin" train --model $toy "$@" --cache none >"$tmp/o3" 2>&1 || bad "$name: uncached run: $(tail -1 "$tmp/o3")"
  [[ -n $(ar "$tmp/o3") && $(ar "$tmp/o2") == "$(ar "$tmp/o3")" && $(ar "$tmp/o1") != "$(ar "$tmp/o3")" ]] && grep -q "1 all-reduces simulated now" "$tmp/o2" && ok ||
    bad "$name: first $(ar "$tmp/o1"), second (cached) $(ar "$tmp/o2"), uncached $(ar "$tmp/o3"): $(grep -o '[0-9]* all-reduces simulated now' "$tmp/o2")"
}
mkdir -p "$tmp/cf"
cp configs/net/paper.cfg "$tmp/cf/paper.cfg"
printf 'base = paper\nlink_lat = 150\n' >"$tmp/cf/my.cfg"
twice "config file edited in place" "$tmp/k1.txt" "sed -i 's/= 150/= 1000000/' '$tmp/cf/my.cfg'" \
  --topo torus:4x4 --algo ring --level flow --config "$tmp/cf/my.cfg"
printf 'nodes 4\nlink 0 1\nlink 1 2\nlink 2 3\nlink 3 0\n' >"$tmp/r.topo"
twice "topology file's multiplicity changed" "$tmp/k2.txt" "sed -i 's/link 0 1/link 0 1 4/' '$tmp/r.topo'" \
  --topo "file:$tmp/r.topo" --algo ring --level flow
# 21 --set of 13 characters: the last one starts after character 255 of "paper+..."
sets=()
for i in $(seq 20); do sets+=(--set link_lat=150); done
"$bin" train --model $toy --topo torus:4x4 --algo ring --level flow "${sets[@]}" --set link_lat=100 --cache "$tmp/k3.txt" >/dev/null 2>&1 || bad "long --set: first run"
"$bin" train --model $toy --topo torus:4x4 --algo ring --level flow "${sets[@]}" --set link_lat=9000 --cache "$tmp/k3.txt" >"$tmp/o2" 2>&1
"$bin" train --model $toy --topo torus:4x4 --algo ring --level flow "${sets[@]}" --set link_lat=9000 --cache none >"$tmp/o3" 2>&1
[[ -n $(ar "$tmp/o3") && $(ar "$tmp/o2") == "$(ar "$tmp/o3")" ]] && grep -q "1 all-reduces simulated now" "$tmp/o2" && ok ||
  bad "--set lists that differ after character 255: cached $(ar "$tmp/o2"), uncached $(ar "$tmp/o3")"
# damaged lines: the count replaced, or the line cut inside the count without its end of line
args=(--topo torus:4x4 --algo ring --level flow)
"$bin" train --model $toy "${args[@]}" --cache none >"$tmp/o3" 2>&1
true_ar=$(ar "$tmp/o3")
for dmg in -5 99999999999999999999 18446744073709551616 abc 1e3 " 7" truncate digit; do
  rm -f "$tmp/d.txt"
  "$bin" train --model $toy "${args[@]}" --cache "$tmp/d.txt" >/dev/null 2>&1 || bad "damaged $dmg: first run"
  python3 - "$tmp/d.txt" "$true_ar" "$dmg" <<'PY'
import sys
path, val, dmg = sys.argv[1:]
text = open(path).read()
i = text.index(" " + val) + 1
if dmg == "truncate":  # the count's first two digits, no end of line (an interrupted append)
    text = text[: i + 2]
elif dmg == "digit":  # a count that is still a number, one digit off: the check hash sees it
    text = text[:i] + val[:-1] + str((int(val[-1]) + 1) % 10) + text[i + len(val):]
else:
    text = text[:i] + dmg + text[i + len(val):]
open(path, "w").write(text)
PY
  "$bin" train --model $toy "${args[@]}" --cache "$tmp/d.txt" >"$tmp/o2" 2>&1
  [[ $(ar "$tmp/o2") == "$true_ar" ]] && grep -q "1 all-reduces simulated now" "$tmp/o2" && grep -q "damaged cache line" "$tmp/o2" && ok ||
    bad "damaged count '$dmg': all-reduce $(ar "$tmp/o2") (true $true_ar): $(grep -E 'simulated now|damaged' "$tmp/o2" | tr '\n' ' ')"
  # the append after a truncated line starts its own line: the third run reads it
  "$bin" train --model $toy "${args[@]}" --cache "$tmp/d.txt" >"$tmp/o4" 2>&1
  [[ $(ar "$tmp/o4") == "$true_ar" ]] && grep -q "0 all-reduces simulated now" "$tmp/o4" && ok ||
    bad "damaged count '$dmg': the rewritten entry not read back: $(grep -E 'simulated now' "$tmp/o4")"
done
# a cache that is not one: a line longer than 600 bytes is refused
head -c 2000 /dev/zero | tr '\0' x >"$tmp/long.txt"
refuse "a line longer than 600 bytes" train --model $toy "${args[@]}" --cache "$tmp/long.txt"
echo "RESULT test_train_cache pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
