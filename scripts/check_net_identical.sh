#!/usr/bin/env bash
# check_net_identical.sh REF_BIN NEW_BIN [WORKDIR]: run the same set of network simulations
# with two builds of `multitree` and require identical results: exit code, stdout (minus the
# wall-time line), the --json summary (as parsed JSON, minus wall_s and cycles_per_s), every --dump-dir buffer
# (cmp) and the --trace CSV (cmp). Each case runs twice per build, without and with --trace
# (with it, mt_net_run steps cycle by cycle; without, in blocks of link_lat - 1 cycles), and
# both must give the same. Used to check that a speed change of the C network model
# (cmodel/net/mt_net_*.c, mt_router.c, mt_link.c, mt_mem.c) leaves every simulated cycle unchanged.
# The set: tori and meshes 2x2 .. 8x8 (and 3-D ones), MultiTree, ring, ring2d, dbtree, hd;
# message and packet flow control; int32 and fp32; configurations small and paper; --set
# overrides of the memory (random ready, latency), NI bandwidth, VCs, link latency, buffer
# depths, step priority, local ports, payload width; NI watchdogs that fire and cycle limits
# (runs that end with an error). Prints one line per case.
# NEW_ARGS (env): more arguments for NEW's runs only, e.g. "--threads 2" (every result must be
# the same) or "--data none" / "--data sample" (the timing must be the same: then the verdict
# of the first stdout line, the JSON keys correct/data/checked_words_per_node and the buffers
# are not compared, since NEW stores no or only some data; NEW runs without --dump-dir). Cases 25, 41 and 42 (a tiny wd_limit)
# differ on purpose against a build whose watchdog limits do not grow with the link and memory
# latency (docs/reference/network.md "Link rate and latency").
set -u
REF=${1:?REF_BIN}; NEW=${2:?NEW_BIN}; WD=${3:-$(mktemp -d)}
read -r -a NEW_ARGS <<<"${NEW_ARGS:-}"
TIMING_ONLY=0; [[ " ${NEW_ARGS[*]} " =~ " --data "(sample|none)" " ]] && TIMING_ONLY=1
mkdir -p "$WD"
ncase=0; nbad=0

# json_same A B: the two --json summaries hold the same keys, in the same order, with the
# same values, but for the wall-clock ones (wall_s, cycles_per_s, peak_rss_bytes) and the
# threads used (threads). Compared as parsed JSON,
# not as text: 0.48583 and 0.485830, 1.0 and 1.000 are the same number.
json_same() {
  python3 - "$1" "$2" "$TIMING_ONLY" <<'PY'
import json, sys
def load(p):
    try:
        with open(p) as f: d = json.load(f, object_pairs_hook=list)  # key order counts too
    except (OSError, ValueError) as e:
        return "unreadable: %s" % e
    return [kv for kv in d if kv[0] not in skip]
# wall-clock keys always; the data keys too when NEW stored no or only some data (TIMING_ONLY)
skip = ("wall_s", "cycles_per_s", "peak_rss_bytes", "threads") + (("correct", "data", "checked_words_per_node") if sys.argv[3] == "1" else ())
# keys only newer builds write (data, checked_words_per_node): compared when both have them
a, b = load(sys.argv[1]), load(sys.argv[2])
if not isinstance(a, str) and not isinstance(b, str):
    ka = {k for k, _ in a}
    b = [kv for kv in b if kv[0] in ka or kv[0] not in ("data", "checked_words_per_node")]
sys.exit(0 if a == b and not isinstance(a, str) else 1)
PY
}

