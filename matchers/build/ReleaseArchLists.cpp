//===--- ReleaseArchLists.cpp - TORCH_CUDA_ARCH_LIST in images and scripts --===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/build/ReleaseArchLists.h"

#include "matchers/source/FileWalk.h"
#include "matchers/source/SkippedFolders.h"

#include <filesystem>
#include <regex>
#include <sstream>

namespace archscope::build {
namespace fs = std::filesystem;
namespace {

constexpr uintmax_t kMaxBytes = 1 << 20;

/// `9.0a 10.0a`, `8.0;9.0+PTX`, `7.5,8.6`: the targets, or none when an
/// item is not an arch (the value is something else, or half a variable).
std::vector<Target> parseArchList(const std::string &value) {
  std::vector<Target> out;
  std::string item;
  std::stringstream ss(value);
  while (ss >> item) {
    std::stringstream parts(std::regex_replace(item, std::regex("[;,]"), " "));
    for (std::string arch; parts >> arch;) {
      bool ptx = arch.size() > 4 && (arch.ends_with("+PTX") || arch.ends_with("+ptx"));
      if (ptx) arch.resize(arch.size() - 4);
      auto t = Target::parse(arch);
      if (!t || arch.find('.') == std::string::npos) return {};
      out.push_back(*t);
      if (ptx) {
        Target p = *t;
        p.kind = CodeKind::Ptx;
        out.push_back(p);
      }
    }
  }
  return out;
}

/// A value as the shell or Docker would read it: literal, or the default
/// of `${VAR:-default}`; a bare variable reference yields "".
std::string literalValue(std::string v) {
  static const std::regex withDefault(R"(^\$\{\w+:?-([^}]*)\}$)");
  std::smatch m;
  if (std::regex_match(v, m, withDefault)) return m[1];
  return v.find('$') == std::string::npos ? v : "";
}

bool isScanned(const fs::path &p) {
  std::string name = p.filename().string(), ext = p.extension().string();
  return name.starts_with("Dockerfile") || ext == ".dockerfile" || ext == ".sh" || ext == ".bash" ||
         ext == ".yml" || ext == ".yaml" || ext == ".hcl" || ext == ".env";
}

/// CI folders are hidden but hold the release arch lists.
bool isScannedFolder(const std::string &name) {
  if (name == ".github" || name == ".buildkite" || name == ".gitlab" || name == ".circleci") return true;
  return !isSkippedFolder(name) && name != "site-packages";
}

} // namespace

std::vector<ReleaseArchList> archListsIn(const std::string &path, std::string_view text) {
  // NAME=value, NAME="value", NAME: value (YAML), ARG/ENV/--build-arg forms.
  static const std::regex assign(
      R"re(\b(\w*cuda_arch_list)\s*[=:]\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'\\;&|]+)))re", std::regex::icase);
  std::vector<ReleaseArchList> out;
  std::string s(text);
  int line = 1;
  size_t counted = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), assign); it != std::sregex_iterator(); ++it) {
    const std::smatch &m = *it;
    for (size_t pos = size_t(m.position(0)); counted < pos; ++counted)
      if (s[counted] == '\n') ++line;
    std::string raw = m[2].matched ? m[2].str() : m[3].matched ? m[3].str() : m[4].str();
    std::string value = literalValue(raw);
    auto targets = parseArchList(value);
    if (targets.empty()) continue;
    out.push_back({path, line, m[1], value, std::move(targets)});
  }
  return out;
}

std::vector<ReleaseArchList> readReleaseArchLists(const std::vector<std::string> &roots) {
  std::vector<ReleaseArchList> out;
  forEachFile(roots, kMaxBytes, isScannedFolder, isScanned, [&](const fs::path &path) {
    std::string text = readWholeFile(path);
    std::string lower = text;
    for (char &c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
    if (lower.find("cuda_arch_list") == std::string::npos) return; // cheap literal scan first
    for (auto &l : archListsIn(fs::absolute(path).string(), text)) out.push_back(std::move(l));
  });
  return out;
}

} // namespace archscope::build
