//===--- Guards.cpp - `archscope guards`: the compile-time guard layer ---===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Guards.h"

#include "matchers/cuda/ArchGuardPass.h"
#include "matchers/cuda/CompileFlags.h"
#include "matchers/cuda/SharedFiles.h"
#include "model/Errors.h"
#include "model/PhaseTimer.h"
#include "tool/Cache.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/Parallel.h>
#include <llvm/Support/raw_ostream.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <unistd.h>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope {
namespace {

/// The targets a guard pass compiles by default: the arch-specific and
/// family targets engines ship for Hopper and Blackwell.
const char *kDefaultTargets[] = {"sm_90a", "sm_100a", "sm_100f", "sm_103a", "sm_110a", "sm_120a", "sm_120f", "sm_121a"};

bool isCudaSource(const fs::path &p) {
  auto e = p.extension().string();
  return e == ".cu" || e == ".cuh" || e == ".hpp"; // .hpp: CUTLASS-style device headers
}

const char *mark(cuda::Branch b) {
  switch (b) {
  case cuda::Branch::Taken: return "yes";
  case cuda::Branch::NotTaken: return "no";
  case cuda::Branch::Skipped: return "-";
  }
  return "?";
}

const char *bodyName(cuda::KernelBody b) {
  switch (b) {
  case cuda::KernelBody::Code: return "code";
  case cuda::KernelBody::Empty: return "empty";
  case cuda::KernelBody::TrapOnly: return "trap";
  case cuda::KernelBody::Absent: return "absent";
  }
  return "?";
}

void emitText(const std::vector<cuda::GuardReport> &reports, const std::vector<Target> &targets, std::ostream &out) {
  for (const auto &r : reports) {
    out << r.path << "\n  " << std::left << std::setw(6) << "line" << std::setw(56) << "directive";
    for (const auto &t : targets) out << std::setw(9) << t.name();
    out << "\n";
    for (const auto &d : r.directives) {
      std::string text = "#" + d.kind + (d.condition.empty() ? "" : " " + d.condition);
      if (text.size() > 54) text = text.substr(0, 51) + "...";
      out << "  " << std::setw(6) << d.line << std::setw(56) << text;
      for (const auto &t : targets) {
        auto it = d.byTarget.find(t.name());
        out << std::setw(9) << (it == d.byTarget.end() ? "-" : mark(it->second));
      }
      out << "\n";
    }
    for (const auto &k : r.kernels) {
      std::string text = "__global__ " + k.name;
      out << "  " << std::setw(6) << k.line << std::setw(56) << text.substr(0, 54);
      for (const auto &t : targets) out << std::setw(9) << bodyName(k.byTarget.at(t.name()));
      out << "\n";
    }
    if (!r.missingIncludes.empty()) {
      out << "  headers not in the tree, skipped (macros they define stay undefined):";
      for (const auto &m : r.missingIncludes) out << " " << m;
      out << "\n";
    }
    for (const auto &e : r.errors) out << "  note: " << e << "\n";
  }
  out << "yes = branch compiled for that target; no = not compiled; - = inside a region not compiled\n"
         "kernels: code = a body; empty = compiled with an empty body; trap = only asm(\"trap;\"); absent = not compiled\n";
}

const char *branchName(cuda::Branch b) {
  return b == cuda::Branch::Taken ? "taken" : b == cuda::Branch::NotTaken ? "not-taken" : "skipped";
}

llvm::json::Value reportJson(const cuda::GuardReport &r) {
  llvm::json::Array directives, kernels, missing, errors;
  for (const auto &d : r.directives) {
    llvm::json::Object by;
    for (const auto &[t, b] : d.byTarget) by[t] = branchName(b);
    llvm::json::Object compiled, enclosing, defines;
    llvm::json::Array definitions, macros;
    for (const auto &n : d.definitions) definitions.push_back(n);
    for (const auto &m : d.macros) macros.push_back(m);
    for (const auto &[t, n] : d.compiled) compiled[t] = n;
    for (const auto &[t, n] : d.defines) defines[t] = n;
    for (const auto &[t, n] : d.enclosingBlock) enclosing[t] = n;
    directives.push_back(llvm::json::Object{{"line", d.line},
                                            {"kind", d.kind},
                                            {"condition", d.condition},
                                            {"targets", std::move(by)},
                                            {"group", d.group},
                                            {"end", d.end},
                                            {"code_lines", d.text.codeLines},
                                            {"fails", d.text.fails},
                                            {"compiled", std::move(compiled)},
                                            {"enclosing_block", std::move(enclosing)},
                                            {"definitions", std::move(definitions)},
                                            {"defines", std::move(defines)},
                                            {"macros", std::move(macros)}});
  }
  for (const auto &k : r.kernels) {
    llvm::json::Object by;
    for (const auto &[t, b] : k.byTarget) by[t] = bodyName(b);
    kernels.push_back(llvm::json::Object{{"name", k.name}, {"line", k.line}, {"targets", std::move(by)}});
  }
  for (const auto &m : r.missingIncludes) missing.push_back(m);
  for (const auto &e : r.errors) errors.push_back(e);
  return llvm::json::Object{{"path", r.path},           {"directives", std::move(directives)},
                            {"kernels", std::move(kernels)}, {"missing_includes", std::move(missing)},
                            {"errors", std::move(errors)}};
}

/// The inverse of reportJson, for the cache; nullopt when the text is damaged.
std::optional<cuda::GuardReport> reportFromJson(const std::string &text) {
  auto parsed = llvm::json::parse(text);
  if (!parsed) { llvm::consumeError(parsed.takeError()); return std::nullopt; }
  const auto *o = parsed->getAsObject();
  if (!o) return std::nullopt;
  cuda::GuardReport r;
  auto str = [](const llvm::json::Object &obj, const char *k) { return obj.getString(k).value_or("").str(); };
  r.path = str(*o, "path");
  auto branch = [](llvm::StringRef s) {
    return s == "taken" ? cuda::Branch::Taken : s == "not-taken" ? cuda::Branch::NotTaken : cuda::Branch::Skipped;
  };
  auto body = [](llvm::StringRef s) {
    return s == "code" ? cuda::KernelBody::Code : s == "empty" ? cuda::KernelBody::Empty
         : s == "trap" ? cuda::KernelBody::TrapOnly : cuda::KernelBody::Absent;
  };
  if (const auto *ds = o->getArray("directives"))
    for (const auto &dv : *ds) {
      const auto *d = dv.getAsObject();
      if (!d) return std::nullopt;
      cuda::GuardDirective g;
      g.line = int(d->getInteger("line").value_or(0));
      g.kind = str(*d, "kind");
      g.condition = str(*d, "condition");
      if (const auto *by = d->getObject("targets"))
        for (const auto &[t, v] : *by) g.byTarget[t.str()] = branch(v.getAsString().value_or(""));
      g.group = int(d->getInteger("group").value_or(0));
      g.end = int(d->getInteger("end").value_or(0));
      g.text = {int(d->getInteger("code_lines").value_or(0)), d->getBoolean("fails").value_or(false)};
      if (const auto *by = d->getObject("compiled"))
        for (const auto &[t, v] : *by) g.compiled[t.str()] = int(v.getAsInteger().value_or(0));
      if (const auto *names = d->getArray("definitions"))
        for (const auto &n : *names) g.definitions.push_back(n.getAsString().value_or("").str());
      if (const auto *by = d->getObject("enclosing_block"))
        for (const auto &[t, v] : *by) g.enclosingBlock[t.str()] = int(v.getAsInteger().value_or(0));
      if (const auto *by = d->getObject("defines"))
        for (const auto &[t, v] : *by) g.defines[t.str()] = int(v.getAsInteger().value_or(0));
      if (const auto *names = d->getArray("macros"))
        for (const auto &n : *names) g.macros.push_back(n.getAsString().value_or("").str());
      r.directives.push_back(std::move(g));
    }
  if (const auto *ks = o->getArray("kernels"))
    for (const auto &kv : *ks) {
      const auto *k = kv.getAsObject();
      if (!k) return std::nullopt;
      cuda::KernelSite site{str(*k, "name"), int(k->getInteger("line").value_or(0)), {}};
      if (const auto *by = k->getObject("targets"))
        for (const auto &[t, v] : *by) site.byTarget[t.str()] = body(v.getAsString().value_or(""));
      r.kernels.push_back(std::move(site));
    }
  for (const char *key : {"missing_includes", "errors"})
    if (const auto *a = o->getArray(key))
      for (const auto &v : *a) (key[0] == 'm' ? r.missingIncludes : r.errors).push_back(v.getAsString().value_or("").str());
  return r;
}

std::string toText(const llvm::json::Value &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", v);
  return os.str();
}

void emitJson(const std::vector<cuda::GuardReport> &reports, std::ostream &out) {
  llvm::json::Array files;
  for (const auto &r : reports) files.push_back(reportJson(r));
  out << toText(llvm::json::Object{{"files", std::move(files)}}) << "\n";
}

/// One file's report, from the cache when its text, the targets and this
/// archscope build are unchanged.
cuda::GuardReport reportFor(const std::string &file, const std::vector<Target> &targets, bool useCache,
                            const std::string &dir, cuda::CompileFlags &flags, const cuda::GuardPassOptions &extra) {
  cuda::GuardPassOptions options;
  options.extraArgs = flags.argsFor(file);
  options.extraArgs.insert(options.extraArgs.end(), extra.extraArgs.begin(), extra.extraArgs.end());
  options.archMacros = extra.archMacros;
  std::string key;
  if (useCache && !dir.empty()) {
    auto text = readCacheFile(file);
    std::string all = "archscope-guards-v4\0" + binaryIdentity() + '\0' + file + '\0' + text.value_or("\x01");
    for (const auto &t : targets) all += t.name() + ",";
    for (const auto &a : options.extraArgs) all += a + '\0';
    for (const auto &m : options.archMacros) all += "arch-macro " + m + '\0';
    key = dir + "/guards/" + hashKey(all) + ".json";
    if (auto cached = readCacheFile(key))
      if (auto r = reportFromJson(*cached)) return *r;
  }
  auto r = cuda::runArchGuardPass(file, targets, options);
  if (!key.empty()) writeCacheFile(key, toText(reportJson(r)));
  return r;
}

} // namespace

