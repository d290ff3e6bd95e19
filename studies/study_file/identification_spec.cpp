// Identification's spec and reader (study_types.h): GA ranges `name: [min, max]`, the
// `measured:` channels (sensor, component, file, column or columnName, weight), the
// `genetic:` GA options and `refinement:` (NelderMead or none, with its options).
#include "studies/study_file/study_types.h"

namespace mbsweep::study_reader {

namespace {

/// study.refinement: a method name, or a map of the method and its options.
void ReadRefinement(const Reader& r, const Entry& q, IdentificationOptions& io) {
  static const std::vector<std::string> methods = {"NelderMead", "none"};
  if (q.value.IsScalar()) {
    io.refinement = methods[r.Choice(q.value, "study.refinement", methods)];
    return;
  }
  const std::vector<Setting> tree = {Setting{"refinement",
                                             [&io](const Reader& rr, const YAML::Node& v, const std::string& w) {
                                               io.refinement = methods[rr.Choice(v, w, methods)];
                                             },
                                             {}},
                                     IntS("maxIterations", io.maxIterations), DoubleS("tolerance", io.tolerance),
                                     DoubleS("initialStep", io.initialStep)};
  TreeReader tr(r, tree, "study.refinement", "option");
  tr.Read(q.value);
  if (io.maxIterations < 0) r.Fail(q.value, "study.refinement.maxIterations violates UInt (must be >= 0)");
  if (!(io.tolerance >= 0)) r.Fail(q.value, "study.refinement.tolerance violates UReal (must be >= 0)");
  if (!(io.initialStep > 0)) r.Fail(q.value, "study.refinement.initialStep violates PReal (must be > 0)");
}

/// study.measured[i].
MeasuredChannel ReadChannel(const StudyInput& in, const YAML::Node& node, const std::string& ctx) {
  const Reader& r = in.r;
  const Section c = r.Map(node, ctx, {"sensor", "component", "file", "column", "columnName", "weight"});
  MeasuredChannel ch;
  const Entry* se = c.Find("sensor");
  if (!se) r.Fail(node, ctx + ": 'sensor' is required");
  SensorIndexOf(r, se->value, ctx + ".sensor", in.sensorNames);
  ch.sensor = Trim(se->value.Scalar());
  if (const Entry* q = c.Find("component")) ch.component = r.Int(q->value, ctx + ".component");
  const Entry* fe = c.Find("file");
  if (!fe) r.Fail(node, ctx + ": 'file' (the measured CSV file) is required");
  ch.file = ResolvePath(in.directory, r.String(fe->value, ctx + ".file"));
  if (const Entry* q = c.Find("column")) ch.column = r.Int(q->value, ctx + ".column");
  if (const Entry* q = c.Find("columnName")) ch.columnName = r.String(q->value, ctx + ".columnName");
  if (const Entry* q = c.Find("weight")) ch.weight = r.Number(q->value, ctx + ".weight");
  if (ch.component < 0) r.Fail(c.Find("component")->value, ctx + ".component violates UInt (must be >= 0)");
  if (!(ch.weight >= 0) || !std::isfinite(ch.weight))
    r.Fail(c.Find("weight")->value, ctx + ".weight = " + FormatReal(ch.weight) + " violates UReal (must be >= 0)");
  if (in.readDataFiles) try {
      ReadSignalCsv(ch.file, ch.column, ch.columnName);
    } catch (const ValidationError& err) {
      in.Fail(fe->value, err);
    }
  return ch;
}

void ReadIdentification(const StudyInput& in, StudySpec& s) {
  const Entry* g = in.sec.Find("genetic");
  if (g) {
    const std::vector<Setting> tree = GeneticTree(s);
    TreeReader tr(in.r, tree, "study.genetic", "option");
    tr.Read(g->value);
  }
  if (const Entry* q = in.sec.Find("refinement")) ReadRefinement(in.r, *q, s.identification);
  const Entry* m = in.sec.Find("measured");
  if (!m) in.r.Fail(in.node, "study: an Identification needs 'measured' (a list of measured channels)");
  const YAML::Node& list = in.r.Sequence(m->value, "study.measured");
  if (list.size() == 0) in.r.Fail(m->value, "study.measured must list at least one channel");
  for (size_t i = 0; i < list.size(); ++i)
    s.measured.push_back(ReadChannel(in, list[i], "study.measured[" + std::to_string(i) + "]"));
  ReadGeneticParameters(in, g, s);
}

}  // namespace

const StudyTypeReader& IdentificationStudy() {
  static const StudyTypeReader reader{
      StudyType::Identification, nullptr, {"measured", "genetic", "refinement"}, nullptr, ReadIdentification};
  return reader;
}

}  // namespace mbsweep::study_reader
