//===--- ReleaseArchLists.cpp - TORCH_CUDA_ARCH_LIST in images and scripts --===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/build/ReleaseArchLists.h"

#include "matchers/source/FileWalk.h"
#include "matchers/source/SkippedFolders.h"

#include <algorithm>
#include <filesystem>
#include <map>
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

/// A value as the shell or Docker would read it: literal, the default of
/// `${VAR:-default}`, or what `variables` holds for a bare `${VAR}` / `$VAR`
/// (then `via` names it); anything else yields "".
std::string literalValue(const std::string &v, const std::map<std::string, std::string> &variables,
                         std::string &via) {
  static const std::regex withDefault(R"(^\$\{\w+:?-([^}]*)\}$)"), reference(R"(^\$\{?(\w+)\}?$)");
  std::smatch m;
  if (std::regex_match(v, m, withDefault)) return m[1];
  if (std::regex_match(v, m, reference)) {
    auto it = variables.find(m[1]);
    if (it == variables.end() || it->second.empty()) return "";
    via = m[1];
    return it->second;
  }
  return v.find('$') == std::string::npos ? v : "";
}

bool containsArch(std::string_view line) {
  for (size_t i = 0; i + 4 <= line.size(); ++i)
    if ((line[i] | 0x20) == 'a' && (line[i + 1] | 0x20) == 'r' && (line[i + 2] | 0x20) == 'c' &&
        (line[i + 3] | 0x20) == 'h')
      return true;
  return false;
}

bool isListName(std::string name) {
  for (char &c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
  return name.ends_with("cuda_arch_list");
}

/// The variables the file assigns an arch list to (a CI pipeline's
/// `CUDA_ARCH_X86_CU129: "7.5 8.0 ... 12.0"`); a name given two different
/// lists maps to "": which one a reference reads is not known. The
/// `*cuda_arch_list` names are left out: their assignment is read as a list
/// already, and `ENV TORCH_CUDA_ARCH_LIST=${torch_cuda_arch_list}` repeats it.
std::map<std::string, std::string> archVariables(std::string_view text) {
  static const std::regex assign(R"re(\b([A-Za-z_]\w*)\s*[=:]\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'\\;&|]+)))re");
  std::map<std::string, std::string> out;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string line(text.substr(start, end - start));
    start = end + 1;
    if (!containsArch(line)) continue;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), assign); it != std::sregex_iterator(); ++it) {
      const std::smatch &m = *it;
      std::string name = m[1], value = m[2].matched ? m[2].str() : m[3].matched ? m[3].str() : m[4].str();
      if (!containsArch(name) || isListName(name) || value.find('$') != std::string::npos ||
          parseArchList(value).empty())
        continue;
      auto [slot, fresh] = out.emplace(name, value);
      if (!fresh && slot->second != value) slot->second = "";
    }
  }
  return out;
}

/// The command around offset `pos`: its line and the lines joined to it by
/// a trailing backslash.
std::string_view commandAround(std::string_view text, size_t pos) {
  auto continued = [&](size_t lineEnd) { // the line ending at lineEnd ends with a backslash
    size_t i = lineEnd;
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\r')) --i;
    return i > 0 && text[i - 1] == '\\';
  };
  size_t begin = text.rfind('\n', pos == 0 ? 0 : pos - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  while (begin > 0 && continued(begin - 1)) {
    size_t prev = begin >= 2 ? text.rfind('\n', begin - 2) : std::string_view::npos;
    begin = prev == std::string_view::npos ? 0 : prev + 1;
  }
  size_t end = std::min(text.find('\n', pos), text.size());
  while (end < text.size() && continued(end)) end = std::min(text.find('\n', end + 1), text.size());
  return text.substr(begin, end - begin);
}

/// `CUDA_VERSION=12.9.1` (or `: "12.9"`) in `text`, "" when absent.
std::string cudaVersionIn(std::string_view text) {
  static const std::regex version(R"re(\bCUDA_VERSION\s*[=:]\s*["']?(\d+\.\d+(?:\.\d+)?))re");
  std::match_results<std::string_view::const_iterator> m;
  return std::regex_search(text.begin(), text.end(), m, version) ? m[1].str() : "";
}

/// A Dockerfile's `ARG CUDA_VERSION=13.0.2` default, "" when it has none.
std::string dockerCudaDefault(std::string_view text) {
  static const std::regex arg(R"re(^\s*ARG\s+CUDA_VERSION\s*=\s*["']?(\d+\.\d+(?:\.\d+)?))re", std::regex::icase);
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string line(text.substr(start, end - start));
    start = end + 1;
    std::smatch m;
    if (line.find("CUDA_VERSION") != std::string::npos && std::regex_search(line, m, arg)) return m[1];
  }
  return "";
}

bool isDockerfile(const fs::path &p) {
  return p.filename().string().starts_with("Dockerfile") || p.extension() == ".dockerfile";
}

bool isScanned(const fs::path &p) {
  std::string ext = p.extension().string();
  return isDockerfile(p) || ext == ".sh" || ext == ".bash" || ext == ".yml" || ext == ".yaml" || ext == ".hcl" ||
         ext == ".env";
}

/// CI folders are hidden but hold the release arch lists.
bool isScannedFolder(const fs::path &dir) {
  std::string name = dir.filename().string();
  if (name == ".github" || name == ".buildkite" || name == ".gitlab" || name == ".circleci") return true;
  return !isSkippedFolder(dir) && name != "site-packages";
}

} // namespace

std::vector<ReleaseArchList> archListsIn(const std::string &path, std::string_view text) {
  // NAME=value, NAME="value", NAME: value (YAML), ARG/ENV/--build-arg forms.
  // A quote may come escaped, inside a YAML string: torch_cuda_arch_list=\"${ARCHS}\".
  static const std::regex assign(
      R"re(\b(\w*cuda_arch_list)\s*[=:]\s*(?:\\?"([^"\\\n]*)\\?"|'([^'\n]*)'|([^\s"'\\;&|]+)))re", std::regex::icase);
  std::vector<ReleaseArchList> out;
  std::string s(text);
  auto variables = archVariables(text);
  std::string fileCuda = isDockerfile(path) ? dockerCudaDefault(text) : "";
  int line = 1;
  size_t counted = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), assign); it != std::sregex_iterator(); ++it) {
    const std::smatch &m = *it;
    for (size_t pos = size_t(m.position(0)); counted < pos; ++counted)
      if (s[counted] == '\n') ++line;
    std::string raw = m[2].matched ? m[2].str() : m[3].matched ? m[3].str() : m[4].str();
    std::string via;
    std::string value = literalValue(raw, variables, via);
    auto targets = parseArchList(value);
    if (targets.empty()) continue;
    std::string cuda = cudaVersionIn(commandAround(text, size_t(m.position(0))));
    out.push_back({path, line, m[1], value, std::move(targets), via, cuda.empty() ? fileCuda : cuda});
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
