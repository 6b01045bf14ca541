//===--- EntryLinker.h - Python kernel entries -> C++ -> per-GPU kernels ---===//
// SPDX-License-Identifier: Apache-2.0
//
// Follows each compiled kernel entry the Python layer calls
// (`torch.ops.sgl_kernel.cutlass_fp4_group_mm`) to its registration
// (TORCH_LIBRARY `m.impl("op", &fn)`, pybind, tvm-ffi), to the files that
// define `fn`, and reads those files' per-target guard reports: a GPU gets
// the kernel when some build target that runs on it compiles a kernel body.
// A CMake build that gives the defining file an arch list
// (set_gencode_flags_for_srcs) decides which GPUs get it at all. An
// installed engine's shared object that registers the entry's namespace
// (sgl_kernel/common_ops.so for torch.ops.sgl_kernel, vllm/_C.so for
// torch.ops._C) is the final word: its cubins and PTX decide per GPU.
// Where a link cannot be made the coverage is unknown and says why.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/binary/ShippedBinaries.h"
#include "matchers/build/CMakeArchSets.h"
#include "matchers/cuda/ArchGuardPass.h"
#include "matchers/cuda/RuntimeChecks.h"
#include "matchers/source/CppSources.h"
#include "model/Facts.h"
#include "model/LowerLayers.h"

#include <functional>
#include <string>
#include <vector>

namespace archscope::link {

/// Runs (or reads from the cache) the guard passes of `files`, with
/// `extraArgs` after each file's own flags (a JIT module's -D flags).
using GuardRunner = std::function<std::vector<cuda::GuardReport>(const std::vector<std::string> &files,
                                                                 const std::vector<std::string> &extraArgs)>;

struct LinkRequest {
  std::vector<std::string> roots;        ///< trees to search for C++ registrations and definitions
  std::vector<ComputeCapability> gpus;   ///< matrix columns
  std::vector<Target> guardTargets;      ///< what the guard passes compile
  const std::vector<CppSource> *sources = nullptr; ///< the roots' C++ files (readCppSources), read by the caller
  std::string quant; ///< the audited format (nvfp4): a JIT module built without its macro has no code for it
};

/// Parses (or reads from the cache) the C++ runtime checks of `files`.
using CheckRunner = std::function<std::vector<cuda::RuntimeCheckReport>(const std::vector<std::string> &files)>;

/// Reads (or recalls) the shipped binaries of the trees; called only when
/// the Python layer calls some compiled entry.
using BinaryReader = std::function<std::vector<binary::BinaryImage>()>;

/// Evaluates the CMake builds of the trees (per-source arch lists); called
/// only when some compiled entry is linked to its defining files.
using ArchSetReader = std::function<std::vector<build::ArchSetReport>()>;

LowerLayers linkEntries(const Facts &facts, const LinkRequest &req, const GuardRunner &guards,
                        const CheckRunner &checks, const BinaryReader &binaries = {},
                        const ArchSetReader &archSets = {});

} // namespace archscope::link
