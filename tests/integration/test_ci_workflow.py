#!/usr/bin/env python3
"""docs/ci/github-actions-archscope.yml: its structure, and its archscope
steps run here as the runner would run them.

GitHub's runner is not available here, so the test checks what it can: the
YAML parses; the workflow builds archscope with the scripts of this checkout
and puts the binary's real folder on the PATH; the lint step writes SARIF that
the upload step uploads (same file, codeql-action upload-sarif, the
security-events permission, run even when lint fails); the job fails on lint's
exit code. Then the lint and diff steps' own shell text runs with bash on
fixture repositories, with archscope on the PATH and the GitHub variables set:
the SARIF they write must be SARIF 2.1.0 with the finding, the summary must
hold the diff.

usage: test_ci_workflow.py ARCHSCOPE PYTOOLS_DIR      exit 77 without a YAML parser
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import pytools

ROOT = pathlib.Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "docs" / "ci" / "github-actions-archscope.yml"
FINDING_FIXTURE = ROOT / "tests" / "rules" / "cmake-arch-drop" / "engine"
BINARY = None
yaml = None


def steps_of(doc):
    (job,) = doc["jobs"].values()
    return job, job["steps"]


def step_running(steps, needle):
    found = [s for s in steps if needle in s.get("run", "")]
    assert len(found) == 1, f"one step must run {needle!r}, found {len(found)}"
    return found[0]


class Workflow(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc = yaml.safe_load(WORKFLOW.read_text())
        cls.job, cls.steps = steps_of(cls.doc)
        cls.tmp = pathlib.Path(tempfile.mkdtemp())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_triggers_and_permissions(self):
        triggers = self.doc.get("on", self.doc.get(True))  # YAML 1.1 reads a bare `on` as true
        self.assertIn("pull_request", triggers)
        self.assertEqual(self.job["permissions"]["security-events"], "write")
        self.assertEqual(self.doc["permissions"], {"contents": "read"})

    def test_builds_archscope_with_this_checkouts_scripts(self):
        build = step_running(self.steps, "build.sh")
        for script in re.findall(r"\./archscope/(scripts/[\w.-]+\.sh)", build["run"]):
            self.assertTrue(os.access(ROOT / script, os.X_OK), script)
        self.assertIn("scripts/install-deps.sh", build["run"])
        # The folder put on the PATH is where the build puts the binary.
        path_line = re.search(r'echo "\$GITHUB_WORKSPACE/archscope/([\w/]+)" >> "\$GITHUB_PATH"', build["run"])
        self.assertIsNotNone(path_line)
        # scripts/build.sh builds into build/, and the binary is tool/archscope there.
        self.assertIn("-B build", (ROOT / "scripts" / "build.sh").read_text())
        self.assertEqual(path_line.group(1), "build/" + pathlib.Path(BINARY).parent.name)
        checkouts = [s for s in self.steps if s.get("uses", "").startswith("actions/checkout@")]
        self.assertEqual(len(checkouts), 2)
        self.assertEqual(checkouts[0]["with"]["fetch-depth"], 0)  # diff needs history

    def test_lint_writes_the_sarif_the_upload_sends(self):
        lint = step_running(self.steps, "--format sarif")
        m = re.search(r"archscope lint .*--format sarif -o \"?\$GITHUB_WORKSPACE/([\w.-]+)\"?", lint["run"])
        self.assertIsNotNone(m, lint["run"])
        upload = [s for s in self.steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
        self.assertEqual(len(upload), 1)
        self.assertEqual(upload[0]["with"]["sarif_file"], m.group(1))
        self.assertIn("always()", upload[0]["if"])
        self.assertIn("category", upload[0]["with"])
        fail = self.steps[-1]
        self.assertIn(f"steps.{lint['id']}.outputs.exit", fail["if"])
        self.assertIn("exit 1", fail["run"])

    def run_step(self, step, cwd, extra_env):
        bin_dir = self.tmp / "bin"
        bin_dir.mkdir(exist_ok=True)
        if not (bin_dir / "archscope").exists():
            os.symlink(BINARY, bin_dir / "archscope")
        env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", **extra_env)
        return subprocess.run(["bash", "-e", "-c", step["run"]], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=300)

    def test_the_lint_step_runs_and_its_sarif_is_valid(self):
        workspace = self.tmp / "ws"
        shutil.copytree(FINDING_FIXTURE, workspace / "engine")
        outputs = self.tmp / "github-output"
        lint = step_running(self.steps, "--format sarif")
        r = self.run_step(lint, workspace / lint.get("working-directory", "."),
                          {"GITHUB_WORKSPACE": str(workspace), "GITHUB_OUTPUT": str(outputs)})
        self.assertEqual(r.returncode, 0, r.stderr)  # the step records the exit code, the last step fails
        self.assertIn("exit=1", outputs.read_text())
        sarif_path = workspace / "archscope.sarif"
        if not sarif_path.exists() and "not 'sarif'" in r.stderr:
            self.skipTest("this archscope has no --format sarif yet")
        sarif = json.loads(sarif_path.read_text())
        self.assertEqual(sarif["version"], "2.1.0")
        results = sarif["runs"][0]["results"]
        self.assertEqual([x["ruleId"] for x in results], ["cmake-arch-drop"])

    def test_the_diff_step_writes_the_job_summary(self):
        workspace = self.tmp / "diff-ws"
        repo = workspace / "engine"
        shutil.copytree(FINDING_FIXTURE, repo)
        (repo / "eng").mkdir()
        (repo / "eng" / "__init__.py").write_text("")
        (repo / "eng" / "moe.py").write_text(
            "import enum\nimport torch\n\nclass MoeBackend(enum.Enum):\n    GEN = 'gen'\n\ndef run(moe_backend):\n"
            "    if moe_backend == MoeBackend.GEN and torch.cuda.get_device_capability()[0] < 10:\n"
            "        raise RuntimeError('Blackwell only')\n")
        git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "base"], check=True)
        base = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        moe = repo / "eng" / "moe.py"
        moe.write_text(moe.read_text().replace("< 10", "!= 10"))
        subprocess.run(git + ["commit", "-q", "-am", "sm_100 only"], check=True)
        head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        step = step_running(self.steps, "archscope diff")
        self.assertEqual(step["if"], "github.event_name == 'pull_request'")
        text = step["run"].replace("${{ github.event.pull_request.base.sha }}", base).replace("${{ github.sha }}", head)
        summary = self.tmp / "summary.md"
        r = self.run_step({"run": text}, repo, {"GITHUB_STEP_SUMMARY": str(summary)})
        self.assertEqual(r.returncode, 0, r.stderr)
        md = summary.read_text()
        self.assertIn("### archscope: MoE backend matrix", md)
        self.assertIn("| `gen` | sm_120 | supported | **rejected** | regression |", md)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    pytools_dir = sys.argv.pop(1)
    try:
        import yaml  # Debian's python3-yaml, or any PyYAML on the path
    except ImportError:
        folder = pytools.ensure(pytools_dir)
        if folder is None:
            print("SKIP: no YAML parser (python3-yaml) and PyYAML could not be installed")
            sys.exit(77)
        sys.path.insert(0, str(folder))
        import yaml
    globals()["yaml"] = yaml
    unittest.main(verbosity=1)
