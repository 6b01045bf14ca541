//===--- InterpreterExpr.cpp - expressions, names, calls, comparisons ---===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/python/Interpreter.h"

#include "matchers/python/CapabilityTerms.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>

namespace archscope::py {
namespace {

/// "12.8" -> [12, 8]
std::optional<std::vector<Linear>> versionOf(const std::string &s) {
  static const std::regex re(R"(^(\d+)\.(\d+))");
  std::smatch m;
  if (!std::regex_search(s, m, re)) return std::nullopt;
  return std::vector<Linear>{Linear::constantOf(std::stol(m[1])), Linear::constantOf(std::stol(m[2]))};
}

/// A value as a tuple of linear terms, for numeric comparison.
std::optional<std::vector<Linear>> linearize(const Value &v) {
  using K = Value::Kind;
  switch (v.kind) {
  case K::Int: return std::vector<Linear>{Linear::constantOf(v.i)};
  case K::Sym: return std::vector<Linear>{v.lin};
  case K::Tuple: {
    std::vector<Linear> out;
    for (const auto &item : v.items) {
      auto l = linearize(item);
      if (!l || l->size() != 1) return std::nullopt;
      out.push_back((*l)[0]);
    }
    return out;
  }
  case K::CudaStr: return std::vector<Linear>{Linear::var(SymVar::CudaMajor), Linear::var(SymVar::CudaMinor)};
  default: return std::nullopt;
  }
}

std::optional<CmpOp> cmpOp(const std::string &op) {
  if (op == "<") return CmpOp::Lt;
  if (op == "<=") return CmpOp::Le;
  if (op == ">") return CmpOp::Gt;
  if (op == ">=") return CmpOp::Ge;
  if (op == "==") return CmpOp::Eq;
  if (op == "!=") return CmpOp::Ne;
  return std::nullopt;
}

bool sameConstant(const Value &a, const Value &b) {
  using K = Value::Kind;
  if ((a.is(K::Str) || a.is(K::EnumMember)) && (b.is(K::Str) || b.is(K::EnumMember)))
    return a.text == b.text && (a.is(K::Str) == b.is(K::Str) || true);
  if (a.is(K::None) && b.is(K::None)) return true;
  return false;
}

bool isStringLike(const Value &v) { return v.is(Value::Kind::Str) || v.is(Value::Kind::EnumMember); }

/// `get_X_backend().is_Y()` with Y not a default's name (none, auto,
/// standard, ...): another backend choice (the row's own is a backend
/// atom, not opaque) set to an optional member, off by default.
bool isOptionalMode(const std::string &text) {
  static const std::regex mode(R"(^get_\w+_backend\(\)\.is_(\w+)\(\)$)");
  static const std::set<std::string> defaults{"none",     "auto", "default", "standard",
                                              "disabled", "off",  "native"};
  std::smatch m;
  return std::regex_match(text, m, mode) && !defaults.count(m[1].str());
}

} // namespace

OpaqueKind classifyOpaque(const std::string &text) {
  static const std::regex env(R"((^|\W)(envs?\.|os\.environ|getenv|get_bool_env_var|get_int_env_var|environ\.get))");
  static const std::regex pkg(R"((^|[.\s(_])(has_\w+|is_\w+_available|\w+_available|find_spec|importlib|import \S+ succeeds)\b)");
  // Each pattern only where a literal every alternative holds is present:
  // std::regex costs more than the rest of the condition it names.
  auto has = [&](const char *literal) { return text.find(literal) != std::string::npos; };
  if (has("env") && std::regex_search(text, env)) return OpaqueKind::Env;
  if ((has("has_") || has("available") || has("find_spec") || has("import")) && std::regex_search(text, pkg))
    return OpaqueKind::Package;
  if (has("version")) return OpaqueKind::Version;
  if (has("_backend().is_") && isOptionalMode(text)) return OpaqueKind::Mode;
  return OpaqueKind::Config;
}

Interpreter::Interpreter(ModuleIndex &index, Vocabulary vocab)
    : index_(index), vocab_(std::move(vocab)), plugins_(index) {}

std::string Interpreter::normalizeBackend(const std::string &value) {
  std::string s = value;
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

Condition Interpreter::toCond(const Value &v) {
  using K = Value::Kind;
  switch (v.kind) {
  case K::Bool: return v.cond;
  case K::Int: return v.i ? Condition::truth() : Condition::falsity();
  case K::Str: return v.text.empty() ? Condition::falsity() : Condition::truth();
  case K::None: return Condition::falsity();
  case K::Tuple: {
    if (v.open && v.items.empty()) return Condition::unknown("a list of unknown length");
    if (v.present.empty()) return v.items.empty() ? Condition::falsity() : Condition::truth();
    Condition any = Condition::falsity();
    for (const auto &p : v.present) any = any || p;
    return any;
  }
  case K::Choice: return (v.cond && toCond(v.items[0])) || (!v.cond && toCond(v.items[1]));
  case K::Sym: return Condition::compare({v.lin}, CmpOp::Ne, {Linear::constantOf(0)}, "");
  case K::Func: case K::Partial: case K::Class: case K::Wrapper: case K::CudaStr:
    return Condition::truth();
  default: {
    std::string text = v.text.empty() ? "<unknown>" : v.text;
    return Condition::opaque(classifyOpaque(text), text);
  }
  }
}

Value Interpreter::resolveName(Module *m, const std::string &name) {
  if (!m) return Value::external(name);
  auto it = m->symbols.find(name);
  if (it != m->symbols.end()) return valueOfBinding(m, name, it->second);
  // `from pkg.common import *` re-exports (guarded against import cycles).
  static thread_local int starDepth = 0;
  if (starDepth < 6) {
    ++starDepth;
    for (const auto &star : m->starImports) {
      Module *sm = index_.module(star);
      if (!sm || sm == m) continue;
      Value v = resolveName(sm, name);
      if (!v.is(Value::Kind::External)) { --starDepth; return v; }
    }
    --starDepth;
  }
  return Value::external(name);
}

Value Interpreter::valueOfBinding(Module *m, const std::string &name, const Binding &b) {
  switch (b.kind) {
  case Binding::Kind::Function: {
    Value v;
    v.kind = Value::Kind::Func;
    v.func = FuncRef{m, b.node, {}, false, false};
    return v;
  }
  case Binding::Kind::Class: {
    Value v;
    v.kind = Value::Kind::Class;
    v.cls = ClassRef{m, b.node};
    return v;
  }
  case Binding::Kind::Assign: {
    const void *key = b.node.id;
    if (auto it = assignCache_.find(key); it != assignCache_.end()) return it->second;
    if (inProgress_.count(key)) return Value::unknown(name);
    inProgress_.insert(key);
    Frame f{m, {}, 0, nullptr};
    Value v = evalExpr(b.node, f);
    if (!isNull(b.tryStmt)) v = mergeBranches(trySucceeds(*m, b.tryStmt), v, evalExpr(b.fallback, f));
    inProgress_.erase(key);
    if (v.is(Value::Kind::Unknown) && v.text.empty()) v.text = name;
    // An object built at module level is known by its name (vLLM's
    // `kNvfp4Static = QuantKey(...)`): comparisons tell such objects apart.
    if (v.is(Value::Kind::Instance) && v.name.empty()) v.name = m->name + "." + name;
    return assignCache_[key] = v;
  }
  case Binding::Kind::Import: {
    const void *key = b.site.id;
    if (inProgress_.count(key)) return Value::unknown(name);
    inProgress_.insert(key);
    Value out;
    Module *target = index_.module(b.fromModule);
    if (b.name.empty()) {
      if (target) { out.kind = Value::Kind::Module; out.name = target->name; }
      else out = Value::external(b.fromModule);
    } else if (target && !(out = resolveName(target, b.name)).is(Value::Kind::External)) {
      // found in the module or through its star imports
    } else if (Module *sub = index_.module(b.fromModule + "." + b.name)) {
      out.kind = Value::Kind::Module;
      out.name = sub->name;
    } else {
      out = Value::external(b.fromModule + "." + b.name);
    }
    inProgress_.erase(key);
    return out;
  }
  }
  return Value::unknown(name);
}

Value Interpreter::evalExpr(TSNode node, Frame &f) {
  using K = Value::Kind;
  if (isNull(node)) return Value::none();
  auto t = type(node);
  const ParsedModule &pm = *f.mod->parsed;
  std::string text(pm.text(node));
  if (t == "identifier") {
    if (auto it = f.locals.find(text); it != f.locals.end()) return it->second;
    if (vocab_.selectors.count(text)) { Value v; v.kind = K::Backend; v.text = text; return v; }
    if (text == "True") return Value::boolean(Condition::truth());
    if (text == "False") return Value::boolean(Condition::falsity());
    return resolveName(f.mod, text);
  }
  if (t == "true") return Value::boolean(Condition::truth());
  if (t == "false") return Value::boolean(Condition::falsity());
  if (t == "none") return Value::none();
  if (t == "integer") {
    std::string digits;
    for (char c : text) if (c != '_') digits += c;
    try { return Value::integer(std::stol(digits, nullptr, 0)); } catch (...) { return Value::unknown(text); }
  }
  if (t == "string" || t == "concatenated_string") return evalString(node, f);
  if (t == "attribute") return evalAttribute(node, f);
  if (t == "call") return evalCall(node, f);
  if (t == "comparison_operator") return evalComparison(node, f);
  if (t == "binary_operator") return evalBinary(node, f);
  if (t == "subscript") return evalSubscript(node, f);
  if (t == "parenthesized_expression") {
    auto kids = namedChildren(node);
    return kids.empty() ? Value::none() : evalExpr(kids[0], f);
  }
  if (t == "not_operator") return Value::boolean(!toCond(evalExpr(field(node, "argument"), f)));
  if (t == "boolean_operator") {
    // Python's value, where the left side's truth is known
    // (`module_name or f"fused_moe_{arch}"` with module_name None); else
    // the condition of both.
    Value left = evalExpr(field(node, "left"), f), right = evalExpr(field(node, "right"), f);
    Condition l = toCond(left), r = toCond(right);
    bool isAnd = pm.text(field(node, "operator")) == "and";
    if (l.isFalse()) return isAnd ? left : right;
    if (l.isTrue()) return isAnd ? right : left;
    return Value::boolean(isAnd ? (l && r) : (l || r));
  }
  if (t == "list_comprehension" || t == "set_comprehension" || t == "generator_expression")
    return evalComprehension(node, f);
  if (t == "tuple" || t == "list" || t == "set" || t == "expression_list") {
    std::vector<Value> items;
    bool open = false; // a spread of unknown length: more items may be there
    for (TSNode c : namedChildren(node)) {
      if (type(c) != "list_splat") { items.push_back(evalExpr(c, f)); continue; }
      auto inner = namedChildren(c);
      Value spread = inner.empty() ? Value::unknown(text) : evalExpr(inner[0], f);
      if (spread.is(K::Tuple) && spread.present.empty()) items.insert(items.end(), spread.items.begin(), spread.items.end());
      else open = true; // `*(d / k for k in d.rglob("*.cu"))`: files on disk
    }
    Value list = Value::tuple(std::move(items));
    list.open = open;
    return list;
  }
  if (t == "conditional_expression") {
    auto kids = namedChildren(node);
    if (kids.size() != 3) return Value::unknown(text);
    Condition c = toCond(evalExpr(kids[1], f));
    if (c.isTrue()) return evalExpr(kids[0], f);
    if (c.isFalse()) return evalExpr(kids[2], f);
    Value a = evalExpr(kids[0], f), b = evalExpr(kids[2], f);
    if (a.is(K::Bool) && b.is(K::Bool)) return Value::boolean((c && a.cond) || (!c && b.cond));
    Value choice = Value::tuple({a, b}); // distributed over by comparisons and calls
    choice.kind = K::Choice;
    choice.cond = c;
    choice.text = text;
    return choice;
  }
  if (t == "unary_operator") {
    Value v = evalExpr(field(node, "argument"), f);
    std::string op(pm.text(field(node, "operator")));
    if (v.is(K::Int) && op == "-") return Value::integer(-v.i);
    return Value::unknown(text);
  }
  if (t == "named_expression") {
    Value v = evalExpr(field(node, "value"), f);
    f.locals[std::string(pm.text(field(node, "name")))] = v;
    return v;
  }
  return Value::unknown(text);
}

/// [body for x in iterable if cond]: over a constant-length iterable, each
/// item is there when its filter holds (Value::present).
Value Interpreter::evalComprehension(TSNode node, Frame &f) {
  const ParsedModule &pm = *f.mod->parsed;
  std::string text(pm.text(node));
  TSNode body = field(node, "body");
  TSNode forClause{}, left{}, right{};
  std::vector<TSNode> filters;
  for (TSNode c : namedChildren(node)) {
    if (type(c) == "for_in_clause") {
      if (!isNull(forClause)) return Value::unknown(text); // nested loops: not modelled
      forClause = c;
      left = field(c, "left");
      right = field(c, "right");
    } else if (type(c) == "if_clause") {
      filters.push_back(c);
    }
  }
  if (isNull(forClause) || isNull(body)) return Value::unknown(text);
  Value iterable = evalExpr(right, f);
  if (!iterable.is(Value::Kind::Tuple) || iterable.items.size() > 32) return Value::unknown(text);
  Value out = Value::tuple({});
  bool conditional = !iterable.present.empty() || !filters.empty();
  for (size_t i = 0; i < iterable.items.size(); ++i) {
    Frame inner = f; // the loop variable lives in the comprehension's scope
    const Value &item = iterable.items[i];
    if (type(left) == "identifier") {
      inner.locals[std::string(pm.text(left))] = item;
    } else {
      auto names = namedChildren(left);
      for (size_t k = 0; k < names.size(); ++k)
        inner.locals[std::string(pm.text(names[k]))] =
            item.is(Value::Kind::Tuple) && k < item.items.size() ? item.items[k] : Value::unknown("");
    }
    Condition there = iterable.present.empty() ? Condition::truth() : iterable.present[i];
    for (TSNode filter : filters) {
      auto kids = namedChildren(filter);
      if (!kids.empty()) there = there && toCond(evalExpr(kids[0], inner));
    }
    out.items.push_back(evalExpr(body, inner));
    if (conditional) out.present.push_back(there);
  }
  out.open = iterable.open;
  return out;
}

Value Interpreter::evalString(TSNode node, Frame &f) {
  const ParsedModule &pm = *f.mod->parsed;
  if (type(node) == "concatenated_string") {
    std::string all;
    for (TSNode part : namedChildren(node)) {
      Value v = evalString(part, f);
      if (!v.is(Value::Kind::Str)) return Value::unknown(std::string(pm.text(node)));
      all += v.text;
    }
    return Value::string(all);
  }
  std::string content;
  std::vector<TSNode> interpolations;
  for (TSNode c : namedChildren(node)) {
    auto ct = type(c);
    if (ct == "string_content") content += pm.text(c);
    else if (ct == "interpolation") interpolations.push_back(c);
  }
  if (interpolations.empty()) return Value::string(content);
  if (interpolations.size() == 1 && content.empty()) {
    Value v = evalExpr(field(interpolations[0], "expression"), f);
    if (v.is(Value::Kind::Sym)) { v.symIsString = true; return v; }
    if (v.is(Value::Kind::Int)) return Value::string(std::to_string(v.i));
  }
  // f"fused_moe_{device_arch}" with every interpolation a known string or
  // integer (no format spec): the string itself.
  std::string all;
  for (TSNode c : namedChildren(node)) {
    auto ct = type(c);
    if (ct == "string_content") { all += pm.text(c); continue; }
    if (ct != "interpolation") continue;
    if (!isNull(field(c, "format_specifier")) || !isNull(field(c, "type_conversion")))
      return Value::unknown(std::string(pm.text(node)));
    Value v = evalExpr(field(c, "expression"), f);
    if (v.is(Value::Kind::Str)) all += v.text;
    else if (v.is(Value::Kind::Int)) all += std::to_string(v.i);
    else return Value::unknown(std::string(pm.text(node)));
  }
  return Value::string(all);
}

Value Interpreter::evalAttribute(TSNode node, Frame &f) {
  using K = Value::Kind;
  const ParsedModule &pm = *f.mod->parsed;
  std::string text(pm.text(node));
  std::string attr(pm.text(field(node, "attribute")));
  if (text == "torch.version.cuda") { Value v; v.kind = K::CudaStr; v.text = text; return v; }
  if (text == "torch.version.hip") return Value::none(); // a CUDA build of torch
  if (vocab_.selectors.count(attr)) { Value v; v.kind = K::Backend; v.text = text; return v; }
  if (vocab_.quantFlags.count(attr)) { Value v; v.kind = K::Quant; v.text = text; return v; }
  Value obj = evalExpr(field(node, "object"), f);
  Value v = attributeOf(obj, attr, text);
  if (v.is(K::Func) && v.func.isProperty && obj.is(K::Instance)) return callValue(v, {}, {}, f, text);
  return v;
}

Value Interpreter::attributeOf(const Value &obj, const std::string &attr, const std::string &text) {
  using K = Value::Kind;
  switch (obj.kind) {
  case K::Module: {
    Module *m = index_.module(obj.name);
    if (m && m->symbols.count(attr)) return resolveName(m, attr);
    if (Module *sub = index_.module(obj.name + "." + attr)) {
      Value v; v.kind = K::Module; v.name = sub->name; return v;
    }
    return Value::external(obj.name + "." + attr);
  }
  case K::External: return Value::external(obj.text + "." + attr);
  case K::JitModule: {
    static const std::set<std::string> builds = {"build_and_load", "build", "load", "build_and_load_aot"};
    // The spec's own API (FlashInfer's JitSpec), not exports of the module.
    static const std::set<std::string> specApi = {
        "get_library_path", "get_library_paths", "get_object_paths", "jit_library_path", "aot_path", "is_aot",
        "is_compiled", "get_compile_commands", "write_ninja", "ninja_path", "build_dir", "lock_path", "name",
        "sources", "is_ninja_generated"};
    if (builds.count(attr)) return obj;
    if (specApi.count(attr)) return Value::unknown(text);
    Value fn = Value::external(text); // an export of the built module
    fn.name = attr;
    fn.jit = obj.jit;
    return fn;
  }
  case K::Class:
    if (auto hooked = attributeValue(obj.cls, attr)) return *hooked;
    return memberOf(obj.cls, attr);
  case K::Tuple:
    if (obj.items.size() == 2 && attr == "major") return obj.items[0];
    if (obj.items.size() == 2 && attr == "minor") return obj.items[1];
    break;
  case K::Backend: {
    if (attr == "value" || attr == "name") return obj;
    Value v; v.kind = K::Func; v.text = attr; v.self = std::make_shared<Value>(obj);
    v.name = attr; // resolved against the backend enum at call time
    return v;
  }
  case K::EnumMember:
    if (attr == "value" || attr == "name") return Value::string(attr == "value" ? obj.text : obj.name);
    break;
  case K::Instance: {
    if (auto hooked = attributeValue(obj.cls, attr)) return *hooked;
    Value m = memberOf(obj.cls, attr);
    if (m.is(K::Func)) m.self = std::make_shared<Value>(obj);
    if (!m.is(K::Unknown)) return m;
    if (Value set = initAttribute(obj.cls, attr); !set.is(K::Unknown)) return set;
    break;
  }
  default: break;
  }
  return Value::unknown(text);
}

std::optional<Value> Interpreter::attributeValue(const ClassRef &cls, const std::string &attr) {
  auto it = vocab_.attributeValues.find(className(cls) + "." + attr);
  if (it == vocab_.attributeValues.end()) it = vocab_.attributeValues.find(className(cls) + ".*");
  if (it == vocab_.attributeValues.end()) return std::nullopt;
  if (it->second == "device_capability_list") return Value::tuple({capabilityTuple()});
  return registryValue(it->second, attr);
}

/// "registry pkg.mod.DICT pkg.funcs": DICT maps attribute names to names of
/// functions in pkg.funcs; the attribute reads as the function's result.
std::optional<Value> Interpreter::registryValue(const std::string &spec, const std::string &attr) {
  std::istringstream in(spec);
  std::string word, dict, funcs;
  in >> word >> dict >> funcs;
  auto dot = dict.rfind('.');
  Module *home = dot == std::string::npos ? nullptr : index_.module(dict.substr(0, dot));
  Module *target = index_.module(funcs);
  if (!home || !target) return std::nullopt;
  auto binding = home->symbols.find(dict.substr(dot + 1));
  if (binding == home->symbols.end() || type(binding->second.node) != "dictionary") return std::nullopt;
  Frame f{home, {}, 0, nullptr};
  for (TSNode pair : namedChildren(binding->second.node)) {
    if (type(pair) != "pair") continue;
    Value key = evalExpr(field(pair, "key"), f), name = evalExpr(field(pair, "value"), f);
    if (!key.is(Value::Kind::Str) || key.text != attr || !name.is(Value::Kind::Str)) continue;
    Value fn = resolveName(target, name.text);
    Frame call{target, {}, 0, nullptr};
    return callValue(fn, {}, {}, call, name.text + "()");
  }
  return std::nullopt;
}

Value Interpreter::evalSubscript(TSNode node, Frame &f) {
  using K = Value::Kind;
  const ParsedModule &pm = *f.mod->parsed;
  Value v = evalExpr(field(node, "value"), f);
  TSNode sub = field(node, "subscript");
  if (v.is(K::CudaStr)) return v;
  if (type(sub) == "slice" && v.is(K::Tuple)) {
    auto parts = namedChildren(sub);
    if (parts.size() == 1) {
      Value end = evalExpr(parts[0], f);
      if (end.is(K::Int) && std::string(pm.text(sub)).rfind(':', 0) == 0) {
        std::vector<Value> items(v.items.begin(), v.items.begin() + std::min<size_t>(end.i, v.items.size()));
        return Value::tuple(items);
      }
    }
  }
  Value idx = evalExpr(sub, f);
  if (v.is(K::Tuple) && idx.is(K::Int)) {
    long i = idx.i < 0 ? long(v.items.size()) + idx.i : idx.i;
    if (i >= 0 && i < long(v.items.size())) return v.items[i];
  }
  return Value::unknown(std::string(pm.text(node)));
}

Value Interpreter::evalBinary(TSNode node, Frame &f) {
  const ParsedModule &pm = *f.mod->parsed;
  Value a = evalExpr(field(node, "left"), f), b = evalExpr(field(node, "right"), f);
  return binaryOp(a, std::string(pm.text(field(node, "operator"))), b, std::string(pm.text(node)));
}

Value Interpreter::binaryOp(const Value &a, const std::string &op, const Value &b, const std::string &text) {
  using K = Value::Kind;
  // Lists: `flags + [...]` concatenates; a path joined with a literal part
  // (`CSRC_DIR / "fused_moe/x.cu"`) keeps what is literal, as a path suffix.
  if (a.is(K::Tuple) && b.is(K::Tuple) && op == "+" && a.present.empty() && b.present.empty()) {
    Value r = a;
    r.items.insert(r.items.end(), b.items.begin(), b.items.end());
    r.open = a.open || b.open;
    return r;
  }
  // A list plus something unknown (`flags + get_nvcc_flags_list(...)`): the
  // known items, the list left open.
  if (op == "+" && ((a.is(K::Tuple) && a.present.empty()) || (b.is(K::Tuple) && b.present.empty()))) {
    Value r = a.is(K::Tuple) ? a : b;
    r.open = true;
    return r;
  }
  if (op == "/" && b.is(K::Str)) return Value::string(a.is(K::Str) ? a.text + "/" + b.text : b.text);
  if (a.is(K::Int) && b.is(K::Int)) {
    if (op == "+") return Value::integer(a.i + b.i);
    if (op == "-") return Value::integer(a.i - b.i);
    if (op == "*") return Value::integer(a.i * b.i);
    if (op == "//" && b.i) return Value::integer(a.i / b.i);
    if (op == "%" && b.i) return Value::integer(a.i % b.i);
  }
  if (a.is(K::Str) && b.is(K::Str) && op == "+") return Value::string(a.text + b.text);
  auto asLinear = [](const Value &v) -> std::optional<Linear> {
    if (v.is(K::Sym)) return v.lin;
    if (v.is(K::Int)) return Linear::constantOf(v.i);
    return std::nullopt;
  };
  auto la = asLinear(a), lb = asLinear(b);
  if (!la || !lb) return Value::unknown(text);
  Linear r;
  if (op == "+" || op == "-") {
    long s = op == "+" ? 1 : -1;
    for (int i = 0; i < kSymVars; ++i) r.coef[i] = la->coef[i] + s * lb->coef[i];
    r.constant = la->constant + s * lb->constant;
    return Value::sym(r);
  }
  if (op == "*" && (la->isConstant() || lb->isConstant())) {
    const Linear &sym = la->isConstant() ? *lb : *la;
    long k = la->isConstant() ? la->constant : lb->constant;
    for (int i = 0; i < kSymVars; ++i) r.coef[i] = sym.coef[i] * k;
    r.constant = sym.constant * k;
    return Value::sym(r);
  }
  // major * 10 + minor: `// 10` is the major, `% 10` the minor (minor < 10).
  Linear sm = smLinear();
  bool isSm = std::equal(std::begin(la->coef), std::end(la->coef), std::begin(sm.coef)) && la->constant == 0;
  if (isSm && lb->isConstant() && lb->constant == 10) {
    if (op == "//") return Value::sym(Linear::var(SymVar::CcMajor));
    if (op == "%") return Value::sym(Linear::var(SymVar::CcMinor));
  }
  return Value::unknown(text);
}

Value Interpreter::evalComparison(TSNode node, Frame &f) {
  const ParsedModule &pm = *f.mod->parsed;
  std::vector<Value> operands;
  std::vector<std::string> ops;
  std::string pending;
  uint32_t n = ts_node_child_count(node);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_child(node, i);
    if (ts_node_is_named(c)) {
      if (type(c) == "comment") continue;
      if (!pending.empty()) { ops.push_back(pending); pending.clear(); }
      operands.push_back(evalExpr(c, f));
    } else {
      pending.append(pending.empty() ? "" : " ").append(pm.text(c));
    }
  }
  std::string text(pm.text(node));
  Condition all = Condition::truth();
  for (size_t i = 0; i < ops.size() && i + 1 < operands.size(); ++i)
    all = all && compare(operands[i], ops[i], operands[i + 1], text);
  return Value::boolean(all);
}

namespace {
bool isNamedObject(const Value &v) { return v.is(Value::Kind::Instance) && !v.name.empty(); }

/// An undecided comparison as a run-time fact. A negated operator names the
/// complement of the positive one's fact (`x is not None` is `not (x is
/// None)`), so a path through `if x is None:` and `if x is not None:` reads
/// one fact twice, not two independent ones.
Condition opaqueComparison(const std::string &op, const std::string &text) {
  for (const auto &[neg, pos] : kNegatedComparisons) {
    if (op != neg) continue;
    size_t at = text.find(std::string(" ") + neg + " ");
    if (at == std::string::npos || text.find(std::string(" ") + neg + " ", at + 1) != std::string::npos) break;
    std::string positive = text.substr(0, at) + " " + pos + " " + text.substr(at + op.size() + 2);
    return !Condition::opaque(classifyOpaque(positive), positive);
  }
  return Condition::opaque(classifyOpaque(text), text);
}
} // namespace

Condition Interpreter::compare(const Value &a, const std::string &op, const Value &b, const std::string &text) {
  using K = Value::Kind;
  if (a.is(K::Choice))
    return (a.cond && compare(a.items[0], op, b, text)) || (!a.cond && compare(a.items[1], op, b, text));
  if (b.is(K::Choice))
    return (b.cond && compare(a, op, b.items[0], text)) || (!b.cond && compare(a, op, b.items[1], text));
  if (op == "in" || op == "not in") {
    if (!b.is(K::Tuple)) {
      if (a.is(K::Str) && b.is(K::Str)) {
        bool in = b.text.find(a.text) != std::string::npos;
        return (in == (op == "in")) ? Condition::truth() : Condition::falsity();
      }
      return opaqueComparison(op, text);
    }
    Condition any = Condition::falsity();
    for (size_t i = 0; i < b.items.size(); ++i)
      any = any || ((b.present.empty() ? Condition::truth() : b.present[i]) && compare(a, "==", b.items[i], text));
    if (b.open) // among the items not known: the positive fact, negated below for `not in`
      any = any || (op == "in" ? opaqueComparison(op, text) : !opaqueComparison(op, text));
    return op == "in" ? any : !any;
  }
  if (op == "is" || op == "is not") {
    bool aNone = a.is(K::None), bNone = b.is(K::None);
    auto known = [](const Value &v) { // values that are definitely (not) None
      return v.is(K::None) || v.is(K::Sym) || v.is(K::Tuple) || v.is(K::Int) || v.is(K::CudaStr) ||
             isNamedObject(v);
    };
    bool definite = known(a) && known(b);
    if (!definite) return opaqueComparison(op, text);
    bool same = (aNone && bNone) || (isNamedObject(a) && isNamedObject(b) && a.name == b.name);
    return (same == (op == "is")) ? Condition::truth() : Condition::falsity();
  }
  auto cmp = cmpOp(op);
  if (!cmp) return opaqueComparison(op, text);
  // The selected backend against a backend name.
  if ((a.is(K::Backend) && isStringLike(b)) || (b.is(K::Backend) && isStringLike(a))) {
    const Value &name = a.is(K::Backend) ? b : a;
    auto c = Condition::backendIs({normalizeBackend(name.text)}, text);
    if (*cmp == CmpOp::Eq) return c;
    if (*cmp == CmpOp::Ne) return !c;
  }
  if ((a.is(K::Quant) && b.is(K::Str)) || (b.is(K::Quant) && a.is(K::Str))) {
    auto c = Condition::quantIs({a.is(K::Str) ? a.text : b.text}, text);
    if (*cmp == CmpOp::Eq) return c;
    if (*cmp == CmpOp::Ne) return !c;
  }
  if ((a.is(K::Quant) && b.is(K::None)) || (b.is(K::Quant) && a.is(K::None)))
    return (*cmp == CmpOp::Eq) ? Condition::quantIs({"<none>"}, text) : !Condition::quantIs({"<none>"}, text);
  // Numbers, tuples and versions.
  auto toLin = [](const Value &v) -> std::optional<std::vector<Linear>> {
    if (v.is(K::Str)) {
      if (auto ver = versionOf(v.text); ver && v.text.find('.') != std::string::npos) return ver;
      try {
        size_t used = 0;
        long x = std::stol(v.text, &used);
        if (used == v.text.size()) return std::vector<Linear>{Linear::constantOf(x)};
      } catch (...) {}
      return std::nullopt;
    }
    return linearize(v);
  };
  bool stringSide = (a.is(K::Sym) && a.symIsString) || (b.is(K::Sym) && b.symIsString) ||
                    a.is(K::CudaStr) || b.is(K::CudaStr);
  if (stringSide || (!a.is(K::Str) && !b.is(K::Str))) {
    auto la = toLin(a), lb = toLin(b);
    if (la && lb) {
      if (a.is(K::CudaStr) || b.is(K::CudaStr)) {
        // torch.version.cuda compared as a string: version order for >=, <.
      }
      return Condition::compare(*la, *cmp, *lb, text);
    }
  }
  if ((isStringLike(a) || a.is(K::None) || a.is(K::Int)) && (isStringLike(b) || b.is(K::None) || b.is(K::Int))) {
    bool eq = sameConstant(a, b) || (a.is(K::Int) && b.is(K::Int) && a.i == b.i);
    if (*cmp == CmpOp::Eq) return eq ? Condition::truth() : Condition::falsity();
    if (*cmp == CmpOp::Ne) return eq ? Condition::falsity() : Condition::truth();
  }
  // Objects bound to module-level names: each equals itself only, never
  // None or a literal (`scheme in [(kNvfp4Static, kNvfp4Dynamic), (None, None)]`).
  if (isNamedObject(a) || isNamedObject(b)) {
    const Value &other = isNamedObject(a) ? b : a;
    if (isNamedObject(other) || other.is(K::None) || isStringLike(other) || other.is(K::Int)) {
      bool eq = a.is(b.kind) && a.name == b.name;
      if (*cmp == CmpOp::Eq) return eq ? Condition::truth() : Condition::falsity();
      if (*cmp == CmpOp::Ne) return eq ? Condition::falsity() : Condition::truth();
    }
  }
  // Tuples of such values, item by item.
  if (a.is(K::Tuple) && b.is(K::Tuple) && !a.open && !b.open && a.present.empty() && b.present.empty() &&
      (*cmp == CmpOp::Eq || *cmp == CmpOp::Ne)) {
    Condition same = a.items.size() == b.items.size() ? Condition::truth() : Condition::falsity();
    for (size_t i = 0; i < a.items.size() && i < b.items.size(); ++i)
      same = same && compare(a.items[i], "==", b.items[i], text);
    return *cmp == CmpOp::Eq ? same : !same;
  }
  if (a.is(K::EnumMember) && b.is(K::EnumMember)) {
    bool eq = a.text == b.text;
    if (*cmp == CmpOp::Eq) return eq ? Condition::truth() : Condition::falsity();
    if (*cmp == CmpOp::Ne) return eq ? Condition::falsity() : Condition::truth();
  }
  return opaqueComparison(op, text);
}

} // namespace archscope::py
