//===--- Commands.cpp - audit and explain -----------------------------------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/Commands.h"

#include "model/Errors.h"
#include "tool/Audit.h"
#include "tool/Diff.h"
#include "tool/Docs.h"
#include "tool/Archs.h"
#include "tool/Guards.h"
#include "tool/Lint.h"
#include "tool/Validate.h"
#include "tool/output/Emitters.h"

#include <chrono>
#include <fstream>
#include <iostream>
#include <sstream>

namespace archscope {
namespace {

void writeOutput(const Options &opts, const std::string &text) {
  if (opts.output.empty()) {
    // A report that never arrived must not exit as if it had (CI reads the code).
    if (!(std::cout << text << std::flush))
      throw ArchscopeError(ExitInput, "cannot write to standard output", "check the disk or pipe it goes to");
    return;
  }
  std::ofstream out(opts.output, std::ios::binary);
  if (!out || !(out << text))
    throw ArchscopeError(ExitInput, "cannot write '" + opts.output + "'", "check the folder exists and is writable");
}

void printWarnings(const Options &opts, const Matrix &m) {
  if (opts.quiet) return;
  size_t shown = 0;
  for (const auto &w : m.warnings) {
    if (shown++ == 8) {
      std::cerr << "archscope: warning: ... and " << m.warnings.size() - 8 << " more (see --format json)\n";
      break;
    }
    std::cerr << "archscope: warning: " << w << "\n";
  }
}

int audit(const Options &opts) {
  auto start = std::chrono::steady_clock::now();
  AuditResult r = runAudit(opts);
  printWarnings(opts, r.matrix);
  std::ostringstream out;
  if (opts.format == "json") emitJson(r.matrix, out);
  else if (opts.format == "yaml") emitYaml(r.matrix, out);
  else if (opts.format == "markdown") emitMarkdown(r.matrix, out);
  else emitText(r.matrix, out, opts.color);
  writeOutput(opts, out.str());
  if (!opts.quiet && opts.format == "text") {
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "archscope: profile " << r.profileId << ", " << r.filesListed << " Python files listed, "
              << (r.fromCache ? std::string("unchanged: facts from the cache")
                              : std::to_string(r.modulesParsed) + " parsed")
              << ", " << std::fixed;
    std::cerr.precision(2);
    std::cerr << s << " s\n";
  }
  return ExitClean;
}

int explain(const Options &optsIn) {
  Options opts = optsIn;
  opts.targets = {opts.explainTarget}; // explain any arch-table target, shown or not
  AuditResult r = runAudit(opts);
  printWarnings(opts, r.matrix);
  auto cc = ComputeCapability::parse(opts.explainTarget);
  if (!cc) throw usageError("bad target '" + opts.explainTarget + "'", "write it as sm_120");
  for (const auto &quant : r.matrix.quants) {
    if (const Cell *c = r.matrix.find(opts.explainBackend, quant, *cc)) {
      std::ostringstream out;
      emitExplain(r.matrix, *c, out, opts.color);
      writeOutput(opts, out.str());
      return ExitClean;
    }
  }
  std::string rows;
  for (const auto &b : r.matrix.backends) rows += (rows.empty() ? "" : ", ") + b;
  throw usageError("no cell for backend '" + opts.explainBackend + "' on " + opts.explainTarget,
                   "backends: " + rows + "; targets as in the audit table (--targets)");
}

} // namespace

int runCommand(const Options &opts) {
  if (opts.command == "explain") return explain(opts);
  if (opts.command == "docs") return runDocs(opts); // -o is its folder, not a file
  if (opts.command == "diff") {
    std::ostringstream out;
    int code = runDiff(opts, out);
    writeOutput(opts, out.str());
    return code;
  }
  if (opts.command == "guards" || opts.command == "archs" || opts.command == "lint" || opts.command == "validate") {
    std::ostringstream out;
    int code = opts.command == "guards" ? runGuards(opts, out)
             : opts.command == "archs"  ? runArchs(opts, out)
             : opts.command == "lint"   ? runLint(opts, out)
                                        : runValidate(opts, out);
    writeOutput(opts, out.str());
    return code;
  }
  return audit(opts);
}

} // namespace archscope
