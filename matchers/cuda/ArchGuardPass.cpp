//===--- ArchGuardPass.cpp - clang preprocessor passes per target --------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/ArchGuardPass.h"
#include "matchers/cuda/BlockNamer.h"
#include "matchers/cuda/SharedFiles.h"

#include "matchers/cuda/DeviceTarget.h"
#include "matchers/cuda/HeaderDirectives.h"
#include "matchers/cuda/TargetMacroWatcher.h"

#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Support/Path.h>

#include <map>
#include <set>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/MemoryBuffer.h>

#include <algorithm>
#include <optional>
#include <tuple>

namespace archscope::cuda {
namespace {

using clang::SourceLocation;

/// What each branch's lines say, by the file offset of its directive: the
/// same for every target, so read once for the file's passes.
using BranchTexts = std::map<unsigned, BranchText>;

/// Records the main file's conditional directives and their outcome, the
/// group each belongs to, the lines of its branch, how much the branch
/// compiles, and the definitions around it. The directives nested in a region
/// that is not compiled reach no callback, so they are recorded only by the
/// passes where that region is live.
class GuardRecorder : public clang::PPCallbacks {
public:
  GuardRecorder(clang::SourceManager &sm, std::vector<GuardDirective> &out, std::vector<std::string> &missing,
                BranchTexts &texts)
      : sm_(sm), out_(out), missing_(missing), texts_(texts) {}

  /// One token of the main file reached the compiler. Braces open and close
  /// the blocks a directive is read in (a function's body, a loop's).
  void compiledToken(const clang::Token &tok) {
    if (tok.is(clang::tok::r_brace) && !blocks_.empty()) {
      Block done = std::move(blocks_.back());
      blocks_.pop_back();
      for (size_t i : done.directives) out_[i].enclosingBlock[""] = int(compiled_ - done.compiledAtStart);
    }
    ++compiled_;
    std::string owner = namer_.feed(tok);
    if (tok.is(clang::tok::l_brace)) blocks_.push_back({compiled_, {}, std::move(owner)});
  }

  bool FileNotFound(llvm::StringRef name) override {
    if (std::find(missing_.begin(), missing_.end(), name.str()) == missing_.end()) missing_.push_back(name.str());
    return true; // skip it and go on: the pass must survive missing headers
  }
  // An #include or #define in a branch is something the branch compiles,
  // though the header's code never reaches the token loop (HeaderDirectives.h).
  void InclusionDirective(SourceLocation loc, const clang::Token &, llvm::StringRef, bool,
                          clang::CharSourceRange, clang::OptionalFileEntryRef, llvm::StringRef,
                          llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (sm_.isWrittenInMainFile(loc)) ++compiled_;
  }
  void MacroDefined(const clang::Token &name, const clang::MacroDirective *) override {
    if (!sm_.isWrittenInMainFile(name.getLocation())) return;
    ++compiled_;
    ++defines_;
    for (Level &l : levels_) // the branches being read are all taken: a #define here is live
      if (l.branch) l.macros.push_back(name.getIdentifierInfo());
  }
  void If(SourceLocation loc, clang::SourceRange cond, ConditionValueKind v) override {
    open(loc, "if", text(cond), v == CVK_True);
  }
  void Ifdef(SourceLocation loc, const clang::Token &name, const clang::MacroDefinition &md) override {
    open(loc, "ifdef", name.getIdentifierInfo()->getName().str(), bool(md));
  }
  void Ifndef(SourceLocation loc, const clang::Token &name, const clang::MacroDefinition &md) override {
    open(loc, "ifndef", name.getIdentifierInfo()->getName().str(), !md);
  }
  void Elif(SourceLocation loc, clang::SourceRange cond, ConditionValueKind v, SourceLocation) override {
    next(loc, "elif", text(cond), v == CVK_True);
  }
  void Else(SourceLocation loc, SourceLocation) override { next(loc, "else", "", true); }
  void Endif(SourceLocation loc, SourceLocation) override {
    if (levels_.empty()) return;
    close(levels_.back(), loc);
    levels_.pop_back();
    current_.pop_back();
  }

private:
  struct Level {
    bool outerLive = true; ///< the enclosing region is compiled
    bool anyTaken = false; ///< an earlier branch of this #if chain was taken
    int group = 0;  ///< the line of the #if, when it is in the main file
    std::optional<size_t> branch; ///< the recorded directive whose branch is being read
    SourceLocation branchLoc;
    unsigned compiledAtStart = 0, definesAtStart = 0;
    std::vector<const clang::IdentifierInfo *> macros; ///< defined in the branch, in order, repeats kept
  };

