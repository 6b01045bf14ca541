//===--- KernelFamilies.cpp - load the kernel families YAML --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "model/KernelFamilies.h"

#include "model/YamlUtil.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace archscope {
namespace {

/// The longest run of plain characters of a regex (`\.` read as `.`), which
/// every match contains: `\btcgen05\.mma\b` -> `tcgen05.mma`.
std::string longestLiteral(const std::string &re) {
  std::string best, run;
  for (size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    bool escapedPunct = c == '\\' && i + 1 < re.size() && std::ispunct(static_cast<unsigned char>(re[i + 1]));
    if (escapedPunct) {
      run += re[++i];
      continue;
    }
    bool quantified = i + 1 < re.size() && (re[i + 1] == '?' || re[i + 1] == '*' || re[i + 1] == '{');
    if (c == '\\' || std::strchr("[](){}|?*+^$.", c) || quantified) {
      if (c == '\\') ++i; // \b, \w: not literal
      if (c == '[') i = re.find(']', i) == std::string::npos ? re.size() : re.find(']', i);
      if (run.size() > best.size()) best = run;
      run.clear();
      continue;
    }
    run += c;
  }
  return run.size() > best.size() ? run : best;
}

} // namespace

KernelFamilies KernelFamilies::load(const std::string &path) {
  auto root = yaml::loadFile(path);
  yaml::requireKeys(path, root, {"version", "families"});
  KernelFamilies out;
  for (const auto &f : root["families"]) {
    yaml::requireKeys(path, f, {"name", "feature", "kernels", "native", "markers"});
    KernelFamily family;
    family.name = yaml::str(path, f["name"], "name");
    family.kernels = yaml::str(path, f["kernels"], "kernels");
    if (f["feature"] && !f["feature"].IsNull()) family.feature = yaml::str(path, f["feature"], "feature");
    if (f["native"]) family.native = yaml::str(path, f["native"], "native") == "true";
    family.markers = yaml::strList(path, f["markers"], "markers");
    for (const auto &m : family.markers) {
      try {
        out.markers_.push_back({out.families_.size(), std::regex(m), longestLiteral(m)});
      } catch (const std::regex_error &e) {
        throw inputError(yaml::where(path, f["markers"]) + ": bad marker regex '" + m + "': " + e.what());
      }
    }
    out.families_.push_back(std::move(family));
  }
  if (out.families_.empty()) throw inputError(path + ": no kernel families", "list them under 'families:'");
  return out;
}

const KernelFamily *KernelFamilies::find(const std::string &name) const {
  for (const auto &f : families_)
    if (f.name == name) return &f;
  return nullptr;
}

std::optional<Target> KernelFamilies::buildTarget(const KernelFamily &f, const ArchTable &table,
                                                  ComputeCapability gpu) const {
  const ArchRow *row = table.find(gpu);
  if (!row) return std::nullopt;
  if (f.feature.empty()) return Target{gpu, Variant::Plain, CodeKind::Sass};
  // Prefer plain SASS (runs on the most GPUs), then the arch-specific target.
  for (Variant v : {Variant::Plain, Variant::ArchSpecific, Variant::FamilySpecific})
    if (row->hasFeature(f.feature, v)) return Target{gpu, v, CodeKind::Sass};
  return std::nullopt;
}

namespace {

/// Whether the text at `at` is prose, not code: a `#`, `//` or `*` comment
/// line, or (Python) inside a triple-quoted docstring.
bool inProse(const std::string &path, const std::string &text, size_t bol, size_t at) {
  size_t first = text.find_first_not_of(" \t", bol);
  if (first != std::string::npos && first < at &&
      (text[first] == '#' || text[first] == '*' || text.compare(first, 2, "//") == 0))
    return true;
  if (!path.ends_with(".py")) return false;
  size_t quotes = 0;
  for (const char *q : {"\"\"\"", "'''"})
    for (size_t i = text.find(q); i != std::string::npos && i < at; i = text.find(q, i + 3)) ++quotes;
  return quotes % 2 == 1;
}

} // namespace

std::vector<FamilyMark> KernelFamilies::marksIn(const std::string &path, const std::string &text) const {
  // Per family, the first mark in code; one in prose only where none is.
  std::vector<FamilyMark> out;
  std::vector<bool> prose;
  for (const auto &marker : markers_) {
    const std::string &name = families_[marker.family].name;
    auto have = std::find_if(out.begin(), out.end(), [&](const FamilyMark &m) { return m.family == name; });
    if (have != out.end() && !prose[size_t(have - out.begin())]) continue;
    for (size_t at = text.find(marker.literal); at != std::string::npos; at = text.find(marker.literal, at + 1)) {
      size_t bol = text.rfind('\n', at);
      bol = bol == std::string::npos ? 0 : bol + 1;
      size_t eol = text.find('\n', at);
      std::string line = text.substr(bol, (eol == std::string::npos ? text.size() : eol) - bol);
      std::smatch m;
      if (!std::regex_search(line, m, marker.re)) continue;
      bool isProse = inProse(path, text, bol, bol + size_t(m.position(0)));
      if (have != out.end() && isProse) continue; // a prose mark is already there
      int lineNo = 1 + int(std::count(text.begin(), text.begin() + long(bol), '\n'));
      int col = int(m.position(0)) + 1;
      std::string shown = line.substr(line.find_first_not_of(" \t"));
      std::string note = "uses " + name + " (marker " + m.str(0) + ")";
      FamilyMark mark{name, {path, lineNo, col, "isa", shown.substr(0, 160), note}};
      if (have != out.end()) {
        *have = mark;
        prose[size_t(have - out.begin())] = false;
        break;
      }
      out.push_back(mark);
      prose.push_back(isProse);
      if (!isProse) break;
      have = out.end() - 1;
    }
  }
  return out;
}

bool KernelFamilies::availableOn(const KernelFamily &f, const ArchTable &table, ComputeCapability gpu) const {
  return buildTarget(f, table, gpu).has_value();
}

} // namespace archscope
