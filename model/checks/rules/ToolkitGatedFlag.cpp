//===--- ToolkitGatedFlag.cpp - a JIT flag dropped on an older toolkit ---===//
// SPDX-License-Identifier: Apache-2.0
//
// `"-DENABLE_FP4" if is_cuda_version_at_least("12.8") else ""` in a JIT
// build's flags, with nothing raising on the toolkit beside it: on CUDA 12.6
// the module builds without FP4 kernels, and the call fails later with an
// error about a dtype combination, not about the toolkit (field bug 20,
// FlashInfer #3951 on sm_90). The facts come from ToolkitGatedFlags.h.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/rules/Rules.h"

namespace archscope::checks {
namespace {

class ToolkitGatedFlag : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"toolkit-gated-flag", Severity::Warning,
                            "a JIT build drops a feature flag on an older CUDA toolkit, and nothing says so",
                            "toolkit-version-dependent build features (field bug 20)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &g : in.facts.toolkitGatedFlags)
      out.push_back(finding("`" + g.flag + "` is passed only when `" + g.condition +
                                "`: with an older CUDA toolkit the module builds without it, silently, and the "
                                "call fails later with an error that does not name the toolkit",
                            g.where));
  }
};

} // namespace

std::unique_ptr<Rule> makeToolkitGatedFlag() { return std::make_unique<ToolkitGatedFlag>(); }

} // namespace archscope::checks
