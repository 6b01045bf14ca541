//===--- RuntimeCheckStubs.cpp - declarations a missing header would make -===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/RuntimeCheckStubs.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/Lookup.h>
#include <clang/Sema/Sema.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace archscope::cuda::detail {
namespace {

using namespace clang;

enum class Shape { None, Scope /*X::*/, Template /*X<*/, Type /*X name*/ };

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// What the text right after a name says the name is. `keyword(word)`
/// tells a type-like follower (`X const&`, `X name`) from a macro in front
/// of a declaration (`FLASHINFER_INLINE void f()`), which stays undeclared.
template <typename IsKeyword> Shape shapeAfter(llvm::StringRef text, size_t at, IsKeyword keyword) {
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
  if (at >= text.size()) return Shape::None;
  llvm::StringRef rest = text.substr(at);
  if (rest.starts_with("::")) return Shape::Scope;
  if (rest.starts_with("<<") || rest.starts_with("<=")) return Shape::None;
  if (rest.starts_with("<")) return Shape::Template;
  if (rest.starts_with("&") || rest.starts_with("*")) return Shape::Type;
  if (!identStart(rest[0])) return Shape::None;
  size_t end = 0;
  while (end < rest.size() && identChar(rest[end])) ++end;
  llvm::StringRef word = rest.substr(0, end);
  return word == "const" || word == "volatile" || !keyword(word) ? Shape::Type : Shape::None;
}

class MissingDeclarations : public ExternalSemaSource {
public:
  MissingDeclarations(const SourceManager &sm, llvm::StringRef text) : sm_(sm), text_(text) {}

  void InitializeSema(Sema &s) override {
    sema_ = &s;
    if (s.getExternalSource() != this) s.addExternalSource(this); // unqualified lookups
    indexQualifiedNames();
  }
  void ForgetSema() override { sema_ = nullptr; }

  bool LookupUnqualified(LookupResult &r, Scope *) override {
    IdentifierInfo *id = r.getLookupName().getAsIdentifierInfo();
    if (!sema_ || !id || r.isForRedeclaration() || !sm_.isWrittenInMainFile(sm_.getExpansionLoc(r.getNameLoc())))
      return false;
    if (auto it = declared_.find(id); it != declared_.end()) return found(r, it->second);
    Shape shape = shapeAtLocation(r.getNameLoc(), id->getLength());
    if (r.getLookupKind() == Sema::LookupNamespaceName) shape = Shape::Scope;
    if (shape == Shape::None) return false;
    NamedDecl *d = declare(sema_->Context.getTranslationUnitDecl(), id, shape);
    sema_->Context.getTranslationUnitDecl()->addDecl(d);
    declared_[id] = d;
    return found(r, d);
  }

  bool FindExternalVisibleDeclsByName(const DeclContext *dc, DeclarationName name, const DeclContext *) override {
    IdentifierInfo *id = name.getAsIdentifierInfo();
    if (!sema_ || !id || !ours_.count(dc)) return false;
    auto it = qualified_.find(cast<NamedDecl>(dc)->getQualifiedNameAsString() + "::" + id->getName().str());
    if (it == qualified_.end()) return false;
    NamedDecl *d = declare(const_cast<DeclContext *>(dc), id, it->second);
    const_cast<DeclContext *>(dc)->addHiddenDecl(d); // visible through the line below, no re-entry
    SetExternalVisibleDeclsForName(dc, name, {d});
    return true;
  }

private:
  static bool found(LookupResult &r, NamedDecl *d) {
    r.addDecl(d);
    r.resolveKind();
    return true;
  }

  bool isKeyword(llvm::StringRef word) const {
    return sema_->getPreprocessor().getIdentifierInfo(word)->isKeyword(sema_->getLangOpts());
  }

  Shape shapeAtLocation(SourceLocation loc, unsigned length) const {
    SourceLocation spelled = sm_.getSpellingLoc(loc);
    bool invalid = false;
    llvm::StringRef buffer = sm_.getBufferData(sm_.getFileID(spelled), &invalid);
    if (invalid) return Shape::None;
    return shapeAfter(buffer, sm_.getFileOffset(spelled) + length, [&](llvm::StringRef w) { return isKeyword(w); });
  }

  /// Every `a::b::c` of the main file: `a::b` is a scope, `c` takes the
  /// shape of what follows it; `using a::b;` declares a type, `using namespace a::b;` a scope.
  void indexQualifiedNames() {
    auto keyword = [&](llvm::StringRef w) { return isKeyword(w); };
    llvm::StringRef previousWord;
    for (size_t i = 0; i < text_.size();) {
      if (!identStart(text_[i]) || (i > 0 && identChar(text_[i - 1]))) { ++i; continue; }
      std::string chain;
      size_t end = i;
      llvm::StringRef first;
      int parts = 0;
      for (;;) {
        size_t s = end;
        while (end < text_.size() && identChar(text_[end])) ++end;
        if (parts++ == 0) first = text_.slice(s, end);
        chain += text_.slice(s, end).str();
        if (!text_.substr(end).starts_with("::") || end + 2 >= text_.size() || !identStart(text_[end + 2])) break;
        merge(chain, Shape::Scope);
        chain += "::";
        end += 2;
      }
      if (parts > 1) {
        Shape last = previousWord == "namespace" ? Shape::Scope
                     : previousWord == "using"   ? Shape::Type
                                                 : shapeAfter(text_, end, keyword);
        merge(chain, last);
      }
      previousWord = parts == 1 ? first : llvm::StringRef();
      i = end;
    }
  }

  /// A name written both ways keeps the shape that serves both: a struct
  /// is a scope and a type, a template is used as either with arguments.
  void merge(const std::string &name, Shape shape) {
    Shape &known = qualified_[name];
    known = std::max(known, shape);
  }

  NamedDecl *declare(DeclContext *dc, IdentifierInfo *id, Shape shape) {
    ASTContext &ctx = sema_->Context;
    SourceLocation none;
    if (shape == Shape::Scope) {
      auto *ns = NamespaceDecl::Create(ctx, dc, false, none, none, id, nullptr, false);
      ns->setHasExternalVisibleStorage(true);
      ours_.insert(ns);
      return ns;
    }
    auto *record = CXXRecordDecl::Create(ctx, TagTypeKind::Struct, dc, none, none, id);
    if (shape == Shape::Type) {
      record->startDefinition();
      record->completeDefinition();
      record->setHasExternalVisibleStorage(true); // `X::member` asks here too
      ours_.insert(record);
      return record;
    }
    // template <typename...> struct X {};
    auto *param = TemplateTypeParmDecl::Create(ctx, dc, none, none, 0, 0, nullptr, true, true);
    auto *params = TemplateParameterList::Create(ctx, none, none, {param}, none, nullptr);
    auto *tpl = ClassTemplateDecl::Create(ctx, dc, none, DeclarationName(id), params, record);
    record->setDescribedClassTemplate(tpl);
    record->startDefinition();
    record->completeDefinition();
    return tpl;
  }

  const SourceManager &sm_;
  llvm::StringRef text_;
  Sema *sema_ = nullptr;
  std::map<std::string, Shape> qualified_;
  std::map<const IdentifierInfo *, NamedDecl *> declared_;
  std::set<const DeclContext *> ours_;
};

} // namespace

llvm::IntrusiveRefCntPtr<ExternalSemaSource> makeMissingDeclarations(const SourceManager &sm, llvm::StringRef mainFileText) {
  return llvm::makeIntrusiveRefCnt<MissingDeclarations>(sm, mainFileText);
}

} // namespace archscope::cuda::detail
