//===--- ConfigRegistries.cpp - a library's registry of backend configs -===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/ConfigRegistries.h"

#include "matchers/python/AnsweringLines.h"
#include "matchers/python/EntryWalks.h"
#include "model/FormatNames.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace archscope::py {
namespace {

/// One `CONFIG: RUNNER` pair of a registry.
struct RegistryPair {
  std::string registry, config, runner;
  TSNode pair;
};

std::vector<RegistryPair> pairsIn(const ParsedModule &pm) {
  std::vector<RegistryPair> out;
  configRegistriesQuery().run(pm, pm.root(), [&](const Query::Captures &caps) {
    auto get = [&](const char *c) { return caps.find(c)->second; };
    out.push_back({std::string(pm.text(get("registry.name"))), std::string(pm.text(get("registry.config"))),
                   std::string(pm.text(get("registry.runner"))), get("registry.pair")});
  });
  return out;
}

/// The calls `X.supported(ARG)` of one argument in `node`.
void supportedCalls(const ParsedModule &pm, TSNode node, std::vector<TSNode> &out) {
  if (type(node) == "call") {
    TSNode fn = field(node, "function"), args = field(node, "arguments");
    if (type(fn) == "attribute" && pm.text(field(fn, "attribute")) == "supported" && !isNull(args) &&
        namedChildren(args).size() == 1)
      out.push_back(node);
  }
  for (TSNode c : namedChildren(node))
    supportedCalls(pm, c, out);
}

/// The function that asks the configs (`cfg.supported(arch)`), as far as the
/// rows need it: what it passes, and what it does with the runner it builds.
struct RegistryUse {
  std::optional<Value> arch; ///< nullopt where that is not a capability
  Evidence askedAt;
  /// The methods called on the runner built from the registry, in order
  /// (`runner = runner_cls(...)`, `runner.check_support()`, `runner.build()`).
  std::vector<std::string> lifecycle;
};

/// The assignments `name = EXPR` in `node`, nested functions left out.
void assignments(const ParsedModule &pm, TSNode node, std::vector<std::pair<std::string, TSNode>> &out) {
  if (type(node) == "function_definition" || type(node) == "class_definition")
    return;
  if (type(node) == "assignment" && type(field(node, "left")) == "identifier" &&
      !isNull(field(node, "right")))
    out.push_back({std::string(pm.text(field(node, "left"))), field(node, "right")});
  for (TSNode c : namedChildren(node))
    assignments(pm, c, out);
}

/// Calls `VAR.METHOD(...)` in `node`, in source order.
void methodCalls(const ParsedModule &pm, TSNode node, const std::set<std::string> &vars,
                 std::vector<std::string> &out) {
  if (type(node) == "call" && type(field(node, "function")) == "attribute") {
    TSNode fn = field(node, "function"), obj = field(fn, "object");
    std::string method(pm.text(field(fn, "attribute")));
    if (type(obj) == "identifier" && vars.count(std::string(pm.text(obj))) &&
        std::find(out.begin(), out.end(), method) == out.end())
      out.push_back(method);
  }
  for (TSNode c : namedChildren(node))
    methodCalls(pm, c, vars, out);
}

/// What `def` calls on the runners it builds from `registry`:
/// `cls = REGISTRY.get(...)` or `REGISTRY[...]`, then `runner = cls(...)`.
std::vector<std::string> lifecycleOf(const ParsedModule &pm, TSNode def, const std::string &registry) {
  std::vector<std::pair<std::string, TSNode>> all;
  assignments(pm, field(def, "body"), all);
  std::set<std::string> classes, runners;
  for (const auto &[name, right] : all) {
    TSNode from = type(right) == "call" ? field(field(right, "function"), "object") : field(right, "value");
    if ((type(right) == "call" || type(right) == "subscript") && !isNull(from) && pm.text(from) == registry)
      classes.insert(name);
  }
  for (const auto &[name, right] : all)
    if (type(right) == "call" && classes.count(std::string(pm.text(field(right, "function")))))
      runners.insert(name);
  std::vector<std::string> out;
  if (!runners.empty())
    methodCalls(pm, field(def, "body"), runners, out);
  return out;
}

/// How the registry's module uses `registry`: the argument of its
/// `cfg.supported(arch)`, evaluated over the assignments that come before it
/// in its function (`major, minor = get_compute_capability(...)`, `arch =
/// major * 10 + minor`), and what that function calls on the runners.
RegistryUse useOf(Interpreter &in, Module &m, const std::string &registry) {
  const ParsedModule &pm = *m.parsed;
  RegistryUse use;
  std::vector<TSNode> calls;
  supportedCalls(pm, pm.root(), calls);
  for (TSNode call : calls) {
    TSNode def = enclosingFunction(call);
    if (isNull(def))
      continue;
    Frame f{&m, {}, 1, nullptr};
    std::vector<TSNode> before;
    for (TSNode stmt : namedChildren(field(def, "body"))) {
      if (ts_node_end_byte(stmt) >= ts_node_start_byte(call))
        break;
      before.push_back(stmt);
    }
    in.walkStatements(before, f);
    Value arch = in.evalExpr(namedChildren(field(call, "arguments"))[0], f);
    if (!arch.is(Value::Kind::Sym))
      continue;
    use.arch = arch;
    use.askedAt = evidenceAt(m, call, "asks each config whether it runs here");
    use.lifecycle = lifecycleOf(pm, def, registry);
    break;
  }
  return use;
}

/// The Support guard of one config: its `supported` asked with `arch`.
GuardFact supportOf(Interpreter &in, const Value &config, const FuncRef &supported, const std::string &row,
                    const RegistryUse &use) {
  GuardFact g;
  g.kind = GuardFact::Kind::Support;
  g.backend = row;
  g.chain.push_back(evidenceAt(*supported.mod, supported.def, row + ".supported"));
  if (Evidence body = answeringLine(*supported.mod, supported.def); !body.path.empty())
    g.chain.push_back(body);
  if (!use.arch) {
    g.cond = Condition::unknown("what " + row + ".supported is asked with");
    return g;
  }
  g.chain.push_back(use.askedAt);
  g.cond = in.toCond(in.walkFunction(supported, {*use.arch}, {}, Condition::truth(), nullptr, 1, &config));
  return g;
}

/// Files that may hold a registry and its use: a dict and a `.supported(` call.
bool mayHoldRegistry(const std::string &text) {
  return text.find(".supported(") != std::string::npos && text.find("= {") != std::string::npos;
}

} // namespace

