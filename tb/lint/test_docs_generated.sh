#!/usr/bin/env bash
# test_docs_generated.sh [BIN]: the generated reference pages docs/reference/cli.md and
# config.md are what scripts/gen_docs.sh writes from the built tool (BIN, default
# build/multitree); and the comparison catches stale copies on purpose: a help line edited by
# hand, a configuration key missing, a subcommand missing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$top/build/multitree}
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

"$top/scripts/gen_docs.sh" "$bin" "$tmp/gen" || { echo "RESULT docs_generated pass=0 fail=1"; exit 1; }
# same DIR: 0 when DIR's cli.md and config.md are the generator's output, else the diff and 1
same() {
  local rc=0 page
  for page in cli.md config.md; do
    diff -u "$1/$page" "$tmp/gen/$page" >"$tmp/diff.$page" 2>&1 || rc=1
  done
  return $rc
}
if same "$top/docs/reference"; then ok "docs/reference/cli.md and config.md are up to date"
else bad "docs/reference/cli.md or config.md is stale: run make docs-gen"; cat "$tmp"/diff.*; fi

# stale NAME SED_ON_CLI SED_ON_CONFIG: a copy edited so, must be found different
stale() {
  rm -rf "$tmp/s"; mkdir -p "$tmp/s"; cp "$tmp/gen/cli.md" "$tmp/gen/config.md" "$tmp/s/"
  sed -i "$2" "$tmp/s/cli.md"; sed -i "$3" "$tmp/s/config.md"
  if same "$tmp/s"; then bad "$1: not caught"; else ok "$1: caught ($(grep -h '^[-+][^-+]' "$tmp"/diff.* | head -1 | cut -c1-70))"; fi
}
stale "a help line edited by hand"  's/Prove a schedule correct/Prove a schedule/' ''
stale "a configuration key missing" '' '/^| `ni_chain`/d'
stale "a subcommand missing"        '/^## multitree bound/,/^```$/d' ''

echo "RESULT docs_generated pass=$p fail=$f"
[[ $f -eq 0 ]]
