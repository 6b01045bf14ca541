//===--- InferredScope.h - the format's path read off the code -----------===//
// SPDX-License-Identifier: Apache-2.0
//
// What a profile's `scope`, `oracle`, `entries` and `attributes` would say,
// inferred from the code (audit --no-profile, or a profile naming code the
// tree lacks): docs/profiles.md, "Without a profile".
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/Interpreter.h"
#include "model/Profile.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace archscope::py {

/// A vLLM-style oracle: `select_*` with an ordered candidate list of backend
/// enum members and a kernel-map loop; the quant with its oracle and that
/// function as scope, or nullopt.
std::optional<QuantProfile> discoverOracle(ModuleIndex &index, const QuantProfile &quant);

/// The format's stages in the order they run: the oracle's function, the MoE
/// functions that quote the format's flag values and read a selector, then
/// the methods of the classes named for the format's MoE method.
std::vector<ScopeSpec> quantStages(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                                   const Vocabulary &vocab, const std::optional<QuantProfile> &oracle);

/// Every engine module that names a backend enum or talks of a backend and
/// of the device capability, in path order (walked for dispatch branches).
std::vector<ScopeSpec> backendModules(ModuleIndex &index, Interpreter &in);

/// A module of the MoE layer (not a model definition under models/) not
/// named for another format.
bool isMoeModule(const std::string &relPath, const QuantProfile &quant);

/// Folders of a checkout that hold no serving code: tools, tests, examples.
bool outsideServingCode(const std::string &relPath);

/// Backends named as strings, for an engine with no backend enum: the
/// literals a selector is compared with (`==`, `!=`, `in [...]`) or assigned
/// in the MoE code that quotes the format's flag values, and the choices
/// declared for it (`add_argument("--moe-backend", choices=...)`, a
/// `Literal[...]` annotation, the keys of a dict indexed by it), in order of
/// first appearance; `auto`, `none` and `default` are not backends.
std::vector<std::string> stringBackends(ModuleIndex &index, const QuantProfile &quant, const Vocabulary &vocab);

/// A kernel library audited alone: its public MoE entry points of the format
/// (appended to `rows`), as the quant's entries.
QuantProfile libraryEntries(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                            std::vector<std::string> &rows);

} // namespace archscope::py
