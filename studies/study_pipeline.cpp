#include "studies/study_pipeline.h"

#include <algorithm>
#include <chrono>

#include "common/rules.h"
#include "studies/checkpoint.h"

namespace mbsweep {

namespace {

/// What a rank's plan must agree on with rank 0's: a hash of the fingerprint and the chunking.
std::uint64_t PlanHash(const ChunkedStudyPlan& plan) {
  return Fnv1a64(plan.fingerprint + "\ntotal=" + std::to_string(plan.total) + "\nchunkSize=" +
                 std::to_string(plan.chunkSize));
}

/// Evaluates a chunk whose bounds are `item`'s; the rows and the evaluation's seconds.
std::string EvaluateChunkBytes(const ChunkedStudyPlan& plan, const ChunkEvaluator& evaluate, const std::string& item) {
  ByteReader in(item);
  const std::uint64_t begin = in.Get<std::uint64_t>(), end = in.Get<std::uint64_t>();
  if (in.Get<std::uint64_t>() != PlanHash(plan))
    throw ValidationError(plan.name + ": this rank's study differs from rank 0's (study file, options or data "
                          "files); every rank must run the same study");
  StudyRowChunk rows;
  const auto start = std::chrono::steady_clock::now();
  evaluate(begin, end, rows);
  ByteWriter w;
  w.Put(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  w.Put<std::uint64_t>(rows.size());
  for (const StudyRow& r : rows) {
    w.Put(r.index).PutVector(r.point).PutVector(r.pyPoint).PutVector(r.values).Put(r.value);
    w.PutString(r.status).PutString(r.reason);
  }
  return w.Take();
}

/// The rows of EvaluateChunkBytes' reply; its seconds into `seconds`.
StudyRowChunk ChunkFromBytes(const std::string& bytes, double& seconds) {
  ByteReader in(bytes);
  seconds = in.Get<double>();
  StudyRowChunk rows(static_cast<std::size_t>(in.Get<std::uint64_t>()));
  for (StudyRow& r : rows) {
    r.index = in.Get<std::uint64_t>();
    r.point = in.GetVector<double>();
    r.pyPoint = in.GetVector<PyNumber>();
    r.values = in.GetVector<double>();
    r.value = in.Get<double>();
    r.status = in.GetString();
    r.reason = in.GetString();
  }
  return rows;
}

}  // namespace

ChunkedStudyRun RunChunkedStudy(const ChunkedStudyPlan& plan, const ChunkEvaluator& evaluate,
                                const std::vector<StudySink*>& sinks,
                                const std::function<void(std::uint64_t end)>& onChunk) {
  if (plan.chunkSize == 0) throw ValidationError(plan.name + ": chunkSize = 0; it must be >= 1");
  ChunkedStudyRun run;
  run.chunks = plan.total / plan.chunkSize + (plan.total % plan.chunkSize ? 1 : 0);
  ChunkManifest manifest;
  if (!plan.manifestPath.empty()) {
    manifest = ChunkManifest::Open(plan.manifestPath, plan.fingerprint, plan.outputs, plan.resume);
    run.resumedChunks = manifest.CompletedChunks();
    if (run.resumedChunks > run.chunks)
      throw ValidationError(plan.name + ": resume: the manifest '" + manifest.Path() + "' records " +
                            std::to_string(run.resumedChunks) + " chunks, the " + plan.what + " has " +
                            std::to_string(run.chunks));
  }
  const std::uint64_t resumedRows = std::min(plan.total, run.resumedChunks * plan.chunkSize);
  for (StudySink* s : sinks) s->Start(resumedRows);
  const auto bounds = [&plan](std::uint64_t c) {
    const std::uint64_t begin = c * plan.chunkSize;
    return std::make_pair(begin, begin + std::min(plan.chunkSize, plan.total - begin));
  };
  const auto finish = [&](std::uint64_t c, const StudyRowChunk& rows, double seconds) {
    for (StudySink* s : sinks) s->Append(rows);
    if (manifest.IsOpen()) manifest.MarkCompleted(c);
    ++run.evaluatedChunks;
    run.evaluationSeconds += seconds;
    if (onChunk) onChunk(bounds(c).second);
  };
  const std::uint64_t first = run.resumedChunks;
  if (plan.ranks && plan.ranks->Size() > 1) {
    const std::uint64_t hash = PlanHash(plan);
    plan.ranks->Map(
        run.chunks - first,
        [&](std::uint64_t k) {
          const auto [begin, end] = bounds(first + k);
          ByteWriter w;
          w.Put(begin).Put(end).Put(hash);
          return w.Take();
        },
        [&](const std::string& item) { return EvaluateChunkBytes(plan, evaluate, item); },
        [&](std::uint64_t k, std::string& reply) {
          double seconds = 0;
          const StudyRowChunk rows = ChunkFromBytes(reply, seconds);
          finish(first + k, rows, seconds);
        });
  } else {
    StudyRowChunk rows;
    for (std::uint64_t c = first; c < run.chunks; ++c) {
      const auto [begin, end] = bounds(c);
      rows.clear();
      const auto start = std::chrono::steady_clock::now();
      evaluate(begin, end, rows);
      finish(c, rows, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  for (StudySink* s : sinks) s->Finish();
  if (manifest.IsOpen()) manifest.Close();
  return run;
}

void ServeChunks(const ChunkedStudyPlan& plan, const ChunkEvaluator& evaluate) {
  plan.ranks->Serve([&](const std::string& item) { return EvaluateChunkBytes(plan, evaluate, item); });
}

}  // namespace mbsweep
