# A registry of build dependencies keyed by a name that is also a MoE
# runner's ("cutlass", as in SGLang's jit_kernel/utils.py).
# It is not an entry of the MoE cutlass backend: if it were, its raise would
# reject cutlass everywhere (see eng/quantization/modelopt.py: cutlass sm_120
# supported).
import importlib.util
import pathlib

DEPENDENCIES = {}


def _package_root(package):
    spec = importlib.util.find_spec(package)
    if spec is None or spec.origin is None:
        return None
    return pathlib.Path(spec.origin).resolve().parent


def register_dependency(name):
    def wrap(fn):
        DEPENDENCIES[name] = fn
        return fn

    return wrap


@register_dependency("cutlass")
def cutlass_include_paths():
    paths = []
    root = _package_root("cutlass_library")
    if root is not None:
        for path in (root / "include", root / "tools" / "include"):
            if path.exists():
                paths.append(str(path))
    unique = []
    for path in paths:
        if path not in unique:
            unique.append(path)
    if not unique:
        raise RuntimeError("Cannot find the CUTLASS headers the JIT build needs")
    return unique
