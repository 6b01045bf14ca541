//===--- SharedFiles.h - one read of each header per run ----------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Every clang pass (one per file and target) opened and read each header it
// includes again: 17,000 reads for an SGLang + FlashInfer audit. The file
// managers made here share clang's dependency-scanning file cache, so a
// header's status and contents are read once per process.
//===----------------------------------------------------------------------===//
#pragma once
#include <clang/Basic/FileManager.h>

namespace archscope::cuda {

/// A file manager for one thread's passes; the cache below it is shared and
/// thread-safe. Files are taken not to change while the process runs.
llvm::IntrusiveRefCntPtr<clang::FileManager> sharedCacheFileManager();

} // namespace archscope::cuda
