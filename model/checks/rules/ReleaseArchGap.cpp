//===--- ReleaseArchGap.cpp - a published build loads where its kernels do not ---===//
// SPDX-License-Identifier: Apache-2.0
//
// A wheel built with TORCH_CUDA_ARCH_LIST "... 10.0 12.0" is installed on a
// B300 (10.3) and a DGX Spark (12.1): its plain sm_100 / sm_120 code runs on
// the later minors. A kernel whose arch list asks for their own targets
// ("12.0a;12.1a") gets only 12.0a from that build, and the GPU finds no
// image of it at run time (field bug 7: vLLM's release lists lack 12.1).
// Reported at the release list; a drop the default build shows too is
// cmake-arch-drop's.
//===----------------------------------------------------------------------===//
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <map>

namespace archscope::checks {
namespace {

bool anyRunsOn(const std::vector<Target> &targets, ComputeCapability gpu) {
  return std::any_of(targets.begin(), targets.end(), [&](const Target &t) { return t.runsOn(gpu); });
}

class ReleaseArchGap : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"release-arch-gap", Severity::Warning,
                            "a published build's code loads on a GPU whose own kernels the engine asks for, but that "
                            "build leaves them out",
                            "published wheel arch coverage (field bug 7)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    for (const auto &b : in.releaseBuilds) {
      const auto &list = in.releaseLists[b.lists.front()];
      std::map<ComputeCapability, std::vector<const build::ArchSetCall *>> gaps;
      for (auto gpu : loadedOn(list.targets, in.table))
        for (const auto &c : b.report.calls)
          if (c.evaluated && anyRunsOn(parseArchSet(c.requested), gpu) && !anyRunsOn(parseArchSet(c.result), gpu) &&
              !defaultBuildDrops(in, b.report.cmakeLists, c.line, gpu))
            gaps[gpu].push_back(&c);
      if (!gaps.empty()) report(in, b, gaps, out);
    }
  }

private:
  /// The GPUs the list's SASS runs on: plain sm_100 loads on 10.3 too. PTX
  /// alone is left out: a "9.0+PTX" test image is not a Blackwell wheel.
  static std::vector<ComputeCapability> loadedOn(const std::vector<Target> &targets, const ArchTable &table) {
    std::vector<ComputeCapability> out;
    for (auto gpu : tableGpus(table))
      if (std::any_of(targets.begin(), targets.end(),
                      [&](const Target &t) { return t.kind == CodeKind::Sass && t.runsOn(gpu); }))
        out.push_back(gpu);
    return out;
  }

  static bool defaultBuildDrops(const CheckInput &in, const std::string &cmakeLists, int line, ComputeCapability gpu) {
    for (const auto &r : in.archSets)
      if (r.cmakeLists == cmakeLists)
        for (const auto &c : r.calls)
          if (c.line == line && c.evaluated &&
              std::find(c.dropped.begin(), c.dropped.end(), gpu.name()) != c.dropped.end())
            return true;
    return false;
  }

  /// One finding per file that builds this way, at its first such list.
  void report(const CheckInput &in, const build::ReleaseBuild &b,
              const std::map<ComputeCapability, std::vector<const build::ArchSetCall *>> &gaps,
              std::vector<Finding> &out) const {
    std::vector<std::string> gpus;
    std::map<int, std::pair<const build::ArchSetCall *, std::vector<std::string>>> byLine; // call -> its GPUs
    for (const auto &[gpu, calls] : gaps) {
      gpus.push_back(gpu.name());
      for (const auto *c : calls) byLine[c->line].first = c, byLine[c->line].second.push_back(gpu.name());
    }
    std::vector<std::string> names;
    std::vector<Evidence> related;
    for (const auto &[line, entry] : byLine) {
      const auto *c = entry.first;
      if (std::find(names.begin(), names.end(), c->out) == names.end()) names.push_back(c->out);
      related.push_back(at(b.report.cmakeLists, line, "build", "",
                           "this build gives " + (c->result.empty() ? std::string("nothing") : c->result) +
                               ": nothing for " + listTargets(entry.second) + " (cmake -P)"));
    }
    std::string shown;
    for (size_t k = 0; k < names.size() && k < 4; ++k) shown += (k ? ", " : "") + names[k];
    if (names.size() > 4) shown += " and " + std::to_string(names.size() - 4) + " more";
    std::map<std::string, std::vector<int>> sitesByFile;
    for (size_t i : b.lists) sitesByFile[in.releaseLists[i].path].push_back(in.releaseLists[i].line);
    const auto &list = in.releaseLists[b.lists.front()];
    std::string what = list.variable + " \"" + list.value + "\"" + (list.via.empty() ? "" : " (" + list.via + ")") +
                       " with CUDA " + b.cuda + " builds code that " + listTargets(gpus) +
                       (gpus.size() > 1 ? " load" : " loads") + ", but " + std::to_string(byLine.size()) +
                       (byLine.size() > 1 ? " kernel arch lists that ask for " : " kernel arch list that asks for ") +
                       (gpus.size() > 1 ? "them" : "it") + (byLine.size() > 1 ? " get" : " gets") +
                       " nothing that runs there: " + shown;
    for (auto &[path, lines] : sitesByFile) {
      std::sort(lines.begin(), lines.end());
      std::string also;
      for (size_t k = 1; k < lines.size(); ++k) also += (k > 1 ? ", " : "") + std::to_string(lines[k]);
      Finding f = finding(what + (also.empty() ? "" : std::string(" (the same build at line") + (lines.size() > 2 ? "s " : " ") + also + ")"),
                          at(path, lines.front(), "build", "", "the arch list this release builds for"));
      f.related = related;
      f.targets = gpus;
      out.push_back(std::move(f));
    }
  }
};

} // namespace

std::unique_ptr<Rule> makeReleaseArchGap() { return std::make_unique<ReleaseArchGap>(); }

} // namespace archscope::checks
