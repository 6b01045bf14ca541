//===--- FactSink.cpp - walk results -> guard facts ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/python/FactSink.h"

#include "matchers/python/CapabilityTerms.h"

#include <algorithm>
#include <filesystem>
#include <set>

namespace archscope::py {

/// The tree a fact belongs to: "" for the engine, else the dependency's folder.
std::string treeOf(const Module &m) {
  if (m.tree->role() == "engine") return "";
  return std::filesystem::path(m.tree->root()).filename().string();
}

Evidence evidenceAt(const Module &m, TSNode node, const std::string &note) {
  Evidence e;
  e.path = m.file->relPath;
  if (m.tree->role() != "engine")
    e.path = std::filesystem::path(m.tree->root()).filename().string() + "/" + e.path;
  e.line = m.parsed->line(node);
  e.col = m.parsed->col(node);
  e.layer = "python";
  e.snippet = m.parsed->snippet(node);
  e.note = note;
  return e;
}

namespace {

/// What makes two facts one: a select of the same site and path condition
/// (whatever it selects), a dispatch branch per backend, a kernel call per
/// entry, backend and path condition (one site calls each JIT module a branch
/// chose), or an allow-list per backend and path condition. Raises merge per
/// stage instead. Conditions by hash: two long ones may print the same.
std::string factKey(GuardFact::Kind kind, const std::string &backend, const Evidence &at, const Condition &reach) {
  std::string where = at.path + std::to_string(at.line);
  if (kind == GuardFact::Kind::Route) return "B" + backend + where;
  std::string cond = std::to_string(reach.hash());
  switch (kind) {
  case GuardFact::Kind::Select: return "S" + where + cond;
  case GuardFact::Kind::Calls: return "K" + where + at.note + backend + cond; // the note names the entry
  case GuardFact::Kind::Library: return "L" + where + at.note + backend + cond;
  case GuardFact::Kind::Declared: return "D" + where + backend + cond;
  default: return "";
  }
}

std::string rejectKey(const Evidence &at, const std::string &backend, int stage) {
  return at.path + ":" + std::to_string(at.line) + "|" + backend + "|" + std::to_string(stage);
}

/// Whether some row is named after `package` (flashinfer_trtllm after
/// flashinfer): a kernel library the engine dispatches to. Not the packages
/// that compile the trees' own kernels (a @triton.jit function, a CuTe DSL
/// kernel), which a `triton` row is named after too.
bool namesKernelLibrary(const std::vector<std::string> &rows, const std::string &package) {
  static const std::set<std::string> compilers = {"triton", "cutlass", "cute", "tilelang",
                                                  "torch",  "cuda",    "numba"};
  if (package.empty() || compilers.count(package)) return false;
  auto namedAfter = [&](const std::string &row) { return row == package || row.starts_with(package + "_"); };
  return std::any_of(rows.begin(), rows.end(), namedAfter);
}

} // namespace

std::vector<std::pair<Condition, Evidence>> FactSink::context() const {
  std::vector<std::pair<Condition, Evidence>> out;
  for (const auto &g : in_.activeGuards())
    if (g.cond.readsHardware() && out.size() < 4) out.push_back({g.cond, evidenceAt(*g.mod, g.node)});
  return out;
}

void FactSink::mergeLater(Facts &&later) {
  auto site = [](const GuardFact &g) {
    const Evidence &e = g.chain.front();
    return std::to_string(int(g.kind)) + g.backend + e.path + ":" + std::to_string(e.line) + "|" +
           (g.kind == GuardFact::Kind::Route      ? ""
            : g.kind == GuardFact::Kind::Declared ? g.reach.str()
                                                  : g.cond.str());
  };
  std::set<std::string> held;
  for (const auto &g : facts_.guards)
    if (!g.chain.empty()) held.insert(site(g));
  int offset = seq_;
  for (auto &g : later.guards) {
    if (!g.chain.empty() && g.kind != GuardFact::Kind::Reject && !held.insert(site(g)).second) continue;
    if (g.order != 0) {
      g.order += offset;
      seq_ = std::max(seq_, g.order % kStageSpan);
    }
    facts_.guards.push_back(std::move(g));
  }
  facts_.dispatched.insert(later.dispatched.begin(), later.dispatched.end());
  for (auto &[backend, files] : later.enteredFiles) facts_.enteredFiles[backend].insert(files.begin(), files.end());
  for (auto &w : later.warnings) facts_.warnings.push_back(std::move(w));
}

void FactSink::mergeFollowing(Facts &&later) {
  for (auto &g : later.guards) {
    const Evidence &at = g.chain.front();
    bool reject = g.kind == GuardFact::Kind::Reject;
    if (!reject && seen(factKey(g.kind, g.backend, at, g.kind == GuardFact::Kind::Declared ? g.reach : g.cond)))
      continue;
    if (g.order != 0) g.order = g.order / kStageSpan * kStageSpan + ++seq_;
    if (reject) rejectIndex_[rejectKey(at, g.backend, g.order / kStageSpan)] = facts_.guards.size();
    facts_.guards.push_back(std::move(g));
  }
  facts_.dispatched.insert(later.dispatched.begin(), later.dispatched.end());
  for (auto &[backend, files] : later.enteredFiles) facts_.enteredFiles[backend].insert(files.begin(), files.end());
  for (auto &w : later.warnings) facts_.warnings.push_back(std::move(w));
}

void FactSink::raised(const Condition &reach, Module &m, TSNode site) {
  if (reach.isFalse() || !(reach.readsHardware() || reach.readsBackend() || !backend_.empty())) return;
  auto ev = evidenceAt(m, site);
  std::string key = rejectKey(ev, backend_, stage_);
  if (auto it = rejectIndex_.find(key); it != rejectIndex_.end()) {
    auto &g = facts_.guards[it->second];
    g.cond = g.cond || reach; // the same raise reached on another path
    return;
  }
  GuardFact g;
  g.kind = GuardFact::Kind::Reject;
  g.order = nextOrder();
  g.cond = reach;
  g.backend = backend_;
  g.tree = treeOf(m);
  g.chain.push_back(ev);
  g.context = context();
  rejectIndex_[key] = facts_.guards.size();
  facts_.guards.push_back(std::move(g));
}

void FactSink::selected(const Condition &reach, const std::string &backend, Module &m, TSNode site) {
  if (reach.isFalse() || backend == "auto") return;
  if (!backends_.empty() && std::find(backends_.begin(), backends_.end(), backend) == backends_.end())
    return; // a string assigned to a variable named like a selector, not a backend
  facts_.dispatched.insert(backend); // what auto picks is reachable
  auto ev = evidenceAt(m, site, "selects " + backend);
  if (seen(factKey(GuardFact::Kind::Select, backend, ev, reach))) return;
  GuardFact g;
  g.kind = GuardFact::Kind::Select;
  g.cond = reach;
  g.backend = backend;
  g.order = nextOrder();
  g.tree = treeOf(m);
  g.chain.push_back(ev);
  g.context = context();
  facts_.guards.push_back(std::move(g));
}

void FactSink::branched(const Condition &cond, const Condition &reach, Module &m, TSNode site) {
  if (!cond.readsBackend()) return;
  EvalEnv none;
  none.backend = "__no_backend__";
  if (cond.eval(none) != Tri::False) return;
  for (const auto &b : backends_) {
    EvalEnv env;
    env.backend = b;
    if (cond.eval(env) == Tri::False) continue;
    auto ev = evidenceAt(m, site, "dispatch branch for " + b);
    if (seen(factKey(GuardFact::Kind::Route, b, ev, reach))) continue;
    facts_.dispatched.insert(b);
    GuardFact g;
    g.kind = GuardFact::Kind::Route;
    g.cond = reach && cond;
    g.backend = b;
    g.tree = treeOf(m);
    g.chain.push_back(ev);
    facts_.guards.push_back(std::move(g));
  }
}

void FactSink::kernelCalled(const Condition &reach, const std::string &entry, Module &m, TSNode site,
                            const JitSpec *spec, bool familiesOnly) {
  if (reach.isFalse()) return;
  std::string note = isKeptModuleEntry(entry)
                         ? "keeps the JIT module " + entry.substr(0, entry.size() - 2) + " to call later"
                         : "calls " + entry;
  auto ev = evidenceAt(m, site, note);
  if (seen(factKey(GuardFact::Kind::Calls, backend_, ev, reach))) return;
  GuardFact g = callAt(GuardFact::Kind::Calls, reach, entry, m, std::move(ev));
  if (spec && familiesOnly) g.familySources = spec->sources;
  else if (spec) g.jitSources = spec->sources, g.jitFlags = spec->flags, g.jitFlagsUnsure = spec->unsureFlags;
  if (spec) g.cubinArtifacts = spec->artifacts;
  facts_.guards.push_back(std::move(g));
}

void FactSink::libraryCalled(const Condition &reach, const std::string &dotted, Module &m, TSNode site) {
  std::string package = dotted.substr(0, dotted.find('.'));
  // On one backend's way: its entry walk, or a branch on the backend choice.
  bool onesWay = !backend_.empty() || reach.readsBackend();
  if (reach.isFalse() || !onesWay || !namesKernelLibrary(backends_, package)) return;
  auto ev = evidenceAt(m, site, "calls " + dotted + ": `" + package + "` is in none of the given trees");
  if (seen(factKey(GuardFact::Kind::Library, backend_, ev, reach))) return;
  facts_.guards.push_back(callAt(GuardFact::Kind::Library, reach, dotted, m, std::move(ev)));
}

GuardFact FactSink::callAt(GuardFact::Kind kind, const Condition &reach, const std::string &entry, Module &m,
                           Evidence ev) const {
  GuardFact g;
  g.kind = kind;
  g.cond = reach;
  g.backend = backend_;
  g.entry = entry;
  g.tree = treeOf(m);
  g.chain.push_back(std::move(ev));
  return g;
}

void FactSink::entered(const FuncRef &fn, const Condition &reach) {
  if (!backend_.empty() && fn.mod && fn.mod->file) facts_.enteredFiles[backend_].insert(fn.mod->file->path);
  // @supported_compute_capability([...]) on the function (or its class's
  // __init__) declares an allow-list; alone it enforces nothing.
  TSNode parent = ts_node_parent(fn.def);
  if (isNull(parent) || type(parent) != "decorated_definition") return;
  archDecoratorsQuery().run(*fn.mod->parsed, parent, [&](const Query::Captures &caps) {
    auto args = caps.find("decorator.args");
    if (args == caps.end()) return;
    Frame f{fn.mod, {}, Interpreter::kMaxDepth, nullptr};
    auto list = namedChildren(args->second);
    if (list.empty()) return;
    Value ccs = in_.evalExpr(list[0], f);
    if (!ccs.is(Value::Kind::Tuple)) return;
    Linear sm = smLinear();
    Condition allow = Condition::falsity();
    std::string text = fn.mod->parsed->snippet(ts_node_parent(args->second));
    for (const auto &cc : ccs.items)
      if (cc.is(Value::Kind::Int))
        allow = allow || Condition::compare({sm}, CmpOp::Eq, {Linear::constantOf(cc.i)}, text);
    auto ev = evidenceAt(*fn.mod, ts_node_parent(args->second));
    if (seen(factKey(GuardFact::Kind::Declared, backend_, ev, reach))) return;
    GuardFact g;
    g.kind = GuardFact::Kind::Declared;
    g.cond = allow;
    g.reach = reach;
    g.backend = backend_;
    g.tree = treeOf(*fn.mod);
    g.chain.push_back(ev);
    facts_.guards.push_back(std::move(g));
  });
}

} // namespace archscope::py
