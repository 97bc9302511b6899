#!/usr/bin/env bash
# test_run_guide.sh: the guide's runner (tb/docs/run_guide.py) must pass a good page and catch
# broken copies of one: a command that now fails, an output line that no longer appears, a
# block that hangs, a page it cannot parse, a link to a missing file or heading; and its
# directives must do what they say (skip, sub, expect, exit). Runs on copies of docs/guide/getting-started.md and on small pages
# written here. Prints RESULT t-docs-selftest pass=N fail=M.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
run="python3 $top/tb/docs/run_guide.py --build ${BUILD:-$top/build}"
page=$top/docs/guide/getting-started.md
p=0; f=0
ok()  { echo "ok   $1"; p=$((p+1)); }
bad() { echo "FAIL $1"; f=$((f+1)); }
tmp0=$(mktemp -d); trap 'rm -rf "$tmp0"' EXIT
# the pages beside copies of the guide, so that their relative links resolve as in docs/guide/
tmp=$tmp0/guide; mkdir -p "$tmp"; cp "$top"/docs/guide/*.md "$tmp"/

# expect NAME PAGE PASS FAIL [GREP]: the runner on PAGE reports PASS passed and FAIL failed
# blocks (and prints a line matching GREP)
expect() {
  local name=$1 pg=$2 wp=$3 wf=$4 re=${5-} out
  out=$($run --scratch "$tmp0/scratch" --name x "$pg" 2>&1)
  local got; got=$(grep '^RESULT x ' <<<"$out")
  if [[ $got != "RESULT x pass=$wp fail=$wf" ]]; then bad "$name: '$got', expected pass=$wp fail=$wf"; echo "$out" | sed 's/^/  | /'; return; fi
  if [[ -n $re ]] && ! grep -qE -- "$re" <<<"$out"; then bad "$name: no line matching '$re'"; echo "$out" | sed 's/^/  | /'; return; fi
  ok "$name: $got${re:+ ($(grep -E -m1 -- "$re" <<<"$out" | cut -c1-90))}"
}
# copy of the page with one sed edit, which must change it
broken() {
  sed "$1" "$page" >"$tmp/$2.md"
  cmp -s "$page" "$tmp/$2.md" && { bad "$2: the edit '$1' no longer applies to $page"; return 1; }
  return 0
}

cp "$page" "$tmp/good.md"
n=$(grep -c '^```sh' "$page"); s=$(grep -c '^<!-- t-docs: skip' "$page")
expect "the page as it is" "$tmp/good.md" $((n - s + 1)) 0 '^SKIP .*the whole test suite'
# a command that fails now (a file that is not there)
broken 's/^multitree check s.json$/multitree check missing.json/' failing_cmd &&
  expect "a failing command" "$tmp/failing_cmd.md" $((n - s)) 1 'FAIL .*exit status [0-9]+, expected 0'
# an output line that no longer appears (the cycle count changed)
broken 's/config small: 11676 cycles/config small: 11677 cycles/' changed_output &&
  expect "an output line that changed" "$tmp/changed_output.md" $((n - s)) 1 "expected output not found: 'sim: multitree on torus:4x4"
# the lines of a text block must appear in order
broken '/^sim: multitree on torus:4x4, 262144 bytes/{h;d};/^sim: 10 steps; link utilisation/{p;x}' swapped_lines &&
  expect "text lines out of order" "$tmp/swapped_lines.md" $((n - s)) 1 "expected output not found: 'sim: multitree on torus:4x4"

# directives, on small pages
cat >"$tmp/directives.md" <<'EOF'
<!-- t-docs: sub 64M => 1M -->
<!-- t-docs: expect size 1M -->
```sh
echo "size 64M"
```

```text
size 64M
```

<!-- t-docs: exit 3 -->
```sh
echo before; exit 3
```

<!-- t-docs: skip not for the test -->
```sh
false
```

```text file=data.txt
alpha ... beta
```

```sh
grep -c alpha data.txt; echo "one two three"
```

```text
1
one ... three
```
EOF
expect "sub, expect, exit, skip, file, '...'" "$tmp/directives.md" 4 0 '^SKIP .*not for the test'
sed 's/expect size 1M/expect size 64M/' "$tmp/directives.md" >"$tmp/sub_applied.md"
expect "sub replaces before the run" "$tmp/sub_applied.md" 3 1 "expected output not found: 'size 64M'"
sed 's/exit 3 -->/exit 0 -->/' "$tmp/directives.md" >"$tmp/wrong_exit.md"
expect "an exit status other than the directive's" "$tmp/wrong_exit.md" 3 1 'exit status 3, expected 0'
printf '<!-- t-docs: timeout 1 -->\n```sh\nsleep 30\n```\n' >"$tmp/hang.md"
t0=$SECONDS
expect "a block that hangs" "$tmp/hang.md" 1 1 'timed out after 1 s'
[[ $((SECONDS - t0)) -lt 10 ]] && ok "the hung block was stopped ($((SECONDS - t0)) s)" || bad "the hung block ran $((SECONDS - t0)) s"
# links: a file and a heading that exist pass; a missing file or heading fails (links in code
# blocks are not links)
printf '# Links\n\n[ok](good.md#what-you-need), [page](good.md)\n\n```sh\necho "[x](missing.md)"\n```\n' >"$tmp/links.md"
expect "links that resolve" "$tmp/links.md" 2 0 '^PASS .*links.md: 2 links \(0 skipped\)'
printf '# Links\n\n[gone](missing.md)\n[anchor](good.md#no-such-heading)\n' >"$tmp/badlinks.md"
expect "a missing file" "$tmp/badlinks.md" 0 1 'link missing.md: no such file'
expect "a missing heading" "$tmp/badlinks.md" 0 1 'link good.md#no-such-heading: no heading with that anchor'
printf '<!-- t-docs: skp typo -->\n```sh\ntrue\n```\n' >"$tmp/typo.md"
expect "an unknown directive" "$tmp/typo.md" 0 1 "unknown t-docs directive 'skp'"
printf '```sh\ntrue\n' >"$tmp/open.md"
expect "an unclosed block" "$tmp/open.md" 0 1 'code block not closed'

echo "RESULT t-docs-selftest pass=$p fail=$f"
