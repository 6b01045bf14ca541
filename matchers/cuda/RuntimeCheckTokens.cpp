//===--- RuntimeCheckTokens.cpp - conditions read from spelled text ------===//
// SPDX-License-Identifier: Apache-2.0
//
// When a header is missing, clang drops what it cannot type: the condition
// of `if (tensorrt_llm::common::getSMVersion() == 120)` becomes a
// RecoveryExpr with no children, only its source range. This reader parses
// such text with C++ precedence (|| && ! comparisons + - * / %), calls and
// member accesses, and feeds the same algebra as the AST reader. Anything it
// does not understand makes the whole text one leaf, never a silent drop.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/RuntimeCheckConditions.h"

#include <cctype>
#include <cstdlib>
#include <vector>

namespace archscope::cuda::detail {
namespace {

struct Tok {
  enum Kind { Ident, Number, Punct, String, End } kind;
  std::string_view text;
  size_t offset;
};

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skipQuoted(std::string_view s, size_t i) {
  char q = s[i++];
  while (i < s.size() && s[i] != q) i += s[i] == '\\' ? 2 : 1;
  return std::min(i + 1, s.size());
}

std::vector<Tok> tokenize(std::string_view s) {
  static constexpr std::string_view kTwoChar[] = {"||", "&&", "==", "!=", "<=", ">=", "->", "::", "<<", ">>"};
  std::vector<Tok> out;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (s.substr(i, 2) == "//") { i = s.find('\n', i); if (i == std::string_view::npos) break; continue; }
    if (s.substr(i, 2) == "/*") { i = s.find("*/", i); i = i == std::string_view::npos ? s.size() : i + 2; continue; }
    size_t start = i;
    Tok::Kind kind = Tok::Punct;
    if (c == '"' || c == '\'') { i = skipQuoted(s, i); kind = Tok::String; }
    else if (std::isdigit(static_cast<unsigned char>(c))) { while (i < s.size() && (identChar(s[i]) || s[i] == '\'')) ++i; kind = Tok::Number; }
    else if (identChar(c)) { while (i < s.size() && identChar(s[i])) ++i; kind = Tok::Ident; }
    else {
      i += 1;
      for (auto two : kTwoChar)
        if (s.substr(start, 2) == two) { i = start + 2; break; }
    }
    out.push_back({kind, s.substr(start, i - start), start});
  }
  out.push_back({Tok::End, {}, s.size()});
  return out;
}

long numberValue(std::string_view text) {
  std::string digits;
  for (char c : text)
    if (c != '\'') digits += c;
  return std::strtol(digits.c_str(), nullptr, 0); // stops at u/l suffixes
}

/// A parsed sub-expression: an integer worth `term`, or a boolean `cond`.
struct PVal {
  SmTerm term;
  std::optional<Translated> cond;
  size_t begin = 0, end = 0; ///< character range in the text
};

class TokenParser {
public:
  TokenParser(std::string_view text, const NameFacts &facts) : text_(text), toks_(tokenize(text)), facts_(facts) {}

  /// nullopt when the text is not an expression this reader knows.
  std::optional<PVal> parse() {
    PVal v = orExpr();
    if (failed_ || peek().kind != Tok::End) return std::nullopt;
    return v;
  }
  Translated asCondition(const PVal &v) { return v.cond ? *v.cond : truthOf(v.term, slice(v)); }
  /// A condition used as an integer (`(sm >= 90) & flag`) reads the SM, untranslated.
  static SmTerm valueOf(const PVal &v) {
    if (!v.cond) return v.term;
    return v.cond->readsSm ? SmTerm::opaque() : SmTerm::none();
  }

private:
  const Tok &peek(size_t ahead = 0) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool accept(std::string_view punct) {
    if (peek().kind == Tok::Punct && peek().text == punct) { ++pos_; return true; }
    return false;
  }
  size_t here() const { return peek().offset; }
  size_t endOfPrevious() const { return pos_ == 0 ? 0 : toks_[pos_ - 1].offset + toks_[pos_ - 1].text.size(); }
  std::string slice(const PVal &v) const { return std::string(text_.substr(v.begin, v.end - v.begin)); }
  PVal fail() { failed_ = true; return {}; }

  PVal logical(std::string_view op, PVal (TokenParser::*next)(), bool conjunction) {
    PVal l = (this->*next)();
    while (!failed_ && accept(op)) {
      PVal r = (this->*next)();
      Translated c = conjunction ? both(asCondition(l), asCondition(r)) : either(asCondition(l), asCondition(r));
      l = {SmTerm::none(), c, l.begin, r.end};
    }
    return l;
  }
  PVal orExpr() { return logical("||", &TokenParser::andExpr, false); }
  PVal andExpr() { return logical("&&", &TokenParser::bitwise, true); }
  /// `flags & CutlassGemmConfig::HOPPER`: an integer of no SM meaning.
  PVal bitwise() { return arithmeticChain("&|^", &TokenParser::comparison); }

  PVal comparison() {
    PVal l = additive();
    while (!failed_ && peek().kind == Tok::Punct) {
      auto op = cmpOpOf(peek().text);
      if (!op) break;
      ++pos_;
      PVal r = additive();
      PVal whole{SmTerm::none(), std::nullopt, l.begin, r.end};
      whole.cond = compareTerms(l.term, *op, r.term, slice(whole));
      l = whole;
    }
    return l;
  }

