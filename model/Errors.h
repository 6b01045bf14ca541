//===--- Errors.h - user-facing errors and their exit codes -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Errors travel as exceptions up to main, which prints one line
// ("archscope: error: <what> (<where>); <what to do>") and exits with the
// code of DESIGN.md: 2 usage/config, 3 input, 4 internal.
//===----------------------------------------------------------------------===//
#pragma once
#include <stdexcept>
#include <string>

namespace archscope {

enum ExitCode { ExitClean = 0, ExitFindings = 1, ExitUsage = 2, ExitInput = 3, ExitInternal = 4 };

class ArchscopeError : public std::runtime_error {
public:
  ArchscopeError(ExitCode code, std::string message, std::string hint = {})
      : std::runtime_error(std::move(message)), code_(code), hint_(std::move(hint)) {}
  ExitCode code() const { return code_; }
  const std::string &hint() const { return hint_; }

private:
  ExitCode code_;
  std::string hint_;
};

inline ArchscopeError usageError(std::string msg, std::string hint = {}) {
  return {ExitUsage, std::move(msg), std::move(hint)};
}
inline ArchscopeError inputError(std::string msg, std::string hint = {}) {
  return {ExitInput, std::move(msg), std::move(hint)};
}

} // namespace archscope
