//===--- ConditionSolver.cpp - a formula's value for every run-time fact -===//
// SPDX-License-Identifier: Apache-2.0
//
// "Is this raise reached whatever the run-time facts are?" asks whether a
// formula is true for every value of its free opaque atoms: a tautology
// question, which CaDiCaL answers where trying the assignments one by one
// gives up (FlashInfer's JIT raise under SGLang's dispatch has 21 atoms).
//
// Kleene semantics are kept exactly by a dual-rail encoding: each node gets
// a literal T ("evaluates true") and F ("evaluates false") as functions of
// the free atoms. A leaf `eval` cannot decide that is not a free atom (an
// unknown, a backend atom with no backend set) has neither, as in `eval`,
// so `unknown or not unknown` stays unknown.
//===----------------------------------------------------------------------===//
#include "model/ConditionNode.h"

#include <cadical.hpp>

#include <climits>
#include <map>
#include <unordered_map>

namespace archscope {
namespace {

using Node = Condition::Node;
using Op = Node::Op;

/// Constants among the literals; negation maps one to the other.
constexpr int kTrue = INT_MAX, kFalse = -INT_MAX;
/// Past this many conflicts a query answers Unknown.
constexpr int kConflictLimit = 100000;

struct Rails {
  int t, f;
};

class DualRail {
public:
  explicit DualRail(const EvalEnv &env) : env_(env) {}

  Rails encode(const Condition &c) {
    const Node &n = c.node();
    if (auto it = memo_.find(&n); it != memo_.end()) return it->second;
    Rails r = encodeNode(n);
    memo_.emplace(&n, r);
    return r;
  }

  bool hasFreeAtoms() const { return !atomVars_.empty(); }

  /// True when `lit` holds for every value of the free atoms.
  Tri holdsAlways(int lit) {
    if (lit == kTrue || lit == kFalse) return lit == kTrue ? Tri::True : Tri::False;
    return triNot(solveAssuming(-lit)); // no value makes it false
  }

  /// True when some value of the free atoms makes `lit` hold.
  Tri holdsSometimes(int lit) {
    if (lit == kTrue || lit == kFalse) return lit == kTrue ? Tri::True : Tri::False;
    return solveAssuming(lit);
  }

private:
  Rails encodeNode(const Node &n) {
    switch (n.op) {
    case Op::True: return {kTrue, kFalse};
    case Op::False: return {kFalse, kTrue};
    case Op::Unknown: return {kFalse, kFalse};
    case Op::Atom: return encodeAtom(n.atom);
    case Op::Not: {
      Rails k = encode(n.kids[0]);
      return {k.f, k.t};
    }
    case Op::And:
    case Op::Or: {
      std::vector<int> ts, fs;
      for (const auto &k : n.kids) {
        Rails r = encode(k);
        ts.push_back(r.t);
        fs.push_back(r.f);
      }
      if (n.op == Op::And) return {gateAnd(ts), gateOr(fs)};
      return {gateOr(ts), gateAnd(fs)};
    }
    }
    return {kFalse, kFalse};
  }

  Rails encodeAtom(const Atom &a) {
    switch (evalAtom(a, env_)) {
    case Tri::True: return {kTrue, kFalse};
    case Tri::False: return {kFalse, kTrue};
    case Tri::Unknown: break;
    }
    if (a.kind != Atom::Kind::Opaque) return {kFalse, kFalse};
    auto [it, fresh] = atomVars_.try_emplace(a.text, 0);
    if (fresh) it->second = ++vars_;
    return {it->second, -it->second};
  }

  /// A literal equivalent to the conjunction (Tseitin), constants folded.
  int gateAnd(const std::vector<int> &lits) {
    std::vector<int> live;
    for (int l : lits) {
      if (l == kFalse) return kFalse;
      if (l != kTrue) live.push_back(l);
    }
    if (live.empty()) return kTrue;
    if (live.size() == 1) return live[0];
    int g = ++vars_;
    for (int l : live) clause({-g, l});
    std::vector<int> back{g};
    for (int l : live) back.push_back(-l);
    clause(back);
    return g;
  }

  int gateOr(std::vector<int> lits) {
    for (int &l : lits) l = -l;
    return -gateAnd(lits);
  }

  void clause(const std::vector<int> &lits) {
    for (int l : lits) solver_.add(l);
    solver_.add(0);
  }

  /// True: satisfiable with `lit`; False: not; Unknown: the solver gave up.
  Tri solveAssuming(int lit) {
    solver_.assume(lit);
    solver_.limit("conflicts", kConflictLimit);
    int r = solver_.solve();
    return r == 10 ? Tri::True : r == 20 ? Tri::False : Tri::Unknown;
  }

  const EvalEnv &env_;
  CaDiCaL::Solver solver_;
  int vars_ = 0;
  std::map<std::string, int> atomVars_; ///< opaque atoms are one fact per text
  std::unordered_map<const Node *, Rails> memo_;
};

/// `eval`, and where that is unknown, `query` over the circuit of the
/// formula's free atoms (Unknown when there are none).
template <class Query> Tri overFreeAtoms(const Condition &c, const EvalEnv &env, Query query) {
  Tri direct = c.eval(env);
  if (direct != Tri::Unknown) return direct;
  DualRail circuit(env);
  Rails root = circuit.encode(c);
  return circuit.hasFreeAtoms() ? query(circuit, root) : Tri::Unknown;
}

} // namespace

Tri Condition::evalEveryValue(const EvalEnv &env) const {
  return overFreeAtoms(*this, env, [](DualRail &circuit, Rails root) {
    if (circuit.holdsAlways(root.t) == Tri::True) return Tri::True;
    return circuit.holdsAlways(root.f) == Tri::True ? Tri::False : Tri::Unknown;
  });
}

Tri Condition::evalSomeValue(const EvalEnv &env) const {
  return overFreeAtoms(*this, env, [](DualRail &circuit, Rails root) {
    if (circuit.holdsSometimes(root.t) == Tri::True) return Tri::True;
    return circuit.holdsAlways(root.f) == Tri::True ? Tri::False : Tri::Unknown;
  });
}

} // namespace archscope
