//===--- YamlUtil.cpp - strict YAML reading with file:line errors -------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/YamlUtil.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace archscope::yaml {

YAML::Node loadFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw inputError("cannot read '" + path + "'", "check that the file exists and is readable");
  std::stringstream buffer;
  buffer << in.rdbuf();
  try {
    return YAML::Load(buffer.str());
  } catch (const YAML::Exception &e) {
    throw inputError(path + ":" + std::to_string(e.mark.line + 1) + ":" +
                         std::to_string(e.mark.column + 1) + ": invalid YAML: " + e.msg,
                     "fix the YAML syntax at that line");
  }
}

std::string where(const std::string &path, const YAML::Node &node) {
  auto mark = node.Mark();
  if (mark.line < 0) return path;
  return path + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

void requireKeys(const std::string &path, const YAML::Node &map,
                 const std::set<std::string> &allowed) {
  if (!map.IsMap()) throw inputError(where(path, map) + ": expected a mapping");
  for (const auto &kv : map) {
    auto key = kv.first.as<std::string>();
    if (!allowed.count(key)) {
      std::string known;
      for (const auto &k : allowed) known += (known.empty() ? "" : ", ") + k;
      throw inputError(where(path, kv.first) + ": unknown key '" + key + "'",
                       "known keys here: " + known);
    }
  }
}

std::string str(const std::string &path, const YAML::Node &node, const char *what) {
  if (!node || !node.IsScalar())
    throw inputError(where(path, node) + ": '" + what + "' must be a string");
  return node.as<std::string>();
}

std::vector<std::string> strList(const std::string &path, const YAML::Node &node,
                                 const char *what) {
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) return {node.as<std::string>()};
  if (!node.IsSequence())
    throw inputError(where(path, node) + ": '" + what + "' must be a list of strings");
  for (const auto &item : node) out.push_back(str(path, item, what));
  return out;
}

} // namespace archscope::yaml
