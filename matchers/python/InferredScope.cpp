//===--- InferredScope.cpp - the format's path read off the code ---------===//
// SPDX-License-Identifier: Apache-2.0
//
// Without a profile scope: where the NVFP4 MoE path of an engine runs (an
// oracle, the server-argument stage, the format's MoE method, the MoE
// modules' dispatch), which entry points a kernel library offers alone, and
// which attributes hold the capability of the GPUs present.
//===----------------------------------------------------------------------===//
#include "matchers/python/InferredScope.h"

#include "model/FormatNames.h"
#include "matchers/source/TextSearch.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>

namespace archscope::py {
namespace fs = std::filesystem;

namespace {

/// Whether `text` holds `word` as a whole identifier.
bool mentionsWord(std::string_view text, const std::string &word) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t p = findText(text, word); p != std::string_view::npos; p = findText(text, word, p + 1)) {
    size_t end = p + word.size();
    if ((p == 0 || !ident(text[p - 1])) && (end >= text.size() || !ident(text[end]))) return true;
  }
  return false;
}

/// Whether `text` holds one of the quant's flag values as a string literal.
bool quotesFlag(std::string_view text, const QuantProfile &quant) {
  for (const auto &f : quant.flags)
    if (containsText(text, "\"" + f + "\"") || containsText(text, "'" + f + "'"))
      return true;
  return false;
}

/// Whether `text` names one of the quant's flag values as a quantization
/// method: returned (`get_name()`: `return "modelopt_fp4"`) or compared with
/// a quant flag (`quant_method == "nvfp4"`). A model's own config naming the
/// format for something else (`index_k_quant_type = "nvfp4"`) does not.
bool namesFlagAsMethod(const std::string &text, const QuantProfile &quant, const Vocabulary &vocab) {
  for (const auto &f : quant.flags) {
    for (const std::string &q : {"\"" + f + "\"", "'" + f + "'"}) {
      if (containsText(text, "return " + q)) return true;
      for (size_t p = findText(text, q); p != std::string::npos; p = findText(text, q, p + 1)) {
        size_t bol = text.rfind('\n', p) + 1;
        std::string_view before(text.data() + bol, p - bol);
        bool compared =
            before.find("==") != std::string_view::npos || before.find(" in ") != std::string_view::npos;
        if (compared && std::any_of(vocab.quantFlags.begin(), vocab.quantFlags.end(),
                                    [&](const std::string &flag) { return mentionsWord(before, flag); }))
          return true;
      }
    }
  }
  return false;
}

/// A class named for the format's MoE path: `ModelOptNvFp4FusedMoEMethod`
/// for nvfp4 (not `Mxfp4MoEMethod`: another format).
bool namesQuantMoe(std::string name, const QuantProfile &quant) {
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.find("moe") != std::string::npos && name.find(quant.name) != std::string::npos;
}

/// Whether a top-level `class NAME` of the text is named for the format's MoE.
bool definesQuantMoeClass(const std::string &text, const QuantProfile &quant) {
  for (size_t p = findText(text, "class "); p != std::string::npos; p = findText(text, "class ", p + 1)) {
    if (p != 0 && text[p - 1] != '\n') continue;
    size_t end = text.find_first_of("(:", p);
    if (end != std::string::npos && namesQuantMoe(text.substr(p + 6, end - p - 6), quant)) return true;
  }
  return false;
}


bool mentionsMoe(std::string_view text) {
  for (const char *w : {"moe", "Moe", "MoE", "MOE"})
    if (containsText(text, w)) return true;
  return false;
}

} // namespace

/// Folders of a checkout that hold no serving code: tools, tests, examples.
bool outsideServingCode(const std::string &relPath) {
  for (const char *dir : {"tools/", "tests/", "test/", "benchmarks/", "examples/", "docs/", "scripts/"})
    if (relPath.rfind(dir, 0) == 0 || relPath.find(std::string("/") + dir) != std::string::npos) return true;
  return false;
}

/// A module of the MoE layer (its path says MoE; a model definition under
/// models/ is not the layer) not named for another format
/// (`moe/.../mxfp4.py` is not NVFP4's).
bool isMoeModule(const std::string &relPath, const QuantProfile &quant) {
  bool modelDefinition = relPath.rfind("models/", 0) == 0 || relPath.find("/models/") != std::string::npos;
  return mentionsMoe(relPath) && !modelDefinition && namesFormat(fs::path(relPath).stem().string(), quant.name) != false;
}

