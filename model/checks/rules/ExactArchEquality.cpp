//===--- ExactArchEquality.cpp - `== 1200` excludes sm_121 ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A device guard written as an exact equality (`#if __CUDA_ARCH__ == 1200`)
// is compiled for one member of a GPU family and not for its siblings: built
// for 12.1 the kernel traps or is empty (field bug 4: vLLM's
// enable_sm120_only on a DGX Spark). Read from the per-target preprocessor
// passes: the directive is taken on one target and not on a sibling target
// of the same major that the pass compiled.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <regex>

namespace archscope::checks {
namespace {

class ExactArchEquality : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"exact-arch-equality", Severity::Warning,
                            "an exact-equality arch guard admits one GPU of a family and excludes its siblings",
                            "exact-equality device guard; exact-major asserts (field bugs 4, 13)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    static const std::regex equality(R"(__CUDA_ARCH__\s*==|==\s*__CUDA_ARCH__)");
    for (const auto &report : in.guards)
      for (const auto &d : report.directives) {
        if (!std::regex_search(d.condition, equality)) continue;
        auto [taken, excluded] = siblingsSplit(d);
        if (excluded.empty()) continue;
        Finding f = finding("`#" + d.kind + " " + d.condition + "` is compiled for " + listTargets(taken) +
                                " but not for " + listTargets(excluded) +
                                " of the same family: code built for those targets loses this branch",
                            at(report.path, d.line, "cuda", "#" + d.kind + " " + d.condition,
                               "taken on " + listTargets(taken)));
        f.targets = excluded;
        out.push_back(std::move(f));
      }
  }

private:
  /// Targets where the branch is taken, and the same-major targets of
  /// other minors where it is not.
  static std::pair<std::vector<std::string>, std::vector<std::string>> siblingsSplit(const cuda::GuardDirective &d) {
    std::vector<std::pair<Target, cuda::Branch>> states;
    for (const auto &[name, b] : d.byTarget)
      if (auto t = Target::parse(name)) states.emplace_back(*t, b);
    std::vector<std::string> taken, excluded;
    for (const auto &[t, b] : states) {
      if (b != cuda::Branch::Taken) continue;
      taken.push_back(t.name());
      for (const auto &[u, c] : states)
        if (c == cuda::Branch::NotTaken && u.cc.major == t.cc.major && u.cc.minor != t.cc.minor &&
            std::find(excluded.begin(), excluded.end(), u.name()) == excluded.end())
          excluded.push_back(u.name());
    }
    return {taken, excluded};
  }
};

} // namespace

std::unique_ptr<Rule> makeExactArchEquality() { return std::make_unique<ExactArchEquality>(); }

} // namespace archscope::checks
