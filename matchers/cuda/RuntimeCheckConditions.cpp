//===--- RuntimeCheckConditions.cpp - clang Expr -> Condition -------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Walks the expression clang built, whether typed, dependent (template code)
// or recovered (headers missing): a call to an undeclared `getSMVersion` is a
// RecoveryExpr whose first child names the callee; a name clang could not
// resolve at all keeps only its text, which the token reader takes over.
// Locals are followed through their initializers (`int sm = getSMVersion();`,
// `bool ok = major >= 10;`) and one-line helpers through their return
// (`int getSM() const { return sm_; }`), a few levels deep.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/RuntimeCheckConditions.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

namespace archscope::cuda::detail {
namespace {

using namespace clang;

constexpr int kMaxFollowed = 6;  ///< initializers and helpers followed in a row
constexpr int kMaxNesting = 256; ///< sub-expressions, against a stack overflow

const Expr *strip(const Expr *e) { return e ? e->IgnoreParenCasts() : nullptr; }

/// A name says "SM" only for something that can hold one: not the array
/// `cc[8]` of a sampling kernel, nor a float. Types clang could not settle
/// (templates, missing headers) are given the benefit of the doubt.
bool mayHoldInteger(QualType t) {
  return t.isNull() || t->isIntegralOrEnumerationType() || t->isDependentType() || t->isUndeducedType();
}

SmTerm byName(std::string_view name, QualType type) {
  return mayHoldInteger(type) ? classifyVariableName(name) : SmTerm::none();
}

/// RAII bound on how deep definitions are followed.
struct Deeper {
  Deeper(int &d, int max) : depth(d), max(max) { ++depth; }
  ~Deeper() { --depth; }
  bool tooDeep() const { return depth > max; }
  int &depth;
  int max;
};

std::string nameOfCallee(const Expr *callee) {
  callee = strip(callee);
  if (auto *ule = dyn_cast_or_null<UnresolvedLookupExpr>(callee)) return ule->getName().getAsString();
  if (auto *dre = dyn_cast_or_null<DeclRefExpr>(callee))
    return isa<FunctionDecl>(dre->getDecl()) ? dre->getNameInfo().getAsString() : "";
  if (auto *me = dyn_cast_or_null<MemberExpr>(callee))
    return isa<CXXMethodDecl>(me->getMemberDecl()) ? me->getMemberNameInfo().getAsString() : "";
  if (auto *dme = dyn_cast_or_null<CXXDependentScopeMemberExpr>(callee)) return dme->getMember().getAsString();
  if (auto *ume = dyn_cast_or_null<UnresolvedMemberExpr>(callee)) return ume->getMemberName().getAsString();
  return "";
}

/// The single `return X;` of a helper with no parameters, if that is its body.
const Expr *oneLineReturn(const Expr *call) {
  auto *ce = dyn_cast<CallExpr>(call);
  const FunctionDecl *fn = ce ? ce->getDirectCallee() : nullptr;
  if (!fn || fn->getNumParams() != 0 || !fn->hasBody()) return nullptr;
  auto *body = dyn_cast_or_null<CompoundStmt>(fn->getBody());
  if (!body || body->size() != 1) return nullptr;
  auto *ret = dyn_cast<ReturnStmt>(body->body_front());
  return ret ? ret->getRetValue() : nullptr;
}

/// Argument `i` of a call clang built or recovered (a recovered call keeps
/// the callee as its first sub-expression).
const Expr *argOf(const Expr *call, unsigned i) {
  if (auto *ce = dyn_cast<CallExpr>(call)) return i < ce->getNumArgs() ? ce->getArg(i) : nullptr;
  if (auto *re = dyn_cast<RecoveryExpr>(call)) return i + 1 < re->subExpressions().size() ? re->subExpressions()[i + 1] : nullptr;
  return nullptr;
}

} // namespace

std::string sourceText(SourceRange r, const SourceManager &sm, const LangOptions &lo) {
  CharSourceRange cr = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r), sm, lo);
  if (cr.isInvalid()) { // inside one macro body: its spelling there (`ppb == 4`), else the invocation
    SourceLocation b = sm.getSpellingLoc(r.getBegin()), e = sm.getSpellingLoc(r.getEnd());
    bool oneBody = sm.getFileID(b) == sm.getFileID(e) && !sm.isBeforeInTranslationUnit(e, b);
    cr = oneBody ? CharSourceRange::getTokenRange(b, e) : sm.getExpansionRange(r);
  }
  bool invalid = false;
  auto text = Lexer::getSourceText(cr, sm, lo, &invalid);
  return invalid ? "" : text.str();
}

