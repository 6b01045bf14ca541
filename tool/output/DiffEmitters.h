//===--- DiffEmitters.h - `archscope diff` as text, JSON, Markdown --------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "tool/diff/MatrixDiff.h"

#include <llvm/Support/JSON.h>

#include <ostream>

namespace archscope {

llvm::json::Value diffDocument(const diff::MatrixDiff &d);
void emitDiffJson(const diff::MatrixDiff &d, std::ostream &out);
void emitDiffText(const diff::MatrixDiff &d, std::ostream &out, bool color);
/// A block for a pull-request comment: heading, table of changed cells,
/// the evidence of the new verdicts in a collapsed <details>.
void emitDiffMarkdown(const diff::MatrixDiff &d, std::ostream &out);

} // namespace archscope
