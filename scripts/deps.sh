#!/usr/bin/env bash
# deps.sh [fuzz|fpga]: install what the project needs from Debian packages (as root),
# or print the exact command and stop (not root). Quiet when all is present.
# `fuzz`: also clang and its libFuzzer runtime (make fuzz, docs/reference/fuzz.md).
# `fpga`: also nextpnr-ice40 and the IceStorm tools (make fpga-tools, docs/reference/fpga.md).
set -u
# command-or-file probe : debian package
need=(
  "cc:gcc" "c++:g++" "make:make" "pkg-config:pkg-config"
  "verilator:verilator" "iverilog:iverilog" "yosys:yosys" "yosys-smtbmc:yosys"
  "z3:z3" "gnuplot:gnuplot-nox" "python3:python3" "clang-format:clang-format"
  "/usr/include/jansson.h:libjansson-dev" "/usr/include/zlib.h:zlib1g-dev"
  "parallel:parallel" "gtkwave:gtkwave" "ccache:ccache"
)
# Debian 12: clang is clang-14; libFuzzer (libclang_rt.fuzzer) is in libclang-rt-14-dev, which
# clang does not pull in
[[ ${1-} == fuzz ]] && need+=("clang:clang" "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev")
[[ ${1-} == fpga ]] && need+=("nextpnr-ice40:nextpnr-ice40" "icepack:fpga-icestorm" "icetime:fpga-icestorm")
missing=()
for pair in "${need[@]}"; do
  probe=${pair%%:*}; pkg=${pair#*:}
  if [[ $probe == /* ]]; then compgen -G "$probe" >/dev/null && continue
  else command -v "$probe" >/dev/null 2>&1 && continue; fi
  [[ " ${missing[*]-} " == *" $pkg "* ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "deps: missing Debian packages: ${missing[*]}" >&2
  echo "deps: run as root:  apt-get update && $cmd" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null 2>&1 || echo "deps: apt-get update reported problems; trying install anyway" >&2
if ! $cmd >/tmp/multitree-deps.log 2>&1; then
  echo "deps: '$cmd' failed; log in /tmp/multitree-deps.log" >&2; tail -20 /tmp/multitree-deps.log >&2; exit 1
fi
exit 0
