//===--- InterpreterCall.cpp - calls, builtins and class members --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Builtins are the capability and platform vocabulary of the engines
// (torch.cuda.get_device_capability, current_platform.is_device_capability,
// is_device_capability_family, has_device_capability, version checks,
// is_cuda/is_hip) plus the wrappers that must be seen through (partial,
// lru_cache, functools.cache). Everything else is interpreted from source.
//===----------------------------------------------------------------------===//
#include "matchers/python/Interpreter.h"

#include "matchers/python/CapabilityTerms.h"
#include "model/Facts.h"
#include "model/FormatNames.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace archscope::py {
namespace {

std::string lastComponent(const std::string &dotted) {
  auto p = dotted.rfind('.');
  return p == std::string::npos ? dotted : dotted.substr(p + 1);
}


/// `100` -> sm == 100; `(10, 0)` -> (major, minor) == (10, 0).
Condition capabilityCompare(const Value &arg, CmpOp op, const std::string &text) {
  if (arg.is(Value::Kind::Int)) return Condition::compare({smLinear()}, op, {Linear::constantOf(arg.i)}, text);
  if (arg.is(Value::Kind::Tuple) && arg.items.size() == 2 && arg.items[0].is(Value::Kind::Int) &&
      arg.items[1].is(Value::Kind::Int))
    return Condition::compare({Linear::var(SymVar::CcMajor), Linear::var(SymVar::CcMinor)}, op,
                              {Linear::constantOf(arg.items[0].i), Linear::constantOf(arg.items[1].i)}, text);
  return Condition::opaque(OpaqueKind::Config, text);
}

const std::set<std::string> kTruePlatform = {"is_cuda", "is_cuda_alike"};
const std::set<std::string> kFalsePlatform = {"is_hip", "is_rocm", "is_npu", "is_xpu", "is_cpu",
                                              "is_musa", "is_hpu", "is_mps", "is_tpu"};
const std::set<std::string> kWrappers = {"lru_cache", "cache", "cached", "wraps", "cache_on_self",
                                         "staticmethod", "classmethod", "property"};
const std::set<std::string> kPassThrough = {"tuple", "list", "int", "sorted", "set", "frozenset", "str"};

/// str.lower(), str.upper() and str.strip() of a known string.
std::string stringMethod(std::string s, const std::string &method) {
  if (method == "strip") {
    size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  }
  for (char &c : s) {
    auto u = static_cast<unsigned char>(c);
    c = char(method == "lower" ? std::tolower(u) : std::toupper(u));
  }
  return s;
}

/// next(iterable, default): the first item known to be there, when every
/// item before it is known not to be; unknown when that depends on the GPU.
Value firstPresent(const Value &items, const Value &fallback, const std::string &text) {
  if (items.open) return Value::unknown(text);
  for (size_t i = 0; i < items.items.size(); ++i) {
    const Condition there = items.present.empty() ? Condition::truth() : items.present[i];
    if (there.isTrue()) return items.items[i];
    if (!there.isFalse()) return Value::unknown(text);
  }
  return fallback;
}

/// `has_flashinfer()`, `is_b12x_available()`: whether a package imports. Such
/// probes stay opaque (package atoms that split cells) rather than being
/// interpreted; names about the hardware (`has_sm89_capability`) are not probes.
bool isPackageProbe(const std::string &name) {
  static const std::regex probe(R"(^_?(has_\w+|is_\w+_available|\w+_available|find_spec)$)");
  static const std::regex hardware(R"((capability|sm_?\d|arch|blackwell|hopper|ampere|cuda_version))");
  return std::regex_match(name, probe) && !std::regex_search(name, hardware);
}

/// A short key for an argument value; values that print alike are treated alike.
std::string callKey(const Value &v) {
  std::string k = std::to_string(int(v.kind)) + ":";
  switch (v.kind) {
  case Value::Kind::Int: return k + std::to_string(v.i);
  case Value::Kind::Bool: return k + v.cond.str();
  case Value::Kind::Sym: {
    for (long c : v.lin.coef) k += std::to_string(c) + ",";
    return k + std::to_string(v.lin.constant) + (v.symIsString ? "s" : "");
  }
  case Value::Kind::Tuple:
    for (const auto &item : v.items) k += callKey(item) + ";";
    return k;
  case Value::Kind::Func: case Value::Kind::Partial:
    return k + std::to_string(reinterpret_cast<uintptr_t>(v.func.def.id)) + v.name;
  case Value::Kind::Class: case Value::Kind::Instance:
    return k + std::to_string(reinterpret_cast<uintptr_t>(v.cls.def.id)) + v.name;
  default: return k + v.text + "|" + v.name;
  }
}

/// Functions that describe a JIT-built module: their value is the module.
bool isJitBuilder(const std::string &name) { return name == "gen_jit_spec" || name == "load_jit"; }

void addStrings(const Value *list, std::vector<std::string> &out, bool flagsOnly) {
  if (!list || !list->is(Value::Kind::Tuple)) return;
  for (const auto &v : list->items)
    if (v.is(Value::Kind::Str) && (!flagsOnly || v.text.rfind("-D", 0) == 0 || v.text.rfind("-U", 0) == 0))
      out.push_back(v.text);
}

/// What a flag list holds beyond its literal strings (JitSpec::unsureFlags).
void addUnsure(const Value *list, std::vector<std::string> &out) {
  if (!list) return;
  if (!list->is(Value::Kind::Tuple) || list->open) out.push_back("...");
  if (list->is(Value::Kind::Tuple))
    for (const auto &v : list->items)
      if (!v.is(Value::Kind::Str)) out.push_back(v.text.empty() ? "..." : v.text);
}

/// gen_jit_spec(name, sources, extra_cflags=, extra_cuda_cflags=, ...) and
/// load_jit(*names, cpp_files=, cuda_files=, extra_cuda_cflags=, ...).
Value jitModuleFrom(const std::vector<Value> &args, const std::map<std::string, Value> &kwargs) {
  auto spec = std::make_shared<JitSpec>();
  auto kw = [&](const char *k) -> const Value * {
    auto it = kwargs.find(k);
    return it == kwargs.end() ? nullptr : &it->second;
  };
  if (!args.empty() && args[0].is(Value::Kind::Str)) spec->name = args[0].text;
  if (const Value *n = kw("name"); n && n->is(Value::Kind::Str)) spec->name = n->text;
  if (args.size() >= 2) addStrings(&args[1], spec->sources, false);
  for (const char *k : {"sources", "cuda_files", "cpp_files"}) addStrings(kw(k), spec->sources, false);
  for (const char *k : {"extra_cuda_cflags", "extra_cflags"}) {
    addStrings(kw(k), spec->flags, true);
    addUnsure(kw(k), spec->unsureFlags);
  }
  Value v;
  v.kind = Value::Kind::JitModule;
  v.text = spec->name;
  v.jit.push_back({Condition::truth(), std::move(spec)});
  return v;
}

} // namespace

