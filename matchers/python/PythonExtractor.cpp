//===--- PythonExtractor.cpp - predicates, backends, guards, oracles ----===//
// SPDX-License-Identifier: Apache-2.0
//
// 1. Backend catalog: enum classes of backends (enum_classes.scm), their
//    members as rows.
// 2. Predicates: module-level names that look like capability predicates,
//    resolved from their definitions by the interpreter.
// 3. Scope walks: each profile stage (or, without one, each stage
//    InferredScope.h finds) is walked from `true`; raises, backend
//    selections and dispatch branches become facts.
// 4. Library entries: what a backend reaches through indirection (profile
//    entries, functions a decorator registers under the backend's name) is
//    walked under `backend == b`.
// 5. Oracles (OracleReader.h): backend -> kernel classes -> device check,
//    and the ordered candidate list that auto-selection tries.
//===----------------------------------------------------------------------===//
#include "matchers/python/PythonExtractor.h"

#include "matchers/python/EntryWalks.h"
#include "matchers/python/FactSink.h"
#include "model/FormatNames.h"
#include "matchers/python/InferredAttributes.h"
#include "matchers/python/InferredScope.h"
#include "matchers/python/OracleReader.h"
#include "matchers/python/AnsweringLines.h"
#include "matchers/python/CapabilityTerms.h"
#include "matchers/python/ToolkitGatedFlags.h"
#include "matchers/python/ClosedArchTables.h"
#include "matchers/python/ConfigRegistries.h"
#include "matchers/python/ForeignPlatforms.h"
#include "matchers/python/Interpreter.h"
#include "matchers/source/TextSearch.h"
#include "model/PhaseTimer.h"

#include <llvm/Support/Parallel.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <regex>
#include <set>

