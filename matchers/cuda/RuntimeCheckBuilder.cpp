//===--- RuntimeCheckBuilder.cpp - matched statements -> RuntimeChecks ---===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/RuntimeCheckBuilder.h"

#include <clang/AST/Attr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace archscope::cuda::detail {
namespace {

using namespace clang;

std::string trimmed(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string_view::npos ? "" : std::string(s.substr(b, e - b + 1));
}

std::string oneLine(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') { space = !out.empty(); continue; }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// The source line around `loc`, trimmed: the evidence snippet.
std::string lineAt(const SourceManager &sm, SourceLocation loc) {
  bool invalid = false;
  llvm::StringRef buffer = sm.getBufferData(sm.getFileID(loc), &invalid);
  if (invalid) return "";
  size_t offset = sm.getFileOffset(loc);
  size_t begin = buffer.rfind('\n', offset);
  begin = begin == llvm::StringRef::npos ? 0 : begin + 1;
  size_t end = buffer.find('\n', offset);
  return trimmed(buffer.substr(begin, end == llvm::StringRef::npos ? llvm::StringRef::npos : end - begin));
}

std::vector<const Expr *> callArguments(const Expr *call) {
  std::vector<const Expr *> out;
  if (auto *ce = dyn_cast<CallExpr>(call))
    for (const Expr *a : ce->arguments()) out.push_back(a);
  if (auto *re = dyn_cast<RecoveryExpr>(call))
    for (size_t i = 1; i < re->subExpressions().size(); ++i) out.push_back(re->subExpressions()[i]);
  return out;
}

/// [begin, end) of each top-level argument of the call spelled in `text`.
std::vector<std::pair<size_t, size_t>> splitArguments(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t open = text.find('(');
  if (open == std::string_view::npos) return out;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i) i += text[i] == '\\';
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if ((c == ',' && depth == 1) || depth == 0) {
      out.emplace_back(start, i);
      start = i + 1;
    }
    if (depth == 0) break;
  }
  return out;
}

} // namespace

/// `assert`, or an upper-case macro ending in CHECK / ASSERT (TORCH_CHECK,
/// TVM_FFI_ICHECK, TLLM_CHECK_WITH_INFO, TORCH_INTERNAL_ASSERT), or one of
/// the comparing forms NAME_CHECK_EQ / _NE / _LT / _LE / _GT / _GE.
CheckShape checkShapeOf(std::string_view name, CmpOp *op) {
  if (name == "assert") return CheckShape::Condition;
  bool macroLike = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
  if (!macroLike) return CheckShape::None;
  auto endsWith = [&](std::string_view s) { return name.size() >= s.size() && name.substr(name.size() - s.size()) == s; };
  static constexpr std::pair<std::string_view, std::string_view> kCompare[] = {
      {"CHECK_EQ", "=="}, {"CHECK_NE", "!="}, {"CHECK_LT", "<"}, {"CHECK_LE", "<="}, {"CHECK_GT", ">"}, {"CHECK_GE", ">="}};
  for (auto [suffix, spelling] : kCompare)
    if (endsWith(suffix)) {
      if (op) *op = *cmpOpOf(spelling);
      return CheckShape::Compare;
    }
  for (std::string_view suffix : {"CHECK", "ASSERT", "CHECK_WITH_INFO", "CHECK_MSG", "CHECK_NOT_IMPLEMENTED"})
    if (endsWith(suffix)) return CheckShape::Condition;
  return CheckShape::None;
}

void CheckBuilder::build(const MatchedNodes &nodes, std::vector<RuntimeCheck> &out) {
  out_ = &out;
  learnFacts(nodes);
  // An else-if is read as part of the chain that owns it.
  std::set<const Stmt *> elseIfs;
  for (const IfStmt *s : nodes.ifs)
    if (auto *e = dyn_cast_or_null<IfStmt>(s->getElse())) elseIfs.insert(e);
  for (const IfStmt *s : nodes.ifs)
    if (!elseIfs.count(s) && !s->isConstexpr()) ifChain(s);
  for (const SwitchStmt *s : nodes.switches) switchArms(s);
  for (const Expr *c : nodes.checkCalls) checkCall(c);
  for (const ConditionalOperator *c : nodes.ternaries) ternary(c);
  for (const ReturnStmt *r : nodes.boolReturns) filter(r);
  auto key = [](const RuntimeCheck &c) { return std::tuple(c.where.line, c.where.col, int(c.kind), c.text); };
  std::stable_sort(out.begin(), out.end(), [&](const auto &a, const auto &b) { return key(a) < key(b); });
  out.erase(std::unique(out.begin(), out.end(), [&](const auto &a, const auto &b) { return key(a) == key(b); }), out.end());
}

