#include "studies/rank_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <utility>

#include "common/rules.h"

namespace mbsweep {

namespace {

/// What a piece must agree on with the serving rank's study.
struct PieceShape {
  std::int32_t thetaSize = 0, numValues = 0, solver = 0;
  bool operator==(const PieceShape& o) const {
    return thetaSize == o.thetaSize && numValues == o.numValues && solver == o.solver;
  }
};

PieceShape ShapeOf(const BatchProblem& p) {
  return {p.ThetaSize(), p.NumValues(), static_cast<std::int32_t>(p.solver)};
}

/// Systems [begin, end) of `p`: shape, theta rows, row errors.
std::string PieceBytes(const BatchProblem& p, int begin, int end) {
  const std::size_t nt = static_cast<std::size_t>(p.ThetaSize());
  ByteWriter w;
  w.Put(ShapeOf(p));
  w.PutVector(std::vector<Real>(p.theta.begin() + static_cast<std::ptrdiff_t>(begin * nt),
                                p.theta.begin() + static_cast<std::ptrdiff_t>(end * nt)));
  w.Put<std::int32_t>(end - begin);
  for (int i = begin; i < end; ++i) w.PutString(p.rowErrors[static_cast<std::size_t>(i)]);
  return w.Take();
}

std::string ResultBytes(const BatchResult& r) {
  ByteWriter w;
  w.Put<std::int32_t>(r.nSystems).Put<std::int32_t>(r.nValues);
  w.PutVector(r.values).PutVector(r.status).PutVector(r.info);
  w.Put(r.seconds);
  return w.Take();
}

/// Appends a piece's result to `r` (systems in order).
void AppendResult(const std::string& bytes, BatchResult& r) {
  ByteReader in(bytes);
  const int n = in.Get<std::int32_t>(), nValues = in.Get<std::int32_t>();
  const std::vector<Real> values = in.GetVector<Real>();
  const std::vector<SolveStatus> status = in.GetVector<SolveStatus>();
  const std::vector<SolveInfo> info = in.GetVector<SolveInfo>();
  if (nValues != r.nValues || values.size() != static_cast<std::size_t>(n) * static_cast<std::size_t>(nValues) ||
      status.size() != static_cast<std::size_t>(n) || info.size() != status.size())
    throw std::runtime_error("a rank returned a piece of another shape (every rank must run the same study)");
  r.values.insert(r.values.end(), values.begin(), values.end());
  r.status.insert(r.status.end(), status.begin(), status.end());
  r.info.insert(r.info.end(), info.begin(), info.end());
  r.nSystems += n;
}

/// A piece as a batch of `piece`'s model, evaluated on `local`; the result's bytes.
std::string EvaluatePiece(const std::string& bytes, BatchProblem& piece, Evaluator& local) {
  ByteReader in(bytes);
  const PieceShape got = in.Get<PieceShape>(), shape = ShapeOf(piece);
  if (!(got == shape))
    throw ValidationError("a batch piece from rank 0 has " + std::to_string(got.thetaSize) + " theta values per system, " +
                          std::to_string(got.numValues) + " objective values and solver " + std::to_string(got.solver) +
                          "; this rank's study has " + std::to_string(shape.thetaSize) + ", " +
                          std::to_string(shape.numValues) + " and " + std::to_string(shape.solver) +
                          " (every rank must run the same study)");
  piece.theta = in.GetVector<Real>();
  piece.nSystems = in.Get<std::int32_t>();
  piece.rowErrors.resize(static_cast<std::size_t>(piece.nSystems));
  for (std::string& e : piece.rowErrors) e = in.GetString();
  return ResultBytes(local.Evaluate(piece));
}

/// A batch of no systems of `layout`, solved with `solver` and `settings` into `objectives`.
BatchProblem EmptyBatch(const Layout* layout, DynamicSolverType solver, const SimulationSettings& settings,
                        const CompiledObjectives& objectives) {
  BatchProblem p;
  p.layout = layout;
  p.solver = solver;
  p.settings = settings;
  p.objectives = objectives;
  return p;
}

}  // namespace

RankEvaluator::RankEvaluator(std::unique_ptr<Evaluator> local, Ranks& ranks, int piecesPerRank)
    : local_(std::move(local)), ranks_(ranks), piecesPerRank_(piecesPerRank) {
  if (!local_) throw ValidationError("RankEvaluator: no local evaluator");
  if (piecesPerRank < 1)
    throw ValidationError("RankEvaluator: piecesPerRank = " + std::to_string(piecesPerRank) + " violates >= 1");
}

BatchResult RankEvaluator::Evaluate(const BatchProblem& p) {
  if (ranks_.Size() == 1 || p.nSystems < 2 || p.signalRows > 0) return local_->Evaluate(p);
  CheckBatchProblem(p);
  const auto start = std::chrono::steady_clock::now();
  const int pieces = static_cast<int>(std::min<std::int64_t>(p.nSystems, std::int64_t(piecesPerRank_) * ranks_.Size()));
  const int size = (p.nSystems + pieces - 1) / pieces;
  const int count = (p.nSystems + size - 1) / size;
  BatchResult r;  // the pieces are appended in order
  r.backend = local_->Name();
  r.nValues = p.NumValues();
  BatchProblem piece = EmptyBatch(p.layout, p.solver, p.settings, p.objectives);  // on Map's worker thread
  ranks_.Map(
      static_cast<std::uint64_t>(count),
      [&](std::uint64_t k) {
        const int begin = static_cast<int>(k) * size;
        return PieceBytes(p, begin, std::min(p.nSystems, begin + size));
      },
      [&](const std::string& bytes) { return EvaluatePiece(bytes, piece, *local_); },
      [&](std::uint64_t, std::string& reply) { AppendResult(reply, r); });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

void ServeBatches(Ranks& ranks, Evaluator& local, const Layout& layout, DynamicSolverType solver,
                  const SimulationSettings& settings, const CompiledObjectives& objectives) {
  BatchProblem piece = EmptyBatch(&layout, solver, settings, objectives);
  ranks.Serve([&](const std::string& bytes) { return EvaluatePiece(bytes, piece, local); });
}

}  // namespace mbsweep
