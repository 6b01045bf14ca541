//===--- ExactArchEquality.cpp - `== 1200` excludes sm_121 ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// A device guard written as an exact equality (`#if __CUDA_ARCH__ == 1200`)
// is compiled for one member of a GPU family and not for its siblings: built
// for 12.1 the kernel traps or is empty (field bug 4: vLLM's
// enable_sm120_only on a DGX Spark). Read from the per-target preprocessor
// passes: the directive is taken on one target and not on a sibling target
// of the same major that the pass compiled. Where every excluded sibling
// takes another branch of the group with code (a faster path for one GPU, a
// generic one for the rest: FlashInfer's generated kernels), it is a note;
// where that branch only traps or fails, or the code is dropped, a warning.
// In C++ host code, an exact
// runtime check (`ICHECK_EQ(major, 10)`, `sm == 120`) that refuses GPUs for
// which the same file's arch-guarded kernels compile a body (field bug 13:
// FlashInfer's ICHECK_EQ(major, 10) before a kernel built for 12.x), or a
// sibling of an admitted GPU with the same ISA (`== 120` refusing 12.1).
// A check on one configuration's path only (`if (a_type == kFE4M3fn)`)
// restricts that path on purpose: only the sibling case is reported there.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/KernelLaunches.h"
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <regex>

namespace archscope::checks {
namespace {

class ExactArchEquality : public Rule {
public:
  const RuleInfo &info() const override {
    static const RuleInfo i{"exact-arch-equality", Severity::Warning,
                            "an exact-equality arch guard admits one GPU of a family and excludes its siblings",
                            "exact-equality device guard; exact-major asserts (field bugs 4, 13)"};
    return i;
  }

  void check(const CheckInput &in, std::vector<Finding> &out) const override {
    checkDirectives(in, out);
    checkRuntime(in, out);
  }

private:
  void checkRuntime(const CheckInput &in, std::vector<Finding> &out) const {
    for (const auto &r : in.runtime) {
      const cuda::GuardReport *g = guardReportOf(in, r.path);
      if (!g) continue;
      for (const auto &c : r.checks) {
        if (c.kind != cuda::RuntimeCheck::Kind::Assert || !comparesCapabilityExactly(c.cond)) continue;
        std::vector<ComputeCapability> admitted;
        for (auto gpu : tableGpus(in.table)) {
          EvalEnv env;
          env.gpu = gpu;
          if (c.cond.eval(env) == Tri::True) admitted.push_back(gpu);
        }
        auto guarded = archGuarded(cuda::kernelsLaunchedFrom(r.path, c.where.line, *g));
        std::vector<std::string> refused, siblings;
        std::string compiledOn;
        for (auto gpu : tableGpus(in.table)) {
          EvalEnv env;
          env.gpu = gpu;
          if (c.cond.eval(env) != Tri::False) continue;
          if (auto a = sameIsaSibling(in.table, gpu, admitted)) {
            refused.push_back(gpu.name());
            siblings.push_back(gpu.name() + " as " + a->name());
          } else if (auto t = kernelTargetOn(guarded, gpu); !t.empty() && c.guardedBy.empty()) {
            refused.push_back(gpu.name());
            if (compiledOn.empty()) compiledOn = t;
          }
        }
        if (refused.empty()) continue;
        std::string shown = c.where.snippet.substr(0, c.where.snippet.find(" <<"));
        if (shown.find(c.text) == std::string::npos && !c.text.empty()) shown = c.text; // a call over several lines
        std::string why = !compiledOn.empty()
                              ? "although this file's kernels compile a body for " + compiledOn +
                                    ": an exact check where the kernel covers more"
                              : "although it admits a GPU with the same ISA: " + listTargets(siblings);
        if (!c.guardedBy.empty()) why += " (on the path where `" + c.guardedBy + "`)";
        Finding f = finding("`" + shown + "` refuses " + listTargets(refused) + " " + why, c.where);
        f.targets = refused;
        out.push_back(std::move(f));
      }
    }
  }

