// User-function expressions (common/expression.h, common/expression_compiler.h): the program
// interpreter of the batch evaluators gives muParser's value (the reference solver's evaluator)
// to 4 ulps on muParser's operators, precedences and functions; malformed texts are refused with
// the offending token and its position; the generated C++ names the same operations.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "common/expression_compiler.h"
#include "common/model.h"

namespace mbsweep {
namespace {

const std::vector<std::string> kArgs = {"t", "u", "v"};
const std::vector<std::string> kParams = {"k", "d"};

/// The program of `text` and muParser's evaluator of it, in a layout of their own.
struct Compiled {
  Layout layout;
  std::unique_ptr<ExpressionHost> muParser;
  explicit Compiled(const std::string& text) {
    layout.ints = CompileExpression(text, kArgs, kParams);
    layout.expressions.push_back(ExpressionInfo{0, "test", text, kArgs, kParams});
    muParser = MakeMuParserExpressions(layout);
  }
  Real Program(const Real* args, const Real* params) const {
    return RunExpressionProgram(layout.ints.data(), args, params);
  }
  Real MuParser(const Real* args, const Real* params) const {
    return muParser->Evaluate(layout.ints.data(), args, params);
  }
};

TEST(Expression, ProgramEqualsMuParser) {
  const char* texts[] = {
      "0.1*k*u + k*u^3 + d*v",  // Exudyn's CoordinateSpringDamper user-function example
      "u^2 + u^3 - u^4",
      "(u+1)^3 + u^2.5 + 2^3^2",  // ^ is right-associative: 2^9
      "-u^2 + 2^-2 - -v",         // the sign binds weaker than ^
      "k/d/t - 1-2-3*u",          // left-associative
      "sin(t)*cos(u) + tan(v/10)",
      "asin(v/10) + acos(u/10) + atan(t)",
      "sinh(u) + cosh(v) - tanh(t)",
      "asinh(u) + acosh(1+t) + atanh(v/10)",
      "log2(1+t) + log10(2+u*u) + log(3+t) + ln(4+t)",
      "exp(-t)*sqrt(1+u*u)",
      "sign(u)*abs(v) + rint(t*3.7) + sign(0*u)",
      "min(u,v,t) + max(u,v) + min(k,d)",
      "sum(t,u,v)/avg(k,d,t)",
      "t < 0.5 ? k*u : d*v",
      "(t >= 0.25 && u < 0.3) || v == 1",
      "(t != 0.5) + (u <= v) + (u > v)*2",
      "1e-3*k + .5*d + 2.5E2*t + 3.",
      "_pi*t + _e",
      "+u - (-(v))",
      "t > 1 ? (u > 0 ? 1 : 2) : 3",
      "0.5*(1-cos(0.5*_pi*t))",
  };
  const Real points[][3] = {{0.0, 0.2, -0.7}, {0.37, -0.15, 0.4}, {0.5, 0.3, 1.0}, {1.7, 0.8, -0.05}};
  const Real params[] = {5000, 80};
  for (const char* text : texts) {
    const Compiled c(text);
    for (const auto& p : points) {
      const Real a = c.Program(p, params), b = c.MuParser(p, params);
      if (std::isnan(a) && std::isnan(b)) continue;  // (u+1)^3 + u^2.5 at u < 0
      EXPECT_DOUBLE_EQ(a, b) << text << " at t=" << p[0] << " u=" << p[1] << " v=" << p[2];
    }
  }
}

// Values against the arithmetic written out (precedence and associativity are muParser's).
TEST(Expression, PrecedenceAndAssociativity) {
  const Real args[] = {0.5, 3, -2}, params[] = {5000, 80};
  auto value = [&](const char* text) { return Compiled(text).Program(args, params); };
  EXPECT_EQ(value("2^3^2"), 512.);
  EXPECT_EQ(value("-2^2"), -4.);
  EXPECT_EQ(value("2^-1"), 0.5);
  EXPECT_EQ(value("8/4/2"), 1.);
  EXPECT_EQ(value("1-2-3"), -4.);
  EXPECT_EQ(value("1+2*3^2"), 19.);
  EXPECT_EQ(value("u > 2 && v < 0 ? 7 : 8"), 7.);
  EXPECT_EQ(value("0 || 0 ? 7 : 8"), 8.);
  EXPECT_EQ(value("avg(1,2,6)"), 3.);
  EXPECT_EQ(value("rint(2.5) + rint(-2.5)"), 3. + -2.);
  EXPECT_EQ(value("0.1*k*u + k*u^3 + d*v"), 0.1 * 5000 * 3 + 5000 * 27. + 80 * -2);
}

TEST(Expression, ErrorsNameTheTokenAndPosition) {
  auto error = [](const std::string& text) -> std::string {
    try {
      CompileExpression(text, kArgs, kParams);
    } catch (const ExpressionError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("k*x + 1"),
            "unknown variable 'x' (arguments: t, u, v; parameters: k, d; constants: _pi, _e) at position 2");
  EXPECT_NE(error("sine(t)").find("unknown function 'sine'"), std::string::npos) << error("sine(t)");
  EXPECT_NE(error("sin(t").find("expected ')' closing sin("), std::string::npos) << error("sin(t");
  EXPECT_NE(error("sin(t, u)").find("it takes one argument"), std::string::npos);
  EXPECT_EQ(error(""), "the expression is empty at position 0");
  EXPECT_EQ(error("t +"), "the expression ends where a value is expected at position 3");
  EXPECT_EQ(error("t u"), "unexpected 'u' at position 2");
  EXPECT_EQ(error("t ? u"), "expected ':' of 'c ? a : b' at the end at position 5");
  EXPECT_EQ(error("1..2"), "malformed number '1..2' at position 0");
  std::string deep = "t";
  for (int i = 0; i < kExpressionStack; ++i) deep = "t+(" + deep + ")";
  EXPECT_NE(error(deep).find("nests deeper than 16"), std::string::npos) << error(deep);
  EXPECT_EQ(error("t+(t+(t+(t)))"), "");
  // parentheses and signs nest without values piling up, but not without bound
  EXPECT_EQ(error(std::string(100, '(') + "t" + std::string(100, ')')), "");
  EXPECT_EQ(error(std::string(100000, '(') + "t"), "the expression nests deeper than 256 levels at position 128");
  EXPECT_EQ(error(std::string(100000, '-') + "t"), "the expression nests deeper than 256 levels at position 255");
}

// A vector function: its components, separated by commas at the outer level, are compiled one by
// one with their own texts; an argument may name a component ("loadVector[1]"), and muParser
// (brackets made name characters) gives each component the program's value.
TEST(Expression, VectorComponents) {
  const std::vector<std::string> args = UserFunctionArgs(kLoadVectorUserFunctionArgs);
  ASSERT_EQ(args, (std::vector<std::string>{"t", "loadVector[0]", "loadVector[1]", "loadVector[2]"}));
  const std::vector<ExpressionComponent> c =
      CompileExpressions(" F*cos(w*t) , min(loadVector[0], t)*2,loadVector[2]^2 ", args, {"F", "w"}, 3);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].text, "F*cos(w*t)");
  EXPECT_EQ(c[1].text, "min(loadVector[0], t)*2");
  EXPECT_EQ(c[2].text, "loadVector[2]^2");
  Layout layout;
  for (const ExpressionComponent& e : c) {
    layout.expressions.push_back(
        ExpressionInfo{static_cast<int>(layout.ints.size()), "test", e.text, args, {"F", "w"}});
    layout.ints.insert(layout.ints.end(), e.program.begin(), e.program.end());
  }
  const std::unique_ptr<ExpressionHost> muParser = MakeMuParserExpressions(layout);
  const Real a[4] = {0.3, -1.5, 2, 7}, p[2] = {20, 30};
  const Real expected[3] = {20 * std::cos(30 * 0.3), -3, 49};
  for (size_t i = 0; i < 3; ++i) {
    const int* program = layout.ints.data() + layout.expressions[i].program;
    EXPECT_EQ(RunExpressionProgram(program, a, p), expected[i]) << i;
    EXPECT_EQ(muParser->Evaluate(program, a, p), expected[i]) << i;
  }
  auto error = [&args](const std::string& text, int components) -> std::string {
    try {
      CompileExpressions(text, args, {}, components);
    } catch (const ExpressionError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("t, 0", 3), "it has 2 components, 3 are needed");
  EXPECT_EQ(error("t, 0", 1), "',' separates the components of a vector; this function is a scalar");
  EXPECT_EQ(error("t, , 0", 3), "unexpected ',' where a value is expected at position 3");
  EXPECT_EQ(error("t, 0,", 3), "an expression is missing after ',' at position 5");
  EXPECT_NE(error("loadVector[3], 0, 0", 3).find("unknown variable 'loadVector[3]'"), std::string::npos);
  EXPECT_NE(error("loadVector, 0, 0", 3).find("unknown variable 'loadVector'"), std::string::npos);
}

// The C++ of generated code: the same operations (constants exact, in hexadecimal).
TEST(Expression, GeneratedCode) {
  const std::vector<int> p = CompileExpression("k*u^3 + (t < 0.5 ? -v : sign(v)) + 0.1", kArgs, kParams);
  EXPECT_EQ(
      ExpressionCxx(p.data()),
      "(((params[0] * ((args[1] * args[1]) * args[1])) + (mbsweep::ExprBool(args[0] < (0x1p-1)) != 0 ? (-args[2]) "
      ": mbsweep::ExprSign(args[2]))) + (0x1.999999999999ap-4))");
}

// A time function given as an expression: a model error names the item, the field, the text
// and the rule before anything runs.
std::string CompileError(const TimeFunction& f) {
  Model m;
  NodePoint np;
  const NodeIndex n = m.AddNode(np);
  ObjectMassPoint mp;
  mp.nodeNumber = n;
  mp.mass = 1;
  m.AddObject(mp);
  MarkerNodeCoordinate mc;
  mc.nodeNumber = n;
  LoadCoordinate load;
  load.name = "push";
  load.markerNumber = m.AddMarker(mc);
  load.load = 2;
  load.timeFunction = f;
  try {  // AddLoad checks the item's fields
    m.AddLoad(load);
    m.Compile();
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "";
}

TEST(Expression, ModelErrorsNameTheItem) {
  EXPECT_EQ(CompileError(TimeFunction::Expression("A*sin(w*t)", {{"A", 1}})),
            "LoadCoordinate 'push' (load 0): timeFunction.expression = 'A*sin(w*t)': unknown variable 'w' (arguments: "
            "t; parameters: A; constants: _pi, _e) at position 6 (a muParser expression of t and its parameters)");
  EXPECT_EQ(CompileError(TimeFunction::Expression("A*t", {{"A", 1}, {"t", 2}})),
            "LoadCoordinate 'push' (load 0): timeFunction.parameters[1] = 't' is not a parameter name (an identifier "
            "other than t, _pi and _e)");
  EXPECT_EQ(CompileError(TimeFunction::Expression("A*t", {{"A", 1}, {"A", 2}})),
            "LoadCoordinate 'push' (load 0): timeFunction.parameters[1] = 'A' is given twice");
  EXPECT_EQ(CompileError(TimeFunction::Expression("A*t", {{"A", NAN}})),
            "LoadCoordinate 'push' (load 0): timeFunction.A = nan violates Real (must be finite)");
  EXPECT_EQ(CompileError(TimeFunction::Expression("A*t", {{"A", 1}})), "");
}

// A load's user function: the number of its values, and no time function beside it.
TEST(Expression, LoadUserFunctionErrorsNameTheItem) {
  auto error = [](const std::string& text, TimeFunction f) -> std::string {
    Model m;
    NodePoint np;
    MarkerNodePosition mn;
    mn.nodeNumber = m.AddNode(np);
    LoadForceVector load;
    load.name = "spin";
    load.markerNumber = m.AddMarker(mn);
    load.loadVectorUserFunction.expression = text;
    load.timeFunction = f;
    try {
      m.AddLoad(load);
    } catch (const ValidationError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error("cos(t), sin(t)", {}),
            "LoadForceVector 'spin' (load 0): loadVectorUserFunction.expression = 'cos(t), sin(t)': it has 2 "
            "components, 3 are needed (3 muParser expressions, separated by commas, of t, "
            "loadVector[0], loadVector[1], loadVector[2] and its parameters)");
  EXPECT_EQ(error("cos(t), sin(t), 0", TimeFunction::Harmonic(1, 2)),
            "LoadForceVector 'spin' (load 0): timeFunction is given beside loadVectorUserFunction, which gives the "
            "load's value itself; give one of them");
  EXPECT_EQ(error("cos(t), sin(t), 0", {}), "");
}

}  // namespace
}  // namespace mbsweep
