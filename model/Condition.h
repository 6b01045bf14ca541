//===--- Condition.h - three-valued formulas over a GPU target ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// A Condition is what a dispatch branch or guard needs to be taken: a boolean
// formula of atoms, evaluated per (GPU, backend, quant, toolkit) to
// true / false / unknown (Kleene logic). Atoms:
//   Compare  linear terms over the symbolic device capability (major, minor)
//            and CUDA toolkit version, compared with Python tuple semantics:
//            `get_device_capability() >= (10, 0)`, `major * 10 + minor in (100, 103)`.
//   Backend  the selected backend is one of a set (`runner_backend.is_marlin()`).
//   Quant    the quantization flag is one of a set (`quantization == "modelopt_fp4"`).
//   Opaque   anything not decidable statically, kept with its source text and
//            a kind (package, env, config) so cells can be split by it.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Target.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace archscope {

enum class Tri { False, True, Unknown };
Tri triNot(Tri a);
Tri triAnd(Tri a, Tri b);
Tri triOr(Tri a, Tri b);

enum class SymVar { CcMajor = 0, CcMinor = 1, CudaMajor = 2, CudaMinor = 3 };
constexpr int kSymVars = 4;

/// sum(coef[v] * v) + constant over the symbolic variables.
struct Linear {
  long coef[kSymVars] = {0, 0, 0, 0};
  long constant = 0;
  static Linear var(SymVar v) { Linear l; l.coef[int(v)] = 1; return l; }
  static Linear constantOf(long c) { Linear l; l.constant = c; return l; }
  bool isConstant() const;
  bool readsCuda() const;
  bool readsCapability() const;
};

enum class CmpOp { Lt, Le, Gt, Ge, Eq, Ne };
CmpOp flip(CmpOp op);   ///< a op b  <=>  b flip(op) a
CmpOp negate(CmpOp op); ///< not (a op b) <=> a negate(op) b

/// Mode: another backend choice set to one of its optional members
/// (`get_moe_a2a_backend().is_megamoe()`), not the row's own choice.
enum class OpaqueKind { Package, Env, Config, Version, Plugin, Mode };

/// Facts of the installation and its default configuration a cell assumes
/// one way, each flipped in turn for its conditional verdicts: packages
/// installed, environment variables unset, nothing registered by a plugin
/// outside the trees, the other backend choices (the all-to-all backend) at
/// their defaults.
inline bool isAssumedFact(OpaqueKind k) {
  return k == OpaqueKind::Package || k == OpaqueKind::Env || k == OpaqueKind::Plugin || k == OpaqueKind::Mode;
}
inline bool assumedValue(OpaqueKind k) { return k == OpaqueKind::Package; }

/// Python's negated comparison operators, each with its positive form: an
/// undecided `x is not None` is the fact `not (x is None)`, and prints back
/// as written.
inline constexpr std::pair<const char *, const char *> kNegatedComparisons[] = {
    {"is not", "is"}, {"not in", "in"}, {"!=", "=="}};

struct Atom {
  enum class Kind { Compare, Backend, Quant, Opaque } kind = Kind::Opaque;
  std::vector<Linear> lhs, rhs; ///< Compare: tuples compared lexicographically
  CmpOp op = CmpOp::Eq;
  std::set<std::string> names;  ///< Backend / Quant: accepted values
  OpaqueKind opaqueKind = OpaqueKind::Config;
  std::string text;             ///< source text, for display and assumptions
};

struct EvalEnv {
  ComputeCapability gpu;
  int cudaMajor = 13, cudaMinor = 0;
  std::optional<std::string> backend;        ///< unset: backend atoms are unknown
  std::optional<std::set<std::string>> quantFlags; ///< unset: quant atoms unknown
  std::map<std::string, bool> assume;        ///< opaque atom text -> value
};

class Condition {
public:
  static Condition truth();
  static Condition falsity();
  static Condition unknown(std::string why);
  static Condition atom(Atom a);
  static Condition compare(std::vector<Linear> lhs, CmpOp op, std::vector<Linear> rhs,
                           std::string text);
  static Condition backendIs(std::set<std::string> names, std::string text);
  static Condition quantIs(std::set<std::string> names, std::string text);
  static Condition opaque(OpaqueKind kind, std::string text);

  Condition operator!() const;
  friend Condition operator&&(const Condition &a, const Condition &b);
  friend Condition operator||(const Condition &a, const Condition &b);

  Tri eval(const EvalEnv &env) const;
  /// This formula with the opaque atoms `assume` names (by text) replaced by
  /// their values and folded.
  Condition assuming(const std::map<std::string, bool> &assume) const;
  /// `eval`, and where that is unknown, the value the formula has for every
  /// value of its opaque atoms (each a run-time fact that is either true or
  /// false, so `c or not c` holds): True or False when all agree, else
  /// Unknown, also when the SAT solver gives up (ConditionSolver.cpp).
  Tri evalEveryValue(const EvalEnv &env) const;
  /// True when some value of the opaque atoms makes the formula true (a
  /// configuration reaches it), False when none does, else Unknown.
  Tri evalSomeValue(const EvalEnv &env) const;
  bool isTrue() const;
  bool isFalse() const;
  /// The same formula object (not merely an equivalent one).
  bool sameAs(const Condition &o) const { return node_ == o.node_; }
  /// An undecided leaf (`Condition::unknown`): nothing was resolved.
  bool isUnknownLeaf() const;
  /// Whether any atom reads the device capability or toolkit version.
  bool readsHardware() const;
  bool readsBackend() const;
  bool readsQuant() const;
  /// Undecided only through configuration atoms (shapes, model options,
  /// files): no hardware, backend, quant, package or environment atom.
  bool onlyConfiguration() const;
  /// Opaque atoms, each once, in order of appearance.
  std::vector<Atom> opaqueAtoms() const;
  /// Why each undecided leaf is undecided, each once, in order of appearance.
  std::vector<std::string> unknownReasons() const;
  /// Every atom, each once (by text), in order of appearance.
  std::vector<Atom> atoms() const;
  /// Readable text, cut after a few hundred characters.
  std::string str() const;
  /// A hash of the whole formula (its atoms by text, as str() shows them),
  /// for telling facts apart where str() would cut two long ones equal.
  size_t hash() const;

  /// Flat, shared-node form for the facts cache: each node is one record
  /// line; `encode` returns the record index of this condition's root.
  size_t encode(std::vector<std::string> &records,
                std::map<const void *, size_t> &ids) const;
  /// Rebuilds the condition of record `root`; nullopt on a malformed table.
  static std::optional<Condition> decode(const std::vector<std::string> &records, size_t root,
                                         std::map<size_t, Condition> &built);

  struct Node;
  explicit Condition(std::shared_ptr<const Node> n) : node_(std::move(n)) {}
  const Node &node() const { return *node_; }

private:
  void strInto(std::string &out) const;
  std::string strNode() const;
  std::shared_ptr<const Node> node_;
};

} // namespace archscope
