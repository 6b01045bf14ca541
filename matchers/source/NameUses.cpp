//===--- NameUses.cpp - how often the trees' sources name an identifier ---===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/source/NameUses.h"
#include "matchers/source/FileWalk.h"
#include "matchers/source/SkippedFolders.h"

#include <llvm/ADT/StringSet.h>
#include <llvm/Support/Parallel.h>

#include <algorithm>
#include <atomic>
#include <bitset>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace archscope {
namespace {

bool isSourceText(const std::filesystem::path &p) {
  static const llvm::StringSet<> extensions{".py", ".cu",  ".cuh", ".h",   ".hpp",   ".hh", ".cpp",
                                            ".cc", ".cxx", ".inl", ".inc", ".jinja", ".j2", ".tpl"};
  return extensions.contains(p.extension().string());
}

bool startsWord(char c) { return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool inWord(char c) { return startsWord(c) || (c >= '0' && c <= '9'); }

/// The names to count, and a cheap test that most words of a file fail
/// before any hashing: their length and first letter. Counts are atomic:
/// the files are read in parallel, and a match is rare.
class Wanted {
public:
  explicit Wanted(const std::set<std::string> &names) : counts_(names.size()) {
    for (const auto &n : names) {
      if (n.empty()) continue;
      ids_[n] = ids_.size();
      lengths_.set(std::min<size_t>(n.size(), 255));
      firsts_.set(static_cast<unsigned char>(n[0]));
    }
  }
  void saw(std::string_view word) {
    if (!firsts_.test(static_cast<unsigned char>(word[0])) ||
        !lengths_.test(std::min<size_t>(word.size(), 255)))
      return;
    if (auto it = ids_.find(word); it != ids_.end())
      counts_[it->second].fetch_add(1, std::memory_order_relaxed);
  }
  int count(std::string_view name) const {
    auto it = ids_.find(name);
    return it == ids_.end() ? 0 : counts_[it->second].load();
  }

private:
  std::unordered_map<std::string_view, size_t> ids_;
  std::vector<std::atomic<int>> counts_;
  std::bitset<256> lengths_, firsts_;
};

void countWords(const std::string &text, Wanted &wanted) {
  for (size_t i = 0; i < text.size();) {
    if (!startsWord(text[i]) || (i > 0 && inWord(text[i - 1]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && inWord(text[end])) ++end;
    wanted.saw(std::string_view(text).substr(i, end - i));
    i = end;
  }
}

/// The source files under `roots`, vendored libraries left out.
std::vector<std::filesystem::path> sourceFiles(const std::vector<std::string> &roots) {
  std::vector<std::filesystem::path> out;
  auto enter = [](const std::filesystem::path &dir) { return !isSkippedFolder(dir); };
  auto keep = [&](const std::filesystem::path &path) { out.push_back(path); };
  forEachFile(roots, std::uintmax_t(64) << 20, enter, isSourceText, keep);
  return out;
}

} // namespace

std::map<std::string, int> NameUses::count(const std::set<std::string> &names) const {
  std::map<std::string, int> out;
  if (names.empty()) return out;
  Wanted wanted(names);
  auto files = sourceFiles(roots_);
  llvm::parallelFor(0, files.size(), [&](size_t i) { countWords(readWholeFile(files[i]), wanted); });
  for (const auto &n : names) out[n] = wanted.count(n);
  return out;
}

} // namespace archscope
