//===--- Facts.h - what extractors report, independent of any target ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Extractors turn files into facts; the matrix builder evaluates the facts'
// conditions per target. Nothing here knows about outputs.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Condition.h"
#include "model/Evidence.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace archscope {

/// A capability predicate the tree defines (`is_sm120_supported`), resolved
/// from its definition to a condition.
struct PredicateFact {
  std::string name; ///< module-qualified: sglang.srt.utils.common.is_sm120_supported
  Condition cond = Condition::unknown("not resolved");
  Evidence where;
  /// The line of its body that gives the answer (the return that reads the
  /// GPU); path empty when the definition is that line.
  Evidence body;
};

/// A backend the engine can dispatch to (an enum member or a string choice).
struct BackendFact {
  std::string name; ///< normalized: lower-case enum value
  std::string enumClass;
  Evidence where;
};

/// The Calls entry of a JIT module kept whole (`self._module = get_X_module()`):
/// which of its functions is called later is not followed.
inline std::string keptModuleEntry(const std::string &getter) { return "jit:" + getter + ".*"; }
inline bool isKeptModuleEntry(const std::string &entry) {
  return entry.rfind("jit:", 0) == 0 && entry.size() > 6 && entry.compare(entry.size() - 2, 2, ".*") == 0;
}

/// GuardFact::order is the stage (scope index) times this plus the fact's
/// place in that stage's walk (execution order).
inline constexpr int kStageSpan = 1000000;
/// The stage of entry walks (EntryWalks.h), after every scope stage: their
/// facts are reached under `backend == b`, not by testing the backend.
inline constexpr int kEntryStage = 1000;

/// A guard or dispatch decision found on some code path.
struct GuardFact {
  enum class Kind {
    Reject,   ///< a raise/assert reached when `cond` holds
    Select,   ///< `backend` is chosen when `cond` holds (auto selection)
    Route,    ///< the dispatch branch for `backend` (where it is handled)
    Support,  ///< `backend` supports the device when `cond` holds (device check)
    Declared, ///< an allow-list declared for `backend`'s kernel, not enforced
    Calls,    ///< `backend`'s path calls the compiled kernel entry `entry` when `cond` holds
    /// `backend`'s path calls `entry`, a function of a package some row is
    /// named after (flashinfer_trtllm: flashinfer), which no given tree holds
    Library,
  } kind = Kind::Reject;
  Condition cond = Condition::truth(); ///< Reject/Select/Route/Support: when it holds;
                                       ///< Declared: the allow-list itself
  Condition reach = Condition::truth(); ///< Declared: when the kernel is reached
  std::string backend;       ///< Select/Route/Support (Declared: optional)
  int order = 0;             ///< precedence: stage * kStageSpan + place in the stage's walk
  std::string entry;         ///< Calls: "torch.ops.NS.OP", "jit:GETTER.FUNC" (a JIT module's export)
                             ///< or keptModuleEntry(GETTER); Library: the dotted name called
  /// Calls of a JIT module whose builder the walk saw: its sources as literal
  /// path suffixes and its literal -D/-U flags (empty otherwise).
  std::vector<std::string> jitSources, jitFlags;
  /// The flag list's items not known literally ("..." for an unknown part):
  /// macros the module may define beyond jitFlags.
  std::vector<std::string> jitFlagsUnsure;
  /// Calls of a JIT module known only through its getter's body: its sources,
  /// read for the kernel families they show (not preprocessed: coverage comes
  /// from the export's own file).
  std::vector<std::string> familySources;
  /// Calls of a JIT module whose builder reads the folders its prebuilt
  /// cubins are published under (relative paths, matched as suffixes).
  std::vector<std::string> cubinArtifacts;
  std::string tree;          ///< which tree: the engine or a dependency name
  std::vector<Evidence> chain; ///< the site first, then its context
  /// The branch conditions enclosing the site, outermost first, each with
  /// its evidence; the matrix notes whether each holds on the cell's target.
  std::vector<std::pair<Condition, Evidence>> context;
};

/// A compiler flag a JIT build passes only on a new enough CUDA toolkit
/// (`"-DENABLE_FP4" if is_cuda_version_at_least("12.8") else ""`), with no
/// raise on the toolkit in the function that builds the flags: below that
/// version the module builds without the feature, silently.
struct ToolkitGatedFlag {
  std::string flag;      ///< -DENABLE_FP4
  std::string condition; ///< the test, as written
  Evidence where;
};

/// A chain of exact capability tests whose last branch raises (`if major == 8:
/// ... elif major == 9: ... else: raise ValueError(...)`): every GPU the chain
/// does not list is refused, new ones first (field bug 19).
struct ClosedArchTable {
  std::string function; ///< the function holding the chain; empty at module level
  std::string subject;  ///< the value tested, as written: major
  bool smScale = false; ///< values are 10 * major + minor (90, 100), not majors
  std::vector<int> listed; ///< the values some branch admits, sorted
  Evidence where;          ///< the raise
};

/// A backend written for another platform's accelerators: its name says so
/// (SGLang's `aiter`, `ascend`) and a module of its own imports that
/// platform's code unconditionally (`from aiter import ActivationType`,
/// `sglang.srt.hardware_backend.npu...`). No NVIDIA GPU runs its kernels.
struct ForeignPlatform {
  std::string backend;
  std::string platform; ///< AMD ROCm
  std::string module;   ///< the module imported: aiter
  Evidence where;       ///< the import
};

struct Facts {
  std::vector<PredicateFact> predicates;
  std::vector<BackendFact> backends;
  std::vector<GuardFact> guards;
  std::vector<std::string> warnings; ///< unreadable files, parse errors, ...
  std::set<std::string> dispatched;  ///< backends with a dispatch branch
  /// backend -> the library files (of --with trees) whose functions its
  /// entry walks entered: CuTe DSL kernels, read for their kernel families
  std::map<std::string, std::set<std::string>> enteredFiles;
  std::vector<ToolkitGatedFlag> toolkitGatedFlags;
  std::vector<ClosedArchTable> closedArchTables;
  std::vector<ForeignPlatform> foreignPlatforms;
};

} // namespace archscope
