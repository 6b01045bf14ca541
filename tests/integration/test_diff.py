#!/usr/bin/env python3
"""`archscope diff REV_A REV_B [PATH]` on a fixture git repository.

The repository holds an engine and its kernel library under python/. Commit 1
declares the library's allow-list [100, 103, 110, 120, 121]; commit 2 narrows
it to [100, 103] without the engine checking it (gen becomes crash-risk on
sm_110/120/121: a regression); commit 3 adds a backend and a folder.
"""
import json
import os
import pathlib
import pty
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY = None
FIXTURE = pathlib.Path(__file__).resolve().parent.parent / "python" / "decorator_allowlist"
TARGETS = "sm_90,sm_100,sm_110,sm_120,sm_121"


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    r = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=True)
    return r.stdout.strip()


def make_repo(root):
    """Three commits; returns their hashes."""
    py = root / "python"
    shutil.copytree(FIXTURE / "engine" / "eng", py / "eng")
    shutil.copytree(FIXTURE / "lib" / "kern", py / "kern")
    moe = py / "kern" / "moe.py"
    moe.write_text(moe.read_text().replace("[100, 103]", "[100, 103, 110, 120, 121]"))
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "wide allow-list")
    first = git(root, "rev-parse", "HEAD")
    moe.write_text("# a line above moves every line below\n" + moe.read_text().replace("[100, 103, 110, 120, 121]", "[100, 103]"))
    git(root, "commit", "-q", "-am", "narrow allow-list")
    second = git(root, "rev-parse", "HEAD")
    runner = py / "eng" / "runner.py"
    runner.write_text(runner.read_text().replace('    CHECKED = "checked"\n', '    CHECKED = "checked"\n    LATE = "late"\n')
                      .replace("        return checked_moe()\n",
                               "        return checked_moe()\n    if moe_backend == MoeBackend.LATE:\n"
                               "        return checked_moe()\n"))
    (root / "docs").mkdir()
    (root / "docs" / "README.md").write_text("new folder\n")
    (root / "docs-only").mkdir()
    (root / "docs-only" / "README.md").write_text("no Python here\n")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "late backend")
    return first, second, git(root, "rev-parse", "HEAD")


