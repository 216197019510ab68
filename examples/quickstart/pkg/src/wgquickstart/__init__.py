"""wheelgen quickstart example package.

The real work happens in the C extension ``wgquickstart._speedups``.
"""

from wgquickstart._speedups import fib, version

__all__ = ["fib", "version", "selfcheck"]
__version__ = "0.1.0"


def selfcheck():
    """Raise AssertionError unless the compiled extension behaves."""
    assert fib(0) == 0
    assert fib(1) == 1
    assert fib(10) == 55
    assert fib(93) == 12200160415121876738
    assert version() == __version__, (version(), __version__)
    try:
        fib(-1)
    except ValueError:
        pass
    else:
        raise AssertionError("fib(-1) did not raise ValueError")
    try:
        fib(94)
    except OverflowError:
        pass
    else:
        raise AssertionError("fib(94) did not raise OverflowError")
    return True
