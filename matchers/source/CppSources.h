//===--- CppSources.h - the C++/CUDA files of the trees, read once -------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

namespace archscope {

struct CppSource {
  std::string path; ///< starts with the canonical root it was found under
  std::string text;
};

/// Every .cc/.cpp/.cxx/.cu/.cuh file under `roots` (at most 4 MiB each),
/// skipping hidden, build and vendored folders (SkippedFolders.h).
std::vector<CppSource> readCppSources(const std::vector<std::string> &roots);

} // namespace archscope
