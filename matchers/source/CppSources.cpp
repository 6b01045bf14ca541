//===--- CppSources.cpp - walk the trees for C++/CUDA files --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/source/CppSources.h"

#include "matchers/source/SkippedFolders.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace archscope {
namespace fs = std::filesystem;

std::vector<CppSource> readCppSources(const std::vector<std::string> &roots) {
  static const std::set<std::string> exts = {".cc", ".cpp", ".cxx", ".cu", ".cuh"};
  constexpr uintmax_t kMaxFileBytes = 4u << 20;
  std::vector<CppSource> out;
  for (const auto &given : roots) {
    std::error_code ec;
    fs::path root = fs::weakly_canonical(given, ec);
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_directory(ec) && isSkippedFolder(it->path().filename().string())) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec) || !exts.count(it->path().extension().string()) ||
          it->file_size(ec) > kMaxFileBytes)
        continue;
      std::ifstream in(it->path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.push_back({it->path().string(), ss.str()});
    }
  }
  return out;
}

} // namespace archscope
