#!/usr/bin/env bash
# One command for a machine with an NVIDIA GPU: configures and builds the CUDA backend, runs
# the CUDA tests (and the CPU batch tests they compare against), the million-point example
# scan on cuda and `mbsweep compare` on two examples, the batch throughput benchmark on cpu,
# cuda-thread and cuda-warp (the fused kernel with the thread- or warp-per-system mapping
# forced; the kernels generated for the model), cuda-interp-thread and cuda-interp (the
# interpreter's thread kernel, and its kernel of the automatic mapping: the warp kernel above 8
# unknowns) and cuda-cublas (the cuBLAS batched-factorization baseline), and writes a JSON
# summary with, per model, the warp-over-thread ratio, the generated-over-interpreter ratios of
# the thread and the warp kernels, the cuda-over-cpu speedup and the fused-cuda over cuda-cublas ratio
# ("cuda" = the mapping the automatic size dispatch picks for the model). Libraries the machine lacks can be carried as Debian packages in .deps/
# (scripts/gpu_deps.sh).
#   bash scripts/gpu_check.sh [OUTDIR]      (default: $OUT if set, else ./gpu_check_out)
# Budget: about 10 minutes on an H200 (build ~2-4 min with all cores; the generated kernels'
# compilation, a minute or two per model on one core, side by side with the tests in 8 shards,
# so 2-4 min; benchmark: 23 model/evaluator pairs, each measurement predicted above 6 s is
# skipped). A cache of compiled kernels carried in as build-gpu/jit-cache saves the compilation.
set -uo pipefail
cd "$(dirname "$0")/.."
OUTDIR="${1:-${OUT:-gpu_check_out}}"
mkdir -p "$OUTDIR"
BUILD=build-gpu
JOBS="$(nproc)"
log() { echo "[gpu_check $(date +%H:%M:%S)] $*" | tee -a "$OUTDIR/gpu_check.log"; }

