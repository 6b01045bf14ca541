//===--- Rules.cpp - the rule registry and the check run -----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/checks/Rule.h"
#include "model/checks/rules/Rules.h"

#include <algorithm>
#include <tuple>

namespace archscope {

const char *severityName(Severity s) {
  return s == Severity::Error ? "error" : s == Severity::Warning ? "warning" : "note";
}

std::optional<Severity> parseSeverity(const std::string &name) {
  if (name == "error") return Severity::Error;
  if (name == "warning") return Severity::Warning;
  if (name == "note") return Severity::Note;
  return std::nullopt;
}

namespace checks {

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> r;
    r.push_back(makeAllowlistNotEnforced());
    r.push_back(makeArchSpecificOnlyBuild());
    r.push_back(makeArchStringMangle());
    r.push_back(makeAutoPicksFallback());
    r.push_back(makeClosedArchTable());
    r.push_back(makeCmakeArchDrop());
    r.push_back(makeDispatchAllowsUnbuilt());
    r.push_back(makeExactArchEquality());
    r.push_back(makeFamilyPredicateGap());
    r.push_back(makeOpenEndedArchGuard());
    r.push_back(makePredicateNameMismatch());
    r.push_back(makeReleaseArchGap());
    r.push_back(makeSmemOverDeviceLimit());
    r.push_back(makeToolkitGatedFlag());
    return r;
  }();
  return rules;
}

const Rule *findRule(const std::string &id) {
  for (const auto &r : allRules())
    if (r->info().id == id) return r.get();
  return nullptr;
}

std::vector<Finding> runChecks(const CheckInput &in) {
  std::vector<Finding> out;
  for (const auto &r : allRules()) r->check(in, out);
  std::stable_sort(out.begin(), out.end(), [](const Finding &a, const Finding &b) {
    return std::tie(a.primary.path, a.primary.line, a.rule) < std::tie(b.primary.path, b.primary.line, b.rule);
  });
  return out;
}

} // namespace checks
} // namespace archscope
