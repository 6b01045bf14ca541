//===--- ModuleIndex.cpp - module symbol tables ---------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/python/ModuleIndex.h"

#include <llvm/Support/Parallel.h>

#include <cstring>
#include <filesystem>

namespace archscope::py {

ModuleIndex::ModuleIndex(std::vector<SourceTree> trees) : trees_(std::move(trees)) {}

Module *ModuleIndex::module(const std::string &dotted) {
  for (const auto &tree : trees_)
    if (const SourceFile *f = tree.byModule(dotted)) return load(tree, *f);
  return nullptr;
}

Module *ModuleIndex::moduleForFile(const SourceTree &tree, const SourceFile &file) {
  return load(tree, file);
}

Module *ModuleIndex::load(const SourceTree &tree, const SourceFile &file) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (auto it = modules_.find(file.path); it != modules_.end()) return it->second.get();
    if (parsing_.insert(file.path).second) break;
    parsed_.wait(lock); // another thread is parsing this file: a second parse would be thrown away
  }
  lock.unlock();
  std::unique_ptr<Module> m;
  try {
    m = parse(tree, file); // outside the lock: parses run in parallel (parse loads no other module)
  } catch (...) { // the waiters must not wait forever: one of them parses again, and meets the same error
    lock.lock();
    parsing_.erase(file.path);
    parsed_.notify_all();
    throw;
  }
  lock.lock();
  parsing_.erase(file.path);
  auto it = modules_.emplace(file.path, std::move(m)).first;
  if (it->second->parsed->hasErrors()) warnings_.push_back(file.path + ": syntax errors; using the parts that parse");
  parsed_.notify_all();
  return it->second.get();
}

std::unique_ptr<Module> ModuleIndex::parse(const SourceTree &tree, const SourceFile &file) {
  auto m = std::make_unique<Module>();
  m->name = file.module.empty() ? file.relPath : file.module;
  m->file = &file;
  m->tree = &tree;
  const std::string *text = tree.read(file);
  m->parsed = std::make_unique<ParsedModule>(file.path, text ? *text : std::string());
  buildSymbols(*m);
  return m;
}

Module *ModuleIndex::parsedAt(const std::string &path) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = modules_.find(path);
  return it == modules_.end() ? nullptr : it->second.get();
}

void ModuleIndex::prefetch(const std::vector<std::pair<const SourceTree *, const SourceFile *>> &files) {
  llvm::parallelFor(0, files.size(), [&](size_t i) { load(*files[i].first, *files[i].second); });
}

std::vector<Module *> ModuleIndex::modulesWhere(const std::function<bool(const std::string &)> &mayHold) {
  std::vector<std::pair<const SourceTree *, const SourceFile *>> all, candidates;
  for (const auto &tree : trees_)
    for (const auto &f : tree.files()) all.push_back({&tree, &f});
  std::vector<char> passes(all.size(), 0);
  llvm::parallelFor(0, all.size(), [&](size_t i) {
    const std::string *text = all[i].first->read(*all[i].second);
    passes[i] = text && mayHold(*text);
  });
  for (size_t i = 0; i < all.size(); ++i)
    if (passes[i]) candidates.push_back(all[i]);
  prefetch(candidates);
  std::vector<Module *> out;
  for (const auto &[tree, file] : candidates)
    if (Module *m = moduleForFile(*tree, *file)) out.push_back(m);
  return out;
}

std::string ModuleIndex::absoluteModule(const Module &from, const std::string &relative) const {
  size_t dots = 0;
  while (dots < relative.size() && relative[dots] == '.') ++dots;
  if (dots == 0) return relative;
  std::string base = from.name;
  if (!from.file->isPackageInit) {
    auto p = base.rfind('.');
    base = p == std::string::npos ? "" : base.substr(0, p);
  }
  for (size_t i = 1; i < dots; ++i) {
    auto p = base.rfind('.');
    base = p == std::string::npos ? "" : base.substr(0, p);
  }
  std::string rest = relative.substr(dots);
  if (rest.empty()) return base;
  return base.empty() ? rest : base + "." + rest;
}

void ModuleIndex::buildSymbols(Module &m) {
  for (TSNode stmt : namedChildren(m.parsed->root())) addStatement(m, stmt, false);
}

