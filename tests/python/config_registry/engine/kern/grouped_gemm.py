_HAS_FASTLIB = False
try:
    import fastlib

    _HAS_FASTLIB = True
except ImportError:
    pass


def check_lib():
    if not _HAS_FASTLIB:
        raise RuntimeError("fastlib is not installed: pip install fastlib")
