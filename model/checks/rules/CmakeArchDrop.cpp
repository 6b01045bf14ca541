//===--- CmakeArchDrop.cpp - an arch filter silently drops a GPU -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// An engine's CMake arch filter (vLLM's cuda_archs_loose_intersection),
// evaluated with CMake itself, returns archs none of which run on a GPU the
// requested archs did run on: the build succeeds and ships no kernel for it
// (field bug 6: `10.0a;10.0` intersected to `10.0a`, nothing for B300).
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

namespace archscope::checks {
namespace {

class CmakeArchDrop : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"cmake-arch-drop", Severity::Error,
                            "a CMake arch filter drops a GPU that the requested archs would run on",
                            "CMake list intersection silently drops archs (field bug 6)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &r : in.archSets)
      for (const auto &c : r.calls) {
        if (!c.evaluated || c.dropped.empty()) continue;
        std::vector<std::string> gpus;
        for (const auto &d : c.dropped)
          if (auto cc = ComputeCapability::parse(d)) gpus.push_back(cc->name());
          else gpus.push_back(d);
        Finding f = finding(c.function + " gives " + c.out + " = \"" + c.result + "\" from \"" + c.requested +
                                "\": nothing is built for " + listTargets(gpus) + ", which the requested archs cover",
                            at(r.cmakeLists, c.line, "build", "", "evaluated with cmake -P for " + r.buildArchs));
        f.targets = gpus;
        out.push_back(std::move(f));
      }
  }
};

} // namespace

std::unique_ptr<Rule> makeCmakeArchDrop() { return std::make_unique<CmakeArchDrop>(); }

} // namespace archscope::checks
