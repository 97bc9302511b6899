#!/usr/bin/env bash
# test_lint_docs.sh: the docs lint (scripts/lint_docs.sh) passes the tree and fails copies of
# the docs broken on purpose: each kind of work-diary line (a round, a session, a helper, a load
# figure, a reverted attempt, an issue heading, a date outside the "Measured YYYY-MM-DD on" line
# of a results page), each form of the work's own version control and clock (a branch or a
# worktree of the work, "main before", a /work/ path, a /tmp/ path outside a command, a commit
# hash outside code, a time of day), a link to a missing file, a link to a missing heading, and a code comment
# that names a docs path that does not exist, and a quoted section name that no heading of the
# page has. The allowed run line of a results page passes.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
lint=$top/scripts/lint_docs.sh
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

if "$lint" "$top" >"$tmp/out" 2>&1; then ok "the tree passes ($(tail -1 "$tmp/out"))"; else bad "the tree fails:"; grep -v "^RESULT" "$tmp/out"; fi

# a copy of the docs (and of one script, for the code-path rule)
fresh() {
  rm -rf "$tmp/c"; mkdir -p "$tmp/c/scripts" "$tmp/c/tb"
  cp "$top/tb/README.md" "$tmp/c/tb/"
  cp -r "$top/docs" "$tmp/c/"
  for m in README.md CONTRIBUTING.md CHANGELOG.md; do [[ -f $top/$m ]] && cp "$top/$m" "$tmp/c/"; done
  cp "$top/scripts/bench_rtl.sh" "$tmp/c/scripts/"
}
# broken NAME FILE TEXT WANT: TEXT appended to FILE of a fresh copy must fail with WANT
broken() {
  fresh; mkdir -p "$(dirname "$tmp/c/$2")"; printf '%s\n' "$3" >>"$tmp/c/$2"
  if "$lint" "$tmp/c" >"$tmp/out" 2>&1; then bad "$1: lint passed"; return; fi
  if grep -qF "$2:" "$tmp/out" && grep -qF "$4" "$tmp/out"; then ok "$1: $(grep -F "$4" "$tmp/out" | head -1)"
  else bad "$1: message does not name $2 / '$4'"; grep -v "^RESULT" "$tmp/out"; fi
}
broken "a round heading"           docs/reference/ni.md      '### Second round: the router for Verilator' "a work round"
broken "a session"                 docs/reference/planner.md 'Measured beside two other sessions.'       "a session"
broken "a helper"                  docs/guide/new.md         'The helper branch moved this.'             "a helper"
broken "a load average"            docs/results/bench.md     '# bench-rtl on 2 cores, load average 2.91 2.80' "a load figure"
broken "a load figure"             docs/results/area.md      'Run at nice 10 (load 3-7).'                "a load figure"
broken "a reverted attempt"        docs/reference/router.md  'A wider arbiter was tried and reverted.'   "a reverted attempt"
broken "an issue heading"          docs/reference/switch.md  '## Switch networks (issue #13)'            "an issue number"
broken "a dated heading"           docs/reference/network.md '## Measurements (2026-11-22)'              "a date"
broken "a date on a results page"  docs/results/bench.md     'Current numbers (2026-11-22, merged tree)' "a date"
broken "a Measured line, wrong form" docs/results/bench.md   'Measured on 2026-11-22 on 2 cores.'        "a date"
broken "this branch"               docs/results/bench.md     '| | this branch (final) | 1.24 |'             "a branch or worktree of the work"
broken "a named branch"            docs/results/bucket.md    'Bucket on torus:4x8 (branch `nonsquare`).'  "a branch or worktree of the work"
broken "main before"               docs/results/bucket.md    'the binary of main before the estimate'    "a branch or worktree of the work"
broken "a worktree"                docs/reference/ni.md      'built in a separate worktree'              "a branch or worktree of the work"
broken "a /work/ path"             docs/reference/golden.md  '    GOLDEN_REF_TREE=/work/base make golden' "a path of the project machine"
broken "a /tmp/ path in prose"     docs/results/flowsim.md   'the runs of `/tmp/flowfix/val` were kept'  "a scratch path outside a command"
broken "a commit hash as a version" docs/results/bench.md    '| `make bench-planner` | ade92ee (main before) | 21.12 |' "a commit hash"
broken "a time of day"             docs/results/reliability.md 'run 13:55-14:08 beside a make test'      "a time of day"
broken "a time with a zone"        docs/results/reliability.md 'started 04:43 UTC on 2 cores'            "a time of day"
broken "a link to a missing file"  docs/reference/ni.md      'See [the old page](../ni.md).'             "link to a missing file: ../ni.md"
broken "a link to a missing heading" docs/reference/ni.md    'See [limits](router.md#no-such-heading).'  "link to a missing heading: router.md#no-such-heading"
broken "a code comment names a missing page" scripts/bench_rtl.sh '# see docs/bench.md "Results"'  "names a missing docs path: docs/bench.md"
broken "a comment names a missing section" scripts/bench_rtl.sh '# see docs/results/bench.md "Second round"' 'names a missing section of docs/results/bench.md: "Second round"'
broken "a page names a missing section"    docs/reference/ni.md 'See docs/reference/router.md "No such rule".' 'names a missing section of docs/reference/router.md: "No such rule"'

# clean NAME FILE: the lint of the copy reports nothing on FILE (findings elsewhere in the tree
# are the first check's business)
clean() {
  "$lint" "$tmp/c" >"$tmp/out" 2>&1
  if grep -qF "$2:" "$tmp/out"; then bad "$1:"; grep -F "$2:" "$tmp/out"; else ok "$1"; fi
}
# the allowed run line of a results page passes
fresh; printf '%s\n' 'Measured 2026-11-24 on the 2-core AMD EPYC machine (Verilator 5.006).' >>"$tmp/c/docs/results/bench.md"
clean "a 'Measured YYYY-MM-DD on' line of a results page passes" docs/results/bench.md
# the legitimate uses of the words and forms the work-history rules look for pass
fresh; printf '%s\n' '' 'The no-route flags are in a generate branch (`Table = 1`); the 5x5 branch of' \
  'googlenet; bits [23:16]; the 65:80 flit ratio; `make golden GOLDEN_REF=5c3eebf`.' '' \
  '    scripts/paper.sh OUT=/tmp/sweeps-doc      # a scratch directory in a command' '' \
  '```' 'python3 scripts/flow_vs_cycle.py build/multitree docs/results/fig9.csv /tmp/fig9_flow.csv' '```' \
  >>"$tmp/c/docs/reference/switch.md"
clean "generate branch, 5x5 branch, bit range, hash in code, /tmp/ in a command pass" docs/reference/switch.md
# ... but not on a reference page
broken "a Measured line on a reference page" docs/reference/ni.md 'Measured 2026-11-24 on 2 cores.' "a date"

echo "RESULT lint_docs_test pass=$p fail=$f"
[[ $f -eq 0 ]]
