//===--- Interpreter.h - symbolic evaluation of Python dispatch code ----===//
// SPDX-License-Identifier: Apache-2.0
//
// Evaluates expressions to Values and walks statements with a path condition
// ("reach"): if/elif/else, early return and raise, assert, try/with bodies,
// loops over constant lists (unrolled). Calls into functions of the trees are
// interpreted with their arguments bound (partial, lru_cache and decorators
// see through), up to a small depth, so predicates are inferred from their
// definitions and guards in short static call chains are found.
// A FlowSink receives what the walk finds: raises, backend selections and
// backend-dependent branches, each with the condition under which it is
// reached.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/PluginRegistries.h"
#include "matchers/python/Value.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace archscope::py {

/// Names that carry the selected backend and the quantization flag.
struct Vocabulary {
  std::set<std::string> selectors;    ///< moe_runner_backend, get_moe_runner_backend, ...
  std::set<std::string> quantFlags;   ///< quantization
  std::set<std::string> backendEnums; ///< MoeRunnerBackend; empty: classes named *Backend
  /// "Class.attr" -> what it holds at run time when the code cannot say
  /// (a profile's `attributes`): "device_capability_list" is [(major, minor)].
  std::map<std::string, std::string> attributeValues;
  /// Python modules the trees' C++ builds with pybind11 (PYBIND11_MODULE):
  /// a call of MOD.FUNC is a compiled entry, `pybind:MOD.FUNC`.
  std::set<std::string> extensionModules;
  /// The quant format audited (nvfp4): `isinstance(x, C)` with C named for a
  /// format (`FlashInferTrtllmFp8MoeQuantInfo`) is decided by that name.
  std::string quantName;
};

class FlowSink {
public:
  virtual ~FlowSink() = default;
  virtual void raised(const Condition &reach, Module &m, TSNode site) {}
  virtual void selected(const Condition &reach, const std::string &backend, Module &m, TSNode site) {}
  virtual void branched(const Condition &cond, const Condition &reach, Module &m, TSNode site) {}
  /// A function of a package no tree holds (`flashinfer.fused_moe.X` with no
  /// FlashInfer given) is called under `reach`.
  virtual void libraryCalled(const Condition &reach, const std::string &dotted, Module &m, TSNode site) {}
  /// A function of the trees is entered under `reach` (for decorators).
  virtual void entered(const FuncRef &fn, const Condition &reach) {}
  /// A compiled kernel entry (`torch.ops.NS.OP(...)`) is called under `reach`.
  /// `spec`: what the JIT module compiles, when the walk saw its builder
  /// (`familiesOnly`: seen only in its getter's body).
  virtual void kernelCalled(const Condition &reach, const std::string &entry, Module &m, TSNode site,
                            const JitSpec *spec = nullptr, bool familiesOnly = false) {}
};

struct Frame {
  Module *mod = nullptr;
  std::map<std::string, Value> locals;
  int depth = 0;
  FlowSink *sink = nullptr;
  Condition reach = Condition::truth(); ///< the path condition here
};

class Interpreter {
public:
  Interpreter(ModuleIndex &index, Vocabulary vocab);

  /// The value a module-level name is bound to (functions, aliases,
  /// re-exports, cached booleans).
  Value resolveName(Module *m, const std::string &name);
  Value evalExpr(TSNode node, Frame &frame);
  /// a OP b on abstract values (also `x += y`).
  Value binaryOp(const Value &a, const std::string &op, const Value &b, const std::string &text);
  Condition toCond(const Value &v);
  /// `a if c else b` as one value where the two can be merged (equal, both
  /// tuples of one length, JIT modules, constants); unknown otherwise.
  Value mergeBranches(const Condition &c, const Value &a, const Value &b);
  Value callValue(const Value &callee, std::vector<Value> args, std::map<std::string, Value> kwargs,
                  Frame &caller, const std::string &text);
  /// Walks a function body from `reach`, reporting to `sink`; returns the
  /// merged return value.
  Value walkFunction(const FuncRef &fn, std::vector<Value> args, std::map<std::string, Value> kwargs,
                     const Condition &reach, FlowSink *sink, int depth, const Value *self);
  /// Walks module-level statements of a class body's methods or a module.
  Value memberOf(const ClassRef &cls, const std::string &name);
  /// `self.NAME = EXPR` at the top of the class's __init__, the only
  /// assignment to self.NAME in the class: EXPR, evaluated with __init__'s
  /// earlier local imports bound.
  Value initAttribute(const ClassRef &cls, const std::string &name);
  /// Walks some statements of a body in `f` (those before a call site),
  /// binding what they assign; reports to f.sink where there is one.
  void walkStatements(const std::vector<TSNode> &stmts, Frame &f);
  /// Binds `from M import a as b` (inside a function) into f's locals.
  void bindLocalImport(TSNode stmt, Frame &f);
  std::vector<ClassRef> bases(const ClassRef &cls);
  bool isBackendEnum(const ClassRef &cls);
  std::string className(const ClassRef &cls);
  /// Normalized backend name of an enum member or string ("flashinfer_trtllm").
  static std::string normalizeBackend(const std::string &value);
  ModuleIndex &index() { return index_; }
  /// The enum classes whose members are backends (methods of a symbolic
  /// backend value are looked up there).
  void addBackendClass(ClassRef cls) { backendClasses_.push_back(cls); }
  const std::vector<ClassRef> &backendClasses() const { return backendClasses_; }
  /// The top-level packages of the engine's own code (those of the rows' enums).
  void setEnginePackages(std::set<std::string> packages) { enginePackages_ = std::move(packages); }
  const std::set<std::string> &enginePackages() const { return enginePackages_; }
  const Vocabulary &vocab() const { return vocab_; }

