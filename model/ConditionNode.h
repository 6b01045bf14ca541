//===--- ConditionNode.h - the node of a condition DAG (model-internal) -===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Condition.h"

namespace archscope {

struct Condition::Node {
  enum class Op { True, False, Unknown, Atom, Not, And, Or } op;
  Atom atom;
  std::vector<Condition> kids;
  std::string why; ///< Unknown: the reason
};

/// One atom's value in `env` (Unknown: an opaque atom not assumed, or a
/// backend / quant atom where env leaves those unset).
Tri evalAtom(const Atom &a, const EvalEnv &env);

} // namespace archscope
