/// @file batch.h
/// The batch contract every backend implements: one compiled model, P rows of theta, and
/// per system the objective values and a status. Evaluators (cpu/evaluator_cpu.h,
/// cuda/evaluator_cuda.h) implement one interface and are created by name (CreateEvaluator).
/// A failing system never fails the batch: it gets a status and NaN objective values.
/// Host-only (no CUDA, no Eigen); defined in common/batch.cpp, except CreateEvaluator and
/// CudaAvailable, the name dispatch above the backends (studies/evaluators.cpp, target
/// mbsweep::backends, which links every backend this build has).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/generalized_alpha.h"
#include "common/objectives_host.h"
#include "common/parameters.h"
#include "common/simulation_settings.h"

namespace mbsweep {

/// Printable name of a status ("ok", "newton_failed", ...).
const char* SolveStatusName(SolveStatus s);
/// Why a run ended with info.status (not ok), in words, with the time, step size and the
/// setting that decided it: "Newton did not converge within maxIterations = 25 at t = 0.41
/// (step size 0.001, residual 0.02)".
std::string DescribeSolveFailure(const SolveInfo& info, const SimulationSettings& settings, DynamicSolverType solver);

/// Everything a backend needs to evaluate a batch.
struct BatchProblem {
  const Layout* layout = nullptr;
  DynamicSolverType solver = DynamicSolverType::GeneralizedAlpha;
  SimulationSettings settings;
  CompiledObjectives objectives;
  int nSystems = 0;
  std::vector<Real> theta;              ///< nSystems rows of layout->ThetaSize() values
  std::vector<std::string> rowErrors;   ///< per system; non-empty: invalid_parameter, not evaluated
  /// Decimated signals (optional, for small batches and CPU-vs-GPU comparison): up to
  /// signalRows rows per system, one at every signalStride-th objective sample time, each
  /// [t, the value sampled for objective 0, 1, ...]. 0 rows: none (see RequestSignals).
  int signalRows = 0;
  int signalStride = 1;
  /// Progress inside the batch: the CPU evaluators (cpu, cpu-jit) add each system they finish,
  /// a few at a time, while they run; other evaluators leave it. Null: not counted.
  std::atomic<std::uint64_t>* finished = nullptr;

  int ThetaSize() const { return layout ? layout->ThetaSize() : 0; }
  int NumValues() const { return objectives.set.NumValues(); }
  /// Reals per signal row: the time and one value per objective.
  int SignalWidth() const { return 1 + objectives.set.count; }
};

/// Largest memory for the decimated signals of one batch (CheckBatchProblem refuses more).
inline constexpr double kMaxSignalBytes = 4.0 * 1073741824.0;

/// Asks for decimated signals of at most maxRows rows per system, spread over the whole run:
/// the stride is the expected number of objective sample times (the sensor write-period rule
/// over [startTime, endTime], or every step with samplePeriod 0) divided by maxRows, rounded
/// up. Throws ValidationError for maxRows < 0.
void RequestSignals(BatchProblem& p, int maxRows);

/// Builds a batch from study-parameter rows (nSystems x map.NumParameters(), row-major):
/// theta rows via the map, per-system rule checks (invalid rows get a message).
BatchProblem MakeBatch(const Layout& layout, const ParameterMap& map, const std::vector<Real>& parameters,
                       DynamicSolverType solver, const SimulationSettings& settings, CompiledObjectives objectives);

/// Per-system results of a batch.
struct BatchResult {
  int nSystems = 0;
  int nValues = 0;
  std::vector<Real> values;          ///< nSystems x nValues; NaN where status != ok
  std::vector<SolveStatus> status;   ///< per system
  std::vector<SolveInfo> info;       ///< per system: counters, failure time/step/residual
  double seconds = 0;                ///< wall time of Evaluate
  std::string backend;               ///< evaluator name
  /// Decimated signals (BatchProblem::signalRows > 0): nSystems x signalRows x signalWidth,
  /// row-major; signalCount[i] rows of system i are valid (the rest NaN).
  int signalRows = 0, signalWidth = 0;
  std::vector<Real> signals;
  std::vector<int> signalCount;
  Real Value(int system, int k) const { return values[static_cast<size_t>(system * nValues + k)]; }
  /// Row r of system i's signals: [t, value per objective].
  const Real* SignalRow(int system, int r) const {
    return signals.data() + (static_cast<size_t>(system) * static_cast<size_t>(signalRows) + static_cast<size_t>(r)) *
                                static_cast<size_t>(signalWidth);
  }
  int CountStatus(SolveStatus s) const;
};

/// Why system i of a batch failed ("" if its status is ok): its row error for
/// invalid_parameter, DescribeSolveFailure otherwise.
std::string FailureReason(const BatchProblem& p, const BatchResult& r, int i);

/// A result for problem p from evaluator `backend` with every value NaN and every status ok
/// (backends fill in what they evaluate).
BatchResult MakeEmptyResult(const BatchProblem& p, const std::string& backend);

/// Evaluates batches; implementations are thread-compatible (one Evaluate at a time).
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  virtual std::string Name() const = 0;
  /// Evaluates all systems. Throws ValidationError for problems that concern the whole
  /// batch (unsupported solver, model larger than the batch path's capacity).
  virtual BatchResult Evaluate(const BatchProblem& problem) = 0;
};

