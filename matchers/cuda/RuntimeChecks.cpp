//===--- RuntimeChecks.cpp - one host-side clang parse per file ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// The parse is the cheapest that still builds function bodies of the file:
// host side only, missing headers skipped (as ArchGuardPass does), bodies of
// functions outside the main file skipped (CUTLASS templates are the bulk of
// a translation unit and hold no dispatch of the engine), no typo correction
// (every undeclared TORCH_CHECK would otherwise search for a near name), no
// error limit (the parse must reach the end of the file). Names the missing
// headers would have declared are declared on demand (RuntimeCheckStubs.h),
// so that functions whose signatures use them keep their bodies.
//===----------------------------------------------------------------------===//
#include "matchers/cuda/RuntimeChecks.h"
#include "matchers/cuda/SharedFiles.h"

#include "matchers/cuda/RuntimeCheckBuilder.h"
#include "matchers/cuda/RuntimeCheckStubs.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/Lex/Lexer.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <algorithm>
#include <cctype>

namespace archscope::cuda {
namespace {

using namespace clang;
using namespace clang::ast_matchers;
using detail::calleeName;
using detail::CheckShape;

/// clang ships no matcher for RecoveryExpr, the node an undeclared macro
/// call (TORCH_CHECK without its header) becomes.
const internal::VariadicDynCastAllOfMatcher<Stmt, RecoveryExpr> recoveryExpr;

AST_MATCHER(Expr, isCheckMacroCall) { return detail::checkShapeOf(calleeName(&Node)) != CheckShape::None; }
AST_MATCHER(Expr, isAttributeQuery) { return calleeName(&Node) == "cudaDeviceGetAttribute"; }
AST_MATCHER(Expr, isFuncAttributeSet) {
  auto name = calleeName(&Node);
  return name == "cudaFuncSetAttribute" || name == "cuFuncSetAttribute";
}

/// The constant byte count of a dynamic shared-memory request, read from a
/// call whose callee may be undeclared (no CUDA headers): its last argument.
class SmemCollector : public MatchFinder::MatchCallback {
public:
  SmemCollector(RuntimeCheckReport &report, ASTContext &ctx) : report_(report), ctx_(ctx) {}
  void run(const MatchFinder::MatchResult &r) override {
    const auto *call = r.Nodes.getNodeAs<Expr>("smem");
    const auto *fn = r.Nodes.getNodeAs<FunctionDecl>("fn");
    // Without the CUDA headers the call is a RecoveryExpr holding only the
    // arguments clang could resolve (not the undeclared attribute name): the
    // attribute is read off the spelling, the bytes off the last argument.
    std::vector<const Expr *> args;
    if (const auto *c = dyn_cast<CallExpr>(call)) args.assign(c->arg_begin(), c->arg_end());
    else if (const auto *rec = dyn_cast<RecoveryExpr>(call))
      for (const Expr *e : rec->subExpressions()) args.push_back(e);
    std::string spelling = text(call);
    if (args.empty() || spelling.find("MaxDynamicSharedMemorySize") == std::string::npos) return;
    const Expr *bytes = args.back();
    if (!spelledLast(spelling, text(bytes))) return; // the byte count itself did not resolve
    Expr::EvalResult value;
    if (bytes->containsErrors() || !bytes->EvaluateAsInt(value, ctx_)) return;
    SmemRequest s;
    s.bytes = long(value.Val.getInt().getExtValue());
    s.function = fn ? fn->getQualifiedNameAsString() : "";
    auto &sm = ctx_.getSourceManager();
    auto loc = sm.getPresumedLoc(sm.getExpansionLoc(call->getBeginLoc()));
    s.where = {report_.path, int(loc.getLine()), int(loc.getColumn()), "cpp", text(call), ""};
    std::string body = fn && fn->hasBody() ? text(fn->getBody()) : "";
    s.checksOptinLimit = body.find("PerBlockOptin") != std::string::npos;
    report_.smemRequests.push_back(std::move(s));
  }

private:
  /// Whether `arg` is the call's last argument: only `)` follows it.
  static bool spelledLast(llvm::StringRef call, llvm::StringRef arg) {
    call = call.rtrim();
    if (!call.consume_back(")")) return false;
    return !arg.empty() && call.rtrim().ends_with(arg);
  }
  std::string text(const Stmt *s) const {
    auto range = CharSourceRange::getTokenRange(s->getSourceRange());
    return Lexer::getSourceText(range, ctx_.getSourceManager(), ctx_.getLangOpts()).str();
  }
  RuntimeCheckReport &report_;
  ASTContext &ctx_;
};

/// Collects what each matcher binds; the builder reads it all afterwards.
class Collector : public MatchFinder::MatchCallback {
public:
  explicit Collector(detail::MatchedNodes &nodes) : nodes_(nodes) {}
  void run(const MatchFinder::MatchResult &r) override {
    if (auto *s = r.Nodes.getNodeAs<IfStmt>("if")) nodes_.ifs.push_back(s);
    if (auto *s = r.Nodes.getNodeAs<SwitchStmt>("switch")) nodes_.switches.push_back(s);
    if (auto *e = r.Nodes.getNodeAs<Expr>("check")) nodes_.checkCalls.push_back(e);
    if (auto *e = r.Nodes.getNodeAs<ConditionalOperator>("ternary")) nodes_.ternaries.push_back(e);
    if (auto *s = r.Nodes.getNodeAs<ReturnStmt>("return")) nodes_.boolReturns.push_back(s);
    if (auto *e = r.Nodes.getNodeAs<Expr>("attribute")) nodes_.attributeQueries.push_back(e);
    if (auto *d = r.Nodes.getNodeAs<VarDecl>("local")) nodes_.localDecls.push_back(d);
  }

private:
  detail::MatchedNodes &nodes_;
};

/// Spelled code only: template instantiations would repeat each check.
template <typename M> auto spelled(M m) { return traverse(TK_IgnoreUnlessSpelledInSource, m); }

void addMatchers(MatchFinder &finder, Collector &collect) {
  auto inFile = isExpansionInMainFile();
  auto checkCall = expr(anyOf(callExpr(isCheckMacroCall()), recoveryExpr(isCheckMacroCall())), inFile);
  auto attributeQuery = expr(anyOf(callExpr(isAttributeQuery()), recoveryExpr(isAttributeQuery())), inFile);
  auto boolReturn = returnStmt(inFile, hasReturnValue(expr()), forCallable(functionDecl(returns(booleanType()))));
  finder.addMatcher(spelled(ifStmt(inFile).bind("if")), &collect);
  finder.addMatcher(spelled(switchStmt(inFile).bind("switch")), &collect);
  finder.addMatcher(spelled(checkCall.bind("check")), &collect);
  finder.addMatcher(spelled(conditionalOperator(inFile).bind("ternary")), &collect);
  finder.addMatcher(spelled(boolReturn.bind("return")), &collect);
  finder.addMatcher(spelled(attributeQuery.bind("attribute")), &collect);
  finder.addMatcher(spelled(varDecl(inFile, unless(parmVarDecl())).bind("local")), &collect);
}

class ChecksConsumer : public ASTConsumer {
public:
  ChecksConsumer(SourceManager &sm, RuntimeCheckReport &report, bool &parsed) : sm_(sm), report_(report), parsed_(parsed) {}
  bool shouldSkipFunctionBody(Decl *d) override { return !sm_.isInMainFile(sm_.getExpansionLoc(d->getLocation())); }
  void HandleTranslationUnit(ASTContext &ctx) override {
    detail::MatchedNodes nodes;
    Collector collect(nodes);
    MatchFinder finder;
    addMatchers(finder, collect);
    SmemCollector smem(report_, ctx);
    auto smemCall = expr(anyOf(callExpr(isFuncAttributeSet()), recoveryExpr(isFuncAttributeSet())),
                         isExpansionInMainFile(), optionally(forCallable(functionDecl().bind("fn"))));
    finder.addMatcher(spelled(smemCall.bind("smem")), &smem);
    finder.matchAST(ctx);
    detail::CheckBuilder(ctx, report_.path).build(nodes, report_.checks);
    parsed_ = true;
  }

private:
  SourceManager &sm_;
  RuntimeCheckReport &report_;
  bool &parsed_;
};

struct SkipMissingHeaders : PPCallbacks {
  explicit SkipMissingHeaders(std::vector<std::string> &missing) : missing(missing) {}
  bool FileNotFound(llvm::StringRef name) override {
    if (std::find(missing.begin(), missing.end(), name.str()) == missing.end()) missing.push_back(name.str());
    return true; // skip it and go on
  }
  std::vector<std::string> &missing;
};

/// No system folder is searched (commandFor), so <cstdint> and <cstddef> are
/// missing; a stub would make `constexpr int32_t kSmem = ...` no constant.
/// clang's own builtin headers declare the C names (int32_t, size_t); the
/// std:: spellings stay unresolved (clang's stddef.h opens a real namespace
/// std, which the stubs of RuntimeCheckStubs.h do not answer for).
constexpr const char *kFixedWidthTypes = "#include <stddef.h>\n#include <stdint.h>\n";

class ChecksAction : public ASTFrontendAction {
public:
  /// `parsed` outlives the action, which the invocation destroys after the run.
  ChecksAction(RuntimeCheckReport &report, bool &parsed, llvm::StringRef text)
      : report_(report), parsed_(parsed), text_(text) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    ci.getFrontendOpts().SkipFunctionBodies = true; // only where shouldSkipFunctionBody agrees
    ci.getPreprocessor().addPPCallbacks(std::make_unique<SkipMissingHeaders>(report_.missingIncludes));
    // The context's source serves lookups into the namespaces it declares;
    // it adds itself to Sema for unqualified lookups when Sema starts. The
    // frontend skips the builtins (__builtin_expect) when a context has an
    // external source, as for a PCH that carries its own: set them up here.
    ci.getASTContext().setExternalSource(detail::makeMissingDeclarations(ci.getSourceManager(), text_));
    Preprocessor &pp = ci.getPreprocessor();
    pp.getBuiltinInfo().initializeBuiltins(pp.getIdentifierTable(), pp.getLangOpts());
    pp.setPredefines(pp.getPredefines() + kFixedWidthTypes);
    return std::make_unique<ChecksConsumer>(ci.getSourceManager(), report_, parsed_);
  }

private:
  RuntimeCheckReport &report_;
  bool &parsed_;
  llvm::StringRef text_;
};

bool isPlainCpp(const std::string &path) {
  for (const char *ext : {".cpp", ".cc", ".cxx", ".C"})
    if (llvm::StringRef(path).ends_with(ext)) return true;
  return false;
}

std::vector<std::string> commandFor(const std::string &path, const std::vector<std::string> &extraArgs) {
  // No system include folder, as in the device pass (DeviceTarget.h): the
  // checks read must not depend on the machine's CUDA or C++ library headers.
  std::vector<std::string> cmd = {"clang-22",    "-fsyntax-only", "-w",          "-ferror-limit=0",
                                  "-fno-spell-checking", "-nostdinc++", "-nostdlibinc"};
  if (isPlainCpp(path)) {
    cmd.insert(cmd.end(), {"-x", "c++"});
  } else {
    // Without the CUDA headers nothing defines the execution-space keywords.
    cmd.insert(cmd.end(), {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
                           "-D__global__=__attribute__((global))", "-D__device__=__attribute__((device))",
                           "-D__host__=__attribute__((host))", "-D__shared__=__attribute__((shared))",
                           "-D__constant__=__attribute__((constant))", "-D__forceinline__=inline",
                           "-D__launch_bounds__(...)="});
  }
#ifdef ARCHSCOPE_CLANG_RESOURCE_DIR
  cmd.push_back("-resource-dir=" ARCHSCOPE_CLANG_RESOURCE_DIR);
#endif
  cmd.insert(cmd.end(), extraArgs.begin(), extraArgs.end());
  cmd.push_back(path);
  return cmd;
}

} // namespace

