//===--- Options.h - command-line options of every subcommand -----------===//
// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace archscope {

struct Options {
  std::string command;              ///< audit | explain
  std::string path;                 ///< engine tree ("" = bundled example)
  std::vector<std::string> with;    ///< dependency trees
  std::string format = "text";      ///< text | json | yaml | markdown
  std::string output;               ///< -o FILE ("" = stdout)
  std::vector<std::string> targets; ///< sm_90,sm_120 ("" = arch table, CC >= 8.0)
  std::string quant;                ///< quant format ("" = the profile's first)
  std::string profile;              ///< profile YAML ("" = detect)
  bool noProfile = false;           ///< no profile at all: generic inference only
  std::string cuda;                 ///< assumed toolkit ("" = arch table default)
  std::string dataDir;              ///< arch table and profiles
  std::string explainBackend, explainTarget;
  std::vector<std::string> paths;   ///< guards: files or folders
  bool color = false;
  bool quiet = false;
  bool noCache = false;
  bool preprocessOnly = false;
  std::string minSeverity;             ///< lint: report/fail threshold ("" = config, else warning)
  std::vector<std::pair<std::string, std::string>> ruleSeverity; ///< lint: rule id -> error|warning|note|off
  bool listRules = false;
  std::string configFile;              ///< lint: --config FILE ("" = find .archscope.yaml)
  bool dumpConfig = false;             ///< lint: print the effective configuration
  std::string baseline;                ///< lint: hide the findings of this baseline
  std::string writeBaseline;           ///< lint: write the findings as a baseline
  std::string diffBase;                ///< lint: only findings new since this git revision
  bool isaOnly = false;                ///< validate: only the ISA verdict matrix
  std::vector<std::string> mergeFiles; ///< validate: results files of other machines
  std::string resultsFile;             ///< validate: write the merged results here
  std::string revA, revB;              ///< diff: the two git revisions
  bool failOnRegression = false;       ///< diff: exit 1 when a supported cell becomes crash-risk/rejected
  bool docsLint = false;               ///< docs: run lint too and list each rule's findings
  std::string cudaArchs;            ///< archs: the build's arch list (TORCH_CUDA_ARCH_LIST style) ///< guards: the speed baseline, nothing recorded
};

/// Parses argv; throws a usage error with the reason. Returns false when
/// help or version was printed.
bool parseOptions(int argc, char **argv, Options &opts);

} // namespace archscope
