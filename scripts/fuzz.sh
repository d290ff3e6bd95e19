#!/usr/bin/env bash
# Builds the libFuzzer harness of the study-file reader (the `fuzz` preset: clang++-14, address
# + undefined-behaviour sanitizers, build-fuzz/) and runs it for a bounded time on a copy of the
# seed corpus (tests/fuzz/corpus) in build-fuzz/; nothing is written into the repository.
#   bash scripts/fuzz.sh [SECONDS]    (default 60)
# Exits non-zero on any finding (crash, sanitizer report, an undocumented exception, a hang
# longer than MBSWEEP_FUZZ_TIMEOUT seconds, default 30, one allocation above 2 GiB, or more
# than 4 GiB resident: libFuzzer's own memory grows with the run) and names the input that
# reproduces it: `build-fuzz/tests/fuzz/fuzz_study_file FILE`.
# Environment: MBSWEEP_JOBS (build jobs, default 2), MBSWEEP_FUZZ_KEEP_CORPUS=1 (go on from the
# inputs earlier runs found instead of starting from the seeds).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_TO_RUN="${1:-60}"
[[ "$SECONDS_TO_RUN" =~ ^[1-9][0-9]*$ ]] || { echo "usage: bash scripts/fuzz.sh [SECONDS]" >&2; exit 1; }

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${MBSWEEP_JOBS:-2}"

BUILD=build-fuzz
FUZZER="$BUILD/tests/fuzz/fuzz_study_file"
CORPUS="$BUILD/fuzz-corpus"
ARTIFACTS="$BUILD/fuzz-artifacts"
LOG="$BUILD/fuzz.log"
[ "${MBSWEEP_FUZZ_KEEP_CORPUS:-0}" = 1 ] || rm -rf "$CORPUS"
mkdir -p "$CORPUS" "$ARTIFACTS"
cp tests/fuzz/corpus/* "$CORPUS"/

echo "fuzz: $FUZZER for ${SECONDS_TO_RUN} s on $CORPUS ($(ls "$CORPUS" | wc -l) inputs)"
rc=0
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}" \
  "$FUZZER" -max_total_time="$SECONDS_TO_RUN" -timeout="${MBSWEEP_FUZZ_TIMEOUT:-30}" -malloc_limit_mb=2048 -rss_limit_mb=4096 \
  -dict=tests/fuzz/study_file.dict -artifact_prefix="$ARTIFACTS/" -print_final_stats=1 \
  "$CORPUS" >"$LOG" 2>&1 || rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG" | tail -1)
time_s=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$LOG" | tail -1)
if [ "$rc" -ne 0 ]; then
  tail -n 80 "$LOG"
  crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$LOG" | tail -1)
  echo "fuzz: FAILED (exit $rc) after ${runs:-?} executions; log: $LOG"
  [ -n "$crash" ] && echo "fuzz: reproduce with: $FUZZER $crash"
  exit 1
fi
rate=""
[ -n "$runs" ] && [ -n "$time_s" ] && [ "$time_s" -gt 0 ] && rate=" ($((runs / time_s)) executions/s)"
echo "fuzz: ${runs:-?} executions in ${time_s:-?} s${rate}, corpus $(ls "$CORPUS" | wc -l) inputs, no finding"
