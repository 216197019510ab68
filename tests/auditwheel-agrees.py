"""tests: does auditwheel agree with each wheel's platform tag?

    python tests/auditwheel-agrees.py WHEEL...     (a Python with auditwheel, as templates/linux-repair.py's)

For each Linux wheel: auditwheel's analysis (what `auditwheel show` prints), with the
exclusions the build's repair gives it (torch's libraries, the driver and the CUDA toolkit's of
templates/cuda-libs.txt: a wheel declares or is given those, it never carries them), and the
wheel's one platform tag, which must be manylinux_2_X_<machine> with X the most compatible
glibc auditwheel allows (raised to 2_28 for aarch64, the floor of that platform). Prints a line
per wheel; exits 1 if any disagrees.
"""
import importlib.util
import os
import re
import sys
from pathlib import Path

from auditwheel.libc import Libc
from auditwheel.wheel_abi import analyze_wheel_abi

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("linux_repair", os.path.join(here, "..", "templates", "linux-repair.py"))
lr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lr)
exclude = set(lr.ALWAYS_EXCLUDED)
for row in lr.read_table(os.path.join(here, "..", "templates", "cuda-libs.txt")):
    exclude.add(row[0] + ".so*")

bad = 0
for w in sys.argv[1:]:
    tag = os.path.basename(w)[:-4].split("-")[-1]
    m = re.match(r"^manylinux_2_(\d+)_(x86_64|aarch64)$", tag)
    # (glibc: a module that calls nothing of the C library does not say which it is)
    info = analyze_wheel_abi(Libc.GLIBC, None, Path(w), frozenset(exclude), disable_isa_ext_check=False, allow_graft=False)
    aw = re.match(r"^manylinux_2_(\d+)_", info.overall_policy.name)
    want = None
    if m and aw:
        want = max(int(aw.group(1)), 28 if m.group(2) == "aarch64" else 0)
    ok = bool(m) and want == int(m.group(1))
    print("%s: tagged %s; auditwheel (with the CUDA and torch exclusions): %s%s"
          % (os.path.basename(w), tag, info.overall_policy.name, "" if ok else "  <-- disagrees"))
    bad += not ok
sys.exit(1 if bad else 0)
