//===--- Validate.h - `archscope validate` ---------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

#include <ostream>

namespace archscope {
/// ISA probes per target, launches on the GPU present (or merged from other
/// machines' results), and the claimed cells upgraded with what was proven.
int runValidate(const Options &opts, std::ostream &out);
} // namespace archscope
