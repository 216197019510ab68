"""Imported by the test (test_import): a call into the CUDA runtime and into cuBLAS, which works
without a GPU, where the wheel's requirements (cuda-toolkit[cublas,cudart]) installed them."""
from . import cublas_version, runtime_version

RUNTIME = runtime_version()
CUBLAS = cublas_version()
assert RUNTIME >= 12000, "the CUDA runtime says %d" % RUNTIME
assert CUBLAS >= 12000, "cuBLAS says %d" % CUBLAS
print("wgcmake: CUDA runtime %d, cuBLAS %d" % (RUNTIME, CUBLAS))
