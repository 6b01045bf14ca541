//===--- RuntimeChecksCache.cpp - runtime-check reports in the cache -------===//
// SPDX-License-Identifier: Apache-2.0
//
// Text, one record a line, tab-separated fields:
//   archscope-runtime-checks 2
//   C <condition record>                 the condition table (ConditionCodec.cpp)
//   K kind  function  evidence  cond  text  guardedBy
//   R ns  op  function  evidence
//   S bytes  function  evidence  checksOptinLimit
//   M missing include
//   E error
//===----------------------------------------------------------------------===//
#include "tool/RuntimeChecksCache.h"

#include "matchers/cuda/CompileFlags.h"
#include "model/TextRecords.h"
#include "tool/Cache.h"

#include <llvm/Support/Parallel.h>

#include <map>
#include <sstream>

namespace archscope {
namespace {

constexpr const char *kHeader = "archscope-runtime-checks 2";
using records::clean;
using records::decodeEvidence;
using records::encodeEvidence;
using records::split;

std::string encodeReport(const cuda::RuntimeCheckReport &r) {
  std::vector<std::string> conditions;
  std::map<const void *, size_t> ids;
  std::ostringstream body;
  for (const auto &c : r.checks)
    body << "K\t" << int(c.kind) << '\t' << clean(c.function) << '\t' << encodeEvidence(c.where) << '\t'
         << c.cond.encode(conditions, ids) << '\t' << clean(c.text) << '\t' << clean(c.guardedBy) << '\n';
  for (const auto &g : r.registrations)
    body << "R\t" << clean(g.ns) << '\t' << clean(g.op) << '\t' << clean(g.function) << '\t' << encodeEvidence(g.where)
         << '\n';
  for (const auto &s : r.smemRequests)
    body << "S\t" << s.bytes << '\t' << clean(s.function) << '\t' << encodeEvidence(s.where) << '\t'
         << int(s.checksOptinLimit) << '\n';
  for (const auto &m : r.missingIncludes) body << "M\t" << clean(m) << '\n';
  for (const auto &e : r.errors) body << "E\t" << clean(e) << '\n';
  std::string out = std::string(kHeader) + '\n';
  for (const auto &c : conditions) out += "C\t" + c + '\n';
  return out + body.str();
}

std::optional<cuda::RuntimeCheckReport> decodeReport(const std::string &text, const std::string &path) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return std::nullopt;
  cuda::RuntimeCheckReport r;
  r.path = path;
  std::vector<std::string> conditions;
  std::map<size_t, Condition> built;
  try {
    bool ok = records::forEachRecord(in, [&](char tag, const std::string &rest, const std::vector<std::string> &f) {
      switch (tag) {
      case 'C': conditions.push_back(rest); return true;
      case 'K': {
        auto ev = decodeEvidence(f.at(2));
        auto cond = Condition::decode(conditions, std::stoul(f.at(3)), built);
        if (!ev || !cond) return false;
        r.checks.push_back({cuda::RuntimeCheck::Kind(std::stoi(f.at(0))), f.at(1), *ev, *cond, f.at(4), f.at(5)});
        return true;
      }
      case 'R': {
        auto ev = decodeEvidence(f.at(3));
        if (!ev) return false;
        r.registrations.push_back({f.at(0), f.at(1), f.at(2), *ev});
        return true;
      }
      case 'S': {
        auto ev = decodeEvidence(f.at(2));
        if (!ev) return false;
        r.smemRequests.push_back({std::stol(f.at(0)), f.at(1), *ev, f.at(3) == "1"});
        return true;
      }
      case 'M': r.missingIncludes.push_back(rest); return true;
      case 'E': r.errors.push_back(rest); return true;
      default: return false;
      }
    });
    if (!ok) return std::nullopt;
  } catch (const std::exception &) {
    return std::nullopt;
  }
  return r;
}

} // namespace

std::vector<cuda::RuntimeCheckReport> runtimeCheckReports(const std::vector<std::string> &files, bool withFlags,
                                                          bool useCache) {
  std::string dir = useCache ? cacheDir() : "";
  cuda::CompileFlags flags;
  std::vector<cuda::RuntimeCheckReport> out(files.size());
  llvm::parallelFor(0, files.size(), [&](size_t i) {
    const std::string &file = files[i];
    std::vector<std::string> args = withFlags ? flags.argsFor(file) : std::vector<std::string>{};
    std::string key;
    if (!dir.empty()) {
      auto text = readCacheFile(file);
      std::string all = std::string(kHeader) + '\0' + binaryIdentity() + '\0' + file + '\0' + text.value_or("\x01");
      for (const auto &a : args) all += a + '\0';
      key = dir + "/checks/" + hashKey(all) + ".txt";
      if (auto cached = readCacheFile(key))
        if (auto r = decodeReport(*cached, file)) {
          out[i] = std::move(*r);
          return;
        }
    }
    out[i] = cuda::extractRuntimeChecks(file, args);
    if (!key.empty()) writeCacheFile(key, encodeReport(out[i]));
  });
  return out;
}

} // namespace archscope