RuntimeCheckReport extractRuntimeChecks(const std::string &path, const std::vector<std::string> &extraArgs) {
  RuntimeCheckReport report;
  report.path = path;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    report.errors.push_back(path + ": cannot read: " + buffer.getError().message());
    return report;
  }
  report.registrations = scanOpRegistrations(path, (*buffer)->getBuffer());
  // Undeclared macros and missing headers make errors the normal case; only
  // a parse that never reached the end of the file is reported.
  IgnoringDiagConsumer quiet;
  llvm::IntrusiveRefCntPtr<FileManager> files = passFileManager();
  bool parsed = false;
  tooling::ToolInvocation invocation(commandFor(path, extraArgs), std::make_unique<ChecksAction>(report, parsed, (*buffer)->getBuffer()),
                                     files.get());
  invocation.setDiagnosticConsumer(&quiet);
  invocation.run();
  if (!parsed) report.errors.push_back(path + ": clang could not parse the file (host side)");
  return report;
}

namespace {
/// Where the comment or literal starting at `i` ends, or `i` when none does:
/// words there ("K-major layout") are no code.
size_t skipCommentOrLiteral(std::string_view text, size_t i) {
  auto rest = text.substr(i);
  if (rest.starts_with("//")) {
    size_t eol = text.find('\n', i);
    return eol == std::string_view::npos ? text.size() : eol;
  }
  if (rest.starts_with("/*")) {
    size_t close = text.find("*/", i + 2);
    return close == std::string_view::npos ? text.size() : close + 2;
  }
  bool digitSeparator = text[i] == '\'' && i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]));
  if ((text[i] != '"' && text[i] != '\'') || digitSeparator) return i;
  for (size_t j = i + 1; j < text.size(); ++j) {
    if (text[j] == '\\') ++j;
    else if (text[j] == text[i] || text[j] == '\n') return j + 1;
  }
  return text.size();
}
} // namespace

bool mayHaveRuntimeChecks(std::string_view text) {
  auto identChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < text.size();) {
    if (size_t past = skipCommentOrLiteral(text, i); past != i) { i = past; continue; }
    if (!identChar(text[i]) || (i > 0 && identChar(text[i - 1]))) { ++i; continue; }
    size_t end = i;
    while (end < text.size() && identChar(text[end])) ++end;
    size_t next = end;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
    if (!std::isdigit(static_cast<unsigned char>(text[i])) &&
        detail::identifierHintsSm(text.substr(i, end - i), text.substr(std::min(next, text.size()), 2)))
      return true;
    i = end;
  }
  return false;
}

} // namespace archscope::cuda
