#!/usr/bin/env python3
"""`archscope lint` in a project's workflow: inline suppressions, baselines,
.archscope.yaml, --diff-base and exit codes. Each test copies a rule fixture
(tests/rules/<id>/engine) to a temporary folder and edits it as a maintainer
would."""
import atexit
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest


def scratch(prefix="archscope-lint-"):
    """A temporary folder, removed when the test process ends."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


BINARY = None
RULES = pathlib.Path(__file__).resolve().parent.parent / "rules"


def lint(*args, cwd=None):
    return subprocess.run([BINARY, "lint", *map(str, args)], capture_output=True, text=True, timeout=300, cwd=cwd)


def findings(*args, cwd=None):
    r = lint(*args, "--format", "json", "-q", cwd=cwd)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def fixture(rule):
    """A private copy of one rule fixture's engine tree."""
    tmp = pathlib.Path(scratch(prefix="archscope-lint-"))
    shutil.copytree(RULES / rule / "engine", tmp / "engine")
    return tmp / "engine"


def edit(path, old, new):
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def rules_of(doc):
    return [f["rule"] for f in doc["findings"]]


class Suppressions(unittest.TestCase):
    def test_python_trailing_comment_hides_the_finding(self):
        tree = fixture("predicate-name-mismatch")
        (tree / "mini/arch.py").unlink()  # its two findings are not the one suppressed here
        self.assertEqual(rules_of(findings(tree)), ["predicate-name-mismatch"])
        edit(tree / "mini/utils.py", "# EXPECT: predicate-name-mismatch",
             "# archscope: ignore[predicate-name-mismatch] fixed in the next release")
        r = lint(tree)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertIn("1 suppressed inline", r.stderr)
        self.assertNotIn("unused-suppression", r.stderr)

    def test_cuda_comment_on_the_line_above_with_a_list(self):
        tree = fixture("exact-arch-equality")
        before = rules_of(findings(tree))
        edit(tree / "csrc/fused_moe_launcher.cu", "  TVM_FFI_ICHECK_EQ(major, 10)",
             "  // archscope: ignore[open-ended-arch-guard, exact-arch-equality]\n  TVM_FFI_ICHECK_EQ(major, 10)")
        doc = findings(tree)
        self.assertEqual(len(rules_of(doc)), len(before) - 1)
        self.assertEqual(doc["hidden"]["suppressed"], 1)
        stale = [w for w in doc["warnings"] if "[unused-suppression]" in w]
        self.assertEqual(len(stale), 1, doc["warnings"])
        self.assertIn("'open-ended-arch-guard'", stale[0])
        self.assertRegex(stale[0], r"csrc/fused_moe_launcher\.cu:\d+:3: ")

    def test_cmake_comment_and_stacked_comments(self):
        tree = fixture("cmake-arch-drop")
        edit(tree / "CMakeLists.txt", "cuda_archs_loose_intersection(MOE_ARCHS",
             "# archscope: ignore[cmake-arch-drop]\n# why: tracked upstream\ncuda_archs_loose_intersection(MOE_ARCHS")
        self.assertEqual(lint(tree, "-q").returncode, 0)

    def test_a_comment_two_lines_up_does_not_reach(self):
        tree = fixture("cmake-arch-drop")
        edit(tree / "CMakeLists.txt", "cuda_archs_loose_intersection(MOE_ARCHS",
             "# archscope: ignore[cmake-arch-drop]\n\ncuda_archs_loose_intersection(MOE_ARCHS")
        r = lint(tree)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stderr, r"CMakeLists\.txt:\d+:1: warning: suppression of 'cmake-arch-drop' matches no "
                                   r"finding; remove it \[unused-suppression\]")

    def test_stale_and_unknown_suppressions_warn_but_never_fail(self):
        tree = fixture("cmake-arch-drop")
        edit(tree / "CMakeLists.txt", "# EXPECT: cmake-arch-drop", "# archscope: ignore[cmake-arch-drop]")
        edit(tree / "CMakeLists.txt", "cuda_archs_loose_intersection(FP4_ARCHS",
             "# archscope: ignore[cmake-arch-drop]\ncuda_archs_loose_intersection(FP4_ARCHS")
        (tree / "extra.py").write_text("x = 1  # archscope: ignore[no-such-rule]\ny = 2  # archscope: ignore\n")
        r = lint(tree)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("suppression of 'cmake-arch-drop' matches no finding", r.stderr)
        self.assertIn("extra.py:1:8: warning: suppression names unknown rule 'no-such-rule'", r.stderr)
        self.assertIn("extra.py:2:8: warning: suppression names no rule", r.stderr)
        warnings = findings(tree)["warnings"]
        self.assertEqual(sum("[unknown-rule-in-suppression]" in w for w in warnings), 2, warnings)
        self.assertEqual(sum("[unused-suppression]" in w for w in warnings), 1, warnings)

    def test_a_suppression_of_a_rule_turned_off_is_not_stale(self):
        tree = fixture("cmake-arch-drop")
        edit(tree / "CMakeLists.txt", "# EXPECT: cmake-arch-drop", "# archscope: ignore[cmake-arch-drop]")
        r = lint(tree, "--off=cmake-arch-drop")
        self.assertEqual(r.returncode, 0)
        self.assertNotIn("unused-suppression", r.stderr)


