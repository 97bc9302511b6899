#!/usr/bin/env bash
# test_relopts.sh BIN: a command refuses every option it does not use (exit 2, "--x: not used by
# CMD"), docs/reference/cli.md. For each command and mode below: its valid command line runs
# (exit 0), and that line with each option outside the mode's list added, one at a time, is
# refused; an operand where the command takes none is "unexpected argument". train (its own
# parser): --seed at the flow level and --workloads with a model file.
set -u
bin=${1:-${MT_BIN:-build/multitree}}
# shellcheck source=tb/cli/lib_refuse.sh
. "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
P=(--topo torus:4x4 --algo ring --bytes 1K)
"$bin" plan "${P[@]}" --quiet --json "$tmp/s.json" && "$bin" rom "${P[@]}" --format hex --out "$tmp/rom" --quiet || {
  echo "FAIL: setup"
  exit 1
}

# every option of the shared parser, with a value it accepts
declare -A val=(
  [--topo]=torus:4x4 [--algo]=ring [--bytes]=1K [--elem]=4 [--local-ports]=1 [--chunks]=2 [--intra]=fifo
  [--progress]= [--json]="$tmp/o.json" [--dot]="$tmp/o.dot" [--print]= [--quiet]= [--format]=hex [--compact]=
  [--out]="$tmp/o" [--compare]="$tmp/s.json" [--dtype]=int32 [--seed]=1 [--flow]=message [--config]=small
  [--set]=link_lat=1 [--dump-dir]="$tmp/d" [--trace]="$tmp/t" [--mem-limit]=1G [--data]=full [--threads]=1
  [--level]=cycle [--expand]= [--overlap]=
)
planning="--topo --algo --bytes --elem --local-ports --chunks --intra --progress"
sim_any="$planning --flow --config --set --json --data --threads --level"

# mode: "name|the options it uses|its valid command line"
modes=(
  "plan|$planning --json --dot --print --quiet|plan ${P[*]} --quiet"
  "rom|$planning --format --compact --out --quiet|rom ${P[*]} --format hex --out $tmp/rom2 --quiet"
  "check FILE.json||check $tmp/s.json"
  "check planned|$planning|check ${P[*]}"
  "decode DIR --compare|--print --compare|decode $tmp/rom --compare $tmp/s.json"
  "decode DIR planned|--print $planning|decode $tmp/rom ${P[*]}"
  "ref|$planning --dtype --seed|ref ${P[*]}"
  "sim --level flow|$sim_any --expand --overlap|sim --level flow ${P[*]}"
  "sim cycle|$sim_any --dtype --seed --dump-dir --trace --mem-limit|sim ${P[*]}"
  "sizes|--algo --bytes --chunks --intra --progress|sizes --bytes 64K"
  "bound|--topo --bytes --config --set --json|bound --topo torus:4x4 --bytes 1K"
)
for m in "${modes[@]}"; do
  IFS='|' read -r name takes line <<<"$m"
  read -ra base <<<"$line"
  cmd=${base[0]}
  if out=$("$bin" "${base[@]}" 2>&1); then ok; else bad "$name: ${base[*]} -> rc $?: $(head -2 <<<"$out")"; fi
  for opt in "${!val[@]}"; do
    [[ " $takes " == *" $opt "* ]] && continue
    v=(); [[ -n ${val[$opt]} ]] && v=("${val[$opt]}")
    # --compare and the operand change decode's and check's mode: --topo is the option refused then
    want="$opt: not used by $cmd"
    [[ ($cmd == decode && $opt == --compare) ]] && want="--topo: not used by decode DIR --compare"
    refuse "$want" "${base[@]}" "$opt" "${v[@]}"
  done
  [[ $cmd == check || $cmd == decode ]] || refuse "$cmd: unexpected argument 'extra'" "${base[@]}" extra
done
# adding the operand to check's planned form makes it check FILE.json: --topo is refused
refuse "--topo: not used by check FILE.json" check "$tmp/s.json" "${P[@]}"
# the issue's cases
refuse "--topo: not used by check FILE.json (it takes no options)" check "$tmp/s.json" --topo torus:4x4 --algo ring
refuse "--topo: not used by decode DIR --compare" decode "$tmp/rom" --compare "$tmp/s.json" --topo torus:4x4
refuse "--expand: not used by sim at the cycle level" sim "${P[@]}" --expand
refuse "--overlap: not used by sim at the cycle level" sim "${P[@]}" --overlap
refuse "--dtype: not used by plan" plan "${P[@]}" --dtype fp32
refuse "--expand: not used without --chunks K" sim --level flow "${P[@]}" --expand
# train parses its own options: the two it would ignore in a form
tr=(train --model tb/train/toy.csv --topo torus:4x4 --algo ring --level flow --cache none)
if out=$("$bin" "${tr[@]}" 2>&1); then ok; else bad "${tr[*]} -> rc $?: $(head -2 <<<"$out")"; fi
refuse "--seed: not used by train --level flow" "${tr[@]}" --seed 2
refuse "--workloads: not used with --model FILE.csv" "${tr[@]}" --workloads workloads
echo "RESULT relopts-cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
