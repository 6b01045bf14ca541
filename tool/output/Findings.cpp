//===--- Findings.cpp - lint findings as clang-style text and JSON --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Text follows clang's diagnostic format so editors and CI log parsers pick
// it up: `path:line:col: warning: message [rule-id]`, then one `note:` line
// per link of the evidence chain.
//===----------------------------------------------------------------------===//
#include "tool/output/FindingEmitters.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

namespace archscope {
namespace {

std::string location(const Evidence &e) {
  if (e.path.empty()) return "archscope";
  if (e.line <= 0) return e.path; // a folder or a whole file (a pool of prebuilt cubins)
  return e.path + ":" + std::to_string(e.line) + ":" + std::to_string(e.col > 0 ? e.col : 1);
}

const char *colorOf(Severity s) {
  return s == Severity::Error ? "\033[1;31m" : s == Severity::Warning ? "\033[1;35m" : "\033[1;36m";
}

llvm::json::Value evidenceJson(const Evidence &e) {
  return llvm::json::Object{{"path", e.path}, {"line", e.line},       {"column", e.col},
                            {"layer", e.layer}, {"snippet", e.snippet}, {"note", e.note}};
}

} // namespace

void emitFindingsText(const std::vector<Finding> &findings, std::ostream &out, bool color) {
  const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
  for (const auto &f : findings) {
    out << bold << location(f.primary) << ": " << reset << (color ? colorOf(f.severity) : "")
        << severityName(f.severity) << ": " << reset << bold << f.message << " [" << f.rule << "]" << reset << "\n";
    if (!f.primary.snippet.empty()) out << "    " << f.primary.snippet << "\n";
    for (const auto &e : f.related) {
      if (e.path.empty() && e.note.empty()) continue;
      out << location(e) << ": note: " << (e.snippet.empty() ? e.note : e.snippet);
      if (!e.snippet.empty() && !e.note.empty()) out << " (" << e.note << ")";
      out << "\n";
    }
  }
}

llvm::json::Value findingsDocument(const std::vector<Finding> &findings, const std::vector<std::string> &warnings,
                                   const std::vector<checks::RuleInfo> &rules) {
  llvm::json::Array list, ruleList, warn;
  for (const auto &f : findings) {
    llvm::json::Array related, targets;
    for (const auto &e : f.related) related.push_back(evidenceJson(e));
    for (const auto &t : f.targets) targets.push_back(t);
    list.push_back(llvm::json::Object{{"rule", f.rule},
                                      {"severity", severityName(f.severity)},
                                      {"message", f.message},
                                      {"location", evidenceJson(f.primary)},
                                      {"related", std::move(related)},
                                      {"backend", f.backend},
                                      {"targets", std::move(targets)}});
  }
  for (const auto &r : rules)
    ruleList.push_back(llvm::json::Object{{"id", r.id}, {"severity", severityName(r.severity)},
                                          {"summary", r.summary}, {"catches", r.bugClass}});
  for (const auto &w : warnings) warn.push_back(w);
  return llvm::json::Object{{"version", 1}, {"findings", std::move(list)}, {"rules", std::move(ruleList)},
                            {"warnings", std::move(warn)}};
}

void emitFindingsJson(const std::vector<Finding> &findings, const std::vector<std::string> &warnings,
                      const std::vector<checks::RuleInfo> &rules, std::ostream &out) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", findingsDocument(findings, warnings, rules));
  out << os.str() << "\n";
}

void emitLintJson(const LintReport &report, std::ostream &out) {
  std::vector<std::string> warnings = report.warnings;
  for (const auto &n : report.notices) warnings.push_back(noticeLine(n));
  llvm::json::Value doc = findingsDocument(report.findings, warnings, report.rules);
  auto *root = doc.getAsObject();
  auto *list = root->getArray("findings");
  for (size_t i = 0; i < list->size(); ++i)
    (*list)[i].getAsObject()->try_emplace("fingerprint", report.fingerprints[i]);
  root->try_emplace("hidden", llvm::json::Object{{"suppressed", static_cast<int64_t>(report.suppressed)},
                                                 {"below_threshold", static_cast<int64_t>(report.belowThreshold)},
                                                 {"baseline", static_cast<int64_t>(report.baselined)},
                                                 {"before_diff_base", static_cast<int64_t>(report.preExisting)}});
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", doc);
  out << os.str() << "\n";
}

} // namespace archscope
