"""wheelgen's shards example: add(x, k) = x + k (k in 1..8), one CUDA kernel per k."""
import torch

from . import _C  # noqa: F401  (loading it registers torch.ops.wgshards)

add = torch.ops.wgshards.add

__all__ = ["add"]
