//===--- Process.h - run a toolkit program, capture what it says ----------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace archscope::validation {

struct ProcessResult {
  int exitCode = -1;  ///< -1: could not start or timed out
  std::string output; ///< stdout and stderr together
};

/// The CUDA toolkit program `name` (nvcc, ptxas, cuobjdump): $PATH, then
/// $CUDA_HOME/bin, then /usr/local/cuda/bin; nullopt when absent.
std::optional<std::string> toolkitProgram(const std::string &name);
/// Runs `args[0]` with `args`; never throws.
ProcessResult runProcess(const std::vector<std::string> &args, unsigned timeoutSeconds = 300);

} // namespace archscope::validation
