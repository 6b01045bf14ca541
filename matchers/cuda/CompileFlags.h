//===--- CompileFlags.h - the -I/-D a CUDA file is compiled with --------===//
// SPDX-License-Identifier: Apache-2.0
//
// From compile_commands.json when the tree has one (in its root or build/),
// keeping only what the preprocessor needs (-I, -isystem, -D, -U, -include)
// and dropping nvcc's own flags (-gencode, -Xcompiler, --expt-*: the pass sets
// the target itself). Without an entry: -I for every include/ folder of the
// file's ancestors, as engines lay out their headers (FlashInfer's include/).
//===----------------------------------------------------------------------===//
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace archscope::cuda {

class CompileFlags {
public:
  /// Preprocessor arguments for `file` (absolute or relative path).
  std::vector<std::string> argsFor(const std::string &file);
  /// Where the flags of `file` came from: a compile_commands.json or "inferred".
  std::string sourceOf(const std::string &file);
  /// Problems with the databases read so far (malformed, entries naming
  /// files that do not exist), each naming the file; their files fall back
  /// to inferred flags.
  std::vector<std::string> warnings();

private:
  struct Database {
    std::map<std::string, std::vector<std::string>> byFile; ///< absolute path -> kept args
  };
  const Database *databaseFor(const std::string &dir);
  std::map<std::string, Database> databases_; ///< by compile_commands.json path ("" = none)
  std::map<std::string, std::string> dbPathByDir_;
  std::vector<std::string> warnings_;
  std::mutex mutex_;
};

} // namespace archscope::cuda
