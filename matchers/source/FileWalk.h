//===--- FileWalk.h - the files under the audited trees ------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// The C++/CUDA, build and release-list scans all walk the trees the same way:
// unreadable entries skipped, directory symlinks not followed, some folders
// not entered, files over a size limit left out.
//===----------------------------------------------------------------------===//
#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace archscope {

/// Calls `visit(path)` for each regular file under `roots` that `want`
/// takes (asked first: only those are stat'ed) and of at most `maxBytes`,
/// not entering a folder whose path `enter` refuses.
template <class Enter, class Want, class Visit>
void forEachFile(const std::vector<std::string> &roots, std::uintmax_t maxBytes, Enter enter, Want want, Visit visit) {
  namespace fs = std::filesystem;
  for (const auto &root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec)) {
        if (!enter(it->path())) it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file(ec) && want(it->path()) && it->file_size(ec) <= maxBytes) visit(it->path());
    }
  }
}

/// The file's bytes ("" when it cannot be read), in one read of its size.
inline std::string readWholeFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  std::string text(size_t(in.tellg()), '\0');
  in.seekg(0);
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  return text;
}

} // namespace archscope
