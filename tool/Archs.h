//===--- Archs.h - `archscope archs` ----------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "matchers/build/CMakeArchSets.h"
#include "matchers/build/ReleaseArchLists.h"
#include "tool/Options.h"

#include <ostream>
#include <string>
#include <vector>

namespace archscope {
/// The arch-filter calls of a CMake build, evaluated with the engine's helpers.
int runArchs(const Options &opts, std::ostream &out);
/// What a build targets when the user names nothing ("7.5;8.0;...;12.1").
std::string defaultBuildArchs();
/// The CMake arch sets of every tree that has a CMake build with arch-filter
/// helpers, built for defaultBuildArchs(); problems go to `warnings`.
std::vector<build::ArchSetReport> cmakeArchSets(const std::vector<std::string> &roots, const std::string &cuda,
                                                std::vector<std::string> &warnings);
/// The arch sets each published build gets: every TORCH_CUDA_ARCH_LIST of a
/// release image or job whose CUDA version is known, evaluated under the
/// CMake project of `archSets` that holds it, once per distinct list.
std::vector<build::ReleaseBuild> releaseBuilds(const std::vector<build::ArchSetReport> &archSets,
                                               const std::vector<build::ReleaseArchList> &lists);
} // namespace archscope