/// A module-level `def F(backend):` of the oracle's module that maps each
/// member of `enumName` to kernel classes (`if backend == E.X: return [XExperts]`):
/// the kernel map where the walk over the candidates asks a helper object
/// (vLLM 0.34: `kernel_cls, _ = oracle.try_backend(backend)`); "" if none.
std::string kernelMapBeside(const std::string &text, const std::string &enumName) {
  static const std::regex def(R"((?:^|\n)def (\w+)\(\s*(\w+)\s*[:,)])");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), def); it != std::sregex_iterator(); ++it) {
    size_t start = size_t(it->position()) + 1, end = findText(text, "\ndef ", start);
    std::string_view body(text.data() + start, (end == std::string::npos ? text.size() : end) - start);
    if (containsText(body, (*it)[2].str() + " == " + enumName + ".") && containsText(body, "return ["))
      return (*it)[1];
  }
  return "";
}

/// A vLLM-style oracle found from the code: a module-level `def select_*`
/// named for the format (`select_nvfp4_moe_backend`; or `select_*backend*`
/// where neither it nor its module names another format) holding an ordered list
/// of backend enum members (`AVAILABLE_BACKENDS = [NvFp4MoeBackend.B12X,
/// ...]`) and a loop over a function of each (`for k in
/// backend_to_kernel_cls(backend)`, or `k = backend_to_kernel_cls(backend)`:
/// the kernel map); the device check is the
/// `_supports_current_device`-style method the engine's kernel classes
/// define most. Returns the quant with its oracle and that function as scope.
std::optional<QuantProfile> discoverOracle(ModuleIndex &index, const QuantProfile &quant) {
  static const std::regex selectDef(R"((?:^|\n)def (select_\w+)\()");
  static const std::regex candidatesList(R"(\n[ \t]+(\w+) = \[\s*(\w*Backend)\.)");
  // `for k in backend_to_kernel_cls(backend):`, or one class each: `k = backend_to_kernel_cls(backend)`.
  static const std::regex kernelLoop(
      R"((?:for \w+ in |\n[ \t]+\w+ = )(\w+)\((\w+)\)(?::|\s*(?:#[^\n]*)?\n))");
  static const std::regex deviceCheckDef(R"(def (_?supports?_\w*device\w*)\()");
  const SourceTree &engine = index.trees()[0];
  std::map<std::string, int> checkNames;
  std::optional<QuantProfile> found;
  for (const auto &f : engine.files()) {
    const std::string *text = engine.read(f);
    if (!text || outsideServingCode(f.relPath)) continue;
    for (size_t p = findText(*text, "supports"); p != std::string::npos; p = findText(*text, "supports", p + 1)) {
      size_t def = text->rfind("def ", p); // std::regex is slow: only around the literal
      if (def == std::string::npos || p - def > 6) continue;
      std::smatch m;
      std::string line = text->substr(def, text->find('(', p) - def + 1);
      if (std::regex_match(line, m, deviceCheckDef)) ++checkNames[m[1]];
    }
    if (found || !containsText(*text, "def select_")) continue;
    for (auto it = std::sregex_iterator(text->begin(), text->end(), selectDef); it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[1];
      // Named for this format (select_nvfp4_moe_backend), or for none, in a
      // module named for none; an oracle of another format is not this one's.
      auto names = namesFormat(name, quant.name);
      if (names == false || (!names && namesFormat(fs::path(f.relPath).stem().string(), quant.name) == false)) continue;
      if (!names && name.find("backend") == std::string::npos) continue;
      size_t start = size_t(it->position()), end = findText(*text, "\ndef ", start + 1);
      std::string body = text->substr(start, end == std::string::npos ? std::string::npos : end - start);
      std::smatch list;
      if (!std::regex_search(body, list, candidatesList)) continue;
      // The kernel map takes one candidate; a call on the whole list is a
      // rewrite of it (`AVAILABLE_BACKENDS = prioritize_humming(AVAILABLE_BACKENDS)`).
      std::string kernelMap;
      for (auto l = std::sregex_iterator(body.begin(), body.end(), kernelLoop); l != std::sregex_iterator();
           ++l)
        if ((*l)[2] != list[1].str()) {
          kernelMap = (*l)[1];
          break;
        }
      if (kernelMap.empty()) kernelMap = kernelMapBeside(*text, list[2]); // the loop asks a helper class
      if (kernelMap.empty()) continue;
      QuantProfile q = quant;
      q.scope = {{f.relPath, name}};
      q.candidates = list[1];
      q.kernelMap = kernelMap;
      found = q;
      break;
    }
  }
  if (!found || checkNames.empty()) return std::nullopt;
  found->deviceCheck = std::max_element(checkNames.begin(), checkNames.end(), [](const auto &a, const auto &b) {
                         return a.second < b.second;
                       })->first;
  return found;
}

