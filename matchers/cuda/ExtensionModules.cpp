//===--- ExtensionModules.cpp - PYBIND11_MODULE(NAME, m) in the trees -----===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/ExtensionModules.h"

#include <regex>

namespace archscope::cuda {

std::set<std::string> pybindModuleNames(const std::vector<CppSource> &sources) {
  static const std::regex module(R"(PYBIND11_MODULE\s*\(\s*([A-Za-z_]\w*)\s*,)");
  std::set<std::string> out;
  for (const auto &f : sources) {
    if (f.text.find("PYBIND11_MODULE") == std::string::npos) continue;
    for (auto m = std::sregex_iterator(f.text.begin(), f.text.end(), module); m != std::sregex_iterator(); ++m)
      if ((*m)[1] != "TORCH_EXTENSION_NAME") out.insert((*m)[1]);
  }
  return out;
}

} // namespace archscope::cuda