namespace archscope::py {
namespace {
namespace fs = std::filesystem;

/// Whether a line of the file opens a backend enum: `class NAME(` for the
/// profile's enum names, else any `class ...Backend(...Enum...)`.
bool definesBackendClass(const std::string &text, const std::set<std::string> &enums) {
  for (size_t pos = text.find("Backend("); pos != std::string::npos; pos = text.find("Backend(", pos + 1)) {
    size_t bol = text.rfind('\n', pos);
    bol = bol == std::string::npos ? 0 : bol + 1;
    if (text.compare(bol, 6, "class ") != 0) continue;
    std::string line = text.substr(bol, text.find('\n', pos) - bol);
    if (enums.empty() ? line.find("Enum") != std::string::npos
                      : enums.count(line.substr(6, line.find('(') - 6)) > 0)
      return true;
  }
  return false;
}

/// The longest selector name an enum's name ends with, in snake case
/// (NvFp4MoeBackend: nv_fp4_moe_backend ends with moe_backend); 0 for none.
size_t selectorMatch(const std::string &enumName, const Vocabulary &vocab) {
  std::string snake;
  for (size_t i = 0; i < enumName.size(); ++i) {
    char c = enumName[i];
    if (std::isupper(static_cast<unsigned char>(c)) && i > 0 && !std::isupper(static_cast<unsigned char>(enumName[i - 1])))
      snake += '_';
    snake += char(std::tolower(static_cast<unsigned char>(c)));
  }
  size_t best = 0;
  for (const auto &s : vocab.selectors)
    if (snake.size() >= s.size() && snake.compare(snake.size() - s.size(), s.size(), s) == 0 &&
        (snake.size() == s.size() || snake[snake.size() - s.size() - 1] == '_'))
      best = std::max(best, s.size());
  return best;
}

std::vector<std::string> catalogBackends(ModuleIndex &index, Interpreter &in, Facts &facts) {
  std::vector<std::string> rows;
  std::map<std::string, std::vector<BackendFact>> byEnum; // enum class -> members, in file order
  std::map<std::string, std::string> enumPackage;         // enum class -> its top-level package
  const SourceTree &engine = index.trees()[0];
  std::vector<std::pair<const SourceTree *, const SourceFile *>> candidates;
  for (const auto &f : engine.files())
    if (const std::string *text = engine.read(f); text && definesBackendClass(*text, in.vocab().backendEnums))
      candidates.push_back({&engine, &f});
  index.prefetch(candidates);
  for (const auto &[treePtr, filePtr] : candidates) {
    const SourceFile &f = *filePtr;
    Module *m = index.moduleForFile(engine, f);
    enumClassesQuery().run(*m->parsed, m->parsed->root(), [&](const Query::Captures &caps) {
      TSNode cls = caps.find("enum.class")->second;
      ClassRef ref{m, cls};
      if (!in.isBackendEnum(ref)) return;
      in.addBackendClass(ref);
      enumPackage[in.className(ref)] = m->name.substr(0, m->name.find('.'));
      auto &members = byEnum[in.className(ref)];
      for (TSNode stmt : namedChildren(field(cls, "body"))) {
        if (type(stmt) != "expression_statement") continue;
        for (TSNode e : namedChildren(stmt)) {
          if (type(e) != "assignment" || type(field(e, "left")) != "identifier") continue;
          Value v = in.memberOf(ref, std::string(m->parsed->text(field(e, "left"))));
          if (!v.is(Value::Kind::EnumMember)) continue;
          members.push_back({v.text, in.className(ref), evidenceAt(*m, e)});
        }
      }
    });
  }
  // Without a profile's enums, the enums named most closely for a selector
  // (MoeRunnerBackend: moe_runner_backend) and for no other format are the
  // rows, where any is: SGLang's TransferBackend, MoeA2ABackend or
  // Fp8GemmRunnerBackend are other choices.
  std::set<std::string> enginePackages; // where the rows' enums live: the engine's own code
  size_t best = 0;
  if (in.vocab().backendEnums.empty())
    for (const auto &[cls, members] : byEnum)
      if (namesFormat(cls, in.vocab().quantName) != false) best = std::max(best, selectorMatch(cls, in.vocab()));
  for (const auto &[cls, members] : byEnum) {
    if (best > 0 && (selectorMatch(cls, in.vocab()) != best || namesFormat(cls, in.vocab().quantName) == false)) continue;
    // Only the rows' enums: their folders are where registries are read
    // (fused_a_gemm.py's FusedAGemmBackend would let jit_kernel's
    // `@register_dependency("cutlass")` pass for an entry of cutlass).
    for (const auto &b : members) {
      facts.backends.push_back(b);
      if (std::find(rows.begin(), rows.end(), b.name) == rows.end()) rows.push_back(b.name);
    }
    if (!members.empty()) enginePackages.insert(enumPackage[cls]);
  }
  in.setEnginePackages(std::move(enginePackages));
  return rows;
}

/// Names that promise a hardware answer ("is_sm120_supported", "is_blackwell").
bool namesHardware(const std::string &name) {
  static const std::regex re(
      R"(^_?(is|has|supports?|use|enable|check|can)_\w*(sm_?\d+\w*|blackwell|hopper|ampere|ada|lovelace|capability|arch|family|cuda_version)\w*$)",
      std::regex::icase);
  return std::regex_match(name, re) && name != "has_device_capability" &&
         name != "is_device_capability" && name != "is_device_capability_family";
}

/// Candidate predicate names: hardware-named ones, and any boolean-sounding
/// name (`is_fp4_marlin_supported`, `cutlass_fp4_supported`), kept only if
/// its definition turns out to read the device capability.
bool looksLikePredicate(const std::string &name) {
  static const std::regex boolish(R"(^_?(is|has|supports?|can)_\w+$|^\w+_supported$)");
  std::string_view n = name;
  if (!n.empty() && n[0] == '_') n.remove_prefix(1);
  bool plausible = n.starts_with("is_") || n.starts_with("has_") || n.starts_with("support") ||
                   n.starts_with("use_") || n.starts_with("enable_") || n.starts_with("check_") ||
                   n.starts_with("can_") || n.ends_with("_supported");
  return plausible && (namesHardware(name) || std::regex_match(name, boolish)); // cheap test first
}

/// Whether a function needs arguments beyond the device (`is_sm100a_supported(device)`).
bool needsArguments(Module *m, const Value &v) {
  if (!v.is(Value::Kind::Func)) return false;
  for (TSNode p : namedChildren(field(v.func.def, "parameters"))) {
    auto t = type(p);
    if (t != "identifier" && t != "typed_parameter") continue;
    TSNode name = t == "identifier" ? p : namedChildren(p)[0];
    auto n = m->parsed->text(name);
    if (n != "device" && n != "device_id" && n != "self" && n != "cls") return true;
  }
  return false;
}

/// Whether a file defines, at module level, a name that looks like a
/// predicate: a line starting with `def NAME` or `NAME =` whose name promises
/// a hardware answer, or a boolean-sounding name whose definition (up to the
/// next top-level line) mentions the hardware. A cheap scan: only such files
/// are parsed.
bool definesPredicate(const std::string &text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::string_view line(text.data() + pos, eol - pos);
    size_t next = eol + 1;
    if (line.rfind("def ", 0) == 0) line.remove_prefix(4);
    size_t end = 0;
    while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) ++end;
    std::string name(line.substr(0, end));
    if (end > 3 && looksLikePredicate(name)) {
      if (namesHardware(name)) return true;
      size_t stop = next; // the definition's extent: indented or blank lines
      while (stop < text.size() && (text[stop] == ' ' || text[stop] == '\t' || text[stop] == '\n' || text[stop] == ')')) {
        size_t e = text.find('\n', stop);
        stop = e == std::string::npos ? text.size() : e + 1;
      }
      if (mentionsHardware(std::string_view(text).substr(pos, stop - pos))) return true;
    }
    pos = next;
  }
  return false;
}

