//===--- Archs.h - `archscope archs` ----------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include <ostream>

namespace archscope {
/// The arch-filter calls of a CMake build, evaluated with the engine's helpers.
int runArchs(const Options &opts, std::ostream &out);
} // namespace archscope
