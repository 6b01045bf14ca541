//===--- RuntimeCheckBuilder.h - matched statements -> RuntimeChecks -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime-check extractor. The AST matchers only collect
// candidate statements; this builder decides, once the whole file is
// matched, which of them test the SM and what each arm requires. It runs
// after matching so that the local facts (capability attribute queries,
// declarations clang dropped) are known before any condition is read.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/cuda/RuntimeCheckConditions.h"
#include "matchers/cuda/RuntimeChecks.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Stmt.h>

namespace archscope::cuda::detail {

/// What the matchers found in the main file, in traversal order.
struct MatchedNodes {
  std::vector<const clang::IfStmt *> ifs;
  std::vector<const clang::SwitchStmt *> switches;
  std::vector<const clang::Expr *> checkCalls; ///< TORCH_CHECK(...), ICHECK_EQ(...), ...
  std::vector<const clang::ConditionalOperator *> ternaries;
  std::vector<const clang::ReturnStmt *> boolReturns;
  std::vector<const clang::Expr *> attributeQueries; ///< cudaDeviceGetAttribute(...)
  std::vector<const clang::VarDecl *> localDecls;
};

/// How a check macro takes its condition, from its name alone.
enum class CheckShape { None, Condition /*NAME(cond, ...)*/, Compare /*NAME_EQ(a, b)*/ };
CheckShape checkShapeOf(std::string_view name, CmpOp *op = nullptr);

class CheckBuilder {
public:
  CheckBuilder(clang::ASTContext &ctx, std::string path) : ctx_(ctx), path_(std::move(path)), tr_(ctx, facts_) {}
  /// Appends the checks of `nodes` to `out`, sorted by position.
  void build(const MatchedNodes &nodes, std::vector<RuntimeCheck> &out);

private:
  void learnFacts(const MatchedNodes &nodes);
  void ifChain(const clang::IfStmt *head);
  void switchArms(const clang::SwitchStmt *sw);
  void checkCall(const clang::Expr *call);
  void ternary(const clang::ConditionalOperator *co);
  void filter(const clang::ReturnStmt *ret);
  /// An arm entered under `enter`: an Assert (!enter) when its body leaves
  /// the function with an error, a `branchKind` check otherwise.
  void arm(clang::SourceLocation loc, const Translated &enter, const std::string &text, const clang::Stmt *body,
           const clang::Stmt *anchor, RuntimeCheck::Kind branchKind);
  void emit(RuntimeCheck::Kind kind, clang::SourceLocation loc, const Translated &t, std::string text,
            const clang::Stmt *anchor);
  /// A check macro's argument: the expression clang kept for it, or only
  /// its text when clang dropped it (undeclared names inside).
  struct Argument {
    const clang::Expr *expr = nullptr;
    std::string text;
  };
  std::vector<Argument> arguments(const clang::Expr *call) const;
  Translated conditionOf(const Argument &a);
  SmTerm valueOf(const Argument &a);
  bool exits(const clang::Stmt *s) const;
  const clang::FunctionDecl *enclosingFunction(const clang::Stmt *s) const;
  /// The condition text of the nearest `if`/`switch` around `s` (inside its
  /// function) that does not read the SM; "" if there is none.
  std::string configurationGuard(const clang::Stmt *s);
  /// `__global__`, or `__device__` without `__host__`: not host dispatch.
  static bool isDeviceOnly(const clang::FunctionDecl *fn);
  std::string text(const clang::Expr *e) const { return tr_.text(e); }

  clang::ASTContext &ctx_;
  std::string path_;
  LocalFacts facts_;
  ExprTranslator tr_;
  std::vector<RuntimeCheck> *out_ = nullptr;
};

} // namespace archscope::cuda::detail
