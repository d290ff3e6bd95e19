/// @file point_source.h
/// The points of a sweep: a ParameterVariation grid (never materialized) or a sampling design
/// (Sobol generated range by range; Latin hypercube, uniform and CSV designs whole), handed
/// out by index range so that a scan of any size runs in bounded memory. Host only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "studies/grid.h"
#include "studies/sampling.h"
#include "studies/study_file.h"

namespace mbsweep {

/// The points of a ParameterVariation or Sampling study.
class StudyPointSource {
 public:
  /// `st` is referenced: it must outlive the source. `count` and `seed` are the sampling
  /// design's (ignored for a grid and a CSV design). Throws ValidationError for a Sobol count
  /// above 2^kBits and a whole design that cannot fit in memory (RequireMemory), and what
  /// the grid and the design readers throw.
  StudyPointSource(const StudySpec& st, std::uint64_t count, std::uint64_t seed);

  std::uint64_t Total() const { return total_; }
  /// The grid of a ParameterVariation (nullptr for a design).
  const ParameterGrid* Grid() const { return grid_.get(); }
  /// Warnings about the design (e.g. a Sobol count that is not a power of two).
  const std::vector<std::string>& Warnings() const { return warnings_; }

  /// Points [begin, end): values, and the same as Python numbers (ints for Exudyn's int-type
  /// grid parameters) for the results files.
  void Fill(std::uint64_t begin, std::uint64_t end, std::vector<std::vector<double>>& points,
            std::vector<std::vector<PyNumber>>& py) const;

 private:
  const StudySpec& st_;
  std::uint64_t seed_ = 0;
  std::unique_ptr<ParameterGrid> grid_;
  Design design_;
  SobolScramble scramble_ = SobolScramble::LinearMatrix;
  std::uint64_t total_ = 0;
  std::vector<std::string> warnings_;
};

}  // namespace mbsweep
