#!/usr/bin/env python3
"""Every rule id is one string everywhere: `archscope lint --list-rules`, its doc
page docs/rules/<id>.md and its fixture tests/rules/<id>/; nothing orphaned."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    out = subprocess.run([sys.argv[1], "lint", "--list-rules"], capture_output=True, text=True, check=True).stdout
    ids = {line.split()[0] for line in out.splitlines() if line.strip()}
    docs = {p.stem for p in (ROOT / "docs/rules").glob("*.md")}
    fixtures = {p.name for p in (ROOT / "tests/rules").iterdir() if p.is_dir()}
    problems = [f"{i}: no docs/rules/{i}.md" for i in sorted(ids - docs)]
    problems += [f"{i}: no tests/rules/{i}/" for i in sorted(ids - fixtures)]
    problems += [f"docs/rules/{d}.md: no such rule" for d in sorted(docs - ids)]
    problems += [f"tests/rules/{f}/: no such rule" for f in sorted(fixtures - ids)]
    for p in problems:
        print("FAIL " + p)
    print(f"{len(ids)} rules" + (" PASS" if not problems else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
