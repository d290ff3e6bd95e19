#!/usr/bin/env bash
# Studies over MPI ranks (studies/ranks.h), run by ctest when the build has MPI:
#   mpi_ranks.sh MBSWEEP MPIEXEC EXAMPLES_DIR WORK_DIR RANKS_OSCILLATOR [PYTHON]
# (PYTHON: an interpreter with the mbsweep package, for the Python part)
# Every study's outputs under `mpiexec -np 3` (and resumed with another rank count after a
# rank was killed) are byte for byte those of one rank; a failing rank and a killed rank end
# the job with a message that names them.
set -euo pipefail
MBSWEEP=$1 MPIEXEC=$2 EXAMPLES=$3 WORK=$4 RANKS_EXAMPLE=$5 PYTHON=${6:-}
HERE=$(cd "$(dirname "$0")" && pwd)
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
MPI=("$MPIEXEC" --oversubscribe --allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1
fail() { echo "FAIL: $*" >&2; exit 1; }

# run NAME NP ARGS...: the command in ./run (manifests and results headers hold the folder's
# path, so every run uses the same one), outputs moved to ./NAME
run() {
  local name=$1 np=$2
  shift 2
  if [ "$np" = 1 ]; then "$MBSWEEP" "$@" --out run --quiet; else timeout 300 "${MPI[@]}" -np "$np" "$MBSWEEP" "$@" --out run --quiet; fi
  mv run "$name"
}
# same A B FILES...: the files are byte-identical in folders A and B
same() {
  local a=$1 b=$2
  shift 2
  for f in "$@"; do cmp "$a/$f" "$b/$f" || fail "$a/$f and $b/$f differ"; done
  echo "ok: $b = $a ($*)"
}
# pid_of_rank R: the pid of MPI rank R of the running job
pid_of_rank() {
  for p in $(pgrep -f "$MBSWEEP .*--out run"); do
    if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$1"; then echo "$p"; return; fi
  done
}
# kill_after NP FILE LINES RANK ARGS...: starts the study on NP ranks, kills rank RANK (SIGKILL)
# once FILE has LINES lines, and checks that the launcher ends the job and says so
kill_after() {
  local np=$1 file=$2 lines=$3 rank=$4
  shift 4
  "${MPI[@]}" -np "$np" "$MBSWEEP" "$@" --out run --quiet 2>killed.err &
  local job=$! pid=""
  for _ in $(seq 1 3000); do
    if [ -f "run/$file" ] && [ "$(wc -l <"run/$file")" -ge "$lines" ]; then pid=$(pid_of_rank "$rank"); break; fi
    sleep 0.01
  done
  [ -n "$pid" ] || fail "rank $rank did not start or the study ended before $file had $lines lines"
  kill -9 "$pid"
  if wait "$job"; then fail "the job went on after rank $rank was killed"; fi
  grep -q "signal 9" killed.err || fail "no message about the killed rank: $(cat killed.err)"
  echo "ok: killed rank $rank: $(grep -m1 "signal 9" killed.err)"
}

SCAN="$EXAMPLES/oscillator_sobol_scan.yaml"
GRID="$EXAMPLES/oscillator_variation.yaml"
GA="$EXAMPLES/slidercrank_balancing.yaml"
ID="$EXAMPLES/oscillator_identification.yaml"
sed 's/randomStream: numpy/randomStream: philox/' "$GA" >ga_philox.yaml
cp "$EXAMPLES"/oscillator_measured_*.txt .

# 1. every study type on 3 ranks gives one rank's files
run scan1 1 sweep "$SCAN" --count 16384 --chunk 1000 --backend cpu
run scan3 3 sweep "$SCAN" --count 16384 --chunk 1000 --backend cpu
same scan1 scan3 results.csv manifest.txt
run grid1 1 sweep "$GRID" --chunk 7 --backend cpu
run grid3 3 sweep "$GRID" --chunk 7 --backend cpu
same grid1 grid3 results.txt results.csv manifest.txt
run ga1 1 optimize "$GA" --seed 11 --backend cpu
run ga3 3 optimize "$GA" --seed 11 --backend cpu
same ga1 ga3 results.txt results.txt.manifest history.csv
run philox1 1 optimize ga_philox.yaml --seed 11 --backend cpu
run philox3 3 optimize ga_philox.yaml --seed 11 --backend cpu
same philox1 philox3 results.txt results.txt.manifest history.csv
run id1 1 identify "$ID" --backend cpu
run id3 3 identify "$ID" --backend cpu
same id1 id3 results.txt history.csv signals.csv
run sens1 1 sensitivity "$HERE/data/static_oscillator_sensitivity.yaml" --backend cpu
run sens3 3 sensitivity "$HERE/data/static_oscillator_sensitivity.yaml" --backend cpu
same sens1 sens3 sensitivities.csv evaluations.csv
grep -q '"ranks": 3' scan3/summary.json || fail "summary.json of 3 ranks does not say so"
# the C++ API (ParameterVariation and GeneticOptimization on a RankEvaluator)
"$RANKS_EXAMPLE" "$GRID" run >api1.out && mv run api1
timeout 300 "${MPI[@]}" -np 3 "$RANKS_EXAMPLE" "$GRID" run >api3.out && mv run api3
same api1 api3 variation.txt genetic.txt
grep -q "^3 ranks: 1600 grid points" api3.out || fail "the C++ example on 3 ranks: $(cat api3.out)"
# the Python package (ParameterVariation and GeneticOptimization in a script run on every rank)
if [ -n "$PYTHON" ]; then
  "$PYTHON" "$HERE/python_ranks.py" "$EXAMPLES" run >py1.out && mv run py1
  timeout 300 "${MPI[@]}" -np 3 "$PYTHON" "$HERE/python_ranks.py" "$EXAMPLES" run >py3.out && mv run py3
  same py1 py3 variation.txt genetic.txt
  grep -q "^3 ranks: values" py3.out || fail "the Python script on 3 ranks: $(cat py3.out)"
fi

# 2. a killed rank ends the job; the study resumes with another number of ranks
run long1 1 sweep "$SCAN" --count 262144 --chunk 2048 --backend cpu
kill_after 3 results.csv 10000 1 sweep "$SCAN" --count 262144 --chunk 2048 --backend cpu
run long_resumed 2 sweep "$SCAN" --count 262144 --chunk 2048 --backend cpu --resume
same long1 long_resumed results.csv manifest.txt
kill_after 3 results.txt 200 0 optimize "$GA" --seed 11 --backend cpu  # rank 0, after 3 generations
run ga_resumed 2 optimize "$GA" --seed 11 --backend cpu --resume
same ga1 ga_resumed results.txt results.txt.manifest history.csv

# 3. a rank whose study differs is named, and the job ends (no hang)
sed 's/seed: 2026/seed: 2027/' "$SCAN" >other.yaml
if timeout 120 "${MPI[@]}" -np 1 "$MBSWEEP" sweep "$SCAN" --out run --count 4000 --chunk 500 --backend cpu --quiet : \
   -np 2 "$MBSWEEP" sweep other.yaml --out run --count 4000 --chunk 500 --backend cpu --quiet 2>differs.err; then
  fail "ranks with different studies ran"
fi
grep -q "error: rank [12]: sweep: this rank's study differs from rank 0's" differs.err ||
  fail "no message naming the rank: $(cat differs.err)"
echo "ok: $(grep -m1 'error: rank' differs.err)"
rm -rf run

# 4. an input error is reported once, by rank 0
if timeout 120 "${MPI[@]}" -np 3 "$MBSWEEP" sweep "$SCAN" --out run --count 0 --backend cpu 2>input.err; then
  fail "--count 0 ran"
fi
[ "$(grep -c "count" input.err)" = 1 ] || fail "the input error is not reported exactly once: $(cat input.err)"
echo "ok: input error once: $(grep count input.err)"
