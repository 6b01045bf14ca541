"""pre-commit (and the PyYAML it brings) from the Python package index,
installed once into the build tree with pinned versions and hashes
(cmake/precommit-requirements.txt); never into the system or the user's
site-packages. Tests that need it skip (exit 77) when it cannot be installed."""
import fcntl
import hashlib
import pathlib
import subprocess
import sys

REQUIREMENTS = pathlib.Path(__file__).resolve().parents[2] / "cmake" / "precommit-requirements.txt"


def ensure(target):
    """Installs into `target` unless the same requirements already are; returns
    the folder to put on PYTHONPATH, or None when pip cannot install them."""
    target = pathlib.Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    stamp = target / ".requirements-sha256"
    want = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    with open(str(target) + ".lock", "w") as lock:  # two tests may ask at once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stamp.exists() and stamp.read_text() == want:
            return target
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                            "--no-deps", "--require-hashes", "--upgrade", "--target", str(target),
                            "-r", str(REQUIREMENTS)], capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            print("cannot install pre-commit from the package index:", r.stderr.strip()[-400:])
            return None
        stamp.write_text(want)
        return target
