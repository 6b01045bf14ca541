//===--- ShippedBinaries.cpp - cuobjdump -lelf -lptx over installed files --===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/binary/ShippedBinaries.h"

#include "matchers/binary/CubinPools.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Parallel.h>
#include <llvm/Support/Program.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope::binary {
namespace {

std::optional<std::string> cuobjdump() {
  if (auto p = llvm::sys::findProgramByName("cuobjdump")) return *p;
  for (const char *dir : {"/usr/local/cuda/bin", "/opt/archscope/pytools/nvidia/cu13/bin"}) {
    std::error_code ec;
    if (fs::is_regular_file(fs::path(dir) / "cuobjdump", ec)) return (fs::path(dir) / "cuobjdump").string();
  }
  return std::nullopt;
}

std::string run(const std::string &tool, const std::string &file, int &rc) {
  llvm::SmallString<128> out;
  llvm::sys::fs::createTemporaryFile("archscope-cuobjdump", "txt", out);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(out)};
  std::string err;
  rc = llvm::sys::ExecuteAndWait(tool, {tool, "-lelf", "-lptx", file}, std::nullopt, redirects, 600, 0, &err);
  std::ifstream in(out.str().str());
  std::stringstream ss;
  ss << in.rdbuf();
  llvm::sys::fs::remove(out);
  return ss.str() + err;
}

bool isBinary(const fs::path &p) {
  std::string name = p.filename().string();
  return p.extension() == ".cubin" || p.extension() == ".so" || name.find(".so.") != std::string::npos;
}

void addUnique(std::vector<Target> &v, const Target &t) {
  if (std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
}

} // namespace

bool BinaryImage::runsOn(ComputeCapability gpu) const {
  return std::any_of(sass.begin(), sass.end(), [&](const Target &t) { return t.runsOn(gpu); }) ||
         std::any_of(ptx.begin(), ptx.end(), [&](const Target &t) { return t.runsOn(gpu); });
}

std::string BinaryImage::targetsText() const {
  std::string s;
  for (const auto &t : sass) s += (s.empty() ? "" : ", ") + t.name();
  if (!ptx.empty()) s += std::string(s.empty() ? "" : "; ") + "PTX";
  for (const auto &t : ptx) s.append(" ").append(t.name());
  return s.empty() ? "no device code" : s;
}

BinaryImage parseCuobjdumpListing(const std::string &path, const std::string &listing) {
  BinaryImage img;
  img.path = path;
  // "ELF file    2: libk.2.sm_100a.cubin", "PTX file    1: libk.1.sm_120.ptx"
  static const std::regex line(R"((ELF|PTX) file\s+\d+:\s+\S*?\.(sm_\d+[af]?)\.(cubin|ptx))");
  std::istringstream in(listing);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_search(l, m, line)) continue;
    auto t = Target::parse(m[2].str());
    if (!t) continue;
    if (m[1] == "PTX") {
      t->kind = CodeKind::Ptx;
      addUnique(img.ptx, *t);
    } else {
      addUnique(img.sass, *t);
    }
  }
  return img;
}

std::vector<BinaryImage> readShippedBinaries(const std::vector<std::string> &roots, std::string &error) {
  std::vector<std::string> files;
  for (const auto &root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec))
      // Pools of prebuilt cubins named for their target (TRT-LLM-gen's
      // thousands of `..._sm100f.cubin`) are read by name (CubinPools.h).
      if (!ec && it->is_regular_file(ec) && !it->is_symlink(ec) && isBinary(it->path()) &&
          !(it->path().extension() == ".cubin" && cubinTarget(it->path().filename().string())))
        files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) return {};
  auto tool = cuobjdump();
  if (!tool) {
    error = "cuobjdump is not installed: the shipped binaries of " + std::to_string(files.size()) +
            " file(s) were not read (scripts/install-deps.sh installs it)";
    return {};
  }
  std::vector<BinaryImage> out(files.size());
  llvm::parallelFor(0, files.size(), [&](size_t i) {
    int rc = 0;
    std::string listing = run(*tool, files[i], rc);
    out[i] = parseCuobjdumpListing(files[i], listing);
    if (rc != 0 && listing.find("does not contain device code") == std::string::npos)
      out[i].error = "cuobjdump failed on " + files[i] + ": " + listing.substr(0, 200);
  });
  return out;
}

} // namespace archscope::binary
