//===--- ForeignPlatforms.cpp - backends made for other accelerators ----===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/ForeignPlatforms.h"

#include "matchers/python/FactSink.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace archscope::py {
namespace {

/// The accelerators that are not NVIDIA GPUs, as engines name them: the
/// package of their kernels, the folders their code lives under, and the
/// words a backend made for them is named with.
struct Platform {
  const char *name;
  std::vector<std::string> packages, folders, words;
};

const std::vector<Platform> &platforms() {
  static const std::vector<Platform> table = {
      {"AMD ROCm GPUs", {"aiter"}, {"rocm", "hip"}, {"aiter", "rocm", "hip"}},
      {"Huawei Ascend NPUs", {"torch_npu"}, {"npu"}, {"ascend", "npu"}},
      {"Intel XPUs", {"intel_extension_for_pytorch"}, {"xpu"}, {"xpu", "ipex"}},
      {"Intel Gaudi HPUs", {"habana_frameworks"}, {"hpu"}, {"hpu", "gaudi", "habana"}},
      {"Moore Threads MUSA GPUs", {"torch_musa"}, {"musa"}, {"musa"}},
      {"Apple silicon", {"mlx"}, {"mlx", "mps"}, {"mlx", "mps"}},
  };
  return table;
}

std::vector<std::string> dottedParts(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string p; std::getline(in, p, sep);)
    if (!p.empty()) out.push_back(p);
  return out;
}

bool contains(const std::vector<std::string> &items, const std::string &x) {
  return std::find(items.begin(), items.end(), x) != items.end();
}

/// Whether the dotted module is the platform's code: its package, or a
/// module below a folder named for it (`sglang.srt.hardware_backend.npu.x`).
bool isPlatformCode(const Platform &p, const std::string &dotted) {
  auto parts = dottedParts(dotted, '.');
  if (parts.empty()) return false;
  if (contains(p.packages, parts[0])) return true;
  return std::any_of(parts.begin() + 1, parts.end(),
                     [&](const std::string &c) { return contains(p.folders, c); });
}

/// The absolute modules an import statement names.
std::vector<std::string> importedModules(ModuleIndex &index, const Module &m, TSNode stmt) {
  const ParsedModule &pm = *m.parsed;
  if (type(stmt) == "import_from_statement")
    return {index.absoluteModule(m, std::string(pm.text(field(stmt, "module_name"))))};
  std::vector<std::string> out;
  for (TSNode c : namedChildren(stmt))
    out.push_back(std::string(pm.text(type(c) == "aliased_import" ? field(c, "name") : c)));
  return out;
}

bool isImport(TSNode stmt) {
  auto t = type(stmt);
  return t == "import_statement" || t == "import_from_statement";
}

/// The statements run whenever the module loads or one of its functions
/// runs: module-level imports, and those at the top of function and method
/// bodies (none under if/try/with, which may be another platform's branch).
std::vector<TSNode> unconditionalImports(const Module &m) {
  std::vector<TSNode> out;
  auto bodyImports = [&](TSNode def) {
    for (TSNode s : namedChildren(field(def, "body")))
      if (isImport(s)) out.push_back(s);
  };
  std::function<void(TSNode, bool)> visit = [&](TSNode stmt, bool inClass) {
    auto t = type(stmt);
    if (t == "decorated_definition") return visit(field(stmt, "definition"), inClass);
    if (t == "function_definition") return bodyImports(stmt);
    if (t == "class_definition" && !inClass)
      for (TSNode s : namedChildren(field(stmt, "body"))) visit(s, true);
    if (isImport(stmt) && !inClass) out.push_back(stmt);
  };
  for (TSNode stmt : namedChildren(m.parsed->root())) visit(stmt, false);
  return out;
}

const Platform *namedPlatform(const std::string &row) {
  std::string words = row;
  std::replace(words.begin(), words.end(), ' ', '_');
  std::replace(words.begin(), words.end(), '-', '_');
  for (const auto &p : platforms())
    for (const auto &w : dottedParts(words, '_'))
      if (contains(p.words, w)) return &p;
  return nullptr;
}

/// The first import of `p`'s code in the files `row`'s walks entered that
/// at most half of the rows enter (a shared helper says nothing of one row).
std::optional<ForeignPlatform> firstPlatformImport(ModuleIndex &index, const std::string &row,
                                                   const Platform &p, const std::set<std::string> &files,
                                                   std::map<std::string, size_t> &enteredBy, size_t rows) {
  for (const auto &path : files) {
    Module *m = index.parsedAt(path);
    if (!m || 2 * enteredBy[path] > std::max<size_t>(2, rows)) continue;
    for (TSNode stmt : unconditionalImports(*m))
      for (const auto &dotted : importedModules(index, *m, stmt))
        if (isPlatformCode(p, dotted))
          return ForeignPlatform{row, p.name, dotted,
                                 evidenceAt(*m, stmt, "imports " + dotted + ", code for " + p.name)};
  }
  return std::nullopt;
}

} // namespace

void markForeignPlatforms(ModuleIndex &index, const std::vector<std::string> &rows, Facts &facts) {
  std::map<std::string, size_t> enteredBy;
  for (const auto &[backend, files] : facts.enteredFiles)
    for (const auto &f : files) ++enteredBy[f];
  for (const auto &row : rows) {
    const Platform *p = namedPlatform(row);
    auto entered = facts.enteredFiles.find(row);
    if (!p || entered == facts.enteredFiles.end()) continue;
    if (auto mark = firstPlatformImport(index, row, *p, entered->second, enteredBy, rows.size()))
      facts.foreignPlatforms.push_back(std::move(*mark));
  }
}

} // namespace archscope::py
