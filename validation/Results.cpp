//===--- Results.cpp - the results file (JSON) and its merge --------------===//
// SPDX-License-Identifier: Apache-2.0
#include "validation/Results.h"

#include "model/Errors.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <map>
#include <sstream>

namespace archscope::validation {
namespace {

constexpr int kFormat = 1;

llvm::json::Object toJson(const ResultRecord &r) {
  llvm::json::Object o{{"kind", r.kind}, {"family", r.family}, {"target", r.target}, {"verdict", r.verdict}};
  auto put = [&](const char *k, const std::string &v) { if (!v.empty()) o[k] = v; };
  put("detail", r.detail);
  put("shape", r.shape);
  put("device", r.device);
  put("driver", r.driver);
  put("toolkit", r.toolkit);
  put("machine", r.machine);
  if (!std::isnan(r.maxRelErr)) o["max_rel_err"] = r.maxRelErr;
  if (!std::isnan(r.bound)) o["bound"] = r.bound;
  if (!std::isnan(r.ms)) o["ms"] = r.ms;
  return o;
}

ResultRecord fromJson(const llvm::json::Object &o, const std::string &where) {
  ResultRecord r;
  auto str = [&](const char *k) { return o.getString(k).value_or("").str(); };
  r.kind = str("kind");
  r.family = str("family");
  r.target = str("target");
  r.verdict = str("verdict");
  if (r.kind.empty() || r.target.empty() || r.verdict.empty())
    throw inputError(where + ": a result needs 'kind', 'target' and 'verdict'", "was it written by archscope?");
  r.detail = str("detail");
  r.shape = str("shape");
  r.device = str("device");
  r.driver = str("driver");
  r.toolkit = str("toolkit");
  r.machine = str("machine");
  r.maxRelErr = o.getNumber("max_rel_err").value_or(NAN);
  r.bound = o.getNumber("bound").value_or(NAN);
  r.ms = o.getNumber("ms").value_or(NAN);
  return r;
}

} // namespace

std::vector<ResultRecord> loadResults(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw inputError("cannot read results file '" + path + "'", "check the path");
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = llvm::json::parse(ss.str());
  if (!parsed) {
    std::string msg = llvm::toString(parsed.takeError());
    throw inputError(path + ": not JSON: " + msg, "results files are written by archscope validate --results");
  }
  const auto *root = parsed->getAsObject();
  if (!root || root->getInteger("archscope_results").value_or(0) != kFormat)
    throw inputError(path + ": not an archscope results file (format " + std::to_string(kFormat) + ")");
  std::vector<ResultRecord> out;
  if (const auto *list = root->getArray("results"))
    for (size_t i = 0; i < list->size(); ++i) {
      const auto *o = (*list)[i].getAsObject();
      if (!o) throw inputError(path + ": results[" + std::to_string(i) + "] is not an object");
      out.push_back(fromJson(*o, path + ": results[" + std::to_string(i) + "]"));
    }
  return out;
}

void writeResults(const std::string &path, const std::vector<ResultRecord> &records) {
  llvm::json::Array list;
  for (const auto &r : records) list.push_back(toJson(r));
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{{"archscope_results", kFormat},
                                                                    {"results", std::move(list)}}));
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << os.str() << "\n"))
    throw inputError("cannot write results file '" + path + "'", "check the folder exists and is writable");
}

std::vector<ResultRecord> mergeResults(const std::vector<std::vector<ResultRecord>> &files) {
  std::map<std::string, size_t> index;
  std::vector<ResultRecord> out;
  for (const auto &file : files)
    for (const auto &r : file) {
      std::string key = r.kind + '|' + r.family + '|' + r.target + '|' + r.shape + '|' + r.device;
      if (auto it = index.find(key); it != index.end()) out[it->second] = r;
      else { index[key] = out.size(); out.push_back(r); }
    }
  return out;
}

std::vector<ResultRecord> isaRecords(const IsaMatrix &m, const std::string &machine) {
  std::vector<ResultRecord> out;
  for (const auto &v : m.verdicts) {
    ResultRecord r;
    r.kind = "isa";
    r.family = v.family;
    r.target = v.target.name();
    r.verdict = isaStateName(v.state);
    r.detail = v.state == IsaVerdict::State::Missing ? v.missing : v.detail;
    r.toolkit = m.toolkit;
    r.machine = machine;
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace archscope::validation
