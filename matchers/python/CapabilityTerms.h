//===--- CapabilityTerms.h - the symbolic device capability terms -------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "matchers/python/Value.h"

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

} // namespace archscope::py
