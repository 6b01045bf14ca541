//===--- LowerLayers.h - what C++/CUDA, CMake and cubins say per entry ----===//
// SPDX-License-Identifier: Apache-2.0
//
// The Python layer ends at a compiled kernel entry (`torch.ops.NS.OP`). The
// linker (model/link) follows each entry to its registration, the C++
// function behind it and the file that defines it, and reads what the lower
// layers say there per GPU. The matrix builder only consumes this summary.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Condition.h"
#include "model/Evidence.h"
#include "model/KernelFamilies.h"
#include "model/Target.h"

#include <map>
#include <string>
#include <vector>

namespace archscope {

/// One compiled kernel entry on one GPU.
struct EntryCoverage {
  /// True: some target that runs on the GPU compiles a kernel body there;
  /// False: none does (the GPU gets no kernel); Unknown: not linked or not read.
  Tri built = Tri::Unknown;
  std::string layer;           ///< built False: the layer that lacks the kernel (cuda, build, binary)
  /// False: the C++ entry itself refuses the GPU with a runtime check (a
  /// clean error, not a crash); `refusal` is that check.
  Tri checksPass = Tri::True;
  Evidence refusal;
  std::string why;             ///< one line: the reason, or why it is unknown
  /// built False on every GPU alike: the module has no code for the audited
  /// format (its flags leave out the format's macro). It decides a cell only
  /// where the call is certain, not where another module may be built.
  bool wholeModule = false;
  std::vector<Evidence> chain; ///< registration, definition, then the deciding #if / CMake line
};

struct LowerLayers {
  /// entry ("torch.ops.NS.OP") -> GPU -> coverage
  std::map<std::string, std::map<ComputeCapability, EntryCoverage>> entries;
  /// backend -> GPU -> whether its pool of prebuilt cubins (profile
  /// backend.cubins, found installed) has one for the GPU (layer binary)
  std::map<std::string, std::map<ComputeCapability, EntryCoverage>> cubinPools;
  /// entry -> GPU -> the same, for the cubins its JIT builder names by
  /// artifact path (no profile needed)
  std::map<std::string, std::map<ComputeCapability, EntryCoverage>> entryCubinPools;
  /// entry -> the source files its code was linked to (defining files, JIT
  /// module sources), for reading which kernel families it runs
  std::map<std::string, std::vector<std::string>> entryFiles;
  /// entry -> the kernel families those files show (KernelFamilies::marksIn)
  std::map<std::string, std::vector<FamilyMark>> entryFamilies;
  /// backend -> the families shown by the library Python files its entry
  /// walks entered (CuTe DSL: `from cutlass.cute.nvgpu import tcgen05`)
  std::map<std::string, std::vector<FamilyMark>> backendFamilies;
  bool read = false; ///< whether the lower layers were read at all
};

} // namespace archscope
