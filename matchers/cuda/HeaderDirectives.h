//===--- HeaderDirectives.h - headers as their preprocessor directives ---===//
// SPDX-License-Identifier: Apache-2.0
//
// A guard pass needs from a header only what the preprocessor keeps of it:
// its macros, its #if structure and its #includes. clang's dependency-
// directives scanner (the one clang-scan-deps runs) reduces a file to exactly
// those, and the preprocessor then reads the header through them instead of
// lexing its code. CUTLASS's headers are most of what a pass lexes, once per
// target, so each header is scanned once per process and its directives are
// shared by every pass. The main file is always lexed whole.
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/Basic/FileManager.h>
#include <clang/Lex/DependencyDirectivesScanner.h>

#include <memory>

namespace archscope::cuda {

/// Gives the preprocessor each file's directives but `mainFile`'s.
class HeaderDirectives : public clang::DependencyDirectivesGetter {
public:
  HeaderDirectives(clang::FileManager &files, llvm::sys::fs::UniqueID mainFile) : files_(files), main_(mainFile) {}
  std::unique_ptr<clang::DependencyDirectivesGetter> cloneFor(clang::FileManager &files) override {
    return std::make_unique<HeaderDirectives>(files, main_);
  }
  std::optional<llvm::ArrayRef<clang::dependency_directives_scan::Directive>>
  operator()(clang::FileEntryRef file) override;

private:
  clang::FileManager &files_;
  llvm::sys::fs::UniqueID main_;
};

} // namespace archscope::cuda
