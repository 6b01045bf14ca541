//===--- CubinPools.h - prebuilt cubins a backend loads by name ----------===//
// SPDX-License-Identifier: Apache-2.0
//
// TRT-LLM-gen kernels are not compiled with the engine: FlashInfer loads
// prebuilt cubins by name at run time, from the flashinfer-cubin package or
// its download cache (batched_gemm-*/Bmm_E2m1E2m1_..._sm100f.cubin). A
// profile names the folders a backend's cubins live in (backend.cubins,
// globs relative to a tree); the pool's file names say each cubin's target
// (`_sm100f`, `_sm103a`), which decides the GPUs that have a kernel (field
// bugs 9 and 11: SM100-only cubins on a B300).
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Target.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace archscope::binary {

struct CubinPool {
  std::string owner;                      ///< the backend (profile) or kernel entry (artifact) it serves
  std::string pattern;                    ///< the profile's glob, or the artifact path
  std::vector<std::string> dirs;          ///< folders it matched, absolute
  size_t cubins = 0;
  std::map<std::string, size_t> byTarget; ///< "sm_100f" -> cubins named for it
  size_t unnamed = 0;                     ///< cubins whose name carries no target

  /// Some cubin named for a target that runs on `gpu`.
  bool runsOn(ComputeCapability gpu) const;
  std::string targetsText() const; ///< "1516 sm_100f"
};

/// The target a cubin's file name ends with (`..._sm100f.cubin`), if any.
std::optional<Target> cubinTarget(const std::string &fileName);

/// For each backend's globs (relative to each root), the pools found there;
/// a glob that matches nothing yields no pool (the cubins are not installed).
std::vector<CubinPool> readCubinPools(const std::vector<std::string> &roots,
                                      const std::map<std::string, std::vector<std::string>> &globs);

/// For each owner's artifact paths (`b552.../batched_gemm-b3c1646-c111d7c`,
/// read off the JIT builder), the folders under the roots whose path ends
/// with one: where the package that ships them unpacked them.
std::vector<CubinPool> readArtifactPools(const std::vector<std::string> &roots,
                                         const std::map<std::string, std::vector<std::string>> &artifacts);

} // namespace archscope::binary