void collectPredicates(ModuleIndex &index, Interpreter &in, Facts &facts) {
  // Scan every file and parse the candidates on all cores; interpret after.
  std::vector<Module *> candidates = index.modulesWhere(definesPredicate);
  if (std::getenv("ARCHSCOPE_TIMING"))
    std::fprintf(stderr, "archscope: timing: %zu files define predicate-like names\n", candidates.size());
  for (Module *m : candidates) {
    for (const auto &[name, b] : m->symbols) {
      if (b.kind == Binding::Kind::Import || b.kind == Binding::Kind::Class || !looksLikePredicate(name))
        continue;
      in.resetBudget();
      Value v = in.resolveName(m, name);
      if (needsArguments(b.kind == Binding::Kind::Function ? m : v.func.mod, v)) continue;
      Frame frame{m, {}, 0, nullptr};
      FuncRef defined = v.is(Value::Kind::Func) || v.is(Value::Kind::Partial) ? v.func : FuncRef{}; // aliases, lru_cache, partial
      if (v.is(Value::Kind::Func) || v.is(Value::Kind::Partial))
        v = in.callValue(v, {}, {}, frame, name + "()");
      if (v.is(Value::Kind::None)) continue; // a checker that raises, not a predicate
      bool hardware = v.is(Value::Kind::Bool) && v.cond.readsHardware();
      if (!hardware && !namesHardware(name)) continue; // about packages, flags, shapes
      PredicateFact p;
      p.name = m->name + "." + name;
      TSNode site = b.site; // the `def` line, not its first decorator
      if (!ts_node_is_null(site) && std::string_view(ts_node_type(site)) == "decorated_definition")
        site = ts_node_child_by_field_name(site, "definition", 10);
      p.where = evidenceAt(*m, site);
      p.body = defined.mod ? answeringLine(*defined.mod, defined.def) : Evidence{};
      p.cond = v.is(Value::Kind::Bool) ? v.cond : Condition::unknown("not resolved: " + v.text);
      facts.predicates.push_back(std::move(p));
    }
  }
}

/// The functions a scope spec names, with the class each belongs to.
/// `@register_fused_func("deepep", "flashinfer_trtllm")`, `@register_attention_backend("triton")`:
/// a function put into a registry under a key runs only when its key is looked
/// up, not on every path through its module (walkRegistered walks the rows' own).
bool registeredUnderKey(const ParsedModule &pm, TSNode def) {
  TSNode decorated = ts_node_parent(def);
  if (isNull(decorated) || type(decorated) != "decorated_definition") return false;
  bool registered = false;
  registryDecoratorsQuery().run(pm, decorated, [&](const Query::Captures &caps) {
    auto target = caps.find("registry.target");
    registered |= target != caps.end() && ts_node_parent(target->second).id == def.id;
  });
  return registered;
}

std::vector<FuncRef> scopeFunctions(Interpreter &in, Module *m, const std::string &qualname) {
  std::vector<FuncRef> out;
  auto addClass = [&](const ClassRef &cls) {
    for (TSNode stmt : namedChildren(field(cls.def, "body"))) {
      TSNode def = type(stmt) == "decorated_definition" ? field(stmt, "definition") : stmt;
      if (type(def) != "function_definition") continue;
      Value v = in.memberOf(cls, std::string(m->parsed->text(field(def, "name"))));
      if (v.is(Value::Kind::Func)) out.push_back(v.func);
    }
  };
  if (qualname.empty()) { // a whole module: its functions and its classes' methods
    for (const auto &[name, b] : m->symbols) {
      if (b.kind == Binding::Kind::Function && !registeredUnderKey(*m->parsed, b.node))
        out.push_back(FuncRef{m, b.node, {}, false, false});
      if (b.kind == Binding::Kind::Class && !in.isBackendEnum(ClassRef{m, b.node})) addClass(ClassRef{m, b.node});
    }
    std::sort(out.begin(), out.end(), [](const FuncRef &a, const FuncRef &b) {
      return ts_node_start_byte(a.def) < ts_node_start_byte(b.def);
    });
    return out;
  }
  auto dot = qualname.find('.');
  Value head = in.resolveName(m, qualname.substr(0, dot));
  if (dot == std::string::npos) {
    if (head.is(Value::Kind::Func)) out.push_back(head.func);
    if (head.is(Value::Kind::Class)) addClass(head.cls);
    return out;
  }
  if (head.is(Value::Kind::Class)) {
    Value member = in.memberOf(head.cls, qualname.substr(dot + 1));
    if (member.is(Value::Kind::Func)) out.push_back(member.func);
  }
  return out;
}

