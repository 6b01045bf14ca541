//===--- Suppressions.h - `archscope: ignore[rule-id]` comments ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// A suppression is a comment in the language's own syntax:
//   # archscope: ignore[rule-id]            Python, CMake
//   // archscope: ignore[rule-a, rule-b]    C, C++, CUDA (also /* ... */)
// A trailing comment covers its own line; a comment alone on its line covers
// the next line that is not itself such a comment (so several can stack).
// Text after the closing bracket is free, for the reason. A suppression that
// covers no finding, or names a rule archscope does not have, becomes a
// notice: it warns, it never fails the run (a stale id must not break CI).
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Finding.h"
#include "tool/lint/LintReport.h"

#include <map>
#include <string>
#include <vector>

namespace archscope::lint {

struct Suppression {
  std::string path; ///< as found under the roots
  int line = 0, col = 0;
  int coveredLine = 0;
  std::vector<std::string> rules;
  std::vector<bool> used; ///< per rule
};

/// The suppressions of one file's text.
std::vector<Suppression> parseSuppressions(const std::string &path, const std::string &text);

class Suppressions {
public:
  /// Reads every Python, CMake and C/C++/CUDA file under `roots` that
  /// mentions "archscope:" (hidden folders skipped).
  static Suppressions scan(const std::vector<std::string> &roots);

  /// True when a comment covers the finding's primary line and names its
  /// rule; marks that comment used.
  bool suppresses(const Finding &f);

  /// Unused suppressions and unknown rule ids, in file order.
  std::vector<LintNotice> notices() const;

  size_t size() const;

private:
  std::map<std::string, std::vector<Suppression>> byFile_; ///< absolute normal path -> comments
};

} // namespace archscope::lint