  PVal arithmeticChain(std::string_view ops, PVal (TokenParser::*next)()) {
    PVal l = (this->*next)();
    while (!failed_ && peek().kind == Tok::Punct && peek().text.size() == 1 && ops.find(peek().text[0]) != std::string_view::npos) {
      char op = peek().text[0];
      ++pos_;
      PVal r = (this->*next)();
      l = {arithmetic(op, valueOf(l), valueOf(r)), std::nullopt, l.begin, r.end};
    }
    return l;
  }
  PVal additive() { return arithmeticChain("+-", &TokenParser::multiplicative); }
  PVal multiplicative() { return arithmeticChain("*/%", &TokenParser::unary); }

  PVal unary() {
    size_t begin = here();
    if (accept("!")) {
      PVal v = unary();
      return {SmTerm::none(), negation(asCondition(v)), begin, v.end};
    }
    if (accept("-")) {
      PVal v = unary();
      return {arithmetic('-', SmTerm::constant(0), v.term), std::nullopt, begin, v.end};
    }
    if (accept("&")) { // an address is no read of the value
      PVal v = unary();
      return {SmTerm::none(), std::nullopt, begin, v.end};
    }
    return primary();
  }

  PVal primary() {
    size_t begin = here();
    const Tok &t = peek();
    if (accept("(")) {
      PVal v = orExpr();
      if (!accept(")")) return fail();
      v.begin = begin;
      v.end = endOfPrevious();
      return v;
    }
    if (t.kind == Tok::Number) { ++pos_; return {SmTerm::constant(numberValue(t.text)), std::nullopt, begin, endOfPrevious()}; }
    if (t.kind == Tok::String) { // a message: `major >= 9 && "needs Hopper"`
      while (peek().kind == Tok::String) ++pos_;
      return {SmTerm::none(), Translated{Condition::truth(), false}, begin, endOfPrevious()};
    }
    if (t.kind == Tok::Ident) return access(begin);
    return fail();
  }

  /// `a::b::c`, then any of `(args)`, `.member`, `->member`, `[index]`.
  PVal access(size_t begin) {
    std::string_view last = peek().text;
    ++pos_;
    while (accept("::")) {
      if (peek().kind != Tok::Ident) return fail();
      last = peek().text;
      ++pos_;
    }
    if (last == "true" || last == "false")
      return {SmTerm::none(), Translated{last == "true" ? Condition::truth() : Condition::falsity(), false}, begin, endOfPrevious()};
    bool simpleName = true;
    SmTerm term;
    for (;;) {
      if (peek().kind == Tok::Punct && peek().text == "(") {
        if (!skipBalanced("(", ")")) return fail();
        term = classifyCallName(last);
        simpleName = false;
      } else if (accept(".") || accept("->")) {
        if (peek().kind != Tok::Ident) return fail();
        last = peek().text;
        ++pos_;
        term = classifyVariableName(last);
        simpleName = false;
      } else if (peek().kind == Tok::Punct && peek().text == "[") {
        if (!skipBalanced("[", "]")) return fail();
        term = term.firmlyReadsSm() ? SmTerm::opaque() : SmTerm::none();
        simpleName = false;
      } else {
        break;
      }
    }
    PVal v{term, std::nullopt, begin, endOfPrevious()};
    if (simpleName) {
      auto fact = facts_.find(last);
      if (fact != facts_.end()) { v.term = fact->second.term; v.cond = fact->second.cond; }
      else v.term = classifyVariableName(last);
    }
    return v;
  }

  bool skipBalanced(std::string_view open, std::string_view close) {
    int depth = 0;
    do {
      if (peek().kind == Tok::End) return false;
      if (peek().text == open) ++depth;
      if (peek().text == close) --depth;
      ++pos_;
    } while (depth > 0);
    return true;
  }

  std::string_view text_;
  std::vector<Tok> toks_;
  const NameFacts &facts_;
  size_t pos_ = 0;
  bool failed_ = false;
};

/// Whether any identifier of the text names the SM: decides unknown versus
/// a configuration atom when the text could not be parsed.
bool mentionsSm(std::string_view text) {
  auto toks = tokenize(text);
  for (size_t i = 0; i + 1 < toks.size(); ++i) {
    if (toks[i].kind != Tok::Ident) continue;
    if (identifierHintsSm(toks[i].text, toks[i + 1].text)) return true;
  }
  return false;
}

} // namespace

Translated parseConditionText(std::string_view text, const NameFacts &facts) {
  TokenParser parser(text, facts);
  if (auto v = parser.parse()) return parser.asCondition(*v);
  return leaf(std::string(text), mentionsSm(text));
}

SmTerm parseValueText(std::string_view text, const NameFacts &facts) {
  TokenParser parser(text, facts);
  if (auto v = parser.parse()) {
    if (!v->cond) return v->term;
    return v->cond->readsSm ? SmTerm::opaque() : SmTerm::none();
  }
  return mentionsSm(text) ? SmTerm::opaque() : SmTerm::none();
}

NameFact parseInitializerText(std::string_view text, const NameFacts &facts) {
  TokenParser parser(text, facts);
  auto v = parser.parse();
  if (!v) return {mentionsSm(text) ? SmTerm::opaque() : SmTerm::none(), std::nullopt};
  if (v->cond) return {SmTerm::none(), v->cond};
  return {v->term, std::nullopt};
}

} // namespace archscope::cuda::detail