/// Without a profile, the order of stages is unknown; the modules that
/// select a backend are taken to run before those that dispatch on it.
void runSelectingStagesFirst(Facts &facts, size_t firstFact) {
  std::set<int> selecting;
  for (size_t i = firstFact; i < facts.guards.size(); ++i)
    if (facts.guards[i].kind == GuardFact::Kind::Select) selecting.insert(facts.guards[i].order / 1000000);
  for (size_t i = firstFact; i < facts.guards.size(); ++i) {
    auto &g = facts.guards[i];
    int stage = g.order / 1000000;
    if (stage >= kEntryStage) continue; // library entries keep their place
    g.order = (selecting.count(stage) ? stage : stage + 500) * 1000000 + g.order % 1000000;
  }
}

/// Whether every stage the profile names exists: a profile naming a file or
/// function the tree lacks (an older revision) must change no verdict, so
/// such a scope is replaced by the inferred one.
bool scopeExists(ModuleIndex &index, Interpreter &in, const std::vector<ScopeSpec> &scope) {
  for (const auto &spec : scope) {
    Module *m = scopeModule(index, spec.file);
    if (!m || scopeFunctions(in, m, spec.qualname).empty()) return false;
  }
  return true;
}

/// Walks the functions of one stage into `sink` under its stage number.
void walkStage(ModuleIndex &index, Interpreter &in, const ScopeSpec &spec, int stage, bool inferred, FactSink &sink,
               Facts &facts) {
  Module *m = scopeModule(index, spec.file);
  if (!m) {
    facts.warnings.push_back("profile scope '" + spec.text() + "': file not found in the tree");
    return;
  }
  auto fns = scopeFunctions(in, m, spec.qualname);
  // A scope the profile names but that holds nothing is worth a warning; an
  // inferred one (a file that only defines the enum) is not.
  if (fns.empty() && !inferred) facts.warnings.push_back("profile scope '" + spec.text() + "': nothing found to walk");
  sink.setStage(stage);
  for (const auto &fn : fns) {
    Value self;
    self.kind = Value::Kind::Instance;
    self.cls = fn.owner;
    in.resetBudget();
    in.walkFunction(fn, {}, {}, Condition::truth(), &sink, 0, fn.owner.valid() ? &self : nullptr);
    if (!in.budgetLeft())
      facts.warnings.push_back(evidenceAt(*fn.mod, fn.def).path + ": the walk of '" +
                               std::string(fn.mod->parsed->text(field(fn.def, "name"))) +
                               "' hit the analysis budget; calls past it count as unknown");
  }
}

/// Whether `c` holds for no backend the code names, on any GPU: then it is
/// some backend's branch. Every capability up to 20.9 is tried, so a device
/// test false on one GPU (`cc >= (10, 0)` on an old one) is not taken for a
/// backend test.
bool falseWithoutBackend(const Condition &c) {
  if (!c.readsBackend()) return false;
  EvalEnv none;
  none.backend = "__no_backend__";
  return onEveryCapability(c, none, [](Tri t) { return t == Tri::False; });
}

