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
