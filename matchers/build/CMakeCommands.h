//===--- CMakeCommands.h - CMake's command syntax, read without running it ===//
// SPDX-License-Identifier: Apache-2.0
//
// The build layer reads CMake files as a list of commands (name, argument
// text, line) to find what to evaluate with `cmake -P` and which string
// rewrites to check; nothing here runs CMake.
//===----------------------------------------------------------------------===//
#pragma once
#include <string>
#include <vector>

namespace archscope::build {

struct Command {
  std::string name; ///< lower-cased
  std::string args; ///< verbatim, without the outer parentheses
  int line = 0;
};

/// NAME ( args ) with quoted arguments, nested parentheses and # comments.
std::vector<Command> parseCommands(const std::string &text);

/// Splits CMake arguments at top-level whitespace, keeping quotes.
std::vector<std::string> splitArgs(const std::string &args);

/// An argument's value: a quoted one without its quotes and with CMake's
/// escapes (\\, \", \t, \n, \;) read; an unquoted one as written.
std::string argumentValue(const std::string &arg);

} // namespace archscope::build
