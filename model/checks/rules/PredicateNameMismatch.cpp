//===--- PredicateNameMismatch.cpp - is_sm100_supported true on sm_120 ----===//
// SPDX-License-Identifier: Apache-2.0
//
// A capability predicate whose name promises one generation
// (`is_sm100_supported`) but whose body admits GPUs of another major
// (`cc >= (10, 0)` is true on sm_120): callers trust the name and send
// SM100-only kernels to an RTX 5090 (field bug 16, mini-sglang PR #146).
// Names that promise an open range (`..._or_newer`, `_at_least`) are exempt.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <regex>

namespace archscope::checks {
namespace {

/// The major a name like `is_sm100_supported` / `is_sm120f` promises, or -1.
int promisedMajor(const std::string &qualified) {
  std::string name = qualified.substr(qualified.rfind('.') + 1);
  static const std::regex openEnded("(or_newer|or_later|at_least|_plus|_ge_|_and_up|_above)", std::regex::icase);
  static const std::regex promise(R"(^_?(is|has|use|can)_sm_?(\d{2,3})([af]?)(x?)(_[a-z0-9]+)*$)", std::regex::icase);
  std::smatch m;
  if (std::regex_search(name, openEnded) || !std::regex_match(name, m, promise)) return -1;
  int digits = std::stoi(m[2]);
  // sm10x / sm12x name a major; sm90 / sm100 / sm121 name major and minor.
  return m[4].length() && digits < 100 ? digits : digits / 10;
}

class PredicateNameMismatch : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"predicate-name-mismatch", Severity::Warning,
                            "a capability predicate's name promises one GPU generation, its body admits others",
                            "marketing-name and open-ended guards (field bug 16)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &p : in.facts.predicates) {
      int major = promisedMajor(p.name);
      if (major < 0) continue;
      std::vector<std::string> extra;
      for (auto gpu : tableGpus(in.table)) {
        EvalEnv env;
        env.gpu = gpu;
        if (gpu.major != major && p.cond.eval(env) == Tri::True) extra.push_back(gpu.name());
      }
      if (extra.empty()) continue;
      std::string shortName = p.name.substr(p.name.rfind('.') + 1);
      Finding f = finding("`" + shortName + "` promises CC " + std::to_string(major) + ".x by its name, but is true on " +
                              listTargets(extra) + " (" + p.cond.str() + ")",
                          p.where);
      f.targets = extra;
      out.push_back(std::move(f));
    }
  }
};

} // namespace

std::unique_ptr<Rule> makePredicateNameMismatch() { return std::make_unique<PredicateNameMismatch>(); }

} // namespace archscope::checks
