//===--- FormatMacros.cpp - a JIT module built without its format's macro -===//
// SPDX-License-Identifier: Apache-2.0
#include "model/link/FormatMacros.h"

#include "model/FormatNames.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace archscope::link {

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
  static const std::regex conditional(R"(^\s*#\s*(ifdef|ifndef|if|elif)\b(.*))");
  static const std::regex tested(R"(\bdefined\s*\(?\s*(\w+))"), word(R"(\w+)");
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
    if (file->text.find("#if") == std::string::npos)
      continue;
    std::istringstream in(file->text);
    int line = 0;
    for (std::string text; std::getline(in, text);) {
      ++line;
      std::smatch m;
      if (text.find('#') == std::string::npos)
        continue;
      if (!std::regex_search(text, m, conditional))
        continue;
      std::string directive = m[1], rest = m[2];
      std::vector<std::string> names;
      std::smatch first;
      if ((directive == "ifdef" || directive == "ifndef") && std::regex_search(rest, first, word))
        names.push_back(first[0]);
      for (std::sregex_iterator it(rest.begin(), rest.end(), tested), end; it != end; ++it)
        names.push_back((*it)[1]);
      for (const auto &name : names)
        if (leftOut(name))
          return FormatMacroGap{name, {file->path, line, 1, "cpp", text, ""}};
    }
  }
  return std::nullopt;
}

} // namespace archscope::link
