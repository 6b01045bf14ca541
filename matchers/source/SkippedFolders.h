//===--- SkippedFolders.h - folders the C++/CUDA and build scans skip -----===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <filesystem>
#include <string>

namespace archscope {

/// A vendored copy of CUTLASS or CCCL (an installed FlashInfer ships both
/// beside its own sources, a checkout under 3rdparty/), told by the library's
/// own layout at its top. Not every folder so named: vLLM keeps its own
/// kernels in csrc/.../w8a8/cutlass/.
inline bool isVendoredLibrary(const std::filesystem::path &dir) {
  std::string name = dir.filename().string();
  std::error_code ec;
  auto holds = [&](const char *child) { return std::filesystem::is_directory(dir / child, ec); };
  if (name == "cutlass") return holds("include");
  if (name == "cccl") return holds("include") || holds("cub") || holds("libcudacxx");
  return false;
}

/// Hidden folders, build outputs and vendored libraries: no engine's
/// kernels, registrations or arch lists are defined there.
inline bool isSkippedFolder(const std::filesystem::path &dir) {
  std::string name = dir.filename().string();
  return name.starts_with(".") || name == "3rdparty" || name == "third_party" || name == "build" ||
         name == "node_modules" || isVendoredLibrary(dir);
}

} // namespace archscope