namespace {

/// The methods of a format's MoE method class the framework calls: those
/// its base classes also define (`apply`, `create_moe_runner`), and
/// `__init__`; a method of its own (`apply_without_routing_weights`, another
/// caller's) is not the standard path. Without bases found, every method.
std::vector<ScopeSpec> protocolMethods(Interpreter &in, Module *m, TSNode cls, const std::string &file,
                                       const std::string &name) {
  auto methodNames = [&](const ClassRef &c) {
    std::vector<std::string> out;
    for (TSNode member : namedChildren(field(c.def, "body"))) {
      TSNode fn = type(member) == "decorated_definition" ? field(member, "definition") : member;
      if (type(fn) == "function_definition") out.emplace_back(c.mod->parsed->text(field(fn, "name")));
    }
    return out;
  };
  std::set<std::string> declared{"__init__"};
  std::vector<ClassRef> pending = in.bases(ClassRef{m, cls});
  for (size_t i = 0; i < pending.size() && i < 16; ++i) {
    for (auto &n : methodNames(pending[i])) declared.insert(n);
    for (auto &b : in.bases(pending[i])) pending.push_back(b);
  }
  if (declared.size() == 1) return {{file, name}};
  std::vector<ScopeSpec> out;
  for (auto &n : methodNames(ClassRef{m, cls}))
    if (declared.count(n)) out.push_back({file, name + "." + n});
  return out;
}

} // namespace

namespace {
/// The string literals of a `string`, or of a list/tuple/set of them.
std::vector<std::string> literalsOf(const ParsedModule &pm, TSNode n) {
  std::vector<std::string> out;
  auto add = [&](TSNode s) {
    std::string_view t = pm.text(s);
    if (t.size() >= 2 && (t[0] == '"' || t[0] == '\'') && t.back() == t[0]) out.emplace_back(t.substr(1, t.size() - 2));
  };
  if (type(n) == "string") add(n);
  if (type(n) == "list" || type(n) == "tuple" || type(n) == "set")
    for (TSNode item : namedChildren(n))
      if (type(item) == "string") add(item);
  return out;
}

/// Every string literal below `n` (the members of a `Literal[...]`).
void allStrings(const ParsedModule &pm, TSNode n, std::vector<std::string> &out) {
  if (type(n) == "string") {
    for (const auto &s : literalsOf(pm, n)) out.push_back(s);
    return;
  }
  for (TSNode c : namedChildren(n)) allStrings(pm, c, out);
}

/// `@register_model_override("NemotronHForCausalLM", ...)`: a definition
/// registered for named model architectures runs only for those models, so
/// what it selects is not the engine's default (SGLang's per-model overrides).
bool registeredForModels(const ParsedModule &pm, TSNode stmt) {
  static const std::regex architecture(R"([A-Z][A-Za-z0-9_]*For[A-Z][A-Za-z]+)");
  if (type(stmt) != "decorated_definition") return false;
  for (TSNode d : namedChildren(stmt)) {
    if (type(d) != "decorator") continue;
    std::vector<std::string> names;
    allStrings(pm, d, names);
    if (std::any_of(names.begin(), names.end(), [](const std::string &n) { return std::regex_match(n, architecture); }))
      return true;
  }
  return false;
}

} // namespace

