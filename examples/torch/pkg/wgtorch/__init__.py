"""wheelgen's torch CUDA extension fixture."""
import torch

from . import _C  # noqa: F401  (loading it registers torch.ops.wgtorch)

scale = torch.ops.wgtorch.scale
cuda_runtime_version = torch.ops.wgtorch.cuda_runtime_version

__all__ = ["cuda_runtime_version", "scale"]
