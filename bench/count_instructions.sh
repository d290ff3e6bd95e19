#!/usr/bin/env bash
# Instructions per system-step of the batch loop, `cpu` and `cpu-jit` side by side, counted by
# valgrind's callgrind: a figure that, unlike the rates of bench_batch, does not drift with the
# load of a shared machine. Counts the batch loop proper (RunSystemRange, inclusive), not the
# set-up, the compilation or the thread pool. The compiled models are built for x86-64-v2
# (valgrind runs no AVX-512) in a cache of their own, outside valgrind.
# Not part of the test command; installs valgrind from Debian's packages if it is missing.
# Usage: bash bench/count_instructions.sh [MODELS] [SYSTEMS]
#   MODELS: comma-separated bench_batch models (default oscillator,oscillator-rk44,slidercrank,chain3d)
#   SYSTEMS: systems per batch (default 16)
set -euo pipefail
cd "$(dirname "$0")/.."

models="${1:-oscillator,oscillator-rk44,slidercrank,chain3d}"
systems="${2:-16}"
bench="${MBSWEEP_BUILD_DIR:-build}/bench/bench_batch"
[ -x "$bench" ] || { echo "count_instructions: $bench is missing: run scripts/setup.sh first" >&2; exit 2; }
if ! command -v valgrind >/dev/null; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq valgrind
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export MBSWEEP_JIT_CACHE="$work/cache" MBSWEEP_JIT_FLAGS="-march=x86-64-v2"

printf '%-16s %12s %16s %16s %8s\n' model system-steps "cpu Ir/step" "cpu-jit Ir/step" ratio
for m in ${models//,/ }; do
  "$bench" --sizes "$systems" --models "$m" --evaluators cpu-jit --threads 1 >/dev/null  # compiles
  declare -A perStep=()
  for e in cpu cpu-jit; do
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
      "$bench" --sizes "$systems" --models "$m" --evaluators "$e" --threads 1 >"$work/out" 2>/dev/null
    # bench_batch's row: model eval systems steps ...
    steps=$(awk -v m="$m" -v e="$e" '$1 == m && $2 == e && $3 ~ /^[0-9]+$/ { print $3 * $4 }' "$work/out")
    ir=$(callgrind_annotate --inclusive=yes "$work/cg" | awk '/RunSystemRange</ && !found { gsub(",", "", $1); print $1; found = 1 }')
    [ -n "$steps" ] && [ -n "$ir" ] || { echo "count_instructions: no figures for $m on $e" >&2; exit 1; }
    perStep[$e]=$(awk -v i="$ir" -v s="$steps" 'BEGIN { printf "%.0f", i / s }')
  done
  printf '%-16s %12s %16s %16s %8s\n' "$m" "$steps" "${perStep[cpu]}" "${perStep[cpu-jit]}" \
    "$(awk -v a="${perStep[cpu]}" -v b="${perStep[cpu-jit]}" 'BEGIN { printf "%.2fx", a / b }')"
done
