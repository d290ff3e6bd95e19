/// @file expression.h
/// User functions written as expressions (muParser syntax): a load's or a constraint offset's
/// time function `0.5*(1-cos(0.5*_pi*t))`, a spring force `0.1*k*u + k*u^3 + d*v`. The host
/// compiles the text once per model (common/expression_compiler.h) into a postfix program in
/// the layout's integer records; its named parameters are theta slots, so a study varies them
/// like any other number. Three evaluators give the same value:
///   - this header's program interpreter (host and device: the batch evaluators cpu, cuda);
///   - generated C++ (cpu-jit: common/codegen.cpp writes each expression out as code);
///   - muParser itself on the reference solver (ExpressionHost, attached to its LayoutView).
/// Program: [nCode, code...]; an operation is one int, Const is followed by the two 32-bit
/// halves of its double, Arg and Param by their index.
#pragma once

#include <math.h>
#include <string.h>

#include "common/hostdevice.h"
#include "common/types.h"

namespace mbsweep {

/// The operations of an expression program (a stack machine).
enum class ExprOp : int {
  Const,  ///< push a constant (two ints: low and high 32 bits)
  Arg,    ///< push argument i (t, u, v, ...: the user function's arguments)
  Param,  ///< push parameter i (a theta slot)
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Pow,
  Square,
  Cube,
  Fourth,  ///< x^2, x^3, x^4 of a variable, as products (as muParser evaluates them)
  Lt,
  Gt,
  Le,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  Select,  ///< c ? a : b
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Asinh,
  Acosh,
  Atanh,
  Log2,
  Log10,
  Ln,
  Exp,
  Sqrt,
  Sign,
  Rint,
  Abs,
  Min,
  Max,
};

/// The constants `_pi` and `_e` of every evaluator. muParser's own `_pi` (2.3.3) stops at 12
/// decimals, so each muParser of the project is given these instead.
constexpr Real kExpressionPi = 3.141592653589793238462643;
constexpr Real kExpressionE = 2.718281828459045235360287;

/// Deepest stack a program may use (the compiler refuses deeper expressions).
constexpr int kExpressionStack = 16;

/// The functions whose muParser definition is not a plain math call, shared by every evaluator.
MBS_HD_INLINE Real ExprSign(Real x) { return x < 0 ? Real(-1) : (x > 0 ? Real(1) : Real(0)); }
MBS_HD_INLINE Real ExprRint(Real x) { return floor(x + Real(0.5)); }
MBS_HD_INLINE Real ExprMin(Real a, Real b) { return b < a ? b : a; }
MBS_HD_INLINE Real ExprMax(Real a, Real b) { return a < b ? b : a; }
MBS_HD_INLINE Real ExprBool(bool b) { return b ? Real(1) : Real(0); }

/// The constant whose two 32-bit halves (low, high) start at c (an ExprOp::Const's operands).
MBS_HD_INLINE Real ExprConstant(const int* c) {
  const unsigned long long bits = static_cast<unsigned long long>(static_cast<unsigned>(c[0])) |
                                  (static_cast<unsigned long long>(static_cast<unsigned>(c[1])) << 32);
  Real x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

/// Evaluates a program at the arguments and parameters (theta slots).
MBS_HD_INLINE Real RunExpressionProgram(const int* program, const Real* args, const Real* params) {
  Real s[kExpressionStack];
  int top = -1;
  const int n = program[0];
  const int* c = program + 1;
  for (int k = 0; k < n; ++k) {
    const ExprOp op = static_cast<ExprOp>(c[k]);
    switch (op) {
      case ExprOp::Const:
        s[++top] = ExprConstant(c + k + 1);
        k += 2;
        continue;
      case ExprOp::Arg: s[++top] = args[c[++k]]; continue;
      case ExprOp::Param: s[++top] = params[c[++k]]; continue;
      case ExprOp::Select: {
        top -= 2;
        s[top] = s[top] != 0 ? s[top + 1] : s[top + 2];
        continue;
      }
      default: break;
    }
    Real& x = s[top];
    switch (op) {  // unary
      case ExprOp::Neg: x = -x; continue;
      case ExprOp::Square: x = x * x; continue;
      case ExprOp::Cube: x = x * x * x; continue;
      case ExprOp::Fourth: x = x * x * x * x; continue;
      case ExprOp::Sin: x = sin(x); continue;
      case ExprOp::Cos: x = cos(x); continue;
      case ExprOp::Tan: x = tan(x); continue;
      case ExprOp::Asin: x = asin(x); continue;
      case ExprOp::Acos: x = acos(x); continue;
      case ExprOp::Atan: x = atan(x); continue;
      case ExprOp::Sinh: x = sinh(x); continue;
      case ExprOp::Cosh: x = cosh(x); continue;
      case ExprOp::Tanh: x = tanh(x); continue;
      case ExprOp::Asinh: x = asinh(x); continue;
      case ExprOp::Acosh: x = acosh(x); continue;
      case ExprOp::Atanh: x = atanh(x); continue;
      case ExprOp::Log2: x = log2(x); continue;
      case ExprOp::Log10: x = log10(x); continue;
      case ExprOp::Ln: x = log(x); continue;
      case ExprOp::Exp: x = exp(x); continue;
      case ExprOp::Sqrt: x = sqrt(x); continue;
      case ExprOp::Sign: x = ExprSign(x); continue;
      case ExprOp::Rint: x = ExprRint(x); continue;
      case ExprOp::Abs: x = fabs(x); continue;
      default: break;
    }
    const Real b = s[top--];  // binary: a op b
    Real& a = s[top];
    switch (op) {
      case ExprOp::Add: a = a + b; break;
      case ExprOp::Sub: a = a - b; break;
      case ExprOp::Mul: a = a * b; break;
      case ExprOp::Div: a = a / b; break;
      case ExprOp::Pow: a = pow(a, b); break;
      case ExprOp::Lt: a = ExprBool(a < b); break;
      case ExprOp::Gt: a = ExprBool(a > b); break;
      case ExprOp::Le: a = ExprBool(a <= b); break;
      case ExprOp::Ge: a = ExprBool(a >= b); break;
      case ExprOp::Eq: a = ExprBool(a == b); break;
      case ExprOp::Ne: a = ExprBool(a != b); break;
      case ExprOp::And: a = ExprBool(a != 0 && b != 0); break;
      case ExprOp::Or: a = ExprBool(a != 0 || b != 0); break;
      case ExprOp::Min: a = ExprMin(a, b); break;
      case ExprOp::Max: a = ExprMax(a, b); break;
      default: break;
    }
  }
  return s[0];
}

/// The reference solver's evaluator of a model's expressions (muParser; host only).
struct ExpressionHost {
  virtual ~ExpressionHost() = default;
  /// The value of the expression whose program starts at `program` (a pointer into the
  /// layout's integer records).
  virtual Real Evaluate(const int* program, const Real* args, const Real* params) const = 0;
};

}  // namespace mbsweep

#if defined(MBSWEEP_MODEL_EXPRESSIONS)
// Generated model code (common/codegen.cpp) defines, after its constant records kInts, the
// function of its expressions by the offset of their programs in kInts.
namespace mbsweep_model {
MBS_HD_INLINE_HINT mbsweep::Real Expression(int program, const mbsweep::Real* args, const mbsweep::Real* params);
}
#endif

namespace mbsweep {

/// The value of an expression: generated code where the model is compiled (cpu-jit), else
/// the host evaluator where one is attached (the reference solver: muParser), else the program.
MBS_HD_INLINE Real EvalExpression(const int* program, const Real* args, const Real* params,
                                  const ExpressionHost* host) {
#if defined(MBSWEEP_MODEL_EXPRESSIONS)
  (void)host;
  return mbsweep_model::Expression(static_cast<int>(program - mbsweep_model::kInts), args, params);
#else
#if !defined(__CUDA_ARCH__)
  if (host) return host->Evaluate(program, args, params);
#else
  (void)host;
#endif
  return RunExpressionProgram(program, args, params);
#endif
}

}  // namespace mbsweep
