//===--- Diff.h - `archscope diff REV_A REV_B [PATH]` ----------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include <ostream>

namespace archscope {
/// Audits PATH (default: the working directory) at two git revisions and
/// prints the cells that changed. Returns 0, or 1 with --fail-on-regression
/// when a supported cell became crash-risk or rejected.
int runDiff(const Options &opts, std::ostream &out);
} // namespace archscope