void walkScopes(ModuleIndex &index, Interpreter &in, const QuantProfile &quant, const Vocabulary &vocab,
                const std::optional<QuantProfile> &oracle, FactSink &sink, Facts &facts) {
  // A profile with entries but no scope (a library audited alone) walks only
  // its entries; with neither, the scope is inferred.
  bool inferred = quant.scope.empty() && quant.entries.empty() && quant.kernelMap.empty();
  if (!quant.scope.empty() && !scopeExists(index, in, quant.scope)) {
    facts.warnings.push_back("profile scope of " + quant.name +
                             " names code this tree lacks; the scope is inferred from the code instead");
    inferred = true;
  }
  PhaseTimer timer;
  std::vector<ScopeSpec> scope = inferred ? quantStages(index, in, quant, vocab, oracle) : quant.scope;
  if (inferred) timer.lap("stages:inferred", std::to_string(scope.size()) + " format stages");
  size_t quantStageCount = inferred ? scope.size() : 0;
  std::vector<std::pair<const SourceTree *, const SourceFile *>> batch; // the broad modules, parsed ahead
  if (inferred) {
    // With format-specific stages, only the MoE modules not named for another
    // format can hold this format's dispatch (and walking all is most of the time).
    for (auto &spec : backendModules(index, in))
      if (quantStageCount == 0 || isMoeModule(spec.file, quant)) {
        if (const SourceFile *f = index.trees()[0].byRelPath(spec.file)) batch.push_back({&index.trees()[0], f});
        scope.push_back(std::move(spec));
      }
    timer.lap("stages:broad", std::to_string(scope.size() - quantStageCount) + " modules");
  }
  size_t firstFact = facts.guards.size(), firstBroadFact = SIZE_MAX;
  std::vector<std::pair<size_t, std::string>> broadStarts; // (first fact, module file) of each broad stage
  // The broad modules are walked beside the format stages, each by its own
  // copy of the interpreter as it stands before the format stages run, into
  // a sink of its own, on whichever core is free; their facts then merge in
  // stage order as if walked next (FactSink::mergeFollowing). A broad stage
  // sees no value another stage cached (with that stage's path conditions in
  // it), so what it finds does not depend on who walked what first.
  bool apart = quantStageCount > 0 && quantStageCount < scope.size();
  std::vector<Facts> broadFacts(apart ? scope.size() - quantStageCount : 0);
  std::atomic<size_t> nextBroad{0};
  std::optional<Interpreter> forked;
  if (apart) forked.emplace(in);
  auto walkBroad = [&, backends = facts.backends] {
    for (size_t k; (k = nextBroad++) < broadFacts.size();) {
      Interpreter own = *forked;
      broadFacts[k].backends = backends;
      FactSink ownSink(own, broadFacts[k], sink.backends());
      PhaseTimer stageTimer;
      walkStage(index, own, scope[quantStageCount + k], int(quantStageCount + k), inferred, ownSink, broadFacts[k]);
      stageTimer.lap("stage", scope[quantStageCount + k].text());
    }
  };
  std::future<void> broad;
  if (apart)
    broad = std::async(std::launch::async, [&] {
      index.prefetch(batch);
      walkBroad();
    });
  else
    index.prefetch(batch); // parsed on all cores before the serial walk
  for (size_t stage = 0; stage < (apart ? quantStageCount : scope.size()); ++stage) {
    if (stage == quantStageCount) firstBroadFact = facts.guards.size();
    if (stage >= quantStageCount) broadStarts.push_back({facts.guards.size(), scope[stage].file});
    walkStage(index, in, scope[stage], int(stage), inferred, sink, facts);
    timer.lap("stage", scope[stage].text());
  }
  if (apart) {
    walkBroad(); // the stages left, beside the other core
    broad.get();
    firstBroadFact = facts.guards.size();
    for (size_t k = 0; k < broadFacts.size(); ++k) {
      broadStarts.push_back({facts.guards.size(), scope[quantStageCount + k].file});
      sink.mergeFollowing(std::move(broadFacts[k]));
    }
  }
  if (!inferred) return;
  if (quantStageCount > 0 && firstBroadFact < facts.guards.size()) {
    // In the broad modules, a raise, selection, kernel call or allow-list
    // counts only inside a dispatch branch of some backend (false for a
    // backend the code never names): there it is that backend's path. Each
    // function there is walked on its own, so one reached unconditionally
    // (a library's `@supported_compute_capability` kernel) says nothing of
    // any backend. For the same reason a raise there rejects a backend only
    // where it tests the device: one on configuration alone is about the
    // mode its function serves (Muse Spark's sequence-parallel prefill
    // refusing Marlin), not about the backend on that GPU.
    // That holds in the MoE modules only, and not in those named for another
    // format (layers/quantization/mxfp4.py).
    std::vector<GuardFact> kept(facts.guards.begin(), facts.guards.begin() + long(firstBroadFact));
    size_t stage = 0;
    for (size_t i = firstBroadFact; i < facts.guards.size(); ++i) {
      while (stage + 1 < broadStarts.size() && broadStarts[stage + 1].first <= i) ++stage;
      const GuardFact &g = facts.guards[i];
      bool moeModule = isMoeModule(broadStarts[stage].second, quant);
      bool declared = g.kind == GuardFact::Kind::Declared;
      bool pathKind = declared || g.kind == GuardFact::Kind::Reject || g.kind == GuardFact::Kind::Select ||
                      g.kind == GuardFact::Kind::Calls;
      const Condition &path = declared ? g.reach : g.cond; // an allow-list's condition is the list
      bool configOnlyRaise = g.kind == GuardFact::Kind::Reject && !g.cond.readsHardware();
      if (!pathKind || (moeModule && falseWithoutBackend(path) && !configOnlyRaise)) kept.push_back(g);
    }
    facts.guards = std::move(kept);
  }
  runSelectingStagesFirst(facts, firstFact);
}

/// Resolves "pkg.mod.name.attr" to a value through modules and attributes.
Value resolveDotted(ModuleIndex &index, Interpreter &in, const std::string &dotted) {
  std::string mod = dotted;
  std::vector<std::string> attrs;
  while (!mod.empty()) {
    if (Module *m = index.module(mod)) {
      Value v;
      v.kind = Value::Kind::Module;
      v.name = m->name;
      for (auto it = attrs.rbegin(); it != attrs.rend(); ++it) {
        v = v.is(Value::Kind::Module) ? in.resolveName(index.module(v.name), *it)
            : v.is(Value::Kind::Class) ? in.memberOf(v.cls, *it)
                                       : Value::unknown(dotted);
      }
      return v;
    }
    auto p = mod.rfind('.');
    if (p == std::string::npos) break;
    attrs.push_back(mod.substr(p + 1));
    mod = mod.substr(0, p);
  }
  return Value::unknown(dotted);
}

