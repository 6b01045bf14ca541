//===--- CMakeCommands.cpp - CMake's command syntax ------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/build/CMakeCommands.h"

#include <algorithm>
#include <cctype>

namespace archscope::build {

std::vector<Command> parseCommands(const std::string &text) {
  std::vector<Command> out;
  size_t i = 0;
  int line = 1;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < text.size(); ++k, ++i)
      if (text[i] == '\n') ++line;
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '#') { while (i < text.size() && text[i] != '\n') ++i; continue; }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) { advance(1); continue; }
    size_t start = i;
    int startLine = line;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
    std::string name = text.substr(start, i - start);
    size_t j = i;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j >= text.size() || text[j] != '(') continue;
    advance(j - i + 1);
    int depth = 1;
    bool quoted = false;
    size_t argsStart = i;
    while (i < text.size() && depth > 0) {
      char d = text[i];
      if (quoted) { if (d == '\\') advance(1); else if (d == '"') quoted = false; }
      else if (d == '"') quoted = true;
      else if (d == '#') { while (i < text.size() && text[i] != '\n') ++i; continue; }
      else if (d == '(') ++depth;
      else if (d == ')') --depth;
      advance(1);
    }
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char ch) { return std::tolower(ch); });
    out.push_back({name, text.substr(argsStart, i - argsStart - 1), startLine});
  }
  return out;
}

std::vector<std::string> splitArgs(const std::string &args) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (char c : args) {
    if (c == '"') quoted = !quoted;
    if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) out.push_back(cur), cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::string argumentValue(const std::string &arg) {
  if (arg.size() < 2 || arg.front() != '"' || arg.back() != '"') return arg;
  std::string out;
  for (size_t i = 1; i + 1 < arg.size(); ++i) {
    char c = arg[i];
    if (c != '\\' || i + 2 >= arg.size()) { out += c; continue; }
    char e = arg[++i];
    out += e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : e;
  }
  return out;
}

} // namespace archscope::build
