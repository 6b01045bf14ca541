//===--- HeaderDirectives.h - headers as their preprocessor directives ---===//
// SPDX-License-Identifier: Apache-2.0
//
// A guard pass needs from a header only what the preprocessor keeps of it:
// its macros, its #if structure and its #includes. clang's dependency-
// directives scanner (the one clang-scan-deps runs) reduces a file to exactly
// those, and the preprocessor then reads the header through them instead of
// lexing its code. CUTLASS's headers are most of what a pass lexes, once per
// target, so a file's passes share one scan of each header (ScannedHeaders,
// kept for the passes of one file only: the files cannot change under it).
// The main file is always lexed whole.
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/Basic/FileManager.h>
#include <clang/Lex/DependencyDirectivesScanner.h>

#include <map>
#include <memory>
#include <optional>

namespace archscope::cuda {

/// The scans of the headers one file's passes read.
class ScannedHeaders {
public:
  ScannedHeaders();
  ~ScannedHeaders();
  /// `file`'s directives, scanned on first use; none when the scanner cannot reduce it.
  std::optional<llvm::ArrayRef<clang::dependency_directives_scan::Directive>> of(clang::FileManager &files,
                                                                                  clang::FileEntryRef file);

private:
  struct Scan;
  std::map<llvm::sys::fs::UniqueID, std::unique_ptr<Scan>> scans_;
};

/// Gives the preprocessor each file's directives but `mainFile`'s.
class HeaderDirectives : public clang::DependencyDirectivesGetter {
public:
  HeaderDirectives(ScannedHeaders &scans, clang::FileManager &files, llvm::sys::fs::UniqueID mainFile)
      : scans_(scans), files_(files), main_(mainFile) {}
  std::unique_ptr<clang::DependencyDirectivesGetter> cloneFor(clang::FileManager &files) override {
    return std::make_unique<HeaderDirectives>(scans_, files, main_);
  }
  std::optional<llvm::ArrayRef<clang::dependency_directives_scan::Directive>>
  operator()(clang::FileEntryRef file) override {
    if (file.getUniqueID() == main_) return std::nullopt;
    return scans_.of(files_, file);
  }

private:
  ScannedHeaders &scans_;
  clang::FileManager &files_;
  llvm::sys::fs::UniqueID main_;
};

} // namespace archscope::cuda
