#include "studies/point_source.h"

#include "common/rules.h"
#include "studies/memory_limit.h"

namespace mbsweep {

StudyPointSource::StudyPointSource(const StudySpec& st, std::uint64_t count, std::uint64_t seed)
    : st_(st), seed_(seed) {
  if (st.type == StudyType::ParameterVariation) {
    grid_ = std::make_unique<ParameterGrid>(st.ranges, st.useLogSpace);
    total_ = grid_->Size();
  } else if (st.design == "sobol") {
    total_ = count;
    if (count > (std::uint64_t(1) << SobolSequence::kBits))
      throw ValidationError("Sobol design: count = " + std::to_string(count) + " violates count <= 2^" +
                            std::to_string(SobolSequence::kBits) + " (the sequence's index range)");
    scramble_ = st.scramble.empty() ? SobolScramble::LinearMatrix : ParseSobolScramble(st.scramble);
    const std::string w = SobolCountWarning(static_cast<size_t>(total_));
    if (!w.empty()) warnings_.push_back(w);
  } else {
    if (st.design != "csv")  // the unit design and the scaled one, whole
      RequireMemory(2.0 * 8.0 * static_cast<double>(count) * static_cast<double>(st.bounds.size()),
                    "a " + st.design + " design of " + std::to_string(count) + " points x " +
                        std::to_string(st.bounds.size()) + " parameters (built whole)",
                    "design: sobol is generated chunk by chunk, or use fewer points");
    if (st.design == "lhs") design_ = LatinHypercubeDesign(st.bounds, static_cast<size_t>(count), seed);
    else if (st.design == "uniform") design_ = UniformDesign(st.bounds, static_cast<size_t>(count), seed);
    else design_ = ReadDesignCsv(st.designFile, st.ParameterNames());
    total_ = design_.Count();
  }
}

void StudyPointSource::Fill(std::uint64_t begin, std::uint64_t end, std::vector<std::vector<double>>& points,
                            std::vector<std::vector<PyNumber>>& py) const {
  points.assign(static_cast<size_t>(end - begin), {});
  py.assign(points.size(), {});
  Design part;
  if (!grid_ && st_.design == "sobol") part = SobolDesign(st_.bounds, points.size(), seed_, scramble_, begin);
  for (std::uint64_t i = begin; i < end; ++i) {
    const size_t r = static_cast<size_t>(i - begin);
    if (grid_) {
      points[r] = grid_->Point(i);
      py[r] = grid_->PyPoint(i);
      continue;
    }
    points[r] = st_.design == "sobol" ? part.Row(r) : design_.Row(static_cast<size_t>(i));
    for (double x : points[r]) py[r].push_back(PyNumber::Float(x));
  }
}

}  // namespace mbsweep
