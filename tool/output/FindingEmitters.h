//===--- FindingEmitters.h - lint findings, one emitter per format -------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Finding.h"
#include "model/checks/Rule.h"
#include "tool/lint/LintReport.h"

#include <llvm/Support/JSON.h>

#include <ostream>
#include <string>
#include <vector>

namespace archscope {

void emitFindingsText(const std::vector<Finding> &findings, std::ostream &out, bool color);
/// Findings, the rules that ran, and the warnings of the run.
llvm::json::Value findingsDocument(const std::vector<Finding> &findings, const std::vector<std::string> &warnings,
                                   const std::vector<checks::RuleInfo> &rules);
void emitFindingsJson(const std::vector<Finding> &findings, const std::vector<std::string> &warnings,
                      const std::vector<checks::RuleInfo> &rules, std::ostream &out);

/// A lint run as JSON: findingsDocument plus each finding's fingerprint,
/// the notices (in `warnings`, one line each) and what was hidden.
void emitLintJson(const LintReport &report, std::ostream &out);

/// A lint run as SARIF 2.1.0, within GitHub code scanning's limits.
llvm::json::Value sarifDocument(const LintReport &report);
void emitLintSarif(const LintReport &report, std::ostream &out);

} // namespace archscope
