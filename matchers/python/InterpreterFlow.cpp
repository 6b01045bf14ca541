//===--- InterpreterFlow.cpp - statements under a path condition --------===//
// SPDX-License-Identifier: Apache-2.0
//
// `reach` is the condition under which control gets to a statement. A
// return or raise under `c` leaves `reach and not c` for what follows, so a
// raise after a loop of early returns is reached exactly when no return was.
// Locals assigned in branches are merged with if-then-else on the branch
// conditions; returns are merged the same way into the function's value.
//===----------------------------------------------------------------------===//
#include "matchers/python/Interpreter.h"

#include <algorithm>
#include <optional>
#include <set>

namespace archscope::py {
namespace {

bool sameValue(const Value &a, const Value &b) {
  using K = Value::Kind;
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case K::Int: return a.i == b.i;
  case K::Str: case K::EnumMember: case K::External: case K::Backend: case K::Quant: case K::CudaStr:
    return a.text == b.text;
  case K::None: return true;
  case K::Sym:
    return a.symIsString == b.symIsString && a.lin.constant == b.lin.constant &&
           std::equal(std::begin(a.lin.coef), std::end(a.lin.coef), std::begin(b.lin.coef));
  case K::Tuple:
    if (a.items.size() != b.items.size()) return false;
    for (size_t i = 0; i < a.items.size(); ++i)
      if (!sameValue(a.items[i], b.items[i])) return false;
    return true;
  case K::Func: case K::Class: case K::Instance:
    return a.func.def.id == b.func.def.id && a.cls.def.id == b.cls.def.id;
  default: return false;
  }
}

/// A string, enum member, number or None, or a choice among a few of them
/// (nested at most three deep: comparisons distribute over every leaf).
bool isConstantChoice(const Value &v, int depth) {
  using K = Value::Kind;
  if (v.is(K::Str) || v.is(K::EnumMember) || v.is(K::Int) || v.is(K::None)) return true;
  return v.is(K::Choice) && depth < 3 && isConstantChoice(v.items[0], depth + 1) &&
         isConstantChoice(v.items[1], depth + 1);
}

Condition presentAt(const Value &list, size_t i) {
  return list.present.empty() ? Condition::truth() : list.present[i];
}

/// Lists of which one is the other with items appended on its side of the
/// branch: the shared items where either had them, the appended ones only
/// on that side (so `if not xs: raise` after the join is exact).
std::optional<Value> mergeAppended(const Condition &c, const Value &a, const Value &b) {
  if (a.open || b.open || a.items.size() == b.items.size()) return std::nullopt;
  bool aLonger = a.items.size() > b.items.size();
  const Value &longer = aLonger ? a : b, &shorter = aLonger ? b : a;
  for (size_t i = 0; i < shorter.items.size(); ++i)
    if (!sameValue(longer.items[i], shorter.items[i])) return std::nullopt;
  Condition side = aLonger ? c : !c;
  Value merged = longer;
  merged.present.clear();
  for (size_t i = 0; i < longer.items.size(); ++i)
    merged.present.push_back(i < shorter.items.size()
                                 ? (side && presentAt(longer, i)) || (!side && presentAt(shorter, i))
                                 : side && presentAt(longer, i));
  return merged;
}

/// if c then a else b, for values the interpreter can merge.
Value merge(const Condition &c, const Value &a, const Value &b, Interpreter &in) {
  using K = Value::Kind;
  if (c.isTrue()) return a;
  if (c.isFalse()) return b;
  if (sameValue(a, b)) return a;
  if (a.is(K::Bool) || b.is(K::Bool)) // the other side's truth (opaque if unknown)
    return Value::boolean((c && in.toCond(a)) || (!c && in.toCond(b)));
  if (a.is(K::Tuple) && b.is(K::Tuple) && a.items.size() == b.items.size()) {
    std::vector<Value> items;
    for (size_t i = 0; i < a.items.size(); ++i) items.push_back(merge(c, a.items[i], b.items[i], in));
    Value merged = Value::tuple(items);
    merged.open = a.open || b.open;
    return merged;
  }
  if (a.is(K::Tuple) && b.is(K::Tuple)) // `if c: xs.append(v)`: items appended on one side
    if (auto appended = mergeAppended(c, a, b)) return *appended;
  if (a.kind == b.kind && a.text == b.text && (a.is(K::Str) || a.is(K::EnumMember) || a.is(K::Backend)))
    return a;
  if (a.kind == b.kind && a.is(K::Func) && a.func.def.id == b.func.def.id) return a;
  // JIT modules built on different branches: each with its branch's condition.
  if (a.is(K::JitModule) || b.is(K::JitModule)) {
    Value m;
    m.kind = K::JitModule;
    m.text = a.is(K::JitModule) ? a.text : b.text;
    for (const auto &[cond, spec] : a.jit) m.jit.push_back({c && cond, spec});
    for (const auto &[cond, spec] : b.jit) m.jit.push_back({!c && cond, spec});
    return m;
  }
  // A backend variable reassigned to a constant on some path stays the
  // symbolic selected backend: the assignment itself is reported as a
  // selection, and later tests on it are tests of the selection.
  if (a.is(K::Backend) && (b.is(K::Str) || b.is(K::EnumMember) || b.is(K::Backend))) return a;
  if (b.is(K::Backend) && (a.is(K::Str) || a.is(K::EnumMember))) return b;
  // Constants set on different branches (`default = "a"` / `default = "b"`):
  // each under its branch's condition, as a conditional expression is.
  if (isConstantChoice(a, 0) && isConstantChoice(b, 0)) {
    Value choice = Value::tuple({a, b});
    choice.kind = K::Choice;
    choice.cond = c;
    choice.text = a.text.empty() ? b.text : a.text;
    return choice;
  }
  return Value::unknown(a.text.empty() ? b.text : a.text);
}

struct Return {
  Condition when;
  Value value;
};

class Walker {
public:
  Walker(Interpreter &in, Frame &f) : in_(in), f_(f) {}

