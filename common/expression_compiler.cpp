#include "common/expression_compiler.h"

#include <muParser.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>

namespace mbsweep {

namespace {

struct UnaryFunction {
  const char* name;
  ExprOp op;
};
constexpr UnaryFunction kUnary[] = {
    {"sin", ExprOp::Sin},   {"cos", ExprOp::Cos},     {"tan", ExprOp::Tan},     {"asin", ExprOp::Asin},
    {"acos", ExprOp::Acos}, {"atan", ExprOp::Atan},   {"sinh", ExprOp::Sinh},   {"cosh", ExprOp::Cosh},
    {"tanh", ExprOp::Tanh}, {"asinh", ExprOp::Asinh}, {"acosh", ExprOp::Acosh}, {"atanh", ExprOp::Atanh},
    {"log2", ExprOp::Log2}, {"log10", ExprOp::Log10}, {"log", ExprOp::Ln},      {"ln", ExprOp::Ln},
    {"exp", ExprOp::Exp},   {"sqrt", ExprOp::Sqrt},   {"sign", ExprOp::Sign},   {"rint", ExprOp::Rint},
    {"abs", ExprOp::Abs},
};
constexpr const char* kVariadic[] = {"min", "max", "sum", "avg"};

std::string Known(const std::vector<std::string>& args, const std::vector<std::string>& params) {
  std::string s = "arguments: ";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  s += "; parameters: ";
  if (params.empty()) s += "none";
  for (size_t i = 0; i < params.size(); ++i) s += (i ? ", " : "") + params[i];
  return s + "; constants: _pi, _e";
}

/// Recursive-descent parser with muParser's precedences (low to high): ?:, ||, &&,
/// comparisons, + -, * / and the sign, ^. Emits postfix code and tracks the stack depth.
class Parser {
 public:
  Parser(const std::string& text, const std::vector<std::string>& args, const std::vector<std::string>& params)
      : s_(text), args_(args), params_(params) {}

  /// The programs of the text's comma-separated expressions (one for a scalar function).
  std::vector<ExpressionComponent> Compile() {
    std::vector<ExpressionComponent> out;
    do {
      Skip();
      const size_t start = pos_;
      if (pos_ >= s_.size()) Fail(out.empty() ? "the expression is empty" : "an expression is missing after ','", pos_);
      code_.clear();
      depth_ = 0;
      Ternary();
      size_t end = pos_;
      while (end > start && std::isspace(static_cast<unsigned char>(s_[end - 1]))) --end;
      ExpressionComponent c{{static_cast<int>(code_.size())}, s_.substr(start, end - start)};
      c.program.insert(c.program.end(), code_.begin(), code_.end());
      out.push_back(std::move(c));
    } while (Accept(","));
    Skip();
    if (pos_ < s_.size()) Fail("unexpected '" + std::string(1, s_[pos_]) + "'", pos_);
    return out;
  }

 private:
  [[noreturn]] void Fail(const std::string& msg, size_t at) const {
    throw ExpressionError(msg + " at position " + std::to_string(at), static_cast<int>(at));
  }
  void Skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool Accept(const char* tok) {
    Skip();
    const size_t n = std::strlen(tok);
    if (s_.compare(pos_, n, tok) != 0) return false;
    pos_ += n;
    return true;
  }
  void Expect(const char* tok, const char* what) {
    if (!Accept(tok)) {
      Skip();
      Fail(std::string("expected ") + what +
               (pos_ < s_.size() ? ", got '" + std::string(1, s_[pos_]) + "'" : " at the end"),
           pos_);
    }
  }
  void Push(int delta) {
    depth_ += delta;
    if (depth_ > kExpressionStack)
      Fail("the expression nests deeper than " + std::to_string(kExpressionStack) + " pending values", pos_);
  }
  void Emit(ExprOp op) {
    code_.push_back(static_cast<int>(op));
    switch (op) {
      case ExprOp::Neg:
      case ExprOp::Square:
      case ExprOp::Cube:
      case ExprOp::Fourth: break;
      case ExprOp::Select: Push(-2); break;
      default:
        if (op >= ExprOp::Sin && op <= ExprOp::Abs) break;
        Push(-1);  // binary
    }
  }
  void EmitConst(Real x) {
    unsigned long long bits;
    std::memcpy(&bits, &x, sizeof bits);
    code_.insert(code_.end(), {static_cast<int>(ExprOp::Const), static_cast<int>(static_cast<unsigned>(bits)),
                               static_cast<int>(static_cast<unsigned>(bits >> 32))});
    Push(1);
  }

