//===--- Guards.h - `archscope guards` --------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include <ostream>

namespace archscope {
/// Per-target outcome of every #if in the given CUDA files.
int runGuards(const Options &opts, std::ostream &out);
} // namespace archscope
