//===--- PythonSyntax.cpp - tree-sitter parsing and query predicates ----===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/python/PythonSyntax.h"

#include "matchers/python/QuerySources.h" // generated from queries/*.scm
#include "model/Errors.h"

#include <algorithm>
#include <cstring>
#include <regex>

namespace archscope::py {

ParsedModule::ParsedModule(std::string path, std::string source)
    : path_(std::move(path)), source_(std::move(source)) {
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  tree_ = ts_parser_parse_string(parser, nullptr, source_.data(), uint32_t(source_.size()));
  ts_parser_delete(parser);
}

ParsedModule::~ParsedModule() { ts_tree_delete(tree_); }

std::string_view ParsedModule::text(TSNode n) const {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (b > source_.size() || a > b) return {};
  return std::string_view(source_).substr(a, b - a);
}

std::string ParsedModule::snippet(TSNode n) const {
  auto t = text(n);
  auto nl = t.find('\n');
  std::string s(t.substr(0, nl));
  if (nl != std::string_view::npos) s += " ...";
  auto first = s.find_first_not_of(" \t");
  s = first == std::string::npos ? "" : s.substr(first);
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

std::string_view type(TSNode n) { return ts_node_type(n); }
TSNode field(TSNode n, const char *name) {
  return ts_node_child_by_field_name(n, name, uint32_t(strlen(name)));
}
bool isNull(TSNode n) { return ts_node_is_null(n); }

TSNode enclosingFunction(TSNode node) {
  while (!isNull(node) && type(node) != "function_definition") node = ts_node_parent(node);
  return node;
}

TSNode moduleLevelValue(const ParsedModule &pm, std::string_view name) {
  for (TSNode stmt : namedChildren(pm.root())) {
    TSNode a = type(stmt) == "expression_statement" ? ts_node_named_child(stmt, 0) : TSNode{};
    if (!isNull(a) && type(a) == "assignment" && pm.text(field(a, "left")) == name) return field(a, "right");
  }
  return TSNode{};
}

std::vector<TSNode> namedChildren(TSNode n) {
  std::vector<TSNode> out;
  uint32_t count = ts_node_named_child_count(n);
  out.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (type(c) != "comment") out.push_back(c);
  }
  return out;
}

namespace {

std::pair<int, int> lineCol(const std::string &src, uint32_t offset) {
  int line = 1, col = 1;
  for (uint32_t i = 0; i < offset && i < src.size(); ++i) {
    if (src[i] == '\n') { ++line; col = 1; } else { ++col; }
  }
  return {line, col};
}

const char *queryErrorName(TSQueryError e) {
  switch (e) {
  case TSQueryErrorSyntax: return "syntax error";
  case TSQueryErrorNodeType: return "unknown node type";
  case TSQueryErrorField: return "unknown field";
  case TSQueryErrorCapture: return "unknown capture";
  case TSQueryErrorStructure: return "impossible pattern structure";
  case TSQueryErrorLanguage: return "language mismatch";
  default: return "error";
  }
}

} // namespace

Query::Query(std::string name, const std::string &source) : name_(std::move(name)) {
  uint32_t errOffset = 0;
  TSQueryError err = TSQueryErrorNone;
  query_ = ts_query_new(tree_sitter_python(), source.data(), uint32_t(source.size()), &errOffset, &err);
  if (!query_) {
    auto [l, c] = lineCol(source, errOffset);
    throw ArchscopeError(ExitInternal, name_ + ":" + std::to_string(l) + ":" + std::to_string(c) +
                                           ": query " + queryErrorName(err));
  }
  uint32_t patterns = ts_query_pattern_count(query_);
  predicates_.resize(patterns);
  for (uint32_t p = 0; p < patterns; ++p) {
    uint32_t steps = 0;
    const TSQueryPredicateStep *s = ts_query_predicates_for_pattern(query_, p, &steps);
    Predicate cur;
    bool haveOp = false;
    for (uint32_t i = 0; i < steps; ++i) {
      uint32_t len = 0;
      if (s[i].type == TSQueryPredicateStepTypeDone) {
        static const std::vector<std::string> known = {"eq?", "not-eq?", "match?", "any-of?"};
        if (std::find(known.begin(), known.end(), cur.op) == known.end())
          throw ArchscopeError(ExitInternal, name_ + ": unsupported predicate #" + cur.op +
                                                 " (supported: #eq? #not-eq? #match? #any-of?)");
        if (cur.op == "match?" && !cur.args.empty()) cur.regex = std::make_shared<std::regex>(cur.args[0]);
        predicates_[p].push_back(cur);
        cur = Predicate{};
        haveOp = false;
        continue;
      }
      if (s[i].type == TSQueryPredicateStepTypeString) {
        std::string v = ts_query_string_value_for_id(query_, s[i].value_id, &len);
        if (!haveOp) { cur.op = v; haveOp = true; } else cur.args.push_back(v);
      } else { // capture
        std::string v = ts_query_capture_name_for_id(query_, s[i].value_id, &len);
        if (cur.capture.empty()) cur.capture = v;
        else { cur.args.push_back(v); cur.argIsCapture = true; }
      }
    }
  }
}

Query::~Query() { ts_query_delete(query_); }

bool Query::holds(const Predicate &p, const ParsedModule &m, const Captures &caps) const {
  auto range = caps.equal_range(p.capture);
  if (range.first == range.second) return true;
  std::string value(m.text(range.first->second));
  if (p.op == "eq?" || p.op == "not-eq?") {
    std::string other = p.args.empty() ? "" : p.args[0];
    if (p.argIsCapture) {
      auto o = caps.find(other);
      other = o == caps.end() ? "" : std::string(m.text(o->second));
    }
    return (value == other) == (p.op == "eq?");
  }
  if (p.op == "match?") return p.regex && std::regex_search(value, *p.regex);
  return std::find(p.args.begin(), p.args.end(), value) != p.args.end(); // any-of?
}

void Query::run(const ParsedModule &m, TSNode node,
                const std::function<void(const Captures &)> &onMatch) const {
  TSQueryCursor *cursor = ts_query_cursor_new();
  ts_query_cursor_exec(cursor, query_, node);
  TSQueryMatch match;
  while (ts_query_cursor_next_match(cursor, &match)) {
    Captures caps;
    for (uint16_t i = 0; i < match.capture_count; ++i) {
      uint32_t len = 0;
      caps.emplace(ts_query_capture_name_for_id(query_, match.captures[i].index, &len),
                   match.captures[i].node);
    }
    bool ok = true;
    for (const auto &p : predicates_[match.pattern_index]) ok = ok && holds(p, m, caps);
    if (ok) onMatch(caps);
  }
  ts_query_cursor_delete(cursor);
}

const Query &importsQuery() {
  static const Query q("imports.scm", queries::kImports);
  return q;
}
const Query &enumClassesQuery() {
  static const Query q("enum_classes.scm", queries::kEnumClasses);
  return q;
}
const Query &archDecoratorsQuery() {
  static const Query q("arch_decorators.scm", queries::kArchDecorators);
  return q;
}
const Query &toolkitGatedFlagsQuery() {
  static const Query q("toolkit_gated_flags.scm", queries::kToolkitGatedFlags);
  return q;
}
const Query &closedArchTablesQuery() {
  static const Query q("closed_arch_tables.scm", queries::kClosedArchTables);
  return q;
}
const Query &registryDecoratorsQuery() {
  static const Query q("registry_decorators.scm", queries::kRegistryDecorators);
  return q;
}
const Query &configRegistriesQuery() {
  static const Query q("config_registries.scm", queries::kConfigRegistries);
  return q;
}

} // namespace archscope::py