Value Interpreter::builtinCall(const std::string &dotted, const std::vector<Value> &args,
                               const std::map<std::string, Value> &kwargs, const std::string &text,
                               bool &handled) {
  using K = Value::Kind;
  handled = true;
  std::string name = lastComponent(dotted);
  auto arg = [&](size_t i, const char *kw) -> const Value * {
    if (i < args.size()) return &args[i];
    auto it = kwargs.find(kw);
    return it == kwargs.end() ? nullptr : &it->second;
  };
  // torch.cuda.get_device_properties(d): its .major and .minor are the
  // capability (FlashInfer's get_compute_capability reads them).
  if (name == "get_device_capability" || dotted == "torch.cuda.get_device_properties") return capabilityTuple();
  if (name == "is_device_capability" || name == "is_device_capability_family" ||
      name == "has_device_capability") {
    const Value *a = arg(0, "capability");
    if (!a) return Value::unknown(text);
    if (name == "is_device_capability_family") {
      if (!a->is(K::Int)) return Value::unknown(text);
      return Value::boolean(Condition::compare({Linear::var(SymVar::CcMajor)}, CmpOp::Eq,
                                               {Linear::constantOf(a->i / 10)}, text));
    }
    return Value::boolean(capabilityCompare(*a, name == "has_device_capability" ? CmpOp::Ge : CmpOp::Eq, text));
  }
  if (name == "version_at_least" || name == "is_cuda_version_at_least" || name == "cuda_version_at_least") {
    const Value *v = args.size() == 2 ? &args[1] : arg(0, "version");
    static const std::regex re(R"(^(\d+)\.(\d+))");
    std::smatch m;
    if (v && v->is(K::Str) && std::regex_search(v->text, m, re))
      return Value::boolean(Condition::compare(cudaLinear(), CmpOp::Ge,
                                               {Linear::constantOf(std::stol(m[1])), Linear::constantOf(std::stol(m[2]))}, text));
    return Value::unknown(text);
  }
  if (kTruePlatform.count(name) || dotted == "torch.cuda.is_available") return Value::boolean(Condition::truth());
  if (kFalsePlatform.count(name)) return Value::boolean(Condition::falsity());
  if (name == "partial") {
    if (args.empty() || !(args[0].is(K::Func) || args[0].is(K::Partial))) return Value::unknown(text);
    Value p = args[0];
    if (p.is(K::Func)) {
      p.kind = K::Partial;
      p.bound = std::make_shared<std::map<std::string, Value>>();
    } else {
      p.bound = std::make_shared<std::map<std::string, Value>>(*p.bound);
    }
    for (const auto &[k, v] : kwargs) (*p.bound)[k] = v;
    return p;
  }
  if (kWrappers.count(name)) {
    if (!args.empty() && (args[0].is(K::Func) || args[0].is(K::Partial))) return args[0];
    Value w;
    w.kind = K::Wrapper;
    return w;
  }
  if (name == "len" && args.size() == 1 && args[0].is(K::Tuple) && !args[0].open) {
    const Value &t = args[0];
    if (t.present.empty()) return Value::integer(long(t.items.size()));
    if (t.items.size() == 1) { // 1 if the one item is there, else 0
      Value choice = Value::tuple({Value::integer(1), Value::integer(0)});
      choice.kind = K::Choice;
      choice.cond = t.present[0];
      choice.text = text;
      return choice;
    }
    return Value::unknown(text);
  }
  if (dotted == "getattr" && args.size() == 3 && args[1].is(K::Str)) {
    // An attribute this walk cannot see (set by another stage) reads as the
    // default the code itself offers; but not, in an object's lifecycle
    // walk, one its own class sets (`self._built = True` in build()).
    Value v = attributeOf(args[0], args[1].text, text);
    if (v.is(K::Unknown) && args[0].is(K::Instance) && lifecycleClass_.valid() &&
        args[0].cls.def.id == lifecycleClass_.def.id && classSets(args[0].cls, args[1].text))
      return v;
    return v.is(K::Unknown) ? args[2] : v;
  }
  if (name == "enumerate" && args.size() == 1 && args[0].is(K::Tuple)) {
    Value pairs = args[0];
    for (size_t i = 0; i < pairs.items.size(); ++i)
      pairs.items[i] = Value::tuple({Value::integer(long(i)), pairs.items[i]});
    return pairs;
  }
  if (name == "next" && !args.empty() && args[0].is(K::Tuple))
    return firstPresent(args[0], args.size() > 1 ? args[1] : Value::unknown(text), text);
  if (dotted == "isinstance" && args.size() == 2) {
    std::string cls = args[1].is(K::Class) ? className(args[1].cls) : lastComponent(args[1].text);
    if (args[0].is(K::EnumMember) && (cls == "Enum" || cls == "IntEnum" || cls == "StrEnum"))
      return Value::boolean(Condition::truth());
    if (auto same = namesFormat(cls, vocab_.quantName))
      return Value::boolean(*same ? Condition::truth() : Condition::falsity());
  }
  if (isJitBuilder(name)) return jitModuleFrom(args, kwargs);
  if (name == "map" && args.size() == 2) return args[1];
  if (kPassThrough.count(name) && args.size() == 1) return args[0];
  if (name == "bool" && args.size() == 1) return Value::boolean(toCond(args[0]));
  if (name == "split" || name == "strip") return Value::unknown(text);
  if (isPackageProbe(name)) return Value::unknown(text);
  handled = false;
  return Value::unknown(text);
}

