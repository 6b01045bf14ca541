//===--- CMakeArchSets.h - arch lists of a CMake build, evaluated --------===//
// SPDX-License-Identifier: Apache-2.0
//
// Engines filter the archs each kernel is built for with their own CMake
// helpers (vLLM's cuda_archs_loose_intersection). Those are evaluated, not
// pattern-matched: archscope finds the helper calls in CMakeLists.txt, and
// runs the engine's own helper functions with `cmake -P` on the target list
// the user builds for, in file order, so a call whose result feeds the next
// (CUDA_ARCHS) does. Branches on the CUDA compiler version are evaluated by
// CMake too; other branch conditions are reported as not evaluated.
//===----------------------------------------------------------------------===//
#pragma once
#include <string>
#include <vector>

namespace archscope::build {

struct ArchSetCall {
  int line = 0;
  std::string function;
  std::string out;                    ///< the output variable
  std::string requested;              ///< the source list as written, expanded
  std::string result;                 ///< what the helper returned
  std::vector<std::string> dropped;   ///< requested GPUs the build targets that no result arch runs on
  std::string branch;                 ///< enclosing conditions, "" at top level
  bool evaluated = true;              ///< false: cmake did not reach the call
  bool decidable = true;              ///< every enclosing condition tests the CUDA version
};

/// The arch list a source file is compiled for (vLLM's
/// `set_gencode_flags_for_srcs(SRCS ... CUDA_ARCHS ...)`), evaluated.
struct SourceArchs {
  int line = 0;
  std::string file;   ///< absolute
  std::string archs;  ///< "10.0f;11.0f" ("" = built for nothing)
  std::string branch; ///< enclosing conditions, "" at top level
};

/// A flag list the build assembles with `-gencode` entries (sgl-kernel's
/// SGL_KERNEL_CUDA_FLAGS), as CMake evaluated it: the targets it compiles.
struct GencodeList {
  std::string variable;
  int line = 0;                     ///< first line of CMakeLists.txt naming it
  std::vector<std::string> targets; ///< sm_90a, sm_100a, compute_120 ...
};

struct ArchSetReport {
  std::string cmakeLists;
  std::string buildArchs;             ///< the GPUs the build targets, as given
  std::vector<std::string> helperFiles;
  std::vector<ArchSetCall> calls;
  std::vector<SourceArchs> sources; ///< per-source arch lists, in file order
  std::vector<GencodeList> gencodeLists;
  /// Preprocessor definitions the build passes its CUDA sources, as CMake
  /// evaluated them: `-D` entries of *_FLAGS variables (vLLM's
  /// `list(APPEND VLLM_GPU_FLAGS "-DENABLE_NVFP4_SM120=1")` under the branch
  /// that found FP4 archs) and `target_compile_definitions`; "NAME=1", "NAME".
  std::vector<std::string> defines;
  std::vector<std::string> errors;
};

/// The arch sets of a published build: the CMake project evaluated for the
/// GPUs one release arch list (`TORCH_CUDA_ARCH_LIST` of a wheel job or
/// image) names, with the CUDA version that job builds with.
struct ReleaseBuild {
  std::string archs;         ///< CMake form, "8.0;10.0;12.0"
  std::string cuda;          ///< "12.9.1"
  std::vector<size_t> lists; ///< the release lists that build this way (indexes)
  ArchSetReport report;
};

/// Evaluates the arch-filter calls of `root`/CMakeLists.txt for a build
/// targeting `targetArchs` ("7.5;8.0;...;12.1") with CUDA `cudaVersion`.
ArchSetReport evaluateArchSets(const std::string &root, const std::string &targetArchs,
                               const std::string &cudaVersion);

} // namespace archscope::build
