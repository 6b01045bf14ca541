//===--- ArchStringRewrites.h - text replacements on CMake arch lists ------===//
// SPDX-License-Identifier: Apache-2.0
//
// Build scripts rewrite arch lists as text: torch's select_compute_arch.cmake
// turns a detected Fermi "2.1" into "2.1(2.0)" with string(REPLACE), which
// matches inside "12.1" too (field bug 5). This reads every string(REPLACE),
// string(REGEX REPLACE) and list(TRANSFORM ... REPLACE) of the CMake files
// whose match is one arch number; the check decides which other GPUs' archs
// the rewrite also hits.
//===----------------------------------------------------------------------===//
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace archscope::build {

struct ArchStringRewrite {
  std::string path; ///< absolute
  int line = 0;
  std::string command;     ///< "string(REPLACE)", "string(REGEX REPLACE)", "list(TRANSFORM REPLACE)"
  std::string match;       ///< the arch number matched, as plain text ("2.1")
  bool anchored = false;   ///< the regex is tied to list-item bounds (^, $, ;)
  std::string replacement; ///< as CMake reads it ("2.1(2.0)")
  std::string variable;    ///< the variable written
};

/// The rewrites of one CMake file's text (`path` is only recorded).
std::vector<ArchStringRewrite> archStringRewritesIn(const std::string &path, std::string_view text);

/// Every CMakeLists.txt and *.cmake under `roots`, vendored folders skipped.
std::vector<ArchStringRewrite> readArchStringRewrites(const std::vector<std::string> &roots);

} // namespace archscope::build
