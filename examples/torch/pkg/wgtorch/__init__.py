"""wheelgen's torch CUDA extension fixture."""
import torch  # noqa: F401  (loads libc10/libtorch before the extension)

from ._C import cuda_runtime_version, scale

__all__ = ["cuda_runtime_version", "scale"]
