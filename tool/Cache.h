//===--- Cache.h - where archscope keeps results keyed by content hash ---===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <optional>
#include <string>

namespace archscope {

/// $ARCHSCOPE_CACHE_DIR, $XDG_CACHE_HOME/archscope or ~/.cache/archscope;
/// "" when none can be named (then nothing is cached).
std::string cacheDir();
/// Identifies this archscope build (path, size, mtime of the executable):
/// part of every key, so a rebuilt archscope never reads stale results.
std::string binaryIdentity();
/// 16 hex digits of xxh3 over `data`.
std::string hashKey(const std::string &data);
std::optional<std::string> readCacheFile(const std::string &path);
/// Atomic write (temp file + rename); failures are ignored.
void writeCacheFile(const std::string &path, const std::string &data);

} // namespace archscope
