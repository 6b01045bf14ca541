//===--- Html.cpp - the compatibility matrix as one self-contained page ---===//
// SPDX-License-Identifier: Apache-2.0
//
// One HTML file that opens from disk with no server and no network: inline
// CSS, no script, no fonts or images to fetch (a Content-Security-Policy
// forbids them), system fonts. Each matrix cell links to its evidence on the
// same page; :target highlights the section a reader jumped to; the print
// stylesheet keeps the colours and keeps each section on one page.
//===----------------------------------------------------------------------===//
#include "tool/docs/DocPages.h"

#include "tool/output/Emitters.h"

#include <cctype>
#include <map>

namespace archscope::docs {
namespace {

const char *kStyle = R"css(
:root { --ok:#1a7f37; --ok-bg:#dafbe1; --rej:#57606a; --rej-bg:#eaeef2; --crash:#b3261e; --crash-bg:#ffd7d5;
  --unk:#6f42c1; --unk-bg:#f0e6ff; --unr:#9a6700; --unr-bg:#fff4c2; --line:#d0d7de; --muted:#57606a; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1600px; padding: 24px 32px; color: #1f2328; background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 20px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 0 0 6px; }
code, .loc { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 13px; }
.meta, .muted { color: var(--muted); }
a { color: #0969da; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 5px 9px; text-align: center; white-space: nowrap; }
table.matrix thead th { background: #f6f8fa; position: sticky; top: 0; }
table.matrix tbody th { text-align: left; background: #f6f8fa; }
table.matrix td a { display: block; color: inherit; text-decoration: none; font-weight: 600; }
table.matrix td a:hover { text-decoration: underline; }
table.matrix .sub { display: block; font-size: 12px; }
.v-supported { background: var(--ok-bg); color: var(--ok); }
.v-rejected { background: var(--rej-bg); color: var(--rej); }
.v-crash-risk { background: var(--crash-bg); color: var(--crash); }
.v-unknown { background: var(--unk-bg); color: var(--unk); }
.v-unreachable { background: var(--unr-bg); color: var(--unr); }
tr.auto th, tr.auto td { border-bottom: 3px double var(--line); }
tr.auto td { white-space: normal; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 20px; font-size: 14px; }
ul.legend span { display: inline-block; min-width: 64px; padding: 1px 8px; margin-right: 6px; text-align: center; font-weight: 600; border-radius: 4px; }
.counts { margin: 6px 0 0; }
section.cell { border: 1px solid var(--line); border-left: 6px solid var(--rej); border-radius: 6px; padding: 10px 14px; margin: 10px 0; }
section.cell.v-supported { border-left-color: var(--ok); } section.cell.v-crash-risk { border-left-color: var(--crash); }
section.cell.v-unknown { border-left-color: var(--unk); } section.cell.v-unreachable { border-left-color: var(--unr); }
section.cell { background: #fff; color: inherit; }
section.cell:target { outline: 3px solid #0969da; }
.badge { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 13px; font-weight: 600; vertical-align: 1px; }
table.evidence { width: 100%; margin-top: 6px; font-size: 14px; }
table.evidence td { border-top: 1px solid #eaeef2; padding: 3px 8px; vertical-align: top; }
table.evidence td.layer { color: var(--muted); width: 5em; } table.evidence td.loc { white-space: nowrap; }
table.evidence code { white-space: pre-wrap; word-break: break-word; }
table.rules td, table.rules th { border: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
footer { margin-top: 40px; font-size: 13px; color: var(--muted); }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .scroll { overflow: visible; }
  table.matrix { font-size: 8pt; } table.matrix th, table.matrix td { padding: 2px 4px; white-space: normal; }
  table.matrix thead th { position: static; }
  a { color: inherit; text-decoration: none; }
  h2 { break-after: avoid; } section.cell, table.matrix { break-inside: avoid; }
  section.cell:target { outline: none; }
}
)css";

std::string esc(const std::string &s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    default: out += ch;
    }
  }
  return out;
}

std::string verdictClass(Verdict v) { return "v-" + verdictName(v); }

std::string slug(const std::string &s) {
  std::string out;
  for (char ch : s) out += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' ? ch : '-';
  return out;
}

/// A backend name that may break after its underscores (flashinfer_<wbr>trtllm).
std::string breakable(const std::string &name) {
  std::string out;
  for (char ch : esc(name)) (out += ch) += ch == '_' ? "<wbr>" : "";
  return out;
}

/// The auto row names the backend it picks; the name may wrap and its
/// verdict goes on a second line, so that ten GPU columns fit a screen.
std::string cellLabel(const Cell &c) {
  if (c.picked.empty()) return esc(verdictLabel(c));
  Cell verdictOnly = c;
  verdictOnly.picked.clear();
  bool plainOk = c.verdict == Verdict::Supported && c.conditions.empty();
  return breakable(c.picked) + (plainOk ? "" : "<span class=\"sub\">" + esc(verdictLabel(verdictOnly)) + "</span>");
}

void legend(std::ostream &out) {
  out << "<ul class=\"legend\">"
      << "<li><span class=\"v-supported\">ok</span>the dispatch admits it (no layer below says the kernel is missing)</li>"
      << "<li><span class=\"v-rejected\">rejected</span>a clean error, or never selected</li>"
      << "<li><span class=\"v-crash-risk\">CRASH</span>admitted, but no kernel for that GPU</li>"
      << "<li><span class=\"v-unknown\">?</span>unknown</li>"
      << "<li><span class=\"v-unreachable\">unreach</span>built, never dispatched</li>"
      << "<li><b>*</b> depends on a package, flag or environment variable</li>"
      << "<li><b>auto</b> what the engine picks when the user passes nothing</li></ul>\n";
}

void counts(const Matrix &m, const std::string &quant, std::ostream &out) {
  std::map<Verdict, size_t> n;
  size_t total = 0;
  for (const auto &c : m.cells)
    if (c.quant == quant && c.backend != "auto") ++n[c.verdict], ++total;
  out << "<p class=\"counts muted\">" << total << " backend cells: " << n[Verdict::Supported] << " ok, "
      << n[Verdict::Rejected] << " rejected, " << n[Verdict::CrashRisk] << " CRASH, " << n[Verdict::Unknown]
      << " unknown" << (n[Verdict::Unreachable] ? ", " + std::to_string(n[Verdict::Unreachable]) + " unreachable" : "")
      << ".</p>\n";
}

void matrixTable(const Matrix &m, const std::string &quant, std::ostream &out) {
  out << "<div class=\"scroll\"><table class=\"matrix\" id=\"matrix-" << slug(quant)
      << "\">\n<thead><tr><th scope=\"col\">backend</th>";
  for (auto t : m.targets) out << "<th scope=\"col\">" << t.name() << "</th>";
  out << "</tr></thead>\n<tbody>\n";
  for (const auto &b : m.backends) {
    out << "<tr" << (b == "auto" ? " class=\"auto\"" : "") << "><th scope=\"row\"><a href=\"#backend-" << slug(b)
        << "\">" << esc(b) << "</a></th>";
    for (auto t : m.targets) {
      const Cell *c = m.find(b, quant, t);
      if (!c) { out << "<td>-</td>"; continue; }
      out << "<td class=\"" << verdictClass(c->verdict) << "\" title=\"" << esc(c->reason) << "\"><a href=\"#"
          << htmlCellAnchor(*c) << "\">" << cellLabel(*c) << "</a></td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table></div>\n";
}

void evidenceRows(const Cell &c, std::ostream &out) {
  out << "<table class=\"evidence\">\n";
  for (const auto &e : c.evidence) {
    out << "<tr><td class=\"layer\">" << esc(e.layer) << "</td>";
    if (e.path.empty()) {
      out << "<td colspan=\"3\">" << esc(e.note) << "</td></tr>\n";
      continue;
    }
    std::string loc = e.line > 0 ? e.path + ":" + std::to_string(e.line) : e.path;
    out << "<td class=\"loc\">" << esc(loc) << "</td><td><code>" << esc(e.snippet) << "</code></td><td>" << esc(e.note)
        << "</td></tr>\n";
  }
  for (const auto &k : c.conditions)
    out << "<tr><td class=\"layer\">when</td><td colspan=\"2\"><code>" << esc(k.when) << "</code></td><td>"
        << esc(verdictName(k.verdict)) << "</td></tr>\n";
  out << "</table>\n";
}

void cellSection(const Cell &c, std::ostream &out) {
  out << "<section class=\"cell " << verdictClass(c.verdict) << "\" id=\"" << htmlCellAnchor(c) << "\">\n<h3>"
      << esc(c.backend) << " on " << c.target.name() << " <span class=\"muted\">(CC " << c.target.dotted() << ", "
      << esc(c.quant) << ")</span> <span class=\"badge " << verdictClass(c.verdict) << "\">"
      << esc(verdictName(c.verdict)) << "</span></h3>\n<p>";
  if (!c.lacking.empty()) out << "The " << esc(c.lacking) << " layer has no kernel. ";
  out << esc(c.reason) << "</p>\n";
  evidenceRows(c, out);
  out << "</section>\n";
}

void backendSections(const Matrix &m, std::ostream &out) {
  for (const auto &b : m.backends) {
    out << "<h2 id=\"backend-" << slug(b) << "\">" << esc(b) << "</h2>\n";
    for (const auto &quant : m.quants)
      for (auto t : m.targets)
        if (const Cell *c = m.find(b, quant, t)) cellSection(*c, out);
  }
}

void rulesSection(const DocSet &d, std::ostream &out) {
  out << "<h2 id=\"rules\">Rules</h2>\n<table class=\"rules\"><thead><tr><th>rule</th><th>severity</th>"
      << "<th>what it catches</th>" << (d.linted ? "<th>findings now</th>" : "") << "</tr></thead><tbody>\n";
  for (const auto &r : d.rules) {
    out << "<tr><td><code>" << esc(r.info.id) << "</code></td><td>" << severityName(r.info.severity) << "</td><td>"
        << esc(r.info.summary) << "</td>";
    if (d.linted) {
      out << "<td>";
      for (const auto &f : r.findings)
        out << "<div><span class=\"loc\">" << esc(f.primary.path + ":" + std::to_string(f.primary.line))
            << "</span> " << esc(f.message) << "</div>";
      out << (r.findings.empty() ? "none" : "") << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table>\n";
  if (!d.linted) out << "<p class=\"muted\">Current findings: <code>archscope docs --lint</code> or <code>archscope lint</code>.</p>\n";
}

} // namespace

std::string htmlCellAnchor(const Cell &c) { return "c-" + slug(c.quant) + "-" + slug(c.backend) + "-" + c.target.name(); }

void writeHtml(const DocSet &d, std::ostream &out) {
  const Matrix &m = *d.matrix;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<title>MoE backend compatibility by GPU</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n"
      << "<header><h1>MoE backend compatibility by GPU</h1>\n<p class=\"meta\">" << esc(treesLine(m)) << "; CUDA "
      << esc(m.toolkit) << " assumed. Each cell links to the source lines that decide it.</p></header>\n<main>\n";
  for (const auto &quant : m.quants) {
    out << "<h2 id=\"quant-" << slug(quant) << "\">" << esc(quant) << "</h2>\n";
    matrixTable(m, quant, out);
    counts(m, quant, out);
  }
  legend(out);
  backendSections(m, out);
  rulesSection(d, out);
  out << "</main>\n<footer>Generated by " << esc(d.generated)
      << ". Regenerate with <code>archscope docs PATH -o DIR</code>.</footer>\n</body>\n</html>\n";
}

} // namespace archscope::docs