void readConfigRegistries(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                          std::vector<std::string> &rows, FactSink &sink, Facts &facts) {
  const SourceTree &library = index.trees()[0];
  for (const auto &file : library.files()) {
    const std::string *text = library.read(file);
    if (!text || !mayHoldRegistry(*text))
      continue;
    Module *m = index.moduleForFile(library, file);
    if (!m || !m->parsed)
      continue;
    std::map<std::string, RegistryUse> uses;
    for (const auto &p : pairsIn(*m->parsed)) {
      if (!uses.count(p.registry))
        uses[p.registry] = useOf(in, *m, p.registry);
      const RegistryUse &use = uses[p.registry];
      in.resetBudget();
      Value config = in.resolveName(m, p.config), runner = in.resolveName(m, p.runner);
      if (!config.is(Value::Kind::Class) || !runner.is(Value::Kind::Class))
        continue;
      Value supported = in.memberOf(config.cls, "supported");
      if (!supported.is(Value::Kind::Func))
        continue;
      // A config or runner named for another format is another format's row.
      if (namesFormat(p.config, quant.name) == false || namesFormat(p.runner, quant.name) == false)
        continue;
      Value init = in.memberOf(runner.cls, "__init__");
      if (!init.is(Value::Kind::Func) || std::find(rows.begin(), rows.end(), p.config) != rows.end())
        continue;
      rows.push_back(p.config);
      facts.guards.push_back(supportOf(in, config, supported.func, p.config, use));
      Value self;
      self.kind = Value::Kind::Instance;
      self.cls = runner.cls;
      // Built, then readied as the layer readies it; `forward` is not
      // walked: it checks state those steps set, which the walk does not keep.
      std::vector<FuncRef> then;
      for (const auto &method : use.lifecycle)
        if (Value v = in.memberOf(runner.cls, method); v.is(Value::Kind::Func))
          then.push_back(v.func);
      in.setLifecycleClass(runner.cls);
      walkAsEntry(in, sink, facts, init.func, &self, p.config,
                  evidenceAt(*m, p.pair, p.config + " runs " + p.runner + " (" + p.registry + ")"),
                  Condition::truth(), then);
      in.setLifecycleClass({});
    }
  }
}

} // namespace archscope::py