  void block(TSNode node) { statements(namedChildren(node)); }

  void statements(const std::vector<TSNode> &stmts) {
    for (TSNode stmt : stmts) {
      if (f_.reach.isFalse() || !in_.spend()) return;
      statement(stmt);
    }
  }

  /// The function's value given that it returns: paths that raise are
  /// not values, so when the end is unreachable the last return is the base.
  Value result() {
    if (returns_.empty()) return Value::none();
    bool fallsThrough = !f_.reach.isFalse();
    Value acc = fallsThrough ? Value::none() : returns_.back().value;
    size_t n = fallsThrough ? returns_.size() : returns_.size() - 1;
    for (size_t i = n; i-- > 0;) acc = merge(returns_[i].when, returns_[i].value, acc, in_);
    return acc;
  }

private:
  const ParsedModule &pm() const { return *f_.mod->parsed; }

  void statement(TSNode s) {
    auto t = type(s);
    if (t == "expression_statement") {
      for (TSNode e : namedChildren(s)) {
        if (type(e) == "assignment") assign(e);
        else if (type(e) == "augmented_assignment") augmentedAssign(e);
        else if (type(e) != "string") {
          in_.evalExpr(e, f_);
          if (type(e) == "call") mutated(e);
        }
      }
    } else if (t == "return_statement") {
      auto kids = namedChildren(s);
      Value v = kids.empty() ? Value::none() : in_.evalExpr(kids[0], f_);
      if (!kids.empty() && type(kids[0]) == "dictionary") selectFromDict(kids[0]);
      returns_.push_back({f_.reach, v});
      f_.reach = Condition::falsity();
    } else if (t == "raise_statement") {
      if (f_.sink) f_.sink->raised(f_.reach, *f_.mod, s);
      f_.reach = Condition::falsity();
    } else if (t == "assert_statement") {
      auto kids = namedChildren(s);
      Condition c = kids.empty() ? Condition::truth() : in_.toCond(in_.evalExpr(kids[0], f_));
      if (f_.sink) f_.sink->raised(f_.reach && !c, *f_.mod, s);
      // A check of the configuration alone (a file read, a shape) is assumed
      // to pass on the way to what follows: that is a working deployment.
      if (!c.onlyConfiguration()) f_.reach = f_.reach && c;
    } else if (t == "if_statement") {
      ifStatement(s);
    } else if (t == "for_statement") {
      forStatement(s);
    } else if (t == "while_statement") {
      ++loops_;
      block(field(s, "body"));
      --loops_;
    } else if (t == "with_statement") {
      block(field(s, "body"));
    } else if (t == "try_statement") {
      tryStatement(s);
    } else if (t == "function_definition" || t == "decorated_definition") {
      TSNode def = t == "decorated_definition" ? field(s, "definition") : s;
      if (type(def) == "function_definition") {
        Value v;
        v.kind = Value::Kind::Func;
        v.func = FuncRef{f_.mod, def, {}, false, false};
        f_.locals[std::string(pm().text(field(def, "name")))] = v;
      }
    } else if (t == "import_from_statement") {
      localImport(s);
    }
  }