/// The NVFP4 path of an engine no profile describes, found from the code:
/// MoE functions that compare the quant flag with the format's values and
/// read the selected backend (server-argument resolution), then the classes
/// named for the format's MoE method, in path order. Both run for this format
/// and no other.
std::vector<ScopeSpec> quantStages(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                                   const Vocabulary &vocab, const std::optional<QuantProfile> &oracle) {
  const SourceTree &engine = index.trees()[0];
  std::vector<std::pair<const SourceTree *, const SourceFile *>> candidates;
  for (const auto &f : engine.files())
    if (const std::string *text = engine.read(f);
        text && !outsideServingCode(f.relPath) && (quotesFlag(*text, quant) || definesQuantMoeClass(*text, quant)))
      candidates.push_back({&engine, &f});
  index.prefetch(candidates);
  std::vector<ScopeSpec> configuration, methods, unquotedMethods;
  auto readsSelector = [&](std::string_view body) {
    return std::any_of(vocab.selectors.begin(), vocab.selectors.end(),
                       [&](const std::string &s) { return mentionsWord(body, s); });
  };
  for (const auto &[tree, file] : candidates) {
    Module *m = index.moduleForFile(*tree, *file);
    if (!m || !m->parsed) continue;
    auto consider = [&](TSNode def, const std::string &qualname) {
      std::string_view body = m->parsed->text(def);
      if (quotesFlag(body, quant) && readsSelector(body) && mentionsMoe(body))
        configuration.push_back({file->relPath, qualname});
    };
    for (TSNode stmt : namedChildren(m->parsed->root())) {
      TSNode def = type(stmt) == "decorated_definition" ? field(stmt, "definition") : stmt;
      std::string name = type(def) == "function_definition" || type(def) == "class_definition"
                             ? std::string(m->parsed->text(field(def, "name")))
                             : "";
      if (type(def) == "function_definition" && !registeredForModels(*m->parsed, stmt)) consider(def, name);
      if (type(def) != "class_definition") continue;
      if (namesQuantMoe(name, quant)) {
        // The method of these flag values is in a file that names one
        // (modelopt_quant.py: "modelopt_fp4"); a method elsewhere serves
        // another flag (compressed-tensors' NVFP4) and counts only alone.
        auto &into = namesFlagAsMethod(m->parsed->source(), quant, vocab) ? methods : unquotedMethods;
        for (auto &spec : protocolMethods(in, m, def, file->relPath, name)) into.push_back(std::move(spec));
        continue;
      }
      for (TSNode member : namedChildren(field(def, "body"))) {
        TSNode fn = type(member) == "decorated_definition" ? field(member, "definition") : member;
        if (type(fn) == "function_definition") consider(fn, name + "." + std::string(m->parsed->text(field(fn, "name"))));
      }
    }
  }
  const auto &chosen = methods.empty() ? unquotedMethods : methods;
  configuration.insert(configuration.end(), chosen.begin(), chosen.end());
  if (oracle) configuration.insert(configuration.begin(), oracle->scope.begin(), oracle->scope.end());
  return configuration;
}

static std::string topPackage(const std::string &module) { return module.substr(0, module.find('.')); }

/// Every engine module that names a backend enum found by the catalogue, or
/// talks of a backend and of the device capability; in path order. Without a
/// profile these are walked for their dispatch branches (which backend leads
/// to which kernel); where format-specific stages were found (`quantStages`),
/// what they raise, select or call outside a backend's branch may belong to
/// another format's path (an assert in the GPTQ kernels) and is dropped.
/// Only the packages that define the enums count: an installed folder holds
/// the kernel libraries too, whose modules are reached through the engine's
/// calls, never walked as dispatch of their own.
std::vector<ScopeSpec> backendModules(ModuleIndex &index, Interpreter &in) {
  std::vector<std::string> enums;
  std::set<std::string> packages; // where the enums live: a site-packages folder also holds the libraries
  for (const auto &cls : in.backendClasses()) {
    enums.push_back(in.className(cls));
    packages.insert(topPackage(cls.mod->name));
  }
  std::vector<ScopeSpec> out;
  const SourceTree &engine = index.trees()[0];
  for (const auto &f : engine.files()) {
    if (!packages.empty() && !f.module.empty() && !packages.count(topPackage(f.module))) continue;
    const std::string *text = engine.read(f);
    if (!text) continue;
    bool names = std::any_of(enums.begin(), enums.end(),
                             [&](const std::string &e) { return containsText(*text, e); });
    bool talks = containsText(*text, "backend") &&
                 (containsText(*text, "capability") || containsText(*text, "is_sm"));
    if (names || talks) out.push_back({f.relPath, ""});
  }
  return out;
}

