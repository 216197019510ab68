"""wgcuda: wheelgen's CUDA fixture. runtime_version() works anywhere; add() needs a GPU."""
from ._kernels import add, device_count, dtype_selftest, runtime_version

__all__ = ["add", "device_count", "runtime_version", "gpu_selftest"]


def gpu_selftest(n=1000):
    """Run the kernel on the GPU and check its result; raises if no GPU is usable."""
    a = [float(i) for i in range(n)]
    b = [2.0 * i for i in range(n)]
    c = add(a, b)
    assert c == [3.0 * i for i in range(n)], "wrong sums from the GPU"
    for dtype, name in enumerate(("fp32", "fp16", "bf16")):
        rc = dtype_selftest(dtype, 4096)
        assert rc == 0, "%s kernels: %s" % (name, "wrong result" if rc == -1 else "CUDA error %d" % rc)
    return True
