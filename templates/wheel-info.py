"""What the manifest and the index need of a built wheel, relabelled first if asked.

    python wheel-info.py WHEEL METADATA_OUT [LABEL OUTDIR [REQUIREMENT]]

With LABEL, the wheel is first given that local version label (relabel.py; the
copy goes into OUTDIR); with REQUIREMENT, its Requires-Dist on torch is that (LABEL
may then be empty). Then the wheel's METADATA is written to METADATA_OUT
(the index serves it beside the wheel: PEP 658/714) and one line is printed,
of the final wheel (the relabelled copy, or WHEEL):

    SHA256 SIZE METADATA_SHA256 [REQUIRES_PYTHON]

    python wheel-info.py --missing-modules WHEEL OTHER

prints, one a line, the compiled modules of the wheel OTHER that WHEEL lacks (build-host.sh:
an aarch64 or win_amd64 wheel against the x86_64 wheel of its package, version and Python).
A compiled module is a member ending .so or .pyd, named by its dotted path without the ABI and
platform suffix (pkg/_c.cpython-311-x86_64-linux-gnu.so, pkg/_c.abi3.so, pkg/_c.cp311-win_amd64.pyd,
pkg/_c.so: pkg._c); auditwheel's and delvewheel's vendored libraries (a top folder ending .libs)
and a plain lib*.so (a shared library, not a module) are none.

One interpreter does both steps: each start of the cell's Python costs a build tens of milliseconds.
Run by build-host.sh with the cell's own Python (3.6 and later).
"""

import hashlib
import os
import sys
import zipfile


def requires_python(meta):
    """METADATA's Requires-Python (the first one; folded lines joined), or "": the headers
    read as the email module would, without its import (a tenth of this script's time)."""
    value, current = None, False
    for line in meta.decode("utf-8", "replace").splitlines():
        if not line.strip():
            break  # the headers end at the first blank line
        if line[0] in " \t":
            if current:
                value += " " + line.strip()
            continue
        current = False
        name, sep, rest = line.partition(":")
        if value is None and sep and name.strip().lower() == "requires-python":
            value, current = rest.strip(), True
    return " ".join((value or "").split())


def modules(wheel):
    """The dotted names of WHEEL's compiled modules (a set)."""
    found = set()
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if not name.endswith((".so", ".pyd")):
                continue
            parts = name.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            if parts[0].endswith(".libs"):
                continue
            base = parts[-1]
            stem = base.split(".", 1)[0]
            if base == stem + ".so" and stem.startswith("lib"):
                continue
            found.add(".".join(parts[:-1] + [stem]))
    return found


def main(argv):
    if len(argv) == 4 and argv[1] == "--missing-modules":
        for m in sorted(modules(argv[3]) - modules(argv[2])):
            print(m)
        return
    if len(argv) not in (3, 5, 6):
        sys.exit("usage: wheel-info.py WHEEL METADATA_OUT [LABEL OUTDIR [REQUIREMENT]]\n"
                 "       wheel-info.py --missing-modules WHEEL OTHER")
    wheel, meta_out = argv[1], argv[2]
    if len(argv) >= 5:
        from relabel import relabel  # beside this file: sys.path[0]

        wheel = relabel(wheel, argv[3], argv[4], argv[5] if len(argv) == 6 else None)
    h = hashlib.sha256()
    with open(wheel, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
        if len(names) != 1:
            sys.exit("wheel-info: %s has %d .dist-info/METADATA files, expected one" % (wheel, len(names)))
        meta = z.read(names[0])
    with open(meta_out, "wb") as f:
        f.write(meta)
    print(h.hexdigest(), os.path.getsize(wheel), hashlib.sha256(meta).hexdigest(), requires_python(meta))


if __name__ == "__main__":
    main(sys.argv)