namespace {

/// Whether an expression names a selector: `moe_runner_backend`,
/// `self.moe_runner_backend`, `server_args.moe_runner_backend`.
bool namesSelectorValue(std::string_view text, const Vocabulary &vocab) {
  size_t dot = text.rfind('.');
  std::string last(dot == std::string_view::npos ? text : text.substr(dot + 1));
  return vocab.selectors.count(last) > 0;
}

/// The names a choice list spells: literals, a dict's keys, and a module-level
/// name bound to either, also through `list(X)`, `sorted(X)`, `X.keys()`, `A + B`.
std::vector<std::string> choicesOf(const ParsedModule &pm, TSNode n, int depth = 0) {
  if (isNull(n) || depth > 3) return {};
  auto t = type(n);
  if (t == "dictionary") {
    std::vector<std::string> keys;
    for (TSNode pair : namedChildren(n))
      if (type(pair) == "pair")
        for (const auto &k : literalsOf(pm, field(pair, "key"))) keys.push_back(k);
    return keys;
  }
  if (t == "identifier") return choicesOf(pm, moduleLevelValue(pm, pm.text(n)), depth + 1);
  if (t == "binary_operator" && pm.text(field(n, "operator")) == "+") { // BASE + ["deep_gemm"]
    auto out = choicesOf(pm, field(n, "left"), depth + 1);
    for (auto &c : choicesOf(pm, field(n, "right"), depth + 1)) out.push_back(std::move(c));
    return out;
  }
  if (t == "call") {
    std::string_view fn = pm.text(field(n, "function"));
    auto args = namedChildren(field(n, "arguments"));
    if ((fn == "list" || fn == "sorted" || fn == "tuple") && args.size() == 1) return choicesOf(pm, args[0], depth + 1);
    if (fn.size() > 5 && fn.substr(fn.size() - 5) == ".keys") {
      TSNode obj = field(field(n, "function"), "object");
      return choicesOf(pm, obj, depth + 1);
    }
  }
  if (t == "type" || t == "subscript" || t == "generic_type") { // Literal["a", "b"], Optional[Literal[...]]
    std::string_view text = pm.text(n);
    if (!containsText(text, "Literal[")) return {};
    std::vector<std::string> out;
    allStrings(pm, n, out);
    return out;
  }
  return literalsOf(pm, n);
}

/// `parser.add_argument("--moe-backend", choices=[...])` (or `dest=`) for a selector.
bool addsSelectorArgument(const ParsedModule &pm, TSNode call, const Vocabulary &vocab) {
  std::string_view fn = pm.text(field(call, "function"));
  if (fn.size() < 12 || fn.substr(fn.size() - 12) != "add_argument") return false;
  for (TSNode a : namedChildren(field(call, "arguments"))) {
    std::vector<std::string> names;
    if (type(a) == "string") names = literalsOf(pm, a);
    else if (type(a) == "keyword_argument" && pm.text(field(a, "name")) == "dest") names = literalsOf(pm, field(a, "value"));
    for (auto name : names) {
      name.erase(0, name.find_first_not_of('-'));
      std::replace(name.begin(), name.end(), '-', '_');
      if (vocab.selectors.count(name)) return true;
    }
  }
  return false;
}

void collectStringBackends(const ParsedModule &pm, TSNode n, const Vocabulary &vocab, std::vector<std::string> &out) {
  auto keep = [&](const std::vector<std::string> &names) {
    for (const auto &name : names)
      if (name != "auto" && name != "none" && name != "default" && !name.empty() &&
          std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
  };
  auto t = type(n);
  if (t == "comparison_operator") {
    auto parts = namedChildren(n);
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
      if (namesSelectorValue(pm.text(parts[i]), vocab)) keep(literalsOf(pm, parts[i + 1]));
      if (namesSelectorValue(pm.text(parts[i + 1]), vocab)) keep(literalsOf(pm, parts[i]));
    }
  }
  if (t == "assignment" && namesSelectorValue(pm.text(field(n, "left")), vocab)) {
    keep(literalsOf(pm, field(n, "right")));
    TSNode annotation = field(n, "type"); // moe_backend: Literal["cutlass", "triton"] = "cutlass"
    if (!isNull(annotation)) {
      auto named = namedChildren(annotation);
      keep(named.size() == 1 && type(named[0]) == "identifier" ? choicesOf(pm, named[0]) : choicesOf(pm, annotation));
    }
  }
  if (t == "call" && addsSelectorArgument(pm, n, vocab))
    for (TSNode a : namedChildren(field(n, "arguments")))
      if (type(a) == "keyword_argument" && pm.text(field(a, "name")) == "choices") keep(choicesOf(pm, field(a, "value")));
  // A table name -> implementation indexed by the selector: `MOE_IMPLS[moe_backend]`, `MOE_IMPLS.get(moe_backend)`.
  if (t == "subscript" && namesSelectorValue(pm.text(field(n, "subscript")), vocab))
    keep(choicesOf(pm, field(n, "value")));
  if (t == "call") {
    TSNode fn = field(n, "function");
    auto args = namedChildren(field(n, "arguments"));
    if (type(fn) == "attribute" && pm.text(field(fn, "attribute")) == "get" && !args.empty() &&
        namesSelectorValue(pm.text(args[0]), vocab))
      keep(choicesOf(pm, field(fn, "object")));
  }
  for (TSNode child : namedChildren(n)) collectStringBackends(pm, child, vocab, out);
}

} // namespace

