//===--- AnsweringLines.cpp - the lines of a check that give its answer -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/AnsweringLines.h"

#include "matchers/python/FactSink.h"

#include <algorithm>

namespace archscope::py {
namespace {

constexpr const char *kHardwareWords[] = {"capability", "is_sm",     "_sm1",  "_sm9",
                                          "_sm8",       "blackwell", "hopper"};

/// Return statements under `node`, in source order (not into nested defs).
void collectReturns(TSNode node, std::vector<TSNode> &out) {
  for (TSNode child : namedChildren(node)) {
    auto t = type(child);
    if (t == "return_statement")
      out.push_back(child);
    else if (t != "function_definition" && t != "class_definition" && t != "lambda")
      collectReturns(child, out);
  }
}

} // namespace

bool mentionsHardware(std::string_view text) {
  for (const char *w : kHardwareWords)
    if (text.find(w) != std::string::npos)
      return true;
  return false;
}

Evidence answeringLine(const Module &m, TSNode def) {
  if (isNull(def) || type(def) != "function_definition")
    return {};
  std::vector<TSNode> returns;
  collectReturns(field(def, "body"), returns);
  if (returns.empty())
    return {};
  TSNode pick = returns[0];
  for (TSNode r : returns)
    if (mentionsHardware(m.parsed->text(r))) {
      pick = r;
      break;
    }
  Evidence e = evidenceAt(m, pick, "gives the answer");
  // A return spread over lines (`return (` ...): show the line that reads the GPU.
  std::string_view text = m.parsed->text(pick);
  for (const char *w : kHardwareWords) {
    size_t at = text.find(w);
    if (at == std::string_view::npos || text.substr(0, at).find('\n') == std::string_view::npos)
      continue;
    size_t bol = text.rfind('\n', at) + 1, eol = text.find('\n', at);
    std::string_view line =
        text.substr(bol, eol == std::string_view::npos ? std::string_view::npos : eol - bol);
    e.line += int(std::count(text.begin(), text.begin() + long(bol), '\n'));
    e.snippet = std::string(line.substr(std::min(line.size(), line.find_first_not_of(" \t"))));
    break;
  }
  return e;
}

Evidence lineOf(const Module &m, TSNode def, size_t from, const std::function<bool(std::string_view)> &pick,
                const std::string &note, size_t *at) {
  std::string_view text = m.parsed->text(def);
  size_t index = 0;
  for (size_t bol = 0; bol < text.size(); ++index) {
    size_t eol = std::min(text.size(), text.find('\n', bol));
    std::string_view line = text.substr(bol, eol - bol);
    if (index >= from && pick(line)) {
      Evidence e = evidenceAt(m, def, note);
      e.line += int(index);
      e.snippet = std::string(line.substr(std::min(line.size(), line.find_first_not_of(" \t"))));
      if (at)
        *at = index;
      return e;
    }
    bol = eol + 1;
  }
  return {};
}

} // namespace archscope::py
