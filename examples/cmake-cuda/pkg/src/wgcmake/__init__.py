"""wgcmake: wheelgen's CMake CUDA fixture. runtime_version() and cublas_version() work anywhere
(they call into the shared CUDA runtime and cuBLAS, which PyPI's wheels provide); gpu_selftest()
needs a GPU."""
from ._kernels import axpy, cublas_version, runtime_version

__all__ = ["axpy", "cublas_version", "runtime_version", "gpu_selftest"]


def gpu_selftest(n=1000):
    """Run the kernel on the GPU and check its result; raises if no GPU is usable."""
    y = axpy(2.0, [float(i) for i in range(n)], [1.0] * n)
    assert y == [2.0 * i + 1.0 for i in range(n)], "wrong results from the GPU"
    return True