std::vector<std::string> cudaSourcesUnder(const std::vector<std::string> &paths) {
  std::vector<std::string> files;
  for (const auto &p : paths) {
    std::error_code ec;
    auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) throw inputError("no such file or folder: '" + p + "'", "check the path");
    if (fs::is_regular_file(st)) { files.push_back(p); continue; }
    for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (ec) break;
      if (it->is_regular_file(ec) && isCudaSource(it->path())) files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> filesTheRulesRead(const std::vector<std::string> &files) {
  std::vector<char> keep(files.size(), 0);
  llvm::parallelFor(0, files.size(), [&](size_t i) {
    auto text = readCacheFile(files[i]).value_or("");
    for (const char *needle : {"__global__", "__CUDA_ARCH", "MaxDynamicSharedMemorySize"})
      if (text.find(needle) != std::string::npos) { keep[i] = 1; break; }
  });
  std::vector<std::string> out;
  for (size_t i = 0; i < files.size(); ++i)
    if (keep[i]) out.push_back(files[i]);
  return out;
}

std::vector<Target> guardTargets(const std::vector<std::string> &names) {
  std::vector<Target> out;
  for (const auto &n : names.empty() ? std::vector<std::string>(std::begin(kDefaultTargets), std::end(kDefaultTargets))
                                     : names) {
    auto t = Target::parse(n);
    if (!t || t->kind != CodeKind::Sass) throw usageError("bad build target '" + n + "'", "write targets as sm_100a,sm_120f,sm_90");
    out.push_back(*t);
  }
  return out;
}

std::vector<cuda::GuardReport> guardReports(const std::vector<std::string> &files, const std::vector<Target> &targets,
                                            bool useCache, bool progress, std::vector<std::string> *warnings,
                                            const cuda::GuardPassOptions &extra) {
  std::string dir = cacheDir();
  cuda::CompileFlags flags;
  std::vector<cuda::GuardReport> reports(files.size());
  // Progress on a terminal only: "guards: 120/262 files x 8 targets". Calls
  // that run beside each other (a linking's flag sets) count on one line.
  static std::mutex printing;
  static size_t done = 0, total = 0;
  if (progress) {
    std::lock_guard<std::mutex> lock(printing);
    if (done == total) done = total = 0; // nothing in flight: a new line
    total += files.size();
  }
  PhaseTimer timer;
  std::atomic<size_t> targetFree = 0;
  llvm::parallelFor(0, files.size(), [&](size_t i) {
    reports[i] = reportFor(files[i], targets, useCache, dir, flags, extra);
    targetFree += reports[i].targetFree;
    if (!progress) return;
    std::lock_guard<std::mutex> lock(printing);
    ++done;
    std::cerr << "\rarchscope: CUDA guards " << done << "/" << total << " files x " << targets.size()
              << " targets" << (done == total ? "\n" : "") << std::flush;
  });
  timer.lap("guards", std::to_string(files.size()) + " files x " + std::to_string(targets.size()) + " targets, " +
                         std::to_string(targetFree) + " read no target macro (one pass each)");
  if (warnings)
    for (auto &w : flags.warnings()) warnings->push_back(w);
  return reports;
}

int runGuards(const Options &opts, std::ostream &out) {
  auto targets = guardTargets(opts.targets);
  auto files = cudaSourcesUnder(opts.paths);
  if (files.empty()) throw inputError("no .cu, .cuh or .hpp files under the given paths");
  if (opts.preprocessOnly) { // the speed baseline: same passes and flags, nothing recorded
    cuda::CompileFlags flags;
    llvm::parallelFor(0, files.size(), [&](size_t i) {
      cuda::GuardPassOptions baseline;
      baseline.extract = false;
      baseline.extraArgs = flags.argsFor(files[i]);
      cuda::runArchGuardPass(files[i], targets, baseline);
    });
    out << files.size() << " files x " << targets.size() << " targets preprocessed (nothing recorded)\n";
    return ExitClean;
  }
  cuda::SharedFileCache headersReadOnce;
  auto reports = guardReports(files, targets, !opts.noCache, !opts.quiet && isatty(STDERR_FILENO));
  if (opts.format == "json") emitJson(reports, out);
  else emitText(reports, targets, out);
  return ExitClean;
}

} // namespace archscope
