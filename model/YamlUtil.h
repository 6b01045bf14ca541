//===--- YamlUtil.h - strict YAML reading with file:line errors ---------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Errors.h"

#include <yaml-cpp/yaml.h>

#include <set>
#include <string>
#include <vector>

namespace archscope::yaml {

/// Parses a YAML file; a syntax error becomes an input error at file:line:col.
YAML::Node loadFile(const std::string &path);
/// "file:line:col" of a node (1-based).
std::string where(const std::string &path, const YAML::Node &node);
/// Rejects keys of a map that are not in `allowed`.
void requireKeys(const std::string &path, const YAML::Node &map,
                 const std::set<std::string> &allowed);
std::string str(const std::string &path, const YAML::Node &node, const char *what);
std::vector<std::string> strList(const std::string &path, const YAML::Node &node,
                                 const char *what);

} // namespace archscope::yaml
