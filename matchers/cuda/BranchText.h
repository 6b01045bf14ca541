//===--- BranchText.h - what one #if branch's lines say -------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The text of one branch of an `#if` group, read once by the guard pass: how
// many lines of code it has and whether it is a short one that only fails
// (`printf(...); asm("trap;")`, `#error`, "not supported"), which is how a
// guard refuses a GPU rather than building something for it.
//===----------------------------------------------------------------------===//
#pragma once
#include <llvm/ADT/StringRef.h>

namespace archscope::cuda {

struct BranchText {
  int codeLines = 0;  ///< lines with code; blank lines and `//` comments left out
  bool fails = false; ///< a few lines that trap, abort, assert, #error or say "not supported"
};

/// Reads the lines strictly between a directive and the next one of its group.
BranchText readBranchText(llvm::StringRef lines);

} // namespace archscope::cuda