  void localImport(TSNode s) { in_.bindLocalImport(s, f_); }

  /// `paths.append(p)` on a local list: the item is added (a branch's
  /// locals merge on its condition at the join); in a loop walked once for
  /// any number of runs how many were added is not known, so the list
  /// becomes unknown (else `if not paths: raise` would be taken for certain).
  /// `insert` and `pop` at known places are exact too (`kernels.insert(i,
  /// kernels.pop(j))`, a reorder); any other mutation makes the list unknown.
  void mutated(TSNode call) {
    Value *list = mutatedList(call);
    if (!list || !exactMutation(call)) forget(call);
  }

  /// Applies an append, insert or pop whose effect is known; false otherwise.
  bool exactMutation(TSNode call) {
    Value *list = mutatedList(call);
    std::string_view method = pm().text(field(field(call, "function"), "attribute"));
    auto args = namedChildren(field(call, "arguments"));
    for (TSNode a : args)
      if (type(a) == "keyword_argument" || type(a) == "list_splat") return false;
    if (!list || loops_ > 0 || list->open) return false;
    if (method == "append" && args.size() == 1) {
      Value item = in_.evalExpr(args[0], f_);
      if (!list->present.empty()) list->present.push_back(Condition::truth());
      list->items.push_back(item);
      return true;
    }
    if (method == "pop") return popped(call).has_value();
    if (method != "insert" || args.size() != 2 || !list->present.empty()) return false;
    Value at = in_.evalExpr(args[0], f_);
    bool pops = type(args[1]) == "call" && pm().text(field(field(args[1], "function"), "attribute")) == "pop";
    std::optional<Value> item = pops ? popped(args[1]) : std::optional(in_.evalExpr(args[1], f_));
    list = mutatedList(call); // a failed pop from this same list has made it unknown
    if (!item || !at.is(Value::Kind::Int) || !list || !list->present.empty()) return false;
    long n = long(list->items.size());
    long i = std::clamp(at.i < 0 ? at.i + n : at.i, 0L, n);
    list->items.insert(list->items.begin() + i, *item);
    return true;
  }

  /// The list a mutation not modelled leaves: unknown.
  void forget(TSNode call) {
    if (Value *list = mutatedList(call))
      *list = Value::unknown(std::string(pm().text(field(field(call, "function"), "object"))));
  }

  /// The local list a `NAME.method(...)` call mutates, or null.
  Value *mutatedList(TSNode call) {
    TSNode fn = field(call, "function");
    if (type(fn) != "attribute" || type(field(fn, "object")) != "identifier") return nullptr;
    static const std::set<std::string_view> mutators{"append", "extend", "insert", "add", "update",
                                                      "pop", "remove", "clear", "discard", "setdefault"};
    if (!mutators.count(pm().text(field(fn, "attribute")))) return nullptr;
    auto it = f_.locals.find(std::string(pm().text(field(fn, "object"))));
    return it == f_.locals.end() || !it->second.is(Value::Kind::Tuple) ? nullptr : &it->second;
  }

  /// `NAME.pop()` or `NAME.pop(i)` at a known place: removes and returns the
  /// item; nullopt (the list unknown) otherwise.
  std::optional<Value> popped(TSNode call) {
    Value *list = mutatedList(call);
    if (!list || pm().text(field(field(call, "function"), "attribute")) != "pop") return std::nullopt;
    auto args = namedChildren(field(call, "arguments"));
    Value at = args.empty() ? Value::integer(-1) : in_.evalExpr(args[0], f_);
    long n = long(list->items.size());
    long i = at.is(Value::Kind::Int) ? (at.i < 0 ? at.i + n : at.i) : -1;
    if (loops_ > 0 || list->open || !list->present.empty() || args.size() > 1 || i < 0 || i >= n) {
      forget(call);
      return std::nullopt;
    }
    Value item = list->items[size_t(i)];
    list->items.erase(list->items.begin() + i);
    return item;
  }