/// Checks that a batch can run on the batch path; throws ValidationError naming the rule.
void CheckBatchProblem(const BatchProblem& p);

/// Deviation of one batch result from a reference result (same problem), per value column.
struct BatchComparison {
  std::vector<Real> maxAbsDeviation;  ///< per value column, over systems ok in both
  std::vector<Real> maxRelDeviation;  ///< |a-b| / max(|a|, |b|), 0 where both are 0
  /// With signals in both: per objective, the max absolute deviation over the rows both
  /// recorded, and the systems whose recorded row counts differ.
  std::vector<Real> maxSignalDeviation;
  std::vector<int> signalCountDiffers;
  std::vector<int> statusDiffers;     ///< systems whose status differs
  int comparedSystems = 0;            ///< systems ok in both
  double speedup = 0;                 ///< reference seconds / other seconds
  std::string referenceBackend, otherBackend;
};
/// Compares `other` against `reference` (same nSystems and nValues; throws otherwise).
BatchComparison CompareBatchResults(const BatchResult& reference, const BatchResult& other);
/// Human-readable report: one line per value column, the differing statuses and the speedup.
std::string FormatComparison(const BatchComparison& c, const std::vector<std::string>& valueNames);

/// Options of the evaluators created by name; each backend reads its own.
struct EvaluatorOptions {
  int threads = 0;          ///< cpu: worker threads (0: all hardware threads)
  int device = 0;           ///< cuda: device ordinal
  int maxChunkSystems = 0;  ///< cuda: systems per launch (0: planned from device memory)
};

/// Creates an evaluator by name: "cpu", "cpu-jit" (the cpu evaluator's loop on code generated
/// and compiled for the model; cpu/evaluator_cpu.h), "cuda" (fused kernels, when built with CUDA and a
/// device is present; the kernel mapping chosen by model size; thread-per-system runs on the
/// kernel generated for the model, cuda/nvrtc_model.h), "cuda-thread" and "cuda-warp" (the
/// same with the thread-per-system or the warp-per-system kernel forced, for comparisons),
/// "cuda-interp" and "cuda-interp-thread" (the interpreter's kernels, automatic or thread
/// mapping), "cuda-cublas" (the cuBLAS batched-factorization baseline,
/// generalized-alpha only, same conditions) and "auto" (cuda if available; else the
/// interpreter, `cpu`, switching to `cpu-jit` once its batches have run kAutoCompileAfterSeconds
/// or at once if the model is compiled already: cpu/evaluator_cpu.h).
/// Throws ValidationError for an unknown name or an unavailable backend (naming why, e.g.
/// "no usable CUDA device (...)"). Defined in studies/evaluators.cpp (mbsweep::backends).
std::unique_ptr<Evaluator> CreateEvaluator(const std::string& name, const EvaluatorOptions& options = {});

/// The number of CUDA devices this process sees (0 without the CUDA backend or a usable
/// device). Defined in cuda/ (or, without it, in studies/evaluators.cpp).
int CudaDeviceCount();

/// A model compiled ahead of its runs (CompileAhead): the `cpu-jit` shared object or one GPU
/// architecture's `cuda` kernel, in the cache of compiled models (common/codegen.h:
/// JitCacheDirectory) where the evaluators find it.
struct AheadOfTimeModel {
  std::string target;   ///< "cpu-jit", or "cuda sm_90"
  std::string path;     ///< the cached file ("" if it failed)
  std::string error;    ///< why it failed ("" if it did not)
  std::string details;  ///< for a kernel: its registers, stack and spills, and which evaluators run it
  bool cacheHit = false;
  double seconds = 0;
};

/// Compiles the code generated for `layout` and batches of `objectives` objectives: the `cpu-jit`
/// shared object (with the system's C++ compiler) and, for the integrator family of `solver`,
/// the kernel `cuda` runs (thread or warp per system) for each GPU architecture in `archs`
/// ("sm_90", with NVRTC: no GPU needed), or finds them in the cache; all at once, each on a
/// thread of its own. The `cpu-jit` result first, then one per architecture in `archs`' order.
/// A later run on `cpu-jit` or `cuda` then starts at once, on a GPU node of a cluster too when
/// the cache folder is shared. Throws ValidationError, before compiling anything, for an
/// architecture NVRTC does not compile for and for any architecture in a build without CUDA.
/// Defined in studies/evaluators.cpp (mbsweep::backends).
std::vector<AheadOfTimeModel> CompileAhead(const Layout& layout, DynamicSolverType solver, int objectives,
                                           const std::vector<std::string>& archs);

/// The architecture of CUDA device `device` ("sm_90"); "" without the CUDA backend or such a
/// device. Defined in cuda/ (or, without it, in studies/evaluators.cpp).
std::string CudaDeviceArchitecture(int device);

/// True if this build has the CUDA backend and a device is usable (why: the reason if not).
/// Defined in studies/evaluators.cpp (mbsweep::backends).
bool CudaAvailable(std::string* why = nullptr);

}  // namespace mbsweep
