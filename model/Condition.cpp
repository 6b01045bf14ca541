//===--- Condition.cpp - construction, folding and evaluation -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Condition.h"
#include "model/ConditionNode.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <optional>
#include <string_view>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace archscope {


Tri triNot(Tri a) { return a == Tri::True ? Tri::False : a == Tri::False ? Tri::True : Tri::Unknown; }
Tri triAnd(Tri a, Tri b) {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  if (a == Tri::True && b == Tri::True) return Tri::True;
  return Tri::Unknown;
}
Tri triOr(Tri a, Tri b) {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  if (a == Tri::False && b == Tri::False) return Tri::False;
  return Tri::Unknown;
}

bool Linear::isConstant() const { return !readsCuda() && !readsCapability(); }
bool Linear::readsCuda() const { return coef[2] || coef[3]; }
bool Linear::readsCapability() const { return coef[0] || coef[1]; }

CmpOp flip(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return CmpOp::Gt;
  case CmpOp::Le: return CmpOp::Ge;
  case CmpOp::Gt: return CmpOp::Lt;
  case CmpOp::Ge: return CmpOp::Le;
  default: return op;
  }
}
CmpOp negate(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return CmpOp::Ge;
  case CmpOp::Le: return CmpOp::Gt;
  case CmpOp::Gt: return CmpOp::Le;
  case CmpOp::Ge: return CmpOp::Lt;
  case CmpOp::Eq: return CmpOp::Ne;
  case CmpOp::Ne: return CmpOp::Eq;
  }
  return op;
}

namespace {

using Node = Condition::Node;
using Op = Node::Op;

/// Atom text on one line, whitespace folded, at most 160 characters.
std::string oneLine(const std::string &text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') { space = !out.empty(); continue; }
    if (space) { out += ' '; space = false; }
    out += c;
  }
  if (out.size() > 160) out = out.substr(0, 157) + "...";
  return out;
}

Condition make(Op op, std::vector<Condition> kids = {}, Atom atom = {}, std::string why = {}) {
  return Condition(std::make_shared<const Node>(Node{op, std::move(atom), std::move(kids), std::move(why)}));
}

long evalLinear(const Linear &l, const EvalEnv &env) {
  long vars[kSymVars] = {env.gpu.major, env.gpu.minor, env.cudaMajor, env.cudaMinor};
  long v = l.constant;
  for (int i = 0; i < kSymVars; ++i) v += l.coef[i] * vars[i];
  return v;
}

bool compareTuples(const std::vector<long> &a, CmpOp op, const std::vector<long> &b) {
  int c = std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end())   ? -1
          : std::lexicographical_compare(b.begin(), b.end(), a.begin(), a.end()) ? 1
                                                                                 : 0;
  switch (op) {
  case CmpOp::Lt: return c < 0;
  case CmpOp::Le: return c <= 0;
  case CmpOp::Gt: return c > 0;
  case CmpOp::Ge: return c >= 0;
  case CmpOp::Eq: return c == 0;
  case CmpOp::Ne: return c != 0;
  }
  return false;
}

} // namespace

Tri evalAtom(const Atom &a, const EvalEnv &env) {
  switch (a.kind) {
  case Atom::Kind::Compare: {
    std::vector<long> l, r;
    for (const auto &x : a.lhs) l.push_back(evalLinear(x, env));
    for (const auto &x : a.rhs) r.push_back(evalLinear(x, env));
    return compareTuples(l, a.op, r) ? Tri::True : Tri::False;
  }
  case Atom::Kind::Backend:
    if (!env.backend) return Tri::Unknown;
    return a.names.count(*env.backend) ? Tri::True : Tri::False;
  case Atom::Kind::Quant:
    if (!env.quantFlags) return Tri::Unknown;
    for (const auto &n : a.names)
      if (env.quantFlags->count(n)) return Tri::True;
    return Tri::False;
  case Atom::Kind::Opaque: {
    auto it = env.assume.find(a.text);
    if (it == env.assume.end()) return Tri::Unknown;
    return it->second ? Tri::True : Tri::False;
  }
  }
  return Tri::Unknown;
}

