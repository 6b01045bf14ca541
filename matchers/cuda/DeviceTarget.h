//===--- DeviceTarget.h - a compiler target as clang's device pass sees it -===//
// SPDX-License-Identifier: Apache-2.0
//
// clang 22 knows sm_XY and sm_XYa but not the f targets, and defines neither
// __CUDA_ARCH_SPECIFIC__ nor __CUDA_ARCH_FAMILY_SPECIFIC__. To see a file as
// nvcc 13.0 compiles it (hardware.md, "Macros nvcc 13.0 defines"), the pass
// runs the nearest clang target and adjusts the macros the way nvcc sets them:
//   sm_XYa  __CUDA_ARCH_FEAT_SMXY_ALL, SPECIFIC = FAMILY = XY0
//   sm_XYf  (clang's sm_XYa, FEAT macro removed) FAMILY = XY0
//   sm_XY   __CUDA_ARCH__ only
// The pass searches no system include folder (-nostdinc++ -nostdlibinc):
// what a guard reads must not depend on the CUDA or libstdc++ a machine
// happens to have installed (CUDA 13's headers under /usr/local/include once
// left whole files unrecorded), the toolkit's version macros come from
// --cuda, and the C++ library's headers were most of each pass's time.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Target.h"

#include <string>
#include <vector>

namespace archscope::cuda {

/// clang driver arguments that make a device-only pass match nvcc's macros,
/// for the CUDA toolkit `cudaMajor.cudaMinor` (its version macros too: CUTLASS's
/// *_SUPPORTED and engines' `CUDA_VERSION >= 12080` tests key on them).
inline std::vector<std::string> deviceArgs(const Target &t, int cudaMajor = 13, int cudaMinor = 0) {
  std::string arch = std::to_string(t.cc.sm()) + "0";
  std::string sm = "sm_" + std::to_string(t.cc.sm());
  std::string version = std::to_string(cudaMajor * 1000 + cudaMinor * 10);
  std::vector<std::string> args = {"-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib", "-nostdinc++", "-nostdlibinc", "-w",
                                   "-D__CUDACC_VER_MAJOR__=" + std::to_string(cudaMajor),
                                   "-D__CUDACC_VER_MINOR__=" + std::to_string(cudaMinor),
                                   "-DCUDA_VERSION=" + version, "-DCUDART_VERSION=" + version};
  switch (t.variant) {
  case Variant::Plain:
    args.push_back("--cuda-gpu-arch=" + sm);
    break;
  case Variant::ArchSpecific:
    args.push_back("--cuda-gpu-arch=" + sm + "a");
    args.push_back("-D__CUDA_ARCH_SPECIFIC__=" + arch);
    args.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + arch);
    break;
  case Variant::FamilySpecific:
    args.push_back("--cuda-gpu-arch=" + sm + "a");
    args.push_back("-U__CUDA_ARCH_FEAT_SM" + std::to_string(t.cc.sm()) + "_ALL");
    args.push_back("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + arch);
    break;
  }
  return args;
}

} // namespace archscope::cuda