void ModuleIndex::addStatement(Module &m, TSNode stmt, bool nested) {
  auto t = type(stmt);
  auto define = [&](const std::string &name, Binding b) {
    if (nested && m.symbols.count(name)) return; // keep the first of try/except twins
    m.symbols[name] = b;
  };
  if (t == "decorated_definition") {
    TSNode def = field(stmt, "definition");
    TSNode name = field(def, "name");
    if (isNull(name)) return;
    bool isClass = type(def) == "class_definition";
    define(std::string(m.parsed->text(name)),
           {isClass ? Binding::Kind::Class : Binding::Kind::Function, def, stmt, "", ""});
  } else if (t == "function_definition" || t == "class_definition") {
    TSNode name = field(stmt, "name");
    if (isNull(name)) return;
    define(std::string(m.parsed->text(name)),
           {t == "class_definition" ? Binding::Kind::Class : Binding::Kind::Function, stmt, stmt, "", ""});
  } else if (t == "expression_statement") {
    for (TSNode e : namedChildren(stmt)) {
      // a = b = value: every name on the chain binds the final value.
      std::vector<TSNode> targets;
      TSNode cur = e;
      while (type(cur) == "assignment") {
        targets.push_back(field(cur, "left"));
        TSNode right = field(cur, "right");
        if (isNull(right)) break;
        cur = right;
      }
      for (TSNode target : targets)
        if (type(target) == "identifier")
          define(std::string(m.parsed->text(target)), {Binding::Kind::Assign, cur, stmt, "", ""});
    }
  } else if (t == "import_statement" || t == "import_from_statement") {
    addImports(m, stmt);
  } else if (t == "try_statement" && !nested) {
    // A default set before the try and set again in its body is either.
    for (TSNode c : namedChildren(field(stmt, "body"))) {
      TSNode e = type(c) == "expression_statement" ? ts_node_named_child(c, 0) : TSNode{};
      TSNode left = isNull(e) || type(e) != "assignment" ? TSNode{} : field(e, "left");
      auto old = isNull(left) || type(left) != "identifier" ? m.symbols.end()
                                                            : m.symbols.find(std::string(m.parsed->text(left)));
      if (old == m.symbols.end() || old->second.kind != Binding::Kind::Assign || !isNull(old->second.tryStmt) ||
          isNull(field(e, "right")))
        continue;
      Binding b{Binding::Kind::Assign, field(e, "right"), c, "", ""};
      b.tryStmt = stmt;
      b.fallback = old->second.node;
      old->second = b;
    }
    for (TSNode c : namedChildren(stmt)) addStatement(m, c, true);
  } else if (t == "if_statement" || t == "try_statement" || t == "else_clause" ||
             t == "elif_clause" || t == "except_clause" || t == "finally_clause" || t == "block" ||
             t == "with_statement") {
    for (TSNode c : namedChildren(stmt)) addStatement(m, c, true);
  }
}

void ModuleIndex::addImports(Module &m, TSNode stmt) {
  importsQuery().run(*m.parsed, stmt, [&](const Query::Captures &caps) {
    auto get = [&](const char *k) {
      auto it = caps.find(k);
      return it == caps.end() ? std::string() : std::string(m.parsed->text(it->second));
    };
    auto st = caps.find("import.stmt");
    if (st == caps.end() || ts_node_start_byte(st->second) != ts_node_start_byte(stmt)) return;
    std::string from = get("import.from"), name = get("import.name"), alias = get("import.alias");
    if (caps.count("import.star")) {
      m.starImports.push_back(absoluteModule(m, from));
      return;
    }
    Binding b{Binding::Kind::Import, {}, stmt, "", ""};
    if (!from.empty()) {
      b.fromModule = absoluteModule(m, from);
      b.name = name;
      std::string local = alias.empty() ? name : alias;
      if (!m.symbols.count(local) || !alias.empty()) m.symbols[local] = b;
    } else {
      // `import a.b.c` binds `a`; `import a.b as x` binds x to a.b.
      b.fromModule = alias.empty() ? name.substr(0, name.find('.')) : name;
      b.name = "";
      m.symbols[alias.empty() ? b.fromModule : alias] = b;
    }
  });
}

const SourceFile *findProfileFile(const SourceTree &tree, const std::string &file) {
  if (const SourceFile *f = tree.byRelPath(file)) return f;
  for (const char *prefix : {"python/", "src/"})
    if (file.rfind(prefix, 0) == 0)
      if (const SourceFile *f = tree.byRelPath(file.substr(std::strlen(prefix)))) return f;
  // The tree is the package folder itself: "sglang/srt/x.py" is "srt/x.py".
  std::string inside = file.rfind("python/", 0) == 0 ? file.substr(7) : file;
  std::string pkg = std::filesystem::path(tree.root()).filename().string() + "/";
  if (inside.rfind(pkg, 0) == 0) return tree.byRelPath(inside.substr(pkg.size()));
  return nullptr;
}

Module *scopeModule(ModuleIndex &index, const std::string &file) {
  for (const auto &tree : index.trees())
    if (const SourceFile *f = findProfileFile(tree, file)) return index.moduleForFile(tree, *f);
  return nullptr;
}

} // namespace archscope::py
