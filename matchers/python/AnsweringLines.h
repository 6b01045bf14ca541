//===--- AnsweringLines.h - the lines of a check that give its answer ---===//
// SPDX-License-Identifier: Apache-2.0
//
// `explain` shows where a predicate or a device check answers, not only
// where it is defined: the `return` (or the line of a spread return) that
// reads the GPU, or the line of a body that names the format's keys.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"
#include "model/Facts.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace archscope::py {

/// Whether text names the device capability or an architecture.
bool mentionsHardware(std::string_view text);

/// The line of a predicate's definition that gives its answer: the first
/// `return` that mentions the hardware, else the first `return`; nothing for
/// a definition that is one line (`_is_sm100 = is_sm100()`).
Evidence answeringLine(const Module &m, TSNode def);

/// Evidence for the first line of `def` at or after its `from`th line that
/// `pick` accepts (nothing when none does); `at` gets that line's index.
Evidence lineOf(const Module &m, TSNode def, size_t from, const std::function<bool(std::string_view)> &pick,
                const std::string &note, size_t *at = nullptr);

} // namespace archscope::py
