//===--- OpenEndedArchGuard.cpp - `>= (10, 0)` admits an RTX 5090 ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// A device check or automatic selection written with no upper bound
// (`arch >= 100`, `get_device_capability() >= (10, 0)`) admits every newer
// GPU, including ones where the backend's kernel family does not exist:
// TRT-LLM-gen cubins need tcgen05, which sm_120 lacks (field bug 14: the fix
// was `100 <= arch < 120`). Needs the profile's backend.families.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <set>

namespace archscope::checks {
namespace {

class OpenEndedArchGuard : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"open-ended-arch-guard", Severity::Error,
                            "a capability check with no upper bound admits GPUs that lack the backend's kernel ISA",
                            "open-ended `>=` guards (field bugs 14, 16)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    // A backend's own device check is where the bound belongs; an automatic
    // selection is reported only for backends without one (the oracle's
    // selection repeats the device check's condition).
    std::set<std::string> checked, seen;
    for (const auto &g : in.facts.guards)
      if (g.kind == GuardFact::Kind::Support) checked.insert(g.backend);
    for (const auto &g : in.facts.guards) {
      bool select = g.kind == GuardFact::Kind::Select && !checked.count(g.backend);
      if ((g.kind != GuardFact::Kind::Support && !select) || !hasFamilies(in, g.backend)) continue;
      if (eval(in, g, ComputeCapability{99, 0}) != Tri::True) continue; // bounded above
      std::vector<std::string> lacking;
      for (auto gpu : tableGpus(in.table))
        if (eval(in, g, gpu) == Tri::True && familiesOn(in, g.backend, gpu).empty() &&
            (g.kind != GuardFact::Kind::Select || autoPicks(in, g.backend, gpu)))
          lacking.push_back(gpu.name());
      Evidence site = siteOf(g);
      if (lacking.empty() || !seen.insert(site.path + ":" + std::to_string(site.line) + g.backend).second) continue;
      std::string families;
      for (const auto &f : in.backendFamilies.at(g.backend)) families += (families.empty() ? "" : " or ") + f;
      Finding f = finding(std::string("`").append(g.cond.str()) + "` has no upper bound: it " +
                              (g.kind == GuardFact::Kind::Select ? "selects " : "admits ") + g.backend + " on " +
                              listTargets(lacking) + ", which lack" + (lacking.size() == 1 ? "s" : "") +
                              " its kernel ISA (" + families + ")",
                          site);
      f.backend = g.backend;
      f.targets = lacking;
      f.related = chainOf(g);
      out.push_back(std::move(f));
    }
  }

private:
  /// Whether the engine's automatic choice on `gpu` is `backend`: an earlier
  /// selection that wins there makes a later open-ended one harmless.
  static bool autoPicks(const CheckInput &in, const std::string &backend, ComputeCapability gpu) {
    for (const auto &c : in.matrix.cells)
      if (c.backend == "auto" && c.target == gpu) return c.picked == backend;
    return false;
  }

  static Tri eval(const CheckInput &in, const GuardFact &g, ComputeCapability gpu) {
    return g.cond.eval(defaultWorld(in, g.cond, gpu, g.kind == GuardFact::Kind::Select ? "auto" : g.backend));
  }
};

} // namespace

std::unique_ptr<Rule> makeOpenEndedArchGuard() { return std::make_unique<OpenEndedArchGuard>(); }

} // namespace archscope::checks
