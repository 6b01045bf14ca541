//===--- RuntimeCheckRegistrations.cpp - op registrations from tokens ----===//
// SPDX-License-Identifier: Apache-2.0
//
// TORCH_LIBRARY(ns, m) { m.def("op(Tensor x) -> Tensor"); m.impl("op", &fn); }
// and its _FRAGMENT / _IMPL / _EXPAND / STABLE_ variants, PYBIND11_MODULE(ns, m)
// { m.def("op", &fn); }, and TVM_FFI_DLL_EXPORT_TYPED_FUNC(op, fn).
// Read from the written tokens, not the AST: without the torch, pybind or
// tvm-ffi headers these macros are undeclared, and clang parses
// `TORCH_LIBRARY(ns, m) {...}` as an invalid function whose body it drops.
// Preprocessor directives are skipped, so the macros' own #defines do not
// count; registrations inside #if regions count whatever the condition.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/RuntimeChecks.h"

#include <cctype>

namespace archscope::cuda {
namespace {

struct Token {
  enum Kind { Ident, String, Punct } kind;
  std::string_view text;
  int line, col;
};

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Identifiers, string literals and punctuation of the text, without
/// comments or preprocessor directives.
std::vector<Token> lex(std::string_view s) {
  std::vector<Token> out;
  int line = 1;
  size_t lineStart = 0;
  bool lineHasToken = false;
  auto newline = [&](size_t i) { ++line; lineStart = i + 1; lineHasToken = false; };
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '\n') { newline(i); ++i; continue; }
    if (std::isspace(static_cast<unsigned char>(c))) { ++i; continue; }
    if (s.substr(i, 2) == "//") { while (i < s.size() && s[i] != '\n') ++i; continue; }
    if (s.substr(i, 2) == "/*") {
      size_t end = s.find("*/", i);
      end = end == std::string_view::npos ? s.size() : end + 2;
      for (; i < end; ++i) if (s[i] == '\n') newline(i);
      continue;
    }
    if (c == '#' && !lineHasToken) { // a directive, with its continuation lines
      while (i < s.size() && s[i] != '\n') i += (s[i] == '\\' && i + 1 < s.size()) ? 2 : 1;
      continue;
    }
    size_t start = i;
    Token::Kind kind = Token::Punct;
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) i += s[i] == '\\';
      ++i;
      kind = Token::String;
    } else if (identChar(c)) {
      while (i < s.size() && identChar(s[i])) ++i;
      kind = Token::Ident;
    } else {
      i += (s.substr(i, 2) == "::" || s.substr(i, 2) == "->") ? 2 : 1;
    }
    lineHasToken = true;
    out.push_back({kind, s.substr(start, std::min(i, s.size()) - start), line, int(start - lineStart) + 1});
  }
  return out;
}

using Span = std::pair<size_t, size_t>; ///< [first, last) token indices

/// The top-level arguments of the parenthesized list opening at `open`;
/// `close` receives the index of its `)`.
std::vector<Span> argumentsAt(const std::vector<Token> &t, size_t open, size_t &close) {
  std::vector<Span> out;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < t.size(); ++i) {
    std::string_view x = t[i].text;
    if (t[i].kind == Token::Punct && (x == "(" || x == "[" || x == "{")) ++depth;
    if (t[i].kind == Token::Punct && (x == ")" || x == "]" || x == "}")) --depth;
    if (t[i].kind == Token::Punct && ((x == "," && depth == 1) || depth == 0)) { out.emplace_back(start, i); start = i + 1; }
    if (depth == 0) { close = i; return out; }
  }
  close = t.size();
  return out;
}

std::string spanText(const std::vector<Token> &t, Span s) {
  std::string out;
  for (size_t i = s.first; i < s.second; ++i) out += t[i].text;
  return out;
}

/// `&fn`, `fn`, `ns::fn<T>`, `TORCH_BOX(&fn)`: the function an argument names;
/// empty for a lambda or anything else.
std::string functionIn(const std::vector<Token> &t, Span s) {
  size_t from = s.first;
  for (size_t i = s.first; i < s.second; ++i)
    if (t[i].text == "&") { from = i + 1; break; }
    else if (t[i].text == "[") return "";
  std::string out;
  for (size_t i = from; i < s.second; ++i) {
    if (t[i].kind == Token::Ident || t[i].text == "::") out += t[i].text;
    else if (!out.empty()) break;
  }
  return out;
}

