"""wgfamily: wheelgen's family fixture. built_for() is the PY_VERSION that pyver.cu was compiled
against: importing under another Python fails, so a wheel whose pyver.cu object came from
another Python's build never passes its import test."""
import platform

from ._kernels import built_for, gpu_selftest

__all__ = ["built_for", "gpu_selftest"]

print("wgfamily: built for Python %s, imported by Python %s" % (built_for(), platform.python_version()))
if built_for() != platform.python_version():
    raise ImportError("wgfamily: pyver.cu was compiled against Python %s, not this %s" % (built_for(), platform.python_version()))
