//===--- MatrixBuilder.h - facts -> matrix, per target ------------------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/ArchTable.h"
#include "model/Facts.h"
#include "model/KernelFamilies.h"
#include "model/LowerLayers.h"
#include "model/Matrix.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace archscope {

/// A quant format row group: its name and the engine's flag values meaning it.
struct QuantSpec {
  std::string name;               ///< nvfp4
  std::set<std::string> flags;    ///< modelopt_fp4, ...
};

struct MatrixRequest {
  std::vector<std::string> backends; ///< rows (without auto)
  std::vector<QuantSpec> quants;
  std::vector<ComputeCapability> targets;
  int cudaMajor = 13, cudaMinor = 0;
  bool autoRow = true;
  /// backend -> the kernel families it runs (profile), with the families'
  /// ISA features and the arch table: a GPU with none of them has no kernel.
  std::map<std::string, std::vector<std::string>> families;
  const KernelFamilies *kernelFamilies = nullptr;
  const ArchTable *table = nullptr;
};

/// `lower`: what the C++/CUDA and build layers say about the kernel entries
/// the Python facts call (null or unread: cells say those layers were not read).
Matrix buildMatrix(const Facts &facts, const MatrixRequest &request, const LowerLayers *lower = nullptr);

} // namespace archscope
