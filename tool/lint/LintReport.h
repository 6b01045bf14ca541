//===--- LintReport.h - what one lint run found, ready for the emitters ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Findings travel with their fingerprint (the line-independent identity that
// baselines, --diff-base and SARIF partialFingerprints share). Notices are the
// run's own warnings that have a place in the tree, such as a suppression that
// suppresses nothing; they never change the exit code.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Finding.h"
#include "model/checks/Rule.h"

#include <set>
#include <string>
#include <vector>

namespace archscope {

/// Ids of the notices lint itself raises (not rules: they never fail a run).
inline constexpr const char *kUnusedSuppression = "unused-suppression";
inline constexpr const char *kUnknownSuppressionRule = "unknown-rule-in-suppression";

struct LintNotice {
  std::string id;      ///< kUnusedSuppression, kUnknownSuppressionRule
  Evidence where;      ///< the suppression comment
  std::string message;
};

struct LintReport {
  std::vector<Finding> findings;         ///< reported, sorted by path, line, rule
  std::vector<std::string> fingerprints; ///< one per finding
  std::vector<std::string> warnings;     ///< input problems (files that did not parse, ...)
  std::vector<LintNotice> notices;
  std::vector<checks::RuleInfo> rules;   ///< every rule, with its effective severity
  std::set<std::string> offRules;
  std::string sourceRoot;                ///< absolute; SARIF %SRCROOT%, fingerprint paths
  size_t suppressed = 0, belowThreshold = 0, baselined = 0, preExisting = 0;
};

/// "path:line:col: message [id]", the one-line form of a notice.
inline std::string noticeLine(const LintNotice &n) {
  return n.where.path + ":" + std::to_string(n.where.line) + ":" + std::to_string(n.where.col) + ": " + n.message +
         " [" + n.id + "]";
}

} // namespace archscope
