//===--- ClosedArchTable.cpp - a per-GPU table that refuses new GPUs -----===//
// SPDX-License-Identifier: Apache-2.0
//
// `if major == 6: return 1, 1 ... elif major == 9: return 8, 8 else: raise
// ValueError("Unsupported compute capability")`: constants per GPU, listed
// by exact tests, with a raise for the rest. Each new GPU generation is
// refused until someone adds its row: SGLang's PD-multiplexing failed on an
// RTX PRO 6000 this way (field bug 19). The facts come from ClosedArchTables.h.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <algorithm>

namespace archscope::checks {
namespace {

class ClosedArchTable : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"closed-arch-table", Severity::Warning,
                            "a table of per-GPU constants raises for every GPU it does not list",
                            "per-GPU tables that stop at an old generation (field bug 19)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &t : in.facts.closedArchTables) {
      std::vector<std::string> refused;
      for (auto gpu : tableGpus(in.table)) {
        int value = t.smScale ? gpu.sm() : gpu.major;
        if (value > t.listed.front() && !std::binary_search(t.listed.begin(), t.listed.end(), value))
          refused.push_back(gpu.name());
      }
      if (refused.empty()) continue;
      std::string listed;
      for (int v : t.listed) listed += (listed.empty() ? "" : ", ") + std::to_string(v);
      std::string who = t.function.empty() ? "this table" : "`" + t.function + "`";
      std::string why = ": its exact tests list `" + t.subject + "` " + listed +
                        " only, so every GPU it does not name is refused; add their rows, "
                        "or let the last row hold for newer GPUs";
      out.push_back(finding(who + " raises on " + listTargets(refused) + why, t.where));
    }
  }
};

} // namespace

std::unique_ptr<Rule> makeClosedArchTable() { return std::make_unique<ClosedArchTable>(); }

} // namespace archscope::checks