/// The modules `home` imports at module level, transitively, that lie in
/// its own folder or below (a wrapper's kernels: `from .grouped_gemm import
/// run` whose file imports `from .blackwell.kernel import K`).
std::vector<std::string> importedBeside(ModuleIndex &index, Module *home) {
  std::string dir = std::filesystem::path(home->file->path).parent_path().string() + "/";
  std::vector<Module *> todo{home};
  std::set<Module *> seen{home};
  std::vector<std::string> out;
  while (!todo.empty() && out.size() < 64) {
    Module *m = todo.back();
    todo.pop_back();
    for (const auto &[name, b] : m->symbols) {
      if (b.kind != Binding::Kind::Import) continue;
      Module *target = index.module(b.fromModule);
      if (target && !b.name.empty())
        if (Module *sub = index.module(b.fromModule + "." + b.name)) target = sub;
      if (!target || !target->file || target->file->path.rfind(dir, 0) != 0 || !seen.insert(target).second) continue;
      out.push_back(target->file->path);
      todo.push_back(target);
    }
  }
  return out;
}

void walkEntries(ModuleIndex &index, Interpreter &in, const QuantProfile &quant, FactSink &sink, Facts &facts,
                 const std::string &source = "profile") {
  for (const auto &[backend, entries] : quant.entries) {
    for (const auto &entry : entries) {
      Value v = resolveDotted(index, in, entry);
      FuncRef fn;
      Value self;
      if (v.is(Value::Kind::Func)) fn = v.func;
      if (v.is(Value::Kind::Class)) {
        Value init = in.memberOf(v.cls, "__init__");
        if (init.is(Value::Kind::Func)) fn = init.func;
        self.kind = Value::Kind::Instance;
        self.cls = v.cls;
      }
      if (!fn.mod) {
        facts.warnings.push_back("profile entry '" + entry + "' for " + backend +
                                 ": not found in the given trees (pass the library with --with)");
        continue;
      }
      walkAsEntry(in, sink, facts, fn, self.cls.valid() ? &self : nullptr, backend,
                  evidenceAt(*fn.mod, fn.def, "kernel entry point of " + backend + " (" + source + ")"));
      if (self.cls.valid())
        for (auto &f : importedBeside(index, fn.mod)) facts.enteredFiles[backend].insert(f);
    }
  }
}

/// Whether the file may register a function for one of the rows by name:
/// a `@register...(` decorator and one row's name as a string literal.
bool mayRegisterBackends(const std::string &text, const std::vector<std::string> &rows) {
  if (text.find("@register") == std::string::npos) return false;
  for (const auto &row : rows)
    if (text.find("\"" + row + "\"") != std::string::npos || text.find("'" + row + "'") != std::string::npos)
      return true;
  return false;
}

/// Whether `path` lies in the folder of a file that defines the backend
/// enum (or below it): registries elsewhere share the backends' names for
/// other things (`@register_attention_backend("triton")`).
bool besideBackendEnum(const std::string &path, const std::vector<BackendFact> &backends) {
  for (const auto &b : backends) {
    std::string dir = std::filesystem::path(b.where.path).parent_path().string();
    if (path.compare(0, dir.size() + 1, dir + "/") == 0) return true;
  }
  return false;
}

/// A module named for a backend that nothing registers (SGLang's
/// `layers/moe/flashinfer_cutedsl_moe.py` before its moe_runner registry):
/// its public module-level functions are that backend's entries, but for
/// those named for another format (`cutlass_fused_experts_fp8`). Not where
/// an oracle maps backends to kernel classes.
void walkModulesNamedForRows(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                             const std::vector<std::string> &rows, FactSink &sink, Facts &facts) {
  const SourceTree &engine = index.trees()[0];
  for (const auto &f : engine.files()) {
    std::string stem = std::filesystem::path(f.relPath).stem().string();
    auto row = std::find_if(rows.begin(), rows.end(), [&](const std::string &r) { return stem == r + "_moe"; });
    if (row == rows.end() || outsideServingCode(f.relPath)) continue;
    Module *m = index.moduleForFile(engine, f);
    if (!m || !m->parsed) continue;
    for (TSNode def : namedChildren(m->parsed->root())) {
      if (type(def) != "function_definition") continue;
      std::string name(m->parsed->text(field(def, "name")));
      if (name.rfind('_', 0) == 0 || namesFormat(name, quant.name) == false) continue;
      FuncRef fn;
      fn.mod = m;
      fn.def = def;
      walkAsEntry(in, sink, facts, fn, nullptr, *row,
                  evidenceAt(*m, def, "an entry of " + *row + " (its module is named for it)"));
    }
  }
}

/// `@register_fused_func("deepep", "flashinfer_cutedsl")`: the entry runs
/// for that backend only with the registry's other keys configured so (an
/// all-to-all backend); "none" or "default" is what runs unless told.
Condition registeredFor(const std::vector<std::string> &keys, std::string_view decorator) {
  static const std::set<std::string> defaults{"none", "default", "auto", ""};
  for (const auto &k : keys)
    if (!defaults.count(k)) return Condition::opaque(OpaqueKind::Config, std::string(decorator) + " is the one configured");
  return Condition::truth();
}