Value Interpreter::evalCall(TSNode node, Frame &f) {
  using K = Value::Kind;
  const ParsedModule &pm = *f.mod->parsed;
  std::string text = pm.snippet(node);
  TSNode fn = field(node, "function");
  std::vector<Value> args;
  std::map<std::string, Value> kwargs;
  TSNode argList = field(node, "arguments");
  if (!isNull(argList) && type(argList) == "argument_list") {
    for (TSNode a : namedChildren(argList)) {
      auto at = type(a);
      if (at == "keyword_argument")
        kwargs[std::string(pm.text(field(a, "name")))] = evalExpr(field(a, "value"), f);
      else if (at != "list_splat" && at != "dictionary_splat")
        args.push_back(evalExpr(a, f));
    }
  }
  // Methods on values the interpreter models natively.
  if (type(fn) == "attribute") {
    std::string method(pm.text(field(fn, "attribute")));
    if (method == "get" && !args.empty())
      if (auto entry = pluginLookup(field(fn, "object"), f, text)) return *entry;
    Value obj = evalExpr(field(fn, "object"), f);
    if (obj.is(K::Tuple) && obj.items.size() == 2 && method == "to_int") {
      Linear l;
      auto &a = obj.items[0], &b = obj.items[1];
      if (a.is(K::Sym) && b.is(K::Sym)) {
        for (int i = 0; i < kSymVars; ++i) l.coef[i] = 10 * a.lin.coef[i] + b.lin.coef[i];
        return Value::sym(l);
      }
    }
    if (obj.is(K::CudaStr)) return obj;
    if (obj.is(K::Str) && args.empty() && (method == "lower" || method == "upper" || method == "strip"))
      return Value::string(stringMethod(obj.text, method));
    if (obj.is(K::Tuple) && method == "copy" && args.empty()) return obj;
    if (obj.is(K::Backend) && (method == "lower" || method == "upper" || method == "strip")) return obj;
    if (obj.is(K::Tuple) && method == "get" && !args.empty()) return Value::unknown(text);
    Value callee = attributeOf(obj, method, std::string(pm.text(fn)));
    noteKernelEntry(callee, node, f);
    return callValue(callee, std::move(args), std::move(kwargs), f, text);
  }
  if (type(fn) == "subscript" && dispatchThroughTable(fn, args, kwargs, f, text)) return Value::unknown(text);
  Value callee = evalExpr(fn, f);
  noteKernelEntry(callee, node, f);
  noteModuleKept(callee, node, f);
  return callValue(callee, std::move(args), std::move(kwargs), f, text);
}