  /// `flags += [...]` on a local: the local becomes `flags + [...]`.
  void augmentedAssign(TSNode e) {
    TSNode left = field(e, "left");
    Value rhs = in_.evalExpr(field(e, "right"), f_);
    std::string op(pm().text(field(e, "operator")));
    if (type(left) != "identifier" || op.size() < 2 || op.back() != '=') return;
    std::string name(pm().text(left));
    auto it = f_.locals.find(name);
    if (it == f_.locals.end()) return;
    it->second = in_.binaryOp(it->second, op.substr(0, op.size() - 1), rhs, std::string(pm().text(e)));
  }

  void assign(TSNode e) {
    std::vector<TSNode> targets;
    TSNode cur = e;
    while (type(cur) == "assignment") {
      targets.push_back(field(cur, "left"));
      TSNode right = field(cur, "right");
      if (isNull(right)) return;
      cur = right;
    }
    Value v = in_.evalExpr(cur, f_);
    for (TSNode target : targets) bind(target, v, e);
  }

  void bind(TSNode target, const Value &v, TSNode site) {
    auto t = type(target);
    std::string text(pm().text(target));
    if (t == "identifier") {
      f_.locals[text] = v;
      // Assigning a backend to the selection variable is reported as a
      // selection; afterwards the variable is again the symbolic selected
      // backend, so later tests on it are tests of the selection.
      if (in_.vocab().selectors.count(text) && selected(v, site)) {
        Value sym;
        sym.kind = Value::Kind::Backend;
        sym.text = text;
        f_.locals[text] = sym;
      }
    } else if (t == "pattern_list" || t == "tuple_pattern" || t == "list_pattern") {
      auto parts = namedChildren(target);
      for (size_t i = 0; i < parts.size(); ++i) {
        bool fits = v.is(Value::Kind::Tuple) && v.items.size() == parts.size();
        bind(parts[i], fits ? v.items[i] : Value::unknown(std::string(pm().text(parts[i]))), site);
      }
    } else if (t == "attribute") {
      if (in_.vocab().selectors.count(std::string(pm().text(field(target, "attribute"))))) selected(v, site);
    } else if (t == "subscript") {
      Value key = in_.evalExpr(field(target, "subscript"), f_);
      if (key.is(Value::Kind::Str) && in_.vocab().selectors.count(key.text)) selected(v, site);
    }
  }

  void selectFromDict(TSNode dict) {
    for (TSNode pair : namedChildren(dict)) {
      if (type(pair) != "pair") continue;
      Value key = in_.evalExpr(field(pair, "key"), f_);
      if (key.is(Value::Kind::Str) && in_.vocab().selectors.count(key.text))
        selected(in_.evalExpr(field(pair, "value"), f_), pair);
    }
  }

  /// Reports `v` as a selection where it names a backend; true when every
  /// value it may have does. A conditional expression selects each side
  /// under its test (`"flashinfer_megamoe" if use_w4a16 else "flashinfer_trtllm"`).
  bool selected(const Value &v, TSNode site) {
    if (v.is(Value::Kind::Choice)) {
      Condition saved = f_.reach;
      f_.reach = saved && v.cond;
      bool first = selected(v.items[0], site);
      f_.reach = saved && !v.cond;
      bool second = selected(v.items[1], site);
      f_.reach = saved;
      return first && second;
    }
    if (!(v.is(Value::Kind::Str) || v.is(Value::Kind::EnumMember))) return false;
    if (f_.sink) f_.sink->selected(f_.reach, Interpreter::normalizeBackend(v.text), *f_.mod, site);
    return true;
  }

  struct BranchEnd {
    Condition reach;
    std::map<std::string, Value> locals;
    Condition entry; ///< reach at the branch's start
  };

  BranchEnd runBranch(TSNode body, const Condition &entry) {
    Condition saved = f_.reach;
    auto savedLocals = f_.locals;
    f_.reach = entry;
    block(body);
    BranchEnd end{f_.reach, f_.locals, entry};
    f_.reach = saved;
    f_.locals = std::move(savedLocals);
    return end;
  }

