//===--- ArchSpecificOnlyBuild.cpp - sm_100a alone, a B300 in the build ---===//
// SPDX-License-Identifier: Apache-2.0
//
// A kernel built only for an arch-specific target (`10.0a`) loads on that one
// compute capability; a sibling the build targets (10.3, a B300) gets no
// kernel: cudaErrorNoKernelImageForDevice (field bugs 6, 10, 13). Reported
// where the arch list is decided; drops caused by the filter itself are
// cmake-arch-drop's.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

namespace archscope::checks {
namespace {

class ArchSpecificOnlyBuild : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"arch-specific-only-build", Severity::Warning,
                            "a kernel is built only for an `a` target while the build also targets a sibling GPU",
                            "`a`-only builds that cannot run on sibling CCs (10.3, 12.1)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    checkFilters(in, out);
    checkGencodeLists(in, out);
    checkReleaseLists(in, out);
  }

private:
  /// The GPUs of the arch table that share a major with one of the list's
  /// `a` targets and on which nothing of the list (cubin or PTX) runs.
  static std::vector<std::string> missedSiblings(const std::vector<Target> &targets, const ArchTable &table) {
    std::vector<std::string> missed;
    for (const auto &row : table.rows()) {
      bool family = std::any_of(targets.begin(), targets.end(), [&](const Target &t) {
        return t.variant == Variant::ArchSpecific && t.cc.major == row.cc.major && t.cc != row.cc;
      });
      bool runs = std::any_of(targets.begin(), targets.end(), [&](const Target &t) { return t.runsOn(row.cc); });
      if (family && !runs) missed.push_back(row.cc.name());
    }
    return missed;
  }

  /// A TORCH_CUDA_ARCH_LIST of a release image or build script with the
  /// same gap: vLLM's Dockerfile builds DeepEP for '9.0a 10.0a'.
  void checkReleaseLists(const CheckInput &in, std::vector<Finding> &out) const {
    for (const auto &list : in.releaseLists) {
      auto missed = missedSiblings(list.targets, in.table);
      if (missed.empty()) continue;
      Finding f = finding(list.variable + "='" + list.value + "' builds arch-specific code for a family whose " +
                              listTargets(missed) + (missed.size() > 1 ? " get" : " gets") + " no kernel from it",
                          at(list.path, list.line, "build", "", "the arch list this image or script builds for"));
      f.targets = missed;
      out.push_back(std::move(f));
    }
  }

  /// A -gencode flag list whose `a` targets leave a GPU of their family (in
  /// the arch table) without any cubin or PTX of the list that runs there.
  void checkGencodeLists(const CheckInput &in, std::vector<Finding> &out) const {
    for (const auto &r : in.archSets)
      for (const auto &list : r.gencodeLists) {
        std::vector<Target> targets;
        for (const auto &t : list.targets)
          if (auto parsed = Target::parse(t)) targets.push_back(*parsed);
        auto missed = missedSiblings(targets, in.table);
        if (missed.empty()) continue;
        std::string all;
        for (const auto &t : list.targets) all += (all.empty() ? "" : ", ") + t;
        Finding f = finding(list.variable + " compiles " + all + ": arch-specific code for a family whose " +
                                listTargets(missed) + (missed.size() > 1 ? " get" : " gets") + " no kernel from it",
                            at(r.cmakeLists, list.line, "build", "", "the -gencode flags as CMake assembles them"));
        f.targets = missed;
        out.push_back(std::move(f));
      }
  }

  void checkFilters(const CheckInput &in, std::vector<Finding> &out) const {
    for (const auto &r : in.archSets) {
      std::vector<ComputeCapability> gpus;
      for (const auto &t : parseArchSet(r.buildArchs)) gpus.push_back(t.cc);
      for (const auto &c : r.calls) {
        if (!c.evaluated) continue;
        auto built = parseArchSet(c.result);
        std::vector<std::string> missed;
        for (const auto &t : built) {
          if (t.variant != Variant::ArchSpecific) continue;
          for (auto g : gpus) {
            bool sibling = g.major == t.cc.major && g != t.cc;
            bool runs = std::any_of(built.begin(), built.end(), [&](const Target &b) { return b.runsOn(g); });
            bool dropped = std::find(c.dropped.begin(), c.dropped.end(), g.name()) != c.dropped.end();
            if (sibling && !runs && !dropped &&
                std::find(missed.begin(), missed.end(), g.name()) == missed.end())
              missed.push_back(g.name());
          }
        }
        if (missed.empty()) continue;
        Finding f = finding(c.out + " = \"" + c.result + "\" holds only arch-specific code for its family: " +
                                listTargets(missed) + ", which the build targets, gets no kernel",
                            at(r.cmakeLists, c.line, "build", "", "evaluated with cmake -P for " + r.buildArchs));
        f.targets = missed;
        out.push_back(std::move(f));
      }
    }
  }
};

} // namespace

std::unique_ptr<Rule> makeArchSpecificOnlyBuild() { return std::make_unique<ArchSpecificOnlyBuild>(); }

} // namespace archscope::checks