std::optional<Value> Interpreter::pluginLookup(TSNode registry, Frame &f, const std::string &text) {
  std::string name(f.mod->parsed->text(registry));
  if (type(registry) != "identifier" || f.locals.count(name) || !plugins_.onlyPluginsFill(*f.mod, name))
    return std::nullopt;
  Value v;
  v.kind = Value::Kind::Choice;
  v.cond = Condition::opaque(OpaqueKind::Plugin, text);
  // The plugin's entry: true, and a call of it is not interpreted.
  v.items = {Value::boolean(Condition::truth()), Value::none()};
  return v;
}

/// `IMPLS[backend](...)` with `IMPLS = {"cutlass": cutlass_moe, ...}` at
/// module level: a dispatch branch per key, each implementation called
/// under `backend == key` (as an if-chain over the keys would be).
bool Interpreter::dispatchThroughTable(TSNode subscript, const std::vector<Value> &args,
                                       const std::map<std::string, Value> &kwargs, Frame &f, const std::string &text) {
  const ParsedModule &pm = *f.mod->parsed;
  TSNode table = field(subscript, "value");
  if (type(table) != "identifier" || f.locals.count(std::string(pm.text(table)))) return false;
  TSNode dict = moduleLevelValue(pm, pm.text(table));
  if (isNull(dict) || type(dict) != "dictionary") return false;
  if (!evalExpr(field(subscript, "subscript"), f).is(Value::Kind::Backend)) return false;
  for (TSNode pair : namedChildren(dict)) {
    TSNode key = field(pair, "key");
    if (type(pair) != "pair" || type(key) != "string") continue;
    Value name = evalExpr(key, f);
    if (!name.is(Value::Kind::Str)) continue;
    Condition is = Condition::backendIs({normalizeBackend(name.text)}, std::string(pm.text(subscript)));
    if (f.sink) f.sink->branched(is, f.reach, *f.mod, subscript);
    Frame branch{f.mod, f.locals, f.depth, f.sink, f.reach && is};
    Value impl = evalExpr(field(pair, "value"), branch);
    noteKernelEntry(impl, subscript, branch);
    callValue(impl, args, kwargs, branch, text);
  }
  return true;
}

