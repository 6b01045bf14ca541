//===--- Report.cpp - raw findings -> the findings a project asked for ----===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/Fingerprint.h"
#include "tool/lint/LintRun.h"
#include "tool/lint/Suppressions.h"

#include "model/checks/Rule.h"

namespace archscope::lint {
namespace {

/// Every rule with the severity this run gives it.
void describeRules(const LintConfig &config, LintReport &report) {
  for (const auto &r : checks::allRules()) {
    checks::RuleInfo info = r->info();
    if (auto it = config.rules.find(info.id); it != config.rules.end()) {
      if (it->second == "off") report.offRules.insert(info.id);
      else info.severity = *parseSeverity(it->second);
    }
    report.rules.push_back(std::move(info));
  }
}

} // namespace

LintReport buildReport(RawLint raw, const LintConfig &config) {
  LintReport report;
  report.warnings = std::move(raw.warnings);
  report.sourceRoot = sourceRootOf(raw.roots.empty() ? "." : raw.roots.front());
  describeRules(config, report);
  // Fingerprints and suppressions see every finding, so an occurrence number
  // does not shift, and a suppression of a rule turned off is not "unused".
  auto fingerprints = fingerprintsOf(raw.findings, report.sourceRoot, raw.roots);
  auto suppressions = Suppressions::scan(raw.roots);
  Severity threshold = *parseSeverity(config.minSeverity);
  for (size_t i = 0; i < raw.findings.size(); ++i) {
    Finding &f = raw.findings[i];
    if (suppressions.suppresses(f)) { ++report.suppressed; continue; }
    if (report.offRules.count(f.rule)) continue;
    if (auto it = config.rules.find(f.rule); it != config.rules.end()) f.severity = *parseSeverity(it->second);
    if (f.severity < threshold) { ++report.belowThreshold; continue; }
    report.findings.push_back(std::move(f));
    report.fingerprints.push_back(fingerprints[i]);
  }
  report.notices = suppressions.notices();
  return report;
}

void dropFingerprints(LintReport &report, const std::set<std::string> &accepted, size_t &hidden) {
  std::vector<Finding> findings;
  std::vector<std::string> fingerprints;
  for (size_t i = 0; i < report.findings.size(); ++i) {
    if (accepted.count(report.fingerprints[i])) { ++hidden; continue; }
    findings.push_back(std::move(report.findings[i]));
    fingerprints.push_back(report.fingerprints[i]);
  }
  report.findings = std::move(findings);
  report.fingerprints = std::move(fingerprints);
}

std::vector<std::string> portablePaths(const LintReport &report, const std::vector<std::string> &roots) {
  std::vector<std::string> out;
  for (const auto &f : report.findings)
    out.push_back(f.primary.path.empty() ? "" : portablePath(f.primary.path, report.sourceRoot, roots));
  return out;
}

} // namespace archscope::lint
