/// @file expression_compiler.h
/// Host only: user-function expressions (muParser syntax) compiled into the programs of
/// common/expression.h, written out as C++ for generated model code, and evaluated by
/// muParser for the reference solver.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/expression.h"
#include "common/layout.h"

namespace mu {
class Parser;
}

namespace mbsweep {

/// A malformed expression: the message names the offending token; `position` is its
/// 0-based offset in the text.
struct ExpressionError : std::runtime_error {
  int position;
  ExpressionError(const std::string& msg, int pos) : std::runtime_error(msg), position(pos) {}
};

/// One expression of a text: its program ([nCode, code...]) and its own text.
struct ExpressionComponent {
  std::vector<int> program;
  std::string text;
};

/// Compiles a function of `components` values: its text is as many expressions, separated by
/// commas (muParser's form of several results, "F*cos(w*t), F*sin(w*t), 0"), each compiled
/// as by CompileExpression. Throws ExpressionError if the count differs.
std::vector<ExpressionComponent> CompileExpressions(const std::string& text, const std::vector<std::string>& args,
                                                   const std::vector<std::string>& params, int components);

/// Compiles `text` into a program ([nCode, code...]). Its variables are the arguments `args`
/// (ExprOp::Arg i; an argument may name a component, "loadVector[0]") and the parameters
/// `params` (ExprOp::Param i); the constants `_pi` and `_e`
/// and muParser's operators and functions are known: + - * / ^ (right-associative, above the
/// sign), comparisons, && ||, c ? a : b, sin cos tan asin acos atan sinh cosh tanh asinh acosh
/// atanh log2 log10 log ln exp sqrt sign rint abs, and min max sum avg of one or more values.
/// Throws ExpressionError for anything else.
std::vector<int> CompileExpression(const std::string& text, const std::vector<std::string>& args,
                                   const std::vector<std::string>& params);

/// Whether `name` can name a variable of an expression (and a study parameter): letters,
/// digits and '_', not starting with a digit.
bool IsExpressionName(const std::string& name);

/// Gives a muParser the constants `_pi` and `_e` of every evaluator (kExpressionPi,
/// kExpressionE) in place of its own (muParser 2.3.3's `_pi` has 12 decimals).
void DefineExpressionConstants(mu::Parser& parser);

/// The program as one C++ expression of `args[i]` and `params[i]` that evaluates to the same
/// double as RunExpressionProgram (the same operations in the same order).
std::string ExpressionCxx(const int* program);

/// muParser's evaluation of every expression of `layout` (Layout::expressions), for the
/// reference solver (LayoutView::expressionHost). Not thread-safe: one per simulation.
std::unique_ptr<ExpressionHost> MakeMuParserExpressions(const Layout& layout);

/// The reference solver's view of `layout`: layout.View() with its expressions evaluated by
/// muParser, the evaluator held as long as this object.
struct MuParserLayoutView {
  explicit MuParserLayoutView(const Layout& layout)
      : expressions(MakeMuParserExpressions(layout)), view(layout.View()) {
    view.expressionHost = expressions.get();
  }
  std::unique_ptr<ExpressionHost> expressions;
  LayoutView view;
};

}  // namespace mbsweep
