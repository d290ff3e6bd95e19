#!/usr/bin/env bash
# Installs every build/test dependency from Debian's packages and builds mbsweep.
# Idempotent; run as root (or with sudo available) on a fresh Debian 12 machine.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang-14 and libclang-rt-14-dev (libFuzzer's runtime): the fuzz preset (scripts/fuzz.sh).
# libopenmpi-dev and openmpi-bin (mpirun): studies over MPI ranks and their test.
PKGS=(cmake g++ make libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev libmuparser-dev
      libyaml-cpp-dev libcli11-dev nlohmann-json3-dev clang-14 libclang-rt-14-dev
      libopenmpi-dev openmpi-bin python3-dev python3-venv)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

BUILD_DIR="${MBSWEEP_BUILD_DIR:-build}"
# The Python package (pyproject.toml: scikit-build-core and pybind11 from PyPI) into a virtual
# environment in the build folder, where the tests find it; CPU and MPI, without CUDA, to keep
# the set-up short (a plain `pip install .` detects CUDA as the C++ build does). The 'plot' extra
# adds matplotlib: mbsweep plot runs this environment's Python (MBSWEEP_PLOT_PYTHON below).
# The Python that creates the environment: $MBSWEEP_SETUP_PYTHON (not $MBSWEEP_PYTHON, which names
# the interpreter of `mbsweep plot` at run time).
PYTHON="${MBSWEEP_SETUP_PYTHON:-python3}"
[ -x "$BUILD_DIR/python-venv/bin/python" ] || "$PYTHON" -m venv "$BUILD_DIR/python-venv"
CMAKE_BUILD_PARALLEL_LEVEL="${MBSWEEP_JOBS:-2}" "$BUILD_DIR/python-venv/bin/python" -m pip install --quiet ".[plot]" \
  -C cmake.define.MBSWEEP_ENABLE_CUDA=OFF -C build-dir="$BUILD_DIR/python-build"
# Exudyn, against whose own runs the tests check models converted with mbsweep.from_exudyn
"$BUILD_DIR/python-venv/bin/python" -m pip install --quiet "exudyn>=1.13"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release \
  -DMBSWEEP_PLOT_PYTHON="$(cd "$BUILD_DIR" && pwd)/python-venv/bin/python" ${MBSWEEP_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "${MBSWEEP_JOBS:-2}"
