//===--- ConfigRegistries.h - a library's registry of backend configs ---===//
// SPDX-License-Identifier: Apache-2.0
//
// FlashInfer's unified MoE API picks its backend from configs, not names:
// `MoELayer` keeps each config of `config.backend` whose class says
// `supported(arch)` (arch = major * 10 + minor), builds the runner a
// module-level dict maps its class to (`_BACKEND_RUNNERS = {TrtllmFp4Config:
// TrtllmFp4RoutedRunner, ...}`), and raises when none is left. Each config
// of the audited format becomes a row: its `supported` a Support guard with
// the body line that answers, its runner's construction and work its path.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/FactSink.h"
#include "matchers/python/Interpreter.h"
#include "model/Facts.h"
#include "model/Profile.h"

#include <string>
#include <vector>

namespace archscope::py {

/// Reads the registries of the library (index tree 0) into `facts`, adding
/// their configs to `rows` (a row already there is left to its entry).
void readConfigRegistries(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                          std::vector<std::string> &rows, FactSink &sink, Facts &facts);

} // namespace archscope::py
