//===--- HeaderDirectives.cpp - headers as their preprocessor directives -===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/HeaderDirectives.h"

#include <map>
#include <mutex>

namespace archscope::cuda {
namespace {

namespace scan = clang::dependency_directives_scan;

/// One file's scan. The directives point into `tokens`, the tokens at offsets
/// of the file's text, which the preprocessor reads from its own buffer.
struct Scanned {
  std::once_flag once;
  bool ok = false;
  llvm::SmallVector<scan::Token, 0> tokens;
  llvm::SmallVector<scan::Directive, 0> directives;
};

/// Every file's scan, for the whole process (passes run in several threads).
Scanned &scannedFor(llvm::sys::fs::UniqueID id) {
  static std::mutex lock;
  static std::map<llvm::sys::fs::UniqueID, std::unique_ptr<Scanned>> all;
  std::lock_guard<std::mutex> hold(lock);
  auto &slot = all[id];
  if (!slot) slot = std::make_unique<Scanned>();
  return *slot;
}

} // namespace

std::optional<llvm::ArrayRef<scan::Directive>> HeaderDirectives::operator()(clang::FileEntryRef file) {
  if (file.getUniqueID() == main_) return std::nullopt;
  Scanned &s = scannedFor(file.getUniqueID());
  std::call_once(s.once, [&] {
    auto text = files_.getBufferForFile(file, /*isVolatile=*/false, /*RequiresNullTerminator=*/false);
    // The scanner returns true when it cannot reduce the file: then it is lexed whole.
    s.ok = text && !clang::scanSourceForDependencyDirectives((*text)->getBuffer(), s.tokens, s.directives);
  });
  if (!s.ok) return std::nullopt;
  return llvm::ArrayRef<scan::Directive>(s.directives);
}

} // namespace archscope::cuda
