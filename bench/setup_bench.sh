#!/usr/bin/env bash
# Creates the benchmark virtual environment bench/.venv (ignored by git) with Exudyn and
# NumPy, used by bench/compare_exudyn.py and bench/exudyn_reference.py. Idempotent: an
# existing venv that already imports both packages is left as it is.
# Not part of the test command. Usage: bash bench/setup_bench.sh [python-executable]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${1:-${PYTHON:-python3}}"

if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import exudyn, numpy" >/dev/null 2>&1; then
  echo "bench venv ready: $venv (exudyn $("$venv/bin/python" -c 'import exudyn; print(exudyn.__version__)'))"
  exit 0
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "creating $venv with $("$python" --version 2>&1)"
  "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet exudyn numpy
"$venv/bin/python" -c "import exudyn, numpy; print('bench venv ready: $venv (exudyn', exudyn.__version__ + ', numpy', numpy.__version__ + ')')"