/// Locals the conditions refer to that their initializers do not explain.
void CheckBuilder::learnFacts(const MatchedNodes &nodes) {
  for (const Expr *q : nodes.attributeQueries) {
    std::string t = text(q);
    bool major = t.find("ComputeCapabilityMajor") != std::string::npos;
    bool minor = t.find("ComputeCapabilityMinor") != std::string::npos;
    auto args = callArguments(q);
    auto *addr = args.empty() ? nullptr : dyn_cast<UnaryOperator>(args[0]->IgnoreParenImpCasts());
    auto *ref = addr && addr->getOpcode() == UO_AddrOf ? dyn_cast<DeclRefExpr>(addr->getSubExpr()->IgnoreParenImpCasts()) : nullptr;
    auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (var && (major || minor)) facts_.attributeOutputs[var] = classifyVariableName(major ? "cc_major" : "cc_minor");
  }
  // `auto const sm = tensorrt_llm::common::getSMVersion();` with the header
  // missing: clang drops the declaration, uses of `sm` keep only their text.
  const SourceManager &sm = ctx_.getSourceManager();
  for (const VarDecl *vd : nodes.localDecls) {
    if (!vd->isInvalidDecl() || !vd->getIdentifier()) continue;
    bool invalid = false;
    llvm::StringRef buffer = sm.getBufferData(sm.getFileID(sm.getExpansionLoc(vd->getLocation())), &invalid);
    if (invalid) continue;
    size_t at = sm.getFileOffset(sm.getExpansionLoc(vd->getLocation())) + vd->getName().size();
    size_t eq = buffer.find_first_not_of(" \t\r\n", at);
    if (eq == llvm::StringRef::npos || buffer[eq] != '=') continue;
    size_t end = buffer.find(';', eq);
    NameFact fact = parseInitializerText(buffer.substr(eq + 1, end - eq - 1), facts_.byName);
    if (fact.term.readsSm() || (fact.cond && fact.cond->readsSm)) facts_.byName[vd->getName().str()] = fact;
  }
}

void CheckBuilder::ifChain(const IfStmt *head) {
  Translated earlierFailed; // every earlier arm's condition is false
  for (const IfStmt *s = head; s;) {
    Translated c = tr_.condition(s->getCond());
    arm(s->getIfLoc(), both(earlierFailed, c), text(s->getCond()), s->getThen(), s, RuntimeCheck::Kind::Branch);
    earlierFailed = both(earlierFailed, negation(c));
    const Stmt *rest = s->getElse();
    if (rest && !isa<IfStmt>(rest)) arm(s->getElseLoc(), earlierFailed, "else", rest, rest, RuntimeCheck::Kind::Branch);
    s = dyn_cast_or_null<IfStmt>(rest);
  }
}

void CheckBuilder::switchArms(const SwitchStmt *sw) {
  SmTerm subject = tr_.value(sw->getCond());
  auto *body = dyn_cast_or_null<CompoundStmt>(sw->getBody());
  if (!subject.readsSm() || !body) return;
  std::string subjectText = text(sw->getCond());
  // Labels with the statements up to the next top-level label; nested labels
  // (`case 100: case 103: ...`) share the statements of the last one.
  struct Group { std::vector<const SwitchCase *> labels; std::vector<const Stmt *> stmts; };
  std::vector<Group> groups;
  for (const Stmt *s : body->body()) {
    if (!isa<SwitchCase>(s)) {
      if (!groups.empty()) groups.back().stmts.push_back(s);
      continue;
    }
    groups.emplace_back();
    while (auto *label = dyn_cast_or_null<SwitchCase>(s)) { groups.back().labels.push_back(label); s = label->getSubStmt(); }
    if (s) groups.back().stmts.push_back(s);
  }
  Translated anyCase{Condition::falsity(), false};
  std::map<const SwitchCase *, std::pair<Translated, std::string>> cases;
  for (const Group &g : groups)
    for (const SwitchCase *label : g.labels)
      if (auto *cs = dyn_cast<CaseStmt>(label)) {
        std::string lo = subjectText + (cs->getRHS() ? " >= " : " == ") + text(cs->getLHS());
        Translated t = compareTerms(subject, cs->getRHS() ? CmpOp::Ge : CmpOp::Eq, tr_.value(cs->getLHS()), lo);
        if (cs->getRHS()) { // GNU case range `case 100 ... 109:`
          std::string hi = subjectText + " <= " + text(cs->getRHS());
          t = both(t, compareTerms(subject, CmpOp::Le, tr_.value(cs->getRHS()), hi));
          lo += " && " + hi;
        }
        anyCase = either(anyCase, t);
        cases[label] = {t, lo};
      }
  for (const Group &g : groups) {
    bool leaves = std::any_of(g.stmts.begin(), g.stmts.end(), [&](const Stmt *s) { return exits(s); });
    for (const SwitchCase *label : g.labels) {
      auto it = cases.find(label);
      auto [enter, t] = it != cases.end() ? it->second : std::pair(negation(anyCase), std::string("default"));
      if (leaves) emit(RuntimeCheck::Kind::Assert, label->getKeywordLoc(), negation(enter), t, sw);
      else emit(RuntimeCheck::Kind::Switch, label->getKeywordLoc(), enter, t, sw);
    }
  }
}

