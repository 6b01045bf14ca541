//===--- CMakeArchSets.cpp - replay arch filters with cmake -P ----------===//
// SPDX-License-Identifier: Apache-2.0
#include "matchers/build/CMakeArchSets.h"

#include "matchers/build/CMakeCommands.h"

#include "model/Target.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Program.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace archscope::build {
namespace {

std::string readText(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Target> parseArchList(const std::string &list) {
  std::vector<Target> out;
  std::stringstream ss(list);
  std::string item;
  while (std::getline(ss, item, ';'))
    if (auto t = Target::parse(item)) out.push_back(*t);
  return out;
}

/// GPUs of the build a requested list runs on that no result arch runs on.
std::vector<std::string> droppedGpus(const std::string &requested, const std::string &result,
                                     const std::vector<ComputeCapability> &gpus) {
  auto want = parseArchList(requested), got = parseArchList(result);
  std::vector<std::string> out;
  for (auto cc : gpus) {
    bool wanted = std::any_of(want.begin(), want.end(), [&](const Target &t) { return t.runsOn(cc); });
    bool built = std::any_of(got.begin(), got.end(), [&](const Target &t) { return t.runsOn(cc); });
    if (wanted && !built) out.push_back(cc.name());
  }
  return out;
}

/// `set_gencode_flags_for_srcs`-style helpers: they give sources an arch list.
bool isSourceArchSetter(const std::string &name) {
  return name.find("gencode") != std::string::npos && name.find("src") != std::string::npos;
}

/// The value after `key` in a keyword-argument call ("SRCS" "${SRCS}").
std::string keywordArg(const std::vector<std::string> &args, const char *key) {
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == key) return args[i + 1];
  return "";
}

/// `-DNAME=1` entries of a flag list, and the bare definitions of a
/// target_compile_definitions argument list (`_C PRIVATE NAME=1`).
void addDefines(const std::string &text, std::vector<std::string> &out) {
  static const std::regex flag(R"((?:^|[\s;])-D([A-Za-z_]\w*(?:=[^\s;]*)?))");
  static const std::regex bare(R"(^[A-Za-z_]\w*(=[^\s;]*)?$)");
  static const std::set<std::string> keywords = {"PRIVATE", "PUBLIC", "INTERFACE"};
  auto add = [&](const std::string &d) {
    if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
  };
  bool any = false;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), flag); it != std::sregex_iterator(); ++it)
    add((*it)[1]), any = true;
  if (any) return;
  std::stringstream words(std::regex_replace(text, std::regex(";"), " "));
  std::string word;
  bool first = true, afterKeyword = false;
  while (words >> word) {
    if (first) { first = false; continue; } // the target
    if (keywords.count(word)) { afterKeyword = true; continue; }
    if (afterKeyword && std::regex_match(word, bare)) add(word);
  }
}

/// The `code=` targets of -gencode flags: sm_100a, compute_120 ...
std::vector<std::string> gencodeTargets(const std::string &flags) {
  static const std::regex code(R"(code=\[?((?:sm|compute)_\d+[af]?)(?:,((?:sm|compute)_\d+[af]?))?)");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(flags.begin(), flags.end(), code); it != std::sregex_iterator(); ++it)
    for (int g : {1, 2})
      if ((*it)[g].matched && std::find(out.begin(), out.end(), (*it)[g].str()) == out.end()) out.push_back((*it)[g]);
  return out;
}

/// The first line of `text` that names `word`.
int lineNaming(const std::string &text, const std::string &word) {
  size_t p = text.find(word);
  return p == std::string::npos ? 0 : 1 + int(std::count(text.begin(), text.begin() + long(p), '\n'));
}

bool isArchFilter(const std::string &name) {
  return name.find("arch") != std::string::npos &&
         (name.find("intersection") != std::string::npos || name.find("filter") != std::string::npos);
}

} // namespace

