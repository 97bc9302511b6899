#!/usr/bin/env bash
# gen_workload_cycles.sh [MODEL...]: the per-layer compute cycle tables workloads/cycles/<model>.csv
# from SCALE-Sim (PyPI scalesim 3.0.0, output stationary, one 32x32 array, ample bandwidth;
# docs/reference/training.md), with <model>.agree.csv comparing it with the C formula per GEMM. Optional
# data generation: make test never needs it. A GEMM whose formula exceeds CAP cycles is not run
# (scalesim simulates some 6,000 cycles a second here); its layer then takes the formula.
# Env: VENV (default build/venv-scalesim), CAP (default 200000), MODELS (default: all workloads).
set -eu
cd "$(dirname "$0")/.."
VENV=${VENV:-build/venv-scalesim}
CAP=${CAP:-200000}
if [[ ! -x $VENV/bin/python ]] || ! "$VENV/bin/python" -c 'import scalesim' 2>/dev/null; then
  python3 -m venv "$VENV"
  # scalesim 3.0.0 fails under numpy 2 (int() of a 1-element array), so numpy 1.26
  "$VENV/bin/pip" install -q scalesim==3.0.0 "numpy<2" "pandas<2.3"
fi
models=${*:-$(ls workloads/*.csv | xargs -n1 basename | sed 's/\.csv$//')}
for m in $models; do nice -n 10 "$VENV/bin/python" scripts/gen_workload_cycles.py workloads "$m" "$CAP"; done
