//===--- ReleaseArchLists.h - arch lists set outside CMake ---------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Release images and build scripts choose the GPUs a wheel is built for
// with `TORCH_CUDA_ARCH_LIST` (and siblings: `FLASHINFER_CUDA_ARCH_LIST`,
// Docker's `ARG torch_cuda_arch_list`), not in CMake: vLLM's Dockerfile
// builds DeepEP with `TORCH_CUDA_ARCH_LIST='9.0a 10.0a'`. Those lists are
// read from Dockerfiles, shell scripts and CI YAML as written; `${VAR:-12.0a}`
// reads its default, and a reference to a variable the same file defines once
// with an arch list (a CI pipeline's `env:` block) reads that list; other
// references are skipped. The CUDA version a list is built with is read from
// the same command (`--build-arg CUDA_VERSION=12.9.1`) or the Dockerfile's
// `ARG CUDA_VERSION=` default.
//===----------------------------------------------------------------------===//
#pragma once
#include "model/Target.h"

#include <string>
#include <string_view>
#include <vector>

namespace archscope::build {

struct ReleaseArchList {
  std::string path;     ///< absolute
  int line = 0;
  std::string variable; ///< as written (TORCH_CUDA_ARCH_LIST, torch_cuda_arch_list)
  std::string value;    ///< the list as written ("9.0a 10.0a", "8.0;9.0+PTX")
  std::vector<Target> targets; ///< "12.0+PTX" gives sm_120 and compute_120
  std::string via;         ///< the variable the value was read through ("" = written in place)
  std::string cudaVersion; ///< "12.9.1" ("" = not said where the list is)
};

/// The arch lists assigned in one file's text (`path` is only recorded).
std::vector<ReleaseArchList> archListsIn(const std::string &path, std::string_view text);

/// Every Dockerfile, shell script and CI YAML file under `roots` (hidden CI
/// folders such as .github and .buildkite included, vendored ones skipped).
std::vector<ReleaseArchList> readReleaseArchLists(const std::vector<std::string> &roots);

} // namespace archscope::build
