//===--- ArchTable.cpp - load the arch table YAML -----------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/ArchTable.h"

#include "model/YamlUtil.h"

#include <algorithm>

namespace archscope {
namespace {

Variant parseVariant(const std::string &path, const YAML::Node &node) {
  auto s = yaml::str(path, node, "variant");
  if (s == "plain") return Variant::Plain;
  if (s == "a") return Variant::ArchSpecific;
  if (s == "f") return Variant::FamilySpecific;
  throw inputError(yaml::where(path, node) + ": unknown variant '" + s + "'",
                   "use plain, a or f");
}

ArchRow parseRow(const std::string &path, const YAML::Node &node) {
  yaml::requireKeys(path, node,
                    {"cc", "parts", "first_cuda", "features", "smem_optin_bytes", "sources"});
  ArchRow row;
  auto ccText = yaml::str(path, node["cc"], "cc");
  auto cc = ComputeCapability::parse(ccText);
  if (!cc) throw inputError(yaml::where(path, node["cc"]) + ": bad compute capability '" + ccText + "'");
  row.cc = *cc;
  row.parts = yaml::strList(path, node["parts"], "parts");
  if (auto fc = node["first_cuda"]) {
    for (const auto &kv : fc) row.firstCuda[parseVariant(path, kv.first)] = kv.second.as<std::string>();
  }
  for (const auto &f : node["features"]) {
    yaml::requireKeys(path, f, {"name", "variants"});
    ArchFeature feature{yaml::str(path, f["name"], "name"), {}};
    for (const auto &v : f["variants"]) feature.variants.push_back(parseVariant(path, v));
    row.features.push_back(std::move(feature));
  }
  if (auto smem = node["smem_optin_bytes"]; smem && !smem.IsNull()) row.smemOptinBytes = smem.as<long>();
  row.sources = yaml::strList(path, node["sources"], "sources");
  if (row.sources.empty())
    throw inputError(yaml::where(path, node) + ": row " + ccText + " cites no source",
                     "every arch-table row needs at least one source");
  return row;
}

} // namespace

bool ArchRow::hasFeature(const std::string &feature, Variant v) const {
  for (const auto &f : features)
    if (f.name == feature) return std::find(f.variants.begin(), f.variants.end(), v) != f.variants.end();
  return false;
}

ArchTable ArchTable::load(const std::string &path) {
  auto root = yaml::loadFile(path);
  yaml::requireKeys(path, root, {"version", "default_toolkit", "gpus"});
  ArchTable table;
  table.defaultToolkit_ = yaml::str(path, root["default_toolkit"], "default_toolkit");
  try {
    for (const auto &row : root["gpus"]) table.rows_.push_back(parseRow(path, row));
  } catch (const YAML::Exception &e) {
    throw inputError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  std::sort(table.rows_.begin(), table.rows_.end(),
            [](const ArchRow &a, const ArchRow &b) { return a.cc < b.cc; });
  return table;
}

const ArchRow *ArchTable::find(ComputeCapability cc) const {
  for (const auto &row : rows_)
    if (row.cc == cc) return &row;
  return nullptr;
}

} // namespace archscope
