#!/usr/bin/env python3
"""Runs archscope on one self-checking input and checks its inline expectations.

An input is a folder tests/python/<case>/ holding an engine tree `engine/`
and, optionally, a kernel library tree `lib/` (passed with --with). Its .py
files state what archscope must report, in comments:

    # EXPECT-PREDICATE: pkg.mod.name true_on=sm_100,sm_103     (or true_on=none)
    # EXPECT-CELL: backend sm_120 crash-risk [picked=gen_cubins]
    # EXPECT-NO-ROW: backend                     (no cell of that row at all)

Predicates are checked strictly: a predicate archscope reports without an
expectation is Noisy (a false positive), an expectation it does not meet is
Missing (a false negative). Cells are checked where an expectation names them.
With --no-profile the case runs without its profile.yaml (the expectations
must then hold from the code alone); --profile FILE runs it with another.
Exit 0 when everything matches, 1 otherwise.
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

PRED = re.compile(r"#\s*EXPECT-PREDICATE:\s*(\S+)\s+true_on=(\S+)")
CELL = re.compile(r"#\s*EXPECT-CELL:\s*(\S+)\s+(sm_\d+)\s+(\S+)(?:\s+picked=(\S+))?")
NO_ROW = re.compile(r"#\s*EXPECT-NO-ROW:\s*(\S+)")


def expectations(case):
    preds, cells, absent = {}, {}, {}
    for path in sorted(case.rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if m := NO_ROW.search(line):
                absent[m[1]] = f"{path.relative_to(case)}:{n}"
            if m := PRED.search(line):
                on = [] if m[2] == "none" else m[2].split(",")
                preds[m[1]] = (on, f"{path.relative_to(case)}:{n}")
            if m := CELL.search(line):
                cells[(m[1], m[2])] = (m[3], m[4], f"{path.relative_to(case)}:{n}")
    return preds, cells, absent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("case", type=pathlib.Path)
    ap.add_argument("--no-profile", action="store_true", help="run without the case's profile.yaml")
    ap.add_argument("--profile", help="run with this profile instead of the case's")
    args = ap.parse_args()
    binary, case = args.binary, args.case
    cmd = [binary, "audit", str(case / "engine"), "--targets", "all", "--format", "json", "-q"]
    if args.no_profile:
        cmd += ["--no-profile"]
    elif args.profile or (case / "profile.yaml").is_file():
        cmd += ["--profile", args.profile or str(case / "profile.yaml")]
    if (case / "lib").is_dir():
        cmd += ["--with", str(case / "lib")]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL {case.name}: archscope exited {run.returncode}: {run.stderr.strip()}")
        return 1
    doc = json.loads(run.stdout)
    preds, cells, absent = expectations(case)
    if not preds and not cells and not absent:
        print(f"FAIL {case.name}: the input states no expectation")
        return 1
    problems = []
    seen = {p["name"]: p["true_on"] for p in doc["predicates"]}
    for name, on in seen.items():
        if name not in preds:
            problems.append(f"Noisy: predicate {name} reported (true on {on or 'none'}) but not expected")
    for name, (on, where) in preds.items():
        if name not in seen:
            problems.append(f"Missing: predicate {name} ({where}) not reported")
        elif seen[name] != on:
            problems.append(f"Missing: predicate {name} ({where}) true on {seen[name] or 'none'}, expected {on or 'none'}")
    got = {(c["backend"], c["target"]): c for c in doc["cells"]}
    for key, (verdict, picked, where) in cells.items():
        cell = got.get(key)
        if cell is None:
            problems.append(f"Missing: no cell {key[0]} {key[1]} ({where})")
            continue
        if cell["verdict"] != verdict or (picked and cell.get("picked") != picked):
            problems.append(f"Wrong: {key[0]} {key[1]} ({where}) is {cell['verdict']}"
                            f"{' picked=' + cell.get('picked', '') if picked else ''}, expected {verdict}"
                            f"{' picked=' + picked if picked else ''}: {cell['reason']}")
    for row, where in absent.items():
        if any(b == row for b, _ in got):
            problems.append(f"Noisy: row {row} ({where}) reported but not expected")
    for p in problems:
        print(f"  {p}")
    checked = len(preds) + len(cells) + len(absent)
    print(f"{'PASS' if not problems else 'FAIL'} {case.name}: {checked - len(problems)} of {checked} expectations met")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
