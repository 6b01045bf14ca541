//===--- Archs.cpp - `archscope archs`: the build arch-set layer ---------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Archs.h"

#include "matchers/build/CMakeArchSets.h"
#include "model/Errors.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/Parallel.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>

namespace archscope {
namespace {

/// What a build targets when the user names nothing: every arch-table GPU
/// from sm_75 that CUDA 13.0 compiles for.
const char *kDefaultBuild = "7.5;8.0;8.6;8.7;8.9;9.0;10.0;10.3;11.0;12.0;12.1";

std::string join(const std::vector<std::string> &v, const char *sep) {
  std::string s;
  for (const auto &x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

} // namespace

std::string defaultBuildArchs() { return kDefaultBuild; }

std::vector<build::ArchSetReport> cmakeArchSets(const std::vector<std::string> &roots, const std::string &cuda,
                                                std::vector<std::string> &warnings) {
  std::vector<build::ArchSetReport> out;
  for (const auto &root : roots) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::path(root) / "CMakeLists.txt", ec)) continue;
    auto report = build::evaluateArchSets(root, defaultBuildArchs(), cuda);
    for (const auto &e : report.errors) warnings.push_back("cmake: " + e);
    if (!report.calls.empty() || !report.sources.empty() || !report.gencodeLists.empty())
      out.push_back(std::move(report));
  }
  return out;
}

namespace {

/// TORCH_CUDA_ARCH_LIST's GPUs as the engine's CMake sees them in CUDA_ARCHS
/// (torch's -gencode flags read back): "10.0", "9.0a"; PTX adds nothing.
std::string cmakeArchs(const std::vector<Target> &targets) {
  std::vector<std::string> archs;
  for (const auto &t : targets) {
    std::string a = t.cc.dotted() + std::string(variantSuffix(t.variant));
    if (std::find(archs.begin(), archs.end(), a) == archs.end()) archs.push_back(a);
  }
  return join(archs, ";");
}

bool buildsTheEngine(const build::ReleaseArchList &l) {
  std::string v = l.variable;
  for (char &c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
  return v == "torch_cuda_arch_list" && !l.cudaVersion.empty();
}

} // namespace

std::vector<build::ReleaseBuild> releaseBuilds(const std::vector<build::ArchSetReport> &archSets,
                                               const std::vector<build::ReleaseArchList> &lists) {
  std::vector<build::ReleaseBuild> out;
  for (const auto &r : archSets) {
    if (r.calls.empty()) continue;
    std::string root = std::filesystem::path(r.cmakeLists).parent_path().string() + "/";
    for (size_t i = 0; i < lists.size(); ++i) {
      if (!buildsTheEngine(lists[i]) || !lists[i].path.starts_with(root)) continue;
      std::string archs = cmakeArchs(lists[i].targets);
      auto same = std::find_if(out.begin(), out.end(), [&](const build::ReleaseBuild &b) {
        return b.archs == archs && b.cuda == lists[i].cudaVersion && b.report.cmakeLists == r.cmakeLists;
      });
      if (same != out.end()) { same->lists.push_back(i); continue; }
      build::ReleaseBuild b{archs, lists[i].cudaVersion, {i}, {}};
      b.report.cmakeLists = r.cmakeLists;
      out.push_back(std::move(b));
    }
  }
  llvm::parallelFor(0, out.size(), [&](size_t i) {
    auto &b = out[i];
    b.report = build::evaluateArchSets(std::filesystem::path(b.report.cmakeLists).parent_path().string(), b.archs,
                                       b.cuda);
  });
  return out;
}

int runArchs(const Options &opts, std::ostream &out) {
  std::string build = opts.cudaArchs.empty() ? defaultBuildArchs() : opts.cudaArchs;
  std::string cuda = opts.cuda.empty() ? "13.0" : opts.cuda;
  auto report = build::evaluateArchSets(opts.paths[0], build, cuda);
  if (!report.errors.empty() && report.calls.empty() && report.gencodeLists.empty())
    throw inputError(report.errors.front(), "archs reads a CMake project whose cmake/ folder defines its arch filters");
  if (opts.format == "json") {
    llvm::json::Array calls;
    for (const auto &c : report.calls) {
      llvm::json::Array dropped;
      for (const auto &d : c.dropped) dropped.push_back(d);
      calls.push_back(llvm::json::Object{{"line", c.line}, {"function", c.function}, {"output", c.out},
                                         {"requested", c.requested}, {"result", c.result},
                                         {"dropped", std::move(dropped)}, {"branch", c.branch},
                                         {"evaluated", c.evaluated}, {"decidable", c.decidable}});
    }
    llvm::json::Array errors;
    for (const auto &e : report.errors) errors.push_back(e);
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                     {"cmake_lists", report.cmakeLists}, {"build_archs", build}, {"cuda", cuda},
                                     {"calls", std::move(calls)}, {"errors", std::move(errors)}}));
    out << os.str() << "\n";
    return ExitClean;
  }
  out << report.cmakeLists << ": building for " << build << " with CUDA " << cuda << "\n";
  for (const auto &c : report.calls) {
    out << "  " << std::left << std::setw(6) << c.line << std::setw(28) << c.out << " ";
    if (!c.evaluated) {
      out << (c.decidable ? "not built with CUDA " + cuda + ": inside " : "not evaluated: inside ") << c.branch << "\n";
      continue;
    }
    out << c.requested << "  ->  " << (c.result.empty() ? "(empty)" : c.result);
    if (!c.dropped.empty()) out << "   DROPS " << join(c.dropped, ",");
    out << "\n";
  }
  for (const auto &s : report.sources)
    out << "  " << std::left << std::setw(6) << s.line << std::setw(28) << std::filesystem::path(s.file).filename().string() << " "
        << (s.archs.empty() ? "(no arch)" : s.archs) << "\n";
  for (const auto &g : report.gencodeLists)
    out << "  " << std::left << std::setw(6) << g.line << std::setw(28) << g.variable << " -gencode "
        << join(g.targets, ",") << "\n";
  if (!report.defines.empty()) out << "  definitions for its CUDA sources: " << join(report.defines, " ") << "\n";
  for (const auto &e : report.errors) out << "  note: " << e << "\n";
  out << "DROPS = GPUs of the build that the requested archs run on but no resulting arch does\n";
  return ExitClean;
}

} // namespace archscope