  bool live() const {
    return levels_.empty() || (levels_.back().outerLive && current_.back());
  }
  void open(SourceLocation loc, const char *kind, std::string cond, bool holds) {
    bool outer = live();
    bool taken = outer && holds;
    Level &l = levels_.emplace_back();
    l.outerLive = outer;
    l.anyTaken = taken;
    l.group = sm_.isWrittenInMainFile(loc) ? int(sm_.getSpellingLineNumber(loc)) : 0;
    current_.push_back(taken);
    record(l, loc, kind, std::move(cond), taken ? Branch::Taken : outer ? Branch::NotTaken : Branch::Skipped);
  }
  void next(SourceLocation loc, const char *kind, std::string cond, bool holds) {
    if (levels_.empty()) return;
    Level &l = levels_.back();
    close(l, loc);
    bool taken = l.outerLive && !l.anyTaken && holds;
    l.anyTaken |= taken;
    current_.back() = taken;
    record(l, loc, kind, std::move(cond),
           taken ? Branch::Taken : l.outerLive ? Branch::NotTaken : Branch::Skipped);
  }
  void record(Level &l, SourceLocation loc, const char *kind, std::string cond, Branch b) {
    l.branch.reset();
    if (!sm_.isWrittenInMainFile(loc)) return;
    GuardDirective &d = out_.emplace_back();
    d.line = int(sm_.getSpellingLineNumber(loc));
    d.kind = kind;
    d.condition = std::move(cond);
    d.byTarget[""] = b;
    d.group = l.group;
    l.branch = out_.size() - 1;
    if (!blocks_.empty()) blocks_.back().directives.push_back(out_.size() - 1);
    for (const auto &block : blocks_)
      if (!block.owner.empty()) d.definitions.push_back(block.owner);
    l.branchLoc = loc;
    l.compiledAtStart = compiled_;
    l.definesAtStart = defines_;
    l.macros.clear();
  }
  /// The branch being read ends at `loc`: its lines and what it compiled.
  void close(Level &l, SourceLocation loc) {
    if (!l.branch) return;
    GuardDirective &d = out_[*l.branch];
    d.end = int(sm_.getSpellingLineNumber(loc));
    if (d.byTarget.at("") == Branch::Taken) {
      d.compiled[""] = int(compiled_ - l.compiledAtStart);
      d.defines[""] = int(defines_ - l.definesAtStart);
      // Named only where the branch holds nothing else: what a target that
      // skips it may miss (an include guard's whole file is no such branch).
      llvm::SmallPtrSet<const clang::IdentifierInfo *, 16> seen;
      if (d.defines[""] == d.compiled[""])
        for (const auto *ii : l.macros)
          if (seen.insert(ii).second) d.macros.push_back(ii->getName().str());
    }
    unsigned from = sm_.getFileOffset(l.branchLoc), to = sm_.getFileOffset(loc);
    auto [known, added] = texts_.try_emplace(from);
    if (added) known->second = textBetween(from, to);
    d.text = known->second;
  }
  BranchText textBetween(unsigned from, unsigned to) const {
    bool invalid = false;
    llvm::StringRef file = sm_.getBufferData(sm_.getMainFileID(), &invalid);
    if (invalid || from >= to || to > file.size()) return {};
    llvm::StringRef body = file.slice(from, to);
    // After the directive's own line, before the closing one's.
    size_t first = body.find('\n'), last = body.rfind('\n');
    return first == last ? BranchText{} : readBranchText(body.slice(first + 1, last + 1));
  }
  std::string text(clang::SourceRange r) const {
    bool invalid = false;
    auto s = clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(r), sm_, clang::LangOptions(), &invalid);
    return invalid ? "" : s.trim().str();
  }

