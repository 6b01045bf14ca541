//===--- Archs.h - `archscope archs` ----------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include <ostream>
#include <string>

namespace archscope {
/// The arch-filter calls of a CMake build, evaluated with the engine's helpers.
int runArchs(const Options &opts, std::ostream &out);
/// What a build targets when the user names nothing ("7.5;8.0;...;12.1").
std::string defaultBuildArchs();
} // namespace archscope
