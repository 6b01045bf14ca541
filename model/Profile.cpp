//===--- Profile.cpp - strict loading of engine profiles ----------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/Profile.h"

#include "model/YamlUtil.h"

#include <algorithm>

namespace archscope {
namespace {

ScopeSpec parseScope(const std::string &text) {
  auto sep = text.find("::");
  if (sep == std::string::npos) return {text, ""};
  return {text.substr(0, sep), text.substr(sep + 2)};
}

QuantProfile parseQuant(const std::string &path, const YAML::Node &n) {
  yaml::requireKeys(path, n, {"name", "flags", "scope", "oracle", "entries"});
  QuantProfile q;
  q.name = yaml::str(path, n["name"], "name");
  q.flags = yaml::strList(path, n["flags"], "flags");
  for (const auto &s : yaml::strList(path, n["scope"], "scope")) q.scope.push_back(parseScope(s));
  if (auto o = n["oracle"]) {
    yaml::requireKeys(path, o, {"kernel_map", "device_check", "candidates"});
    q.kernelMap = yaml::str(path, o["kernel_map"], "kernel_map");
    q.deviceCheck = yaml::str(path, o["device_check"], "device_check");
    q.candidates = yaml::str(path, o["candidates"], "candidates");
  }
  if (auto e = n["entries"]) {
    if (!e.IsMap()) throw inputError(yaml::where(path, e) + ": 'entries' must map backends to entry points");
    for (const auto &kv : e)
      q.entries[kv.first.as<std::string>()] = yaml::strList(path, kv.second, "entries");
  }
  return q;
}

/// `key: {backend: item, or [items]}` (profile `backend.families`, `backend.cubins`).
std::map<std::string, std::vector<std::string>> backendLists(const std::string &path, const YAML::Node &node,
                                                             const char *key, const char *items) {
  if (!node.IsMap()) throw inputError(yaml::where(path, node) + ": '" + key + "' must map backends to " + items);
  std::map<std::string, std::vector<std::string>> lists;
  for (const auto &kv : node)
    lists[yaml::str(path, kv.first, "backend")] =
        kv.second.IsSequence() ? yaml::strList(path, kv.second, key) : std::vector<std::string>{yaml::str(path, kv.second, key)};
  return lists;
}

} // namespace

Profile Profile::load(const std::string &path) {
  auto root = yaml::loadFile(path);
  yaml::requireKeys(path, root, {"id", "detect", "backend", "quants", "dependencies", "attributes", "cuda"});
  Profile p;
  p.path = path;
  try {
    p.id = yaml::str(path, root["id"], "id");
    if (auto d = root["detect"]) {
      yaml::requireKeys(path, d, {"files"});
      p.detectFiles = yaml::strList(path, d["files"], "files");
    }
    if (auto b = root["backend"]) {
      yaml::requireKeys(path, b, {"enums", "selectors", "quant_flags", "rows", "families", "cubins"});
      for (auto &s : yaml::strList(path, b["enums"], "enums")) p.backendEnums.insert(s);
      for (auto &s : yaml::strList(path, b["selectors"], "selectors")) p.selectors.insert(s);
      for (auto &s : yaml::strList(path, b["quant_flags"], "quant_flags")) p.quantFlags.insert(s);
      p.backends = yaml::strList(path, b["rows"], "rows");
      if (auto f = b["families"]) p.families = backendLists(path, f, "families", "kernel families");
      if (auto c = b["cubins"]) p.cubins = backendLists(path, c, "cubins", "cubin folders");
    }
    for (const auto &q : root["quants"]) p.quants.push_back(parseQuant(path, q));
    if (auto a = root["attributes"]) {
      if (!a.IsMap()) throw inputError(yaml::where(path, a) + ": 'attributes' must map Class.attr to a value kind");
      for (const auto &kv : a) {
        auto value = yaml::str(path, kv.second, "attributes");
        bool registry = value.rfind("registry ", 0) == 0 && std::count(value.begin(), value.end(), ' ') == 2;
        if (value != "device_capability_list" && !registry)
          throw inputError(yaml::where(path, kv.second) + ": unknown attribute value '" + value + "'",
                           "use device_capability_list, or 'registry DICT MODULE'");
        p.attributes[kv.first.as<std::string>()] = value;
      }
    }
    if (auto c = root["cuda"]) {
      yaml::requireKeys(path, c, {"arch_macros"});
      p.archMacros = yaml::strList(path, c["arch_macros"], "arch_macros");
    }
    for (const auto &d : root["dependencies"]) {
      yaml::requireKeys(path, d, {"name", "pin_file", "pin_pattern"});
      p.pins.push_back({yaml::str(path, d["name"], "name"), yaml::str(path, d["pin_file"], "pin_file"),
                        yaml::str(path, d["pin_pattern"], "pin_pattern")});
    }
  } catch (const YAML::Exception &e) {
    throw inputError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (p.id.empty()) throw inputError(path + ": profile has no 'id'");
  return p;
}

Profile Profile::generic() {
  Profile p;
  p.id = "generic";
  p.selectors = {"moe_backend", "runner_backend", "moe_runner_backend", "get_moe_backend",
                 "get_moe_runner_backend", "kernel_backend"};
  p.quantFlags = {"quantization", "quant", "quant_method"};
  QuantProfile q;
  q.name = "nvfp4";
  q.flags = {"nvfp4", "modelopt_fp4"};
  p.quants.push_back(q);
  return p;
}

} // namespace archscope