namespace {

bool anyAtomMemo(const Condition &c, const std::function<bool(const Atom &)> &pred,
                 std::unordered_set<const Node *> &seen) {
  const auto &n = c.node();
  if (!seen.insert(&n).second) return false;
  if (n.op == Op::Atom) return pred(n.atom);
  for (const auto &k : n.kids)
    if (anyAtomMemo(k, pred, seen)) return true;
  return false;
}

bool anyAtom(const Condition &c, const std::function<bool(const Atom &)> &pred) {
  std::unordered_set<const Node *> seen;
  return anyAtomMemo(c, pred, seen);
}

void collectAtoms(const Condition &c, bool opaqueOnly, std::vector<Atom> &out,
                  std::unordered_set<const Node *> &seen) {
  const auto &n = c.node();
  if (!seen.insert(&n).second) return;
  if (n.op == Op::Atom && (!opaqueOnly || n.atom.kind == Atom::Kind::Opaque)) {
    for (const auto &a : out)
      if (a.text == n.atom.text) return;
    out.push_back(n.atom);
  }
  for (const auto &k : n.kids) collectAtoms(k, opaqueOnly, out, seen);
}

const char *opText(CmpOp op) {
  switch (op) {
  case CmpOp::Lt: return "<";
  case CmpOp::Le: return "<=";
  case CmpOp::Gt: return ">";
  case CmpOp::Ge: return ">=";
  case CmpOp::Eq: return "==";
  case CmpOp::Ne: return "!=";
  }
  return "?";
}

std::string joinNames(const std::set<std::string> &names) {
  std::string s;
  for (const auto &n : names) s += (s.empty() ? "" : ",") + n;
  return s;
}

} // namespace

Condition Condition::truth() { return make(Op::True); }
Condition Condition::falsity() { return make(Op::False); }
Condition Condition::unknown(std::string why) { return make(Op::Unknown, {}, {}, std::move(why)); }
Condition Condition::atom(Atom a) { return make(Op::Atom, {}, std::move(a)); }

Condition Condition::compare(std::vector<Linear> lhs, CmpOp op, std::vector<Linear> rhs,
                             std::string text) {
  Atom a;
  a.kind = Atom::Kind::Compare;
  bool constant = true;
  for (const auto &l : lhs) constant &= l.isConstant();
  for (const auto &r : rhs) constant &= r.isConstant();
  a.lhs = std::move(lhs);
  a.rhs = std::move(rhs);
  a.op = op;
  a.text = oneLine(text);
  if (constant) return evalAtom(a, EvalEnv{}) == Tri::True ? truth() : falsity();
  return atom(std::move(a));
}

Condition Condition::backendIs(std::set<std::string> names, std::string text) {
  Atom a;
  a.kind = Atom::Kind::Backend;
  a.names = std::move(names);
  a.text = std::move(text);
  return atom(std::move(a));
}

Condition Condition::quantIs(std::set<std::string> names, std::string text) {
  Atom a;
  a.kind = Atom::Kind::Quant;
  a.names = std::move(names);
  a.text = std::move(text);
  return atom(std::move(a));
}

Condition Condition::opaque(OpaqueKind kind, std::string text) {
  Atom a;
  a.kind = Atom::Kind::Opaque;
  a.opaqueKind = kind;
  a.text = oneLine(text);
  return atom(std::move(a));
}

Condition Condition::operator!() const {
  switch (node_->op) {
  case Op::True: return falsity();
  case Op::False: return truth();
  case Op::Unknown: return *this;
  case Op::Not: return node_->kids[0];
  default: return make(Op::Not, {*this});
  }
}

Condition operator&&(const Condition &a, const Condition &b) {
  if (a.isFalse() || b.isTrue()) return a;
  if (b.isFalse() || a.isTrue()) return b;
  return make(Op::And, {a, b});
}

Condition operator||(const Condition &a, const Condition &b) {
  if (a.isTrue() || b.isFalse()) return a;
  if (b.isTrue() || a.isFalse()) return b;
  return make(Op::Or, {a, b});
}

