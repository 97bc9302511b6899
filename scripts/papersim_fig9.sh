#!/usr/bin/env bash
# papersim_fig9.sh [OUT.csv] [BIN]: the Fig. 9 torus points of docs/reference/papersim.md: ring, ring2d
# (256-B packets, as the paper ran them) and multitree (packets and messages) on torus:4x4
# and torus:8x8 at 32 KiB, 512 KiB and 8 MiB, under --config paper-sim (the paper simulator's
# NI) and --config paper (this project's NI). One line per run, appended (a rerun skips the
# points already in OUT). Run at nice 10, one run at a time.
set -u
out=${1:-docs/results/papersim_fig9.csv}
bin=${2:-build/multitree}
[ -s "$out" ] || echo "config,topology,algorithm,flow,bytes,cycles,lower_bound_fraction,correct,wall_s" >"$out"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for bytes in 32768 524288 8388608; do
  for topo in torus:4x4 torus:8x8; do
    for cfg in paper-sim paper; do
      for af in ring:packet ring2d:packet multitree:packet multitree:message; do
        a=${af%%:*} f=${af##*:}
        grep -q "^$cfg,$topo,$a,$f,$bytes," "$out" && continue
        if nice -n 10 "$bin" sim --topo "$topo" --algo "$a" --bytes "$bytes" --flow "$f" --config "$cfg" --data sample --json "$tmp" >/dev/null 2>&1; then
          python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(",".join(map(str,[sys.argv[2], j["topology"], j["algorithm"], j["flow"], j["bytes"], j["cycles"], j["lower_bound_fraction"], str(j["correct"]).lower(), j["wall_s"]])))' "$tmp" "$cfg" >>"$out"
        else
          echo "$cfg,$topo,$a,$f,$bytes,FAILED,,," >>"$out"
        fi
      done
    done
  done
done