  /// A GPU admitted by the check with the same major and no feature that
  /// `gpu` lacks (12.0 for 12.1; not 8.9 for 8.0, which has no FP8 MMA).
  static std::optional<ComputeCapability> sameIsaSibling(const ArchTable &table, ComputeCapability gpu,
                                                        const std::vector<ComputeCapability> &admitted) {
    const ArchRow *row = table.find(gpu);
    for (auto a : admitted) {
      const ArchRow *other = table.find(a);
      if (!row || !other || a.major != gpu.major || a == gpu) continue;
      bool covers = std::all_of(other->features.begin(), other->features.end(), [&](const ArchFeature &f) {
        return std::any_of(row->features.begin(), row->features.end(),
                           [&](const ArchFeature &mine) { return mine.name == f.name; });
      });
      if (covers) return a;
    }
    return std::nullopt;
  }

  /// The kernels whose body depends on the build target (an `#if` on the
  /// arch decides it): one that compiles everywhere says nothing about
  /// which GPUs the build meant.
  static std::vector<const cuda::KernelSite *> archGuarded(const std::vector<const cuda::KernelSite *> &kernels) {
    std::vector<const cuda::KernelSite *> out;
    for (const auto *k : kernels) {
      bool code = false, other = false;
      for (const auto &[name, body] : k->byTarget) (body == cuda::KernelBody::Code ? code : other) = true;
      if (code && other) out.push_back(k);
    }
    return out;
  }

  void checkDirectives(const CheckInput &in, std::vector<Finding> &out) const {
    static const std::regex equality(R"(__CUDA_ARCH__\s*==|==\s*__CUDA_ARCH__)");
    for (const auto &report : in.guards) {
      std::vector<std::string> lines; // read once per file, where a directive needs it
      std::map<int, const cuda::GuardDirective *> atLine;
      for (const auto &d : report.directives) atLine[d.line] = &d;
      for (const auto &d : report.directives) {
        if (!std::regex_search(d.condition, equality)) continue;
        auto [taken, excluded] = siblingsSplit(d);
        if (excluded.empty()) continue;
        if (lines.empty()) lines = readLines(report.path);
        auto instead = takenInstead(branchesOf(lines, d.line), atLine, excluded, d.line);
        std::string loses = "code built for those targets loses this branch";
        if (instead.line)
          loses += ", and the #" + instead.kind + " at line " + std::to_string(instead.line) +
                   (instead.fails ? " they take fails there" : " builds another implementation instead");
        Finding f = finding("`#" + d.kind + " " + d.condition + "` is compiled for " + listTargets(taken) +
                                " but not for " + listTargets(excluded) + " of the same family: " + loses,
                            at(report.path, d.line, "cuda", "#" + d.kind + " " + d.condition,
                               "taken on " + listTargets(taken)));
        // Another implementation on the siblings is a choice (a faster path for
        // one GPU), not a failure: a note, below lint's default threshold.
        if (instead.line && !instead.fails) f.severity = Severity::Note;
        f.targets = excluded;
        out.push_back(std::move(f));
      }
    }
  }

  static std::vector<std::string> readLines(const std::string &path) {
    std::vector<std::string> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  }

  /// One branch of an #if group: its directive's line and kind, its code.
  struct GroupBranch {
    int line = 0;
    std::string kind;
    std::string code; ///< comments and blank lines left out
    bool fails = false; ///< a few lines that trap, abort, assert, #error or say "not supported"
  };

