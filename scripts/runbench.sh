#!/usr/bin/env bash
# runbench.sh NAME TIMEOUT CMD...: run one bench, keep its log, write build/results/NAME.result
# ("passed failed seconds").
# A bench prints one or more lines 'RESULT <name> pass=N fail=M' (anything after, such as
# "(TIMEOUT)", is allowed); they are summed.
# No RESULT line, a non-zero exit, a crash or a timeout each count as (at least) one failure.
set -u
name=$1; tmo=$2; shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$top/build/results" "$top/build/logs"
log="$top/build/logs/$name.log"
start=$(date +%s)
timeout "$tmo" "$@" >"$log" 2>&1; rc=$?
secs=$(( $(date +%s) - start ))
read -r p f < <(grep -E '^RESULT [^ ]+ pass=[0-9]+ fail=[0-9]+( .*)?$' "$log" |
  awk '{split($3,a,"="); split($4,b,"="); p+=a[2]; f+=b[2]} END {print p+0, f+0}')
why=""
if [[ $rc -eq 124 ]]; then why="timeout after ${tmo}s"; f=$((f+1))
elif [[ $rc -ne 0 && $f -eq 0 ]]; then why="exit code $rc"; f=1
elif ! grep -qE '^RESULT ' "$log"; then why="no RESULT line"; f=$((f+1)); fi
echo "$p $f $secs" >"$top/build/results/$name.result"
printf '  %-36s %7d passed %4d failed %4d s %s\n' "$name" "$p" "$f" "$secs" "${why:+($why)}"
if [[ $f -ne 0 ]]; then echo "  --- last lines of build/logs/$name.log ---"; tail -15 "$log" | sed 's/^/  | /'; fi
exit 0
