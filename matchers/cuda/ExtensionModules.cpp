//===--- ExtensionModules.cpp - PYBIND11_MODULE(NAME, m) in the trees -----===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/ExtensionModules.h"

#include "matchers/source/SkippedFolders.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace archscope::cuda {
namespace fs = std::filesystem;

std::set<std::string> pybindModuleNames(const std::vector<std::string> &roots) {
  static const std::set<std::string> exts = {".cc", ".cpp", ".cxx", ".cu"};
  static const std::regex module(R"(PYBIND11_MODULE\s*\(\s*([A-Za-z_]\w*)\s*,)");
  std::set<std::string> out;
  for (const auto &root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      std::string name = it->path().filename().string();
      if (it->is_directory(ec) && isSkippedFolder(name)) {
        it.disable_recursion_pending();
        continue;
      }
      if (!it->is_regular_file(ec) || !exts.count(it->path().extension().string())) continue;
      std::ifstream in(it->path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      const std::string text = ss.str();
      if (text.find("PYBIND11_MODULE") == std::string::npos) continue;
      for (auto m = std::sregex_iterator(text.begin(), text.end(), module); m != std::sregex_iterator(); ++m)
        if ((*m)[1] != "TORCH_EXTENSION_NAME") out.insert((*m)[1]);
    }
  }
  return out;
}

} // namespace archscope::cuda