ArchSetReport evaluateArchSets(const std::string &root, const std::string &targetArchs, const std::string &cudaVersion) {
  ArchSetReport report;
  fs::path lists = fs::path(root) / "CMakeLists.txt";
  report.cmakeLists = lists.string();
  report.buildArchs = targetArchs;
  if (!fs::exists(lists)) {
    report.errors.push_back(lists.string() + ": not found");
    return report;
  }
  // The engine's own helper functions.
  std::set<std::string> helpers;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(fs::path(root) / "cmake", ec)) {
    if (e.path().extension() != ".cmake") continue;
    for (const auto &c : parseCommands(readText(e.path())))
      if (c.name == "function" || c.name == "macro") {
        auto args = splitArgs(c.args);
        if (!args.empty() && isArchFilter(args[0])) {
          helpers.insert(args[0]);
          if (std::find(report.helperFiles.begin(), report.helperFiles.end(), e.path().string()) ==
              report.helperFiles.end())
            report.helperFiles.push_back(e.path().string());
        }
      }
  }
  std::string listsText = readText(lists);
  if (helpers.empty() && listsText.find("gencode") == std::string::npos) {
    report.errors.push_back("no arch-filter helper (a CMake function named like *arch*intersection*) in " + root +
                            "/cmake and no -gencode flags in " + lists.string());
    return report;
  }
  // Replay set/list, the helpers and if/elseif/else/endif; conditions other
  // than on the CUDA compiler version are taken as true for if, false for
  // elseif (their else branches are reported as not evaluated).
  std::ostringstream script;
  script << "cmake_minimum_required(VERSION 3.20)\n";
  for (const auto &h : report.helperFiles) script << "include(\"" << h << "\")\n";
  script << "set(CMAKE_CUDA_COMPILER_VERSION " << cudaVersion << ")\nset(CUDA_VERSION " << cudaVersion
         << ")\nset(CUDA_ARCHS \"" << targetArchs << "\")\n";
  std::vector<std::string> branch;
  std::vector<bool> decided, versionChain;
  int skipDepth = 0; // inside function/macro/foreach bodies of CMakeLists
  for (const auto &c : parseCommands(listsText)) {
    if (c.name == "function" || c.name == "macro" || c.name == "foreach" || c.name == "while") { ++skipDepth; continue; }
    if (c.name == "endfunction" || c.name == "endmacro" || c.name == "endforeach" || c.name == "endwhile") { --skipDepth; continue; }
    if (skipDepth > 0) continue;
    bool versionTest = c.args.find("CMAKE_CUDA_COMPILER_VERSION") != std::string::npos;
    // decided[level]: whether the branch being read is decided by CMake (a
    // version test) or assumed (the if-branch of another condition); the
    // else branches of an assumed condition are not.
    if (c.name == "if") {
      script << "if(" << (versionTest ? c.args : "TRUE") << ")\n";
      branch.push_back("if(" + c.args + ")");
      decided.push_back(true);
      versionChain.push_back(versionTest);
    } else if (c.name == "elseif") {
      script << "elseif(" << (versionTest ? c.args : "FALSE") << ")\n";
      if (!branch.empty()) {
        branch.back() = "elseif(" + c.args + ")";
        versionChain.back() = versionChain.back() && versionTest;
        decided.back() = versionChain.back();
      }
    } else if (c.name == "else") {
      if (!decided.empty()) decided.back() = versionChain.back();
      script << "else()\n";
      if (!branch.empty()) branch.back() = "else() of " + branch.back();
    } else if (c.name == "endif") {
      script << "endif()\n";
      if (!branch.empty()) branch.pop_back(), decided.pop_back(), versionChain.pop_back();
    } else if (c.name == "set" || c.name == "list") {
      script << c.name << "(" << c.args << ")\n";
    } else if (c.name == "target_compile_definitions") {
      // target, then PRIVATE/PUBLIC/INTERFACE and the definitions
      script << "message(\"ARCHSCOPE_DEFINES|" << c.args << "\")\n";
    } else if (isSourceArchSetter(c.name)) {
      auto args = splitArgs(c.args);
      std::string srcs = keywordArg(args, "SRCS"), archs = keywordArg(args, "CUDA_ARCHS");
      if (srcs.empty() || archs.empty()) continue;
      std::string where;
      for (const auto &b : branch) where += (where.empty() ? "" : " > ") + b;
      report.sources.push_back({c.line, "", "", where});
      script << "message(\"ARCHSCOPE_GENCODE|" << c.line << "|\" " << srcs << " \"|\" " << archs << ")\n";
    } else if (helpers.count(c.name)) {
      auto args = splitArgs(c.args);
      if (args.size() < 3) continue;
      ArchSetCall call;
      call.line = c.line;
      call.function = c.name;
      call.out = args[0];
      std::string where;
      for (const auto &b : branch) where += (where.empty() ? "" : " > ") + b;
      call.branch = where;
      call.decidable = std::all_of(decided.begin(), decided.end(), [](bool d) { return d; });
      call.evaluated = false; // until cmake prints its result
      report.calls.push_back(call);
      script << "message(\"ARCHSCOPE_SRC|" << c.line << "|\" " << args[1] << ")\n";
      script << c.name << "(" << c.args << ")\n";
      script << "message(\"ARCHSCOPE_OUT|" << c.line << "|${" << args[0] << "}\")\n";
    }
  }
  // Every variable that ends up holding -gencode flags, and every *_FLAGS
  // variable holding -D definitions, as CMake built them.
  script << "get_cmake_property(_archscope_vars VARIABLES)\nforeach(_v ${_archscope_vars})\n"
            "  if(\"${${_v}}\" MATCHES \"gencode\")\n    message(\"ARCHSCOPE_FLAGS|${_v}|${${_v}}\")\n  endif()\n"
            "  if(_v MATCHES \"FLAGS$\" AND \"${${_v}}\" MATCHES \"-D\")\n"
            "    message(\"ARCHSCOPE_DEFINES|${${_v}}\")\n  endif()\n"
            "endforeach()\n";
  // Run the engine's CMake logic.
  llvm::SmallString<128> scriptPath, outPath;
  llvm::sys::fs::createTemporaryFile("archscope-archs", "cmake", scriptPath);
  llvm::sys::fs::createTemporaryFile("archscope-archs", "out", outPath);
  std::ofstream(scriptPath.str().str()) << script.str();
  auto cmake = llvm::sys::findProgramByName("cmake");
  if (!cmake) {
    report.errors.push_back("cmake is not on PATH: the arch sets cannot be evaluated");
    return report;
  }
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(outPath), llvm::StringRef(outPath)};
  std::string err;
  int rc = llvm::sys::ExecuteAndWait(*cmake, {*cmake, "-P", scriptPath.str()}, std::nullopt, redirects, 60, 0, &err);
  std::string output = readText(outPath.str().str());
  llvm::sys::fs::remove(scriptPath);
  llvm::sys::fs::remove(outPath);
  if (rc != 0) { // name the file and keep CMake's own error, not archscope's markers
    std::string cmakeError;
    std::istringstream in(output);
    for (std::string l; std::getline(in, l);)
      if (l.find("ARCHSCOPE_") == std::string::npos && !l.empty() && cmakeError.size() < 300)
        cmakeError += (cmakeError.empty() ? "" : " | ") + l;
    report.errors.push_back(lists.string() + ": its arch filters failed in cmake -P (exit " + std::to_string(rc) +
                            "): " + cmakeError + err);
  }
  auto gpus = parseArchList(targetArchs);
  std::vector<ComputeCapability> ccs;
  for (const auto &t : gpus) ccs.push_back(t.cc);
  std::istringstream lines(output);
  std::string l;
  static const std::regex re(R"(ARCHSCOPE_(SRC|OUT)\|(\d+)\|(.*))");
  static const std::regex gencode(R"(ARCHSCOPE_GENCODE\|(\d+)\|(.*)\|([^|]*))");
  std::vector<SourceArchs> sources;
  while (std::getline(lines, l)) {
    std::smatch m;
    static const std::regex flags(R"(ARCHSCOPE_FLAGS\|(\w+)\|(.*))");
    if (l.rfind("ARCHSCOPE_DEFINES|", 0) == 0) {
      addDefines(l.substr(18), report.defines);
      continue;
    }
    if (std::regex_search(l, m, flags)) {
      report.gencodeLists.push_back({m[1], lineNaming(listsText, m[1]), gencodeTargets(m[2])});
      continue;
    }
    if (std::regex_search(l, m, gencode)) { // one record per source of the call
      int line = std::stoi(m[1]);
      std::string branchText;
      for (const auto &s : report.sources)
        if (s.line == line) branchText = s.branch;
      std::stringstream files(m[2].str());
      for (std::string f; std::getline(files, f, ';');)
        if (!f.empty()) sources.push_back({line, (fs::path(root) / f).lexically_normal().string(), m[3], branchText});
      continue;
    }
    if (!std::regex_search(l, m, re)) continue;
    int line = std::stoi(m[2]);
    for (auto &call : report.calls) {
      if (call.line != line) continue;
      if (m[1] == "SRC") call.requested = m[3];
      else {
        call.result = m[3];
        call.evaluated = true;
        call.dropped = droppedGpus(call.requested, call.result, ccs);
      }
    }
  }
  report.sources = std::move(sources); // only the calls cmake reached
  return report;
}

} // namespace archscope::build
