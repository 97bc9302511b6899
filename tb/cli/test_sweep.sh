#!/usr/bin/env bash
# test_sweep.sh BIN: scripts/paper.sh through GNU parallel (docs/reference/sweeps.md), a few seconds.
# (1) a 3-run sweep (torus:2x2, 32 KiB: Ring, DBTree, MultiTreeMsg) into a temporary OUT: exit
#     0, a job-log line and a fig9.csv row per run, each row's cycles those of its run's JSON;
# (2) a second call runs nothing (job log and JSONs untouched); without the job log the
#     runs newer than BIN are kept;
# (3) kill and resume: a sweep with a slowed BIN killed after its first result; the next call
#     runs only the runs without a result;
# (4) the Slurm array script: --array=1-3; task 2 run by hand, then --merge says 1 of 3 and
#     exits 1; tasks 1 and 3 by hand, --merge: fig9.csv equal to (1)'s;
# (5) another host: SSHLOGINS with a stand-in ssh that runs the command here in an empty
#     environment (only what --env carries): fig9.csv equal to (1)'s;
# (6) the row check fails on (1)'s fig9.csv with a row dropped.
# PAPER_SH: the script under test (default scripts/paper.sh; a broken copy must fail here).
set -u
bin=$(realpath "${1:-build/multitree}")
paper=$(realpath "${PAPER_SH:-scripts/paper.sh}")
tmp=$(mktemp -d /tmp/test_sweep.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok: $*"; }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
export FIG9_TOPOS=torus:2x2 FIG9_SIZES=32K VARIANTS="ring:packet dbtree:packet multitree:message" FIG9SW_TOPOS= FIG10_TOPOS= JOBS=2
want="torus:2x2,dbtree,packet,32768 torus:2x2,multitree,message,32768 torus:2x2,ring,packet,32768"

# check_csv OUT: OUT/fig9.csv holds exactly the rows of $want (in that order), each correct,
# with the cycles of its run's JSON
check_csv() {
  local csv=$1/fig9.csv rows got cyc json
  rows=$(tail -n +2 "$csv" | cut -d, -f1-4 | tr '\n' ' ')
  [[ $rows == "$want " ]] || { echo "  $csv rows: '$rows', expected '$want '"; return 1; }
  while IFS=, read -r t a f b c _ _ got; do
    json=$1/runs/fig9_${t//[:,]/_}_${a}_${f}_$b.json
    cyc=$(sed -n 's/.*"cycles":\([0-9]*\).*/\1/p' "$json")
    [[ $got == true && $c == "$cyc" ]] || { echo "  $csv: $t $a $f $b: cycles $c correct $got, the JSON's cycles '$cyc'"; return 1; }
  done < <(tail -n +2 "$csv")
}
stamps() { stat -c '%n %y' "$1"/runs/*.json; }

# (1) the sweep
o1=$tmp/o1
OUT=$o1 "$paper" "$bin" >"$tmp/1.log" 2>&1; rc=$?
if [[ $rc -eq 0 && $(grep -c '^ok ' "$tmp/1.log") -eq 3 && $(tail -n +2 "$o1/joblog" | awk -F'\t' '$7 == 0' | wc -l) -eq 3 ]] && check_csv "$o1"; then
  ok "3-run sweep through GNU parallel: exit 0, 3 job-log lines with exit 0, fig9.csv rows and cycles"
else bad "3-run sweep (exit $rc): $(tail -3 "$tmp/1.log")"; fi

# (2) resume: nothing runs again
s0=$(stamps "$o1"); j0=$(cat "$o1/joblog")
OUT=$o1 "$paper" "$bin" >"$tmp/2.log" 2>&1; rc=$?
if [[ $rc -eq 0 && $(cat "$o1/joblog") == "$j0" && $(stamps "$o1") == "$s0" ]] && ! grep -q '^ok \|^kept ' "$tmp/2.log" && check_csv "$o1"; then
  ok "second call: job log unchanged, no run started, JSONs untouched"
else bad "second call (exit $rc) reran runs: $(grep '^ok \|^kept ' "$tmp/2.log" | head -3)"; fi
rm "$o1/joblog"
OUT=$o1 "$paper" "$bin" >"$tmp/2b.log" 2>&1
if [[ $(grep -c '^kept ' "$tmp/2b.log") -eq 3 && $(stamps "$o1") == "$s0" ]]; then ok "without the job log: 3 runs kept (newer than BIN)"
else bad "without the job log: $(grep -c '^kept ' "$tmp/2b.log") runs kept, expected 3"; fi

# (3) kill and resume, with a BIN that takes a second a run
printf '#!/bin/sh\nsleep 1\nexec %q "$@"\n' "$bin" >"$tmp/slow" && chmod +x "$tmp/slow"
o3=$tmp/o3
set -m   # the sweep in a process group of its own, killed whole
JOBS=1 OUT=$o3 "$paper" "$tmp/slow" >"$tmp/3.log" 2>&1 &
pid=$!
set +m
for _ in $(seq 100); do compgen -G "$o3/runs/*.json" >/dev/null && break; sleep 0.1; done
kill -TERM -- -"$pid"; wait "$pid" 2>/dev/null
done1=$(cd "$o3/runs" && ls -- *.json 2>/dev/null | wc -l); s3=$(stamps "$o3" 2>/dev/null)
OUT=$o3 "$paper" "$tmp/slow" >"$tmp/3b.log" 2>&1; rc=$?
ran=$(grep -c '^ok ' "$tmp/3b.log")
if [[ $done1 -ge 1 && $done1 -lt 3 && $rc -eq 0 && $ran -eq $((3 - done1)) && $(stamps "$o3" | grep -cFx -f <(printf '%s\n' "$s3")) -eq $done1 ]]; then
  ok "killed after $done1 of 3 runs; the next call ran the other $ran, kept the first"
else bad "kill/resume: $done1 runs before the kill, then $ran runs (exit $rc), expected $((3 - done1))"; fi
if cmp -s "$o1/fig9.csv" "$o3/fig9.csv"; then ok "resumed sweep's fig9.csv equal to (1)'s"; else bad "resumed sweep's fig9.csv differs from (1)'s"; fi

# (4) Slurm: the array script, its tasks run by hand, the merge
o4=$tmp/o4
OUT=$o4 "$paper" --slurm "$bin" >"$tmp/paper.sbatch" 2>"$tmp/4.log"
if grep -qx '#SBATCH --array=1-3' "$tmp/paper.sbatch" && [[ $(wc -l <"$o4/jobs.txt") -eq 3 ]]; then ok "Slurm script: --array=1-3 over 3 job lines"
else bad "Slurm script: $(grep "^#SBATCH --array" "$tmp/paper.sbatch"), $(wc -l <"$o4/jobs.txt") job lines"; fi
SLURM_ARRAY_TASK_ID=2 bash "$tmp/paper.sbatch" >>"$tmp/4.log" 2>&1
OUT=$o4 "$paper" --merge >"$tmp/4m.log" 2>&1; rc=$?
if [[ $rc -ne 0 ]] && grep -q "1 of 3 runs" "$tmp/4m.log" && [[ $(tail -n +2 "$o4/fig9.csv" | cut -d, -f2) == dbtree ]]; then
  ok "task 2 alone: merge exits $rc, 1 of 3 runs, the DBTree row"
else bad "task 2 alone: merge exit $rc: $(tail -1 "$tmp/4m.log")"; fi
SLURM_ARRAY_TASK_ID=1 bash "$tmp/paper.sbatch" >>"$tmp/4.log" 2>&1
SLURM_ARRAY_TASK_ID=3 bash "$tmp/paper.sbatch" >>"$tmp/4.log" 2>&1
OUT=$o4 "$paper" --merge >"$tmp/4m.log" 2>&1; rc=$?
if [[ $rc -eq 0 ]] && check_csv "$o4" && cmp -s "$o1/fig9.csv" "$o4/fig9.csv"; then ok "tasks 1-3 by hand, merged: fig9.csv equal to (1)'s"
else bad "tasks 1-3, merge exit $rc: $(tail -1 "$tmp/4m.log")"; fi
if ! SLURM_ARRAY_TASK_ID=4 bash "$tmp/paper.sbatch" >"$tmp/4x.log" 2>&1 && grep -q "has no line 4" "$tmp/4x.log"; then ok "task 4 refused: $(cat "$tmp/4x.log")"
else bad "task 4 of 3: $(cat "$tmp/4x.log")"; fi

# (5) another host: a stand-in ssh, the command run here in an empty environment
printf '#!/bin/bash\nwhile [[ $1 == -* ]]; do shift; done; shift; [[ $1 == -- ]] && shift\nexec env -i PATH=/usr/bin:/bin HOME="$HOME" SHELL=/bin/bash bash -c "$*"\n' >"$tmp/ssh" && chmod +x "$tmp/ssh"
echo "2/$tmp/ssh otherhost" >"$tmp/logins"
o5=$tmp/o5
SSHLOGINS=$tmp/logins OUT=$o5 "$paper" "$bin" >"$tmp/5.log" 2>&1; rc=$?
if [[ $rc -eq 0 && $(tail -n +2 "$o5/joblog" | cut -f2 | sort -u) == "$tmp/ssh otherhost" ]] && cmp -s "$o1/fig9.csv" "$o5/fig9.csv"; then
  ok "SSHLOGINS: 3 runs on the stand-in host, fig9.csv equal to (1)'s"
else bad "SSHLOGINS (exit $rc): $(tail -2 "$tmp/5.log")"; fi

# (6) the row check can fail
sed '$d' "$o1/fig9.csv" >"$tmp/o6.csv"; mkdir -p "$tmp/o6"; cp -r "$o1/runs" "$tmp/o6/"; mv "$tmp/o6.csv" "$tmp/o6/fig9.csv"
if ! check_csv "$tmp/o6" >/dev/null; then ok "a fig9.csv with a row dropped is caught"; else bad "a fig9.csv with a row dropped passed the check"; fi

echo "RESULT t-sweep pass=$pass fail=$fail"
[[ $fail -eq 0 ]]
