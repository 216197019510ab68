"""wheelgen's shards fixture: total() sums what the eight parts compute."""
from ._C import total

__all__ = ["total"]
