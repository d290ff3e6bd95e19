#!/usr/bin/env bash
# Builds (incrementally) and runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${MBSWEEP_BUILD_DIR:-build}"
[ -f "$BUILD_DIR/CMakeCache.txt" ] || cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release
cmake --build "$BUILD_DIR" -j "${MBSWEEP_JOBS:-2}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${MBSWEEP_JOBS:-2}"