  clang::SourceManager &sm_;
  std::vector<GuardDirective> &out_;
  std::vector<std::string> &missing_;
  BranchTexts &texts_;
  std::vector<Level> levels_;
  std::vector<bool> current_; ///< per level: the branch being read is taken
  unsigned compiled_ = 0;     ///< main-file tokens, #includes and #defines so far
  unsigned defines_ = 0;      ///< of which #defines
  struct Block {
    unsigned compiledAtStart;      ///< after its `{`
    std::vector<size_t> directives; ///< recorded while it was the innermost open block
    std::string owner;              ///< the definition it is the body of ("" for a loop's)
  };
  std::vector<Block> blocks_;
  BlockNamer namer_;
};

/// Finds `__global__` kernel definitions in the token stream of one pass and
/// classifies their bodies. Tokens of regions not compiled never arrive.
class KernelScanner {
public:
  /// `line` gives the token's line (asked only for a kernel's name).
  template <class LineOf> void feed(const clang::Token &tok, bool inMainFile, LineOf line) {
    if (depth_ > 0) return body(tok);
    if (!inMainFile) return;
    if (tok.is(clang::tok::identifier) && tok.getIdentifierInfo()->getName() == "__global__") {
      state_ = State::SawGlobal;
      return;
    }
    switch (state_) {
    case State::SawGlobal:
      if (tok.is(clang::tok::identifier)) { pending_ = tok.getIdentifierInfo()->getName().str(); pendingLine_ = line(); }
      else if (tok.is(clang::tok::l_paren) && !pending_.empty()) {
        // __launch_bounds__(...) and __attribute__((...)) come before the name.
        bool attribute = pending_ == "__launch_bounds__" || pending_ == "__attribute__" || pending_ == "__cluster_dims__";
        state_ = attribute ? State::Attribute : State::Params;
        parens_ = 1;
      }
      break;
    case State::Attribute:
      if (tok.is(clang::tok::l_paren)) ++parens_;
      if (tok.is(clang::tok::r_paren) && --parens_ == 0) { state_ = State::SawGlobal; pending_.clear(); }
      break;
    case State::Params:
      if (tok.is(clang::tok::l_paren)) ++parens_;
      if (tok.is(clang::tok::r_paren) && --parens_ == 0) state_ = State::AfterParams;
      break;
    case State::AfterParams:
      if (tok.is(clang::tok::l_brace)) { depth_ = 1; tokens_ = 0; trap_ = false; }
      else if (tok.is(clang::tok::semi)) state_ = State::None; // a declaration
      break;
    case State::None: break;
    }
  }
  /// `__global__` as a macro (the CUDA headers define it as an attribute):
  /// its expansion's tokens are skipped and this says a kernel follows.
  void sawGlobalMacro() {
    if (depth_ == 0) state_ = State::SawGlobal;
  }
  std::vector<std::tuple<std::string, int, KernelBody>> kernels;

private:
  enum class State { None, SawGlobal, Attribute, Params, AfterParams };
  void body(const clang::Token &tok) {
    if (tok.is(clang::tok::l_brace)) ++depth_;
    if (tok.is(clang::tok::r_brace) && --depth_ == 0) {
      // `asm("trap;");` is 5 tokens: asm ( "trap;" ) ;
      KernelBody kind = tokens_ == 0 ? KernelBody::Empty : trap_ && tokens_ <= 6 ? KernelBody::TrapOnly : KernelBody::Code;
      kernels.emplace_back(pending_, pendingLine_, kind);
      state_ = State::None;
      pending_.clear();
      return;
    }
    ++tokens_;
    if (tok.is(clang::tok::string_literal) && llvm::StringRef(tok.getLiteralData(), tok.getLength()).contains("trap"))
      trap_ = true;
  }
  State state_ = State::None;
  std::string pending_;
  int pendingLine_ = 0, parens_ = 0, depth_ = 0, tokens_ = 0;
  bool trap_ = false;
};

/// `__global__` defined as a macro by the CUDA headers a file includes (to an
/// attribute, or to nothing): its expansion in the main file says a kernel
/// definition follows, and its tokens are not the kernel's.
class GlobalMacroWatcher : public clang::PPCallbacks {
public:
  GlobalMacroWatcher(clang::SourceManager &sm, KernelScanner &kernels, std::set<unsigned> &expansions)
      : sm_(sm), kernels_(kernels), expansions_(expansions) {}
  void MacroExpands(const clang::Token &name, const clang::MacroDefinition &, clang::SourceRange range,
                    const clang::MacroArgs *) override {
    if (name.getIdentifierInfo()->getName() != "__global__") return;
    auto loc = sm_.getExpansionLoc(range.getBegin());
    if (!sm_.isWrittenInMainFile(loc)) return;
    kernels_.sawGlobalMacro();
    expansions_.insert(loc.getRawEncoding());
  }

private:
  clang::SourceManager &sm_;
  KernelScanner &kernels_;
  std::set<unsigned> &expansions_;
};

/// The baseline's only callback: the same tolerance of missing headers.
struct SkipMissingHeaders : clang::PPCallbacks {
  bool FileNotFound(llvm::StringRef) override { return true; }
};

class GuardAction : public clang::PreprocessOnlyAction {
public:
  GuardAction(std::vector<GuardDirective> &out, std::vector<std::string> &missing, KernelScanner &kernels,
              const GuardPassOptions &options, ScannedHeaders &headers, BranchTexts &texts, bool &readsTarget)
      : out_(out), missing_(missing), kernels_(kernels), extract_(options.extract), archMacros_(options.archMacros),
        scans_(headers), texts_(texts), readsTarget_(readsTarget) {}

protected:
  bool BeginSourceFileAction(clang::CompilerInstance &ci) override {
    if (extract_) {
      auto recorder = std::make_unique<GuardRecorder>(ci.getSourceManager(), out_, missing_, texts_);
      recorder_ = recorder.get();
      ci.getPreprocessor().addPPCallbacks(std::move(recorder));
      ci.getPreprocessor().addPPCallbacks(
          std::make_unique<GlobalMacroWatcher>(ci.getSourceManager(), kernels_, globalExpansions_));
      ci.getPreprocessor().addPPCallbacks(
          std::make_unique<TargetMacroWatcher>(ci.getSourceManager(), archMacros_, readsTarget_));
    }
    else
      ci.getPreprocessor().addPPCallbacks(std::make_unique<SkipMissingHeaders>());
    return true;
  }
  void ExecuteAction() override {
    clang::CompilerInstance &ci = getCompilerInstance();
    clang::Preprocessor &pp = ci.getPreprocessor();
    clang::SourceManager &sm = ci.getSourceManager();
    // Headers as their directives only (HeaderDirectives.h): no header code
    // token reaches the loop below, which reads the main file's kernels.
    std::optional<HeaderDirectives> headers;
    if (auto main = sm.getFileEntryRefForID(sm.getMainFileID())) {
      headers.emplace(scans_, ci.getFileManager(), main->getUniqueID());
      pp.setDependencyDirectivesGetter(*headers);
    }
    pp.EnterMainSourceFile();
    clang::Token tok;
    for (pp.Lex(tok); tok.isNot(clang::tok::eof); pp.Lex(tok)) {
      if (!extract_) continue;
      auto loc = sm.getExpansionLoc(tok.getLocation());
      if (tok.getLocation().isMacroID() && globalExpansions_.count(loc.getRawEncoding())) continue;
      bool inMainFile = sm.isWrittenInMainFile(loc);
      if (recorder_ && inMainFile) recorder_->compiledToken(tok);
      kernels_.feed(tok, inMainFile, [&] { return int(sm.getSpellingLineNumber(loc)); });
    }
  }

private:
  std::vector<GuardDirective> &out_;
  std::vector<std::string> &missing_;
  KernelScanner &kernels_;
  bool extract_;
  const std::vector<std::string> &archMacros_;
  ScannedHeaders &scans_;
  BranchTexts &texts_;
  bool &readsTarget_;
  std::set<unsigned> globalExpansions_; ///< where `__global__` was a macro
  GuardRecorder *recorder_ = nullptr;   ///< owned by the preprocessor
};

/// Adds one target's kernels to the report's per-kernel table.
void mergeKernels(GuardReport &report, const KernelScanner &scan, const std::string &target) {
  for (const auto &[name, line, body] : scan.kernels) {
    auto it = std::find_if(report.kernels.begin(), report.kernels.end(),
                           [&](const KernelSite &k) { return k.name == name; });
    if (it == report.kernels.end()) {
      report.kernels.push_back({name, line, {}});
      it = report.kernels.end() - 1;
    }
    it->byTarget[target] = body;
  }
}

/// Keeps clang quiet but remembers the first error of the file itself (an
/// `#if` that does not parse), so the report can name it; errors inside
/// headers are the headers' business.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
public:
  explicit FirstErrorConsumer(std::string path) : path_(std::move(path)) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    if (level < clang::DiagnosticsEngine::Error || !first.empty() || !info.hasSourceManager()) return;
    auto loc = info.getSourceManager().getPresumedLoc(info.getLocation());
    if (!loc.isValid() || !llvm::StringRef(loc.getFilename()).ends_with(llvm::sys::path::filename(path_))) return;
    llvm::SmallString<128> text;
    info.FormatDiagnostic(text);
    first = "line " + std::to_string(loc.getLine()) + ": " + text.str().str();
  }
  std::string first;