class Baseline(unittest.TestCase):
    def test_baseline_survives_lines_inserted_above_and_a_new_finding_still_shows(self):
        tree = fixture("cmake-arch-drop")
        base = tree.parent / "baseline.json"
        r = lint(tree, "--write-baseline", base)
        self.assertEqual(r.returncode, 0, r.stderr)
        entries = json.loads(base.read_text())["findings"]
        self.assertEqual([(e["rule"], e["path"]) for e in entries], [("cmake-arch-drop", "CMakeLists.txt")])
        old = findings(tree)["findings"][0]
        edit(tree / "CMakeLists.txt", "include(cmake/utils.cmake)",
             "include(cmake/utils.cmake)\n# a new comment\nset(EXTRA_FLAGS -O3)\n\n")
        moved = findings(tree)["findings"][0]
        self.assertEqual(moved["location"]["line"], old["location"]["line"] + 4)
        self.assertEqual(moved["fingerprint"], old["fingerprint"])
        r = lint(tree, "--baseline", base)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertIn("1 in the baseline", r.stderr)
        with open(tree / "CMakeLists.txt", "a") as f:
            f.write('cuda_archs_loose_intersection(NEW_ARCHS "10.0a;10.0" "${CUDA_ARCHS}")\n')
        doc = findings(tree, "--baseline", base)
        self.assertEqual([f["message"].split(" =")[0] for f in doc["findings"]],
                         ["cuda_archs_loose_intersection gives NEW_ARCHS"])
        self.assertEqual(doc["hidden"]["baseline"], 1)

    def test_baseline_from_the_config_file_relative_to_it(self):
        tree = fixture("cmake-arch-drop")
        self.assertEqual(lint(tree, "--write-baseline", tree / "accepted.json").returncode, 0)
        (tree / ".archscope.yaml").write_text("baseline: accepted.json\n")
        self.assertEqual(lint(tree, "-q", cwd="/").returncode, 0)

    def test_missing_or_malformed_baseline_is_an_input_error(self):
        tree = fixture("cmake-arch-drop")
        r = lint(tree, "--baseline", tree / "nope.json")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("--write-baseline", r.stderr)
        (tree / "bad.json").write_text('{"findings": []}')
        r = lint(tree, "--baseline", tree / "bad.json")
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("is not an archscope baseline", r.stderr)