class Diff(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        cls.repo = cls.tmp / "engine-repo"
        cls.repo.mkdir()
        cls.first, cls.second, cls.third = make_repo(cls.repo)
        # Every temporary copy diff makes lands here: the tests check it is left empty.
        cls.scratch = cls.tmp / "scratch"
        cls.scratch.mkdir()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def diff(self, *args, cwd=None):
        env = dict(os.environ, TMPDIR=str(self.scratch))
        return subprocess.run([BINARY, "diff", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)

    def assertScratchEmpty(self):
        self.assertEqual(list(self.scratch.iterdir()), [], "diff left temporary copies behind")

    def test_text_names_each_changed_cell_with_the_line_that_changed_it(self):
        r = self.diff(self.first, self.second, str(self.repo / "python"), "--targets", TARGETS)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "", "no progress or warnings when standard error is not a terminal")
        self.assertIn("gen on sm_120: supported -> crash-risk   [regression]", r.stdout)
        self.assertIn("gen on sm_121: supported -> crash-risk", r.stdout)
        self.assertIn("python/kern/moe.py:7  `supported_compute_capability([100, 103])`", r.stdout)
        self.assertNotIn("sm_100:", r.stdout)  # unchanged although its evidence lines moved
        self.assertIn("3 cells changed, 3 regressions", r.stdout)
        self.assertScratchEmpty()

    def test_json_cells_and_repository_paths(self):
        r = self.diff(self.first, self.second, "--format", "json", "--targets", TARGETS, cwd=str(self.repo / "python"))
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(doc["base"]["commit"], self.first)
        self.assertEqual(doc["head"]["commit"], self.second)
        self.assertEqual(doc["folder"], "python/")
        changes = {(c["backend"], c["target"]): c for c in doc["changes"]}
        self.assertEqual(set(changes), {("gen", "sm_110"), ("gen", "sm_120"), ("gen", "sm_121")})
        c = changes[("gen", "sm_120")]
        self.assertEqual((c["before"], c["after"], c["regression"]), ("supported", "crash-risk", True))
        self.assertEqual(c["evidence"]["path"], "python/kern/moe.py")
        self.assertEqual(c["after_cell"]["verdict"], "crash-risk")
        self.assertTrue(all(not e.get("path", "").startswith("/") for e in c["after_cell"]["evidence"]))
        self.assertEqual(doc["regressions"], 3)

    def test_markdown_is_a_pull_request_comment(self):
        r = self.diff(self.first, self.second, str(self.repo / "python"), "--format", "markdown", "--targets", TARGETS)
        self.assertEqual(r.returncode, 0, r.stderr)
        md = r.stdout
        self.assertTrue(md.startswith("### archscope: MoE backend matrix"), md[:80])
        self.assertIn("| backend | GPU | before | after | |", md)
        self.assertIn("| `gen` | sm_120 | supported | **crash-risk** | regression |", md)
        self.assertIn("<details>\n<summary>", md)
        self.assertIn("`python/kern/moe.py:7`", md)
        self.assertEqual(md.count("<details>"), md.count("</details>"))

    def test_fail_on_regression_only_for_regressions(self):
        args = ["--targets", TARGETS, "--fail-on-regression", str(self.repo / "python")]
        self.assertEqual(self.diff(self.first, self.second, *args).returncode, 1)
        back = self.diff(self.second, self.first, *args)  # crash-risk -> supported: an improvement
        self.assertEqual(back.returncode, 0, back.stdout + back.stderr)
        self.assertIn("crash-risk -> supported", back.stdout)

    def test_added_backend_row_and_unchanged_revisions(self):
        r = self.diff(self.second, self.third, str(self.repo / "python"), "--targets", TARGETS, "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual([row["backend"] for row in doc["rows_added"]], ["late"])
        same = self.diff("HEAD", self.third, str(self.repo / "python"), "--targets", TARGETS)
        self.assertEqual(same.returncode, 0, same.stderr)
        self.assertIn("no matrix cell changed", same.stdout)

    def test_errors_name_what_was_wrong(self):
        plain = self.tmp / "not-a-repo"
        plain.mkdir(exist_ok=True)
        cases = [
            ((self.first, self.second, str(plain)), 3, "not inside a git repository"),
            (("nosuchrev", self.second, str(self.repo)), 2, "unknown revision 'nosuchrev'"),
            ((self.first, "v9.9", str(self.repo)), 2, "unknown revision 'v9.9'"),
            ((self.first, self.third, str(self.repo / "docs")), 3, "'docs/' does not exist at " + self.first),
            ((self.first, self.second, str(self.repo / "missing")), 3, "no such file or folder"),
            ((self.third, "HEAD", str(self.repo / "docs-only")), 3, f"at {self.third}: no Python files under "
             f"'{self.repo / 'docs-only'}'"),
            ((self.first,), 2, "diff needs REV_A REV_B [PATH]"),
            ((self.first, self.second, "--format", "yaml"), 2, "diff writes text, json or markdown"),
        ]
        for args, code, needle in cases:
            r = self.diff(*args)
            self.assertEqual(r.returncode, code, (args, r.stderr))
            self.assertIn(needle, r.stderr, args)
            self.assertTrue(r.stderr.startswith("archscope: error:"), r.stderr)
        self.assertScratchEmpty()

    def test_the_users_checkout_is_not_touched(self):
        before = git(self.repo, "worktree", "list"), git(self.repo, "status", "--porcelain"), git(self.repo, "rev-parse", "HEAD")
        self.diff(self.first, self.second, str(self.repo))
        after = git(self.repo, "worktree", "list"), git(self.repo, "status", "--porcelain"), git(self.repo, "rev-parse", "HEAD")
        self.assertEqual(before, after)

    def test_progress_on_a_terminal_only(self):
        for quiet, expect in ((False, True), (True, False)):
            master, slave = pty.openpty()
            args = [BINARY, "diff", self.first, self.second, str(self.repo / "python"), "--targets", TARGETS]
            r = subprocess.run(args + (["-q"] if quiet else []), stdout=subprocess.PIPE, stderr=slave,
                               env=dict(os.environ, TMPDIR=str(self.scratch)), timeout=300)
            os.close(slave)
            seen = b""
            try:
                while chunk := os.read(master, 65536):
                    seen += chunk
            except OSError:
                pass
            os.close(master)
            self.assertEqual(r.returncode, 0)
            self.assertEqual(b"archscope: diff: auditing" in seen, expect, (quiet, seen[:200]))


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