void Interpreter::noteKernelEntry(const Value &callee, TSNode call, Frame &f) {
  // torch.ops.NS.OP(...) and torch.ops.NS.OP.default(...), also through an
  // alias (`ops = torch.ops.sgl_kernel`): the text the value carries is the
  // resolved attribute chain.
  if (!f.sink || !(callee.is(Value::Kind::External) || callee.is(Value::Kind::Unknown))) return;
  if (!callee.jit.empty()) { // a function read off a JIT module whose spec the walk saw
    static const std::regex getter(R"(^(\w+)\([^()]*\)\.(\w+)$)");
    std::smatch g;
    std::string fromText = std::regex_match(callee.text, g, getter) ? g[1].str() : "module";
    for (const auto &[cond, spec] : callee.jit) {
      Condition reach = f.reach && cond;
      if (reach.isFalse()) continue;
      std::string module = spec->name.empty() ? fromText : spec->name;
      f.sink->kernelCalled(reach, "jit:" + module + "." + callee.name, *f.mod, call, spec.get());
    }
    return;
  }
  static const std::regex op(R"(^torch\.ops\.(\w+)\.(\w+))");
  // A function of a JIT-built module (FlashInfer's `get_X_module().FUNC(...)`,
  // tvm-ffi exports): linked by the exported name.
  static const std::regex jit(R"(^(\w+_module)\([^()]*\)\.(\w+)$)");
  std::smatch m;
  // MOD.FUNC(...) of a pybind11 module the trees build (`import fp4_ext`,
  // `from pkg import fp4_ext`): the dotted name's component that is a module.
  if (!vocab_.extensionModules.empty() && callee.is(Value::Kind::External)) {
    std::vector<std::string> parts;
    std::stringstream dotted(callee.text);
    for (std::string p; std::getline(dotted, p, '.');) parts.push_back(p);
    for (size_t i = 0; i + 1 < parts.size(); ++i)
      if (vocab_.extensionModules.count(parts[i])) {
        f.sink->kernelCalled(f.reach, "pybind:" + parts[i] + "." + parts[i + 1], *f.mod, call);
        return;
      }
  }
  if (std::regex_search(callee.text, m, op) && m[2] != "default")
    f.sink->kernelCalled(f.reach, "torch.ops." + m[1].str() + "." + m[2].str(), *f.mod, call);
  else if (std::regex_match(callee.text, m, jit)) {
    // The getter builds its module before wrapping it (`module = gen_X();
    // op = module.build_and_load(); return SimpleNamespace(...)`): the spec
    // of that first assignment says which kernel families it compiles.
    const JitSpec *spec = nullptr;
    for (const auto &[cond, s] : jitSpecsOfGetter(m[1].str(), f))
      if (!cond.isFalse()) spec = s.get();
    f.sink->kernelCalled(f.reach, "jit:" + m[1].str() + "." + m[2].str(), *f.mod, call, spec, true);
  } else if (callee.is(Value::Kind::External) && callee.text.find('.') != std::string::npos &&
             callee.text.find('(') == std::string::npos &&
             !index_.module(callee.text.substr(0, callee.text.find('.')))) {
    f.sink->libraryCalled(f.reach, callee.text, *f.mod, call);
  }
}

void Interpreter::noteModuleKept(const Value &callee, TSNode call, Frame &f) {
  const ParsedModule &pm = *f.mod->parsed;
  TSNode fn = field(call, "function"), assign = ts_node_parent(call);
  if (!f.sink || !callee.is(Value::Kind::Func) || type(fn) != "identifier" || isNull(assign) ||
      type(assign) != "assignment")
    return;
  TSNode left = field(assign, "left");
  if (type(left) != "attribute" || pm.text(field(left, "object")) != "self") return;
  std::string getter(callee.func.mod->parsed->text(field(callee.func.def, "name")));
  if (!getter.ends_with("_module")) return;
  const JitSpec *spec = nullptr;
  Frame home{callee.func.mod, {}, f.depth, nullptr}; // imported inside a method: looked up where defined
  for (const auto &[cond, s] : jitSpecsOfGetter(getter, home))
    if (!cond.isFalse()) spec = s.get();
  if (spec) f.sink->kernelCalled(f.reach, keptModuleEntry(getter), *f.mod, call, spec, true);
}

const std::vector<std::pair<Condition, std::shared_ptr<const JitSpec>>> &
Interpreter::jitSpecsOfGetter(const std::string &getter, Frame &f) {
  std::string key = f.mod->name + "." + getter;
  if (auto it = getterSpecs_.find(key); it != getterSpecs_.end()) return it->second;
  auto &specs = getterSpecs_[key];
  Value fn = resolveName(f.mod, getter);
  if (!fn.is(Value::Kind::Func)) return specs;
  for (TSNode stmt : namedChildren(field(fn.func.def, "body"))) {
    // `return _get_X_module_impl(flag)`: the getter delegates to the one that builds.
    TSNode ret = type(stmt) == "return_statement" ? ts_node_named_child(stmt, 0) : TSNode{};
    if (!isNull(ret) && type(ret) == "call" && type(field(ret, "function")) == "identifier") {
      // `return _wrap(gen_X(...))`: the spec built in the argument is the module.
      if (specs = jitSpecOfArguments(ret, fn.func.mod); !specs.empty()) break;
      Frame inner{fn.func.mod, {}, f.depth + 1, nullptr};
      std::string delegate(fn.func.mod->parsed->text(field(ret, "function")));
      if (delegate != getter && f.depth < kMaxDepth) specs = jitSpecsOfGetter(delegate, inner);
      break;
    }
    if (type(stmt) != "expression_statement") continue;
    TSNode assign = ts_node_named_child(stmt, 0);
    if (isNull(assign) || type(assign) != "assignment" || type(field(assign, "right")) != "call") continue;
    // Cached per getter, so evaluated from a fixed depth: the same spec
    // whichever walk asks first.
    Frame inner{fn.func.mod, {}, 1, nullptr};
    Value v = evalExpr(field(assign, "right"), inner);
    if (v.is(Value::Kind::JitModule) && !v.jit.empty()) {
      specs = v.jit;
      break;
    }
  }
  return specs;
}