/// Functions put into a backend registry by a decorator keyed by the
/// backend's name (`@register_fused_func("none", "marlin")`, SGLang's
/// FusedOpPool): the runner looks them up by that name, so each is an entry
/// of the backend, walked like a profile entry. A backend whose entries the
/// profile names is walked from those alone (they say where its registered
/// functions lead), which also spares walking the same library code twice.
void walkRegistered(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                    const std::vector<std::string> &allRows, FactSink &sink, Facts &facts) {
  std::vector<std::string> rows;
  for (const auto &r : allRows)
    if (!quant.entries.count(r)) rows.push_back(r);
  if (rows.empty()) return;
  const SourceTree &engine = index.trees()[0];
  std::vector<std::pair<const SourceTree *, const SourceFile *>> candidates;
  for (const auto &f : engine.files())
    if (const std::string *text = engine.read(f);
        text && besideBackendEnum(f.relPath, facts.backends) && mayRegisterBackends(*text, rows))
      candidates.push_back({&engine, &f});
  index.prefetch(candidates);
  const std::set<std::string> known(rows.begin(), rows.end());
  for (const auto &[tree, file] : candidates) {
    Module *m = index.moduleForFile(*tree, *file);
    if (!m || !m->parsed) continue;
    std::vector<std::pair<TSNode, std::string>> registered; // (function_definition, backend)
    std::map<const void *, std::vector<std::string>> otherKeys; // per definition: keys naming no row
    registryDecoratorsQuery().run(*m->parsed, m->parsed->root(), [&](const Query::Captures &caps) {
      auto key = caps.find("registry.key"), target = caps.find("registry.target");
      if (key == caps.end() || target == caps.end()) return;
      Frame frame{m, {}, Interpreter::kMaxDepth, nullptr};
      Value name = in.evalExpr(key->second, frame);
      TSNode def = ts_node_parent(target->second), scope = ts_node_parent(ts_node_parent(def));
      bool moduleLevel = !isNull(scope) && type(scope) == "module";
      if (!moduleLevel || !name.is(Value::Kind::Str)) return;
      if (known.count(name.text)) registered.push_back({def, name.text});
      else otherKeys[def.id].push_back(name.text);
    });
    for (const auto &[def, backend] : registered) {
      FuncRef fn;
      fn.mod = m;
      fn.def = def;
      TSNode decorator = ts_node_named_child(ts_node_parent(def), 0);
      walkAsEntry(in, sink, facts, fn, nullptr, backend, evidenceAt(*m, decorator, "registers an entry of " + backend),
                  registeredFor(otherKeys[def.id], m->parsed->text(decorator)));
      rows.erase(std::remove(rows.begin(), rows.end(), backend), rows.end());
    }
  }
  // An oracle names each backend's kernel classes itself (vLLM).
  if (quant.kernelMap.empty()) walkModulesNamedForRows(index, in, quant, rows, sink, facts);
}

/// Reads every Python file of every tree once, on all cores; the literal
/// prefilters then scan memory.
void readAllFiles(ModuleIndex &index) {
  std::vector<std::pair<const SourceTree *, const SourceFile *>> all;
  for (const auto &tree : index.trees())
    for (const auto &f : tree.files()) all.push_back({&tree, &f});
  llvm::parallelFor(0, all.size(), [&](size_t i) { all[i].first->read(*all[i].second); });
}

/// Parses the profile's scope and entry modules on all cores before the
/// (serial) walk needs them.
void prefetchDispatchCode(ModuleIndex &index, const QuantProfile &quant) {
  using FileRef = std::pair<const SourceTree *, const SourceFile *>;
  std::vector<FileRef> batch;
  auto addModule = [&](const std::string &name) {
    for (const auto &tree : index.trees())
      if (const SourceFile *f = tree.byModule(name)) { batch.push_back({&tree, f}); return true; }
    return false;
  };
  for (const auto &spec : quant.scope)
    for (const auto &tree : index.trees())
      if (const SourceFile *f = findProfileFile(tree, spec.file)) batch.push_back({&tree, f});
  for (const auto &[backend, entries] : quant.entries)
    for (std::string mod : entries)
      for (auto dot = mod.rfind('.'); !addModule(mod) && dot != std::string::npos; dot = mod.rfind('.'))
        mod = mod.substr(0, dot);
  index.prefetch(batch); // (their import closures are far larger than what the walk reads)
}

} // namespace