  /// Bounds the parser's recursion (parentheses, arguments, signs), so that no text exhausts
  /// the call stack.
  struct Nest {
    Parser& p;
    explicit Nest(Parser& parser) : p(parser) {
      if (++p.nesting_ > kMaxNesting)
        p.Fail("the expression nests deeper than " + std::to_string(kMaxNesting) + " levels", p.pos_);
    }
    ~Nest() { --p.nesting_; }
  };
  static constexpr int kMaxNesting = 256;

  void Ternary() {
    const Nest nest(*this);
    Or();
    if (Accept("?")) {
      Ternary();
      Expect(":", "':' of 'c ? a : b'");
      Ternary();
      Emit(ExprOp::Select);
    }
  }
  struct Infix {
    const char* token;  ///< longer tokens before their prefixes ("<=" before "<")
    ExprOp op;
  };
  /// One left-associative level: operands parsed by `next`, joined by the operators `ops`.
  template <size_t N> void Level(void (Parser::*next)(), const Infix (&ops)[N]) {
    (this->*next)();
    for (;;) {
      const Infix* found = nullptr;
      for (const Infix& o : ops)
        if (!found && Accept(o.token)) found = &o;
      if (!found) return;
      (this->*next)();
      Emit(found->op);
    }
  }
  void Or() { Level(&Parser::And, {{"||", ExprOp::Or}}); }
  void And() { Level(&Parser::Compare, {{"&&", ExprOp::And}}); }
  void Compare() {
    Level(&Parser::Sum, {{"<=", ExprOp::Le},
                         {">=", ExprOp::Ge},
                         {"==", ExprOp::Eq},
                         {"!=", ExprOp::Ne},
                         {"<", ExprOp::Lt},
                         {">", ExprOp::Gt}});
  }
  void Sum() { Level(&Parser::Product, {{"+", ExprOp::Add}, {"-", ExprOp::Sub}}); }
  void Product() { Level(&Parser::Signed, {{"*", ExprOp::Mul}, {"/", ExprOp::Div}}); }
  /// A sign binds weaker than ^ (-x^2 is -(x^2)), as muParser's.
  void Signed() {
    const Nest nest(*this);
    if (Accept("-")) {
      Signed();
      Emit(ExprOp::Neg);
    } else if (Accept("+")) {
      Signed();
    } else {
      Power();
    }
  }
  void Power() {
    const size_t start = code_.size();
    Primary();
    if (!Accept("^")) return;
    // a variable to the literal power 2, 3 or 4 is a product, as in muParser's byte code
    const bool variable = code_.size() - start == 2 && (code_[start] == static_cast<int>(ExprOp::Arg) ||
                                                        code_[start] == static_cast<int>(ExprOp::Param));
    const size_t exponent = code_.size();
    Signed();  // right-associative; the exponent may carry a sign (2^-1)
    if (variable && code_.size() - exponent == 3 && code_[exponent] == static_cast<int>(ExprOp::Const)) {
      const Real e = ExprConstant(&code_[exponent + 1]);
      if (e == 2 || e == 3 || e == 4) {
        code_.resize(exponent);
        --depth_;
        Emit(e == 2 ? ExprOp::Square : e == 3 ? ExprOp::Cube : ExprOp::Fourth);
        return;
      }
    }
    Emit(ExprOp::Pow);
  }
  void Primary() {
    Skip();
    if (pos_ >= s_.size()) Fail("the expression ends where a value is expected", pos_);
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') return Number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return Name();
    if (Accept("(")) {
      Ternary();
      Expect(")", "')'");
      return;
    }
    Fail("unexpected '" + std::string(1, c) + "' where a value is expected", pos_);
  }
  void Number() {
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.')) ++pos_;
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      size_t k = pos_ + 1;
      if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
      if (k < s_.size() && std::isdigit(static_cast<unsigned char>(s_[k]))) {
        pos_ = k;
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      }
    }
    const std::string text = s_.substr(start, pos_ - start);
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) Fail("malformed number '" + text + "'", start);
    EmitConst(x);
  }
  void Name() {
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) ++pos_;
    // an argument's component, "loadVector[0]": the index in brackets is part of the name
    size_t close = pos_ + 1;
    while (close < s_.size() && std::isdigit(static_cast<unsigned char>(s_[close]))) ++close;
    if (pos_ < s_.size() && s_[pos_] == '[' && close > pos_ + 1 && close < s_.size() && s_[close] == ']')
      pos_ = close + 1;
    const std::string name = s_.substr(start, pos_ - start);
    Skip();
    if (pos_ < s_.size() && s_[pos_] == '(') return Call(name, start);
    for (size_t i = 0; i < args_.size(); ++i)
      if (args_[i] == name) {
        code_.insert(code_.end(), {static_cast<int>(ExprOp::Arg), static_cast<int>(i)});
        return Push(1);
      }
    for (size_t i = 0; i < params_.size(); ++i)
      if (params_[i] == name) {
        code_.insert(code_.end(), {static_cast<int>(ExprOp::Param), static_cast<int>(i)});
        return Push(1);
      }
    if (name == "_pi") return EmitConst(kExpressionPi);
    if (name == "_e") return EmitConst(kExpressionE);
    Fail("unknown variable '" + name + "' (" + Known(args_, params_) + ")", start);
  }
  void Call(const std::string& name, size_t start) {
    ++pos_;  // '('
    for (const UnaryFunction& f : kUnary)
      if (name == f.name) {
        Ternary();
        Expect(")", ("')' closing " + name + "(: it takes one argument").c_str());
        return Emit(f.op);
      }
    if (std::find_if(std::begin(kVariadic), std::end(kVariadic), [&](const char* v) { return name == v; }) ==
        std::end(kVariadic)) {
      std::string all;
      for (const UnaryFunction& f : kUnary) all += std::string(f.name) + ", ";
      Fail("unknown function '" + name + "' (functions: " + all + "min, max, sum, avg)", start);
    }
    const ExprOp op = name == "min" ? ExprOp::Min : name == "max" ? ExprOp::Max : ExprOp::Add;
    int n = 0;
    do {
      Ternary();
      if (++n > 1) Emit(op);
    } while (Accept(","));
    Expect(")", ("')' closing " + name + "(").c_str());
    if (name == "avg") {
      EmitConst(n);
      Emit(ExprOp::Div);
    }
  }

  const std::string& s_;
  const std::vector<std::string>& args_;
  const std::vector<std::string>& params_;
  size_t pos_ = 0;
  int depth_ = 0;
  int nesting_ = 0;
  std::vector<int> code_;
};

