#!/usr/bin/env bash
# Fetches the Debian packages mbsweep builds against into .deps/ (about 3 MB), for a GPU
# machine that has CUDA and a compiler but none of these libraries and cannot download:
# scripts/gpu_check.sh unpacks them under /tmp/mbsweep-deps when .deps/ is present (pass
# .deps as a carried path). Run here, where apt works: bash scripts/gpu_deps.sh
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .deps
cd .deps
rm -f ./*.deb
apt-get download libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev libbenchmark1debian \
  libmuparser-dev libmuparser2v5 libyaml-cpp-dev libyaml-cpp0.7 libcli11-dev nlohmann-json3-dev
du -sh .
