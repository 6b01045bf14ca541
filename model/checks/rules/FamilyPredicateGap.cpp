//===--- FamilyPredicateGap.cpp - family(100) where 12.x has the kernel ----===//
// SPDX-License-Identifier: Apache-2.0
//
// A backend's device check names GPU families by major
// (`is_device_capability_family(100)`) and misses one where the backend's
// kernel family exists: FlashInfer-CUTLASS NVFP4 MoE has an sm_120 kernel,
// yet the selector checked only family 100 (field bug 1, vLLM PR #33417).
// Flagged only where the rejected GPU's kernel family is one the check admits
// nowhere (the check covers the tcgen05 kernels, forgets the mma-blockscale
// ones): a GPU that has an admitted family is a build-coverage matter.
// Needs the profile's backend.families.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <map>
#include <set>

namespace archscope::checks {
namespace {

/// `major == N` or `major != N`: a check by GPU family.
bool comparesMajor(const Condition &c) {
  for (const auto &a : c.atoms()) {
    if (a.kind != Atom::Kind::Compare || (a.op != CmpOp::Eq && a.op != CmpOp::Ne)) continue;
    for (const auto *side : {&a.lhs, &a.rhs})
      if (side->size() == 1 && (*side)[0].coef[int(SymVar::CcMajor)] != 0 &&
          (*side)[0].coef[int(SymVar::CcMinor)] == 0)
        return true;
  }
  return false;
}

class FamilyPredicateGap : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"family-predicate-gap", Severity::Warning,
                            "a family check rejects a GPU family where the backend's kernel family exists",
                            "family predicate misses a family (field bug 1)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    struct Hit { const GuardFact *fact; std::vector<std::string> targets; std::vector<std::string> families; };
    std::map<std::string, Hit> hits;
    for (const auto &c : in.matrix.cells) {
      if (c.backend == "auto" || c.verdict != Verdict::Rejected) continue;
      const GuardFact *g = decidingCheck(in, c);
      if (!g) continue;
      auto families = forgottenFamilies(in, *g, c.target);
      if (families.empty()) continue;
      auto site = siteOf(*g);
      auto &h = hits[site.path + ":" + std::to_string(site.line) + ":" + c.backend];
      h.fact = g;
      h.targets.push_back(c.target.name());
      for (auto &f : families)
        if (std::find(h.families.begin(), h.families.end(), f) == h.families.end()) h.families.push_back(f);
    }
    for (const auto &[key, h] : hits) {
      std::string families;
      for (const auto &f : h.families) families += (families.empty() ? "" : ", ") + f;
      Finding f = finding("the family check `" + h.fact->cond.str() + "` rejects " + h.fact->backend + " on " +
                              listTargets(h.targets) + ", though its kernel family " + families +
                              " exists there: a GPU family is missing from the check",
                          siteOf(*h.fact));
      f.backend = h.fact->backend;
      f.targets = h.targets;
      f.related = chainOf(*h.fact);
      out.push_back(std::move(f));
    }
  }

private:
  /// The families the backend has on `gpu` that the check admits on no GPU.
  static std::vector<std::string> forgottenFamilies(const CheckInput &in, const GuardFact &g, ComputeCapability gpu) {
    std::set<std::string> admitted;
    for (auto other : tableGpus(in.table)) {
      if (g.cond.eval(defaultWorld(in, g.cond, other, g.backend)) == Tri::True)
        for (auto &f : familiesOn(in, g.backend, other)) admitted.insert(f);
    }
    std::vector<std::string> out;
    for (auto &f : familiesOn(in, g.backend, gpu))
      if (!admitted.count(f)) out.push_back(f);
    return out;
  }

  /// The backend's own device check that is false on the cell's GPU and
  /// compares the major.
  static const GuardFact *decidingCheck(const CheckInput &in, const Cell &c) {
    for (const auto &g : in.facts.guards)
      if (g.kind == GuardFact::Kind::Support && g.backend == c.backend &&
          g.cond.eval(defaultWorld(in, g.cond, c.target, c.backend)) == Tri::False &&
          comparesMajor(g.cond))
        return &g;
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Rule> makeFamilyPredicateGap() { return std::make_unique<FamilyPredicateGap>(); }

} // namespace archscope::checks
