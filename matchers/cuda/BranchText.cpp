//===--- BranchText.cpp - what one #if branch's lines say -----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/BranchText.h"

#include <regex>
#include <string>

namespace archscope::cuda {

BranchText readBranchText(llvm::StringRef lines) {
  static const std::regex failing(R"(\btrap\b|__trap|\babort\s*\(|\bassert\s*\(|static_assert|#\s*error\b|)"
                                  R"(__builtin_unreachable|not supported|only supports|unsupported)",
                                  std::regex::icase);
  BranchText out;
  std::string code; // only a short branch can be one that fails: no regex over a long one
  while (!lines.empty()) {
    auto [line, rest] = lines.split('\n');
    lines = rest;
    line = line.take_front(line.find("//"));
    if (line.trim().empty()) continue;
    if (++out.codeLines <= 6) code += line.str() + "\n";
  }
  // A branch that fails is a few lines saying so; a long one that asserts on
  // the way is an implementation.
  out.fails = out.codeLines <= 6 && std::regex_search(code, failing);
  return out;
}

} // namespace archscope::cuda