/// The op of `"op(Tensor x) -> Tensor"` (adjacent literals joined), without a namespace.
std::string opIn(const std::vector<Token> &t, Span s) {
  std::string text;
  for (size_t i = s.first; i < s.second && t[i].kind == Token::String; ++i)
    text += t[i].text.substr(1, t[i].text.size() - 2);
  for (size_t i = s.first; text.empty() && i < s.second; ++i) // TORCH_SELECTIVE_SCHEMA("...")
    if (t[i].kind == Token::String) text = t[i].text.substr(1, t[i].text.size() - 2);
  text = text.substr(0, text.find('('));
  size_t colons = text.rfind("::");
  return colons == std::string::npos ? text : text.substr(colons + 2);
}

class Scanner {
public:
  Scanner(const std::string &path, std::string_view text) : path_(path), text_(text), t_(lex(text)) {}

  std::vector<OpRegistration> run() {
    for (size_t i = 0; i + 1 < t_.size(); ++i) {
      if (t_[i].kind != Token::Ident || t_[i + 1].text != "(") continue;
      std::string_view name = t_[i].text;
      size_t close = 0;
      auto args = argumentsAt(t_, i + 1, close);
      if (name == "TVM_FFI_DLL_EXPORT_TYPED_FUNC" && args.size() == 2)
        add("", spanText(t_, args[0]), functionIn(t_, args[1]), t_[i]);
      bool torch = name.find("TORCH_LIBRARY") != std::string_view::npos;
      if ((torch || name == "PYBIND11_MODULE") && args.size() >= 2 && close + 1 < t_.size() && t_[close + 1].text == "{") {
        bool implBlock = name.find("_IMPL") != std::string_view::npos && args.size() >= 3;
        i = body(spanText(t_, args[0]), spanText(t_, args[implBlock ? 2 : 1]), close + 1);
      }
    }
    return std::move(out_);
  }

private:
  /// The registrations `var.def(...)` / `var.impl(...)` of the block opening
  /// at `open`; returns the index of its closing brace.
  size_t body(const std::string &ns, const std::string &var, size_t open) {
    int depth = 0;
    for (size_t i = open; i < t_.size(); ++i) {
      if (t_[i].text == "{") ++depth;
      if (t_[i].text == "}" && --depth == 0) return i;
      bool call = t_[i].text == var && i + 3 < t_.size() && t_[i + 1].text == "." && t_[i + 3].text == "(";
      if (!call || (t_[i + 2].text != "def" && t_[i + 2].text != "impl")) continue;
      size_t close = 0;
      auto args = argumentsAt(t_, i + 3, close);
      if (args.empty()) continue;
      bool impl = t_[i + 2].text == "impl";
      // def("op", &fn, ...) names the function second; impl("op", [key,] fn) last.
      std::string fn = impl ? functionIn(t_, args.back()) : args.size() >= 2 ? functionIn(t_, args[1]) : "";
      add(ns, opIn(t_, args[0]), fn, t_[i]);
    }
    return t_.size();
  }

  void add(std::string ns, std::string op, std::string fn, const Token &at) {
    if (op.empty()) return;
    size_t lineStart = at.text.data() - text_.data() - (at.col - 1);
    size_t lineEnd = text_.find('\n', lineStart);
    std::string_view line = text_.substr(lineStart, lineEnd == std::string_view::npos ? std::string_view::npos : lineEnd - lineStart);
    size_t b = line.find_first_not_of(" \t"), e = line.find_last_not_of(" \t\r");
    std::string snippet = b == std::string_view::npos ? "" : std::string(line.substr(b, e - b + 1));
    out_.push_back({std::move(ns), std::move(op), std::move(fn), {path_, at.line, at.col, "cpp", snippet, ""}});
  }

  const std::string &path_;
  std::string_view text_;
  std::vector<Token> t_;
  std::vector<OpRegistration> out_;
};

} // namespace

std::vector<OpRegistration> scanOpRegistrations(const std::string &path, std::string_view text) {
  bool any = false;
  for (std::string_view word : {"TORCH_LIBRARY", "PYBIND11_MODULE", "TVM_FFI_DLL_EXPORT_TYPED_FUNC"})
    any |= text.find(word) != std::string_view::npos;
  if (!any) return {};
  return Scanner(path, text).run();
}

} // namespace archscope::cuda
