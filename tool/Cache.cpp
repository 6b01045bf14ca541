//===--- Cache.cpp - cache locations, keys and files ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Cache.h"

#include <llvm/Support/xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace archscope {

std::string cacheDir() {
  if (const char *d = std::getenv("ARCHSCOPE_CACHE_DIR"); d && *d) return d;
  if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/archscope";
  if (const char *h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/archscope";
  return "";
}

std::string binaryIdentity() {
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return "unknown-binary";
  return exe.string() + "|" + std::to_string(fs::file_size(exe, ec)) + "|" +
         std::to_string(fs::last_write_time(exe, ec).time_since_epoch().count());
}

std::string hashKey(const std::string &data) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(llvm::xxh3_64bits(data)));
  return hex;
}

std::optional<std::string> readCacheFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeCacheFile(const std::string &path, const std::string &data) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::string temp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temp, std::ios::binary);
    if (!out || !(out << data)) return;
  }
  fs::rename(temp, path, ec);
  if (ec) fs::remove(temp, ec);
}

} // namespace archscope
