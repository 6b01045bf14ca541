//===--- Baseline.cpp - accepted findings, for gradual adoption ----------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/Baseline.h"

#include "model/Errors.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <sstream>

namespace archscope::lint {
namespace {

constexpr const char *kFormatKey = "archscope_baseline";

ArchscopeError notABaseline(const std::string &path, const std::string &why) {
  return inputError("'" + path + "' is not an archscope baseline: " + why,
                    "write one with archscope lint --write-baseline FILE");
}

} // namespace

std::set<std::string> readBaseline(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw inputError("cannot read baseline '" + path + "'", "create it with archscope lint --write-baseline FILE");
  std::stringstream text;
  text << in.rdbuf();
  auto doc = llvm::json::parse(text.str());
  if (!doc) throw notABaseline(path, llvm::toString(doc.takeError()));
  const auto *root = doc->getAsObject();
  if (!root || root->getInteger(kFormatKey) != 1) throw notABaseline(path, std::string("no \"") + kFormatKey + "\": 1");
  const auto *entries = root->getArray("findings");
  if (!entries) throw notABaseline(path, "no \"findings\" list");
  std::set<std::string> out;
  for (const auto &e : *entries) {
    const auto *obj = e.getAsObject();
    auto fp = obj ? obj->getString("fingerprint") : std::nullopt;
    if (!fp) throw notABaseline(path, "an entry without a \"fingerprint\"");
    out.insert(fp->str());
  }
  return out;
}

void writeBaseline(const std::string &path, const std::vector<Finding> &findings,
                   const std::vector<std::string> &fingerprints, const std::vector<std::string> &paths) {
  llvm::json::Array entries;
  for (size_t i = 0; i < findings.size(); ++i)
    entries.push_back(llvm::json::Object{{"fingerprint", fingerprints[i]},
                                         {"rule", findings[i].rule},
                                         {"path", paths[i]},
                                         {"message", findings[i].message}});
  llvm::json::Object doc{{kFormatKey, 1}, {"findings", std::move(entries)}};
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(doc))) << "\n";
  std::ofstream out(path, std::ios::binary);
  if (!out || !(out << os.str()))
    throw inputError("cannot write baseline '" + path + "'", "check the folder exists and is writable");
}

} // namespace archscope::lint
