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
// Code dropped inside a block that the siblings still fill with more than
// the branch held (a fence added for one GPU) is a note; a branch that
// compiles nothing where it is taken (an `#error`) is no finding. A branch of
// #defines alone whose macros no directive the siblings read tests (a
// pipeline depth for one GPU) is a note: a use of one there fails to compile
// instead of running other code. One inside
// a definition that no source names but its own (vLLM's enable_sm120_only
// after the fix moved its users to the family guard) is a note.
// In C++ host code, an exact
// runtime check (`ICHECK_EQ(major, 10)`, `sm == 120`) that refuses GPUs for
// which the same file's arch-guarded kernels compile a body (field bug 13:
// FlashInfer's ICHECK_EQ(major, 10) before a kernel built for 12.x), or a
// sibling of an admitted GPU with the same ISA (`== 120` refusing 12.1).
// A check on one configuration's path only (`if (a_type == kFE4M3fn)`)
// restricts that path on purpose: only the sibling case is reported there.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/KernelLaunches.h"
#include "matchers/source/TextSearch.h"
#include "model/checks/Rule.h"
#include "model/checks/RuleSupport.h"
#include "model/checks/rules/Rules.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

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

  /// Warnings that a definition no source names may turn into notes: out's index, the directive.
  using Warned = std::vector<std::pair<size_t, const cuda::GuardDirective *>>;

  void checkDirectives(const CheckInput &in, std::vector<Finding> &out) const {
    static const std::regex equality(R"(__CUDA_ARCH__\s*==|==\s*__CUDA_ARCH__)");
    Warned warned;
    for (const auto &report : in.guards) {
      for (const auto &d : report.directives) {
        if (!std::regex_search(d.condition, equality)) continue;
        auto [taken, excluded] = siblingsSplit(d);
        if (excluded.empty() || compilesNothing(d)) continue;
        const cuda::GuardDirective *instead = takenInstead(report, d, excluded);
        auto kept = instead ? std::nullopt : keptAround(d, excluded);
        bool macrosOnly = !instead && !kept && definesOnly(d);
        const cuda::GuardDirective *tester = macrosOnly ? testerOf(report, d.macros, excluded) : nullptr;
        std::string loses = "code built for those targets loses this branch";
        if (macrosOnly)
          loses = "code built for those targets lacks its #define of " + listMacros(d.macros) +
                  (tester ? ", which the #" + tester->kind + " at line " + std::to_string(tester->line) +
                                " tests there: they take the other way without a word"
                          : ", which no directive read there tests: a use of one fails to compile, it "
                            "runs nothing else");
        else if (instead)
          loses += ", and the #" + instead->kind + " at line " + std::to_string(instead->line) +
                   (instead->text.fails ? " they take fails there"
                                        : " builds another implementation instead");
        else if (kept)
          loses += " (" + std::to_string(mostCompiled(d)) + " tokens) and keeps the " +
                   std::to_string(*kept) + " of the block around it: an addition for one GPU";
        Finding f = finding("`#" + d.kind + " " + d.condition + "` is compiled for " + listTargets(taken) +
                                " but not for " + listTargets(excluded) + " of the same family: " + loses,
                            at(report.path, d.line, "cuda", "#" + d.kind + " " + d.condition,
                               "taken on " + listTargets(taken)));
        // Another implementation on the siblings is a choice (a faster path for
        // one GPU), not a failure: a note, below lint's default threshold.
        if ((instead && !instead->text.fails) || kept || (macrosOnly && !tester)) f.severity = Severity::Note;
        else if (!d.definitions.empty()) warned.emplace_back(out.size(), &d);
        f.targets = excluded;
        out.push_back(std::move(f));
      }
    }
    markUnusedDefinitions(in, warned, out);
  }

  /// A warning inside a definition that the trees' sources name only where
  /// it is defined (a wrapper left behind by a fix) becomes a note: no build
  /// compiles it. The sources are read once, for all such warnings.
  static void markUnusedDefinitions(const CheckInput &in, const Warned &warned, std::vector<Finding> &out) {
    std::set<std::string> names;
    for (const auto &[i, d] : warned) names.insert(d->definitions.begin(), d->definitions.end());
    auto uses = in.sourceNames.count(names);
    for (const auto &[i, d] : warned)
      for (const auto &name : d->definitions)
        if (uses[name] == 1) {
          out[i].message +=
              "; nothing in the trees names `" + name + "` but its definition, so no build compiles it";
          out[i].severity = Severity::Note;
          break;
        }
  }

  /// Where every excluded target still compiles, in the `{ }` block around
  /// the branch, more than the branch holds where taken (a fence or a
  /// variable added for one GPU inside a kernel that builds for all): the
  /// fewest tokens one of them keeps. None where the block is empty without
  /// it (the function is lost) or the branch is outside any block.
  static std::optional<int> keptAround(const cuda::GuardDirective &d,
                                       const std::vector<std::string> &excluded) {
    int fewest = -1;
    for (const auto &target : excluded) {
      auto block = d.enclosingBlock.find(target);
      if (block == d.enclosingBlock.end() || block->second <= mostCompiled(d)) return std::nullopt;
      fewest = fewest < 0 ? block->second : std::min(fewest, block->second);
    }
    return fewest < 0 ? std::nullopt : std::optional<int>(fewest);
  }

  static int mostCompiled(const cuda::GuardDirective &d) {
    int most = 0;
    for (const auto &[target, n] : d.compiled) most = std::max(most, n);
    return most;
  }

  /// Whether the branch compiles #defines and nothing else on every target that takes it.
  static bool definesOnly(const cuda::GuardDirective &d) {
    if (d.compiled.empty() || d.macros.empty()) return false;
    return std::all_of(d.compiled.begin(), d.compiled.end(), [&](const auto &c) {
      auto n = d.defines.find(c.first);
      return n != d.defines.end() && n->second == c.second;
    });
  }

  /// The first directive of the file that one of `targets` reads (taken or
  /// not) and that names one of `macros` in its condition (`#ifdef NAME`,
  /// `#if NAME > 1`), or none.
  static const cuda::GuardDirective *testerOf(const cuda::GuardReport &report,
                                              const std::vector<std::string> &macros,
                                              const std::vector<std::string> &targets) {
    auto readOnSome = [&](const cuda::GuardDirective &b) {
      return std::any_of(targets.begin(), targets.end(), [&](const std::string &t) {
        auto state = b.byTarget.find(t);
        return state != b.byTarget.end() && state->second != cuda::Branch::Skipped;
      });
    };
    auto names = [&](const cuda::GuardDirective &b) {
      auto named = [&](const std::string &m) { return containsWord(b.condition, m); };
      return std::any_of(macros.begin(), macros.end(), named);
    };
    for (const auto &b : report.directives)
      if (readOnSome(b) && names(b)) return &b;
    return nullptr;
  }

  static std::string listMacros(const std::vector<std::string> &macros) {
    std::string out;
    for (size_t i = 0; i < macros.size() && i < 3; ++i) out += (out.empty() ? "`" : ", `") + macros[i] + "`";
    return macros.size() > 3 ? out + " and " + std::to_string(macros.size() - 3) + " more" : out;
  }

  /// A branch that compiles nothing where it is taken (an `#error`, or only
  /// a nested `#if` that is false there) gives its siblings nothing to lose.
  static bool compilesNothing(const cuda::GuardDirective &d) {
    return !d.compiled.empty() &&
           std::all_of(d.compiled.begin(), d.compiled.end(), [](const auto &c) { return c.second == 0; });
  }

  /// The branch of the same group the excluded targets take instead: the
  /// first that fails for one of them, else one that builds code for them;
  /// none where some take no branch with code (the code is just dropped).
  static const cuda::GuardDirective *takenInstead(const cuda::GuardReport &report,
                                                  const cuda::GuardDirective &d,
                                                  const std::vector<std::string> &excluded) {
    const cuda::GuardDirective *implementation = nullptr;
    for (const auto &target : excluded) {
      const cuda::GuardDirective *took = nullptr;
      for (const auto &b : report.directives) {
        if (b.group != d.group || b.line == d.line) continue;
        auto state = b.byTarget.find(target);
        if (state != b.byTarget.end() && state->second == cuda::Branch::Taken) took = &b;
      }
      if (took && took->text.fails) return took;
      if (!took || took->text.codeLines == 0) return nullptr;
      implementation = took;
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
