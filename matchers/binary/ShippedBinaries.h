//===--- ShippedBinaries.h - the SASS and PTX inside shipped .so/.cubin ---===//
// SPDX-License-Identifier: Apache-2.0
//
// The binary layer, the final word on what was built: `cuobjdump -lelf
// -lptx` (CUDA toolkit) lists the cubins (sm_90, sm_100a, ...) and the PTX
// (compute_120) of each .so / .cubin of an installed engine. A GPU can run
// a file's kernels when one of its cubins loads there, or its PTX JIT-forwards.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Target.h"

#include <string>
#include <vector>

namespace archscope::binary {

struct BinaryImage {
  std::string path;
  std::vector<Target> sass; ///< one per distinct cubin target
  std::vector<Target> ptx;  ///< one per distinct PTX target
  std::string error;        ///< cuobjdump failed; "" for a file without device code

  bool hasDeviceCode() const { return !sass.empty() || !ptx.empty(); }
  /// Whether some cubin loads on `gpu` or some PTX JIT-compiles for it.
  bool runsOn(ComputeCapability gpu) const;
  std::string targetsText() const; ///< "sm_90, sm_100a; PTX compute_120"
};

/// Every .so and .cubin under `roots` (symlinks not followed), read with
/// cuobjdump; `cached(path+size+mtime)` / `store` keep results between runs.
/// Returns an empty list and sets `error` when cuobjdump is not installed.
std::vector<BinaryImage> readShippedBinaries(const std::vector<std::string> &roots, std::string &error);

/// Parses cuobjdump -lelf -lptx output (exposed for tests).
BinaryImage parseCuobjdumpListing(const std::string &path, const std::string &listing);

} // namespace archscope::binary