class Config(unittest.TestCase):
    def test_found_above_the_audited_path_and_flags_override_it(self):
        tree = fixture("cmake-arch-drop")
        (tree.parent / ".archscope.yaml").write_text("min-severity: error\nrules:\n  cmake-arch-drop: warning\n")
        self.assertEqual(lint(tree, "-q").returncode, 0)
        self.assertEqual(lint(tree, "-q", "--min-severity", "warning").returncode, 1)
        self.assertEqual(lint(tree, "-q", "--error=cmake-arch-drop").returncode, 1)
        r = lint(tree, "--dump-config")
        self.assertEqual(r.returncode, 0)
        self.assertIn(f"# effective archscope lint configuration: {tree.parent / '.archscope.yaml'}", r.stdout)
        self.assertIn("min-severity: error\n", r.stdout)
        self.assertIn("  cmake-arch-drop: warning\n", r.stdout)
        self.assertIn("  dispatch-allows-unbuilt: error\n", r.stdout)

    def test_a_config_above_the_git_work_tree_is_not_used(self):
        tree = fixture("cmake-arch-drop")
        subprocess.run(["git", "init", "-q", str(tree)], check=True)
        (tree.parent / ".archscope.yaml").write_text("rules:\n  cmake-arch-drop: off\n")
        self.assertEqual(lint(tree, "-q").returncode, 1)
        self.assertIn("no .archscope.yaml found", lint(tree, "--dump-config").stdout)

    def test_errors_name_file_line_and_column_and_exit_2(self):
        tree = fixture("cmake-arch-drop")
        config = tree / ".archscope.yaml"
        for text, where, needle in [("min-severity: note\nrulez: {}\n", "2:1", "unknown key 'rulez'"),
                                    ("rules:\n  cmake-arch-drop: loud\n", "2:20", "bad level 'loud'"),
                                    ("rules:\n  no-such-rule: off\n", "2:3", "unknown rule 'no-such-rule'"),
                                    ("min-severity: [a]\n", "1:15", "'min-severity' must be a single value"),
                                    ("min-severity: high\n", "1:15", "bad min-severity 'high'")]:
            config.write_text(text)
            r = lint(tree)
            self.assertEqual(r.returncode, 2, (text, r.stderr))
            self.assertIn(f"{config}:{where}: {needle}", r.stderr)
        config.write_text("rules: [a\n")
        r = lint(tree)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn(f"{config}:", r.stderr)

    def test_explicit_config_file(self):
        tree = fixture("cmake-arch-drop")
        other = tree.parent / "strict.yaml"
        other.write_text("rules:\n  cmake-arch-drop: off\n")
        self.assertEqual(lint(tree, "-q", "--config", other).returncode, 0)
        self.assertEqual(lint(tree, "--config", tree / "missing.yaml").returncode, 3)


class ExitCodes(unittest.TestCase):
    def test_each_outcome_has_its_code(self):
        tree = fixture("cmake-arch-drop")
        self.assertEqual(lint(tree, "-q").returncode, 1)
        self.assertEqual(lint(tree, "-q", "--off=cmake-arch-drop").returncode, 0)
        self.assertEqual(lint(tree, "--bogus").returncode, 2)
        self.assertEqual(lint(tree / "no-such-dir").returncode, 3)

    def test_an_unwritten_report_is_never_clean(self):
        tree = fixture("cmake-arch-drop")
        with open("/dev/full", "w") as full:
            r = subprocess.run([BINARY, "lint", str(tree), "-q"], stdout=full,
                               stderr=subprocess.PIPE, text=True, timeout=300)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("cannot write to standard output", r.stderr)


class DiffBase(unittest.TestCase):
    def git(self, repo, *args):
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                       check=True, capture_output=True)

    def test_only_what_the_change_adds(self):
        tree = fixture("cmake-arch-drop")
        self.git(tree, "init", "-q")
        self.git(tree, "add", "-A")
        self.git(tree, "commit", "-q", "-m", "base")
        edit(tree / "CMakeLists.txt", "include(cmake/utils.cmake)", "include(cmake/utils.cmake)\n# moved down\n")
        with open(tree / "CMakeLists.txt", "a") as f:
            f.write('cuda_archs_loose_intersection(NEW_ARCHS "10.0a;10.0" "${CUDA_ARCHS}")\n')
        self.assertEqual(len(findings(tree)["findings"]), 2)
        doc = findings(tree, "--diff-base", "HEAD")
        self.assertEqual(len(doc["findings"]), 1, doc)
        self.assertIn("NEW_ARCHS", doc["findings"][0]["message"])
        self.assertEqual(doc["hidden"]["before_diff_base"], 1)
        worktrees = subprocess.run(["git", "-C", str(tree), "worktree", "list"], capture_output=True, text=True)
        self.assertEqual(len(worktrees.stdout.splitlines()), 1, worktrees.stdout)

    def test_bad_revision_or_no_repository_is_a_usage_error(self):
        tree = fixture("cmake-arch-drop")
        r = lint(tree, "--diff-base", "HEAD")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("not in a git work tree", r.stderr)
        self.git(tree, "init", "-q")
        self.git(tree, "add", "-A")
        self.git(tree, "commit", "-q", "-m", "base")
        r = lint(tree, "--diff-base", "no-such-rev")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("'no-such-rev' is not a commit", r.stderr)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
