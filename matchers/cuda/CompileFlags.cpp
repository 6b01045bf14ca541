//===--- CompileFlags.cpp - compile database and include inference ------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/cuda/CompileFlags.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/StringSaver.h>

#include <filesystem>

namespace fs = std::filesystem;

namespace archscope::cuda {
namespace {

/// Keeps the preprocessor flags of one compile command, paths made absolute.
std::vector<std::string> keptFlags(const std::vector<std::string> &args, const fs::path &dir) {
  std::vector<std::string> out;
  auto absolute = [&](const std::string &p) { return fs::path(p).is_absolute() ? p : (dir / p).string(); };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string &a = args[i];
    for (const char *flag : {"-I", "-isystem", "-D", "-U", "-include"}) {
      std::string f = flag;
      bool path = f == "-I" || f == "-isystem" || f == "-include";
      if (a == f && i + 1 < args.size()) {
        out.push_back(f);
        out.push_back(path ? absolute(args[++i]) : args[++i]);
        break;
      }
      if (a.size() > f.size() && a.rfind(f, 0) == 0 && f.size() == 2) { // -Ifoo, -DX=1
        out.push_back(f + (path ? absolute(a.substr(2)) : a.substr(2)));
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> commandArgs(const llvm::json::Object &entry) {
  std::vector<std::string> out;
  if (const auto *arr = entry.getArray("arguments")) {
    for (const auto &v : *arr)
      if (auto s = v.getAsString()) out.push_back(s->str());
    return out;
  }
  if (auto cmd = entry.getString("command")) {
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char *, 64> argv;
    llvm::cl::TokenizeGNUCommandLine(*cmd, saver, argv);
    for (const char *a : argv) out.push_back(a);
  }
  return out;
}

} // namespace

const CompileFlags::Database *CompileFlags::databaseFor(const std::string &dir) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = dbPathByDir_.find(dir);
  std::string dbPath;
  if (found != dbPathByDir_.end()) {
    dbPath = found->second;
  } else {
    std::error_code ec;
    for (fs::path d = dir; !d.empty(); d = d.parent_path()) {
      for (const char *rel : {"compile_commands.json", "build/compile_commands.json"})
        if (fs::exists(d / rel, ec)) { dbPath = (d / rel).string(); break; }
      if (!dbPath.empty() || d == d.parent_path() || fs::exists(d / ".git", ec)) break;
    }
    dbPathByDir_[dir] = dbPath;
  }
  if (dbPath.empty()) return nullptr;
  auto [it, inserted] = databases_.try_emplace(dbPath);
  if (!inserted) return &it->second;
  auto buffer = llvm::MemoryBuffer::getFile(dbPath);
  if (!buffer) {
    warnings_.push_back(dbPath + ": cannot read: " + buffer.getError().message() + "; flags inferred");
    return &it->second;
  }
  auto json = llvm::json::parse((*buffer)->getBuffer());
  if (!json) { // malformed: inferred flags
    warnings_.push_back(dbPath + ": not valid JSON (" + llvm::toString(json.takeError()) + "); flags inferred");
    return &it->second;
  }
  const auto *entries = json->getAsArray();
  if (!entries) warnings_.push_back(dbPath + ": not a JSON array of compile commands; flags inferred");
  size_t missing = 0;
  std::string firstMissing;
  if (entries)
    for (const auto &e : *entries) {
      const auto *o = e.getAsObject();
      if (!o) continue;
      fs::path directory = o->getString("directory").value_or("").str();
      fs::path file = o->getString("file").value_or("").str();
      if (file.empty()) continue;
      if (!file.is_absolute()) file = directory / file;
      std::error_code ec;
      if (!fs::exists(file, ec) && missing++ == 0) firstMissing = file.string();
      auto canonical = fs::weakly_canonical(file, ec);
      it->second.byFile[canonical.string()] = keptFlags(commandArgs(*o), directory);
    }
  if (missing)
    warnings_.push_back(dbPath + ": " + std::to_string(missing) + " entr" + (missing == 1 ? "y names a file" : "ies name files") +
                        " that do not exist (first: " + firstMissing + "); is it from another checkout?");
  return &it->second;
}

std::vector<std::string> CompileFlags::argsFor(const std::string &file) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  if (const Database *db = databaseFor(abs.parent_path().string()))
    if (auto it = db->byFile.find(abs.string()); it != db->byFile.end()) return it->second;
  std::vector<std::string> out;
  for (fs::path d = abs.parent_path(); !d.empty(); d = d.parent_path()) {
    if (fs::is_directory(d / "include", ec)) out.push_back("-I" + (d / "include").string());
    if (d == d.parent_path() || fs::exists(d / ".git", ec) || fs::exists(d / "pyproject.toml", ec)) break;
  }
  return out;
}

std::vector<std::string> CompileFlags::warnings() {
  std::lock_guard<std::mutex> lock(mutex_);
  return warnings_;
}

std::string CompileFlags::sourceOf(const std::string &file) {
  std::error_code ec;
  fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  const Database *db = databaseFor(abs.parent_path().string());
  if (db && db->byFile.count(abs.string())) {
    std::lock_guard<std::mutex> lock(mutex_);
    return dbPathByDir_[abs.parent_path().string()];
  }
  return "inferred";
}

} // namespace archscope::cuda
