// Per-model code generation (common/codegen.h): the layout as C++ constants.
#include "common/codegen.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "common/expression_compiler.h"
#include "common/fused_kernel.h"
#include "common/lockstep.h"
#include "common/objectives_host.h"
#include "common/system_runner.h"

namespace mbsweep {

namespace {

void WriteRecords(std::ostringstream& o, const char* name, const std::vector<ItemRec>& items) {
  if (items.empty()) return;
  o << "MBS_MODEL_CONSTANT ItemRec " << name << "[] = {";
  for (size_t i = 0; i < items.size(); ++i)
    o << (i % 8 == 0 ? "\n    " : " ") << "{" << items[i].kind << ", " << items[i].ints << ", " << items[i].theta
      << "},";
  o << "\n};\n";
}

/// The bit set of the kinds of `items` (kinds.h: ModelHasKind), as a C++ literal.
std::string KindBits(const std::vector<ItemRec>& items) {
  unsigned long long bits = 0;
  for (const ItemRec& r : items) bits |= 1ull << r.kind;
  std::ostringstream o;
  o << "0x" << std::hex << bits << "ull";
  return o.str();
}

const char* ArrayOrNull(const std::vector<ItemRec>& items, const char* name) {
  return items.empty() ? "nullptr" : name;
}

/// The Reals of the workspace of the explicit solver type that needs the most (ExplicitWorkSize).
int LargestExplicitWork(int nODE2, int nODE1) {
  int most = 0;
  for (int t = 0; t < kDynamicSolverTypeCount; ++t) {
    const DynamicSolverType type = static_cast<DynamicSolverType>(t);
    if (IsExplicitSolverType(type)) most = std::max(most, ExplicitWorkSize(type, nODE2, nODE1));
  }
  return most;
}

}  // namespace

std::string LayoutSource(const Layout& layout, int objectives) {
  const LayoutView v = layout.View();
  // the most values one sensor has (their number follows from the structure, as for the
  // objectives' checks), at least 1 and at most the interpreter's bound
  int sensorValues = 1;
  for (int size : SensorOutputSizes(layout, std::vector<Real>(static_cast<size_t>(layout.ThetaSize()), 0.)))
    sensorValues = std::max(sensorValues, size);
  sensorValues = std::min(sensorValues, kMaxSensorValues);
  std::ostringstream o;
  o << "// before any header: the kinds of the model's items (the dispatches leave out the others: common/kinds.h),\n"
       "// the most values one of its sensors has (the size of the sensor buffers: common/outputs.h),\n"
       "// the objectives its observers hold (common/objectives.h) and its constant layout, defined below, that\n"
       "// the integrators and observers hold as a compile-time constant (common/layout.h)\n"
    << "#define MBSWEEP_MODEL_NODE_KINDS " << KindBits(layout.nodes) << "\n"
    << "#define MBSWEEP_MODEL_OBJECT_KINDS " << KindBits(layout.objects) << "\n"
    << "#define MBSWEEP_MODEL_MARKER_KINDS " << KindBits(layout.markers) << "\n"
    << "#define MBSWEEP_MODEL_LOAD_KINDS " << KindBits(layout.loads) << "\n"
    << "#define MBSWEEP_MODEL_SENSOR_KINDS " << KindBits(layout.sensors) << "\n"
    << "#define MBSWEEP_MODEL_SENSOR_VALUES " << sensorValues << "\n"
    << "#define MBSWEEP_MODEL_OBJECTIVES " << ObjectiveBound(objectives) << "\n"
    << "#define MBSWEEP_MODEL_LAYOUT mbsweep_model::kLayout\n"
    << "#include \"common/layout.h\"\n\n"
       "// host code: constants; device code (nvcc): constants in device memory, folded where read\n"
       "#if defined(__CUDACC__)\n#define MBS_MODEL_CONSTANT __device__ constexpr\n#else\n"
       "#define MBS_MODEL_CONSTANT constexpr\n#endif\n\n"
       "namespace mbsweep_model {\nusing mbsweep::ItemRec;\nusing mbsweep::LayoutView;\n\n";
  WriteRecords(o, "kNodes", layout.nodes);
  WriteRecords(o, "kObjects", layout.objects);
  WriteRecords(o, "kMarkers", layout.markers);
  WriteRecords(o, "kLoads", layout.loads);
  WriteRecords(o, "kSensors", layout.sensors);
  o << "MBS_MODEL_CONSTANT int kInts[] = {";
  for (size_t i = 0; i < layout.ints.size(); ++i) o << (i % 16 == 0 ? "\n    " : " ") << layout.ints[i] << ",";
  if (layout.ints.empty()) o << "0";
  o << "\n};\n\nMBS_HD constexpr LayoutView MakeLayout() {\n  LayoutView v{};\n";
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
  const int unknowns = v.nODE2 + v.nODE1 + v.nAE, explicitUnknowns = v.nODE2 + v.nODE1;
  o << "  return v;\n}\n\nMBS_MODEL_CONSTANT LayoutView kLayout = MakeLayout();\n"
    << "// the integrators' and observers' layout member (MBS_LAYOUT_MEMBER, common/layout.h)\n"
    << "struct ModelLayout {\n"
    << "  MBS_HD_INLINE constexpr operator const LayoutView&() const { return kLayout; }\n};\n"
    << "constexpr int kUnknowns = " << unknowns << ";\n"
    << "// LU capacities: generalized-alpha (all unknowns), explicit solvers (the mass matrix)\n"
    << "constexpr int kCapacity = " << std::max(unknowns, 1) << ";\n"
    << "constexpr int kCapacityRK = " << std::max(v.nODE2, 1) << ";\n"
    << "constexpr int kExplicitUnknowns = " << std::max(explicitUnknowns, 1) << ";  // nODE2 + nODE1\n"
    << "\n}  // namespace mbsweep_model\n";
  return o.str();
}

std::string ExpressionsSource(const Layout& layout) {
  std::ostringstream o;
  o << "\n#define MBSWEEP_MODEL_EXPRESSIONS\n#include \"common/expression.h\"\n\nnamespace mbsweep_model {\n";
  if (layout.expressions.empty())  // no item reaches an expression: no program interpreter either
    o << "// the model has no expressions: never called\n";
  o << "MBS_HD_INLINE_HINT mbsweep::Real Expression(int program, const mbsweep::Real* args,\n"
       "                                           const mbsweep::Real* params) {\n"
       "  (void)program;\n  (void)args;\n  (void)params;\n";
  if (!layout.expressions.empty()) {
    o << "  switch (program) {\n";
    for (const ExpressionInfo& e : layout.expressions)
      o << "    case " << e.program << ":  // " << e.owner << "\n      return "
        << ExpressionCxx(layout.ints.data() + e.program) << ";\n";
    o << "  }\n";
  }
  o << "  return 0;\n}\n}  // namespace mbsweep_model\n";
  return o.str();
}

std::string CudaModelSource(const Layout& layout, bool explicitSolver, int objectives, bool warpPerSystem) {
  if (explicitSolver && warpPerSystem)
    throw std::logic_error("CudaModelSource: the warp-per-system kernel runs generalized-alpha only");
  const LayoutView v = layout.View();
  const int unknowns = v.nODE2 + v.nODE1 + v.nAE;
  const bool inlineAll = !warpPerSystem && !explicitSolver && unknowns <= kRegisterKernelUnknowns;
  std::ostringstream o;
  o << "// Generated by mbsweep (common/codegen.cpp): one model's " << (warpPerSystem ? "warp" : "thread")
    << "-per-system kernel; do not edit.\n";
  if (inlineAll)
    o << "// every call inlined, so that the system stays in registers (common/hostdevice.h)\n"
         "#define MBSWEEP_INLINE_ALL\n";
  o << LayoutSource(layout, objectives) << ExpressionsSource(layout)
    << "\n#include \"common/fused_kernel.h\"\n";
  const std::string args = "(const __grid_constant__ mbsweep::FusedArgs a,\n" + std::string(49, ' ');
  if (warpPerSystem) {
    // the warp's shared slot for the model's unknowns and workspace, as the evaluator sizes it
    const WarpSlot slot = MakeWarpSlot(v);
    o << "#include \"common/lockstep.h\"\n\n"
      << "extern \"C\" __global__ void __launch_bounds__(" << 32 * kWarpKernelMaxWarps << ") mbsweep_model_kernel"
      << args
      << "const __grid_constant__ mbsweep::GeneralizedAlphaParameters P) {\n"
      << "  constexpr mbsweep::WarpSlot kSlot{" << slot.n << ", " << slot.workSize << ", " << slot.inverse << ", "
      << slot.pivots << ", " << slot.reals << "};\n"
      << "  mbsweep::RunWarpSystem(a, mbsweep_model::kLayout, P, kSlot);\n}\n";
    return o.str();
  }
  const int thetaLocal = inlineAll || v.nTheta <= ThetaLocalBound(BatchCapacityFor(unknowns)) ? v.nTheta : 0;
  o << "#include \"common/system_runner.h\"\n\n"
    << "namespace mbsweep_model {\n"
    << (inlineAll ? "// theta gathered into registers, by rows or columns\n"
                  : "// theta read into local memory when the evaluator uploads it by columns "
                    "(the interpreter's rule)\n")
    << "constexpr int kThetaLocal = " << thetaLocal << ";\n}  // namespace mbsweep_model\n\n";
  // the integrator family's parameters, workspace (the Reals the model needs: for the explicit
  // family, its most demanding solver type's), LU capacity and runner
  const char* params = explicitSolver ? "ExplicitParameters" : "GeneralizedAlphaParameters";
  const int work = std::max(1, explicitSolver ? LargestExplicitWork(v.nODE2, v.nODE1) : GeneralizedAlphaWorkSize(v));
  const char* capacity = explicitSolver ? "kCapacityRK" : "kCapacity";
  const char* run = explicitSolver ? "RunExplicitSystem" : "RunGeneralizedAlphaSystem";
  // __grid_constant__: the observer and the integrator refer to the arguments where they lie,
  // instead of a copy in each thread's local memory
  o << "extern \"C\" __global__ void mbsweep_model_kernel" << args << "const __grid_constant__ mbsweep::" << params
    << " P) {\n"
    << "  using namespace mbsweep;\n  using namespace mbsweep_model;\n"
    << "  RunThreadSystem<kThetaLocal" << (inlineAll ? ", true" : "")
    << ">(a, [&P](const Real* theta, ObjectiveObserver<>& obs)"
    << (inlineAll ? " __attribute__((always_inline))" : "") << " {\n"
    << "    Real work[" << work << "];\n"
    << "    FixedLU<" << capacity << ", Real, true> la;\n"
    << "    return " << run << "<" << capacity << ", ObjectiveObserver<>, true>(kLayout, theta, P, work, la, obs);\n"
    << "  });\n}\n";
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

std::string JitCacheDirectory() {
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
  std::string dir = env("MBSWEEP_JIT_CACHE");
  if (dir.empty() && !env("XDG_CACHE_HOME").empty()) dir = env("XDG_CACHE_HOME") + "/mbsweep/jit";
  if (dir.empty() && !env("HOME").empty()) dir = env("HOME") + "/.cache/mbsweep/jit";
  if (dir.empty()) dir = "/tmp/mbsweep-jit-" + std::to_string(::getuid());
  return dir;
}

}  // namespace mbsweep
