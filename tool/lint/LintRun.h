//===--- LintRun.h - the steps of `archscope lint` ------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// collect (every layer, every rule) -> buildReport (fingerprints,
// suppressions, severities, threshold) -> baseline and --diff-base filters
// -> emitters. Each filter only removes findings and counts what it hid.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Finding.h"
#include "tool/Options.h"
#include "tool/lint/Config.h"
#include "tool/lint/LintReport.h"

#include <set>
#include <string>
#include <vector>

namespace archscope::lint {

/// What the layers say, before any configuration.
struct RawLint {
  std::vector<Finding> findings;  ///< paths as a reader opens them from the working directory
  std::vector<std::string> warnings;
  std::vector<std::string> roots; ///< the engine tree, then each --with tree
  std::string stats;              ///< "read N Python files, ..."
};

/// Reads every layer of the tree(s) and runs every rule (tool/Lint.cpp).
RawLint collectFindings(const Options &opts);

/// Fingerprints, then suppressions, per-rule levels and the threshold.
LintReport buildReport(RawLint raw, const LintConfig &config);

/// Drops the findings whose fingerprint is in `accepted`, counting them in `hidden`.
void dropFingerprints(LintReport &report, const std::set<std::string> &accepted, size_t &hidden);

/// The portable path of each finding (baseline entries).
std::vector<std::string> portablePaths(const LintReport &report, const std::vector<std::string> &roots);

} // namespace archscope::lint
