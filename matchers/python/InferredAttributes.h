//===--- InferredAttributes.h - attribute hints read off the code -------===//
// SPDX-License-Identifier: Apache-2.0
//
// What a profile's `attributes` would say, found from the code where the
// profile says nothing: attributes a device loop fills with the capability
// of every GPU present, and attributes a class answers through a registry of
// probe functions in its `__getattr__`.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/ModuleIndex.h"

#include <map>
#include <string>

namespace archscope::py {

/// `Class.attr` -> device_capability_list for attributes a device loop fills
/// with get_device_capability (added where the profile says nothing).
void inferCapabilityLists(const ModuleIndex &index, std::map<std::string, std::string> &attributes);

/// `Class.*` -> "registry pkg.mod.DICT pkg.funcs" for a class whose
/// `__getattr__(self, name)` looks `name` up in a module-level dict of probe
/// names and calls that probe of a module (SGLang 0.5.23's PlatformContext:
/// `probe = _PLATFORM_PROBES.get(name)`, `return getattr(_common, probe)()`).
void inferAttributeRegistries(const ModuleIndex &index, std::map<std::string, std::string> &attributes);

} // namespace archscope::py