private:
  std::string path_;
};

} // namespace

GuardReport runArchGuardPass(const std::string &path, const std::vector<Target> &targets,
                             const GuardPassOptions &options) {
  GuardReport report;
  report.path = path;
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer) {
    report.errors.push_back(path + ": cannot read: " + buffer.getError().message());
    return report;
  }
  // clang's own diagnostics (an #error in a header for some target) are not
  // shown: a failed pass is reported once per target in `errors`.
  std::map<std::string, std::vector<std::string>> failed; // error -> targets
  llvm::IntrusiveRefCntPtr<clang::FileManager> files = passFileManager();
  ScannedHeaders headers; // shared by this file's passes
  BranchTexts texts;

  // One target's outcomes into the per-directive and per-kernel tables.
  auto merge = [&](const std::string &target, const std::vector<GuardDirective> &directives,
                   const KernelScanner &scan, const std::optional<std::string> &error) {
    mergeKernels(report, scan, target);
    if (error) failed[*error].push_back(target);
    for (const auto &d : directives) {
      auto it = std::find_if(report.directives.begin(), report.directives.end(),
                             [&](const GuardDirective &x) { return x.line == d.line; });
      if (it == report.directives.end()) {
        report.directives.push_back(d);
        it = report.directives.end() - 1;
        it->byTarget.clear();
        it->compiled.clear();
        it->enclosingBlock.clear();
        it->defines.clear();
      }
      for (const auto &m : d.macros)
        if (std::find(it->macros.begin(), it->macros.end(), m) == it->macros.end()) it->macros.push_back(m);
      it->byTarget[target] = d.byTarget.at("");
      if (auto n = d.compiled.find(""); n != d.compiled.end()) it->compiled[target] = n->second;
      if (auto n = d.defines.find(""); n != d.defines.end()) it->defines[target] = n->second;
      if (auto n = d.enclosingBlock.find(""); n != d.enclosingBlock.end())
        it->enclosingBlock[target] = n->second;
    }
  };
  for (size_t i = 0; i < targets.size(); ++i) {
    const Target &t = targets[i];
    std::vector<GuardDirective> directives;
    KernelScanner scan;
    bool readsTarget = !options.reuseTargetFreePasses;
    auto args = deviceArgs(t);
#ifdef ARCHSCOPE_CLANG_RESOURCE_DIR
    args.push_back("-resource-dir=" ARCHSCOPE_CLANG_RESOURCE_DIR); // clang's own builtin headers
#endif
    args.insert(args.end(), options.extraArgs.begin(), options.extraArgs.end());
    for (const auto &m : options.archMacros) args.push_back("-D" + m + "=" + std::to_string(t.cc.sm() * 10));
    std::vector<std::string> command = {"clang-22"};
    command.insert(command.end(), args.begin(), args.end());
    command.push_back(path);
    clang::tooling::ToolInvocation invocation(
        command,
        std::make_unique<GuardAction>(directives, report.missingIncludes, scan, options, headers, texts,
                                      readsTarget),
        files.get());
    FirstErrorConsumer diagnostics(path);
    invocation.setDiagnosticConsumer(&diagnostics);
    bool ok = invocation.run();
    std::optional<std::string> error;
    if (!diagnostics.first.empty() || !ok) error = diagnostics.first.empty() ? "the pass reported errors" : diagnostics.first;
    merge(t.name(), directives, scan, error);
    // A first pass that never read a target macro is every target's pass
    // (TargetMacroWatcher.h): the others would repeat it token for token.
    if (i == 0 && !readsTarget && options.extract) {
      for (size_t j = 1; j < targets.size(); ++j) merge(targets[j].name(), directives, scan, error);
      report.targetFree = true;
      break;
    }
  }
  for (const auto &[error, names] : failed) {
    std::string list;
    for (const auto &n : names) list += (list.empty() ? "" : ", ") + n;
    report.errors.push_back(error + " (in the " + list + " pass" + (names.size() > 1 ? "es" : "") +
                            "; what it says there is unreliable)");
  }
  for (auto &k : report.kernels) // compiled by no pass of this target: absent there
    for (const auto &t : targets) k.byTarget.emplace(t.name(), KernelBody::Absent);
  std::sort(report.kernels.begin(), report.kernels.end(),
            [](const KernelSite &a, const KernelSite &b) { return a.line < b.line; });
  std::sort(report.directives.begin(), report.directives.end(),
            [](const GuardDirective &a, const GuardDirective &b) { return a.line < b.line; });
  return report;
}

} // namespace archscope::cuda
