//===--- IsaMatrix.cpp - nvcc once per family, ptxas once per target ------===//
// SPDX-License-Identifier: Apache-2.0
#include "validation/IsaMatrix.h"

#include "validation/Process.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Parallel.h>
#include <llvm/Support/xxhash.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope::validation {
namespace {

std::string readText(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string hex(uint64_t v) {
  char buf[17];
  snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string hashOf(const std::string &s) { return hex(llvm::xxh3_64bits(llvm::StringRef(s))); }

/// The family's sources and the shared ones, in a stable order.
std::string sourcesDigest(const fs::path &kernels, const std::string &dir) {
  std::vector<fs::path> files;
  for (const auto &sub : {kernels / dir, kernels / "common"}) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(sub, ec); it != fs::recursive_directory_iterator(); it.increment(ec))
      if (!ec && it->is_regular_file(ec)) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::string all;
  for (const auto &f : files) all += f.filename().string() + '\0' + readText(f) + '\0';
  return hashOf(all);
}

std::string computeName(const Target &t) {
  return "compute_" + std::to_string(t.cc.sm()) + std::string(variantSuffix(t.variant));
}

/// The first GPU of the table whose ISA has the family's feature.
std::optional<Target> homeTarget(const KernelFamily &f, const KernelFamilies &all, const ArchTable &table) {
  for (const auto &row : table.rows())
    if (auto t = all.buildTarget(f, table, row.cc)) return t;
  return std::nullopt;
}

IsaVerdict parsePtxas(const ProcessResult &r, const std::string &family, const Target &t) {
  IsaVerdict v{IsaVerdict::State::Ok, family, t, "", ""};
  if (r.exitCode == 0) return v;
  static const std::regex missing(R"((Instruction|Feature) '([^']+)' (requires|not supported))");
  std::smatch m;
  std::istringstream lines(r.output);
  for (std::string l; std::getline(lines, l);) {
    if (l.find("error") == std::string::npos) continue;
    if (v.detail.empty()) v.detail = l.substr(l.find("error"));
    if (std::regex_search(l, m, missing)) {
      v.state = IsaVerdict::State::Missing;
      v.missing = m[2];
      v.detail = l.substr(l.find("error"));
      return v;
    }
  }
  v.state = IsaVerdict::State::Error;
  if (v.detail.empty()) v.detail = "ptxas exited " + std::to_string(r.exitCode) + ": " + r.output.substr(0, 200);
  return v;
}

std::string encode(const IsaVerdict &v) {
  return std::to_string(int(v.state)) + '\t' + v.missing + '\t' + v.detail;
}

std::optional<IsaVerdict> decode(const std::string &s, const std::string &family, const Target &t) {
  auto a = s.find('\t'), b = s.find('\t', a + 1);
  if (a == std::string::npos || b == std::string::npos || s.empty() || s[0] < '0' || s[0] > '2') return std::nullopt;
  return IsaVerdict{IsaVerdict::State(s[0] - '0'), family, t, s.substr(a + 1, b - a - 1), s.substr(b + 1)};
}

class FamilyProbe {
public:
  FamilyProbe(const KernelFamily &f, Target home, const IsaRequest &req, std::string nvcc, std::string ptxas,
              std::string toolkit)
      : family_(f), home_(home), req_(req), nvcc_(std::move(nvcc)), ptxas_(std::move(ptxas)),
        toolkit_(std::move(toolkit)) {}

  /// The probe's PTX at the home target; "" with `error` set when nvcc fails.
  std::string ptx(std::string &error) {
    fs::path source = fs::path(req_.kernelsDir) / family_.kernels / "isa_probe.cu";
    std::string key = "isa-ptx-" + hashOf(sourcesDigest(req_.kernelsDir, family_.kernels) + computeName(home_) + toolkit_);
    if (auto cached = req_.cache.get ? req_.cache.get(key) : std::nullopt) return *cached;
    llvm::SmallString<128> out;
    llvm::sys::fs::createTemporaryFile("archscope-isa", "ptx", out);
    // -O1 in the front end: less unrolling, half the PTX for ptxas to read;
    // the instructions the family needs (its mma/tcgen05/cp.async asm and
    // intrinsics) are the same.
    auto r = runProcess({nvcc_, "-ptx", "-std=c++17", "-Xcicc", "-O1", "-arch=" + computeName(home_),
                         source.string(), "-o", out.str().str()});
    std::string text = readText(out.str().str());
    llvm::sys::fs::remove(out);
    if (r.exitCode != 0 || text.empty()) {
      error = "nvcc -ptx " + source.string() + " for " + computeName(home_) + " failed: " + r.output.substr(0, 300);
      return "";
    }
    if (req_.cache.put) req_.cache.put(key, text);
    return text;
  }

  IsaVerdict assemble(const std::string &ptxText, const Target &t, bool &cached) {
    std::string key = "isa-ptxas-" + hashOf(hashOf(ptxText) + t.name() + toolkit_);
    if (auto hit = req_.cache.get ? req_.cache.get(key) : std::nullopt)
      if (auto v = decode(*hit, family_.name, t)) { cached = true; return *v; }
    static const std::regex targetLine(R"(\.target\s+\w+)");
    std::string retargeted = std::regex_replace(ptxText, targetLine, ".target " + t.name(),
                                                std::regex_constants::format_first_only);
    llvm::SmallString<128> in, out;
    llvm::sys::fs::createTemporaryFile("archscope-isa", "ptx", in);
    llvm::sys::fs::createTemporaryFile("archscope-isa", "cubin", out);
    std::ofstream(in.str().str()) << retargeted;
    // -O0: whether the target has the instructions is decided when ptxas
    // reads them; optimizing the code would only cost time.
    auto r = runProcess({ptxas_, "-O0", "-arch=" + t.name(), in.str().str(), "-o", out.str().str()});
    llvm::sys::fs::remove(in);
    llvm::sys::fs::remove(out);
    IsaVerdict v = parsePtxas(r, family_.name, t);
    if (req_.cache.put && r.exitCode >= 0) req_.cache.put(key, encode(v));
    return v;
  }

private:
  const KernelFamily &family_;
  Target home_;
  const IsaRequest &req_;
  std::string nvcc_, ptxas_, toolkit_;
};

} // namespace

const char *isaStateName(IsaVerdict::State s) {
  return s == IsaVerdict::State::Ok ? "isa-ok" : s == IsaVerdict::State::Missing ? "isa-missing" : "isa-error";
}

std::vector<Target> tableTargets(const ArchTable &table, const std::string &toolkit) {
  auto version = [](const std::string &v) {
    auto dot = v.find('.');
    return std::stoi(v.substr(0, dot)) * 100 + (dot == std::string::npos ? 0 : std::stoi(v.substr(dot + 1)));
  };
  std::vector<Target> out;
  for (const auto &row : table.rows())
    for (Variant v : {Variant::Plain, Variant::ArchSpecific, Variant::FamilySpecific})
      if (auto it = row.firstCuda.find(v); it != row.firstCuda.end() && version(it->second) <= version(toolkit))
        out.push_back(Target{row.cc, v, CodeKind::Sass});
  return out;
}

IsaMatrix computeIsaMatrix(const KernelFamilies &families, const ArchTable &table, const IsaRequest &req) {
  IsaMatrix m;
  auto nvcc = toolkitProgram("nvcc"), ptxas = toolkitProgram("ptxas");
  if (!nvcc || !ptxas) {
    m.errors.push_back("the CUDA toolkit (nvcc, ptxas) is not installed: ISA probes not run");
    return m;
  }
  auto version = runProcess({*nvcc, "--version"});
  static const std::regex release(R"(release (\d+\.\d+))");
  std::smatch rm;
  m.toolkit = std::regex_search(version.output, rm, release) ? rm[1].str() : "unknown";
  auto targets = req.targets.empty() ? tableTargets(table, m.toolkit) : req.targets;
  // Every family's PTX in parallel, then every (family, target) assembly in
  // one parallel loop, so both cores stay busy to the end.
  std::vector<std::unique_ptr<FamilyProbe>> probes;
  for (const auto &f : families.all()) {
    if (!req.families.empty() && std::find(req.families.begin(), req.families.end(), f.name) == req.families.end())
      continue;
    auto home = homeTarget(f, families, table);
    if (!home) { m.errors.push_back(f.name + ": no GPU of the arch table has its ISA feature " + f.feature); continue; }
    m.homes.emplace_back(f.name, *home);
    probes.push_back(std::make_unique<FamilyProbe>(f, *home, req, *nvcc, *ptxas, m.toolkit + version.output));
  }
  std::vector<std::string> ptx(probes.size()), errors(probes.size());
  llvm::parallelFor(0, probes.size(), [&](size_t i) { ptx[i] = probes[i]->ptx(errors[i]); });
  m.verdicts.resize(probes.size() * targets.size());
  std::vector<char> cached(m.verdicts.size(), 0);
  llvm::parallelFor(0, m.verdicts.size(), [&](size_t k) {
    size_t i = k / targets.size(), j = k % targets.size();
    if (ptx[i].empty()) {
      m.verdicts[k] = {IsaVerdict::State::Error, m.homes[i].first, targets[j], "", errors[i]};
      return;
    }
    bool hit = false;
    m.verdicts[k] = probes[i]->assemble(ptx[i], targets[j], hit);
    cached[k] = hit;
  });
  for (const auto &e : errors)
    if (!e.empty()) m.errors.push_back(e);
  m.fromCache = size_t(std::count(cached.begin(), cached.end(), 1));
  return m;
}

} // namespace archscope::validation
