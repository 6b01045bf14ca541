//===--- Document.cpp - the matrix as JSON and YAML ---------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/output/Emitters.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace archscope {

namespace json = llvm::json;

namespace {

json::Value evidenceJson(const Evidence &e) {
  json::Object o{{"layer", e.layer}};
  if (!e.path.empty()) {
    o["path"] = e.path;
    o["line"] = e.line;
    o["col"] = e.col;
    o["snippet"] = e.snippet;
  }
  if (!e.note.empty()) o["note"] = e.note;
  return o;
}

json::Value cellJson(const Cell &c) {
  json::Array evidence, conditions;
  for (const auto &e : c.evidence) evidence.push_back(evidenceJson(e));
  for (const auto &k : c.conditions) conditions.push_back(json::Object{{"when", k.when}, {"verdict", verdictName(k.verdict)}});
  json::Object o{{"backend", c.backend}, {"quant", c.quant}, {"target", c.target.name()},
                 {"verdict", verdictName(c.verdict)}, {"reason", c.reason}, {"evidence", std::move(evidence)}};
  if (!c.picked.empty()) o["picked"] = c.picked;
  if (!c.lacking.empty()) o["lacking"] = c.lacking;
  if (!conditions.empty()) o["conditions"] = std::move(conditions);
  return o;
}

json::Value predicateJson(const PredicateFact &p, const Matrix &m) {
  json::Array yes, unknown;
  EvalEnv env;
  env.cudaMajor = std::stoi(m.toolkit.substr(0, m.toolkit.find('.')));
  env.cudaMinor = std::stoi(m.toolkit.substr(m.toolkit.find('.') + 1));
  for (auto t : m.targets) {
    env.gpu = t;
    Tri v = p.cond.eval(env);
    if (v == Tri::True) yes.push_back(t.name());
    if (v == Tri::Unknown) unknown.push_back(t.name());
  }
  json::Object o{{"name", p.name}, {"path", p.where.path}, {"line", p.where.line},
                 {"true_on", std::move(yes)}, {"condition", p.cond.str()}};
  if (!unknown.empty()) {
    o["unknown_on"] = std::move(unknown);
    json::Array atoms;
    for (const auto &a : p.cond.opaqueAtoms()) atoms.push_back(a.text);
    o["depends_on"] = std::move(atoms);
  }
  return o;
}

void toYaml(const json::Value &v, YAML::Emitter &out) {
  if (auto *o = v.getAsObject()) {
    std::vector<std::string> keys; // sorted, as llvm::json prints them
    for (const auto &kv : *o) keys.push_back(std::string(kv.first.str()));
    std::sort(keys.begin(), keys.end());
    out << YAML::BeginMap;
    for (const auto &k : keys) {
      out << YAML::Key << k << YAML::Value;
      toYaml(*o->get(k), out);
    }
    out << YAML::EndMap;
  } else if (auto *a = v.getAsArray()) {
    out << YAML::BeginSeq;
    for (const auto &item : *a) toYaml(item, out);
    out << YAML::EndSeq;
  } else if (auto s = v.getAsString()) {
    out << std::string(*s);
  } else if (auto i = v.getAsInteger()) {
    out << *i;
  } else if (auto b = v.getAsBoolean()) {
    out << *b;
  } else {
    out << YAML::Null;
  }
}

} // namespace

json::Value cellDocument(const Cell &c) { return cellJson(c); }

json::Value matrixDocument(const Matrix &m) {
  json::Array trees, targets, backends, cells, predicates, warnings, quants;
  for (const auto &t : m.trees)
    trees.push_back(json::Object{{"role", t.role}, {"name", t.name}, {"path", t.path}, {"version", t.version},
                                 {"revision", t.revision}, {"profile", t.profile}});
  for (auto t : m.targets) targets.push_back(t.name());
  for (const auto &b : m.backends) backends.push_back(b);
  for (const auto &q : m.quants) quants.push_back(q);
  for (const auto &c : m.cells) cells.push_back(cellJson(c));
  for (const auto &p : m.predicates) predicates.push_back(predicateJson(p, m));
  for (const auto &w : m.warnings) warnings.push_back(w);
  return json::Object{{"tool", "archscope"},      {"version", "0.1.0"},
                      {"toolkit", m.toolkit}, {"lower_layers", m.lowerLayers},      {"trees", std::move(trees)},
                      {"quants", std::move(quants)}, {"targets", std::move(targets)},
                      {"backends", std::move(backends)}, {"cells", std::move(cells)},
                      {"predicates", std::move(predicates)}, {"warnings", std::move(warnings)}};
}

void emitJson(const Matrix &m, std::ostream &out) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", matrixDocument(m));
  os.flush();
  out << s << "\n";
}

void emitYaml(const Matrix &m, std::ostream &out) {
  YAML::Emitter e;
  toYaml(matrixDocument(m), e);
  out << e.c_str() << "\n";
}

} // namespace archscope