  /// The branches of the #if group holding the directive at `line` (1-based).
  static std::vector<GroupBranch> branchesOf(const std::vector<std::string> &lines, int line) {
    static const std::regex directive(R"(^\s*#\s*(\w+))");
    static const std::regex failing(R"(\btrap\b|__trap|\babort\s*\(|\bassert\s*\(|static_assert|#\s*error\b|)"
                                    R"(__builtin_unreachable|not supported|only supports|unsupported)",
                                    std::regex::icase);
    auto word = [&](size_t i) { // most lines are not directives: no regex for them
      size_t first = lines[i].find_first_not_of(" \t");
      std::smatch m;
      if (first == std::string::npos || lines[i][first] != '#') return std::string();
      return std::regex_search(lines[i], m, directive) ? m[1].str() : std::string();
    };
    auto opens = [](const std::string &w) { return w == "if" || w == "ifdef" || w == "ifndef"; };
    if (line < 1 || size_t(line) > lines.size()) return {};
    size_t start = size_t(line) - 1; // back to the group's #if
    for (int depth = 0; !opens(word(start)) || depth > 0;) {
      if (start == 0) return {};
      std::string w = word(--start);
      if (w == "endif") ++depth;
      else if (opens(w) && depth > 0) --depth;
    }
    std::vector<GroupBranch> out{{int(start) + 1, word(start), "", false}};
    for (size_t i = start + 1, depth = 0; i < lines.size(); ++i) {
      std::string w = word(i);
      if (opens(w)) ++depth;
      else if (w == "endif" && depth > 0) --depth;
      else if (w == "endif") break;
      else if (depth == 0 && (w == "elif" || w == "else")) {
        out.push_back({int(i) + 1, w, "", false});
        continue;
      }
      std::string code = lines[i].substr(0, lines[i].find("//"));
      if (code.find_first_not_of(" \t") != std::string::npos) out.back().code += code + "\n";
    }
    // A branch that fails is a few lines saying so (`printf(...); asm("trap;")`);
    // a long one that asserts on the way is an implementation.
    for (auto &b : out)
      b.fails = std::count(b.code.begin(), b.code.end(), '\n') <= 6 && std::regex_search(b.code, failing);
    return out;
  }

  /// The branch the excluded targets take instead of the one at `line`: the
  /// first that fails for one of them, else one that builds code for them;
  /// none where some take no branch with code (the code is just dropped).
  static GroupBranch takenInstead(const std::vector<GroupBranch> &group,
                                  const std::map<int, const cuda::GuardDirective *> &atLine,
                                  const std::vector<std::string> &excluded, int line) {
    GroupBranch implementation;
    for (const auto &target : excluded) {
      const GroupBranch *took = nullptr;
      for (const auto &b : group) {
        auto d = atLine.find(b.line);
        if (b.line == line || d == atLine.end()) continue;
        auto state = d->second->byTarget.find(target);
        if (state != d->second->byTarget.end() && state->second == cuda::Branch::Taken) took = &b;
      }
      if (took && took->fails) return *took;
      if (!took || took->code.empty()) return {};
      implementation = *took;
    }
    return implementation;
  }

  /// Targets where the branch is taken, and the same-major targets of
  /// other minors where it is not.
  static std::pair<std::vector<std::string>, std::vector<std::string>> siblingsSplit(const cuda::GuardDirective &d) {
    std::vector<std::pair<Target, cuda::Branch>> states;
    for (const auto &[name, b] : d.byTarget)
      if (auto t = Target::parse(name)) states.emplace_back(*t, b);
    std::vector<std::string> taken, excluded;
    for (const auto &[t, b] : states) {
      if (b != cuda::Branch::Taken) continue;
      taken.push_back(t.name());
      for (const auto &[u, c] : states)
        if (c == cuda::Branch::NotTaken && u.cc.major == t.cc.major && u.cc.minor != t.cc.minor &&
            std::find(excluded.begin(), excluded.end(), u.name()) == excluded.end())
          excluded.push_back(u.name());
    }
    return {taken, excluded};
  }
};

} // namespace

std::unique_ptr<Rule> makeExactArchEquality() { return std::make_unique<ExactArchEquality>(); }

} // namespace archscope::checks