  void ifStatement(TSNode s) {
    std::vector<BranchEnd> ends;
    Condition rest = f_.reach;
    auto arm = [&](TSNode condNode, TSNode body) {
      Condition c = in_.toCond(in_.evalExpr(condNode, f_));
      if (f_.sink) f_.sink->branched(c, rest, *f_.mod, condNode);
      in_.activeGuards().push_back({c, f_.mod, condNode});
      size_t returnsBefore = returns_.size();
      ends.push_back(runBranch(body, rest && c));
      in_.activeGuards().pop_back();
      // A configuration-only branch that always raises is an error path:
      // the normal path goes on without assuming its condition false.
      bool errorPath = ends.back().reach.isFalse() && returns_.size() == returnsBefore && c.onlyConfiguration();
      if (!errorPath) rest = rest && !c;
    };
    arm(field(s, "condition"), field(s, "consequence"));
    bool hasElse = false;
    for (TSNode alt : namedChildren(s)) {
      if (type(alt) == "elif_clause") arm(field(alt, "condition"), field(alt, "consequence"));
      else if (type(alt) == "else_clause") {
        ends.push_back(runBranch(field(alt, "body"), rest));
        hasElse = true;
      }
    }
    if (!hasElse) ends.push_back({rest, f_.locals, rest});
    join(ends, f_.reach);
  }

  /// Continues after branches: reach is where any branch falls through;
  /// locals are merged on the branch conditions. When every branch runs to
  /// its end, what follows is reached as the statement was (`before`): the
  /// union of `c` and `not c` is not `true` in three-valued logic when c is
  /// opaque, so it must not be rebuilt from the branches.
  void join(std::vector<BranchEnd> &ends, const Condition &before) {
    Condition reach = Condition::falsity();
    bool allFallThrough = true;
    for (const auto &e : ends) {
      reach = reach || e.reach;
      allFallThrough = allFallThrough && e.reach.sameAs(e.entry);
    }
    if (allFallThrough) reach = before;
    std::map<std::string, Value> merged;
    std::set<std::string> names;
    for (const auto &e : ends)
      if (!e.reach.isFalse())
        for (const auto &[k, v] : e.locals) names.insert(k);
    for (const auto &name : names) {
      Value acc = Value::unknown(name);
      bool first = true;
      for (auto it = ends.rbegin(); it != ends.rend(); ++it) {
        if (it->reach.isFalse()) continue;
        auto found = it->locals.find(name);
        Value v = found == it->locals.end() ? Value::unknown(name) : found->second;
        acc = first ? v : merge(it->reach, v, acc, in_);
        first = false;
      }
      merged[name] = acc;
    }
    f_.locals = std::move(merged);
    f_.reach = reach;
  }

  /// try/except as a branch on an opaque "the body did not raise": an import
  /// in the body makes it a package atom ("import b12x succeeds").
  void tryStatement(TSNode s) {
    TSNode body = field(s, "body");
    std::vector<TSNode> handlers;
    for (TSNode c : namedChildren(s))
      if (type(c) == "except_clause" || type(c) == "except_group_clause") handlers.push_back(c);
    if (handlers.empty()) {
      block(body);
      return;
    }
    Condition ok = trySucceeds(*f_.mod, s);
    std::vector<BranchEnd> ends;
    ends.push_back(runBranch(body, f_.reach && ok));
    for (TSNode h : handlers) {
      auto kids = namedChildren(h);
      if (!kids.empty()) ends.push_back(runBranch(kids.back(), f_.reach && !ok));
    }
    join(ends, f_.reach);
  }

  void forStatement(TSNode s) {
    TSNode left = field(s, "left");
    Value iter = in_.evalExpr(field(s, "right"), f_);
    if (iter.is(Value::Kind::Tuple) && iter.items.size() <= 32) {
      for (const auto &item : iter.items) {
        if (f_.reach.isFalse()) break;
        bind(left, item, s);
        block(field(s, "body"));
      }
      return;
    }
    bind(left, Value::unknown(std::string(pm().text(left))), s);
    Condition before = f_.reach;
    size_t returnsBefore = returns_.size();
    ++loops_;
    block(field(s, "body"));
    --loops_;
    f_.reach = before; // the loop may run zero times
    if (returns_.size() > returnsBefore) {
      // A search loop: falling out of it means nothing was found, which the
      // code cannot tell statically.
      std::string what = "the loop at " + f_.mod->file->relPath + ":" + std::to_string(pm().line(s)) +
                         " ends without returning";
      f_.reach = f_.reach && Condition::opaque(OpaqueKind::Config, what);
    }
  }

