#!/usr/bin/env python3
"""The archscope-lint hook of .pre-commit-hooks.yaml, run by pre-commit itself.

pre-commit (pinned, hash-checked, installed into the build tree) runs the hook
from a local hooks repository holding this checkout's .pre-commit-hooks.yaml,
on fixture repositories: one with a finding (the hook fails, a commit is
refused), one clean (the hook passes, the commit goes in), and a commit that
touches no Python/CUDA/C++/CMake file (the hook is skipped).

usage: test_precommit.py ARCHSCOPE PYTOOLS_DIR      exit 77 when pre-commit cannot be installed
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

import pytools

ROOT = pathlib.Path(__file__).resolve().parents[2]
FINDING_FIXTURE = ROOT / "tests" / "rules" / "cmake-arch-drop" / "engine"
CLEAN_ENGINE = {
    "eng/__init__.py": "",
    "eng/moe.py": ("import enum\nimport torch\n\nclass MoeBackend(enum.Enum):\n    GEN = 'gen'\n\n"
                   "def run(moe_backend):\n"
                   "    if moe_backend == MoeBackend.GEN and torch.cuda.get_device_capability()[0] != 10:\n"
                   "        raise RuntimeError('sm_100 only')\n"),
}
BINARY = PYTOOLS = None


class Hook(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = pathlib.Path(tempfile.mkdtemp())
        bin_dir = cls.tmp / "bin"
        bin_dir.mkdir()
        os.symlink(BINARY, bin_dir / "archscope")
        cls.env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", PYTHONPATH=str(PYTOOLS),
                       PRE_COMMIT_HOME=str(cls.tmp / "pre-commit-home"), GIT_AUTHOR_NAME="t",
                       GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
                       GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
        hooks = cls.tmp / "hooks"
        hooks.mkdir()
        shutil.copy(ROOT / ".pre-commit-hooks.yaml", hooks)
        cls.git(hooks, "init", "-q", "-b", "main")
        cls.git(hooks, "add", "-A")
        cls.git(hooks, "commit", "-q", "-m", "hooks")
        cls.hooks, cls.rev = hooks, cls.git(hooks, "rev-parse", "HEAD").stdout.strip()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def git(cls, repo, *args, check=True):
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=cls.env,
                              check=check, timeout=300)

    def pre_commit(self, repo, *args):
        return subprocess.run([sys.executable, "-m", "pre_commit", *args], cwd=repo, capture_output=True, text=True,
                              env=self.env, timeout=600)

    def fixture(self, name, fill):
        repo = self.tmp / name
        fill(repo)
        (repo / ".pre-commit-config.yaml").write_text(
            f"repos:\n  - repo: {self.hooks}\n    rev: {self.rev}\n    hooks:\n      - id: archscope-lint\n")
        self.git(repo, "init", "-q", "-b", "main")
        self.git(repo, "add", "-A")
        return repo

    def test_a_finding_fails_the_hook_and_refuses_the_commit(self):
        repo = self.fixture("with-finding", lambda r: shutil.copytree(FINDING_FIXTURE, r))
        r = self.pre_commit(repo, "run", "--all-files")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("archscope lint", r.stdout)
        self.assertIn("Failed", r.stdout)
        self.assertIn("[cmake-arch-drop]", r.stdout)
        self.assertEqual(self.pre_commit(repo, "install").returncode, 0)
        commit = self.git(repo, "commit", "-q", "-m", "add kernels", check=False)
        self.assertNotEqual(commit.returncode, 0, "the hook must refuse the commit")
        self.assertNotEqual(self.git(repo, "rev-parse", "--verify", "HEAD", check=False).returncode, 0)
        # A commit that touches no source file does not run the hook.
        self.git(repo, "commit", "-q", "--no-verify", "-m", "existing tree")
        (repo / "README.md").write_text("notes\n")
        self.git(repo, "add", "README.md")
        commit = self.git(repo, "commit", "-m", "docs only", check=False)
        self.assertEqual(commit.returncode, 0, commit.stdout + commit.stderr)
        self.assertIn("archscope lint", commit.stdout + commit.stderr)
        self.assertIn("Skipped", commit.stdout + commit.stderr)

    def test_a_clean_tree_passes_and_commits(self):
        def fill(repo):
            for rel, text in CLEAN_ENGINE.items():
                (repo / rel).parent.mkdir(parents=True, exist_ok=True)
                (repo / rel).write_text(text)

        repo = self.fixture("clean", fill)
        r = self.pre_commit(repo, "run", "--all-files")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("Passed", r.stdout)
        self.assertEqual(self.pre_commit(repo, "install").returncode, 0)
        commit = self.git(repo, "commit", "-m", "clean engine", check=False)
        self.assertEqual(commit.returncode, 0, commit.stdout + commit.stderr)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    PYTOOLS = pytools.ensure(sys.argv.pop(1))
    if PYTOOLS is None:
        print("SKIP: pre-commit could not be installed from the Python package index")
        sys.exit(77)
    unittest.main(verbosity=1)
