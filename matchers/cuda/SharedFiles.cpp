//===--- SharedFiles.cpp - one read of each header per run --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/SharedFiles.h"

#include <clang/DependencyScanning/DependencyScanningFilesystem.h>

namespace archscope::cuda {
namespace {
// Set and reset by the thread that starts and joins the passes' threads.
SharedFileCache *innermost = nullptr;
} // namespace

SharedFileCache::SharedFileCache()
    : cache_(std::make_unique<clang::dependencies::DependencyScanningFilesystemSharedCache>()), outer_(innermost) {
  innermost = this;
}

SharedFileCache::~SharedFileCache() { innermost = outer_; }

llvm::IntrusiveRefCntPtr<clang::FileManager> passFileManager() {
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = llvm::vfs::getRealFileSystem();
  if (innermost)
    fs = llvm::makeIntrusiveRefCnt<clang::dependencies::DependencyScanningWorkerFilesystem>(*innermost->cache_,
                                                                                             std::move(fs));
  return llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(), std::move(fs));
}

} // namespace archscope::cuda
