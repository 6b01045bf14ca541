//===--- FactsCache.cpp - the facts file format ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
//
// Text, one record a line, tab-separated fields:
//   archscope-facts 1
//   C <condition record>            the condition table (ConditionCodec.cpp)
//   P name  cond  evidence          a predicate
//   B name  enumClass  evidence     a backend
//   G kind  cond  reach  backend  order  tree  chain  context  entry  jitSources  jitFlags  familySources  cubinArtifacts  jitFlagsUnsure
//   D backend                       a backend with a dispatch site
//   T flag  condition  evidence     a flag passed only on a new enough toolkit
//   A function  subject  scale  listed  evidence   a per-GPU table that raises for the rest
//   F backend  platform  module  evidence   a backend made for another platform
//   W warning
//   R backend                       a matrix row
// Evidence fields are joined by \x1f, lists by \x1e.
//===----------------------------------------------------------------------===//
#include "model/FactsCache.h"

#include "model/TextRecords.h"

#include <map>
#include <sstream>

namespace archscope {
namespace {

constexpr const char *kHeader = "archscope-facts 7";

std::string joinList(const std::vector<std::string> &items) {
  std::string out;
  for (const auto &i : items) out.append(out.empty() ? "" : "\x1e").append(records::clean(i));
  return out;
}

std::vector<std::string> splitList(const std::string &field) {
  return field.empty() ? std::vector<std::string>{} : records::split(field, '\x1e');
}

using records::clean;
using records::decodeEvidence;
using records::encodeEvidence;
using records::split;

} // namespace

std::string encodeFacts(const CachedFacts &c) {
  std::vector<std::string> records;
  std::map<const void *, size_t> ids;
  std::ostringstream body;
  for (const auto &p : c.facts.predicates)
    body << "P\t" << clean(p.name) << '\t' << p.cond.encode(records, ids) << '\t' << encodeEvidence(p.where) << '\t'
         << encodeEvidence(p.body) << '\n';
  for (const auto &b : c.facts.backends)
    body << "B\t" << clean(b.name) << '\t' << clean(b.enumClass) << '\t' << encodeEvidence(b.where) << '\n';
  for (const auto &g : c.facts.guards) {
    std::string chain, context;
    for (const auto &e : g.chain) chain.append(chain.empty() ? "" : "\x1e").append(encodeEvidence(e));
    for (const auto &[cond, e] : g.context)
      context.append(context.empty() ? "" : "\x1e")
          .append(std::to_string(cond.encode(records, ids)))
          .append("\x1f")
          .append(encodeEvidence(e));
    body << "G\t" << int(g.kind) << '\t' << g.cond.encode(records, ids) << '\t' << g.reach.encode(records, ids)
         << '\t' << clean(g.backend) << '\t' << g.order << '\t' << clean(g.tree) << '\t' << chain << '\t'
         << context << '\t' << clean(g.entry) << '\t' << joinList(g.jitSources) << '\t' << joinList(g.jitFlags)
         << '\t' << joinList(g.familySources) << '\t' << joinList(g.cubinArtifacts) << '\t' << joinList(g.jitFlagsUnsure)
         << '\n';
  }
  for (const auto &d : c.facts.dispatched) body << "D\t" << clean(d) << '\n';
  for (const auto &[backend, files] : c.facts.enteredFiles)
    for (const auto &f : files) body << "E\t" << clean(backend) << '\t' << clean(f) << '\n';
  for (const auto &t : c.facts.toolkitGatedFlags)
    body << "T\t" << clean(t.flag) << '\t' << clean(t.condition) << '\t' << encodeEvidence(t.where) << '\n';
  for (const auto &a : c.facts.closedArchTables) {
    std::vector<std::string> listed;
    for (int v : a.listed) listed.push_back(std::to_string(v));
    body << "A\t" << clean(a.function) << '\t' << clean(a.subject) << '\t' << (a.smScale ? "sm" : "major") << '\t'
         << joinList(listed) << '\t' << encodeEvidence(a.where) << '\n';
  }
  for (const auto &p : c.facts.foreignPlatforms)
    body << "F\t" << clean(p.backend) << '\t' << clean(p.platform) << '\t' << clean(p.module) << '\t'
         << encodeEvidence(p.where) << '\n';
  for (const auto &w : c.facts.warnings) body << "W\t" << clean(w) << '\n';
  for (const auto &r : c.backends) body << "R\t" << clean(r) << '\n';
  std::string out = std::string(kHeader) + '\n';
  for (const auto &r : records) out += "C\t" + r + '\n';
  return out + body.str();
}

std::optional<CachedFacts> decodeFacts(const std::string &text) {
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return std::nullopt;
  CachedFacts c;
  std::vector<std::string> records;
  std::map<size_t, Condition> built;
  auto cond = [&](const std::string &id) { return Condition::decode(records, std::stoul(id), built); };
  // One record: false when it is malformed.
  auto decode = [&](char tag, const std::string &rest, const std::vector<std::string> &f) {
    switch (tag) {
    case 'C': records.push_back(rest); return true;
    case 'P': {
      auto c1 = cond(f.at(1));
      auto ev = decodeEvidence(f.at(2));
      if (!c1 || !ev) return false;
      c.facts.predicates.push_back({f[0], *c1, *ev, {}});
      if (f.size() > 3)
        if (auto body = decodeEvidence(f.at(3))) c.facts.predicates.back().body = *body;
      return true;
    }
    case 'B': {
      auto ev = decodeEvidence(f.at(2));
      if (!ev) return false;
      c.facts.backends.push_back({f[0], f[1], *ev});
      return true;
    }
    case 'G': {
      GuardFact g;
      g.kind = GuardFact::Kind(std::stoi(f.at(0)));
      auto c1 = cond(f.at(1)), c2 = cond(f.at(2));
      if (!c1 || !c2) return false;
      g.cond = *c1;
      g.reach = *c2;
      g.backend = f.at(3);
      g.order = std::stoi(f.at(4));
      g.tree = f.at(5);
      for (const auto &e : splitList(f.at(6))) {
        auto ev = decodeEvidence(e);
        if (!ev) return false;
        g.chain.push_back(*ev);
      }
      for (const auto &item : splitList(f.at(7))) {
        auto sep = item.find('\x1f');
        auto cc = cond(item.substr(0, sep));
        auto ev = decodeEvidence(item.substr(sep + 1));
        if (!cc || !ev) return false;
        g.context.push_back({*cc, *ev});
      }
      g.entry = f.at(8);
      g.jitSources = splitList(f.at(9));
      g.jitFlags = splitList(f.at(10));
      if (f.size() > 11) g.familySources = splitList(f.at(11));
      if (f.size() > 12) g.cubinArtifacts = splitList(f.at(12));
      if (f.size() > 13) g.jitFlagsUnsure = splitList(f.at(13));
      c.facts.guards.push_back(std::move(g));
      return true;
    }
    case 'D': c.facts.dispatched.insert(rest); return true;
    case 'E': c.facts.enteredFiles[f.at(0)].insert(f.at(1)); return true;
    case 'T': {
      auto ev = decodeEvidence(f.at(2));
      if (!ev) return false;
      c.facts.toolkitGatedFlags.push_back({f.at(0), f.at(1), *ev});
      return true;
    }
    case 'A': {
      auto ev = decodeEvidence(f.at(4));
      if (!ev) return false;
      ClosedArchTable a{f.at(0), f.at(1), f.at(2) == "sm", {}, *ev};
      for (const auto &v : splitList(f.at(3))) a.listed.push_back(std::stoi(v));
      c.facts.closedArchTables.push_back(std::move(a));
      return true;
    }
    case 'F': {
      auto ev = decodeEvidence(f.at(3));
      if (!ev) return false;
      c.facts.foreignPlatforms.push_back({f.at(0), f.at(1), f.at(2), *ev});
      return true;
    }
    case 'W': c.facts.warnings.push_back(rest); return true;
    case 'R': c.backends.push_back(rest); return true;
    default: return false;
    }
  };
  try {
    if (!records::forEachRecord(in, decode)) return std::nullopt;
  } catch (const std::exception &) {
    return std::nullopt;
  }
  return c;
}

} // namespace archscope
