//===--- ArchTable.h - the cited, versioned table of GPU targets --------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/Target.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace archscope {

struct ArchFeature {
  std::string name;
  std::vector<Variant> variants; ///< target variants that carry the feature
};

struct ArchRow {
  ComputeCapability cc;
  std::vector<std::string> parts;
  std::map<Variant, std::string> firstCuda; ///< toolkit version per variant
  std::vector<ArchFeature> features;
  std::optional<long> smemOptinBytes;
  std::vector<std::string> sources;

  bool hasFeature(const std::string &feature, Variant v) const;
};

class ArchTable {
public:
  /// Loads and validates the YAML table; throws an input error naming file:line.
  static ArchTable load(const std::string &path);
  const std::vector<ArchRow> &rows() const { return rows_; }
  const ArchRow *find(ComputeCapability cc) const;
  const std::string &defaultToolkit() const { return defaultToolkit_; }

private:
  std::vector<ArchRow> rows_;
  std::string defaultToolkit_;
};

} // namespace archscope
