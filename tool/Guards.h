//===--- Guards.h - `archscope guards` --------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include "matchers/cuda/ArchGuardPass.h"

#include <ostream>
#include <string>
#include <vector>

namespace archscope {
/// Per-target outcome of every #if in the given CUDA files.
int runGuards(const Options &opts, std::ostream &out);

/// The .cu/.cuh/.hpp files under `paths`, sorted; throws for a missing path.
std::vector<std::string> cudaSourcesUnder(const std::vector<std::string> &paths);
/// The files a lint rule can find something in: a `__global__` kernel, a
/// `__CUDA_ARCH...` guard or a shared-memory request written in the file
/// itself (the rules read directives and kernels of the file, not of its
/// headers), so the passes skip the rest. A kernel whose `__global__` only
/// comes from a header's macro (`#define KERNEL __global__ void`) is missed.
std::vector<std::string> filesTheRulesRead(const std::vector<std::string> &files);
/// The guard-pass targets: `names`, or the Hopper/Blackwell a and f targets.
std::vector<Target> guardTargets(const std::vector<std::string> &names);
/// One report per file, in parallel, from the cache where unchanged.
/// `warnings` (optional) receives problems with the compile databases used.
/// `extra`: flags added after each file's own (a JIT module's -D flags) and
/// the macros defined as each target's __CUDA_ARCH__ (profile arch_macros).
std::vector<cuda::GuardReport> guardReports(const std::vector<std::string> &files, const std::vector<Target> &targets,
                                            bool useCache, bool progress, std::vector<std::string> *warnings = nullptr,
                                            const cuda::GuardPassOptions &extra = {});
} // namespace archscope