std::vector<std::pair<Condition, std::shared_ptr<const JitSpec>>>
Interpreter::jitSpecOfArguments(TSNode call, Module *mod) {
  for (TSNode arg : namedChildren(field(call, "arguments"))) {
    TSNode expr = type(arg) == "keyword_argument" ? field(arg, "value") : arg;
    if (type(expr) != "call") continue;
    Frame inner{mod, {}, 1, nullptr};
    Value v = evalExpr(expr, inner);
    if (v.is(Value::Kind::JitModule) && !v.jit.empty()) return v.jit;
  }
  return {};
}

/// The relative paths a JIT builder's body reads through attributes of
/// string constants (`f"{ArtifactPath.TRTLLM_GEN_BMM}/include"`): the
/// folders its prebuilt cubins are published under, added to the specs of
/// the module it returns.
void Interpreter::addArtifactPaths(Value &module, const FuncRef &builder) {
  std::vector<std::string> out;
  Frame inner{builder.mod, {}, kMaxDepth, nullptr};
  std::vector<TSNode> stack{field(builder.def, "body")};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (isNull(n)) continue;
    if (type(n) == "attribute") {
      Value s = evalExpr(n, inner);
      std::string path = s.is(Value::Kind::Str) ? s.text : "";
      while (!path.empty() && path.back() == '/') path.pop_back();
      if (path.find('/') != std::string::npos && std::find(out.begin(), out.end(), path) == out.end())
        out.push_back(path);
      continue;
    }
    for (TSNode c : namedChildren(n)) stack.push_back(c);
  }
  if (out.empty()) return;
  for (auto &[cond, spec] : module.jit) {
    auto withArtifacts = std::make_shared<JitSpec>(*spec);
    for (const auto &a : out)
      if (std::find(withArtifacts->artifacts.begin(), withArtifacts->artifacts.end(), a) == withArtifacts->artifacts.end())
        withArtifacts->artifacts.push_back(a);
    spec = std::move(withArtifacts);
  }
}

Value Interpreter::callValue(const Value &callee, std::vector<Value> args,
                             std::map<std::string, Value> kwargs, Frame &caller, const std::string &text) {
  using K = Value::Kind;
  // f(a if c else b) is (f(a) if c else f(b)).
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is(K::Choice)) continue;
    Value choice = args[i];
    auto first = args, second = args;
    first[i] = choice.items[0];
    second[i] = choice.items[1];
    Value a = callValue(callee, first, kwargs, caller, text), b = callValue(callee, second, kwargs, caller, text);
    // gen_jit_spec("x_sm107" if rubin else "x_sm100", ...): either module;
    // build_inputs("x_sm107" if rubin else "x_sm100"): the same sources tuple.
    Value merged = mergeBranches(choice.cond, a, b);
    return merged.is(K::Unknown) ? Value::unknown(text) : merged;
  }
  bool handled = false;
  switch (callee.kind) {
  case K::Wrapper:
    return args.empty() ? callee : args[0];
  case K::Backend: // get_moe_runner_backend(): the selected backend itself
    return callee;
  case K::JitModule: // spec.build_and_load(): the module it builds
    return callee;
  case K::External:
  case K::Unknown: {
    Value v = builtinCall(callee.text.empty() ? text : callee.text, args, kwargs, text, handled);
    return v;
  }
  case K::Partial: {
    for (const auto &[k, v] : *callee.bound) kwargs.emplace(k, v);
    Value fn = callee;
    fn.kind = K::Func;
    return callValue(fn, std::move(args), std::move(kwargs), caller, text);
  }
  case K::Func: {
    if (!callee.func.mod) {
      // A method of the symbolic backend: look it up on the backend enums.
      for (const auto &cls : backendClasses_) {
        Value m = memberOf(cls, callee.name);
        if (m.is(K::Func) && m.func.mod)
          return walkFunction(m.func, args, kwargs, caller.reach, nullptr, caller.depth + 1, callee.self.get());
      }
      return Value::unknown(text);
    }
    std::string fname(callee.func.mod->parsed->text(field(callee.func.def, "name")));
    if (vocab_.selectors.count(fname) && !callee.func.owner.valid()) { // a selector under a local alias
      Value backend;
      backend.kind = K::Backend;
      backend.text = fname;
      return backend;
    }
    // A JIT builder of the trees is walked for its guards, and its value is
    // the module it describes (builtinCall would skip the walk).
    std::optional<Value> jitModule;
    if (isJitBuilder(fname)) jitModule = jitModuleFrom(args, kwargs);
    Value v = jitModule ? Value{} : builtinCall(fname, args, kwargs, text, handled);
    if (handled) return v;
    // The first call from the engine into a kernel library walks the callee
    // at the depth of an entry, as a profile's entry there would be: the
    // engine's wrappers (a registered runner, its format helper) do not use
    // up the depth the library's chain to its JIT build needs.
    bool intoLibrary = caller.sink && libraryDepthResets_ == 0 && caller.depth >= kEntryDepth &&
                       caller.depth < sinkDepth_ && inEngine(caller.mod) && !inEngine(callee.func.mod);
    int depth = intoLibrary ? kEntryDepth - 1 : caller.depth;
    if (depth >= kMaxDepth || !budgetLeft()) return jitModule ? *jitModule : Value::unknown(text);
    FlowSink *sink = depth < sinkDepth_ ? caller.sink : nullptr;
    // Without a sink a call's value depends only on the function and its
    // arguments: interpret each distinct call once.
    std::string key;
    if (!sink) {
      key = std::to_string(reinterpret_cast<uintptr_t>(callee.func.def.id)) + "|" +
            (callee.self ? callKey(*callee.self) : "");
      for (const auto &a : args) key += "|" + callKey(a);
      for (const auto &[k, v] : kwargs) key += "|" + k + "=" + callKey(v);
      if (auto it = pureCallCache_.find(key); it != pureCallCache_.end()) return it->second;
      if (inProgress_.count(callee.func.def.id)) return Value::unknown(text); // recursion
      inProgress_.insert(callee.func.def.id);
    }
    libraryDepthResets_ += intoLibrary;
    Value r = walkFunction(callee.func, std::move(args), std::move(kwargs), caller.reach, sink, depth + 1,
                           callee.self.get());
    libraryDepthResets_ -= intoLibrary;
    // A device query through another API (NVML, nvidia-smi) that the code
    // cannot be followed into still answers the SM version its name promises.
    static const std::regex smQuery(R"(device_sm|sm_version|get_sm\b|compute_cap)");
    if (r.is(K::Unknown) && std::regex_search(fname, smQuery)) r = Value::sym(smLinear());
    if (r.is(K::Unknown) && r.text.empty()) r.text = text;
    if (jitModule) r = *jitModule;
    else if (r.is(K::JitModule)) addArtifactPaths(r, callee.func);
    if (!sink) {
      inProgress_.erase(callee.func.def.id);
      pureCallCache_[key] = r;
    }
    return r;
  }
  case K::Class: {
    Value inst;
    inst.kind = K::Instance;
    inst.cls = callee.cls;
    inst.text = text;
    // Constructing a class of the trees runs its __init__ (guards included).
    if (caller.sink && caller.depth < sinkDepth_) {
      Value init = memberOf(callee.cls, "__init__");
      if (init.is(K::Func) && init.func.mod)
        walkFunction(init.func, std::move(args), std::move(kwargs), caller.reach, caller.sink,
                     caller.depth + 1, &inst);
    }
    return inst;
  }
  default:
    return Value::unknown(text);
  }
}