const char* FunctionName(ExprOp op) {
  switch (op) {
    case ExprOp::Sin: return "sin";
    case ExprOp::Cos: return "cos";
    case ExprOp::Tan: return "tan";
    case ExprOp::Asin: return "asin";
    case ExprOp::Acos: return "acos";
    case ExprOp::Atan: return "atan";
    case ExprOp::Sinh: return "sinh";
    case ExprOp::Cosh: return "cosh";
    case ExprOp::Tanh: return "tanh";
    case ExprOp::Asinh: return "asinh";
    case ExprOp::Acosh: return "acosh";
    case ExprOp::Atanh: return "atanh";
    case ExprOp::Log2: return "log2";
    case ExprOp::Log10: return "log10";
    case ExprOp::Ln: return "log";
    case ExprOp::Exp: return "exp";
    case ExprOp::Sqrt: return "sqrt";
    case ExprOp::Sign: return "mbsweep::ExprSign";
    case ExprOp::Rint: return "mbsweep::ExprRint";
    case ExprOp::Abs: return "fabs";
    case ExprOp::Pow: return "pow";
    case ExprOp::Min: return "mbsweep::ExprMin";
    case ExprOp::Max: return "mbsweep::ExprMax";
    default: return nullptr;
  }
}
const char* InfixName(ExprOp op) {
  switch (op) {
    case ExprOp::Add: return "+";
    case ExprOp::Sub: return "-";
    case ExprOp::Mul: return "*";
    case ExprOp::Div: return "/";
    case ExprOp::Lt: return "<";
    case ExprOp::Gt: return ">";
    case ExprOp::Le: return "<=";
    case ExprOp::Ge: return ">=";
    case ExprOp::Eq: return "==";
    case ExprOp::Ne: return "!=";
    default: return nullptr;
  }
}

}  // namespace

std::vector<ExpressionComponent> CompileExpressions(const std::string& text, const std::vector<std::string>& args,
                                                   const std::vector<std::string>& params, int components) {
  std::vector<ExpressionComponent> c = Parser(text, args, params).Compile();
  if (static_cast<int>(c.size()) != components)
    throw ExpressionError(components == 1 ? "',' separates the components of a vector; this function is a scalar"
                                          : "it has " + std::to_string(c.size()) + " components, " +
                                                std::to_string(components) + " are needed",
                          0);
  return c;
}

