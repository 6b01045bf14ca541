//===--- Docs.h - `archscope docs [PATH] -o DIR` ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/Options.h"

namespace archscope {
/// Audits PATH and writes the compatibility pages into opts.output (a
/// folder): index.md, backends/*.md, rules/*.md and index.html.
int runDocs(const Options &opts);
} // namespace archscope
