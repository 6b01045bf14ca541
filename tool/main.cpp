//===--- main.cpp - archscope command line --------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Errors.h"
#include "tool/Commands.h"
#include "tool/Options.h"
#include "tool/diff/GitCheckout.h"

#include <llvm/Support/ErrorHandling.h>

#include <cstdio>
#include <iostream>
#include <unistd.h>

namespace {
/// Like clang's -disable-free: the process ends here, so the hundreds of
/// syntax trees are not freed one node at a time. Temporary copies of
/// checkouts are removed first: _exit runs no destructors.
[[noreturn]] void finish(int code) {
  archscope::diff::removeRunTempDirs();
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  _exit(code);
}

/// LLVM's own fatal errors would exit 1, which reads as "findings": an
/// internal error must never look like a lint result, nor like a clean run.
void llvmFatalError(void *, const char *reason, bool) {
  std::cerr << "archscope: internal error: " << reason << " (please report it)\n";
  finish(archscope::ExitInternal);
}
} // namespace

int main(int argc, char **argv) {
  using namespace archscope;
  llvm::install_fatal_error_handler(llvmFatalError);
  try {
    Options opts;
    if (!parseOptions(argc, argv, opts)) finish(ExitClean);
    finish(runCommand(opts));
  } catch (const ArchscopeError &e) {
    std::cerr << "archscope: error: " << e.what();
    if (!e.hint().empty()) std::cerr << "; " << e.hint();
    std::cerr << "\n";
    finish(e.code());
  } catch (const std::exception &e) {
    std::cerr << "archscope: internal error: " << e.what() << " (please report it)\n";
    finish(ExitInternal);
  } catch (...) {
    std::cerr << "archscope: internal error: unknown exception (please report it)\n";
    finish(ExitInternal);
  }
}
