//===--- FormatMacros.cpp - a JIT module built without its format's macro -===//
// SPDX-License-Identifier: Apache-2.0
#include "model/link/FormatMacros.h"

#include "model/FormatNames.h"

#include <clang/Basic/TokenKinds.h>
#include <clang/Lex/DependencyDirectivesScanner.h>

#include <algorithm>

namespace archscope::link {
namespace {

namespace scan = clang::dependency_directives_scan;

struct TestedMacro {
  std::string name;
  unsigned offset; ///< of its directive
};

/// The macros `text`'s conditionals test: `#ifdef M`, `#ifndef M`, and
/// `defined(M)` in `#if` / `#elif`. clang's dependency-directives scanner
/// reduces the file to its directives (continuations and comments handled).
std::vector<TestedMacro> testedMacros(const std::string &text) {
  llvm::SmallVector<scan::Token, 0> tokens;
  llvm::SmallVector<scan::Directive, 0> directives;
  std::vector<TestedMacro> out;
  if (clang::scanSourceForDependencyDirectives(text, tokens, directives))
    return out;
  for (const auto &d : directives) {
    bool direct = d.Kind == scan::pp_ifdef || d.Kind == scan::pp_ifndef || d.Kind == scan::pp_elifdef ||
                  d.Kind == scan::pp_elifndef;
    if (!direct && d.Kind != scan::pp_if && d.Kind != scan::pp_elif)
      continue;
    bool afterDefined = false;
    for (size_t i = 2; i < d.Tokens.size(); ++i) { // after `#` and the directive's name
      const scan::Token &t = d.Tokens[i];
      if (!t.is(clang::tok::raw_identifier))
        continue;
      std::string word = text.substr(t.Offset, t.Length);
      if ((direct && i == 2) || afterDefined)
        out.push_back({word, d.Tokens[0].Offset});
      afterDefined = word == "defined";
    }
  }
  return out;
}

Evidence directiveAt(const CppSource &file, unsigned offset) {
  int line = 1 + int(std::count(file.text.begin(), file.text.begin() + long(offset), '\n'));
  size_t end = file.text.find('\n', offset);
  return {file.path, line, 1, "cpp", file.text.substr(offset, end == std::string::npos ? end : end - offset),
          ""};
}

} // namespace

std::set<std::string> macrosDefinedBy(const std::vector<std::string> &flags) {
  std::set<std::string> out;
  for (const auto &f : flags)
    if (f.rfind("-D", 0) == 0 && f.size() > 2)
      out.insert(f.substr(2, f.find('=') - 2));
  return out;
}

std::optional<FormatMacroGap>
formatMacroLeftOut(const std::vector<std::pair<const CppSource *, int>> &sources,
                   const std::vector<std::string> &flags, const std::vector<std::string> &unsure,
                   const std::set<std::string> &definedElsewhere, const std::string &quant) {
  if (std::find(unsure.begin(), unsure.end(), "...") != unsure.end())
    return std::nullopt;
  std::set<std::string> own = macrosDefinedBy(flags);
  auto mayDefine = [&](const std::string &m) {
    return std::any_of(unsure.begin(), unsure.end(),
                       [&](const std::string &u) { return u.find(m) != std::string::npos; });
  };
  auto leftOut = [&](const std::string &m) {
    return !own.count(m) && definedElsewhere.count(m) && namesFormat(m, quant) == true && !mayDefine(m);
  };
  for (const auto &[file, unused] : sources) {
    if (file->text.find("#if") == std::string::npos && file->text.find("#elif") == std::string::npos)
      continue;
    for (const auto &m : testedMacros(file->text))
      if (leftOut(m.name))
        return FormatMacroGap{m.name, directiveAt(*file, m.offset)};
  }
  return std::nullopt;
}

} // namespace archscope::link