std::vector<std::string> stringBackends(ModuleIndex &index, const QuantProfile &quant, const Vocabulary &vocab) {
  const SourceTree &engine = index.trees()[0];
  std::vector<std::pair<const SourceTree *, const SourceFile *>> candidates;
  for (const auto &f : engine.files()) {
    const std::string *text = engine.read(f);
    if (!text || outsideServingCode(f.relPath) || !mentionsMoe(*text)) continue;
    // Comparisons count where the format is quoted; choice lists are declarations of their own.
    bool declares = containsText(*text, "choices") || containsText(*text, "Literal[");
    if (!quotesFlag(*text, quant) && !declares) continue;
    auto mentions = [&](std::string s) { // moe_backend, or --moe-backend on a command line
      if (mentionsWord(*text, s)) return true;
      std::replace(s.begin(), s.end(), '_', '-');
      return containsText(*text, "--" + s);
    };
    if (std::any_of(vocab.selectors.begin(), vocab.selectors.end(), mentions)) candidates.push_back({&engine, &f});
  }
  index.prefetch(candidates);
  std::vector<std::string> out;
  for (const auto &[tree, file] : candidates)
    if (Module *m = index.moduleForFile(*tree, *file); m && m->parsed)
      collectStringBackends(*m->parsed, m->parsed->root(), vocab, out);
  return out;
}

namespace {

/// Whether a public name of a kernel library is one of its MoE entry points
/// for the format: a function or a `*Wrapper` / `*Runner` class whose name
/// says MoE and no other format; builders and helpers (`gen_`, `get_`,
/// `has_`, `interleave_`) are not entries.
bool isMoeEntryName(const std::string &name, bool isClass, const QuantProfile &quant) {
  if (name.empty() || name[0] == '_' || !mentionsMoe(name) || namesFormat(name, quant.name) == false) return false;
  for (const char *helper : {"gen_", "get_", "has_", "interleave_", "is_", "set_"})
    if (name.rfind(helper, 0) == 0) return false;
  if (!isClass) return true;
  std::string_view n = name;
  return n.ends_with("Wrapper") || n.ends_with("Runner");
}

} // namespace

/// A kernel library audited alone (no backend enum, no profile rows): its
/// public MoE entry points for the format, the names its top-level package
/// `__init__.py` imports, become the rows, each walked as an entry.
QuantProfile libraryEntries(ModuleIndex &index, Interpreter &in, const QuantProfile &quant,
                            std::vector<std::string> &rows) {
  QuantProfile q = quant;
  const SourceTree &engine = index.trees()[0];
  for (const auto &f : engine.files()) {
    if (!f.isPackageInit || f.module.empty() || f.module.find('.') != std::string::npos) continue;
    Module *m = index.moduleForFile(engine, f);
    if (!m) continue;
    for (const auto &[name, b] : m->symbols) {
      if (b.kind != Binding::Kind::Import || b.name.empty()) continue;
      in.resetBudget();
      Value v = in.resolveName(m, name);
      bool isClass = v.is(Value::Kind::Class);
      if (!(isClass || v.is(Value::Kind::Func)) || !isMoeEntryName(name, isClass, quant)) continue;
      if (std::find(rows.begin(), rows.end(), name) != rows.end()) continue;
      rows.push_back(name);
      q.entries[name] = {m->name + "." + name};
    }
  }
  return q;
}

} // namespace archscope::py
