#include "studies/study_pipeline.h"

#include <algorithm>

#include "common/rules.h"
#include "studies/checkpoint.h"

namespace mbsweep {

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
  StudyRowChunk rows;
  for (std::uint64_t c = run.resumedChunks; c < run.chunks; ++c) {
    const std::uint64_t begin = c * plan.chunkSize, end = begin + std::min(plan.chunkSize, plan.total - begin);
    rows.clear();
    evaluate(begin, end, rows);
    for (StudySink* s : sinks) s->Append(rows);
    if (manifest.IsOpen()) manifest.MarkCompleted(c);
    ++run.evaluatedChunks;
    if (onChunk) onChunk(end);
  }
  for (StudySink* s : sinks) s->Finish();
  if (manifest.IsOpen()) manifest.Close();
  return run;
}

}  // namespace mbsweep
