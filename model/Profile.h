//===--- Profile.h - per-engine knowledge that inference cannot get -----===//
// SPDX-License-Identifier: Apache-2.0
//
// A profile names what the code itself does not say: which names carry the
// selected backend, which flag values mean a quant format, which code is the
// NVFP4 MoE path (its stages in the order they run), and which library entry
// points a backend reaches through indirection (registries, plugin pools).
// Everything else (predicates, enums, guards) is inferred from the code.
//===----------------------------------------------------------------------===//
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace archscope {

/// `path/to/file.py::Class.method`, `path/to/file.py::func`, or a whole file.
struct ScopeSpec {
  std::string file;
  std::string qualname;
  std::string text() const { return qualname.empty() ? file : file + "::" + qualname; }
};

struct QuantProfile {
  std::string name;                   ///< nvfp4
  std::vector<std::string> flags;     ///< quantization flag values meaning it
  std::vector<ScopeSpec> scope;       ///< dispatch stages, in the order they run
  std::string kernelMap;              ///< oracle: backend -> kernel classes function
  std::string deviceCheck;            ///< oracle: class method checking the device
  std::string candidates;             ///< oracle: ordered list of backends
  std::map<std::string, std::vector<std::string>> entries; ///< backend -> library entry points
};

struct DependencyPin {
  std::string name;    ///< flashinfer
  std::string file;    ///< where the engine pins it
  std::string pattern; ///< regex with one group: the pinned version
};

struct Profile {
  std::string id;
  std::string path;
  std::vector<std::string> detectFiles;
  std::set<std::string> selectors;
  std::set<std::string> quantFlags;
  std::set<std::string> backendEnums;
  std::vector<std::string> backends; ///< rows to show (empty: every backend found)
  /// backend -> the NVFP4 MoE kernel families it runs (data/kernel-families.yaml):
  /// what its kernels need from the ISA, and which probe validates it.
  std::map<std::string, std::vector<std::string>> families;
  /// backend -> folders (globs relative to a tree) of the prebuilt cubins it
  /// loads by name at run time (TRT-LLM-gen's batched_gemm-* pool).
  std::map<std::string, std::vector<std::string>> cubins;
  std::vector<QuantProfile> quants;
  std::vector<DependencyPin> pins;
  /// "Class.attr" (or "Class.*") -> its run-time value when code cannot say:
  /// "device_capability_list", the list holding the running GPU's (major,
  /// minor); or "registry DICT MODULE", the attribute names a function of
  /// MODULE through the dict literal DICT (attr -> function name) and reads
  /// as that function's result.
  std::map<std::string, std::string> attributes;
  /// Macros the engine's JIT defines as the build target's __CUDA_ARCH__
  /// (SGLang's load_jit: -DSGL_CUDA_ARCH=1200): the guard passes define
  /// them per target, as the JIT would.
  std::vector<std::string> archMacros;

  /// Loads one profile; throws an input error naming file:line on bad YAML
  /// or unknown keys.
  static Profile load(const std::string &path);
  /// The idioms every engine shares, for trees no profile matches.
  static Profile generic();
};

} // namespace archscope
