//===--- AllowlistNotEnforced.cpp - declared arch lists nobody checks -----===//
// SPDX-License-Identifier: Apache-2.0
//
// A kernel declares the GPUs it supports (FlashInfer's
// @supported_compute_capability([100, 103])) but the path that calls it never
// checks the declaration, so the dispatch reaches it on GPUs outside the list
// (field bugs 15, 18). One finding per declaration, naming the targets a
// dispatch reaches it on.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <map>
#include <set>

namespace archscope::checks {
namespace {

std::string siteKey(const Evidence &e) { return e.path + ":" + std::to_string(e.line); }

class AllowlistNotEnforced : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"allowlist-not-enforced", Severity::Error,
                            "a kernel's declared GPU allow-list is never checked on the path that calls it",
                            "claim/kernel mismatch; allow-list staleness"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    struct Site { const Cell *cell; std::set<std::string> backends; std::vector<std::string> targets; };
    std::map<std::string, Site> sites;
    for (const auto &c : in.matrix.cells) {
      if (c.backend == "auto" || c.verdict != Verdict::CrashRisk || c.lacking != "allow-list") continue;
      const Evidence *decl = declaration(c);
      if (!decl) continue;
      auto &s = sites[siteKey(*decl)];
      if (!s.cell) s.cell = &c;
      s.backends.insert(c.backend);
      if (std::find(s.targets.begin(), s.targets.end(), c.target.name()) == s.targets.end())
        s.targets.push_back(c.target.name());
    }
    for (const auto &[key, s] : sites) {
      const Evidence &decl = *declaration(*s.cell);
      std::string backends;
      for (const auto &b : s.backends) backends += (backends.empty() ? "" : ", ") + b;
      Finding f = finding("`" + decl.snippet + "` is declared but never checked: " + backends +
                              (s.backends.size() == 1 ? " reaches" : " reach") + " this kernel on " + listTargets(s.targets),
                          decl);
      f.backend = *s.backends.begin();
      f.targets = s.targets;
      for (const auto &e : s.cell->evidence)
        if (siteKey(e) != key) f.related.push_back(e);
      out.push_back(std::move(f));
    }
  }

private:
  /// The allow-list's own evidence in a crash cell's chain.
  static const Evidence *declaration(const Cell &c) {
    for (const auto &e : c.evidence)
      if (e.note.find("declared, never checked") != std::string::npos) return &e;
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Rule> makeAllowlistNotEnforced() { return std::make_unique<AllowlistNotEnforced>(); }

} // namespace archscope::checks
