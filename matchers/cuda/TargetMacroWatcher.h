//===--- TargetMacroWatcher.h - does a pass ever ask which target it is? ---===//
// SPDX-License-Identifier: Apache-2.0
//
// The passes of one file differ only in the macros that name the target
// (__CUDA_ARCH__, __CUDA_ARCH_FEAT_SM100_ALL, SPECIFIC/FAMILY, __CUDA_ARCH_LIST__,
// an engine's SGL_CUDA_ARCH) and in what __has_builtin answers. A pass that
// never reads one of them takes the same path on every target, so the other
// targets' passes would only repeat it: most of an engine's host-side and
// arch-agnostic files. The watcher says whether the pass read one, directly
// or through a macro whose body names one (`#define HAS_SM100
// __CUDA_ARCH_FEAT_SM100_ALL`), in a condition, an expansion, `defined` or
// `#ifdef` — also when the name is undefined on this target, which no
// expansion callback reports.
//===----------------------------------------------------------------------===//
#pragma once

#include <clang/Lex/PPCallbacks.h>

#include <set>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace archscope::cuda {

class TargetMacroWatcher : public clang::PPCallbacks {
public:
  /// `archMacros`: the engine's macros defined per target (GuardPassOptions).
  TargetMacroWatcher(const clang::SourceManager &sm, const std::vector<std::string> &archMacros, bool &readsTarget);

  void MacroDefined(const clang::Token &name, const clang::MacroDirective *md) override;
  void MacroExpands(const clang::Token &name, const clang::MacroDefinition &, clang::SourceRange,
                    const clang::MacroArgs *) override;
  void Defined(const clang::Token &name, const clang::MacroDefinition &, clang::SourceRange) override;
  void If(clang::SourceLocation, clang::SourceRange cond, ConditionValueKind) override;
  void Elif(clang::SourceLocation, clang::SourceRange cond, ConditionValueKind, clang::SourceLocation) override;
  void Ifdef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) override;
  void Ifndef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) override;
  void Elifdef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) override;
  void Elifdef(clang::SourceLocation, clang::SourceRange cond, clang::SourceLocation) override;
  void Elifndef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) override;
  void Elifndef(clang::SourceLocation, clang::SourceRange cond, clang::SourceLocation) override;

  /// A name whose value depends on the target: its own, or a macro built on one.
  bool namesTarget(llvm::StringRef name) const;

private:
  void read(const clang::Token &name);
  void readText(clang::SourceRange range);

  const clang::SourceManager &sm_;
  std::set<std::string, std::less<>> archMacros_;
  std::set<std::string, std::less<>> derived_; ///< macros whose body names the target
  bool &readsTarget_;
};

} // namespace archscope::cuda
