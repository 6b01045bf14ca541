//===--- FormatMacros.h - a JIT module built without its format's macro ---===//
// SPDX-License-Identifier: Apache-2.0
//
// A library that builds one JIT module per GPU turns each quant format's code
// on with a macro in the module's flags (FlashInfer's fused-MoE sources wrap
// the NVFP4 runner in `#ifdef ENABLE_FP4`). A module whose flags leave out a
// macro that its own sources test, that names the audited format, and that
// another JIT module of the trees defines, has no code for that format:
// FlashInfer's sm_89 fused-MoE module is built with ENABLE_FP8, not ENABLE_FP4.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/source/CppSources.h"
#include "model/Evidence.h"

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace archscope::link {

/// The macros `-DNAME` / `-DNAME=VALUE` flags define.
std::set<std::string> macrosDefinedBy(const std::vector<std::string> &flags);

struct FormatMacroGap {
  std::string macro; ///< ENABLE_FP4
  Evidence test;     ///< the first line of the module's sources that tests it
};

/// The first macro the module's `sources` test (`#ifdef M`, `defined(M)`)
/// that names `quant`, that its `flags` do not define and that
/// `definedElsewhere` (the other JIT modules' flags) holds. None where an
/// `unsure` item of the flag list may define it ("..." may define anything).
std::optional<FormatMacroGap>
formatMacroLeftOut(const std::vector<std::pair<const CppSource *, int>> &sources,
                   const std::vector<std::string> &flags, const std::vector<std::string> &unsure,
                   const std::set<std::string> &definedElsewhere, const std::string &quant);

} // namespace archscope::link
