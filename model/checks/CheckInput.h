//===--- CheckInput.h - everything the checks read, from every layer -----===//
// SPDX-License-Identifier: Apache-2.0
//
// Checks only read: the matrix (built from the Python layer), the Python
// facts, and the reports of the lower layers (CUDA guards per target, CMake
// arch sets, arch lists of release images, C++ runtime checks). They never re-run an extractor;
// the one query over the sources' text (NameUses) runs only when a rule asks it.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/build/ArchStringRewrites.h"
#include "matchers/build/CMakeArchSets.h"
#include "matchers/build/ReleaseArchLists.h"
#include "matchers/cuda/ArchGuardPass.h"
#include "matchers/cuda/RuntimeChecks.h"
#include "matchers/source/NameUses.h"
#include "model/ArchTable.h"
#include "model/Facts.h"
#include "model/KernelFamilies.h"
#include "model/Matrix.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace archscope::checks {

struct CheckInput {
  const Matrix &matrix;
  const Facts &facts;
  const ArchTable &table;
  const KernelFamilies &families;
  /// backend -> the kernel families its NVFP4 MoE kernels use (profile).
  const std::map<std::string, std::vector<std::string>> &backendFamilies;
  const std::set<std::string> &quantFlags; ///< the audited quant format's flag values
  const std::vector<cuda::GuardReport> &guards;
  const std::vector<build::ArchSetReport> &archSets;
  const std::vector<cuda::RuntimeCheckReport> &runtime; ///< C++ runtime checks of files with kernels
  const std::vector<build::ReleaseArchList> &releaseLists; ///< TORCH_CUDA_ARCH_LIST in images and scripts
  const std::vector<build::ReleaseBuild> &releaseBuilds; ///< the arch sets each published build gets
  const std::vector<build::ArchStringRewrite> &archRewrites; ///< string(REPLACE) of one arch number in CMake
  /// How often the trees' sources name an identifier: a query, read only by
  /// a rule that needs it (a definition named once is compiled by no build).
  const NameUses &sourceNames;
};

} // namespace archscope::checks