void CheckBuilder::checkCall(const Expr *call) {
  CmpOp op = CmpOp::Eq;
  CheckShape shape = checkShapeOf(calleeName(call), &op);
  auto args = arguments(call);
  if (shape == CheckShape::Condition && !args.empty())
    emit(RuntimeCheck::Kind::Assert, call->getBeginLoc(), conditionOf(args[0]), args[0].text, call);
  if (shape == CheckShape::Compare && args.size() >= 2) {
    static const char *spelling[] = {"<", "<=", ">", ">=", "==", "!="};
    std::string t = args[0].text + " " + spelling[int(op)] + " " + args[1].text;
    emit(RuntimeCheck::Kind::Assert, call->getBeginLoc(), compareTerms(valueOf(args[0]), op, valueOf(args[1]), t), t, call);
  }
}

void CheckBuilder::ternary(const ConditionalOperator *co) {
  Translated c = tr_.condition(co->getCond());
  if (exits(co->getFalseExpr())) return emit(RuntimeCheck::Kind::Assert, co->getBeginLoc(), c, text(co->getCond()), co);
  if (exits(co->getTrueExpr())) return emit(RuntimeCheck::Kind::Assert, co->getBeginLoc(), negation(c), text(co->getCond()), co);
  emit(RuntimeCheck::Kind::Branch, co->getBeginLoc(), c, text(co->getCond()), co);
}

void CheckBuilder::filter(const ReturnStmt *ret) {
  if (const Expr *v = ret->getRetValue())
    emit(RuntimeCheck::Kind::Filter, ret->getBeginLoc(), tr_.condition(v), text(v), ret);
}

void CheckBuilder::arm(SourceLocation loc, const Translated &enter, const std::string &t, const Stmt *body,
                       const Stmt *anchor, RuntimeCheck::Kind branchKind) {
  if (exits(body)) emit(RuntimeCheck::Kind::Assert, loc, negation(enter), t, anchor);
  else emit(branchKind, loc, enter, t, anchor);
}

void CheckBuilder::emit(RuntimeCheck::Kind kind, SourceLocation loc, const Translated &t, std::string text,
                        const Stmt *anchor) {
  if (!t.readsSm) return;
  const SourceManager &sm = ctx_.getSourceManager();
  SourceLocation at = sm.getExpansionLoc(loc);
  const FunctionDecl *fn = enclosingFunction(anchor);
  if (fn && isDeviceOnly(fn)) return; // host dispatch only: a kernel's `sm` is an SM index
  RuntimeCheck c;
  c.kind = kind;
  c.function = fn ? fn->getQualifiedNameAsString() : "";
  c.where = {path_, int(sm.getExpansionLineNumber(at)), int(sm.getExpansionColumnNumber(at)), "cpp", lineAt(sm, at), ""};
  c.cond = t.cond;
  c.text = oneLine(text);
  c.guardedBy = configurationGuard(anchor);
  out_->push_back(std::move(c));
}

std::string CheckBuilder::configurationGuard(const Stmt *s) {
  DynTypedNode child = DynTypedNode::create(*s);
  for (DynTypedNodeList parents = ctx_.getParents(*s); !parents.empty(); parents = ctx_.getParents(parents[0])) {
    const DynTypedNode &p = parents[0];
    if (p.get<FunctionDecl>() || p.get<LambdaExpr>()) return "";
    const Expr *cond = nullptr;
    if (auto *is = p.get<IfStmt>(); is && child.get<Stmt>() != is->getCond()) cond = is->getCond();
    if (auto *sw = p.get<SwitchStmt>(); sw && child.get<Stmt>() != sw->getCond()) cond = sw->getCond();
    if (cond && !tr_.condition(cond).readsSm && tr_.value(cond).kind == SmTerm::Kind::None) return oneLine(text(cond));
    child = p;
  }
  return "";
}

