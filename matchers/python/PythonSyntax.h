//===--- PythonSyntax.h - tree-sitter Python parsing and queries --------===//
// SPDX-License-Identifier: Apache-2.0
//
// ParsedModule owns one file's source and syntax tree. Query wraps a compiled
// .scm query with the closed predicate set #eq?, #not-eq?, #match?,
// #any-of? (tree-sitter's C library evaluates none itself); any other
// predicate is a load-time error, as is a syntax error in the query, reported
// as file.scm:line:col.
//===----------------------------------------------------------------------===//
#pragma once
#include <tree_sitter/api.h>

#include <functional>
#include <map>
#include <regex>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

extern "C" const TSLanguage *tree_sitter_python(void);

namespace archscope::py {

/// A node's type, text and children, with the source it points into.
class ParsedModule {
public:
  ParsedModule(std::string path, std::string source);
  ~ParsedModule();
  ParsedModule(const ParsedModule &) = delete;
  ParsedModule &operator=(const ParsedModule &) = delete;

  const std::string &path() const { return path_; }
  const std::string &source() const { return source_; }
  TSNode root() const { return ts_tree_root_node(tree_); }
  bool hasErrors() const { return ts_node_has_error(root()); }

  std::string_view text(TSNode n) const;
  int line(TSNode n) const { return int(ts_node_start_point(n).row) + 1; }
  int col(TSNode n) const { return int(ts_node_start_point(n).column) + 1; }
  /// The first line of a node's text, trimmed, at most 160 characters.
  std::string snippet(TSNode n) const;

private:
  std::string path_;
  std::string source_;
  TSTree *tree_ = nullptr;
};

std::string_view type(TSNode n);
TSNode field(TSNode n, const char *name);
std::vector<TSNode> namedChildren(TSNode n);
bool isNull(TSNode n);
/// The function definition `node` is in (itself if it is one); null if none.
TSNode enclosingFunction(TSNode node);
/// The right-hand side of the module-level `name = ...` of `pm`; null if none.
TSNode moduleLevelValue(const ParsedModule &pm, std::string_view name);

/// A compiled query with its capture names.
class Query {
public:
  using Captures = std::multimap<std::string, TSNode>;
  /// Compiles `source` (named `name` in errors). Throws on error.
  Query(std::string name, const std::string &source);
  ~Query();
  /// Runs the query over `node`, calling `onMatch` for every match whose
  /// predicates hold.
  void run(const ParsedModule &m, TSNode node, const std::function<void(const Captures &)> &onMatch) const;

private:
  struct Predicate {
    std::string op; ///< eq?, not-eq?, match?, any-of?
    std::string capture;
    std::vector<std::string> args;
    bool argIsCapture = false;
    std::shared_ptr<std::regex> regex; ///< #match?, compiled once
  };
  bool holds(const Predicate &p, const ParsedModule &m, const Captures &caps) const;
  std::string name_;
  TSQuery *query_ = nullptr;
  std::vector<std::vector<Predicate>> predicates_; ///< per pattern
};

/// The queries shipped in matchers/python/queries, compiled once.
const Query &importsQuery();
const Query &enumClassesQuery();
const Query &archDecoratorsQuery();
const Query &toolkitGatedFlagsQuery();
const Query &closedArchTablesQuery();
const Query &registryDecoratorsQuery();
const Query &configRegistriesQuery();

} // namespace archscope::py
