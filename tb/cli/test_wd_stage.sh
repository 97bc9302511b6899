#!/usr/bin/env bash
# test_wd_stage.sh: a watchdog stop means a deadlock, also while NI stagers clear jams one after
# another (docs/reference/ni.md "Errors and the watchdog"). FlexReduce on dgx2 with messages
# jams at 256 B, 1 KiB, 2 KiB and 4 KiB; the NIs' stagers clear it in two or three rounds of
# T cycles each, and every size must finish with "result correct on every node" under the
# default watchdog (it stopped near cycle 22k on error 11 when the limits allowed one round).
# A real deadlock with the stagers on must still stop on the watchdog: DBTree with packets on
# fattree:4,2 when the stager has 2 ranges (docs/reference/switch.md "Packet-mode DBTree"). And the
# stager off with wd_limit=0 must give the same cycles as before (the limits change nothing else).
set -u
bin=${1:-build/multitree}
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
for b in 256 1024 2048 4096; do
  out=$("$bin" sim --topo dgx2 --algo flexreduce --bytes "$b" --flow message 2>&1 | grep -v '^sim: cycle')
  if grep -q "result correct on every node" <<<"$out" && ! grep -q "error 11" <<<"$out"; then
    ok "dgx2 flexreduce $b B: $(grep -o '[0-9]* cycles, ' <<<"$out" | head -1)$(grep -o '[0-9]* units staged out at [0-9]* nodes' <<<"$out")"
  else
    bad "dgx2 flexreduce $b B: $(head -1 <<<"$out")"
  fi
done
# the same runs without the watchdog take the same cycles at 2 KiB (T is the capped value with
# the watchdog on: 10,943; without it 20,000, so compare at the same T)
w=$("$bin" sim --topo dgx2 --algo flexreduce --bytes 2048 --flow message --set wd_limit=0 --set ni_stage_after=10943 2>&1 | grep -o '^sim: .*: [0-9]* cycles' | grep -o '[0-9]* cycles$')
d=$("$bin" sim --topo dgx2 --algo flexreduce --bytes 2048 --flow message 2>&1 | grep -o '^sim: .*: [0-9]* cycles' | grep -o '[0-9]* cycles$')
if [[ -n $w && $w == "$d" ]]; then ok "2 KiB with the watchdog off at the same T: $w, default $d"; else bad "2 KiB: watchdog off '$w', default '$d'"; fi
out=$("$bin" sim --topo fattree:4,2 --algo dbtree --bytes 32K --config paper --flow packet --set ni_stage_ranges=2 2>&1 | grep -v '^sim: cycle' | head -1)
if grep -qF "stopped with error 11 (watchdog)" <<<"$out"; then ok "a real deadlock with the stager on: $out"; else bad "fattree:4,2 dbtree 32 KiB packets, 2 ranges: expected the watchdog, got: $out"; fi
echo "RESULT wd_stage pass=$pass fail=$fail"
