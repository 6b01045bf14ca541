//===--- Config.cpp - `.archscope.yaml`: lint settings of a project -------===//
// SPDX-License-Identifier: Apache-2.0
#include "tool/lint/Config.h"

#include "model/Errors.h"
#include "model/Finding.h"
#include "model/YamlUtil.h"
#include "model/checks/Rule.h"

#include <filesystem>

namespace fs = std::filesystem;

namespace archscope::lint {
namespace {

constexpr const char *kConfigName = ".archscope.yaml";
constexpr const char *kLevels = "error, warning, note or off";

/// Configuration mistakes are usage errors (exit 2); YAML syntax stays an
/// input error (exit 3), as for every other YAML file archscope reads.
ArchscopeError configError(std::string msg, std::string hint = {}) {
  return ArchscopeError(ExitUsage, std::move(msg), std::move(hint));
}

bool isLevel(const std::string &s) { return s == "off" || parseSeverity(s).has_value(); }

std::string scalar(const std::string &file, const YAML::Node &node, const char *what) {
  if (!node.IsScalar()) throw configError(yaml::where(file, node) + ": '" + what + "' must be a single value");
  return node.as<std::string>();
}

void readRules(const std::string &file, const YAML::Node &rules, LintConfig &out) {
  if (rules.IsNull()) return;
  if (!rules.IsMap())
    throw configError(yaml::where(file, rules) + ": 'rules' must map rule ids to levels", "e.g. cmake-arch-drop: error");
  for (const auto &kv : rules) {
    std::string id = scalar(file, kv.first, "rule id");
    if (!checks::findRule(id))
      throw configError(yaml::where(file, kv.first) + ": unknown rule '" + id + "'",
                        "archscope lint --list-rules lists them");
    std::string level = scalar(file, kv.second, "level");
    if (!isLevel(level))
      throw configError(yaml::where(file, kv.second) + ": bad level '" + level + "' for " + id,
                        std::string("use ") + kLevels);
    out.rules[id] = level;
  }
}

} // namespace

std::optional<std::string> findConfigFile(const std::string &start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec).lexically_normal();
  if (fs::is_regular_file(dir, ec)) dir = dir.parent_path();
  for (;; dir = dir.parent_path()) {
    if (fs::is_regular_file(dir / kConfigName, ec)) return (dir / kConfigName).string();
    // A project's settings stop at its repository: a config of an enclosing
    // folder belongs to someone else.
    if (fs::exists(dir / ".git", ec) || dir.parent_path() == dir) return std::nullopt;
  }
}

LintConfig loadConfig(const std::string &file) {
  LintConfig out;
  out.file = file;
  YAML::Node doc = yaml::loadFile(file);
  if (doc.IsNull()) return out;
  if (!doc.IsMap()) throw configError(yaml::where(file, doc) + ": expected a mapping of settings");
  for (const auto &kv : doc) {
    std::string key = scalar(file, kv.first, "key");
    if (key == "min-severity") {
      out.minSeverity = scalar(file, kv.second, "min-severity");
      if (!parseSeverity(out.minSeverity))
        throw configError(yaml::where(file, kv.second) + ": bad min-severity '" + out.minSeverity + "'",
                          "use note, warning or error");
    } else if (key == "baseline") {
      fs::path p = scalar(file, kv.second, "baseline");
      out.baseline = (p.is_absolute() ? p : fs::path(file).parent_path() / p).lexically_normal().string();
    } else if (key == "rules") {
      readRules(file, kv.second, out);
    } else {
      throw configError(yaml::where(file, kv.first) + ": unknown key '" + key + "'",
                        "known keys: min-severity, baseline, rules");
    }
  }
  return out;
}

LintConfig effectiveConfig(const Options &opts) {
  LintConfig config;
  if (!opts.configFile.empty()) config = loadConfig(opts.configFile);
  else if (auto found = findConfigFile(opts.path.empty() ? "." : opts.path)) config = loadConfig(*found);
  if (!opts.minSeverity.empty()) {
    if (!parseSeverity(opts.minSeverity))
      throw usageError("bad --min-severity '" + opts.minSeverity + "'", "use note, warning or error");
    config.minSeverity = opts.minSeverity;
  }
  for (const auto &[id, level] : opts.ruleSeverity) {
    if (!checks::findRule(id)) throw usageError("unknown rule '" + id + "'", "archscope lint --list-rules shows them");
    config.rules[id] = level;
  }
  if (!opts.baseline.empty()) config.baseline = opts.baseline;
  return config;
}

void dumpConfig(const LintConfig &config, std::ostream &out) {
  out << "# effective archscope lint configuration: "
      << (config.file.empty() ? std::string("no .archscope.yaml found") : config.file) << ", then flags\n";
  out << "min-severity: " << config.minSeverity << "\n";
  if (!config.baseline.empty()) out << "baseline: " << config.baseline << "\n";
  out << "rules:\n";
  for (const auto &r : checks::allRules()) {
    auto it = config.rules.find(r->info().id);
    out << "  " << r->info().id << ": " << (it != config.rules.end() ? it->second : severityName(r->info().severity))
        << "\n";
  }
}

} // namespace archscope::lint
