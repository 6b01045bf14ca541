#!/usr/bin/env python3
"""The HTML page of `archscope docs` in a real headless browser.

Debian's chromium loads index.html from disk: the page must load with no
console error (a canary page proves console errors are caught), its DOM must
hold every matrix cell, a 1400x900 screenshot must show the colour-coded
matrix (decoded here with zlib: green, grey and red cells present), and the
page must print to PDF. Screenshot, DOM and PDF stay in OUTDIR (the build
tree's test output folder) for a person to look at.

usage: test_docs_browser.py ARCHSCOPE OUTDIR     exit 77 (skip) without chromium
"""
import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
COLOURS = {"ok": (0xDA, 0xFB, 0xE1), "rejected": (0xEA, 0xEE, 0xF2), "crash": (0xFF, 0xD7, 0xD5)}


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    if os.geteuid() == 0 and shutil.which("apt-get"):  # what scripts/install-deps.sh --test does
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True, env=env, timeout=600)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], capture_output=True, env=env, timeout=1200)
    return shutil.which("chromium")


def browse(browser, profile, url, *flags):
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={profile}",
            "--enable-logging=stderr", "--v=0", *flags, url]
    return subprocess.run(args, capture_output=True, text=True, timeout=120)


def console_lines(stderr):
    return [line for line in stderr.splitlines() if ":CONSOLE" in line or "Uncaught" in line or "Refused to" in line]


def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = header[:4]
    assert depth == 8 and colour in (2, 6), f"unexpected PNG format depth={depth} colour={colour}"
    bpp = 3 if colour == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def main():
    binary, out = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2])
    browser = chromium()
    if not browser:
        print("SKIP: no chromium (scripts/install-deps.sh --test installs it)")
        return SKIP
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    site = out / "site"
    r = subprocess.run([binary, "docs", "-o", str(site), "-q"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    matrix = json.loads(subprocess.run([binary, "audit", "--format", "json", "-q"], capture_output=True, text=True).stdout)
    profile = tempfile.mkdtemp()
    url = (site / "index.html").resolve().as_uri()
    failures = []

    # Console errors are caught: a page that logs one must show up.
    canary = out / "canary.html"
    canary.write_text("<!DOCTYPE html><script>console.error('archscope-canary')</script>")
    seen = console_lines(browse(browser, profile, canary.resolve().as_uri(), "--dump-dom").stderr)
    if not any("archscope-canary" in line for line in seen):
        failures.append("the browser's console is not captured (canary not seen); cannot check for errors")

    shot = out / "matrix.png"
    r = browse(browser, profile, url, f"--screenshot={shot}", "--window-size=1400,900", "--hide-scrollbars")
    failures += [f"console: {line}" for line in console_lines(r.stderr)]
    dom = browse(browser, profile, url, "--dump-dom")
    (out / "dom.html").write_text(dom.stdout)
    failures += [f"console: {line}" for line in console_lines(dom.stderr)]
    cells = re.findall(r'<td class="v-([a-z-]+)" title="[^"]*"><a href="#(c-[^"]+)"', dom.stdout)
    expected = len([c for c in matrix["cells"]])
    if len(cells) != expected:
        failures.append(f"DOM holds {len(cells)} matrix cells, the audit {expected}")
    missing = [a for _, a in cells if f'id="{a}"' not in dom.stdout]
    if missing:
        failures.append(f"cells without an evidence section: {missing[:3]}")

    if not shot.exists() or shot.stat().st_size < 10_000:
        failures.append("no screenshot, or a tiny one")
    else:
        width, height, rows = png_pixels(shot)
        if (width, height) != (1400, 900):
            failures.append(f"screenshot is {width}x{height}")
        counts = {name: 0 for name in COLOURS}
        distinct = set()
        for row in rows:
            for px in row:
                distinct.add(px)
                for name, rgb in COLOURS.items():
                    if all(abs(px[i] - rgb[i]) <= 6 for i in range(3)):
                        counts[name] += 1
        if len(distinct) < 50:
            failures.append(f"screenshot looks blank ({len(distinct)} colours)")
        for name, n in counts.items():
            if n < 2000:
                failures.append(f"too few {name}-coloured pixels in the screenshot ({n}): is the matrix visible?")
        print(f"screenshot {shot}: {width}x{height}, {len(distinct)} colours, matrix pixels {counts}")

    pdf = out / "matrix.pdf"
    browse(browser, profile, url, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    if not pdf.exists() or not pdf.read_bytes().startswith(b"%PDF") or pdf.stat().st_size < 10_000:
        failures.append("the page does not print to PDF")
    shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
