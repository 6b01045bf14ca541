//===--- ConditionCodec.cpp - conditions to and from cache records ------===//
// SPDX-License-Identifier: Apache-2.0
//
// One record per node, fields separated by tabs, strings escaped:
//   op \t kid ids (comma) \t atom kind \t cmp op \t lhs \t rhs \t names \t opaque kind \t text
// Shared sub-formulas keep one record, so the DAG stays a DAG.
//===----------------------------------------------------------------------===//
#include "model/Condition.h"
#include "model/ConditionNode.h"
#include "model/TextRecords.h"

#include <sstream>

namespace archscope {


namespace {

using records::escape;
using records::split;
using records::unescape;

std::string linears(const std::vector<Linear> &ls) {
  std::string s;
  for (const auto &l : ls) {
    if (!s.empty()) s += ';';
    for (long c : l.coef) s += std::to_string(c) + ",";
    s += std::to_string(l.constant);
  }
  return s;
}

bool parseLinears(const std::string &s, std::vector<Linear> &out) {
  if (s.empty()) return true;
  for (const auto &item : split(s, ';')) {
    auto parts = split(item, ',');
    if (parts.size() != kSymVars + 1) return false;
    Linear l;
    for (int i = 0; i < kSymVars; ++i) l.coef[i] = std::stol(parts[i]);
    l.constant = std::stol(parts[kSymVars]);
    out.push_back(l);
  }
  return true;
}

} // namespace

size_t Condition::encode(std::vector<std::string> &records, std::map<const void *, size_t> &ids) const {
  if (auto it = ids.find(node_.get()); it != ids.end()) return it->second;
  std::string kids;
  for (const auto &k : node_->kids)
    kids.append(kids.empty() ? "" : ",").append(std::to_string(k.encode(records, ids)));
  const Atom &a = node_->atom;
  std::string names;
  for (const auto &n : a.names) names += (names.empty() ? "" : "\x1f") + n;
  std::ostringstream r;
  r << int(node_->op) << '\t' << kids << '\t' << int(a.kind) << '\t' << int(a.op) << '\t' << linears(a.lhs)
    << '\t' << linears(a.rhs) << '\t' << escape(names) << '\t' << int(a.opaqueKind) << '\t'
    << escape(node_->op == Node::Op::Unknown ? node_->why : a.text);
  records.push_back(r.str());
  return ids[node_.get()] = records.size() - 1;
}

std::optional<Condition> Condition::decode(const std::vector<std::string> &records, size_t root,
                                           std::map<size_t, Condition> &built) {
  if (auto it = built.find(root); it != built.end()) return it->second;
  if (root >= records.size()) return std::nullopt;
  auto f = split(records[root], '\t');
  if (f.size() != 9) return std::nullopt;
  try {
    Node n{Node::Op(std::stoi(f[0])), {}, {}, {}};
    if (!f[1].empty())
      for (const auto &k : split(f[1], ',')) {
        size_t id = std::stoul(k);
        if (id >= root) return std::nullopt; // kids are written before parents
        auto kid = decode(records, id, built);
        if (!kid) return std::nullopt;
        n.kids.push_back(*kid);
      }
    n.atom.kind = Atom::Kind(std::stoi(f[2]));
    n.atom.op = CmpOp(std::stoi(f[3]));
    if (!parseLinears(f[4], n.atom.lhs) || !parseLinears(f[5], n.atom.rhs)) return std::nullopt;
    if (!f[6].empty())
      for (const auto &name : split(unescape(f[6]), '\x1f')) n.atom.names.insert(name);
    n.atom.opaqueKind = OpaqueKind(std::stoi(f[7]));
    (n.op == Node::Op::Unknown ? n.why : n.atom.text) = unescape(f[8]);
    Condition c(std::make_shared<const Node>(std::move(n)));
    built.emplace(root, c);
    return c;
  } catch (const std::exception &) {
    return std::nullopt;
  }
}

} // namespace archscope
