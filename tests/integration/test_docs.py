#!/usr/bin/env python3
"""`archscope docs [PATH] -o DIR`: the Markdown pages and the HTML file's
self-containment (the browser test renders it)."""
import html.parser
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY = None


def run(*args):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=300)


class Anchors(html.parser.HTMLParser):
    """Every id, every same-page link, and anything that would reach out."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.external, self.scripts = set(), [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "script":
            self.scripts += 1
        if tag == "link" and "stylesheet" in (a.get("rel") or ""):
            self.external.append(a.get("href"))
        for key in ("src", "href"):
            value = a.get(key) or ""
            if value.startswith("#"):
                self.links.append(value[1:])
            elif value:
                self.external.append(value)


class Docs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        cls.out = cls.tmp / "site"
        r = run("docs", "-o", str(cls.out), "--lint")
        assert r.returncode == 0, r.stderr
        cls.rules = [line.split()[0] for line in run("lint", "--list-rules").stdout.splitlines() if line.strip()]

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_index_links_every_cell_to_its_evidence(self):
        index = (self.out / "index.md").read_text()
        self.assertIn("## nvfp4", index)
        self.assertIn("| backend | sm_80 |", index)
        self.assertIn("[CRASH](backends/gen_cubins.md#nvfp4-on-sm_120)", index)
        for page, anchor in re.findall(r"\]\((backends/[^)#]+)#([^)]+)\)", index):
            text = (self.out / page).read_text()
            heading = anchor.replace("-on-", " on ", 1)
            self.assertIn("### " + heading + "\n", text, (page, anchor))

    def test_backend_page_has_verdict_reason_and_evidence(self):
        page = (self.out / "backends" / "gen_cubins.md").read_text()
        self.assertTrue(page.startswith("# `gen_cubins`"))
        section = page[page.index("### nvfp4 on sm_120"):]
        self.assertIn("**crash-risk**", section)
        self.assertIn("`supported_compute_capability([100, 103])`", section)
        self.assertRegex(section, r"`tiny-kernels/tiny_kernels/[\w/]+\.py:\d+`")  # a dependency: its folder first
        self.assertIn("### nvfp4 on sm_100", page)
        self.assertTrue((self.out / "backends" / "auto.md").exists())

    def test_one_page_per_rule_with_its_findings(self):
        self.assertTrue(self.rules)
        for rule in self.rules:
            text = (self.out / "rules" / f"{rule}.md").read_text()
            self.assertTrue(text.startswith(f"# {rule}"), rule)
            self.assertIn("## Findings in the audited tree", text)
        allow = (self.out / "rules" / "allowlist-not-enforced.md").read_text()
        self.assertRegex(allow, r"- `tiny-kernels/tiny_kernels/[\w/]+\.py:\d+` \((error|warning|note)\): ")
        self.assertIn("`supported_compute_capability([100, 103])`", allow)  # code in a message stays verbatim

    def test_html_is_one_self_contained_page(self):
        text = (self.out / "index.html").read_text()
        parser = Anchors()
        parser.feed(text)
        self.assertEqual(parser.external, [], "no file, font, style or script is fetched")
        self.assertEqual(parser.scripts, 0)
        self.assertIn("Content-Security-Policy", text)
        self.assertNotRegex(text, r"url\(|@import|https?://")
        self.assertIn("@media print", text)
        missing = [link for link in parser.links if link not in parser.ids]
        self.assertEqual(missing, [], "every cell links to an evidence section on the page")
        self.assertIn('class="v-crash-risk"', text)
        self.assertGreaterEqual(len(parser.links), 6 * 10)

    def test_no_lint_says_how_to_get_findings_and_errors_exit_non_zero(self):
        out = self.tmp / "plain"
        r = run("docs", "-o", str(out), "-q")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertIn("archscope docs --lint", (out / "rules" / "cmake-arch-drop.md").read_text())
        r = run("docs")
        self.assertEqual(r.returncode, 2)
        self.assertIn("docs needs -o DIR", r.stderr)
        blocker = self.tmp / "a-file"
        blocker.write_text("x")
        r = run("docs", "-o", str(blocker), "-q")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("cannot create the folder", r.stderr)
        r = run("docs", str(self.tmp / "nope"), "-o", str(out))
        self.assertEqual(r.returncode, 3)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
