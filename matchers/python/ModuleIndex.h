//===--- ModuleIndex.h - Python modules across trees, parsed on demand --===//
// SPDX-License-Identifier: Apache-2.0
//
// Every tree (the engine and each --with dependency) contributes its modules
// under their dotted names. A module is parsed the first time a name in it is
// resolved, so an audit parses only what dispatch code actually reaches.
// Symbol tables hold module-level functions, classes, assignments (chained
// aliases included) and imports, including those under top-level if/try.
//===----------------------------------------------------------------------===//
#pragma once
#include "matchers/python/PythonSyntax.h"
#include "matchers/source/SourceTree.h"

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace archscope::py {

struct Binding {
  enum class Kind { Function, Class, Assign, Import } kind = Kind::Assign;
  TSNode node{};        ///< function/class definition, or the assigned value
  TSNode site{};        ///< the statement, for evidence
  std::string fromModule; ///< Import: absolute module
  std::string name;       ///< Import: imported name ("" imports the module itself)
  /// Assign in the body of a module-level try over an earlier default
  /// (`HAS_X = False` / `try: import x; HAS_X = True`): the try statement,
  /// and the default's value. The name is the one or the other.
  TSNode tryStmt{}, fallback{};
};

struct Module {
  std::string name;
  const SourceFile *file = nullptr;
  const SourceTree *tree = nullptr;
  std::unique_ptr<ParsedModule> parsed;
  std::map<std::string, Binding> symbols;
  std::vector<std::string> starImports; ///< `from M import *`, absolute
};

class ModuleIndex {
public:
  explicit ModuleIndex(std::vector<SourceTree> trees);

  const std::vector<SourceTree> &trees() const { return trees_; }
  /// The module with this dotted name, parsed; nullptr if no tree has it.
  Module *module(const std::string &dotted);
  /// The module of a file of one of the trees, parsed.
  Module *moduleForFile(const SourceTree &tree, const SourceFile &file);
  /// The module of a file already parsed (by its path); nullptr otherwise.
  Module *parsedAt(const std::string &path);
  /// Parses these files on all cores ahead of their first use.
  void prefetch(const std::vector<std::pair<const SourceTree *, const SourceFile *>> &files);
  /// The modules of every file whose text passes `mayHold`, a cheap search
  /// run on all cores before any parse; the passing files are parsed on all
  /// cores too. In the trees' file order.
  std::vector<Module *> modulesWhere(const std::function<bool(const std::string &)> &mayHold);
  /// Resolves `from pkg import x` style relative names against `from`.
  std::string absoluteModule(const Module &from, const std::string &relative) const;
  std::vector<std::string> &warnings() { return warnings_; }
  size_t parsedCount() const { return modules_.size(); }

private:
  Module *load(const SourceTree &tree, const SourceFile &file);
  std::unique_ptr<Module> parse(const SourceTree &tree, const SourceFile &file);
  void buildSymbols(Module &m);
  void addStatement(Module &m, TSNode stmt, bool nested);
  void addImports(Module &m, TSNode stmt);

  std::vector<SourceTree> trees_;
  std::map<std::string, std::unique_ptr<Module>> modules_; ///< by file path
  std::set<std::string> parsing_; ///< paths a thread is parsing now: others wait for it
  std::vector<std::string> warnings_;
  std::mutex mutex_;
  std::condition_variable parsed_; ///< a parse finished
};

/// A profile path ("python/sglang/srt/x.py") in a tree: as written, or without
/// its python/ or src/ prefix, as in an installed package folder.
const SourceFile *findProfileFile(const SourceTree &tree, const std::string &file);

/// Finds a file of a scope spec in the engine tree, then in the others.
Module *scopeModule(ModuleIndex &index, const std::string &file);

} // namespace archscope::py