std::string calleeName(const Expr *e) {
  e = strip(e);
  if (auto *ce = dyn_cast_or_null<CallExpr>(e)) {
    if (auto *fn = ce->getDirectCallee(); fn && fn->getIdentifier()) return fn->getName().str();
    return nameOfCallee(ce->getCallee());
  }
  if (auto *re = dyn_cast_or_null<RecoveryExpr>(e))
    if (!re->subExpressions().empty()) return nameOfCallee(re->subExpressions().front());
  return "";
}

std::string ExprTranslator::text(const Expr *e) const {
  return sourceText(e->getSourceRange(), ctx_.getSourceManager(), ctx_.getLangOpts());
}

Translated ExprTranslator::condition(const Expr *e) {
  Deeper guard(nesting_, kMaxNesting);
  e = strip(e);
  if (!e) return leaf("", false);
  if (guard.tooDeep()) return leaf(text(e), false);
  if (auto *bo = dyn_cast<BinaryOperator>(e)) {
    if (bo->getOpcode() == BO_Comma) return condition(bo->getRHS());
    return binaryCondition(e, bo->getOpcodeStr(), bo->getLHS(), bo->getRHS());
  }
  if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getNumArgs() == 2)
    return binaryCondition(e, getOperatorSpelling(oc->getOperator()), oc->getArg(0), oc->getArg(1));
  if (auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_LNot) return negation(condition(uo->getSubExpr()));
  if (auto *b = dyn_cast<CXXBoolLiteralExpr>(e)) return {b->getValue() ? Condition::truth() : Condition::falsity(), false};
  if (isa<StringLiteral>(e)) return {Condition::truth(), false}; // `assert(major >= 9 && "needs Hopper")`
  if (auto *co = dyn_cast<ConditionalOperator>(e)) {
    Translated c = condition(co->getCond());
    return either(both(c, condition(co->getTrueExpr())), both(negation(c), condition(co->getFalseExpr())));
  }
  if (auto *re = dyn_cast<RecoveryExpr>(e); re && calleeName(re).empty())
    return parseConditionText(text(e), facts_.byName);
  std::string callee = calleeName(e);
  if (callee == "__builtin_expect" || callee == "__builtin_expect_with_probability") return condition(argOf(e, 0));
  if (auto *dre = dyn_cast<DeclRefExpr>(e)) {
    auto *vd = dyn_cast<VarDecl>(dre->getDecl());
    Deeper follow(followed_, kMaxFollowed);
    if (vd && !vd->getType().isNull() && vd->getType()->isBooleanType() && vd->getInit() && !isa<ParmVarDecl>(vd) && !follow.tooDeep()) {
      Translated init = condition(vd->getInit());
      if (init.readsSm) return init;
    }
  }
  if (const Expr *ret = oneLineReturn(e); ret && !e->getType().isNull() && e->getType()->isBooleanType()) {
    Deeper follow(followed_, kMaxFollowed);
    Translated body = follow.tooDeep() ? Translated{} : condition(ret);
    if (body.readsSm) return body;
  }
  return truthOf(value(e), text(e));
}

Translated ExprTranslator::binaryCondition(const Expr *e, std::string_view op, const Expr *l, const Expr *r) {
  if (op == "&&") return both(condition(l), condition(r));
  if (op == "||") return either(condition(l), condition(r));
  if (auto cmp = cmpOpOf(op)) return compareTerms(value(l), *cmp, value(r), text(e));
  return truthOf(value(e), text(e));
}

