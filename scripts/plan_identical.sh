#!/usr/bin/env bash
# plan_identical.sh OLD NEW [DIR]: `plan --json` of two multitree binaries must be byte-
# identical on switch networks (fat-trees, stars, the switched test files, BiGraph, DGX-2)
# and on direct ones (tori, meshes, ring, irregular files with up to 37 links a node), for
# every algorithm that applies. Used to show that a faster planner builds the same
# schedules (docs/reference/planner.md, "Planning switch networks"). Prints one line per case and a summary;
# exit 1 on any difference.
set -u
OLD=$1 NEW=$2 DIR=${3:-$(mktemp -d)}
mkdir -p "$DIR"
D=$(cd "$(dirname "$0")/.." && pwd)/tb/cmodel/data
star() { # star N: N end nodes on one switch
  { echo "nodes $1"; echo "switches 1"; for ((i = 0; i < $1; i++)); do echo "link $i s0"; done; } >"$DIR/star$1.topo"
}
star 64
star 300
# two-level star: 8 leaf switches of 12 nodes under one spine, leaf-spine links x2
{ echo "nodes 96"; echo "switches 9"; for ((i = 0; i < 96; i++)); do echo "link $i s$((i / 12))"; done
  for ((s = 0; s < 8; s++)); do echo "link s$s s8 2"; done; } >"$DIR/leafspine.topo"
# irregular switch networks (seeded): nodes on random switches, some twice, random
# multiplicities, a switch tree plus cross links, a few direct node-to-node links
python3 - "$DIR" <<'PY'
import random, sys
for seed in range(6):
    rnd = random.Random(seed)
    n, S = rnd.choice([40, 90, 150, 200]), rnd.choice([3, 7, 12, 20])
    L = []
    for i in range(n):
        L.append((str(i), 's%d' % rnd.randrange(S), rnd.choice([1, 1, 1, 2])))
        if rnd.random() < 0.2: L.append((str(i), 's%d' % rnd.randrange(S), 1))
    for s in range(1, S): L.append(('s%d' % s, 's%d' % rnd.randrange(s), rnd.choice([1, 2, 3])))
    for _ in range(S):
        a, b = rnd.sample(range(S), 2); L.append(('s%d' % a, 's%d' % b, 1))
    for _ in range(n // 10):
        a, b = rnd.sample(range(n), 2); L.append((str(a), str(b), 1))
    seen, out = set(), []
    for a, b, m in L:
        if tuple(sorted((a, b))) not in seen:
            seen.add(tuple(sorted((a, b)))); out.append("link %s %s %d" % (a, b, m))
    open("%s/rand%d.topo" % (sys.argv[1], seed), "w").write("nodes %d\nswitches %d\n%s\n" % (n, S, "\n".join(out)))
# irregular direct networks (no switches): a random spanning tree plus cross links, in the
# even ones half of them at node 0 (up to 37 links: MultiTree's general path for more than
# 8 links per node), random multiplicities
for seed in range(4):
    rnd = random.Random(100 + seed)
    n = rnd.choice([20, 50, 90, 130])
    pairs = set(tuple(sorted((i, rnd.randrange(i)))) for i in range(1, n))
    for _ in range(rnd.choice([n // 2, n, 3 * n])):
        a, b = rnd.sample(range(n), 2)
        if seed % 2 == 0 and rnd.random() < 0.5: a = 0
        if a != b: pairs.add(tuple(sorted((a, b))))
    L = ["link %d %d %d" % (a, b, rnd.choice([1, 1, 1, 2])) for a, b in sorted(pairs)]
    open("%s/direct%d.topo" % (sys.argv[1], seed), "w").write("nodes %d\nswitches 0\n%s\n" % (n, "\n".join(L)))
PY
TOPOS=(fattree:2,4 fattree:2,5 fattree:2,6 fattree:2,7 fattree:2,8 fattree:4,3 fattree:8,2 fattree:3,3 fattree:4,4
  dgx2 bigraph:4x8 bigraph:2x6 "file:$D/star.topo" "file:$D/switched.topo" "file:$D/multilink.topo"
  "file:$DIR/star64.topo" "file:$DIR/star300.topo" "file:$DIR/leafspine.topo"
  "file:$DIR/rand0.topo" "file:$DIR/rand1.topo" "file:$DIR/rand2.topo" "file:$DIR/rand3.topo" "file:$DIR/rand4.topo" "file:$DIR/rand5.topo"
  "file:$DIR/direct0.topo" "file:$DIR/direct1.topo" "file:$DIR/direct2.topo" "file:$DIR/direct3.topo"
  torus:4x4 torus:8x8 torus:3x5 torus:4x4x4 mesh:4x4 mesh:3x5 mesh:8x8 ring:7 torus:16x16)
same=0 diff=0 refused=0
for topo in "${TOPOS[@]}"; do
  for algo in multitree ring ring2d dbtree hd hdrm; do
    o="$DIR/old.json" n="$DIR/new.json"
    rm -f "$o" "$n"
    "$OLD" plan --topo "$topo" --algo "$algo" --bytes 1M --json "$o" >/dev/null 2>"$DIR/old.err"; ro=$?
    "$NEW" plan --topo "$topo" --algo "$algo" --bytes 1M --json "$n" >/dev/null 2>"$DIR/new.err"; rn=$?
    if [ $ro -ne $rn ]; then
      echo "DIFF $topo $algo: exit $ro (old) vs $rn (new)"; diff=$((diff + 1))
    elif [ $ro -ne 0 ]; then
      if cmp -s "$DIR/old.err" "$DIR/new.err"; then refused=$((refused + 1)); else echo "DIFF $topo $algo: messages differ"; diff=$((diff + 1)); fi
    elif cmp -s "$o" "$n"; then
      [ "$algo" = multitree ] && echo "same $topo $algo ($(stat -c %s "$n") bytes)"
      same=$((same + 1))
    else
      echo "DIFF $topo $algo: $(cmp "$o" "$n" | head -1)"; diff=$((diff + 1))
    fi
  done
done
echo "plan_identical: $same identical, $refused refused alike, $diff different"
[ $diff -eq 0 ]
