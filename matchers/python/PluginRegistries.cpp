//===--- PluginRegistries.cpp - registries only a plugin fills ----------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/PluginRegistries.h"

#include <algorithm>
#include <regex>
#include <vector>

namespace archscope::py {
namespace {

std::string escaped(const std::string &name) {
  static const std::regex special(R"([.^$|()\[\]*+?{}\\])");
  return std::regex_replace(name, special, R"(\$&)");
}

/// `NAME[k] = v`, `NAME.update(...)`, `NAME.setdefault(...)`.
bool writes(std::string_view body, const std::string &name) {
  const std::regex write("(^|[^\\w.])" + escaped(name) +
                         R"((\s*\[[^\]]*\]\s*=[^=]|\.(update|setdefault|__setitem__)\())");
  return std::regex_search(body.data(), body.data() + body.size(), write);
}

/// As a name of its own (not `x.NAME`, not `NAME_2`); the literal search
/// first, as most files of a tree are asked.
bool mentions(std::string_view text, const std::string &name) {
  if (text.find(name) == std::string_view::npos) return false;
  const std::regex word("(^|[^\\w.])" + escaped(name) + "($|\\W)");
  return std::regex_search(text.data(), text.data() + text.size(), word);
}

/// `fn(` outside comments, its `def fn(` included (a `#` in a string ends
/// its line early: a call missed there only makes the answer "unsure").
size_t callsOf(std::string_view text, const std::string &fn) {
  const std::regex call("(^|[^\\w.])" + escaped(fn) + R"(\s*\()");
  size_t calls = 0;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    line = line.substr(0, std::min(line.find('#'), line.size()));
    std::cregex_iterator first(line.data(), line.data() + line.size(), call), last;
    calls += size_t(std::distance(first, last));
    begin = end + 1;
  }
  return calls;
}

/// Whether a module only re-exports these names: each statement naming one
/// imports it without renaming it, or lists it in `__all__`. A call, or an
/// alias a call could use, is more.
bool onlyReexports(const ParsedModule &pm, const std::vector<std::string> &names) {
  for (TSNode stmt : namedChildren(pm.root())) {
    std::string_view text = pm.text(stmt);
    auto named = std::any_of(names.begin(), names.end(),
                             [&](const std::string &n) { return mentions(text, n); });
    if (!named) continue;
    auto t = type(stmt);
    bool isImport = t == "import_from_statement" || t == "import_statement";
    if (isImport && text.find(" as ") == std::string_view::npos) continue;
    TSNode expr = t == "expression_statement" ? ts_node_named_child(stmt, 0) : TSNode{};
    if (!isNull(expr) && type(expr) == "assignment" && pm.text(field(expr, "left")) == "__all__") continue;
    return false;
  }
  return true;
}

TSNode definitionIn(TSNode stmt) {
  if (type(stmt) == "decorated_definition") return field(stmt, "definition");
  return stmt;
}

} // namespace

bool PluginRegistries::onlyPluginsFill(Module &m, const std::string &name) {
  std::string key = m.name + ":" + name;
  if (auto it = decided_.find(key); it != decided_.end()) return it->second;
  bool only = decide(m, name);
  decided_[key] = only;
  return only;
}

bool PluginRegistries::decide(Module &m, const std::string &name) {
  const ParsedModule &pm = *m.parsed;
  TSNode value = moduleLevelValue(pm, name);
  if (isNull(value) || type(value) != "dictionary" || !namedChildren(value).empty()) return false;
  std::vector<std::string> writers;
  for (TSNode stmt : namedChildren(pm.root())) {
    std::string_view text = pm.text(stmt);
    if (!mentions(text, name)) continue;
    TSNode def = definitionIn(stmt);
    if (type(def) == "function_definition") {
      if (writes(text, name)) writers.push_back(std::string(pm.text(field(def, "name"))));
      continue;
    }
    // A class may read it; a write there, or at module level, fills it here.
    if (type(def) == "class_definition" && !writes(text, name)) continue;
    if (ts_node_start_byte(stmt) <= ts_node_start_byte(value) &&
        ts_node_end_byte(value) <= ts_node_end_byte(stmt))
      continue; // the binding itself
    return false;
  }
  if (writers.empty()) return false;
  for (const auto &w : writers)
    if (callsOf(pm.source(), w) != 1) return false; // its definition, nothing else
  std::vector<std::string> names = writers;
  names.push_back(name);
  auto others = index_.modulesWhere([&](const std::string &text) {
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string &n) { return text.find(n) != std::string::npos; });
  });
  // Elsewhere a mention that is not a word of its own (`runner.NAME[k] = v`)
  // counts as a use too.
  for (Module *o : others) {
    if (o == &m) continue;
    const std::string &text = o->parsed->source();
    for (const auto &n : names) {
      size_t uses = 0;
      for (size_t at = text.find(n); at != std::string::npos; at = text.find(n, at + 1)) ++uses;
      const std::regex word("(^|[^\\w.])" + escaped(n) + "($|\\W)");
      std::sregex_iterator first(text.begin(), text.end(), word), last;
      size_t words = size_t(std::distance(first, last));
      if (uses != words) return false;
    }
    if (!onlyReexports(*o->parsed, names)) return false;
  }
  return true;
}

} // namespace archscope::py
