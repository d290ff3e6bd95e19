// mbsweep plot: PNG figures from an output folder or an Exudyn-format results file (commands.h).
#include "studies/cli/session.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>

#include "common/rules.h"
#include "studies/plot.h"
#include "studies/results_file.h"
#include "studies/study_sinks.h"

namespace mbsweep::cli {

namespace {

// CSV reader for plot: our own CSV outputs, read column-wise as numbers (NaN where a field is
// not a number), so that a million-row results file costs 8 bytes per value; on request the
// first column is also kept as text (the channel names of signals.csv).
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<double>> columns;
  std::vector<std::string> firstColumnText;
  int Column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw ValidationError("CSV file has no column '" + name + "'");
    return static_cast<int>(it - header.begin());
  }
  const std::vector<double>& Numbers(int c) const { return columns.at(static_cast<size_t>(c)); }
};

CsvTable ReadCsv(const std::string& path, bool keepFirstColumnText = false) {
  std::ifstream f(path);
  if (!f) throw ValidationError("cannot read " + path);
  CsvTable t;
  std::string line;
  int lineNo = 0;
  while (std::getline(f, line)) {
    ++lineNo;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = SplitCsvLine(line);
    if (t.header.empty()) {
      t.header = std::move(fields);
      t.columns.resize(t.header.size());
      continue;
    }
    if (fields.size() != t.header.size())
      throw ValidationError(path + ":" + std::to_string(lineNo) + ": " + std::to_string(fields.size()) +
                            " fields, the header has " + std::to_string(t.header.size()));
    for (size_t c = 0; c < fields.size(); ++c) {
      char* end = nullptr;
      const double x = std::strtod(fields[c].c_str(), &end);
      t.columns[c].push_back(end == fields[c].c_str() ? std::numeric_limits<double>::quiet_NaN() : x);
    }
    if (keepFirstColumnText) t.firstColumnText.push_back(std::move(fields[0]));
  }
  return t;
}

std::string SafeName(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return s;
}

/// value against each parameter (Exudyn's PlotOptimizationResults2D), one PNG per parameter.
std::vector<std::string> ScatterPlots(const std::string& dir, const std::vector<std::string>& names,
                                      const std::vector<std::vector<double>>& columns, const std::vector<double>& values,
                                      const std::string& valueName, const std::string& study) {
  std::vector<std::string> files;
  bool positive = true;
  for (double v : values) positive = positive && !(v <= 0);
  for (size_t k = 0; k < names.size(); ++k) {
    PlotSeries series{valueName, columns[k], values, false, true};
    PlotOptions po;
    po.title = valueName + " against " + names[k] + " (" + study + ")";
    po.xLabel = names[k];
    po.yLabel = valueName;
    po.yLog = positive;
    const std::string path = Join(dir, "value_vs_" + SafeName(names[k]) + ".png");
    WriteLinePlot(path, {series}, po);
    files.push_back(path);
  }
  return files;
}

/// sweep: value against each parameter, and the heat map of a 2D grid.
std::vector<std::string> PlotSweep(const std::string& in, const std::string& out, const Json& summary,
                                   const std::string& objective) {
  const std::string type = summary.value("studyType", "");
  const CsvTable t = ReadCsv(Join(in, "results.csv"));
  const int vc = t.Column(objective);
  const int first = 1, last = t.Column(summary["objectives"][0].get<std::string>());  // parameters in between
  std::vector<std::string> names(t.header.begin() + first, t.header.begin() + last);
  std::vector<std::vector<double>> cols;
  for (int c = first; c < last; ++c) cols.push_back(t.Numbers(c));
  const std::vector<double>& values = t.Numbers(vc);
  std::vector<std::string> written = ScatterPlots(out, names, cols, values, objective, type);
  if (type == "ParameterVariation" && names.size() == 2) {
    std::vector<double> x = cols[1], y = cols[0];  // first parameter slowest: rows
    std::sort(x.begin(), x.end());
    x.erase(std::unique(x.begin(), x.end()), x.end());
    std::sort(y.begin(), y.end());
    y.erase(std::unique(y.begin(), y.end()), y.end());
    std::vector<double> z(x.size() * y.size(), std::numeric_limits<double>::quiet_NaN());
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t ix = static_cast<size_t>(std::lower_bound(x.begin(), x.end(), cols[1][i]) - x.begin());
      const size_t iy = static_cast<size_t>(std::lower_bound(y.begin(), y.end(), cols[0][i]) - y.begin());
      z[iy * x.size() + ix] = values[i];
    }
    PlotOptions po;
    po.title = objective + " over the grid";
    po.xLabel = names[1];
    po.yLabel = names[0];
    const std::string path = Join(out, "heatmap.png");
    WriteHeatMap(path, x, y, z, po, objective);
    written.push_back(path);
  }
  return written;
}