bool Interpreter::inEngine(const Module *m) const {
  if (!m || m->tree != &index_.trees()[0]) return false;
  return enginePackages_.empty() || enginePackages_.count(m->name.substr(0, m->name.find('.')));
}

std::string Interpreter::className(const ClassRef &cls) {
  if (!cls.mod) return "";
  return std::string(cls.mod->parsed->text(field(cls.def, "name")));
}

std::vector<ClassRef> Interpreter::bases(const ClassRef &cls) {
  std::vector<ClassRef> out;
  TSNode supers = field(cls.def, "superclasses");
  if (isNull(supers)) return out;
  Frame f{cls.mod, {}, kMaxDepth, nullptr};
  for (TSNode b : namedChildren(supers)) {
    if (type(b) == "keyword_argument") continue;
    Value v = evalExpr(b, f);
    if (v.is(Value::Kind::Class) && v.cls.def.id != cls.def.id) out.push_back(v.cls);
  }
  return out;
}

bool Interpreter::isBackendEnum(const ClassRef &cls) {
  std::string name = className(cls);
  if (!vocab_.backendEnums.empty()) return vocab_.backendEnums.count(name) > 0;
  return name.size() > 7 && name.ends_with("Backend");
}

Value Interpreter::memberOf(const ClassRef &cls, const std::string &name) {
  static thread_local int depth = 0;
  if (!cls.mod || depth > 8) return Value::unknown(name);
  const ParsedModule &pm = *cls.mod->parsed;
  TSNode body = field(cls.def, "body");
  bool isEnum = false;
  for (TSNode stmt : namedChildren(body)) {
    TSNode def = stmt;
    bool isStatic = false, isClassMethod = false, isProperty = false;
    if (type(stmt) == "decorated_definition") {
      def = field(stmt, "definition");
      for (TSNode d : namedChildren(stmt)) {
        if (type(d) != "decorator") continue;
        std::string dt(pm.text(d));
        isStatic |= dt.find("staticmethod") != std::string::npos;
        isClassMethod |= dt.find("classmethod") != std::string::npos;
        isProperty |= dt == "@property" || dt.ends_with("cached_property");
      }
    }
    if (type(def) == "function_definition" && pm.text(field(def, "name")) == name) {
      Value v;
      v.kind = Value::Kind::Func;
      v.func = FuncRef{cls.mod, def, cls, isStatic, isClassMethod, isProperty};
      return v;
    }
    if (type(stmt) == "expression_statement") {
      for (TSNode e : namedChildren(stmt)) {
        if (type(e) != "assignment" || pm.text(field(e, "left")) != name) continue;
        Frame f{cls.mod, {}, kMaxDepth, nullptr};
        Value v = evalExpr(field(e, "right"), f);
        if (!isEnum) {
          TSNode supers = field(cls.def, "superclasses");
          isEnum = !isNull(supers) && pm.text(supers).find("Enum") != std::string_view::npos;
        }
        if (isEnum && (v.is(Value::Kind::Str) || v.is(Value::Kind::Int) || v.is(Value::Kind::Unknown))) {
          Value m;
          m.kind = Value::Kind::EnumMember;
          m.name = name;
          m.text = normalizeBackend(v.is(Value::Kind::Str) ? v.text : name);
          m.cls = cls;
          return m;
        }
        return v;
      }
    }
  }
  ++depth;
  for (const auto &base : bases(cls)) {
    Value v = memberOf(base, name);
    if (!v.is(Value::Kind::Unknown)) { --depth; return v; }
  }
  --depth;
  return Value::unknown(className(cls) + "." + name);
}