SmTerm ExprTranslator::value(const Expr *e) {
  Deeper guard(nesting_, kMaxNesting);
  e = strip(e);
  // Error recovery leaves some expressions without a type (headers missing).
  if (!e || guard.tooDeep() || e->getType().isNull()) return SmTerm::none();
  if (!e->isValueDependent() && !e->containsErrors() && e->getType()->isIntegralOrEnumerationType()) {
    Expr::EvalResult result;
    if (e->EvaluateAsInt(result, ctx_)) return SmTerm::constant(result.Val.getInt().getExtValue());
  }
  if (auto *lit = dyn_cast<IntegerLiteral>(e)) return SmTerm::constant(long(lit->getValue().getZExtValue()));
  if (auto *bo = dyn_cast<BinaryOperator>(e); bo && (bo->isMultiplicativeOp() || bo->isAdditiveOp()))
    return arithmetic(bo->getOpcodeStr()[0], value(bo->getLHS()), value(bo->getRHS()));
  if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getNumArgs() == 2) {
    std::string_view op = getOperatorSpelling(oc->getOperator());
    if (op.size() == 1 && std::string_view("+-*/%").find(op[0]) != std::string_view::npos)
      return arithmetic(op[0], value(oc->getArg(0)), value(oc->getArg(1)));
  }
  if (isa<DeclRefExpr>(e)) return valueOfDecl(e);
  if (auto *me = dyn_cast<MemberExpr>(e)) return byName(me->getMemberNameInfo().getAsString(), me->getType());
  if (auto *dme = dyn_cast<CXXDependentScopeMemberExpr>(e)) return classifyVariableName(dme->getMember().getAsString());
  if (!calleeName(e).empty()) return valueOfCall(e);
  if (isa<RecoveryExpr>(e)) return parseValueText(text(e), facts_.byName);
  return valueOfChildren(e);
}

SmTerm ExprTranslator::valueOfDecl(const Expr *ref) {
  const ValueDecl *d = cast<DeclRefExpr>(ref)->getDecl();
  if (auto *vd = dyn_cast<VarDecl>(d)) {
    if (auto it = facts_.attributeOutputs.find(vd); it != facts_.attributeOutputs.end()) return it->second;
    Deeper follow(followed_, kMaxFollowed);
    if (const Expr *init = vd->getInit(); init && !isa<ParmVarDecl>(vd) && !follow.tooDeep()) {
      SmTerm v = value(init);
      if (v.readsSm()) return v; // `int sm = getSMVersion();`
      // `int major = 0;` (set later through `&major`) and `int sm = query(dev);`
      // keep their name; `unsigned sm = lane + i * 32;` is an index, not an SM.
      const Expr *bare = strip(init);
      bool keepsName = v.isConstant() || isa<CallExpr>(bare) || isa<RecoveryExpr>(bare) || isa<InitListExpr>(bare);
      if (!keepsName) return SmTerm::none();
    }
    if (!vd->getIdentifier()) return SmTerm::none(); // `auto [a, b] = ...` binds no name
    if (auto fact = facts_.byName.find(vd->getName()); fact != facts_.byName.end()) return fact->second.term;
  }
  if (!d->getIdentifier()) return SmTerm::none();
  return byName(d->getName(), d->getType());
}

SmTerm ExprTranslator::valueOfCall(const Expr *call) {
  SmTerm byName = classifyCallName(calleeName(call));
  if (byName.kind != SmTerm::Kind::None) return byName;
  if (const Expr *ret = oneLineReturn(call)) {
    Deeper follow(followed_, kMaxFollowed);
    SmTerm body = follow.tooDeep() ? SmTerm::none() : value(ret);
    if (body.readsSm()) return body;
  }
  return valueOfChildren(call);
}

/// An expression this reader has no rule for: it reads the SM, untranslated,
/// when any operand does (`std::min(sm, 100)`), and is not about it otherwise.
/// An address is no read: `cudaDeviceGetAttribute(&major, ...)` returns a status.
SmTerm ExprTranslator::valueOfChildren(const Expr *e) {
  if (auto *uo = dyn_cast<UnaryOperator>(e); uo && uo->getOpcode() == UO_AddrOf) return SmTerm::none();
  bool first = true;
  bool hasCallee = isa<CallExpr>(e) || (isa<RecoveryExpr>(e) && !calleeName(e).empty());
  for (const Stmt *child : e->children()) {
    bool callee = first && hasCallee;
    first = false;
    auto *ce = dyn_cast_or_null<Expr>(child);
    if (!ce || callee) continue;
    if (value(ce).firmlyReadsSm()) return SmTerm::opaque();
  }
  return SmTerm::none();
}

} // namespace archscope::cuda::detail
