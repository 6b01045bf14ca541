//===--- Config.h - `.archscope.yaml`: lint settings of a project ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Found by walking up from the audited path (or the working directory when
// there is none) to the top of its git work tree; --config FILE names one.
//
//   min-severity: warning          # note | warning | error
//   baseline: archscope-baseline.json   # relative to this file
//   rules:
//     cmake-arch-drop: error       # error | warning | note | off
//
// Flags override the file. Unknown keys, rules and levels are configuration
// errors (exit 2) at file:line:col.
//===----------------------------------------------------------------------===//
#pragma once
#include "tool/Options.h"

#include <map>
#include <optional>
#include <ostream>
#include <string>

namespace archscope::lint {

struct LintConfig {
  std::string file;                         ///< the file read; "" when none
  std::string minSeverity = "warning";
  std::string baseline;                     ///< "" when none
  std::map<std::string, std::string> rules; ///< rule id -> error | warning | note | off
};

/// The nearest `.archscope.yaml` at or above `start`, stopping at the top of
/// the git work tree holding it.
std::optional<std::string> findConfigFile(const std::string &start);

/// Reads and validates one config file.
LintConfig loadConfig(const std::string &file);

/// The discovered (or --config) file, with the flags of `opts` on top.
LintConfig effectiveConfig(const Options &opts);

/// The effective configuration as `.archscope.yaml` text, every rule listed.
void dumpConfig(const LintConfig &config, std::ostream &out);

} // namespace archscope::lint