std::vector<int> CompileExpression(const std::string& text, const std::vector<std::string>& args,
                                   const std::vector<std::string>& params) {
  return CompileExpressions(text, args, params, 1).front().program;
}

bool IsExpressionName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

void DefineExpressionConstants(mu::Parser& parser) {
  parser.DefineConst("_pi", kExpressionPi);
  parser.DefineConst("_e", kExpressionE);
}

std::string ExpressionCxx(const int* program) {
  std::vector<std::string> st;
  const int n = program[0];
  const int* c = program + 1;
  auto pop = [&st] {
    std::string x = std::move(st.back());
    st.pop_back();
    return x;
  };
  for (int k = 0; k < n; ++k) {
    const ExprOp op = static_cast<ExprOp>(c[k]);
    if (op == ExprOp::Const) {
      const Real x = ExprConstant(c + k + 1);
      std::ostringstream o;
      o << std::hexfloat << x;  // exact
      st.push_back("(" + o.str() + ")");
      k += 2;
    } else if (op == ExprOp::Arg || op == ExprOp::Param) {
      st.push_back(std::string(op == ExprOp::Arg ? "args[" : "params[") + std::to_string(c[++k]) + "]");
    } else if (op == ExprOp::Select) {
      const std::string b = pop(), a = pop(), cond = pop();
      st.push_back("(" + cond + " != 0 ? " + a + " : " + b + ")");
    } else if (op == ExprOp::Neg) {
      st.push_back("(-" + pop() + ")");
    } else if (op == ExprOp::Square || op == ExprOp::Cube || op == ExprOp::Fourth) {
      const std::string x = pop();
      const int times = op == ExprOp::Square ? 2 : op == ExprOp::Cube ? 3 : 4;
      std::string e = x;
      for (int i = 1; i < times; ++i) e = "(" + e + " * " + x + ")";
      st.push_back(e);
    } else if (op >= ExprOp::Sin && op <= ExprOp::Abs) {
      st.push_back(std::string(FunctionName(op)) + "(" + pop() + ")");
    } else {
      const std::string b = pop(), a = pop();
      if (const char* infix = InfixName(op)) {
        const bool compare = op >= ExprOp::Lt;
        st.push_back(compare ? "mbsweep::ExprBool(" + a + " " + infix + " " + b + ")"
                             : "(" + a + " " + infix + " " + b + ")");
      } else if (op == ExprOp::And || op == ExprOp::Or) {
        st.push_back("mbsweep::ExprBool(" + a + " != 0 " + (op == ExprOp::And ? "&&" : "||") + " " + b + " != 0)");
      } else {
        st.push_back(std::string(FunctionName(op)) + "(" + a + ", " + b + ")");
      }
    }
  }
  return st.empty() ? "0" : st.back();
}

namespace {

/// One muParser per expression, its variables bound to its own storage.
class MuParserExpressions final : public ExpressionHost {
 public:
  explicit MuParserExpressions(const Layout& layout) : ints_(layout.ints.data()) {
    for (const ExpressionInfo& e : layout.expressions) {
      auto& entry = entries_[e.program];
      entry.args.assign(e.args.size(), 0.);
      entry.params.assign(e.params.size(), 0.);
      DefineExpressionConstants(entry.parser);
      // arguments such as loadVector[0]: brackets are part of a name
      entry.parser.DefineNameChars("0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ[]");
      for (size_t i = 0; i < e.args.size(); ++i) entry.parser.DefineVar(e.args[i], &entry.args[i]);
      for (size_t i = 0; i < e.params.size(); ++i) entry.parser.DefineVar(e.params[i], &entry.params[i]);
      entry.parser.SetExpr(e.text);
    }
  }
  Real Evaluate(const int* program, const Real* args, const Real* params) const override {
    Entry& e = entries_.at(static_cast<int>(program - ints_));
    std::copy(args, args + e.args.size(), e.args.begin());
    std::copy(params, params + e.params.size(), e.params.begin());
    return e.parser.Eval();
  }

 private:
  struct Entry {
    std::vector<double> args, params;  // never resized after DefineVar
    mu::Parser parser;
  };
  const int* ints_;
  mutable std::map<int, Entry> entries_;
};

}  // namespace

std::unique_ptr<ExpressionHost> MakeMuParserExpressions(const Layout& layout) {
  if (layout.expressions.empty()) return nullptr;
  return std::make_unique<MuParserExpressions>(layout);
}

}  // namespace mbsweep