  Interpreter &in_;
  Frame &f_;
  std::vector<Return> returns_;
  int loops_ = 0; ///< loops around the current statement walked once for any number of runs
};

} // namespace

Condition trySucceeds(const Module &m, TSNode tryStmt) {
  const ParsedModule &pm = *m.parsed;
  std::string what = "try at " + m.file->relPath + ":" + std::to_string(pm.line(tryStmt)) + " succeeds";
  for (TSNode stmt : namedChildren(field(tryStmt, "body"))) {
    auto st = type(stmt);
    if (st == "import_statement" || st == "import_from_statement") {
      TSNode name = field(stmt, st == "import_from_statement" ? "module_name" : "name");
      what = "import " + std::string(pm.text(name)) + " succeeds";
      break;
    }
  }
  return Condition::opaque(classifyOpaque(what), what);
}

Value Interpreter::mergeBranches(const Condition &c, const Value &a, const Value &b) { return merge(c, a, b, *this); }

Value Interpreter::walkFunction(const FuncRef &fn, std::vector<Value> args,
                                std::map<std::string, Value> kwargs, const Condition &reach,
                                FlowSink *sink, int depth, const Value *self) {
  if (depth > kMaxDepth || !fn.mod) return Value::unknown("");
  Frame f{fn.mod, {}, depth, sink, reach};
  const ParsedModule &pm = *fn.mod->parsed;
  std::vector<TSNode> params = namedChildren(field(fn.def, "parameters"));
  size_t pos = 0;
  bool implicitFirst = fn.owner.valid() && !fn.isStatic && self;
  for (size_t i = 0; i < params.size(); ++i) {
    TSNode p = params[i];
    auto t = type(p);
    TSNode nameNode = p;
    TSNode defaultNode{};
    if (t == "typed_parameter") nameNode = namedChildren(p)[0];
    else if (t == "default_parameter" || t == "typed_default_parameter") {
      nameNode = field(p, "name");
      defaultNode = field(p, "value");
    } else if (t != "identifier") continue;
    std::string name(pm.text(nameNode));
    Value v = Value::unknown(name);
    if (i == 0 && implicitFirst) v = *self;
    else if (kwargs.count(name)) v = kwargs[name];
    else if (pos < args.size()) v = args[pos++];
    else if (!isNull(defaultNode)) {
      Frame d{fn.mod, {}, kMaxDepth, nullptr};
      v = evalExpr(defaultNode, d);
    }
    if (v.is(Value::Kind::Unknown) && vocab_.selectors.count(name)) {
      v.kind = Value::Kind::Backend;
      v.text = name;
    } else if (v.is(Value::Kind::Unknown) && vocab_.quantFlags.count(name)) {
      v.kind = Value::Kind::Quant;
      v.text = name;
    }
    f.locals[name] = v;
  }
  if (sink) sink->entered(fn, reach);
  Walker w(*this, f);
  w.block(field(fn.def, "body"));
  return w.result();
}

void Interpreter::walkStatements(const std::vector<TSNode> &stmts, Frame &f) { Walker(*this, f).statements(stmts); }

void Interpreter::bindLocalImport(TSNode stmt, Frame &f) {
  const ParsedModule &pm = *f.mod->parsed;
  importsQuery().run(pm, stmt, [&](const Query::Captures &caps) {
    auto from = caps.find("import.from"), name = caps.find("import.name");
    if (from == caps.end() || name == caps.end()) return;
    auto alias = caps.find("import.alias");
    std::string mod = index_.absoluteModule(*f.mod, std::string(pm.text(from->second)));
    std::string n(pm.text(name->second));
    Module *target = index_.module(mod);
    Value v = target ? resolveName(target, n) : Value::external(mod + "." + n);
    f.locals[alias == caps.end() ? n : std::string(pm.text(alias->second))] = v;
  });
}

} // namespace archscope::py