# case: topo algo bytes dtype flow config seed [--set k=v]...
one() {
  local topo=$1 algo=$2 bytes=$3 dt=$4 flow=$5 cfg=$6 seed=$7; shift 7
  local sets=() kv
  for kv in "$@"; do sets+=(--set "$kv"); done
  ncase=$((ncase + 1))
  local tag="c$ncase" why=""
  local b
  for b in ref new; do
    local bin=$REF; [[ $b == new ]] && bin=$NEW
    local d="$WD/$tag.$b"; rm -rf "$d"; mkdir -p "$d"
    local run=("$bin" sim --topo "$topo" --algo "$algo" --bytes "$bytes" --dtype "$dt" --flow "$flow" --config "$cfg" --seed "$seed" "${sets[@]}")
    local dump=(--dump-dir "$d/dump")
    if [[ $b == new ]]; then run+=("${NEW_ARGS[@]}"); ((TIMING_ONLY)) && dump=(); fi
    # once as usual, once with --trace (mt_net_run steps cycle by cycle then): the same results
    "${run[@]}" --json "$d/r.json" "${dump[@]}" >"$d/stdout" 2>"$d/stderr"
    echo $? >"$d/rc"
    "${run[@]}" --json "$d/rt.json" --trace "$d/trace.csv" >"$d/stdout.t" 2>"$d/stderr.t"
    echo $? >"$d/rc.t"
    local verdict='s/, \(result correct on every node.*\|result not checked (--data none)\)$//'
    ((TIMING_ONLY)) || verdict='p;d'
    grep -v ' s wall, ' "$d/stdout" | sed "$verdict" >"$d/stdout.cmp"
    grep -v ' s wall, ' "$d/stdout.t" | sed "$verdict" >"$d/stdout.t.cmp"
    # the progress line (every 10 s of wall time off a terminal) depends on the machine's load
    grep -v '^sim: cycle ' "$d/stderr" >"$d/stderr.cmp"
    grep -v '^sim: cycle ' "$d/stderr.t" >"$d/stderr.t.cmp"
  done
  local r="$WD/$tag.ref" n="$WD/$tag.new"
  local x
  for x in rc rc.t stdout.cmp stdout.t.cmp stderr.cmp stderr.t.cmp; do cmp -s "$r/$x" "$n/$x" || why+=" $x"; done
  for x in r.json rt.json; do
    if [[ -f $r/$x || -f $n/$x ]]; then json_same "$r/$x" "$n/$x" || why+=" $x"; fi
  done
  # and with --trace the same as without (both builds)
  cmp -s "$n/stdout.cmp" "$n/stdout.t.cmp" || why+=" trace-vs-plain"
  cmp -s "$r/trace.csv" "$n/trace.csv" || why+=" trace"
  local nf=0 f
  if ((!TIMING_ONLY)) && [[ -d $r/dump || -d $n/dump ]]; then
    for f in "$r"/dump/*.bin; do
      [[ -e $f ]] || continue
      nf=$((nf + 1))
      cmp -s "$f" "$n/dump/$(basename "$f")" || { why+=" dump:$(basename "$f")"; break; }
    done
    [[ $(ls "$r/dump" 2>/dev/null | wc -l) == $(ls "$n/dump" 2>/dev/null | wc -l) ]] || why+=" dump-count"
  fi
  local cyc; cyc=$(sed -n 's/.*"cycles":\([0-9]*\).*/\1/p' "$r/r.json" 2>/dev/null)
  local ev; ev=$(($(wc -l <"$r/trace.csv") - 1))
  if [[ -n $why ]]; then
    nbad=$((nbad + 1))
    printf 'DIFF %-4s %-10s %-9s %-6s %s %-7s %-5s seed %s %s:%s\n' "$tag" "$topo" "$algo" "$bytes" "$dt" "$flow" "$cfg" "$seed" "$*" "$why"
  else
    printf 'same %-4s %-10s %-9s %-6s %s %-7s %-5s seed %s %s: rc %s, %s cycles, %s trace events, %s buffers\n' "$tag" "$topo" "$algo" "$bytes" "$dt" \
      "$flow" "$cfg" "$seed" "$*" "$(cat "$r/rc")" "${cyc:-?}" "$ev" "$nf"
  fi
}

# small configuration: every topology x algorithm, both flows, both data types
for topo in mesh:2x2 torus:2x2 mesh:3x5 torus:3x5 torus:4x4 mesh:4x4 torus:8x8 mesh:8x8; do
  for algo in multitree ring ring2d dbtree; do
    one "$topo" "$algo" 4096 int32 message small 1
    one "$topo" "$algo" 8192 fp32 packet small 2
  done
