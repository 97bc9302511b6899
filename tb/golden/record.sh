#!/usr/bin/env bash
# tb/golden/record.sh REF [BUILD]: regenerate tb/golden/{ni,router}/*.gz from a build of commit
# REF (make golden GOLDEN_REF=REF; docs/reference/golden.md). The recorders are this tree's
# tb/cmodel/hw/test_{ni,router}_golden.c compiled against REF's model: REF's sources come from
# `git archive REF` into BUILD/golden_ref/<sha> and are built there (REF's own Makefile), or,
# with GOLDEN_REF_TREE=/path, from a checked-out tree of REF already built (used as is).
# GOLDEN_BUILD_ONLY=1: only build BUILD/golden_rec/rec_{ni,router} (make bench-ni BENCH_NI_REF=...).
# Commits before the layer folders (cmodel/mt_ni.h) are compiled with -DMT_GOLDEN_FLAT.
set -euo pipefail
ref=${1:?usage: record.sh REF [BUILD]}
build=${2:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
if [ -n "${GOLDEN_REF_TREE:-}" ]; then
  src=$(cd "$GOLDEN_REF_TREE" && pwd)
  sha=$(git -C "$src" rev-parse HEAD)
  [ "$(git rev-parse "$ref^{commit}")" = "$sha" ] || { echo "record.sh: $src is not at $ref" >&2; exit 1; }
  [ -f "$src/build/libmt.a" ] || { echo "record.sh: $src/build/libmt.a missing" >&2; exit 1; }
else
  sha=$(git rev-parse "$ref^{commit}")
  src=$top/$build/golden_ref/$sha
  if [ ! -f "$src/build/libmt.a" ]; then
    rm -rf "$src"; mkdir -p "$src"
    git archive "$sha" | tar -x -C "$src"
    make -C "$src" -j2 build/libmt.a >"$src.build.log" 2>&1 || { tail -20 "$src.build.log"; exit 1; }
  fi
fi
out=$top/$build/golden_rec
mkdir -p "$out/front"
cp tb/cmodel/golden.h tb/cmodel/mt_test.h "$out/front/"
cc=${CC:-cc}
cflags="-std=c11 -Wall -Wextra -Werror -ffp-contract=off -D_POSIX_C_SOURCE=200809L -O2 -I$out/front"
if [ -f "$src/cmodel/mt_ni.h" ]; then   # before the layer folders: flat includes, env in libmt
  inc="-DMT_GOLDEN_FLAT -I$src/cmodel -Itb/cmodel -I$top/cmodel"; libs="$src/build/libmt.a"
else
  [ -f "$src/build/libmttb.a" ] || make -C "$src" build/libmttb.a >>"$src.build.log" 2>&1
  inc="-I$src/tb/cmodel -I$src/cmodel -Itb/cmodel"; libs="$src/build/libmttb.a $src/build/libmt.a"
fi
subject=$(git log -1 --format=%s "$sha" | cut -c1-100)
for m in ni router; do
  # shellcheck disable=SC2086
  $cc $cflags $inc "tb/cmodel/hw/test_${m}_golden.c" tb/cmodel/golden.c $libs -ljansson -lm -lz -o "$out/rec_$m"
  [ -n "${GOLDEN_BUILD_ONLY:-}" ] && continue   # bench-ni/bench-router: the programs only
  rm -rf "tb/golden/$m"; mkdir -p "tb/golden/$m"
  hdr="multitree golden trace ($m), format: tb/cmodel/golden.h, docs/reference/golden.md
reference: commit $sha ($subject)
command: make golden GOLDEN_REF=$ref (tb/golden/record.sh: tb/cmodel/hw/test_${m}_golden.c --record, built against that commit's libmt.a)
recorded: $(date -u +%Y-%m-%dT%H:%MZ)"
  "$out/rec_$m" --record "tb/golden/$m" "$hdr" 2>/dev/null | grep -E '^(ni_golden|router_golden|RESULT)'
done
[ -n "${GOLDEN_BUILD_ONLY:-}" ] || du -sh tb/golden/ni tb/golden/router
