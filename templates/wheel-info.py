"""What the manifest and the index need of a built wheel, relabelled first if asked.

    python wheel-info.py [--forbid PATH]... [--requires FILE] WHEEL METADATA_OUT [LABEL OUTDIR [REQUIREMENT]]

With LABEL, the wheel is first given that local version label (relabel.py; the
copy goes into OUTDIR); with REQUIREMENT, its Requires-Dist on torch is that (LABEL
may then be empty); with --requires, the requirements FILE lists (one a line: the CUDA
libraries linux-repair.py found) are added, each unless METADATA requires that distribution
already. No ELF or PE file of the wheel may name a --forbid PATH (the build directory: a
RUNPATH, a string, a debug path): one that does fails here, naming the file and what it says
there. Then the wheel's METADATA is written to METADATA_OUT
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


def binaries(z):
    """The members of a wheel that are ELF or PE files, with their bytes."""
    for info in z.infolist():
        if info.filename.endswith("/") or info.file_size < 64:
            continue
        with z.open(info) as f:
            head = f.read(4)
        if head == b"\x7fELF" or head[:2] == b"MZ":
            yield info.filename, z.read(info.filename)


def forbidden(wheel, paths):
    """Where the ELF and PE files of wheel name one of paths: "member: the string there"."""
    found = []
    needles = [p.encode("utf-8") for p in paths if p and p != "/"]
    with zipfile.ZipFile(wheel) as z:
        for name, data in binaries(z):
            for needle in needles:
                at = data.find(needle)
                if at < 0:
                    continue
                # the string it is in: from the NUL before to the NUL after (at most 200 bytes)
                lo = max(data.rfind(b"\0", max(0, at - 200), at) + 1, at - 200)
                hi = data.find(b"\0", at, at + 200)
                text = data[lo:hi if hi >= 0 else at + 200].decode("utf-8", "replace")
                found.append("%s: %s" % (name, text))
                break
    return found


def main(argv):
    if len(argv) == 4 and argv[1] == "--missing-modules":
        for m in sorted(modules(argv[3]) - modules(argv[2])):
            print(m)
        return
    argv = list(argv)
    forbid, requires = [], []
    while len(argv) > 2 and argv[1] in ("--forbid", "--requires"):
        if argv[1] == "--forbid":
            forbid.append(argv[2])
        else:
            with open(argv[2]) as f:
                requires += [line.strip() for line in f if line.strip()]
        del argv[1:3]
    if len(argv) not in (3, 5, 6):
        sys.exit("usage: wheel-info.py [--forbid PATH]... [--requires FILE] WHEEL METADATA_OUT [LABEL OUTDIR [REQUIREMENT]]\n"
                 "       wheel-info.py --missing-modules WHEEL OTHER")
    wheel, meta_out = argv[1], argv[2]
    if len(argv) >= 5:
        from relabel import relabel  # beside this file: sys.path[0]

        wheel = relabel(wheel, argv[3], argv[4], argv[5] if len(argv) == 6 else None, requires)
    bad = forbidden(wheel, forbid)
    if bad:
        sys.exit("wheel-info: %s names a path of the build machine (%s) in %d file%s; a user's machine has "
                 "none of it, and two builds in two places would differ (docs/troubleshooting.md, \"a path of "
                 "the build machine in a wheel\"):\n  %s"
                 % (os.path.basename(wheel), " or ".join(forbid), len(bad), "" if len(bad) == 1 else "s",
                    "\n  ".join(bad)))
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
