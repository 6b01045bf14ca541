#!/usr/bin/env python3
"""CLI tests: run the archscope binary as a user would, bad input included."""
import atexit
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

BINARY = None


def run(*args, timeout=60, cwd=None, env=None):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env)


def scratch():
    """A temporary folder, removed when the test process ends."""
    path = tempfile.mkdtemp(prefix="archscope-cli-")
    atexit.register(shutil.rmtree, path, True)
    return path


def make_tree(root, files):
    for rel, content in files.items():
        path = pathlib.Path(root) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)


ENGINE = {
    "eng/__init__.py": "",
    "eng/moe.py": (
        "import enum\nimport torch\n\n"
        "class MoeBackend(enum.Enum):\n    GEN = 'gen'\n\n"
        "def run(moe_backend):\n"
        "    if moe_backend == MoeBackend.GEN and torch.cuda.get_device_capability()[0] != 10:\n"
        "        raise RuntimeError('sm_100 only')\n"
    ),
}


class Usage(unittest.TestCase):
    def test_help_and_version(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("usage: archscope", r.stdout)
        self.assertIn("explain BACKEND TARGET", r.stdout)
        r = run("--version")
        self.assertEqual(r.returncode, 0)
        self.assertRegex(r.stdout, r"archscope \d+\.\d+")

    def test_usage_errors_exit_2_and_say_what(self):
        for args, needle in [((), "no command"), (("audit", "--bogus"), "unknown option '--bogus'"),
                             (("frobnicate",), "unknown command"), (("audit", "--format", "xml"), "unknown format"),
                             (("audit", "--targets", "sm_999"), "not in the arch table"),
                             (("audit", "--targets", "banana"), "bad target"), (("audit", "--cuda", "x"), "bad CUDA"),
                             (("explain", "gen"), "explain needs"), (("audit", "--with"), "needs a value")]:
            r = run(*args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(needle, r.stderr, args)
            self.assertTrue(r.stderr.startswith("archscope: error:") or "usage" in r.stderr, args)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.dir = scratch()

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_missing_path(self):
        r = run("audit", os.path.join(self.dir, "nope"))
        self.assertEqual(r.returncode, 3)
        self.assertIn("no such file or folder", r.stderr)

    def test_file_instead_of_folder(self):
        f = pathlib.Path(self.dir) / "x.py"
        f.write_text("x = 1\n")
        r = run("audit", str(f))
        self.assertEqual(r.returncode, 3)
        self.assertIn("is a file, not a folder", r.stderr)

    def test_folder_without_python(self):
        r = run("audit", self.dir)
        self.assertEqual(r.returncode, 3)
        self.assertIn("no Python files", r.stderr)
        self.assertNotIn("cubins are read", r.stderr)

    def test_tree_without_dispatch_says_so_in_one_line(self):
        make_tree(self.dir, {"pkg/__init__.py": "def helper():\n    return 1\n"})
        for extra in ((), ("--no-profile",)):
            r = run("audit", self.dir, *extra)
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn("no recognisable MoE dispatch", r.stderr)
            self.assertEqual(r.stdout, "")

    def test_tree_with_predicates_but_no_backends_exits_3(self):
        # mini-sglang's utils/arch.py shape: capability helpers, no MoE backend to choose
        make_tree(self.dir, {"pkg/arch.py": "import torch\n\ndef is_sm100_supported():\n"
                             "    return torch.cuda.get_device_capability()[0] == 10\n"})
        r = run("audit", self.dir)
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertIn("1 capability predicate but no backend enum", r.stderr)
        self.assertEqual(r.stdout, "")

    def test_profile_and_no_profile_exclude_each_other(self):
        make_tree(self.dir, ENGINE)
        r = run("audit", self.dir, "--no-profile", "--profile", "x.yaml")
        self.assertEqual(r.returncode, 2)
        self.assertIn("exclude each other", r.stderr)

    def test_no_profile_ignores_the_detected_one(self):
        r = run("audit", "--no-profile", "--format", "json", "-q")  # the bundled example, tiny-engine.yaml detected
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual([t["profile"] for t in doc["trees"] if t["role"] == "engine"], ["generic"])

    def test_cubins_without_their_package_say_what_to_give(self):
        engine, pool = pathlib.Path(self.dir) / "engine", pathlib.Path(self.dir) / "pool"
        make_tree(engine, ENGINE)
        (pool / "cubins" / "abc").mkdir(parents=True)
        (pool / "cubins" / "abc" / "gemm_sm100f.cubin").write_bytes(b"\x7fELF")
        r = run("audit", str(engine), "--with", str(pool))
        self.assertEqual(r.returncode, 3)
        self.assertIn(f"no Python files under '{pool}'", r.stderr)
        self.assertIn("cubins are read through the package that ships them", r.stderr)

    def test_symlink_loop_as_root(self):
        loop = pathlib.Path(self.dir) / "loop"
        os.symlink(loop, loop)
        r = run("audit", str(loop))
        self.assertEqual(r.returncode, 3)
        self.assertIn("link", r.stderr)

    def test_bad_files_are_skipped_with_warnings_and_the_rest_still_counts(self):
        make_tree(self.dir, dict(ENGINE, **{
            "eng/binary.py": b"\x00\x01\x02ELF",
            "eng/latin1.py": "caf\u00e9 = 1\n".encode("latin-1"),
            "eng/late_bad.py": b"x = 1\n" * 3 + b"# \xc3\x28 (a lead byte, then ASCII)\n",
            "eng/good_utf8.py": "# na\u00efve \u2014 \u2713, \U0001F600\nx = 1\n",
            "eng/huge.py": "x = 1\n" * 800_000,
            "eng/broken.py": "import torch\ndef (:\n\ndef is_sm90_arch():\n    return torch.cuda.get_device_capability()[0] == 9\n",
        }))
        os.symlink(self.dir, os.path.join(self.dir, "eng", "loop"))  # a directory symlink loop
        r = run("audit", self.dir, "--targets", "sm_100,sm_120", "--format", "json", timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("binary file", r.stderr)
        self.assertIn("latin1.py: skipped: not valid UTF-8", r.stderr)
        self.assertIn("late_bad.py: skipped: not valid UTF-8", r.stderr)
        self.assertNotIn("good_utf8.py", r.stderr)
        self.assertIn("byte limit", r.stderr)
        self.assertIn("syntax errors", r.stderr)
        doc = json.loads(r.stdout)
        cells = {(c["backend"], c["target"]): c["verdict"] for c in doc["cells"]}
        self.assertIn("eng.broken.is_sm90_arch", [p["name"] for p in doc["predicates"]])
        self.assertEqual(cells[("gen", "sm_100")], "supported")
        self.assertEqual(cells[("gen", "sm_120")], "rejected")

    def test_installed_packages_folder(self):
        # A site-packages folder: engine and kernel library side by side, with dist-info.
        src = pathlib.Path(__file__).resolve().parent.parent / "python" / "decorator_allowlist"
        shutil.copytree(src / "engine" / "eng", pathlib.Path(self.dir) / "eng")
        shutil.copytree(src / "lib" / "kern", pathlib.Path(self.dir) / "kern")
        make_tree(self.dir, {"eng-0.1.dist-info/METADATA": "Name: eng\nVersion: 0.1\n",
                             "kern-2.0.dist-info/METADATA": "Name: kern\nVersion: 2.0\n"})
        r = run("audit", self.dir, "--targets", "sm_100,sm_120", "--format", "json", "-q")
        self.assertEqual(r.returncode, 0, r.stderr)
        cells = {(c["backend"], c["target"]): c["verdict"] for c in json.loads(r.stdout)["cells"]}
        self.assertEqual(cells[("gen", "sm_120")], "crash-risk")
        self.assertEqual(cells[("checked", "sm_120")], "rejected")
        self.assertEqual(cells[("gen", "sm_100")], "supported")

    def test_package_folders_themselves(self):
        # Pointed at the package folders (site-packages/eng, site-packages/kern),
        # with a file that cannot be imported (a hyphenated folder) beside them.
        src = pathlib.Path(__file__).resolve().parent.parent / "python" / "decorator_allowlist"
        eng, kern = pathlib.Path(self.dir) / "eng", pathlib.Path(self.dir) / "kern"
        shutil.copytree(src / "engine" / "eng", eng)
        shutil.copytree(src / "lib" / "kern", kern)
        make_tree(kern, {"not-a-package/helper.py": "def supported_compute_capability(x):\n    return None\n"})
        r = run("audit", str(eng), "--with", str(kern), "--targets", "sm_100,sm_120", "--format", "json", "-q")
        self.assertEqual(r.returncode, 0, r.stderr)
        cells = {(c["backend"], c["target"]): c["verdict"] for c in json.loads(r.stdout)["cells"]}
        self.assertEqual(cells[("gen", "sm_120")], "crash-risk")
        self.assertEqual(cells[("checked", "sm_120")], "rejected")

    def test_malformed_profile_names_file_and_line(self):
        make_tree(self.dir, ENGINE)
        profile = pathlib.Path(self.dir) / "profile.yaml"
        profile.write_text("id: x\nquants: [\n  - name: nvfp4\n")
        r = run("audit", self.dir, "--profile", str(profile))
        self.assertEqual(r.returncode, 3)
        self.assertRegex(r.stderr, re_escape(str(profile)) + r":\d+:\d+: invalid YAML")
        profile.write_text("id: x\nbackend:\n  selector: [a]\n")
        r = run("audit", self.dir, "--profile", str(profile))
        self.assertEqual(r.returncode, 3)
        self.assertIn(f"{profile}:3:3: unknown key 'selector'", r.stderr)

    def test_unwritable_output(self):
        make_tree(self.dir, ENGINE)
        r = run("audit", self.dir, "-o", os.path.join(self.dir, "no", "such", "dir", "out.txt"))
        self.assertEqual(r.returncode, 3)
        self.assertIn("cannot write", r.stderr)


def re_escape(s):
    import re
    return re.escape(s)


class Guards(unittest.TestCase):
    def test_guards_per_target_as_json(self):
        cu = pathlib.Path(__file__).resolve().parent.parent / "cuda" / "exact_equality.cu"
        r = run("guards", str(cu), "--targets", "sm_120a,sm_121a", "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        files = json.loads(r.stdout)["files"]
        first = files[0]["directives"][0]
        self.assertEqual(first["targets"], {"sm_120a": "taken", "sm_121a": "not-taken"})
        self.assertEqual(files[0]["missing_includes"], ["cutlass/cutlass.h"])
        cache = scratch()
        env = dict(os.environ, ARCHSCOPE_CACHE_DIR=cache)
        cmd = [BINARY, "guards", str(cu), "--format", "json"]
        first = subprocess.run(cmd, capture_output=True, text=True, env=env).stdout
        self.assertTrue(os.listdir(os.path.join(cache, "guards")))
        self.assertEqual(subprocess.run(cmd, capture_output=True, text=True, env=env).stdout, first)
        r = run("guards", str(cu), "--preprocess-only")
        self.assertIn("1 files x 8 targets preprocessed", r.stdout)
        r = run("guards", str(cu), "--targets", "sm_120x")
        self.assertEqual(r.returncode, 2)
        r = run("guards", "/nonexistent.cu")
        self.assertEqual(r.returncode, 3)


class Archs(unittest.TestCase):
    def test_the_engines_own_intersection_is_run_and_a_dropped_gpu_named(self):
        fixture = pathlib.Path(__file__).resolve().parent.parent / "cmake" / "intersection_drop"
        r = run("archs", str(fixture), "--cuda-archs", "10.0;10.3;12.0;12.1", "--format", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        calls = {c["line"]: c for c in json.loads(r.stdout)["calls"]}
        self.assertEqual(calls[7]["result"], "10.0a")
        self.assertEqual(calls[7]["dropped"], ["sm_103"])
        self.assertFalse(calls[9]["evaluated"])  # the CUDA < 12.8 branch
        self.assertEqual(calls[12]["dropped"], [])
        r = run("archs", str(fixture), "--cuda-archs", "10.0;10.3", "--cuda", "12.6", "--format", "json")
        calls = {c["line"]: c for c in json.loads(r.stdout)["calls"]}
        self.assertFalse(calls[7]["evaluated"])
        self.assertTrue(calls[9]["evaluated"])
        r = run("archs", "/nonexistent")
        self.assertEqual(r.returncode, 3)


class GuardFlags(unittest.TestCase):
    def guards(self, path):
        r = run("guards", str(path), "--targets", "sm_100a,sm_120a", "--format", "json", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)["files"][0]

    def test_compile_database_flags(self):
        # compile_commands.json's directory is relative here; it is read relative to the database.
        root = pathlib.Path(scratch())
        src = pathlib.Path(__file__).resolve().parent.parent / "cuda" / "compile_db"
        shutil.copytree(src, root, dirs_exist_ok=True)
        db = json.loads((root / "compile_commands.json").read_text())
        db[0]["directory"] = str(root / "src")
        (root / "compile_commands.json").write_text(json.dumps(db))
        f = self.guards(root / "src" / "moe.cu")
        self.assertEqual(f["missing_includes"], [])
        kernels = {k["name"]: k["targets"] for k in f["kernels"]}
        self.assertEqual(kernels["nvfp4_sm120_moe"], {"sm_100a": "absent", "sm_120a": "code"})
        self.assertEqual(kernels["trap_kernel"]["sm_100a"], "trap")

    def test_include_folders_are_inferred(self):
        f = self.guards(pathlib.Path(__file__).resolve().parent.parent / "cuda" / "inferred" / "csrc" / "kernels.cu")
        self.assertEqual(f["missing_includes"], [])
        self.assertEqual(f["directives"][0]["targets"], {"sm_100a": "taken", "sm_120a": "taken"})


class Cache(unittest.TestCase):
    def test_unchanged_tree_comes_from_the_cache_and_a_change_invalidates_it(self):
        tree, cache = scratch(), scratch()
        make_tree(tree, ENGINE)
        env = dict(os.environ, ARCHSCOPE_CACHE_DIR=cache)
        audit = [BINARY, "audit", tree, "--targets", "sm_100,sm_120", "--format", "json"]
        first = subprocess.run(audit, capture_output=True, text=True, env=env)
        second = subprocess.run(audit, capture_output=True, text=True, env=env)
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertEqual(first.stdout, second.stdout)
        self.assertTrue(any(name.endswith(".facts") for name in os.listdir(cache)))
        text = subprocess.run(audit[:-2], capture_output=True, text=True, env=env)
        self.assertIn("facts from the cache", text.stderr)
        fresh = subprocess.run(audit[:-2] + ["--no-cache"], capture_output=True, text=True, env=env)
        self.assertIn("parsed", fresh.stderr)
        # Loosen the guard: the cached facts must not be reused.
        moe = pathlib.Path(tree) / "eng" / "moe.py"
        moe.write_text(moe.read_text().replace("!= 10", "< 10"))
        changed = subprocess.run(audit, capture_output=True, text=True, env=env)
        cells = {(c["backend"], c["target"]): c["verdict"] for c in json.loads(changed.stdout)["cells"]}
        self.assertEqual(cells[("gen", "sm_120")], "supported")

    def test_lint_findings_from_the_cache_are_the_fresh_ones(self):
        # Facts only lint reads (toolkit-gated flags, closed arch tables) survive the cache.
        cache = scratch()
        env = dict(os.environ, ARCHSCOPE_CACHE_DIR=cache)
        rules = pathlib.Path(__file__).resolve().parent.parent / "rules"
        for rule in ("closed-arch-table", "toolkit-gated-flag"):
            lint = [BINARY, "lint", str(rules / rule / "engine"), "--format", "json", "-q"]
            fresh = subprocess.run(lint, capture_output=True, text=True, env=env)
            cached = subprocess.run(lint, capture_output=True, text=True, env=dict(env, ARCHSCOPE_TIMING="1"))
            self.assertIn("facts from the cache", cached.stderr)
            ids = [f["rule"] for f in json.loads(fresh.stdout)["findings"]]
            self.assertIn(rule, ids)
            self.assertEqual(fresh.stdout, cached.stdout)

    def test_a_damaged_cache_file_is_ignored(self):
        tree, cache = scratch(), scratch()
        make_tree(tree, ENGINE)
        env = dict(os.environ, ARCHSCOPE_CACHE_DIR=cache)
        audit = [BINARY, "audit", tree, "--format", "json", "-q"]
        good = subprocess.run(audit, capture_output=True, text=True, env=env).stdout
        for name in os.listdir(cache):
            pathlib.Path(cache, name).write_text("archscope-facts 1\nG\tgarbage\n")
        again = subprocess.run(audit, capture_output=True, text=True, env=env)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(again.stdout, good)


class Outputs(unittest.TestCase):
    def test_explain_shows_the_predicates_answering_line(self):
        r = run("explain", "gen_cubins", "sm_90", "--no-color")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("defined tiny_engine/moe/select.py:6  `_is_blackwell = is_blackwell_supported()`", r.stdout)
        self.assertIn("_is_blackwell is false on sm_90", r.stdout)
        # Through the cached alias to the function body: the return that reads the GPU.
        self.assertNotIn("is true on sm_90", r.stdout)

    def test_default_audit_is_the_bundled_example(self):
        r = run("audit")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("tiny-engine", r.stdout)
        self.assertIn("gen_cubins", r.stdout)
        self.assertIn("CRASH", r.stdout)
        self.assertNotIn("\033[", r.stdout)  # no colour when not a terminal
        self.assertIn("Python files listed", r.stderr)

    def test_json_cells_carry_evidence(self):
        r = run("audit", "--format", "json")
        doc = json.loads(r.stdout)
        self.assertTrue(doc["cells"])
        for cell in doc["cells"]:
            for key in ("backend", "quant", "target", "verdict", "evidence"):
                self.assertIn(key, cell)
            self.assertIn(cell["verdict"], {"supported", "rejected", "crash-risk", "unreachable", "unknown"})
        crash = next(c for c in doc["cells"] if c["backend"] == "gen_cubins" and c["target"] == "sm_120")
        self.assertEqual(crash["verdict"], "crash-risk")
        ev = next(e for e in crash["evidence"] if e.get("path", "").endswith("launch.py"))
        self.assertEqual(ev["layer"], "python")
        self.assertEqual(ev["snippet"], "supported_compute_capability([100, 103])")
        self.assertGreater(ev["line"], 0)
        preds = {p["name"]: p["true_on"] for p in doc["predicates"]}
        self.assertEqual(preds["tiny_engine.platform_utils.is_sm120_supported"], ["sm_120", "sm_121"])

    def test_rows_no_dispatch_reaches_are_named_below_the_table(self):
        # --backend choices deep_gemm and aiter: no dispatch site of the tree handles them.
        tree = str(pathlib.Path(__file__).resolve().parent.parent / "python" / "string_choices")
        r = run("audit", tree, "--no-profile", "-q", "--targets", "sm_90,sm_100")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = [line.split()[0] for line in r.stdout.splitlines()[2:] if line and not line.startswith(" ")]
        self.assertIn("triton", rows)
        self.assertNotIn("deep_gemm", rows)
        self.assertIn("reached by no nvfp4 dispatch site (? everywhere):\n  deep_gemm, aiter\n", r.stdout)
        doc = json.loads(run("audit", tree, "--no-profile", "-q", "--format", "json").stdout)
        folded = [c for c in doc["cells"] if c["backend"] == "deep_gemm"]
        self.assertTrue(folded)  # the JSON keeps every cell
        self.assertTrue(all(c["verdict"] == "unknown" for c in folded))

    def test_yaml_markdown_and_output_file(self):
        out = pathlib.Path(scratch()) / "matrix.yaml"
        r = run("audit", "--format", "yaml", "-o", str(out))
        self.assertEqual(r.returncode, 0, r.stderr)
        text = out.read_text()
        self.assertIn("\ntool: archscope\n", text)
        self.assertIn("verdict: crash-risk", text)
        r = run("audit", "--format", "markdown")
        self.assertIn("| backend |", r.stdout)
        self.assertIn("**crash-risk**", r.stdout)

    def test_explain_prints_the_chain(self):
        r = run("explain", "gen_cubins", "sm_120")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("gen_cubins on sm_120 (CC 12.0), nvfp4: crash-risk", r.stdout)
        self.assertIn("supported_compute_capability([100, 103])", r.stdout)
        self.assertIn("=> ", r.stdout)
        r = run("explain", "auto", "sm_75")  # a target outside the default columns
        self.assertIn("rejected", r.stdout)
        r = run("explain", "nosuch", "sm_120")
        self.assertEqual(r.returncode, 2)
        self.assertIn("backends: auto, gen_cubins", r.stderr)

    def test_each_jit_module_a_call_may_build_is_its_own_fact(self):
        # The modules' conditions share a long prefix: one fact must not hide the other.
        case = pathlib.Path(__file__).resolve().parent.parent / "python" / "jit_module_choice"
        r = run("audit", str(case / "engine"), "--with", str(case / "lib"), "--profile", str(case / "profile.yaml"),
                "--no-cache", "-q", env=dict(os.environ, ARCHSCOPE_DUMP_FACTS="1"))
        self.assertEqual(r.returncode, 0, r.stderr)
        calls = [line for line in r.stderr.splitlines() if line.startswith("fact calls")]
        for module in ("jit:moe_sm120.run", "jit:moe_sm100.run"):
            self.assertTrue(any(module in line for line in calls), f"{module} not among {calls}")

    def test_explain_names_the_macro_a_jit_module_leaves_out(self):
        # The verdict's evidence is the #ifdef its flags do not satisfy; a path
        # that may build that module says so without deciding the cell.
        engine = pathlib.Path(__file__).resolve().parent.parent / "python" / "jit_format_macro" / "engine"
        r = run("explain", "fp4_moe", "sm_89", str(engine), "--no-color", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("crash-risk", r.stdout)
        self.assertIn("csrc/moe_binding.cu:16", r.stdout)
        self.assertIn("ENABLE_FP4 is not among this module's flags", r.stdout)
        r = run("explain", "fp4_moe_for", "sm_89", str(engine), "--no-color")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("fp4_moe_for on sm_89 (CC 8.9), nvfp4: supported", r.stdout)
        self.assertIn("may call jit:moe_89.fp4_moe (not certain here): its JIT module is built without -DENABLE_FP4",
                      r.stdout)

    def test_lint_flags_a_config_registry_check_with_no_upper_bound(self):
        # Field bug 14's shape: `supported` says `arch >= 100` for a runner whose JIT
        # module is tcgen05 only. The finding is the check; the bounded one is not flagged.
        engine = pathlib.Path(__file__).resolve().parent.parent / "python" / "config_registry" / "engine"
        r = run("lint", str(engine), "--format", "json", "--no-cache")
        self.assertEqual(r.returncode, 1, r.stderr)
        found = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "open-ended-arch-guard"]
        where = [(f["backend"], pathlib.Path(f["location"]["path"]).name, f["location"]["line"]) for f in found]
        self.assertEqual(where, [("Fp4Config", "api.py", 9)], r.stdout)
        self.assertEqual(found[0]["targets"], ["sm_120", "sm_121"])
        r = run("explain", "Fp4Config", "sm_120", str(engine), "--no-color")
        self.assertIn("return arch >= 100", r.stdout)
        self.assertIn("keeps the JIT module jit:get_moe_sm100_module to call later", r.stdout)
        self.assertIn("kernel family tcgen05", r.stdout)

    def test_a_library_profile_keeps_its_rows_and_lint_still_reads_the_registry(self):
        # With a profile naming the library's entries, the registry's configs are not
        # rows, but their `supported` checks are still linted (field bug 14).
        engine = pathlib.Path(__file__).resolve().parent.parent / "python" / "config_registry" / "engine"
        profile = pathlib.Path(scratch()) / "lib.yaml"
        profile.write_text("id: lib\nbackend:\n  selectors: []\n  rows: [moe_layer]\n"
                           "quants:\n  - name: nvfp4\n    flags: [nvfp4]\n"
                           "    entries:\n      moe_layer: [kern.layer.MoELayer]\n")
        r = run("audit", str(engine), "--profile", str(profile), "--format", "json", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(sorted({c["backend"] for c in json.loads(r.stdout)["cells"]}), ["moe_layer"])
        r = run("lint", str(engine), "--profile", str(profile), "--format", "json", "--no-cache")
        self.assertEqual(r.returncode, 1, r.stderr)
        found = [f["backend"] for f in json.loads(r.stdout)["findings"] if f["rule"] == "open-ended-arch-guard"]
        self.assertEqual(found, ["Fp4Config"], r.stdout)

    def test_an_exact_arch_branch_with_another_implementation_is_a_note(self):
        # Only the branch whose siblings trap is a warning; one whose #else builds
        # another implementation is a note, left out at the default threshold.
        engine = pathlib.Path(__file__).resolve().parent.parent / "rules" / "exact-arch-equality" / "engine"
        r = run("lint", str(engine), "--format", "json", "--min-severity", "note", "--no-cache")
        guards = {f["location"]["line"]: f for f in json.loads(r.stdout)["findings"]
                  if f["location"]["path"].endswith("scaled_mm_sm120.cu")}
        self.assertEqual(guards[12]["severity"], "warning", r.stdout)
        self.assertIn("the #else at line 14 they take fails there", guards[12]["message"])
        self.assertEqual(guards[44]["severity"], "note", r.stdout)
        self.assertIn("builds another implementation instead", guards[44]["message"])
        # A fence added inside a kernel the siblings still build is a note; a
        # kernel whose whole body is the branch is a warning; an #error is none.
        added = {f["location"]["line"]: f for f in json.loads(r.stdout)["findings"]
                 if f["location"]["path"].endswith("per_gpu_branches.cu")}
        self.assertEqual(sorted(added), [27, 37, 49, 67, 75], r.stdout)
        self.assertEqual(added[27]["severity"], "note", r.stdout)
        self.assertIn("(4 tokens) and keeps the 48 of the block around it", added[27]["message"])
        self.assertEqual(added[37]["severity"], "warning", r.stdout)
        # A wrapper no source names is compiled by no build: a note.
        self.assertEqual(added[49]["severity"], "note", r.stdout)
        self.assertIn("nothing in the trees names `enable_sm100_only` but its definition", added[49]["message"])
        # #defines alone that no directive tests are a note; one a directive
        # the siblings read tests is a warning that names that directive.
        self.assertEqual(added[67]["severity"], "note", r.stdout)
        self.assertIn("lacks its #define of `NUM_Q_PIPE_STAGES`, `NUM_WORK_PIPE_STAGES`",
                      added[67]["message"])
        self.assertEqual(added[75]["severity"], "warning", r.stdout)
        self.assertIn("`USE_WIDE_REDUCE`, which the #if at line 80 tests there", added[75]["message"])
        r = run("lint", str(engine), "--format", "json")
        lines = [f["location"]["line"] for f in json.loads(r.stdout)["findings"]
                 if f["location"]["path"].endswith("scaled_mm_sm120.cu")]
        self.assertEqual(lines, [12], r.stdout)

    def test_a_profile_row_of_another_revision_is_left_out_with_a_warning(self):
        # The row's entry exists nowhere: the profile must not add a row of "unknown" cells.
        case = pathlib.Path(__file__).resolve().parent.parent / "python" / "device_properties"
        r = run("audit", str(case / "engine"), "--profile", str(case / "profile.yaml"), "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("profile row 'gone_moe': not a backend of this revision", r.stderr)
        self.assertNotIn("gone_moe ", r.stdout)
        self.assertIn("fp4_moe ", r.stdout)

    def test_explain_keeps_the_raises_a_supported_cell_may_hit(self):
        # Many dispatch branches must not crowd out the raise this GPU may hit.
        branches = "".join(f"def step{i}(moe_backend, x):\n    if moe_backend == MoeBackend.GEN:\n"
                           f"        return x + {i}\n    return x\n\n" for i in range(16))
        root = scratch()
        make_tree(root, {"eng/__init__.py": "", "eng/moe.py": (
            "import enum\nimport torch\n\nclass MoeBackend(enum.Enum):\n    GEN = 'gen'\n\n" + branches +
            "def run(moe_backend, config):\n"
            "    if moe_backend == MoeBackend.GEN and config.wide and torch.cuda.get_device_capability()[0] == 12:\n"
            "        raise RuntimeError('the wide tile needs more shared memory than sm_12x has')\n")})
        r = run("explain", "gen", "sm_120", root, "--no-color")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("nvfp4: supported", r.stdout)
        self.assertIn("may raise: depends on config.wide", r.stdout)


RULES = pathlib.Path(__file__).resolve().parent.parent / "rules"


class Lint(unittest.TestCase):
    def test_clang_style_text_and_exit_1(self):
        case = RULES / "cmake-arch-drop" / "engine"
        r = run("lint", str(case), cwd=str(case))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertRegex(r.stdout, r"(?m)^CMakeLists\.txt:7:1: error: .* \[cmake-arch-drop\]$")
        self.assertIn("1 finding", r.stderr)

    def test_severity_flags_and_threshold(self):
        case = str(RULES / "cmake-arch-drop" / "engine")
        self.assertEqual(run("lint", case, "--off=cmake-arch-drop").returncode, 0)
        r = run("lint", case, "--warning=cmake-arch-drop", "--min-severity", "error")
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.stdout, "")
        r = run("lint", case, "--note", "cmake-arch-drop", "--min-severity", "note", "--format", "json")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(json.loads(r.stdout)["findings"][0]["severity"], "note")

    def test_bad_lint_flags_exit_2(self):
        for args, needle in [(("--off=no-such-rule",), "unknown rule 'no-such-rule'"),
                             (("--min-severity", "loud"), "bad --min-severity"),
                             (("--format", "yaml"), "lint writes text, json or sarif")]:
            r = run("lint", str(RULES / "cmake-arch-drop" / "engine"), *args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertIn(needle, r.stderr)

    def test_clean_tree_exits_0(self):
        tmp = scratch()
        make_tree(tmp, ENGINE)
        r = run("lint", tmp, "-q")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertEqual(r.stdout, "")

    def test_cuda_file_that_does_not_parse_still_lints_the_rest(self):
        tmp = scratch()
        make_tree(tmp, {"bad.cu": "#if __CUDA_ARCH__ ==\n#endif\n__global__ void k( {\n",
                        "good.cu": (RULES / "exact-arch-equality/engine/csrc/scaled_mm_sm120.cu").read_text()})
        r = run("lint", tmp, "--format", "json")
        self.assertEqual(r.returncode, 1, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual([f["rule"] for f in doc["findings"]], ["exact-arch-equality"])
        self.assertTrue(any("bad.cu" in w for w in doc["warnings"]), doc["warnings"])


class BinaryLayer(unittest.TestCase):
    def test_shipped_cubins_decide_an_installed_engine(self):
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        if not os.path.exists(nvcc) or not shutil.which("cuobjdump"):
            self.skipTest("needs nvcc (to build a .so) and cuobjdump (scripts/install-deps.sh)")
        tmp = pathlib.Path(scratch())
        engine = RULES / "dispatch-allows-unbuilt" / "engine" / "eng"
        make_tree(tmp, {f"eng/{p.name}": p.read_text() for p in engine.glob("*.py")})
        (tmp / "k.cu").write_text("__global__ void k(float *o) { o[threadIdx.x] = 1.f; }\n"
                                  "void launch(float *o) { k<<<1, 32>>>(o); }\n")
        (tmp / "fixture_kernels").mkdir()
        subprocess.run([nvcc, "-shared", "-Xcompiler", "-fPIC", "-gencode", "arch=compute_100a,code=sm_100a",
                        "-gencode", "arch=compute_90,code=sm_90", str(tmp / "k.cu"),
                        "-o", str(tmp / "fixture_kernels" / "_kernels.abi3.so")], check=True)
        (tmp / "k.cu").unlink()
        r = run("audit", str(tmp), "--targets", "sm_90,sm_100,sm_103,sm_120", "--format", "json", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        cells = {(c["backend"], c["target"]): c for c in json.loads(r.stdout)["cells"]}
        self.assertEqual(cells[("gen", "sm_100")]["verdict"], "supported")
        self.assertEqual(cells[("gen", "sm_103")]["verdict"], "crash-risk")  # sm_100a does not load on a B300
        self.assertEqual(cells[("gen", "sm_103")]["lacking"], "binary")
        self.assertIn("no cubin in _kernels.abi3.so loads on sm_120", cells[("gen", "sm_120")]["reason"])
        r = run("validate", str(tmp), "--targets", "sm_100,sm_103", "--format", "json", "-q", timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        proofs = {(c["backend"], c["target"]): c for c in json.loads(r.stdout)["cells"]}
        self.assertEqual(proofs[("gen", "sm_103")]["binary"], "binary-missing")
        self.assertEqual(proofs[("gen", "sm_100")]["binary"], "binary-present")


class BadLowerLayerInput(unittest.TestCase):
    def test_each_bad_input_is_named_and_the_rest_completes(self):
        tmp = pathlib.Path(scratch())
        make_tree(tmp, {
            "compile_commands.json": "{ not json",
            "csrc/scaled_mm_sm120.cu": (RULES / "exact-arch-equality/engine/csrc/scaled_mm_sm120.cu").read_text(),
            "cmake/utils.cmake": 'function(cuda_archs_loose_intersection OUT SRC TGT)\n  message(FATAL_ERROR "boom")\nendfunction()\n',
            "CMakeLists.txt": 'cmake_minimum_required(VERSION 3.20)\nproject(x)\ninclude(cmake/utils.cmake)\n'
                              'cuda_archs_loose_intersection(A "10.0a" "${CUDA_ARCHS}")\n',
        })
        if shutil.which("gcc"):  # a shared object without CUDA code
            (tmp / "n.c").write_text("int f(void) { return 1; }\n")
            subprocess.run(["gcc", "-shared", "-fPIC", str(tmp / "n.c"), "-o", str(tmp / "libplain.so")], check=True)
        r = run("lint", str(tmp), "--format", "json")
        self.assertEqual(r.returncode, 1, r.stderr)  # the .cu finding still comes
        doc = json.loads(r.stdout)
        self.assertEqual([f["rule"] for f in doc["findings"]], ["exact-arch-equality"])
        warnings = " ".join(doc["warnings"])
        self.assertIn("compile_commands.json: not valid JSON", warnings)
        self.assertIn("CMakeLists.txt: its arch filters failed in cmake -P", warnings)
        self.assertIn("boom", warnings)


class PinnedDependency(unittest.TestCase):
    """--with a git checkout of the library: read at the tag the engine pins."""

    LIB_V1 = "import torch\n\ndef grouped_moe(x):\n    return x\n"
    LIB_V2 = ("import torch\n\ndef grouped_moe(x):\n    if torch.cuda.get_device_capability()[0] != 10:\n"
              "        raise RuntimeError('SM100 only')\n    return x\n")

    def git(self, *args):
        subprocess.run(["git", "-C", str(self.lib), *args], check=True, capture_output=True,
                       env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
                                GIT_COMMITTER_EMAIL="t@t"))

    def setUp(self):
        self.dir = pathlib.Path(scratch())
        self.lib, self.engine = self.dir / "kernlib", self.dir / "engine"
        make_tree(self.lib, {"pyproject.toml": '[project]\nname = "kern-lib"\n', "kern/__init__.py": "",
                             "kern/moe.py": self.LIB_V1})
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-qm", "v1")
        self.git("tag", "v1.0")
        (self.lib / "kern" / "moe.py").write_text(self.LIB_V2)
        self.git("commit", "-qam", "v2: SM100 only")
        make_tree(self.engine, {
            "requirements.txt": "kern_lib==1.0\n", "eng/__init__.py": "",
            "eng/moe.py": ("import enum\nfrom kern.moe import grouped_moe\n\n"
                           "class MoeBackend(enum.Enum):\n    GROUPED = 'grouped'\n\n"
                           "def run(moe_backend, x):\n    if moe_backend == MoeBackend.GROUPED:\n"
                           "        return grouped_moe(x)\n")})

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def cell(self, doc, backend, target):
        return next(c["verdict"] for c in doc["cells"] if c["backend"] == backend and c["target"] == target)

    def test_the_pinned_tag_is_read_not_head(self):
        tmpdir = scratch()
        r = run("audit", str(self.engine), "--with", str(self.lib), "--no-profile", "--format", "json",
                "--targets", "sm_100,sm_120", "--no-cache", env=dict(os.environ, TMPDIR=tmpdir))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("kernlib: read at v1.0", r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(self.cell(doc, "grouped", "sm_120"), "supported")  # v1.0 has no SM100-only raise
        self.assertEqual(list(pathlib.Path(tmpdir).iterdir()), [])  # the copy at v1.0 is gone
        # Pinned to HEAD's version: read as it is.
        (self.engine / "requirements.txt").write_text("kern_lib==2.0\n")
        self.git("tag", "v2.0")
        r = run("audit", str(self.engine), "--with", str(self.lib), "--no-profile", "--format", "json",
                "--targets", "sm_100,sm_120", "--no-cache")
        self.assertNotIn("read at", r.stderr)
        self.assertEqual(self.cell(json.loads(r.stdout), "grouped", "sm_120"), "rejected")

    def test_a_bare_mirror_is_read_at_the_pinned_tag_and_else_at_its_head(self):
        # A CI mirror (git clone --mirror) has no files: its distribution name comes
        # from HEAD's pyproject.toml, and the pinned tag is read out of git.
        mirror = self.dir / "mirror.git"
        subprocess.run(["git", "clone", "-q", "--mirror", str(self.lib), str(mirror)], check=True)
        r = run("audit", str(self.engine), "--with", str(mirror), "--no-profile", "--format", "json",
                "--targets", "sm_100,sm_120", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("kern-lib: read at v1.0", r.stderr)
        self.assertEqual(self.cell(json.loads(r.stdout), "grouped", "sm_120"), "supported")
        # Pinned to a version the mirror has no tag for: its HEAD, and a note says so.
        (self.engine / "requirements.txt").write_text("kern_lib==3.0\n")
        r = run("audit", str(self.engine), "--with", str(mirror), "--no-profile", "--format", "json",
                "--targets", "sm_100,sm_120", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("has no tag v3.0 or 3.0; read at its HEAD", r.stderr)
        self.assertEqual(self.cell(json.loads(r.stdout), "grouped", "sm_120"), "rejected")

    def test_diff_reads_a_bare_repository_and_audit_says_what_to_do(self):
        # The engine's own history, in a bare repository: each side read out of git.
        self.lib = self.engine  # self.git works in the engine's folder now
        (self.engine / "kern").mkdir()
        (self.engine / "kern" / "__init__.py").write_text("")
        (self.engine / "kern" / "moe.py").write_text(self.LIB_V1)
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("commit", "-qm", "grouped everywhere")
        (self.engine / "kern" / "moe.py").write_text(self.LIB_V2)
        self.git("commit", "-qam", "grouped on SM100 only")
        mirror = self.dir / "engine.git"
        subprocess.run(["git", "clone", "-q", "--bare", str(self.engine), str(mirror)], check=True)
        r = run("diff", "HEAD~1", "HEAD", str(mirror), "--no-profile", "--format", "json",
                "--targets", "sm_100,sm_120", "--no-cache")
        self.assertEqual(r.returncode, 0, r.stderr)
        changed = {(c["backend"], c["target"]): (c["before"], c["after"]) for c in json.loads(r.stdout)["changes"]}
        self.assertEqual(changed[("grouped", "sm_120")], ("supported", "rejected"), r.stdout)
        # git's range spelling names the same two revisions.
        ranged = run("diff", "HEAD~1..HEAD", str(mirror), "--no-profile", "--format", "json",
                     "--targets", "sm_100,sm_120", "--no-cache")
        self.assertEqual(ranged.returncode, 0, ranged.stderr)
        self.assertEqual(json.loads(ranged.stdout)["changes"], json.loads(r.stdout)["changes"])
        for bad, needle in [("HEAD~1...HEAD", "merge-base range"), ("HEAD~1..", "both ends")]:
            refused = run("diff", bad, str(mirror))
            self.assertEqual(refused.returncode, 2, refused.stderr)
            self.assertIn(needle, refused.stderr)
        r = run("audit", str(mirror))
        self.assertEqual(r.returncode, 3, r.stderr)
        self.assertIn("a bare git repository has no files to read", r.stderr)


class Validate(unittest.TestCase):
    def test_merge_rejects_bad_results_files(self):
        tmp = pathlib.Path(scratch())
        (tmp / "bad.json").write_text("{not json")
        (tmp / "other.json").write_text('{"something": 1}')
        for name, needle in [("bad.json", "not JSON"), ("other.json", "not an archscope results file"),
                             ("missing.json", "cannot read results file")]:
            r = run("validate", "--isa-only", "--merge", str(tmp / name))
            self.assertEqual(r.returncode, 3, r.stderr)
            self.assertIn(name, r.stderr)
            self.assertIn(needle, r.stderr)

    def test_merged_launch_upgrades_the_cell(self):
        if not (shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")):
            self.skipTest("no CUDA toolkit")
        tmp = pathlib.Path(scratch())
        launch = {"kind": "launch", "family": "w4a16", "target": "sm_90", "verdict": "launched-ok",
                  "shape": "T=8 H=7168 I=2048 E=256 k=8", "device": "Test GPU", "max_rel_err": 0.004}
        (tmp / "gpu.json").write_text(json.dumps({"archscope_results": 1, "results": [launch]}))
        profile = RULES / "family-predicate-gap" / "profile.yaml"
        r = run("validate", str(RULES / "family-predicate-gap" / "engine"), "--profile", str(profile),
                "--merge", str(tmp / "gpu.json"), "--results", str(tmp / "all.json"), "--format", "json", "-q",
                timeout=600)
        self.assertEqual(r.returncode, 0, r.stderr)
        cells = {(c["backend"], c["target"]): c for c in json.loads(r.stdout)["cells"]}
        self.assertEqual(cells[("marlin", "sm_90")]["launch"], "launched-ok")
        self.assertEqual(cells[("marlin", "sm_100")]["launch"], "")
        self.assertIn("no sm_100 GPU in the results", " ".join(cells[("marlin", "sm_100")]["not_run"]))
        self.assertEqual(cells[("cutlass", "sm_100")]["isa"], "isa-ok")
        merged = json.loads((tmp / "all.json").read_text())["results"]
        self.assertIn(launch["device"], [m.get("device") for m in merged])


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=1)
