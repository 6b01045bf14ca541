//===--- Sarif.cpp - lint findings as SARIF 2.1.0 for code scanning ------===//
// SPDX-License-Identifier: Apache-2.0
//
// One run. Paths inside the source root are relative URIs on %SRCROOT%
// (originalUriBaseIds gives its absolute file URI), so GitHub maps them onto
// the checkout; others are absolute file URIs. Each finding's evidence chain
// becomes relatedLocations, its fingerprint partialFingerprints (also as
// primaryLocationLineHash, so code scanning tracks alerts by it instead of
// computing one from line contents). The run's own warnings are
// toolExecutionNotifications: they concern archscope's input, not the code,
// and never fail a run. GitHub's published limits are kept, and a
// notification says what was cut.
//===----------------------------------------------------------------------===//
#include "tool/output/FindingEmitters.h"

#include "tool/lint/Fingerprint.h"

#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string_view>

#ifndef ARCHSCOPE_VERSION
#define ARCHSCOPE_VERSION "0.1.0"
#endif
#ifndef ARCHSCOPE_REPOSITORY_URL
#define ARCHSCOPE_REPOSITORY_URL "https://github.com/archscope/archscope"
#endif

namespace archscope {
namespace {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

// docs.github.com, "SARIF support for code scanning": upload limits.
constexpr size_t kMaxResultsPerRun = 25000;
constexpr size_t kMaxLocationsPerResult = 1000; // the primary one included
constexpr const char *kSourceRoot = "%SRCROOT%";
constexpr const char *kInputWarning = "input-warning";
constexpr const char *kTruncated = "results-truncated";

/// Percent-encodes what a URI path may not hold as is (RFC 3986).
std::string uriPath(const std::string &path) {
  static const char *hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string_view("-._~/").find(c) != std::string_view::npos) out += static_cast<char>(c);
    else out += std::string("%") + hex[c >> 4] + hex[c & 15];
  }
  return out;
}

class SarifWriter {
public:
  explicit SarifWriter(const LintReport &r) : report_(r) {
    for (size_t i = 0; i < r.rules.size(); ++i) ruleIndex_[r.rules[i].id] = static_cast<int64_t>(i);
  }

  Value document() const {
    Object run{{"tool", Object{{"driver", driver()}}},
               {"originalUriBaseIds",
                Object{{kSourceRoot, Object{{"uri", "file://" + uriPath(report_.sourceRoot + "/")}}}}},
               {"results", results()},
               {"invocations", Array{Object{{"executionSuccessful", true},
                                            {"toolExecutionNotifications", notifications()}}}}};
    return Object{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                  {"version", "2.1.0"},
                  {"runs", Array{std::move(run)}}};
  }

private:
  Object driver() const {
    Array rules, descriptors;
    for (const auto &r : report_.rules) rules.push_back(rule(r));
    for (const char *id : {kUnusedSuppression, kUnknownSuppressionRule, kInputWarning, kTruncated})
      descriptors.push_back(Object{{"id", id}, {"shortDescription", Object{{"text", descriptorText(id)}}}});
    return Object{{"name", "archscope"},
                  {"version", ARCHSCOPE_VERSION},
                  {"semanticVersion", ARCHSCOPE_VERSION},
                  {"informationUri", ARCHSCOPE_REPOSITORY_URL},
                  {"rules", std::move(rules)},
                  {"notifications", std::move(descriptors)}};
  }

  static std::string descriptorText(const std::string &id) {
    if (id == kUnusedSuppression) return "an archscope: ignore[...] comment suppresses no finding";
    if (id == kUnknownSuppressionRule) return "an archscope: ignore[...] comment names no rule or an unknown one";
    if (id == kInputWarning) return "part of the input could not be read; the rest was analyzed";
    return "results or locations were left out to stay within GitHub code scanning's limits";
  }

  Object rule(const checks::RuleInfo &r) const {
    std::string help = "docs/rules/" + r.id + ".md";
    std::string url = std::string(ARCHSCOPE_REPOSITORY_URL) + "/blob/main/" + help;
    bool off = report_.offRules.count(r.id);
    return Object{{"id", r.id},
                  {"name", r.id},
                  {"shortDescription", Object{{"text", r.summary}}},
                  {"fullDescription", Object{{"text", r.summary + ". Catches: " + r.bugClass + "."}}},
                  {"helpUri", url},
                  {"help", Object{{"text", r.summary + ". See " + help + " in the archscope repository."},
                                  {"markdown", r.summary + ". See [" + help + "](" + url + ")."}}},
                  {"defaultConfiguration", Object{{"level", severityName(r.severity)}, {"enabled", !off}}},
                  {"properties", Object{{"tags", Array{"gpu-compatibility"}}}}};
  }

