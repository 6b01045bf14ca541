//===--- PythonExtractor.h - the Python dispatch layer -> facts ---------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "matchers/python/ModuleIndex.h"
#include "model/Facts.h"
#include "model/Profile.h"

#include <set>
#include <string>

namespace archscope::py {

struct ExtractResult {
  Facts facts;
  std::vector<std::string> backends; ///< rows found, in declaration order
  size_t modulesParsed = 0;
};

/// Reads the Python layer of the engine (index tree 0) and its dependencies
/// for one quant format of the profile. `extensionModules`: the pybind11
/// modules the trees' C++ defines (their calls are compiled entries).
/// `lintFacts`: also the facts only lint rules read (toolkit-gated flags,
/// closed arch tables), which cost an audit extra parses and change no cell.
ExtractResult extractPython(ModuleIndex &index, const Profile &profile, const QuantProfile &quant,
                            const std::set<std::string> &extensionModules = {}, bool lintFacts = false);

} // namespace archscope::py
