//===--- KernelFamilies.cpp - load the kernel families YAML --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/KernelFamilies.h"

#include "model/YamlUtil.h"

namespace archscope {

KernelFamilies KernelFamilies::load(const std::string &path) {
  auto root = yaml::loadFile(path);
  yaml::requireKeys(path, root, {"version", "families"});
  KernelFamilies out;
  for (const auto &f : root["families"]) {
    yaml::requireKeys(path, f, {"name", "feature", "kernels", "native"});
    KernelFamily family{yaml::str(path, f["name"], "name"), "", yaml::str(path, f["kernels"], "kernels")};
    if (f["feature"] && !f["feature"].IsNull()) family.feature = yaml::str(path, f["feature"], "feature");
    if (f["native"]) family.native = yaml::str(path, f["native"], "native") == "true";
    out.families_.push_back(std::move(family));
  }
  if (out.families_.empty()) throw inputError(path + ": no kernel families", "list them under 'families:'");
  return out;
}

const KernelFamily *KernelFamilies::find(const std::string &name) const {
  for (const auto &f : families_)
    if (f.name == name) return &f;
  return nullptr;
}

std::optional<Target> KernelFamilies::buildTarget(const KernelFamily &f, const ArchTable &table,
                                                  ComputeCapability gpu) const {
  const ArchRow *row = table.find(gpu);
  if (!row) return std::nullopt;
  if (f.feature.empty()) return Target{gpu, Variant::Plain, CodeKind::Sass};
  // Prefer plain SASS (runs on the most GPUs), then the arch-specific target.
  for (Variant v : {Variant::Plain, Variant::ArchSpecific, Variant::FamilySpecific})
    if (row->hasFeature(f.feature, v)) return Target{gpu, v, CodeKind::Sass};
  return std::nullopt;
}

bool KernelFamilies::availableOn(const KernelFamily &f, const ArchTable &table, ComputeCapability gpu) const {
  return buildTarget(f, table, gpu).has_value();
}

} // namespace archscope