namespace {
/// Conditions are DAGs (if-then-else merges share sub-formulas), so every
/// traversal visits each node once.
Tri evalMemo(const Condition &c, const EvalEnv &env, std::unordered_map<const Node *, Tri> &memo) {
  const Node &n = c.node();
  if (auto it = memo.find(&n); it != memo.end()) return it->second;
  Tri r = Tri::Unknown;
  switch (n.op) {
  case Op::True: r = Tri::True; break;
  case Op::False: r = Tri::False; break;
  case Op::Unknown: r = Tri::Unknown; break;
  case Op::Atom: r = evalAtom(n.atom, env); break;
  case Op::Not: r = triNot(evalMemo(n.kids[0], env, memo)); break;
  case Op::And:
    r = Tri::True;
    for (const auto &k : n.kids) r = triAnd(r, evalMemo(k, env, memo));
    break;
  case Op::Or:
    r = Tri::False;
    for (const auto &k : n.kids) r = triOr(r, evalMemo(k, env, memo));
    break;
  }
  memo.emplace(&n, r);
  return r;
}
} // namespace

namespace {
Condition assumingMemo(const Condition &c, const std::map<std::string, bool> &assume,
                       std::unordered_map<const Node *, Condition> &memo) {
  const Node &n = c.node();
  if (auto it = memo.find(&n); it != memo.end()) return it->second;
  Condition r = c;
  if (n.op == Op::Atom && n.atom.kind == Atom::Kind::Opaque) {
    if (auto a = assume.find(n.atom.text); a != assume.end())
      r = a->second ? Condition::truth() : Condition::falsity();
  } else if (n.op == Op::Not) {
    r = !assumingMemo(n.kids[0], assume, memo);
  } else if (n.op == Op::And || n.op == Op::Or) {
    bool conj = n.op == Op::And;
    r = conj ? Condition::truth() : Condition::falsity();
    for (const auto &k : n.kids) r = conj ? r && assumingMemo(k, assume, memo) : r || assumingMemo(k, assume, memo);
  }
  memo.emplace(&n, r);
  return r;
}
} // namespace

Condition Condition::assuming(const std::map<std::string, bool> &assume) const {
  std::unordered_map<const Node *, Condition> memo;
  return assumingMemo(*this, assume, memo);
}

Tri Condition::eval(const EvalEnv &env) const {
  std::unordered_map<const Node *, Tri> memo;
  return evalMemo(*this, env, memo);
}

bool Condition::isTrue() const { return node_->op == Op::True; }
bool Condition::isFalse() const { return node_->op == Op::False; }
bool Condition::isUnknownLeaf() const { return node_->op == Op::Unknown; }

bool Condition::readsHardware() const {
  return anyAtom(*this, [](const Atom &a) { return a.kind == Atom::Kind::Compare; });
}
bool Condition::readsBackend() const {
  return anyAtom(*this, [](const Atom &a) { return a.kind == Atom::Kind::Backend; });
}
bool Condition::readsQuant() const {
  return anyAtom(*this, [](const Atom &a) { return a.kind == Atom::Kind::Quant; });
}

bool Condition::onlyConfiguration() const {
  if (isTrue() || isFalse() || isUnknownLeaf()) return false;
  return !anyAtom(*this, [](const Atom &a) {
    return a.kind != Atom::Kind::Opaque || a.opaqueKind != OpaqueKind::Config;
  });
}

std::vector<Atom> Condition::opaqueAtoms() const {
  std::vector<Atom> out;
  std::unordered_set<const Node *> seen;
  collectAtoms(*this, true, out, seen);
  return out;
}

size_t Condition::hash() const {
  std::unordered_map<const Node *, size_t> memo; // a DAG: each shared node once
  std::function<size_t(const Node &)> of = [&](const Node &n) -> size_t {
    if (auto it = memo.find(&n); it != memo.end()) return it->second;
    size_t h = std::hash<int>()(int(n.op));
    auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    if (n.op == Op::Atom) {
      mix(std::hash<int>()(int(n.atom.kind)));
      mix(std::hash<std::string>()(n.atom.text));
      for (const auto &name : n.atom.names) mix(std::hash<std::string>()(name));
    }
    if (n.op == Op::Unknown) mix(std::hash<std::string>()(n.why));
    for (const auto &k : n.kids) mix(of(k.node()));
    return memo[&n] = h;
  };
  return of(*node_);
}

