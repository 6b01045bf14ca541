//===--- SharedFiles.h - one read of each header per run ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Every clang pass (one per file and target) opened and read each header it
// includes again: 17,000 reads for an SGLang + FlashInfer audit. While a
// SharedFileCache lives, the file managers made here share clang's
// dependency-scanning file cache, so a header is read once.
//
// Scope one to work over files that stay as they are. The cache also finds
// entries by inode, and a folder removed and extracted again (the revisions
// `archscope diff` copies out, lint's --diff-base worktree) can give a new
// file an old one's inode: it would be served the old contents.
//===----------------------------------------------------------------------===//
#pragma once
#include <clang/Basic/FileManager.h>

#include <memory>

namespace clang::dependencies {
class DependencyScanningFilesystemSharedCache;
}

namespace archscope::cuda {

class SharedFileCache {
public:
  SharedFileCache();
  ~SharedFileCache();
  SharedFileCache(const SharedFileCache &) = delete;
  SharedFileCache &operator=(const SharedFileCache &) = delete;

private:
  friend llvm::IntrusiveRefCntPtr<clang::FileManager> passFileManager();
  std::unique_ptr<clang::dependencies::DependencyScanningFilesystemSharedCache> cache_;
  SharedFileCache *outer_;
};

/// A file manager for one thread's passes: over the innermost live
/// SharedFileCache (thread-safe), else over the real file system.
llvm::IntrusiveRefCntPtr<clang::FileManager> passFileManager();

} // namespace archscope::cuda
