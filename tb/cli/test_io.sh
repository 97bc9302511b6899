#!/usr/bin/env bash
# test_io.sh: output files are written whole or not at all, and inputs are read within a bound
# (cmodel/util/mt_io.c). A failed write leaves the path as it was: a character device stays a
# device (mknod c 1 7, the /dev/full node), a regular file keeps its old contents (the write made
# to fail by a file size limit), and no temporary file is left beside it. A write error on
# standard output exits non-zero with one message. /dev/zero and a one-line 200 MB file given as
# a topology, a configuration, a training cache or a workload are refused within 10 s.
set -u
bin=${MT_BIN:-build/multitree}
source "$(dirname "$0")/lib_refuse.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plan=(plan --topo torus:4x4 --algo ring --bytes 1K)

# one failed write into a path ($1: what is there before, 'dev' or 'file'), by command args
failed_write() {
  local kind=$1 name=$2
  shift 2
  local p="$tmp/w/$name" before after
  rm -rf "$tmp/w" && mkdir "$tmp/w"
  if [[ $kind == dev ]]; then
    if ! mknod "$p" c 1 7 2>/dev/null; then
      echo "SKIP: mknod failed (not root?): $name into a device"
      return
    fi
    before=$(stat -c '%F %t,%T' "$p")
  else
    echo old >"$p"
    before=old
  fi
  local args=("${@//@/$p}")
  if [[ $kind == dev ]]; then
    out=$("$bin" "${args[@]}" 2>&1 >/dev/null)
    rc=$?
  else
    out=$(trap '' XFSZ; ulimit -f 8; "$bin" "${args[@]}" 2>&1 >/dev/null)
    rc=$?
  fi
  [[ $rc -ne 0 ]] && ok || bad "$name ($kind): exit 0 on a failed write"
  if [[ $kind == dev ]]; then after=$(stat -c '%F %t,%T' "$p" 2>&1); else after=$(cat "$p" 2>&1); fi
  [[ $after == "$before" ]] && ok || bad "$name ($kind): the path was '$before', is now '${after:0:60}' ($(head -1 <<<"$out"))"
  local left
  left=$(ls -A "$tmp/w" | grep -vxF "$name")
  [[ -z $left ]] && ok || bad "$name ($kind): left beside it: $left"
}
# (the file size limit, 8 KiB, fails only the outputs longer than that)
for kind in dev file; do
  failed_write $kind s.json "${plan[@]}" --json @
  failed_write $kind s.dot "${plan[@]}" --dot @
  failed_write $kind trace.txt sim --topo torus:4x4 --algo ring --bytes 4K --trace @
done
failed_write dev bound.json bound --topo torus:4x4 --bytes 1M --json @
failed_write dev sim.json sim --topo torus:4x4 --algo ring --bytes 1K --json @
failed_write dev flow.json sim --topo torus:4x4 --algo ring --bytes 1K --level flow --json @
# a ROM directory's images and layout.json: each failed write leaves the device in place
if mknod "$tmp/probe" c 1 7 2>/dev/null; then
  mkdir -p "$tmp/rom" && mknod "$tmp/rom/layout.json" c 1 7 && mknod "$tmp/rom/node0.hex" c 1 7
  "$bin" rom --topo torus:4x4 --algo ring --bytes 1K --format hex --out "$tmp/rom" >/dev/null 2>&1 && bad "rom into /dev/full nodes: exit 0" || ok
  [[ -c $tmp/rom/node0.hex && -c $tmp/rom/layout.json ]] && ok || bad "rom: a device node was replaced or removed: $(ls -l "$tmp/rom" | head -3)"
  mkdir -p "$tmp/dump" && mknod "$tmp/dump/node0.in.bin" c 1 7
  "$bin" sim --topo torus:4x4 --algo ring --bytes 1K --dump-dir "$tmp/dump" >/dev/null 2>&1 && bad "--dump-dir into a /dev/full node: exit 0" || ok
  [[ -c $tmp/dump/node0.in.bin && -z $(ls -A "$tmp/dump" | grep tmp) ]] && ok || bad "--dump-dir: $(ls -l "$tmp/dump" | head -3)"
