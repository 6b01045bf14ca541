//===--- PluginRegistries.h - registries only a plugin fills ------------===//
// SPDX-License-Identifier: Apache-2.0
//
// SGLang's MoeRunner asks `_CUSTOM_RUNNER_CORE_FACTORIES.get(backend)`
// before its own backend branches. The dict starts empty and only
// `register_moe_runner_core()` writes it, a function nothing in the trees
// calls: an extension point. Its lookups find nothing unless a plugin from
// outside the trees registers that name, an installation fact the matrix
// assumes false and flips (OpaqueKind::Plugin), as it does packages.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"

#include <map>
#include <string>

namespace archscope::py {

class PluginRegistries {
public:
  explicit PluginRegistries(ModuleIndex &index) : index_(index) {}
  /// Whether `name` in `m` is such a registry: bound at module level to an
  /// empty dict literal, written (`NAME[k] = v`, update, setdefault) only in
  /// module-level functions of `m`, those functions called nowhere in `m`,
  /// and the other modules of the trees naming neither them nor NAME except
  /// to re-export them (an import without `as`, `__all__`). Decided once.
  bool onlyPluginsFill(Module &m, const std::string &name);

private:
  bool decide(Module &m, const std::string &name);

  ModuleIndex &index_;
  std::map<std::string, bool> decided_; ///< "module:NAME"
};

} // namespace archscope::py
