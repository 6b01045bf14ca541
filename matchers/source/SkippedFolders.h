//===--- SkippedFolders.h - folders the C++/CUDA and build scans skip -----===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string_view>

namespace archscope {

/// Hidden folders, build outputs and vendored libraries (an installed
/// FlashInfer ships CUTLASS and CCCL beside its own sources): no engine's
/// kernels, registrations or arch lists are defined there.
inline bool isSkippedFolder(std::string_view name) {
  return name.starts_with(".") || name == "3rdparty" || name == "third_party" || name == "build" ||
         name == "node_modules" || name == "cutlass" || name == "cccl";
}

} // namespace archscope
