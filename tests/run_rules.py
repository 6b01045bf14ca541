#!/usr/bin/env python3
"""Runs `archscope lint` on one rule fixture and checks its inline expectations.

A fixture is a folder tests/rules/<rule-id>/ holding a tree `engine/` and,
optionally, a library tree `lib/` (passed with --with) and `profile.yaml`.
Lines that must be flagged say so in a comment, on the line itself or on the
line before it:

    if cc >= (10, 0):  # EXPECT: open-ended-arch-guard
    // EXPECT-NEXT-LINE: exact-arch-equality

Every finding must be expected and every expectation met: an unexpected
finding is Noisy (a false positive; the fixture's unmarked lines are the
cases the rule must not flag), an unmet one is Missing. The fixture must
expect at least one finding of its own rule. Exit 0 when all match.
"""
import json
import pathlib
import re
import subprocess
import sys

EXPECT = re.compile(r"EXPECT(-NEXT-LINE)?:\s*([a-z0-9-]+)")


def expectations(tree):
    out = set()
    for path in sorted(p for p in tree.rglob("*") if p.is_file()):
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for m in EXPECT.finditer(line):
                out.add((m[2], str(path.resolve()), n + (1 if m[1] else 0)))
    return out


def main():
    binary, case = str(pathlib.Path(sys.argv[1]).resolve()), pathlib.Path(sys.argv[2]).resolve()
    rule = case.name
    cmd = [binary, "lint", str(case / "engine"), "--format", "json", "-q", "--min-severity", "note"]
    if (case / "lib").is_dir():
        cmd += ["--with", str(case / "lib")]
    if (case / "profile.yaml").is_file():
        cmd += ["--profile", str(case / "profile.yaml")]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=case)
    if run.returncode not in (0, 1):
        print(f"FAIL {rule}: archscope exited {run.returncode}\n{run.stderr}")
        return 1
    doc = json.loads(run.stdout)
    got = {(f["rule"], str((case / f["location"]["path"]).resolve()), f["location"]["line"]): f["message"]
           for f in doc["findings"]}
    want = expectations(case)
    ok = True
    if not any(r == rule for r, _, _ in want):
        print(f"FAIL {rule}: the fixture expects no finding of its own rule")
        ok = False
    for key in sorted(want - got.keys()):
        print(f"Missing {key[0]} at {key[1]}:{key[2]}")
        ok = False
    for key in sorted(got.keys() - want):
        print(f"Noisy {key[0]} at {key[1]}:{key[2]}: {got[key]}")
        ok = False
    for key in sorted(want & got.keys()):
        print(f"ok {key[0]} at {pathlib.Path(key[1]).name}:{key[2]}: {got[key]}")
    if (run.returncode == 1) != bool(got):
        print(f"FAIL {rule}: exit code {run.returncode} with {len(got)} findings")
        ok = False
    print(("PASS " if ok else "FAIL ") + rule)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