  Object artifact(const std::string &path) const {
    std::string rel = lint::portablePath(path, report_.sourceRoot, {});
    if (!rel.empty() && rel[0] == '/') return Object{{"uri", "file://" + uriPath(rel)}};
    return Object{{"uri", uriPath(rel)}, {"uriBaseId", kSourceRoot}};
  }

  Object physical(const Evidence &e) const {
    Object region;
    if (e.line > 0) region["startLine"] = e.line;
    if (e.line > 0 && e.col > 0) region["startColumn"] = e.col;
    if (!e.snippet.empty()) region["snippet"] = Object{{"text", e.snippet}};
    Object out{{"artifactLocation", artifact(e.path)}};
    if (!region.empty()) out["region"] = std::move(region);
    return out;
  }

  /// The primary location; a finding without one borrows its first located
  /// link, as code scanning shows only located results.
  Array primaryLocation(const Finding &f) const {
    if (!f.primary.path.empty()) return Array{Object{{"physicalLocation", physical(f.primary)}}};
    for (const auto &e : f.related)
      if (!e.path.empty()) return Array{Object{{"physicalLocation", physical(e)}}};
    return Array{};
  }

  Value result(size_t i) const {
    const Finding &f = report_.findings[i];
    Array related;
    size_t located = 0, cut = 0;
    for (const auto &e : f.related) {
      if (e.path.empty()) continue;
      if (++located >= kMaxLocationsPerResult) { ++cut; continue; }
      std::string note = !e.note.empty() ? e.note : !e.layer.empty() ? e.layer : "evidence";
      related.push_back(Object{{"id", static_cast<int64_t>(located)},
                               {"physicalLocation", physical(e)},
                               {"message", Object{{"text", note}}}});
    }
    std::string message = f.message;
    if (cut) message += " (" + std::to_string(cut) + " more related locations left out: GitHub's limit)";
    Array targets;
    for (const auto &t : f.targets) targets.push_back(t);
    Object out{{"ruleId", f.rule},
               {"level", severityName(f.severity)},
               {"message", Object{{"text", message}}},
               {"locations", primaryLocation(f)},
               {"relatedLocations", std::move(related)},
               {"partialFingerprints", Object{{"archscope/v1", report_.fingerprints[i]},
                                              {"primaryLocationLineHash", report_.fingerprints[i]}}},
               {"properties", Object{{"backend", f.backend}, {"targets", std::move(targets)}}}};
    if (auto it = ruleIndex_.find(f.rule); it != ruleIndex_.end()) out["ruleIndex"] = it->second;
    return out;
  }

  /// The most severe first when the run holds more than code scanning takes.
  std::vector<size_t> kept() const {
    std::vector<size_t> order(report_.findings.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    if (order.size() <= kMaxResultsPerRun) return order;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return report_.findings[a].severity > report_.findings[b].severity;
    });
    order.resize(kMaxResultsPerRun);
    std::sort(order.begin(), order.end());
    return order;
  }

  Array results() const {
    Array out;
    for (size_t i : kept()) out.push_back(result(i));
    return out;
  }

  Object notification(const char *id, const std::string &level, const std::string &text) const {
    return Object{{"descriptor", Object{{"id", id}}}, {"level", level}, {"message", Object{{"text", text}}}};
  }

  Array notifications() const {
    Array out;
    for (const auto &n : report_.notices) {
      Object note = notification(n.id.c_str(), "warning", n.message);
      note["locations"] = Array{Object{{"physicalLocation", physical(n.where)}}};
      out.push_back(std::move(note));
    }
    for (const auto &w : report_.warnings) out.push_back(notification(kInputWarning, "warning", w));
    if (report_.findings.size() > kMaxResultsPerRun)
      out.push_back(notification(kTruncated, "warning",
                                 std::to_string(report_.findings.size() - kMaxResultsPerRun) +
                                     " results left out, the least severe first: GitHub code scanning accepts " +
                                     std::to_string(kMaxResultsPerRun) + " per run"));
    return out;
  }

  const LintReport &report_;
  std::map<std::string, int64_t> ruleIndex_;
};

} // namespace

Value sarifDocument(const LintReport &report) { return SarifWriter(report).document(); }

void emitLintSarif(const LintReport &report, std::ostream &out) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << llvm::formatv("{0:2}", sarifDocument(report));
  out << os.str() << "\n";
}

} // namespace archscope
