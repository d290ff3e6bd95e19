#!/usr/bin/env bash
# Installs the build's development component into WORK/prefix, then configures, builds and
# runs tests/install/consumer against it with find_package(mbsweep).
# Usage: install_consumer.sh BUILD_DIR WORK CXX_COMPILER
set -euo pipefail
build="$1"; work="$2"; cxx="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" --component development > "$work/install.log"
test -f "$work/prefix/include/mbsweep/studies/study_file.h"
test -f "$work/prefix/include/mbsweep/item_headers.h"
cmake -S "$here/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/build" -j 2 > "$work/build.log"
"$work/build/consumer"
