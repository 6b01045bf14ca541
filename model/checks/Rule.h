//===--- Rule.h - one check: one id, one small class ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Finding.h"
#include "model/checks/CheckInput.h"

#include <memory>
#include <string>
#include <vector>

namespace archscope::checks {

struct RuleInfo {
  std::string id;       ///< kebab-case, frozen once published
  Severity severity;    ///< default; configurable per run
  std::string summary;  ///< one line, for listings and SARIF shortDescription
  std::string bugClass; ///< which field failures it catches (docs/rules/<id>.md)
};

class Rule {
public:
  virtual ~Rule() = default;
  virtual const RuleInfo &info() const = 0;
  /// Appends the rule's findings; never throws for odd input.
  virtual void check(const CheckInput &in, std::vector<Finding> &out) const = 0;

protected:
  Finding finding(std::string message, Evidence primary) const {
    Finding f;
    f.rule = info().id;
    f.severity = info().severity;
    f.message = std::move(message);
    f.primary = std::move(primary);
    return f;
  }
};

/// Every rule, in a stable order (ids sorted).
const std::vector<std::unique_ptr<Rule>> &allRules();
const Rule *findRule(const std::string &id);

/// Runs every rule; findings sorted by path, line, rule.
std::vector<Finding> runChecks(const CheckInput &in);

} // namespace archscope::checks