/// identify: measured against simulated signals, one PNG per channel.
void PlotSignals(const std::string& in, const std::string& out, std::vector<std::string>& written) {
  const CsvTable sig = ReadCsv(Join(in, "signals.csv"), true);
  const std::vector<double>& tt = sig.Numbers(1);
  const std::vector<double>& me = sig.Numbers(2);
  const std::vector<double>& si = sig.Numbers(3);
  std::vector<std::string> channels;
  for (const auto& c : sig.firstColumnText)
    if (std::find(channels.begin(), channels.end(), c) == channels.end()) channels.push_back(c);
  for (const auto& ch : channels) {
    PlotSeries m{"measured", {}, {}, false, true}, sm{"simulated (fit)", {}, {}, true, false};
    for (size_t i = 0; i < sig.firstColumnText.size(); ++i)
      if (sig.firstColumnText[i] == ch) {
        m.x.push_back(tt[i]), m.y.push_back(me[i]);
        sm.x.push_back(tt[i]), sm.y.push_back(si[i]);
      }
    PlotOptions so;
    so.title = "measured vs simulated: " + ch;
    so.xLabel = "time (s)";
    so.yLabel = ch;
    written.push_back(Join(out, "signals_" + SafeName(ch) + ".png"));
    WriteLinePlot(written.back(), {m, sm}, so);
  }
}

/// optimize, identify: value against each parameter, the best value per generation, and
/// (identify) the signals.
std::vector<std::string> PlotGenetic(const std::string& in, const std::string& out, const Json& summary,
                                     const std::string& command, const std::string& objective) {
  const CsvTable t = ReadCsv(Join(in, "history.csv"));
  const int vc = t.Column("value");
  std::vector<std::string> names(t.header.begin() + 2, t.header.begin() + vc);
  std::vector<std::vector<double>> cols;
  for (int c = 2; c < vc; ++c) cols.push_back(t.Numbers(c));
  std::vector<std::string> written = ScatterPlots(out, names, cols, t.Numbers(vc), objective, "genetic optimization");
  PlotSeries best{"best value", {}, {}, true, true};
  const Json& bpg = command == "optimize" ? summary["bestPerGeneration"] : summary["genetic"]["bestPerGeneration"];
  for (size_t g = 0; g < bpg.size(); ++g) {
    best.x.push_back(static_cast<double>(g));
    best.y.push_back(bpg[g].is_null() ? NAN : bpg[g].get<double>());
  }
  PlotOptions po;
  po.title = "best value per generation";
  po.xLabel = "generation";
  po.yLabel = objective;
  po.yLog = std::all_of(best.y.begin(), best.y.end(), [](double v) { return !(v <= 0); });
  written.push_back(Join(out, "convergence.png"));
  WriteLinePlot(written.back(), {best}, po);
  if (command == "identify") PlotSignals(in, out, written);
  return written;
}