std::vector<std::string> Condition::unknownReasons() const {
  std::vector<std::string> out;
  std::unordered_set<const Node *> seen;
  std::vector<const Node *> pending{node_.get()};
  while (!pending.empty()) {
    const Node *n = pending.back();
    pending.pop_back();
    if (!seen.insert(n).second) continue;
    if (n->op == Op::Unknown && !n->why.empty() && std::find(out.begin(), out.end(), n->why) == out.end())
      out.push_back(n->why);
    for (auto it = n->kids.rbegin(); it != n->kids.rend(); ++it) pending.push_back(&it->node());
  }
  return out;
}

std::vector<Atom> Condition::atoms() const {
  std::vector<Atom> out;
  std::unordered_set<const Node *> seen;
  collectAtoms(*this, false, out, seen);
  return out;
}

namespace {
constexpr size_t kMaxText = 600;
} // namespace

std::string Condition::str() const {
  std::string out;
  strInto(out);
  if (out.size() > kMaxText) out = out.substr(0, kMaxText) + "...";
  return out;
}

void Condition::strInto(std::string &out) const {
  if (out.size() > kMaxText) return;
  out += strNode();
}

namespace {
/// `not (x is None)` reads as the code wrote it, `x is not None`: a negated
/// opaque comparison with one operator and nothing else that binds looser.
std::optional<std::string> negatedComparisonText(const Condition &kid) {
  const Condition::Node &n = kid.node();
  if (n.op != Condition::Node::Op::Atom || n.atom.kind != Atom::Kind::Opaque) return std::nullopt;
  const std::string &text = n.atom.text;
  for (const char *looser : {" and ", " or ", "not ", " if ", "lambda"})
    if (text.find(looser) != std::string::npos) return std::nullopt;
  // The one positive operator outside string literals (`mode == "x is y"` has one: ==).
  std::string_view view = text;
  auto spacedAt = [&](size_t i, std::string_view op) { // " op " starts at i
    return i + op.size() + 2 <= view.size() && view[i] == ' ' && view.substr(i + 1, op.size()) == op &&
           view[i + 1 + op.size()] == ' ';
  };
  std::optional<std::pair<size_t, size_t>> found; // (offset, index in kNegatedComparisons)
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (quote) {
      if (text[i] == '\\') ++i;
      else if (text[i] == quote) quote = 0;
      continue;
    }
    if (text[i] == '"' || text[i] == '\'') { quote = text[i]; continue; }
    for (size_t k = 0; k < std::size(kNegatedComparisons); ++k)
      if (spacedAt(i, kNegatedComparisons[k].second)) {
        if (found) return std::nullopt;
        found = {i, k};
      }
  }
  if (!found) return std::nullopt;
  const auto &[neg, pos] = kNegatedComparisons[found->second];
  return text.substr(0, found->first) + " " + neg + " " + text.substr(found->first + std::strlen(pos) + 2);
}
} // namespace

std::string Condition::strNode() const {
  const auto &n = *node_;
  switch (n.op) {
  case Op::True: return "true";
  case Op::False: return "false";
  case Op::Unknown: return "unknown(" + n.why + ")";
  case Op::Atom:
    switch (n.atom.kind) {
    case Atom::Kind::Backend: return "backend in {" + joinNames(n.atom.names) + "}";
    case Atom::Kind::Quant: return "quant in {" + joinNames(n.atom.names) + "}";
    case Atom::Kind::Compare:
      if (!n.atom.text.empty()) return n.atom.text;
      return std::string("cmp") + opText(n.atom.op);
    case Atom::Kind::Opaque: return n.atom.text;
    }
    return "?";
  case Op::Not: {
    if (auto negated = negatedComparisonText(n.kids[0])) return *negated;
    std::string s = "not ";
    n.kids[0].strInto(s);
    return s;
  }
  case Op::And:
  case Op::Or: {
    std::string s = "(";
    for (size_t i = 0; i < n.kids.size() && s.size() <= kMaxText; ++i) {
      if (i) s += n.op == Op::And ? " and " : " or ";
      n.kids[i].strInto(s);
    }
    return s + ")";
  }
  }
  return "?";
}

} // namespace archscope
