//===--- InferredAttributes.cpp - attribute hints read off the code ------===//
// SPDX-License-Identifier: Apache-2.0
//===----------------------------------------------------------------------===//
#include "matchers/python/InferredAttributes.h"

#include "matchers/source/TextSearch.h"

#include <regex>

namespace archscope::py {
namespace {

/// The statement at `def` and the lines below it indented deeper: its body.
std::string bodyAfter(const std::string &text, size_t def) {
  size_t bol = text.rfind('\n', def) + 1; // npos + 1 == 0
  size_t indent = def - bol;
  size_t end = text.find('\n', def);
  while (end != std::string::npos) {
    size_t next = text.find('\n', end + 1);
    size_t n = text.find_first_not_of(" \t", end + 1);
    if (n != std::string::npos && text[n] != '\n' && text[n] != '#' && n - end - 1 <= indent)
      break;
    end = next;
  }
  return text.substr(def, (end == std::string::npos ? text.size() : end) - def);
}

/// The dotted module an import in `text` binds `alias` to; "" if none does.
std::string importedModule(const std::string &text, const std::string &alias) {
  static const std::regex fromImport(R"(from ([\w.]+) import (\w+)(?: as (\w+))?)");
  static const std::regex plainImport(R"(import ([\w.]+)(?: as (\w+))?)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), fromImport); it != std::sregex_iterator();
       ++it)
    if (((*it)[3].matched ? (*it)[3].str() : (*it)[2].str()) == alias)
      return (*it)[1].str() + "." + (*it)[2].str();
  for (auto it = std::sregex_iterator(text.begin(), text.end(), plainImport); it != std::sregex_iterator();
       ++it)
    if ((*it)[2].matched ? (*it)[2].str() == alias : (*it)[1].str() == alias)
      return (*it)[1].str();
  return "";
}

/// Whether `text` binds `name` at module level (`NAME = {` or `NAME: Dict[...] = {`).
bool bindsDictAtTop(const std::string &text, const std::string &name) {
  std::regex top("(^|\\n)" + name + R"((\s*:[^=\n]*)?\s*=\s*\{)");
  return std::regex_search(text, top);
}

} // namespace

/// Attributes filled with the capability of every GPU present, found from
/// the code (FlashInfer's CompilationContext): inside `class C`, a loop
/// `for d in range(torch.cuda.device_count()):` whose body reads
/// `get_device_capability(` and adds to `self.X` (`.add(` / `.append(`)
/// makes `C.X` a device_capability_list, as a profile's `attributes` would.
void inferCapabilityLists(const ModuleIndex &index, std::map<std::string, std::string> &attributes) {
  static const std::regex adds(R"(self\.(\w+)\.(?:add|append)\()");
  for (const auto &tree : index.trees())
    for (const auto &f : tree.files()) {
      const std::string *text = tree.read(f);
      if (!text)
        continue;
      // Literal scans only: std::regex over whole files costs more than the rest of the read.
      for (size_t at = findText(*text, "cuda.device_count()):"); at != std::string::npos;
           at = findText(*text, "cuda.device_count()):", at + 1)) {
        size_t bol = text->rfind('\n', at) + 1; // npos + 1 == 0
        size_t indent = text->find_first_not_of(" \t", bol) - bol;
        if (indent == 0 || text->compare(bol + indent, 4, "for ") != 0 ||
            findText(*text, " in range(", bol) > at)
          continue;
        std::string body = bodyAfter(*text, bol + indent);
        std::smatch add;
        if (body.find("get_device_capability(") == std::string::npos || !std::regex_search(body, add, adds))
          continue;
        size_t cls = text->rfind("\nclass ", at); // the class the loop is in
        size_t nameAt = cls != std::string::npos             ? cls + 7
                        : text->compare(0, 6, "class ") == 0 ? 6
                                                             : std::string::npos;
        if (nameAt == std::string::npos)
          continue;
        size_t nameEnd = text->find_first_of("(:", nameAt);
        attributes.emplace(text->substr(nameAt, nameEnd - nameAt) + "." + add[1].str(),
                           "device_capability_list");
      }
    }
}

void inferAttributeRegistries(const ModuleIndex &index, std::map<std::string, std::string> &attributes) {
  static const std::regex lookup(R"((\w+)\.get\((\w+)\))");            // _PLATFORM_PROBES.get(name)
  static const std::regex probeCall(R"(getattr\((\w+), (\w+)\)\(\))"); // getattr(_common, probe)()
  static const std::string def = "def __getattr__(self, ";
  for (const auto &tree : index.trees())
    for (const auto &f : tree.files()) {
      const std::string *text = tree.read(f);
      if (!text || f.module.empty())
        continue;
      for (size_t at = findText(*text, def); at != std::string::npos; at = findText(*text, def, at + 1)) {
        size_t cls = text->rfind("\nclass ", at);
        if (cls == std::string::npos || at == 0 || (*text)[at - 1] == '\n')
          continue; // a method, not a module's
        std::string param = text->substr(at + def.size(), text->find_first_of(":)", at) - at - def.size());
        std::string body = bodyAfter(*text, at);
        std::smatch dict, call;
        bool looksUp = false;
        for (auto it = std::sregex_iterator(body.begin(), body.end(), lookup); it != std::sregex_iterator();
             ++it)
          if ((*it)[2] == param && bindsDictAtTop(*text, (*it)[1])) {
            dict = *it;
            looksUp = true;
            break;
          }
        if (!looksUp || !std::regex_search(body, call, probeCall))
          continue;
        std::string target = importedModule(body, call[1]);
        if (target.empty())
          target = importedModule(*text, call[1]);
        if (target.empty())
          continue;
        size_t nameEnd = text->find_first_of("(:", cls + 7);
        attributes.emplace(text->substr(cls + 7, nameEnd - cls - 7) + ".*",
                           "registry " + f.module + "." + dict[1].str() + " " + target);
      }
    }
}

} // namespace archscope::py