namespace {
/// Adds the `self.X = ...` assignments under `node` to `into` (nested classes
/// excluded; nested functions and compound statements included); `top`
/// records those directly in `node`'s block.
void collectSelfAssignments(const ParsedModule &pm, TSNode node, bool top, std::map<std::string, int> &count,
                            std::map<std::string, TSNode> &direct) {
  for (TSNode stmt : namedChildren(node)) {
    std::string_view t = type(stmt);
    if (t == "expression_statement") {
      for (TSNode e : namedChildren(stmt)) {
        if (type(e) != "assignment") continue;
        std::string target(pm.text(field(e, "left")));
        if (target.rfind("self.", 0) != 0) continue;
        if (top) direct[target] = e;
        ++count[std::move(target)];
      }
    } else if (t != "class_definition") {
      TSNode body = t == "function_definition" ? field(stmt, "body") : stmt;
      collectSelfAssignments(pm, body, false, count, direct);
    }
  }
}
} // namespace

bool Interpreter::classSets(const ClassRef &cls, const std::string &name, int depth) {
  if (!cls.valid() || depth > 4) return false;
  if (selfAssignments(*cls.mod->parsed, field(cls.def, "body")).count.count("self." + name)) return true;
  for (const auto &base : bases(cls))
    if (classSets(base, name, depth + 1)) return true;
  return false;
}

const Interpreter::SelfAssignments &Interpreter::selfAssignments(const ParsedModule &pm, TSNode body) {
  auto [it, fresh] = selfAssignments_.try_emplace(body.id);
  if (fresh) collectSelfAssignments(pm, body, true, it->second.count, it->second.direct);
  return it->second;
}

Value Interpreter::initAttribute(const ClassRef &cls, const std::string &name) {
  static thread_local int depth = 0;
  Value init = memberOf(cls, "__init__");
  if (!init.is(Value::Kind::Func) || init.func.mod != cls.mod || depth > 4) return Value::unknown(name);
  const FuncRef &fn = init.func;
  const ParsedModule &pm = *fn.mod->parsed;
  // Indexed once per body: a big class (SGLang's ServerArgs) is read for many attributes.
  const std::string target = "self." + name;
  const auto &inInit = selfAssignments(pm, field(fn.def, "body")).direct;
  const auto found = inInit.find(target);
  if (found == inInit.end()) return Value::unknown(name);
  const auto &inClass = selfAssignments(*cls.mod->parsed, field(cls.def, "body")).count;
  if (const auto n = inClass.find(target); n == inClass.end() || n->second != 1) return Value::unknown(name);
  const TSNode assignment = found->second;
  Frame f{fn.mod, {}, 1, nullptr};
  for (TSNode stmt : namedChildren(field(fn.def, "body"))) {
    if (ts_node_start_byte(stmt) >= ts_node_start_byte(assignment)) break;
    if (type(stmt) == "import_from_statement") bindLocalImport(stmt, f);
  }
  ++depth;
  Value v = evalExpr(field(assignment, "right"), f);
  --depth;
  return v;
}

} // namespace archscope::py