log "device:"; (nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 || true) | tee -a "$OUTDIR/gpu_check.log"
# Libraries carried as Debian packages (scripts/gpu_deps.sh) for a machine that lacks them.
if ls .deps/*.deb >/dev/null 2>&1; then
  PREFIX=/tmp/mbsweep-deps
  for f in .deps/*.deb; do dpkg -x "$f" "$PREFIX"; done
  export CMAKE_PREFIX_PATH="$PREFIX/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$PREFIX/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  log "libraries from .deps, unpacked under $PREFIX"
fi
log "configure"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMBSWEEP_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
  >"$OUTDIR/configure.log" 2>&1 || { log "configure failed"; tail -30 "$OUTDIR/configure.log"; exit 1; }
log "build (-j$JOBS)"
start=$(date +%s)
cmake --build "$BUILD" -j "$JOBS" --target test_cuda test_cpu bench_batch kernel_resources mbsweep >"$OUTDIR/build.log" 2>&1 \
  || { log "build failed"; tail -40 "$OUTDIR/build.log"; exit 1; }
build_s=$(( $(date +%s) - start ))
log "build took ${build_s}s"

# The generated kernels compile at their first run (NVRTC, about a minute each, one core): the
# benchmark's and the examples' models compile side by side here (kernel_resources writes them
# to the cache), and the CUDA tests run in 8 shards at once; later runs find them in the cache.
export MBSWEEP_JIT_CACHE="${MBSWEEP_JIT_CACHE:-$PWD/$BUILD/jit-cache}"
log "compiling the benchmark's and the examples' kernels in the background (cache $MBSWEEP_JIT_CACHE)"
for m in oscillator pendulum2d slidercrank chain3d studies/examples/oscillator_sobol_scan.yaml \
         studies/examples/slidercrank_balancing.yaml; do
  "$BUILD/bench/kernel_resources" --out "$OUTDIR/kernels" --models "$m" >>"$OUTDIR/kernels.txt" 2>&1 &
done
log "CUDA tests (8 shards at once)"
start=$(date +%s)
for k in 0 1 2 3 4 5 6 7; do
  GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$k "$BUILD/tests/cuda/test_cuda" \
    --gtest_output="json:$OUTDIR/test_cuda_$k.json" >"$OUTDIR/test_cuda_$k.log" 2>&1 &
  shard[$k]=$!
done
cuda_rc=0
for k in 0 1 2 3 4 5 6 7; do wait "${shard[$k]}" || cuda_rc=1; done
log "CUDA tests took $(( $(date +%s) - start ))s, rc $cuda_rc"
grep -h -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUTDIR"/test_cuda_*.log | tee -a "$OUTDIR/gpu_check.log"
wait  # the kernels compiled in the background
cat "$OUTDIR/kernels.txt" >>"$OUTDIR/gpu_check.log"
log "CPU batch tests"
"$BUILD/tests/cpu/test_cpu" --gtest_filter='CpuBatch*' --gtest_output="json:$OUTDIR/test_cpu_batch.json" \
  >"$OUTDIR/test_cpu_batch.log" 2>&1
cpu_rc=$?

log "CLI: the million-point Sobol scan on cuda; cpu-vs-cuda comparisons of two examples"
( time timeout 180 "$BUILD/studies/mbsweep" sweep studies/examples/oscillator_sobol_scan.yaml --backend cuda \
    --out "$OUTDIR/scan_cuda" --quiet ) >"$OUTDIR/scan_cuda.log" 2>&1
tail -4 "$OUTDIR/scan_cuda.log" | tee -a "$OUTDIR/gpu_check.log"
timeout 120 "$BUILD/studies/mbsweep" compare studies/examples/oscillator_sobol_scan.yaml --systems 65536 --signals 8 \
  --out "$OUTDIR/compare_scan" 2>&1 | tee -a "$OUTDIR/gpu_check.log"
timeout 120 "$BUILD/studies/mbsweep" compare studies/examples/slidercrank_balancing.yaml --systems 4096 \
  --out "$OUTDIR/compare_slidercrank" 2>&1 | tee -a "$OUTDIR/gpu_check.log"

log "batch benchmark"
"$BUILD/bench/bench_batch" --sizes 1,100,1000,10000,100000,1000000 --budget 6 \
  --evaluators cpu,cuda-thread,cuda-interp-thread,cuda-warp,cuda-interp,cuda-cublas \
  --json "$OUTDIR/bench_batch.jsonl" 2>&1 | tee "$OUTDIR/bench_batch.txt"

python3 - "$OUTDIR" "$cuda_rc" "$cpu_rc" "$build_s" <<'PY'
import json, sys, os
out, cuda_rc, cpu_rc, build_s = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows = []
path = os.path.join(out, "bench_batch.jsonl")
if os.path.exists(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
# "cuda" rows: the forced mapping that equals the automatic size dispatch's choice
auto_ev = {"threadPerSystem": "cuda-thread", "warpPerSystem": "cuda-warp"}
for r in list(rows):
    if r["evaluator"] in ("cuda-thread", "cuda-warp") and auto_ev.get(r.get("automaticMapping")) == r["evaluator"]:
        rows.append(dict(r, evaluator="cuda"))
best = {}
for r in rows:
    key = (r["model"], r["evaluator"])
    if key not in best or r["systemStepsPerSecond"] > best[key]["systemStepsPerSecond"]:
        best[key] = r
speedup = {}
for (model, ev), r in best.items():
    if ev == "cuda" and (model, "cpu") in best:
        speedup[model] = r["systemStepsPerSecond"] / best[(model, "cpu")]["systemStepsPerSecond"]
by_size = {}
for r in rows:
    by_size[(r["model"], r["evaluator"], r["systems"])] = r
def ratios(numerator, denominator):
    """system-steps/s of `numerator` over `denominator` per model at each batch size both
    measured, and at the largest such size"""
    out = {}
    for (model, ev, n), r in sorted(by_size.items()):
        base = by_size.get((model, denominator, n))
        if ev == numerator and base and base["systemStepsPerSecond"] > 0:
            entry = out.setdefault(model, {"per_systems": {}})
            entry["per_systems"][str(n)] = r["systemStepsPerSecond"] / base["systemStepsPerSecond"]
            entry["at_largest_systems"] = n
            entry["ratio_at_largest"] = entry["per_systems"][str(n)]
    return out
cublas_ratio = ratios("cuda", "cuda-cublas")
warp_over_thread = ratios("cuda-warp", "cuda-thread")
generated_over_interpreter = ratios("cuda-thread", "cuda-interp-thread")
# the warp kernels: cuda-interp runs the interpreter's warp kernel where the automatic mapping is
# a warp per system
warp_models = {r["model"] for r in rows if r.get("automaticMapping") == "warpPerSystem"}
generated_over_interpreter_warp = {m: v for m, v in ratios("cuda-warp", "cuda-interp").items() if m in warp_models}
automatic = {r["model"]: r["automaticMapping"] for r in rows if r.get("automaticMapping", "-") != "-"}
summary = {"cuda_tests_rc": cuda_rc, "cpu_batch_tests_rc": cpu_rc, "build_seconds": build_s,
           "best": {f"{m}/{e}": r for (m, e), r in best.items()}, "cuda_over_cpu_speedup": speedup,
           "cuda_over_cublas_ratio": cublas_ratio, "warp_over_thread_ratio": warp_over_thread,
           "generated_over_interpreter_thread_ratio": generated_over_interpreter,
           "generated_over_interpreter_warp_ratio": generated_over_interpreter_warp,
           "automatic_mapping": automatic, "rows": rows}
json.dump(summary, open(os.path.join(out, "summary.json"), "w"), indent=1)
print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
PY
log "done"
[ "$cuda_rc" -eq 0 ] && [ "$cpu_rc" -eq 0 ]
