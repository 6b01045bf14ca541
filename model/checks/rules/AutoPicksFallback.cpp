//===--- AutoPicksFallback.cpp - auto picks Marlin on an RTX PRO 6000 -----===//
// SPDX-License-Identifier: Apache-2.0
//
// The engine's automatic choice lands on a dequantizing fallback (W4A16
// Marlin) on a GPU where another backend the engine admits runs the GPU's own
// FP4 tensor-core kernels: no error, only the throughput lost (field bug 3:
// vLLM's MXFP4 selection checked family(100) only, so SM120 silently ran
// Marlin; bug 11 is the same choice made for coverage reasons). Needs the
// profile's backend.families; "native" is the kernel family's own flag.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <map>
#include <set>

namespace archscope::checks {
namespace {

class AutoPicksFallback : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"auto-picks-fallback", Severity::Warning,
                            "the automatic choice is a dequantizing fallback where a native FP4 backend is admitted",
                            "silent fallback to a slower path (field bugs 3, 11)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    // picked backend -> (GPU, the native backends admitted there)
    std::map<std::string, std::vector<std::pair<ComputeCapability, std::vector<std::string>>>> fallbacks;
    for (const auto &cell : in.matrix.cells) {
      if (cell.backend != "auto" || cell.picked.empty() || !hasFamilies(in, cell.picked)) continue;
      // A pick that runs nothing there is a crash (other rules), not a fallback.
      if (cell.verdict != Verdict::Supported || familiesOn(in, cell.picked, cell.target).empty()) continue;
      if (isNative(in, cell.picked, cell.target)) continue;
      std::vector<std::string> native;
      for (const auto &other : in.matrix.cells)
        if (other.target == cell.target && other.backend != "auto" && other.backend != cell.picked &&
            other.verdict == Verdict::Supported && other.conditions.empty() && isNative(in, other.backend, cell.target))
          native.push_back(other.backend);
      if (!native.empty()) fallbacks[cell.picked].push_back({cell.target, native});
    }
    for (const auto &[picked, where] : fallbacks) {
      const GuardFact *select = selectionOf(in, picked, where.front().first);
      if (!select) continue;
      std::vector<std::string> gpus;
      std::set<std::string> alternatives;
      for (const auto &[gpu, native] : where) {
        gpus.push_back(gpu.name());
        alternatives.insert(native.begin(), native.end());
      }
      std::string alt;
      for (const auto &a : alternatives) alt += (alt.empty() ? "" : ", ") + a;
      Finding f = finding("the automatic choice is " + picked + " (" + familyNames(in, picked) + ", a fallback that " +
                              "dequantizes NVFP4) on " + listTargets(gpus) + ", where " + alt +
                              " also runs the GPU's own FP4 kernels: a silent loss of throughput",
                          siteOf(*select));
      f.backend = picked;
      f.targets = gpus;
      f.related = chainOf(*select);
      out.push_back(std::move(f));
    }
  }

private:
  /// Whether one of `backend`'s families is native and available on `gpu`.
  static bool isNative(const CheckInput &in, const std::string &backend, ComputeCapability gpu) {
    for (const auto &name : familiesOn(in, backend, gpu))
      if (const auto *f = in.families.find(name); f && f->native) return true;
    return false;
  }

  static std::string familyNames(const CheckInput &in, const std::string &backend) {
    std::string out;
    for (const auto &f : in.backendFamilies.at(backend)) out += (out.empty() ? "" : ", ") + f;
    return out;
  }

  /// The automatic selection of `backend` that holds on `gpu`.
  static const GuardFact *selectionOf(const CheckInput &in, const std::string &backend, ComputeCapability gpu) {
    for (const auto &g : in.facts.guards)
      if (g.kind == GuardFact::Kind::Select && g.backend == backend &&
          g.cond.eval(defaultWorld(in, g.cond, gpu, "auto")) != Tri::False)
        return &g;
    return nullptr;
  }
};

} // namespace

std::unique_ptr<Rule> makeAutoPicksFallback() { return std::make_unique<AutoPicksFallback>(); }

} // namespace archscope::checks
