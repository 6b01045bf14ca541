//===--- CppSources.cpp - walk the trees for C++/CUDA files --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/source/CppSources.h"

#include "matchers/source/FileWalk.h"
#include "matchers/source/SkippedFolders.h"

#include <llvm/Support/Parallel.h>

#include <filesystem>
#include <set>

namespace archscope {
namespace fs = std::filesystem;

std::vector<CppSource> readCppSources(const std::vector<std::string> &roots) {
  static const std::set<std::string> exts = {".cc", ".cpp", ".cxx", ".cu", ".cuh"};
  constexpr uintmax_t kMaxFileBytes = 4u << 20;
  std::vector<CppSource> out;
  for (const auto &given : roots) {
    std::error_code ec;
    std::string root = fs::weakly_canonical(given, ec).string();
    auto enter = [](const fs::path &dir) { return !isSkippedFolder(dir); };
    auto isCpp = [](const fs::path &path) { return exts.count(path.extension().string()) > 0; };
    forEachFile({root}, kMaxFileBytes, enter, isCpp, [&](const fs::path &path) { out.push_back({path.string(), ""}); });
  }
  llvm::parallelFor(0, out.size(), [&](size_t i) { out[i].text = readWholeFile(out[i].path); });
  return out;
}

} // namespace archscope
