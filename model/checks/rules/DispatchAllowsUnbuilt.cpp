//===--- DispatchAllowsUnbuilt.cpp - the sm_120 crash class ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A backend the dispatch lets run on a target where a lower layer (#if,
// CMake/JIT arch list, shipped cubins) has no kernel: nothing stops the call
// before the missing kernel is hit (field bugs 8, 9, 14, 15).
// Crashes caused by a library's own unenforced allow-list are reported by
// allowlist-not-enforced at the declaration instead, and missing-ISA crashes
// behind a device check with no upper bound by open-ended-arch-guard at that
// check: one finding per cause.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <map>

namespace archscope::checks {
namespace {

class DispatchAllowsUnbuilt : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"dispatch-allows-unbuilt", Severity::Error,
                            "dispatch lets a backend run on a target whose kernel is not built there",
                            "runtime path without a compiled kernel (sm_120 crash class)"};
    return i;
  }

  /// A device check of the backend that still holds on a GPU far beyond the
  /// arch table (open-ended-arch-guard's subject).
  static bool hasOpenEndedCheck(const CheckInput &in, const std::string &backend) {
    for (const auto &g : in.facts.guards)
      if (g.kind == GuardFact::Kind::Support && g.backend == backend &&
          g.cond.eval(defaultWorld(in, g.cond, ComputeCapability{99, 0}, backend)) == Tri::True)
        return true;
    return false;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    std::map<std::string, std::vector<const Cell *>> byBackend;
    for (const auto &c : in.matrix.cells)
      if (c.backend != "auto" && c.verdict == Verdict::CrashRisk && c.lacking != "allow-list" &&
          !(c.lacking == "isa" && hasOpenEndedCheck(in, c.backend)))
        byBackend[c.backend].push_back(&c);
    for (const auto &[backend, cells] : byBackend) {
      std::vector<std::string> targets;
      for (const auto *c : cells) targets.push_back(c->target.name());
      const Cell &first = *cells.front();
      // Where the dispatch calls the kernel that is missing, else the first link.
      Evidence primary = first.evidence.empty() ? Evidence{} : first.evidence.front();
      for (const auto &e : first.evidence)
        if (e.note.rfind("calls ", 0) == 0) { primary = e; break; }
      Finding f = finding("dispatch lets " + backend + " run on " + listTargets(targets) + ", where " +
                              (first.lacking.empty() ? "no kernel is built" : "the " + first.lacking +
                                                                                  " layer has no kernel") +
                              ": " + first.reason,
                          primary);
      f.backend = backend;
      f.targets = targets;
      for (const auto &e : first.evidence)
        if (e.path != primary.path || e.line != primary.line) f.related.push_back(e);
      out.push_back(std::move(f));
    }
  }
};

} // namespace

std::unique_ptr<Rule> makeDispatchAllowsUnbuilt() { return std::make_unique<DispatchAllowsUnbuilt>(); }

} // namespace archscope::checks
