//===--- CapabilityTerms.h - the symbolic device capability terms -------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "matchers/python/Value.h"
#include "model/Condition.h"

#include <functional>

namespace archscope::py {

/// (major, minor): what get_device_capability() returns.
inline Value capabilityTuple() {
  return Value::tuple({Value::sym(Linear::var(SymVar::CcMajor)), Value::sym(Linear::var(SymVar::CcMinor))});
}

/// major * 10 + minor: the integer SM version (120 for CC 12.0).
inline Linear smLinear() {
  Linear l;
  l.coef[int(SymVar::CcMajor)] = 10;
  l.coef[int(SymVar::CcMinor)] = 1;
  return l;
}

/// (cuda_major, cuda_minor): the toolkit version torch was built with.
inline std::vector<Linear> cudaLinear() { return {Linear::var(SymVar::CudaMajor), Linear::var(SymVar::CudaMinor)}; }

/// Whether `c` evaluates so that `ok` holds on every capability up to 20.9.
inline bool onEveryCapability(const Condition &c, EvalEnv env, const std::function<bool(Tri)> &ok) {
  for (int major = 0; major <= 20; ++major)
    for (int minor = 0; minor <= 9; ++minor) {
      env.gpu = {major, minor};
      if (!ok(c.eval(env))) return false;
    }
  return true;
}

/// Whether every GPU gets a definite answer from `c`.
inline bool decidedOnEveryGpu(const Condition &c) {
  return onEveryCapability(c, {}, [](Tri t) { return t != Tri::Unknown; });
}

} // namespace archscope::py
