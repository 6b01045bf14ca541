//===--- ArchStringRewrites.cpp - string(REPLACE) on arch lists -----------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/build/ArchStringRewrites.h"

#include "matchers/build/CMakeCommands.h"
#include "matchers/source/FileWalk.h"
#include "matchers/source/SkippedFolders.h"

#include <optional>
#include <regex>
#include <tuple>

namespace archscope::build {
namespace fs = std::filesystem;
namespace {

constexpr std::uintmax_t kMaxBytes = 1 << 20;

bool isArchNumber(const std::string &s) {
  static const std::regex number(R"(^\d+\.\d+[af]?$)");
  return std::regex_match(s, number);
}

/// A regex that matches one arch number, as the plain number, with whether
/// it is tied to list-item bounds: `2\.1` -> 2.1; `(^|;)2\.1(;|$)` -> 2.1,
/// anchored. "" for any other regex (`\.`, `[af]$`, `^([0-9]+)\..*$`).
std::pair<std::string, bool> archNumberOfRegex(std::string re) {
  bool anchored = false;
  for (const char *bound : {"(^|;)", "(;|^)", "(;|$)", "($|;)", "^", "$"}) {
    for (size_t p; (p = re.find(bound)) != std::string::npos;) {
      re.erase(p, std::char_traits<char>::length(bound));
      anchored = true;
    }
  }
  std::string plain;
  for (size_t i = 0; i < re.size(); ++i) {
    if (re[i] == '\\' && i + 1 < re.size() && re[i + 1] == '.') continue;
    plain += re[i];
  }
  return {isArchNumber(plain) ? plain : "", anchored};
}

/// The variable names an arch list: a rewrite of a version or path string
/// that happens to contain "2.1" is not this check's business.
bool namesArchList(const std::string &text) {
  static const std::regex archy("arch|capabilit|gencode|gpu|sm_|compute|cuda_?cc", std::regex::icase);
  return std::regex_search(text, archy);
}

std::optional<ArchStringRewrite> rewriteOf(const Command &c) {
  auto args = splitArgs(c.args);
  ArchStringRewrite r;
  size_t at = 0; // index of the match argument
  bool regex = true;
  if (c.name == "string" && args.size() >= 5 && args[0] == "REPLACE") {
    r.command = "string(REPLACE)", at = 1, regex = false;
  } else if (c.name == "string" && args.size() >= 6 && args[0] == "REGEX" && args[1] == "REPLACE") {
    r.command = "string(REGEX REPLACE)", at = 2;
  } else if (c.name == "list" && args.size() >= 5 && args[0] == "TRANSFORM" && args[2] == "REPLACE") {
    r.command = "list(TRANSFORM REPLACE)", at = 3;
  } else {
    return std::nullopt;
  }
  std::string match = argumentValue(args[at]);
  if (regex) std::tie(match, r.anchored) = archNumberOfRegex(match);
  if (match.empty() || !isArchNumber(match)) return std::nullopt;
  r.match = match;
  r.replacement = argumentValue(args[at + 1]);
  r.variable = c.name == "list" ? args[1] : args[at + 2];
  bool archy = namesArchList(r.variable) || (c.name == "string" && namesArchList(args[at + 3]));
  if (!archy) return std::nullopt;
  r.line = c.line;
  return r;
}

} // namespace

std::vector<ArchStringRewrite> archStringRewritesIn(const std::string &path, std::string_view text) {
  std::vector<ArchStringRewrite> out;
  std::string s(text);
  if (s.find("REPLACE") == std::string::npos) return out; // cheap literal scan first
  for (const auto &c : parseCommands(s))
    if (auto r = rewriteOf(c)) {
      r->path = path;
      out.push_back(std::move(*r));
    }
  return out;
}

std::vector<ArchStringRewrite> readArchStringRewrites(const std::vector<std::string> &roots) {
  std::vector<ArchStringRewrite> out;
  auto enter = [](const fs::path &dir) { return !isSkippedFolder(dir); };
  auto isCMake = [](const fs::path &path) { return path.filename() == "CMakeLists.txt" || path.extension() == ".cmake"; };
  forEachFile(roots, kMaxBytes, enter, isCMake, [&](const fs::path &path) {
    for (auto &r : archStringRewritesIn(fs::absolute(path).string(), readWholeFile(path))) out.push_back(std::move(r));
  });
  return out;
}

} // namespace archscope::build