done
one torus:4x4 hd 16K int32 message small 3
one torus:4x2x2 multitree 16K fp32 message small 4
one mesh:3x2x2 ring 12K int32 packet small 5
# odd sizes (last flit partly used)
one torus:4x4 multitree 4004 fp32 message small 6
one mesh:3x5 dbtree 4244 int32 packet small 7
# --set overrides
one torus:4x4 multitree 16K int32 message small 8 mem_p_ready=70 mem_lat_max=4
one mesh:3x5 ring 16K fp32 packet small 9 mem_p_ready=70 mem_lat_max=4
one torus:8x8 multitree 32K fp32 message small 10 mem_p_ready=55 mem_lat_max=7
one torus:4x4 multitree 16K int32 message small 11 ni_rx_engines=1 ni_mem_ports=1
one mesh:4x4 ring2d 16K fp32 packet small 12 ni_rx_engines=1 ni_mem_ports=1
one torus:4x4 multitree 16K int32 message small 13 ni_rx_engines=2 ni_mem_ports=6
one torus:4x4 dbtree 16K int32 message small 14 ni_rx_engines=2 ni_mem_ports=8 mem_p_ready=80 mem_lat_max=3
one torus:4x4 multitree 16K fp32 message small 15 num_vcs=2
one torus:4x4 ring 16K int32 packet small 16 num_vcs=2
one torus:8x8 multitree 16K int32 message small 17 num_vcs=8 vc_depth=16
one torus:4x4 multitree 16K int32 message small 18 link_lat=1
one mesh:3x5 dbtree 16K fp32 packet small 19 link_lat=1
one torus:4x4 multitree 16K int32 message small 20 link_lat=37
one torus:4x4 multitree 16K int32 message small 21 step_prio=1
# local_ports=8, not 2: sim refuses shared ejection ports (docs/reference/ni.md "Limits")
one torus:4x4 multitree 16K int32 message small 22 local_ports=8
one torus:4x4 multitree 16K int32 message small 23 subpkt_flits=1 vc_depth=3 ej_depth=3
one torus:4x4 ring 16K int32 packet small 24 ni_sq=1 ni_rq=1
one torus:4x4 multitree 64K int32 message small 25 wd_limit=30
one torus:4x4 multitree 16K int32 message small 27 link_lat=5 mem_p_ready=90 mem_lat_max=2
one mesh:3x5 ring2d 16K fp32 packet small 28 link_lat=20 ni_rx_engines=1 ni_mem_ports=1
one torus:4x4 ring 16K int32 message small 26 payload_w=256 pkt_bytes=128
# paper configuration
for topo in torus:4x4 mesh:3x5 torus:8x8; do
  one "$topo" multitree 64K int32 message paper 30
  one "$topo" ring 64K fp32 packet paper 31
done
one torus:8x8 ring2d 64K int32 message paper 32
one torus:8x8 dbtree 64K fp32 message paper 33
one torus:8x8 multitree 64K fp32 packet paper 34
one torus:8x8 multitree 256K int32 message paper 35
one torus:8x8 multitree 64K int32 message paper 36 mem_p_ready=70 mem_lat_max=4
one torus:4x4 multitree 64K fp32 message paper 37 ni_rx_engines=1 ni_mem_ports=1
one torus:4x4 multitree 64K int32 message paper 38 num_vcs=2 link_lat=1
one mesh:2x2 multitree 16K fp32 message paper 39
one mesh:3x2x2 dbtree 16K int32 packet paper 40
# runs that end in an error or at the cycle limit (blocks overshoot nothing); the 64K run
# takes 5,411 cycles: limits one before, at and one after its last cycle
one torus:8x8 multitree 256 int32 message paper 41 wd_limit=1
one torus:4x4 ring 1K int32 message paper 42 wd_limit=2
one torus:8x8 multitree 64K int32 message paper 43 max_cycles=5410
one torus:8x8 multitree 64K int32 message paper 43 max_cycles=5411
one torus:8x8 multitree 64K int32 message paper 43 max_cycles=5412

echo "check_net_identical: $ncase cases, $nbad with differences (work dir $WD)"
[[ $nbad -eq 0 ]]