/// sensitivity: each objective against each parameter around the reference (the points the
/// differences were taken from), titled with the sensitivity.
std::vector<std::string> PlotSensitivity(const std::string& in, const std::string& out, const Json& summary) {
  std::vector<std::string> written;
  const CsvTable t = ReadCsv(Join(in, "evaluations.csv"), true);
  std::vector<std::string> params;
  for (const auto& p : t.firstColumnText)
    if (std::find(params.begin(), params.end(), p) == params.end()) params.push_back(p);
  for (const auto& p : params)
    for (size_t c = 2; c < t.header.size(); ++c) {
      PlotSeries sr{t.header[c], {}, {}, true, true};
      std::vector<std::pair<double, double>> xy;
      for (size_t i = 0; i < t.firstColumnText.size(); ++i)
        if (t.firstColumnText[i] == p) xy.emplace_back(t.columns[1][i], t.columns[c][i]);
      std::sort(xy.begin(), xy.end());
      for (const auto& [x, y] : xy) sr.x.push_back(x), sr.y.push_back(y);
      PlotOptions po;
      const Json& d = summary["sensitivity"][p][t.header[c]];
      po.title = t.header[c] + " against " + p + " (sensitivity " + (d.is_null() ? "nan" : FormatNumber(d.get<double>(), 6)) + ")";
      po.xLabel = p;
      po.yLabel = t.header[c];
      written.push_back(Join(out, "sensitivity_" + SafeName(p) + "_" + SafeName(t.header[c]) + ".png"));
      WriteLinePlot(written.back(), {sr}, po);
    }
  return written;
}

/// The figures of an output folder of mbsweep (by the command in its summary.json).
std::vector<std::string> PlotFolder(const Options& o) {
  const std::string in = o.plotInput;
  // held while the figures are written: a run still writing into the folder is named
  const OutputFolder folder = OutputFolder::Open(o.out.empty() ? in : o.out, "mbsweep plot " + in, {}, true);
  const std::string& out = folder.Path();
  std::ifstream sf(Join(in, "summary.json"));
  if (!sf) throw ValidationError(in + " has no summary.json (is it an output folder of mbsweep?)");
  const Json summary = Json::parse(sf);
  const std::string command = summary.value("command", "");
  const std::string objective = summary.value("studyObjective", "value");
  if (command == "sweep") return PlotSweep(in, out, summary, objective);
  if (command == "optimize" || command == "identify") return PlotGenetic(in, out, summary, command, objective);
  if (command == "sensitivity") return PlotSensitivity(in, out, summary);
  throw ValidationError("nothing to plot for a '" + command + "' run (plots exist for sweep, optimize, identify, sensitivity)");
}

/// An Exudyn-format results file (ours or Exudyn's): value against each parameter.
std::vector<std::string> PlotResultsFile(const Options& o) {
  const ResultsFileContents c = ReadResultsFile(o.plotInput);
  const std::string dir = o.out.empty() ? fs::path(o.plotInput).parent_path().string() : o.out;
  const OutputFolder folder = OutputFolder::Open(dir.empty() ? "." : dir, "mbsweep plot " + o.plotInput, {}, true);
  const std::string& out = folder.Path();
  const std::vector<std::string>& names = c.header.parameterNames;
  std::vector<std::vector<double>> cols(names.size());
  std::vector<double> values;
  for (const auto& r : c.rows) {
    if (r.parameters.size() != names.size())
      throw ValidationError(o.plotInput + ": row " + std::to_string(r.globalIndex) + " has " +
                            std::to_string(r.parameters.size()) + " parameters, the header names " +
                            std::to_string(names.size()));
    values.push_back(r.value.items.empty() ? NAN : r.value.items[0].value);
    for (size_t k = 0; k < names.size(); ++k) cols[k].push_back(r.parameters[k].value);
  }
  return ScatterPlots(out, names, cols, values, "value", c.header.fileType);
}

}  // namespace

int RunPlot(const Options& o) {
  const std::vector<std::string> written = fs::is_directory(o.plotInput) ? PlotFolder(o) : PlotResultsFile(o);
  if (!o.quiet)
    for (const auto& w : written) std::printf("%s\n", w.c_str());
  return 0;
}

}  // namespace mbsweep::cli
