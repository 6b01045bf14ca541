#!/usr/bin/env python3
"""Golden matrix of the bundled example engine.

Runs `archscope audit --format json --targets all` on the bundled example and
compares one line per cell (backend, target, verdict, picked backend, and the
first evidence location) with the golden file. `--update` rewrites it.
"""
import json
import pathlib
import subprocess
import sys


def render(binary):
    run = subprocess.run([binary, "audit", "--targets", "all", "--format", "json", "-q"],
                         capture_output=True, text=True, check=True)
    doc = json.loads(run.stdout)
    lines = []
    for c in doc["cells"]:
        where = next((f"{e['path']}:{e['line']}" for e in c["evidence"] if "path" in e), "-")
        picked = c.get("picked", "-")
        lines.append(f"{c['backend']:<24} {c['target']:<7} {c['verdict']:<12} {picked:<11} {where}")
    return "\n".join(lines) + "\n"


def main():
    binary, golden = sys.argv[1], pathlib.Path(sys.argv[2])
    got = render(binary)
    if "--update" in sys.argv:
        golden.write_text(got)
        print(f"updated {golden}")
        return 0
    want = golden.read_text()
    if got == want:
        print(f"PASS golden {golden.name}: {len(want.splitlines())} cells match")
        return 0
    import difflib
    sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "archscope"))
    print(f"FAIL golden {golden.name}: the matrix differs (rerun with --update if the change is intended)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