ExtractResult extractPython(ModuleIndex &index, const Profile &profile, const QuantProfile &quant,
                            const std::set<std::string> &extensionModules, bool lintFacts) {
  ExtractResult r;
  Vocabulary vocab{profile.selectors, profile.quantFlags, profile.backendEnums, profile.attributes, extensionModules,
                   quant.name};
  PhaseTimer timer;
  readAllFiles(index);
  inferCapabilityLists(index, vocab.attributeValues);
  inferAttributeRegistries(index, vocab.attributeValues);
  Interpreter in(index, vocab);
  timer.lap("read", std::to_string(index.parsedCount()) + " modules parsed so far");
  // The predicate table is independent of dispatch: it runs beside it, with
  // its own interpreter over the shared (thread-safe) module index.
  Facts predicateFacts;
  // std::async, not a bare thread: an exception reaches get() as a serial
  // call's would, and one thrown here meanwhile waits for the walk to end.
  auto predicates = std::async(std::launch::async, [&] {
    Interpreter own(index, vocab);
    collectPredicates(index, own, predicateFacts);
    if (!lintFacts) return;
    collectToolkitGatedFlags(index, predicateFacts);
    collectClosedArchTables(index, predicateFacts);
  });
  r.backends = catalogBackends(index, in, r.facts);
  r.backends.erase(std::remove(r.backends.begin(), r.backends.end(), "auto"), r.backends.end());
  timer.lap("backends", std::to_string(index.parsedCount()) + " modules parsed so far");
  // A library audited alone: its entry points are the rows.
  QuantProfile library;
  // An engine with no backend enum may name its backends as strings.
  if (r.backends.empty() && profile.backends.empty()) r.backends = stringBackends(index, quant, vocab);
  bool alone = r.backends.empty() && profile.backends.empty() && quant.entries.empty() && quant.scope.empty();
  if (alone) library = libraryEntries(index, in, quant, r.backends);
  const QuantProfile &walked = alone ? library : quant;
  prefetchDispatchCode(index, walked);
  FactSink sink(in, r.facts, profile.backends.empty() ? r.backends : profile.backends);
  // Without a profile's oracle, one found in the code.
  std::optional<QuantProfile> oracle =
      quant.kernelMap.empty() && quant.scope.empty() ? discoverOracle(index, quant) : std::nullopt;
  // The registered entries run beside the stages and the profile's entries,
  // with an interpreter of their own: they are of other backends (rows the
  // profile names entries for are not walked there), so their facts merge in
  // after, in the order one walk after the other gives.
  const std::vector<std::string> &rows = profile.backends.empty() ? r.backends : profile.backends;
  Facts registeredFacts;
  registeredFacts.backends = r.facts.backends;
  auto registered = std::async(std::launch::async, [&] {
    Interpreter own(index, vocab);
    own.setEnginePackages(in.enginePackages());
    FactSink ownSink(own, registeredFacts, rows);
    walkRegistered(index, own, oracle ? *oracle : quant, rows, ownSink, registeredFacts);
  });
  if (!alone) walkScopes(index, in, quant, vocab, oracle, sink, r.facts);
  timer.lap("dispatch:stages", std::to_string(index.parsedCount()) + " modules parsed so far");
  walkEntries(index, in, walked, sink, r.facts, alone ? "a public entry point of the library" : "profile");
  // A library's registry gives rows when it is audited alone; with a
  // library profile (entries, no stages) its rows are the profile's, but the
  // registry's facts are still there for lint (field bug 14's `supported`).
  if (alone) readConfigRegistries(index, in, quant, r.backends, sink, r.facts);
  else if (quant.scope.empty() && !quant.entries.empty()) {
    std::vector<std::string> notRows = r.backends;
    readConfigRegistries(index, in, quant, notRows, sink, r.facts);
  }
  timer.lap("dispatch:entries", std::to_string(index.parsedCount()) + " modules parsed so far");
  registered.get();
  registeredFacts.backends.clear();
  sink.mergeLater(std::move(registeredFacts));
  timer.lap("dispatch:registered", std::to_string(index.parsedCount()) + " modules parsed so far");
  readOracle(index, in, oracle ? *oracle : quant, r.backends, r.facts);
  timer.lap("dispatch:oracle", std::to_string(index.parsedCount()) + " modules parsed so far");
  markForeignPlatforms(index, rows, r.facts);
  predicates.get();
  timer.lap("predicates", std::to_string(index.parsedCount()) + " modules parsed so far");
  r.facts.predicates = std::move(predicateFacts.predicates);
  r.facts.toolkitGatedFlags = std::move(predicateFacts.toolkitGatedFlags);
  r.facts.closedArchTables = std::move(predicateFacts.closedArchTables);
  for (auto &w : predicateFacts.warnings) r.facts.warnings.push_back(std::move(w));
  for (const auto &tree : index.trees())
    for (auto &w : tree.warnings()) r.facts.warnings.push_back(w);
  for (auto &w : index.warnings()) r.facts.warnings.push_back(w);
  r.modulesParsed = index.parsedCount();
  return r;
}

} // namespace archscope::py
