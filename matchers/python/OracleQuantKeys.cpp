//===--- OracleQuantKeys.cpp - the format an oracle is asked about ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/OracleQuantKeys.h"

#include "matchers/python/FactSink.h"
#include "matchers/python/InferredScope.h"
#include "matchers/source/TextSearch.h"

#include <algorithm>
#include <regex>

namespace archscope::py {

std::string discoverSchemeCheck(ModuleIndex &index) {
  static const std::regex schemeCheckDef(R"(def (_?supports?_\w*quant\w*)\()");
  const SourceTree &engine = index.trees()[0];
  std::map<std::string, int> defined;
  for (const auto &f : engine.files()) {
    const std::string *text = engine.read(f);
    if (!text || outsideServingCode(f.relPath)) continue;
    for (size_t p = findText(*text, "_quant"); p != std::string::npos; p = findText(*text, "_quant", p + 1)) {
      size_t def = text->rfind("def ", p); // std::regex is slow: only around the literal
      size_t paren = text->find('(', p);
      if (def == std::string::npos || p - def > 16 || paren == std::string::npos) continue;
      std::smatch m;
      std::string head = text->substr(def, paren - def + 1);
      if (std::regex_match(head, m, schemeCheckDef)) ++defined[m[1]];
    }
  }
  if (defined.empty()) return "";
  return std::max_element(defined.begin(), defined.end(), [](const auto &a, const auto &b) {
           return a.second < b.second;
         })->first;
}

namespace {

bool definiteKey(const Value &v) {
  return v.is(Value::Kind::None) || (v.is(Value::Kind::Instance) && !v.name.empty());
}

/// 2 for a definite key, 1 for a choice between such keys (`None if use_a16
/// else kNvfp4Dynamic`), else 0.
int keyScore(const Value &v) {
  if (definiteKey(v)) return 2;
  if (v.is(Value::Kind::Choice) && v.items.size() == 2 && keyScore(v.items[0]) && keyScore(v.items[1])) return 1;
  return 0;
}

/// The keyword arguments of the call at `node` that are keys, with the sum
/// of their scores.
std::pair<std::map<std::string, Value>, int> keywordKeys(Interpreter &in, Module &m, TSNode call) {
  std::map<std::string, Value> keys;
  int score = 0;
  Frame frame{&m, {}, Interpreter::kMaxDepth, nullptr};
  for (TSNode arg : namedChildren(field(call, "arguments"))) {
    if (type(arg) != "keyword_argument") continue;
    Value v = in.evalExpr(field(arg, "value"), frame);
    if (int s = keyScore(v)) {
      keys[std::string(m.parsed->text(field(arg, "name")))] = v;
      score += s;
    }
  }
  return {keys, score};
}

} // namespace

std::optional<OracleCall> findOracleCall(ModuleIndex &index, Interpreter &in, const std::string &oracle) {
  const SourceTree &engine = index.trees()[0];
  const std::string needle = oracle + "(";
  std::optional<OracleCall> best;
  int bestScore = 0;
  for (const auto &f : engine.files()) {
    const std::string *text = engine.read(f);
    if (!text || outsideServingCode(f.relPath) || !containsText(*text, needle)) continue;
    Module *m = index.moduleForFile(engine, f);
    if (!m || !m->parsed) continue;
    const std::string &src = m->parsed->source();
    for (size_t p = findText(src, needle); p != std::string::npos; p = findText(src, needle, p + 1)) {
      if (p > 0 && (std::isalnum(static_cast<unsigned char>(src[p - 1])) || src[p - 1] == '_'))
        continue;
      TSNode node = ts_node_descendant_for_byte_range(m->parsed->root(), uint32_t(p), uint32_t(p + oracle.size()));
      while (!isNull(node) && type(node) != "call" && type(node) != "function_definition") node = ts_node_parent(node);
      if (isNull(node) || type(node) != "call") continue; // the `def` itself
      auto [keys, score] = keywordKeys(in, *m, node);
      if (score == 0 || score <= bestScore) continue;
      bestScore = score;
      best = OracleCall{std::move(keys), evidenceAt(*m, node, "asks the oracle for this format")};
    }
  }
  return best;
}

} // namespace archscope::py
