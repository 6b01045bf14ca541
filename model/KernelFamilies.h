//===--- KernelFamilies.h - ISA families of the NVFP4 MoE kernels --------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "model/ArchTable.h"
#include "model/Evidence.h"

#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace archscope {

struct KernelFamily {
  std::string name;    ///< tcgen05
  std::string feature; ///< the arch-table feature it needs ("" = none)
  std::string kernels; ///< its probe folder under kernels/
  bool native = false; ///< the GPU's own FP4 tensor-core path (the others dequantize NVFP4)
  /// ECMAScript regexes over kernel sources that show the family is used
  /// (`\btcgen05\.mma\b`, `CudaArch::Sm100`): how it is read off the code.
  std::vector<std::string> markers;
};

/// A family read off one source file: the first line that shows it.
struct FamilyMark {
  std::string family;
  Evidence where;
};

class KernelFamilies {
public:
  /// Loads data/kernel-families.yaml; throws an input error naming file:line.
  static KernelFamilies load(const std::string &path);
  const std::vector<KernelFamily> &all() const { return families_; }
  const KernelFamily *find(const std::string &name) const;
  /// Whether some target variant of GPU `gpu` carries the family's ISA.
  bool availableOn(const KernelFamily &f, const ArchTable &table, ComputeCapability gpu) const;
  /// The arch-specific or family target the family compiles for on `gpu`
  /// (sm_100a for tcgen05 on 10.0), or nullopt where its ISA is missing.
  std::optional<Target> buildTarget(const KernelFamily &f, const ArchTable &table, ComputeCapability gpu) const;
  /// The families whose markers the text of `path` holds, each at its first line.
  std::vector<FamilyMark> marksIn(const std::string &path, const std::string &text) const;

private:
  std::vector<KernelFamily> families_;
  struct Marker {
    size_t family;       ///< index into families_
    std::regex re;
    std::string literal; ///< text every match holds: the regex runs only on lines with it
  };
  std::vector<Marker> markers_;
};

} // namespace archscope
