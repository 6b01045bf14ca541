//===--- HeaderDirectives.cpp - headers as their preprocessor directives -===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/HeaderDirectives.h"

namespace archscope::cuda {

namespace scan = clang::dependency_directives_scan;

/// One file's scan. The directives point into `tokens`, the tokens at offsets
/// of the file's text, which the preprocessor reads from its own buffer.
struct ScannedHeaders::Scan {
  bool ok = false;
  llvm::SmallVector<scan::Token, 0> tokens;
  llvm::SmallVector<scan::Directive, 0> directives;
};

ScannedHeaders::ScannedHeaders() = default;
ScannedHeaders::~ScannedHeaders() = default;

std::optional<llvm::ArrayRef<scan::Directive>> ScannedHeaders::of(clang::FileManager &files, clang::FileEntryRef file) {
  auto &slot = scans_[file.getUniqueID()];
  if (!slot) {
    slot = std::make_unique<Scan>();
    auto text = files.getBufferForFile(file, /*isVolatile=*/false, /*RequiresNullTerminator=*/false);
    // The scanner returns true when it cannot reduce the file: then it is lexed whole.
    slot->ok = text && !clang::scanSourceForDependencyDirectives((*text)->getBuffer(), slot->tokens, slot->directives);
  }
  if (!slot->ok) return std::nullopt;
  return llvm::ArrayRef<scan::Directive>(slot->directives);
}

} // namespace archscope::cuda
