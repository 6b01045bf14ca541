//===--- Options.cpp - GNU-style option parsing -------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Options.h"

#include "model/Errors.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace archscope {
namespace {

const char *kUsage = R"(usage: archscope <command> [options] [PATH]

commands:
  audit [PATH]                  backend x target compatibility matrix of an engine
                                checkout or installed package (no PATH: the
                                bundled example engine)
  explain BACKEND TARGET [PATH] the evidence chain for one cell
  guards PATH...                which #if branches of CUDA/C++ files each compiler
                                target compiles (clang preprocessor, per target;
                                --targets takes build targets: sm_100a,sm_120f)
  lint [PATH]                   findings where the layers disagree (Python dispatch,
                                C++/CUDA per target, CMake arch sets, shipped
                                binaries, kernel ISA families), clang-style
                                text, json or sarif; exit 1 when any finding is at
                                or above --min-severity; inline suppressions
                                (# archscope: ignore[rule-id]), baselines, config
  validate [PATH]               compile each claimed cell's NVFP4 MoE kernel family for
                                its target (nvcc/ptxas: which instruction is missing),
                                merge launch results (--merge FILE from GPU machines:
                                validation/launch_probes.py), upgrade the cells;
                                --isa-only prints the family x target ISA matrix,
                                --results FILE writes what this run proved
  diff REV_A REV_B [PATH]       what a change does to the matrix: PATH (default: the
                                working directory, inside a git checkout) audited at
                                both revisions, cells compared; text, json, or
                                markdown for a pull-request comment;
                                --fail-on-regression exits 1 when a supported cell
                                becomes crash-risk or rejected; REV_A..REV_B is
                                read as REV_A REV_B
  docs [PATH] -o DIR            compatibility pages: DIR/index.md, backends/*.md,
                                rules/*.md and one self-contained DIR/index.html;
                                --lint adds each rule's current findings
  archs PATH                    the arch lists a CMake build gives each kernel, by
                                running the engine's own arch-filter helpers
                                (--cuda-archs "9.0;10.0;12.0;12.1", --cuda 13.0)

options:
  --with DIR            a dependency tree (the kernel library the engine calls);
                        repeatable
  --format FMT          text (default), json, yaml or markdown
  -o, --output FILE     write to FILE instead of standard output
  --targets LIST        GPU columns, e.g. sm_90,sm_100,sm_120 (default: every
                        arch-table GPU from sm_80; 'all' for every row)
  --quant NAME          quant format of the profile (default: its first, nvfp4)
  --profile FILE        engine profile YAML (default: detected from the tree)
  --no-profile          no profile, not even a detected one: everything inferred
                        from the code
  --cuda VERSION        CUDA toolkit assumed for version checks (default 13.0)
  --color, --no-color   force colour on or off (default: on for a terminal)
  -q, --quiet           no progress or warnings on standard error
  --no-cache            re-extract even if the trees are unchanged (the cache
                        lives in $ARCHSCOPE_CACHE_DIR, else ~/.cache/archscope)
  --preprocess-only     guards: run the same clang passes recording nothing
                        (the baseline archscope's guard extraction is timed against)
  --min-severity LEVEL  lint: report and fail on findings at or above LEVEL
                        (note, warning, error; default warning)
  --error=ID, --warning=ID, --note=ID, --off=ID
                        lint: set one rule's severity, or turn it off
  --list-rules          lint: print the rules and exit
  --format sarif        lint: SARIF 2.1.0 for code scanning (docs/lint.md)
  --baseline FILE       lint: hide the findings recorded in FILE
  --write-baseline FILE lint: record the current findings in FILE and exit 0
  --diff-base REV       lint: report only findings the change since git REV adds
  --config FILE         lint: settings file (default: the nearest .archscope.yaml
                        above PATH, up to the top of its git work tree)
  --dump-config         lint: print the effective configuration and exit
  -h, --help            this help
  --version             archscope's version

exit codes: 0 done (lint: no finding at the threshold), 1 lint findings, 2 usage or configuration error, 3 input error, 4 internal error
)";

std::vector<std::string> splitList(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

/// `diff A..B [PATH]` as git spells a range: the same as `diff A B [PATH]`.
/// `A...B` (from their merge base) is refused rather than read as `A..B`.
void splitRevisionRange(std::vector<std::string> &positional) {
  if (positional.empty()) return;
  const std::string arg = positional[0];
  size_t dots = arg.find("..");
  if (dots == std::string::npos) return;
  if (arg.compare(dots, 3, "...") == 0)
    throw usageError("diff takes A..B, not the merge-base range '" + arg + "'",
                     "give the base yourself: archscope diff $(git merge-base A B) B");
  std::string a = arg.substr(0, dots), b = arg.substr(dots + 2);
  if (a.empty() || b.empty())
    throw usageError("diff needs both ends of the range '" + arg + "'",
                     "e.g. archscope diff origin/main..HEAD");
  positional[0] = b;
  positional.insert(positional.begin(), a);
}

} // namespace

bool parseOptions(int argc, char **argv, Options &opts) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> positional;
  opts.color = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i], value;
    bool hasInline = false;
    if (a.rfind("--", 0) == 0 && a.find('=') != std::string::npos) {
      value = a.substr(a.find('=') + 1);
      a = a.substr(0, a.find('='));
      hasInline = true;
    }
    auto next = [&]() -> std::string {
      if (hasInline) return value;
      if (i + 1 >= args.size()) throw usageError("option " + a + " needs a value", "see archscope --help");
      return args[++i];
    };
    if (a == "-h" || a == "--help") { std::cout << kUsage; return false; }
    if (a == "--version") { std::cout << "archscope 0.1.0\n"; return false; }
    if (a == "--with") opts.with.push_back(next());
    else if (a == "--format") opts.format = next();
    else if (a == "-o" || a == "--output") opts.output = next();
    else if (a == "--targets") opts.targets = splitList(next());
    else if (a == "--quant") opts.quant = next();
    else if (a == "--profile") opts.profile = next();
    else if (a == "--no-profile") opts.noProfile = true;
    else if (a == "--cuda") opts.cuda = next();
    else if (a == "--data-dir") opts.dataDir = next();
    else if (a == "--color") opts.color = true;
    else if (a == "--no-color") opts.color = false;
    else if (a == "-q" || a == "--quiet") opts.quiet = true;
    else if (a == "--no-cache") opts.noCache = true;
    else if (a == "--preprocess-only") opts.preprocessOnly = true;
    else if (a == "--cuda-archs") opts.cudaArchs = next();
    else if (a == "--min-severity") opts.minSeverity = next();
    else if (a == "--error" || a == "--warning" || a == "--note" || a == "--off")
      opts.ruleSeverity.emplace_back(next(), a.substr(2));
    else if (a == "--list-rules") opts.listRules = true;
    else if (a == "--baseline") opts.baseline = next();
    else if (a == "--write-baseline") opts.writeBaseline = next();
    else if (a == "--diff-base") opts.diffBase = next();
    else if (a == "--config") opts.configFile = next();
    else if (a == "--dump-config") opts.dumpConfig = true;
    else if (a == "--isa-only") opts.isaOnly = true;
    else if (a == "--merge") opts.mergeFiles.push_back(next());
    else if (a == "--results") opts.resultsFile = next();
    else if (a == "--fail-on-regression") opts.failOnRegression = true;
    else if (a == "--lint") opts.docsLint = true;
    else if (a.size() > 1 && a[0] == '-') throw usageError("unknown option '" + a + "'", "see archscope --help");
    else positional.push_back(a);
  }
  if (positional.empty()) { std::cerr << kUsage; throw usageError("no command given", "try: archscope audit"); }
  opts.command = positional[0];
  positional.erase(positional.begin());
  if (opts.command == "audit" || opts.command == "lint" || opts.command == "validate") {
    if (positional.size() > 1)
      throw usageError(opts.command + " takes one PATH, got " + std::to_string(positional.size()));
    if (!positional.empty()) opts.path = positional[0];
  } else if (opts.command == "explain") {
    if (positional.size() < 2 || positional.size() > 3)
      throw usageError("explain needs BACKEND TARGET [PATH]", "e.g. archscope explain flashinfer_trtllm sm_120");
    opts.explainBackend = positional[0];
    opts.explainTarget = positional[1];
    if (positional.size() == 3) opts.path = positional[2];
  } else if (opts.command == "diff") {
    splitRevisionRange(positional);
    if (positional.size() < 2 || positional.size() > 3)
      throw usageError("diff needs REV_A REV_B [PATH]", "e.g. archscope diff origin/main HEAD python/");
    opts.revA = positional[0];
    opts.revB = positional[1];
    if (positional.size() == 3) opts.path = positional[2];
    if (opts.format != "text" && opts.format != "json" && opts.format != "markdown")
      throw usageError("diff writes text, json or markdown, not '" + opts.format + "'");
  } else if (opts.command == "docs") {
    if (positional.size() > 1) throw usageError("docs takes one PATH, got " + std::to_string(positional.size()));
    if (!positional.empty()) opts.path = positional[0];
    if (opts.output.empty())
      throw usageError("docs needs -o DIR, the folder to write the pages into", "e.g. archscope docs ~/src/sglang -o compat");
  } else if (opts.command == "archs") {
    if (positional.size() != 1) throw usageError("archs needs one CMake project folder", "e.g. archscope archs ~/src/vllm");
    opts.paths = positional;
  } else if (opts.command == "guards") {
    if (positional.empty()) throw usageError("guards needs at least one file or folder", "e.g. archscope guards csrc/");
    opts.paths = positional;
  } else {
    throw usageError("unknown command '" + opts.command + "'", "commands: audit, explain, lint, diff, docs, validate, guards, archs (see --help)");
  }
  static const std::vector<std::string> formats = {"text", "json", "yaml", "markdown"};
  bool lintSarif = opts.command == "lint" && opts.format == "sarif"; // SARIF is lint's alone
  if (!lintSarif &&
      (opts.command == "guards" || opts.command == "archs" || opts.command == "lint" || opts.command == "validate") &&
      opts.format != "text" &&
      opts.format != "json")
    throw usageError(opts.command + " writes " + (opts.command == "lint" ? "text, json or sarif" : "text or json") +
                     ", not '" + opts.format + "'");
  if (!lintSarif && std::find(formats.begin(), formats.end(), opts.format) == formats.end())
    throw usageError("unknown format '" + opts.format + "'", "use text, json, yaml or markdown");
  if (!opts.output.empty()) opts.color = false;
  if (opts.noProfile && !opts.profile.empty())
    throw usageError("--profile and --no-profile exclude each other");
  return true;
}

} // namespace archscope
