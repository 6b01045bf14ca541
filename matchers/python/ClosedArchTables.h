//===--- ClosedArchTables.h - per-GPU tables that refuse new GPUs --------===//
// SPDX-License-Identifier: Apache-2.0
//
// SGLang's PD-multiplexing sizes its green contexts from
// `get_arch_constraints`: `if major == 6: return 1, 1 ... elif major == 9:
// return 8, 8 else: raise ValueError("Unsupported compute capability")`, so
// an RTX PRO 6000 (12.0) is refused (field bug 19). The scan reads every file
// that has an `else:` raising (query closed_arch_tables.scm) and keeps the
// chains that map GPUs to constants by exact tests only.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"
#include "model/Facts.h"

namespace archscope::py {

void collectClosedArchTables(ModuleIndex &index, Facts &facts);

} // namespace archscope::py
