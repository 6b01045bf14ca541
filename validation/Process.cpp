//===--- Process.cpp - run a toolkit program, capture what it says --------===//
// SPDX-License-Identifier: Apache-2.0
#include "validation/Process.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace archscope::validation {

std::optional<std::string> toolkitProgram(const std::string &name) {
  if (auto p = llvm::sys::findProgramByName(name)) return *p;
  const char *homes[] = {std::getenv("CUDA_HOME"), std::getenv("CUDA_PATH"), "/usr/local/cuda"};
  for (const char *home : homes) {
    if (!home) continue;
    auto candidate = std::filesystem::path(home) / "bin" / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

ProcessResult runProcess(const std::vector<std::string> &args, unsigned timeoutSeconds) {
  ProcessResult r;
  llvm::SmallString<128> out;
  if (llvm::sys::fs::createTemporaryFile("archscope-run", "txt", out)) return r;
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(out)};
  std::string err;
  r.exitCode = llvm::sys::ExecuteAndWait(args[0], argv, std::nullopt, redirects, timeoutSeconds, 0, &err);
  std::ifstream in(out.str().str());
  std::stringstream ss;
  ss << in.rdbuf();
  r.output = ss.str() + err;
  llvm::sys::fs::remove(out);
  return r;
}

} // namespace archscope::validation
