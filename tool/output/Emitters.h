//===--- Emitters.h - one emitter per output format ---------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Emitters only format what the matrix holds; they derive no facts.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Matrix.h"

#include <llvm/Support/JSON.h>

#include <ostream>
#include <string>

namespace archscope {

/// The matrix as one structured document (shared by JSON and YAML).
llvm::json::Value matrixDocument(const Matrix &m);
/// One cell as matrixDocument writes it (diff reuses it).
llvm::json::Value cellDocument(const Cell &c);
void emitJson(const Matrix &m, std::ostream &out);
void emitYaml(const Matrix &m, std::ostream &out);
void emitText(const Matrix &m, std::ostream &out, bool color);
void emitMarkdown(const Matrix &m, std::ostream &out);
/// The evidence chain of one cell, as `archscope explain` prints it.
void emitExplain(const Matrix &m, const Cell &cell, std::ostream &out, bool color);
/// The short label of a verdict in tables (ok, rejected, CRASH, ...).
std::string verdictLabel(const Cell &c);

} // namespace archscope
