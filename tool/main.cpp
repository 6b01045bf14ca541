//===--- main.cpp - archscope command line --------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Errors.h"
#include "tool/Commands.h"
#include "tool/Options.h"

#include <iostream>

int main(int argc, char **argv) {
  using namespace archscope;
  try {
    Options opts;
    if (!parseOptions(argc, argv, opts)) return ExitClean;
    return runCommand(opts);
  } catch (const ArchscopeError &e) {
    std::cerr << "archscope: error: " << e.what();
    if (!e.hint().empty()) std::cerr << "; " << e.hint();
    std::cerr << "\n";
    return e.code();
  } catch (const std::exception &e) {
    std::cerr << "archscope: internal error: " << e.what() << " (please report it)\n";
    return ExitInternal;
  }
}
