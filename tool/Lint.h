//===--- Lint.h - `archscope lint`: findings from every layer ------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include <ostream>

namespace archscope {
/// Reads every layer of the tree(s), runs the checks, prints the findings;
/// returns 1 when a finding is at or above the threshold, else 0.
int runLint(const Options &opts, std::ostream &out);
} // namespace archscope
