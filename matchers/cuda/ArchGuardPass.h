//===--- ArchGuardPass.h - which #if regions each target compiles -------===//
// SPDX-License-Identifier: Apache-2.0
//
// One clang preprocessor pass per (file, target) in device mode records every
// conditional directive of the file and whether its branch is taken there.
// Headers outside the trees (CUTLASS, torch, tvm-ffi, the CUDA and C++
// libraries: no system folder is searched, DeviceTarget.h) are skipped and
// listed, never fatal; macros they would define stay undefined. The same
// pass reads the tokens each target compiles, so it also knows, per target,
// whether each `__global__` kernel has a body, an empty one, or only a trap.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/cuda/BranchText.h"
#include "model/Target.h"

#include <map>
#include <string>
#include <vector>

namespace archscope::cuda {

enum class Branch { Taken, NotTaken, Skipped /* inside a region not compiled */ };

struct GuardDirective {
  int line = 0;
  std::string kind;      ///< if, ifdef, ifndef, elif, else
  std::string condition; ///< the directive's text after the keyword
  std::map<std::string, Branch> byTarget; ///< target name -> branch state
  int group = 0; ///< the line of the #if, #ifdef or #ifndef that opens its group
  int end = 0;   ///< the line of the #elif, #else or #endif that ends this branch
  BranchText text; ///< what the branch's lines say, the same for every target
  /// Per target where the branch is taken: the tokens, #includes and #defines
  /// it compiles there (none: the target loses nothing by not taking it).
  std::map<std::string, int> compiled;
  /// Per target, where the directive is read inside a `{ }` block (a
  /// function's body, a loop's): the tokens that block compiles there. A
  /// target that skips the branch and still compiles code around it keeps
  /// the function; one whose block is empty without it loses the function.
  std::map<std::string, int> enclosingBlock;
  /// Per target where the branch is taken, how many of `compiled` are
  /// #defines, and, where that is all it compiles, the macros they define
  /// (on any target): a branch of #defines alone takes no code from the
  /// targets that skip it.
  std::map<std::string, int> defines;
  std::vector<std::string> macros;
  /// The named definitions it sits in, outermost first (struct
  /// enable_sm120_only, then a function of it); none at file scope.
  std::vector<std::string> definitions;
};

/// What a `__global__` kernel of the file compiles to on one target.
enum class KernelBody { Code, Empty, TrapOnly, Absent };

struct KernelSite {
  std::string name;
  int line = 0; ///< of the first target that compiles it
  std::map<std::string, KernelBody> byTarget;
};

struct GuardReport {
  std::string path;
  std::vector<GuardDirective> directives;
  std::vector<KernelSite> kernels;
  std::vector<std::string> missingIncludes; ///< skipped, in first-seen order
  std::vector<std::string> errors;          ///< per target, when a pass failed
  bool targetFree = false; ///< no pass read a target macro: one pass stood for all
};

struct GuardPassOptions {
  std::vector<std::string> extraArgs; ///< -I, -D
  /// Macros defined per pass as the target's __CUDA_ARCH__ (1200 for
  /// sm_120a): what an engine's JIT passes (SGLang's SGL_CUDA_ARCH).
  std::vector<std::string> archMacros;
  /// false: preprocess only, with the same missing-header tolerance, and
  /// record nothing: the baseline the speed of the pass is measured against.
  bool extract = true;
  /// A file whose first pass never reads a target macro gets that pass's
  /// outcomes for every target (TargetMacroWatcher.h); false runs them all.
  bool reuseTargetFreePasses = true;
};

/// Runs one preprocessor pass per target over `path`; never throws for bad
/// input, reports it in `errors`.
GuardReport runArchGuardPass(const std::string &path, const std::vector<Target> &targets,
                             const GuardPassOptions &options = {});

} // namespace archscope::cuda