  static constexpr int kMaxDepth = 6;
  static constexpr int kEntryDepth = 1; ///< the depth an entry's walk starts at
  /// Whether `m` is the engine's code, not a kernel library's: in the first
  /// tree and, where the rows' enums are known, in one of their packages.
  bool inEngine(const Module *m) const;
  /// Statements one top-level walk may interpret before calls turn opaque:
  /// keeps huge call graphs (a whole package in generic mode) linear.
  static constexpr long kStepBudget = 20000;
  void resetBudget() { steps_ = kStepBudget; }
  bool spend() { return --steps_ > 0; }
  bool budgetLeft() const { return steps_ > 0; }

  /// Branch conditions enclosing the statement being walked (across calls).
  struct GuardSite {
    Condition cond;
    Module *mod;
    TSNode node;
  };
  std::vector<GuardSite> &activeGuards() { return activeGuards_; }

private:
  friend class FlowWalker;
  Value evalCall(TSNode node, Frame &frame);
  /// Reports a call of a compiled kernel entry to the frame's sink.
  const std::vector<std::pair<Condition, std::shared_ptr<const JitSpec>>> &jitSpecsOfGetter(const std::string &getter,
                                                                                           Frame &f);
  /// The spec a call's argument builds (`_wrap(gen_X(...))`), empty when none does.
  std::vector<std::pair<Condition, std::shared_ptr<const JitSpec>>> jitSpecOfArguments(TSNode call, Module *mod);
  void noteKernelEntry(const Value &callee, TSNode call, Frame &frame);
  /// `self._module = get_X_module()`: an object keeps a JIT module to call
  /// later, through state the walk does not follow (a runner's forward):
  /// reported as a call of the whole module (`jit:get_X_module.*`), whose
  /// kernel families are its getter's sources'.
  void noteModuleKept(const Value &callee, TSNode call, Frame &frame);
  void addArtifactPaths(Value &module, const FuncRef &builder);
  /// `REGISTRY.get(key)` where only plugins fill REGISTRY: their entry if
  /// one registered the key (a Plugin fact), else None. nullopt otherwise.
  std::optional<Value> pluginLookup(TSNode registry, Frame &f, const std::string &text);
  bool dispatchThroughTable(TSNode subscript, const std::vector<Value> &args,
                            const std::map<std::string, Value> &kwargs, Frame &f, const std::string &text);
  Value evalAttribute(TSNode node, Frame &frame);
  Value evalComparison(TSNode node, Frame &frame);
  Value evalBinary(TSNode node, Frame &frame);
  Value evalString(TSNode node, Frame &frame);
  Value evalSubscript(TSNode node, Frame &frame);
  Value evalComprehension(TSNode node, Frame &frame);
  std::optional<Value> attributeValue(const ClassRef &cls, const std::string &attr);
  std::optional<Value> registryValue(const std::string &spec, const std::string &attr);
  Value builtinCall(const std::string &name, const std::vector<Value> &args,
                    const std::map<std::string, Value> &kwargs, const std::string &text, bool &handled);
  Condition compare(const Value &a, const std::string &op, const Value &b, const std::string &text);
  Value valueOfBinding(Module *m, const std::string &name, const Binding &b);
  Value attributeOf(const Value &obj, const std::string &attr, const std::string &text);

  ModuleIndex &index_;
  Vocabulary vocab_;
  PluginRegistries plugins_;
  std::map<const void *, Value> assignCache_; ///< module-level values by node id
  std::set<const void *> inProgress_;
  std::map<const void *, Value> callCache_;   ///< zero-argument calls without a sink
  std::vector<ClassRef> backendClasses_;
  std::vector<GuardSite> activeGuards_;
  std::map<std::string, Value> pureCallCache_; ///< sink-less calls by function and arguments
  /// `self.X = ...` assignments, indexed once per body (initAttribute): per class body
  /// how many each target has, per __init__ body its direct ones; by node id.
  struct SelfAssignments {
    std::map<std::string, int> count;     ///< "self.X" -> assignments anywhere in the body
    std::map<std::string, TSNode> direct; ///< "self.X" -> the last one directly in the body
  };
  const SelfAssignments &selfAssignments(const ParsedModule &pm, TSNode body);
  /// Whether a method of `cls` or of a base assigns `self.NAME`.
  bool classSets(const ClassRef &cls, const std::string &name, int depth = 0);
  std::map<const void *, SelfAssignments> selfAssignments_;
  ClassRef lifecycleClass_;
  long steps_ = kStepBudget;
  int sinkDepth_ = 3; ///< calls deeper than this report no facts
  std::set<std::string> enginePackages_;
  int libraryDepthResets_ = 0; ///< engine-to-library calls on the stack walked as entries
  /// "module.getter" -> the JIT specs its first module-building assignment makes
  std::map<std::string, std::vector<std::pair<Condition, std::shared_ptr<const JitSpec>>>> getterSpecs_;

public:
  /// How deep a walk with a sink follows calls and still reports facts.
  void setSinkDepth(int depth) { sinkDepth_ = depth; }
  /// While set, `getattr(self, NAME, default)` on an instance of `cls` reads
  /// unknown where the class itself sets NAME: a walk of an object's
  /// lifecycle (built, then readied step by step) does not keep the state one
  /// step leaves for the next (`build()` checks what `check_support()` set).
  void setLifecycleClass(ClassRef cls) { lifecycleClass_ = cls; }
};

/// "The body of this try statement did not raise": a package atom where
/// the body imports (`import cudnn succeeds`), else a config atom.
Condition trySucceeds(const Module &m, TSNode tryStmt);

/// Kind of an undecidable expression, from its text: env, package, version, config.
OpaqueKind classifyOpaque(const std::string &text);

} // namespace archscope::py
