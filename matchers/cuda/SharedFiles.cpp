//===--- SharedFiles.cpp - one read of each header per run --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/SharedFiles.h"

#include <clang/DependencyScanning/DependencyScanningFilesystem.h>

namespace archscope::cuda {

llvm::IntrusiveRefCntPtr<clang::FileManager> sharedCacheFileManager() {
  static clang::dependencies::DependencyScanningFilesystemSharedCache cache;
  auto fs = llvm::makeIntrusiveRefCnt<clang::dependencies::DependencyScanningWorkerFilesystem>(
      cache, llvm::vfs::getRealFileSystem());
  return llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), std::move(fs));
}

} // namespace archscope::cuda
