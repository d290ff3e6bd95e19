// Per-model code generation (common/codegen.h): the layout as C++ constants.
#include "common/codegen.h"

#include <sstream>

namespace mbsweep {

namespace {

void WriteRecords(std::ostringstream& o, const char* name, const std::vector<ItemRec>& items) {
  if (items.empty()) return;
  o << "constexpr ItemRec " << name << "[] = {";
  for (size_t i = 0; i < items.size(); ++i)
    o << (i % 8 == 0 ? "\n    " : " ") << "{" << items[i].kind << ", " << items[i].ints << ", " << items[i].theta
      << "},";
  o << "\n};\n";
}

const char* ArrayOrNull(const std::vector<ItemRec>& items, const char* name) { return items.empty() ? "nullptr" : name; }

}  // namespace

std::string LayoutSource(const Layout& layout) {
  const LayoutView v = layout.View();
  std::ostringstream o;
  o << "#include \"common/layout.h\"\n\nnamespace mbsweep_model {\nusing mbsweep::ItemRec;\nusing mbsweep::LayoutView;\n\n";
  WriteRecords(o, "kNodes", layout.nodes);
  WriteRecords(o, "kObjects", layout.objects);
  WriteRecords(o, "kMarkers", layout.markers);
  WriteRecords(o, "kLoads", layout.loads);
  WriteRecords(o, "kSensors", layout.sensors);
  o << "constexpr int kInts[] = {";
  for (size_t i = 0; i < layout.ints.size(); ++i) o << (i % 16 == 0 ? "\n    " : " ") << layout.ints[i] << ",";
  if (layout.ints.empty()) o << "0";
  o << "\n};\n\nconstexpr LayoutView MakeLayout() {\n  LayoutView v{};\n";
  auto field = [&o](const char* name, int value) { o << "  v." << name << " = " << value << ";\n"; };
  field("nODE2", v.nODE2);
  field("nODE1", v.nODE1);
  field("nAE", v.nAE);
  field("nTheta", v.nTheta);
  field("nNodes", v.nNodes);
  field("nObjects", v.nObjects);
  field("nMarkers", v.nMarkers);
  field("nLoads", v.nLoads);
  field("nSensors", v.nSensors);
  o << "  v.node = " << ArrayOrNull(layout.nodes, "kNodes") << ";\n";
  o << "  v.object = " << ArrayOrNull(layout.objects, "kObjects") << ";\n";
  o << "  v.marker = " << ArrayOrNull(layout.markers, "kMarkers") << ";\n";
  o << "  v.load = " << ArrayOrNull(layout.loads, "kLoads") << ";\n";
  o << "  v.sensor = " << ArrayOrNull(layout.sensors, "kSensors") << ";\n";
  o << "  v.ints = kInts;\n";
  field("constantMassMatrix", v.constantMassMatrix);
  field("maxLocalODE2", v.maxLocalODE2);
  field("forceList", v.forceList);
  field("nForces", v.nForces);
  field("constantForceList", v.constantForceList);
  field("nConstantForces", v.nConstantForces);
  field("variableForceList", v.variableForceList);
  field("nVariableForces", v.nVariableForces);
  field("constraintList", v.constraintList);
  field("nConstraintNodes", v.nConstraintNodes);
  field("nConstraintObjects", v.nConstraintObjects);
  field("planarMarkers", v.planarMarkers);
  field("eliminationTable", v.eliminationTable);
  field("nEliminated", v.nEliminated);
  field("constraintsEliminable", v.constraintsEliminable);
  o << "  return v;\n}\n\nconstexpr LayoutView kLayout = MakeLayout();\nconstexpr int kUnknowns = "
    << v.nODE2 + v.nODE1 + v.nAE << ";\n\n}  // namespace mbsweep_model\n";
  return o.str();
}

std::string HashHex(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<size_t>(i)] = digits[h & 15];
  return out;
}

std::string EmbeddedHeadersHash() {
  static const std::string hash = [] {
    std::string all;
    for (const EmbeddedHeader& h : EmbeddedHeaders()) {
      all += h.path;
      all += '\0';
      all += h.text;
      all += '\0';
    }
    return HashHex(all);
  }();
  return hash;
}

}  // namespace mbsweep