std::vector<CheckBuilder::Argument> CheckBuilder::arguments(const Expr *call) const {
  std::vector<Argument> out;
  auto kids = callArguments(call);
  const SourceManager &sm = ctx_.getSourceManager();
  if (call->getBeginLoc().isMacroID()) { // written inside a macro body: no spelling to split
    for (const Expr *k : kids) out.push_back({k, text(k)});
    return out;
  }
  std::string whole = text(call);
  unsigned base = sm.getFileOffset(call->getBeginLoc());
  for (auto [b, e] : splitArguments(whole)) {
    Argument a{nullptr, trimmed(std::string_view(whole).substr(b, e - b))};
    for (const Expr *k : kids) {
      unsigned at = sm.getFileOffset(sm.getFileLoc(k->getBeginLoc()));
      if (at >= base + b && at < base + e) { a.expr = k; break; }
    }
    out.push_back(std::move(a));
  }
  return out;
}

Translated CheckBuilder::conditionOf(const Argument &a) {
  return a.expr ? tr_.condition(a.expr) : parseConditionText(a.text, facts_.byName);
}

SmTerm CheckBuilder::valueOf(const Argument &a) {
  return a.expr ? tr_.value(a.expr) : parseValueText(a.text, facts_.byName);
}

/// Whether a statement leaves with an error: throw, a noreturn call, a
/// throwing macro (`TVM_FFI_THROW(...) << ...`), `TORCH_CHECK(false, ...)`,
/// or `return` of an error value.
bool CheckBuilder::exits(const Stmt *s) const {
  if (!s) return false;
  if (auto *cs = dyn_cast<CompoundStmt>(s)) return std::any_of(cs->body_begin(), cs->body_end(), [&](const Stmt *x) { return exits(x); });
  if (auto *ds = dyn_cast<DoStmt>(s)) return exits(ds->getBody());
  if (auto *ret = dyn_cast<ReturnStmt>(s)) {
    std::string v = ret->getRetValue() ? text(ret->getRetValue()) : "";
    return v.find("rror") != std::string::npos || v.find("nsupported") != std::string::npos ||
           v.find("NotSupported") != std::string::npos;
  }
  auto *e = dyn_cast<Expr>(s);
  if (!e) return false;
  e = e->IgnoreParenCasts();
  if (isa<CXXThrowExpr>(e)) return true;
  while (true) { // the stream's leftmost operand: `THROW(...) << "msg" << x`
    if (auto *bo = dyn_cast<BinaryOperator>(e); bo && bo->getOpcode() == BO_Shl) e = bo->getLHS()->IgnoreParenCasts();
    else if (auto *oc = dyn_cast<CXXOperatorCallExpr>(e); oc && oc->getOperator() == OO_LessLess) e = oc->getArg(0)->IgnoreParenCasts();
    else break;
  }
  if (auto *ce = dyn_cast<CallExpr>(e); ce && ce->getDirectCallee() && ce->getDirectCallee()->isNoReturn()) return true;
  std::string name = calleeName(e);
  if (name.find("THROW") != std::string::npos || name == "AT_ERROR" || name == "abort" || name == "exit") return true;
  if (checkShapeOf(name) == CheckShape::Condition) {
    auto args = callArguments(e);
    std::string first = args.empty() ? "" : text(args[0]);
    return first == "false" || first == "0";
  }
  return false;
}

/// The named function around `s`; a lambda's body belongs to the function
/// that defines (and usually immediately dispatches through) the lambda.
const FunctionDecl *CheckBuilder::enclosingFunction(const Stmt *s) const {
  DynTypedNodeList parents = ctx_.getParents(*s);
  while (!parents.empty()) {
    const DynTypedNode &p = parents[0];
    if (auto *fd = p.get<FunctionDecl>()) {
      auto *md = dyn_cast<CXXMethodDecl>(fd);
      if (!md || !md->getParent()->isLambda()) return fd;
    }
    parents = ctx_.getParents(p);
  }
  return nullptr;
}

bool CheckBuilder::isDeviceOnly(const FunctionDecl *fn) {
  return fn->hasAttr<CUDAGlobalAttr>() || (fn->hasAttr<CUDADeviceAttr>() && !fn->hasAttr<CUDAHostAttr>());
}

} // namespace archscope::cuda::detail
