//===--- Commands.h - subcommands -----------------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

namespace archscope {
/// Runs the parsed command; returns the exit code.
int runCommand(const Options &opts);
} // namespace archscope
