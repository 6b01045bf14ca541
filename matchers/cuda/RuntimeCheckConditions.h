//===--- RuntimeCheckConditions.h - C++ expressions as SM conditions -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Internal to the runtime-check extractor. Vocabulary:
//   SmTerm      what an integer expression is worth as a device capability:
//               not about the SM, a Linear over (major, minor), or reading the
//               SM in a way that cannot be translated (`sm / 100`).
//   Translated  a boolean expression as a Condition, plus whether it reads
//               the SM at all (only those become checks).
// In C++ runtime code an SM value is major * 10 + minor (getSMVersion() ==
// 120 on CC 12.0), never __CUDA_ARCH__'s major * 100 + minor * 10: host code
// has no __CUDA_ARCH__. A constant outside the plausible range of its scale
// (20..299 for an SM) next to a variable known only by a loose name (`arch`,
// `cc`) means the variable is something else, and no check is made of it.
// Two readers share this algebra: the clang AST, and a small parser over the
// spelled tokens for what clang could not build (a qualified call into an
// undeclared namespace leaves a RecoveryExpr that keeps only its text).
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Condition.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace clang {
class ASTContext;
class Expr;
class SourceManager;
class SourceRange;
class LangOptions;
class VarDecl;
} // namespace clang

namespace archscope::cuda::detail {

struct SmTerm {
  enum class Kind { None, Value, Opaque } kind = Kind::None;
  Linear value;      ///< Value: over CcMajor / CcMinor (CudaMajor / CudaMinor), or a constant
  bool loose = false; ///< known only by a loose name: needs a plausible constant

  static SmTerm none() { return {}; }
  static SmTerm constant(long v) { return {Kind::Value, Linear::constantOf(v), false}; }
  static SmTerm of(Linear l, bool loose = false) { return {Kind::Value, l, loose}; }
  static SmTerm opaque() { return {Kind::Opaque, {}, false}; }
  bool isConstant() const { return kind == Kind::Value && value.isConstant(); }
  /// Reads the device capability (translatable or not); the CUDA toolkit
  /// version alone (`CUDA_VERSION`) is no SM check.
  bool readsSm() const { return kind == Kind::Opaque || (kind == Kind::Value && value.readsCapability()); }
  /// Reads the SM by more than a loose name: a loose `cc` counts only when
  /// compared with a plausible constant, never inside other arithmetic.
  bool firmlyReadsSm() const { return readsSm() && !loose; }
};

struct Translated {
  Condition cond = Condition::truth();
  bool readsSm = false;
};

// --- names -------------------------------------------------------------
/// A variable, parameter or field by its name: `sm_`, `sm_version`, `major`.
SmTerm classifyVariableName(std::string_view name);
/// A call by the callee's name: `getSMVersion`, `get_sm_version_num`.
SmTerm classifyCallName(std::string_view name);
/// Whether an identifier of a file hints at an SM check (the prefilter);
/// loose names count only when a comparison follows (`arch >= 100`, not
/// `arch::` or `Arch = ...`). `after` is the text after it, spaces skipped.
bool identifierHintsSm(std::string_view identifier, std::string_view after);

// --- algebra -------------------------------------------------------------
SmTerm arithmetic(char op, const SmTerm &a, const SmTerm &b);
Translated compareTerms(const SmTerm &l, CmpOp op, const SmTerm &r, const std::string &text);
/// An integer in a boolean context: `if (sm)` is `sm != 0`.
Translated truthOf(const SmTerm &t, const std::string &text);
/// Not translated: unknown when it reads the SM, a configuration atom otherwise.
Translated leaf(const std::string &text, bool readsSm);
Translated both(const Translated &a, const Translated &b);
Translated either(const Translated &a, const Translated &b);
Translated negation(const Translated &a);
std::optional<CmpOp> cmpOpOf(std::string_view spelling);

// --- the token reader ------------------------------------------------------
/// A local whose declaration clang dropped, known from its initializer text.
struct NameFact {
  SmTerm term;
  std::optional<Translated> cond; ///< a bool local: `bool ok = major == 12;`
};
using NameFacts = std::map<std::string, NameFact, std::less<>>;
Translated parseConditionText(std::string_view text, const NameFacts &facts);
SmTerm parseValueText(std::string_view text, const NameFacts &facts);
/// The initializer of a dropped declaration: an SM value or a condition.
NameFact parseInitializerText(std::string_view text, const NameFacts &facts);

// --- the AST reader --------------------------------------------------------
/// What the file says about its locals beyond their initializers.
struct LocalFacts {
  /// `cudaDeviceGetAttribute(&x, cudaDevAttrComputeCapabilityMajor, dev)`
  std::map<const clang::VarDecl *, SmTerm> attributeOutputs;
  NameFacts byName; ///< declarations clang dropped, from their text
};

class ExprTranslator {
public:
  ExprTranslator(clang::ASTContext &ctx, const LocalFacts &facts) : ctx_(ctx), facts_(facts) {}
  Translated condition(const clang::Expr *e);
  SmTerm value(const clang::Expr *e);
  std::string text(const clang::Expr *e) const;

private:
  Translated binaryCondition(const clang::Expr *e, std::string_view op, const clang::Expr *l,
                             const clang::Expr *r);
  SmTerm valueOfDecl(const clang::Expr *ref);
  SmTerm valueOfCall(const clang::Expr *call);
  SmTerm valueOfChildren(const clang::Expr *e);
  clang::ASTContext &ctx_;
  const LocalFacts &facts_;
  int followed_ = 0; ///< initializers and one-line helpers being followed (also ends cycles)
  int nesting_ = 0;  ///< sub-expressions being read
};

/// The spelled text of `r` in the main file: a macro argument keeps its own
/// spelling, anything else built by a macro shows the whole invocation.
std::string sourceText(clang::SourceRange r, const clang::SourceManager &sm, const clang::LangOptions &lo);
/// The callee name of a call clang built or recovered (`TORCH_CHECK`,
/// `getSMVersion`, `this->getSM`); empty when it is not a call.
std::string calleeName(const clang::Expr *e);

} // namespace archscope::cuda::detail