else
  echo "SKIP: mknod failed (not root?): rom into devices"
fi
# a successful write replaces a regular file, follows a symbolic link, and writes into a FIFO
mkdir -p "$tmp/ok" && echo old >"$tmp/ok/t.json" && ln -s t.json "$tmp/ok/l.json"
"$bin" "${plan[@]}" --json "$tmp/ok/l.json" >/dev/null 2>&1 || bad "--json through a link: exit $?"
[[ -L $tmp/ok/l.json ]] && grep -q multitree-schedule "$tmp/ok/t.json" && ok || bad "--json through a link: $(ls -l "$tmp/ok")"
[[ $(ls -A "$tmp/ok" | wc -l) -eq 2 ]] && ok || bad "--json: left: $(ls -A "$tmp/ok")"
if mkfifo "$tmp/ok/fifo"; then
  cat "$tmp/ok/fifo" >"$tmp/ok/from_fifo" &
  timeout 10 "$bin" "${plan[@]}" --json "$tmp/ok/fifo" >/dev/null 2>&1 || bad "--json into a FIFO: exit $?"
  wait
  [[ -p $tmp/ok/fifo ]] && grep -q multitree-schedule "$tmp/ok/from_fifo" && ok || bad "--json into a FIFO: $(ls -l "$tmp/ok")"
fi
# standard output on a full device: non-zero exit and one message
for args in "sizes" "--help" "train --help" "plan --topo torus:4x4 --algo ring --bytes 1K --print" "bound --topo torus:4x4 --bytes 1M" \
  "sim --topo torus:4x4 --algo ring --bytes 1K" "check $tmp/ok/t.json"; do
  # shellcheck disable=SC2086
  out=$("$bin" $args 2>&1 >/dev/full)
  rc=$?
  [[ $rc -ne 0 && $out == *"standard output: write error"* ]] && ok || bad "'$args' >/dev/full: rc $rc: $(tail -1 <<<"$out")"
done
# --json /dev/stdout into a pipe (a link realpath cannot resolve): the whole file, exit 0
n=$("$bin" plan --topo torus:4x4 --algo ring --bytes 1K --json /dev/stdout 2>"$tmp/err" | grep -c multitree-schedule; exit "${PIPESTATUS[0]}")
rc=$?
[[ $rc -eq 0 && $n -ge 1 && ! -s $tmp/err ]] && ok || bad "--json /dev/stdout into a pipe: rc $rc, $(head -1 "$tmp/err")"
# inputs without bound: refused within 10 s naming the file
head -c 200000000 /dev/zero | tr '\0' 'x' >"$tmp/long.topo"
run10() { # want, args...
  local want=$1
  shift
  out=$(ulimit -v 200000; timeout 10 "$bin" "$@" 2>&1 >/dev/null) # 200 MB: an unbounded read stops
  rc=$?
  [[ $rc -eq 2 && $out == *"$want"* ]] && ok || bad "$* -> rc $rc: $(head -1 <<<"$out") (want '$want')"
}
run10 "/dev/zero:1:" plan --topo file:/dev/zero --algo ring --bytes 1K
run10 "/dev/zero:1:" plan --topo dimsfile:/dev/zero --algo ring --bytes 1K
run10 "long.topo:1: line longer than" plan --topo "file:$tmp/long.topo" --algo ring --bytes 1K
cp "$tmp/long.topo" "$tmp/long.yaml"
run10 "long.yaml:1: line longer than" plan --topo "dimsfile:$tmp/long.yaml" --algo ring --bytes 1K
run10 "/dev/zero: longer than" sim --topo torus:4x4 --algo ring --bytes 1K --config /dev/zero
run10 "/dev/zero: a line longer than 600 bytes (not a cache)" train --model tb/train/toy.csv --topo torus:4x4 --algo ring --level flow --cache /dev/zero
run10 "/dev/zero:1: line longer than" train --model /dev/zero --topo torus:4x4 --algo ring --cache none
run10 "/dev/zero:1:" check /dev/zero
echo "RESULT test_io_cli pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
