//===--- TargetMacroWatcher.cpp - does a pass ever ask which target it is? -===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/TargetMacroWatcher.h"

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/MacroInfo.h>

#include <cctype>

namespace archscope::cuda {

TargetMacroWatcher::TargetMacroWatcher(const clang::SourceManager &sm, const std::vector<std::string> &archMacros,
                                       bool &readsTarget)
    : sm_(sm), archMacros_(archMacros.begin(), archMacros.end()), readsTarget_(readsTarget) {}

bool TargetMacroWatcher::namesTarget(llvm::StringRef name) const {
  if (name.starts_with("__")) {
    if (name.starts_with("__CUDA_ARCH")) return true; // __CUDA_ARCH__, _FEAT_SM*_ALL, _SPECIFIC__, _LIST__
    // Feature tests answer per target (__has_builtin(__nvvm_redux_sync_add)
    // holds from sm_80 on); file tests do not.
    if (name.starts_with("__is_target")) return true;
    if (name.starts_with("__has_")) return !name.starts_with("__has_include") && name != "__has_embed";
  }
  return archMacros_.count(name) || derived_.count(name);
}

void TargetMacroWatcher::MacroDefined(const clang::Token &name, const clang::MacroDirective *md) {
  const clang::MacroInfo *info = md ? md->getMacroInfo() : nullptr;
  if (!info) return;
  for (const clang::Token &t : info->tokens())
    if (const clang::IdentifierInfo *id = t.getIdentifierInfo(); id && namesTarget(id->getName())) {
      derived_.insert(name.getIdentifierInfo()->getName().str());
      return;
    }
}

void TargetMacroWatcher::read(const clang::Token &name) {
  if (const clang::IdentifierInfo *id = name.getIdentifierInfo(); id && namesTarget(id->getName()))
    readsTarget_ = true;
}

/// A condition's identifiers, also those no callback reports: an undefined
/// name reads as 0 without an expansion (`__CUDA_ARCH_FEAT_SM100_ALL` on sm_90).
void TargetMacroWatcher::readText(clang::SourceRange range) {
  if (readsTarget_ || range.isInvalid()) return;
  bool invalid = false;
  llvm::StringRef text = clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(range), sm_,
                                                     clang::LangOptions(), &invalid);
  if (invalid) {
    readsTarget_ = true; // unread: assume it asks
    return;
  }
  for (size_t i = 0; i < text.size();) {
    if (!std::isalpha(static_cast<unsigned char>(text[i])) && text[i] != '_') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
    if (namesTarget(text.slice(i, end))) {
      readsTarget_ = true;
      return;
    }
    i = end;
  }
}

void TargetMacroWatcher::MacroExpands(const clang::Token &name, const clang::MacroDefinition &, clang::SourceRange,
                                      const clang::MacroArgs *) {
  read(name);
}
void TargetMacroWatcher::Defined(const clang::Token &name, const clang::MacroDefinition &, clang::SourceRange) {
  read(name);
}
void TargetMacroWatcher::If(clang::SourceLocation, clang::SourceRange cond, ConditionValueKind) { readText(cond); }
void TargetMacroWatcher::Elif(clang::SourceLocation, clang::SourceRange cond, ConditionValueKind,
                              clang::SourceLocation) {
  readText(cond);
}
void TargetMacroWatcher::Ifdef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) {
  read(name);
}
void TargetMacroWatcher::Ifndef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) {
  read(name);
}
void TargetMacroWatcher::Elifdef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) {
  read(name);
}
void TargetMacroWatcher::Elifdef(clang::SourceLocation, clang::SourceRange cond, clang::SourceLocation) {
  readText(cond);
}
void TargetMacroWatcher::Elifndef(clang::SourceLocation, const clang::Token &name, const clang::MacroDefinition &) {
  read(name);
}
void TargetMacroWatcher::Elifndef(clang::SourceLocation, clang::SourceRange cond, clang::SourceLocation) {
  readText(cond);
}

} // namespace archscope::cuda
