"""What the manifest and the index need of a built wheel, relabelled first if asked.

    python wheel-info.py [--forbid PATH]... [--requires FILE] [--dependencies-to FILE] [--gpu-archs-to FILE]
                         WHEEL METADATA_OUT [LABEL OUTDIR [REQUIREMENT]]

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

--dependencies-to and --gpu-archs-to write into FILE, for the final wheel, the line that
--dependencies (of METADATA_OUT) and --gpu-archs print: one start of Python for all of it.

    python wheel-info.py --missing-modules WHEEL OTHER

prints, one a line, the compiled modules of the wheel OTHER that WHEEL lacks (build-host.sh:
an aarch64 or win_amd64 wheel against the x86_64 wheel of its package, version and Python).
A compiled module is a member ending .so or .pyd, named by its dotted path without the ABI and
platform suffix (pkg/_c.cpython-311-x86_64-linux-gnu.so, pkg/_c.abi3.so, pkg/_c.cp311-win_amd64.pyd,
pkg/_c.so: pkg._c); auditwheel's and delvewheel's vendored libraries (a top folder ending .libs)
and a plain lib*.so (a shared library, not a module) are none.

    python wheel-info.py --gpu-archs WHEEL

prints on one line the GPU code of WHEEL's shared objects (every member ending .so or .pyd, and
.so.N), the union of them: sm_XY for a real cubin (sm_XYa: arch-specific, runs on X.Y alone),
compute_XY for PTX (compute_XYa, compute_XYf), cubins first, each by number. They are read from
the CUDA fat binaries in the objects (an ELF object's .nv_fatbin section, or anywhere in another
file), as NVIDIA's cuobjdump --list-elf and --list-ptx name them, whatever machine the object is
for; nothing for a wheel without GPU code.

    python wheel-info.py --dependencies METADATA

prints on one line the projects METADATA's Requires-Dist names (PEP 503 normalized, sorted),
leaving out those only an extra asks for (the index's finder: does the install need PyPI too).

The first form relabels and reads the wheel in one interpreter: each start of the cell's Python
costs a build tens of milliseconds, so build-host.sh asks it for the dependencies and GPU code too.
Run by build-host.sh with the cell's own Python (3.6 and later).
"""

import hashlib
import mmap
import os
import re
import shutil
import struct
import sys
import tempfile
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


# a CUDA fat binary: its header (magic, version, header size, size of what follows) and, in it,
# one entry a cubin or PTX (kind 2 or 1, ..., the SM number at +28, flags at +40: 0x100000 an
# arch-specific "a" target, 0x200000 a family "f" one); cuobjdump names a family cubin sm_XY
FATBIN_MAGIC = struct.pack("<I", 0xBA55ED50)
FATBIN_A, FATBIN_F = 0x100000, 0x200000


def fatbin_entries(data, start, end, found):
    """Add the GPU code of the fat binaries in data[start:end] to found: (kind, sm, suffix)."""
    p = data.find(FATBIN_MAGIC, start, end)
    while 0 <= p and p + 16 <= end:
        _, _, hsize, size = struct.unpack_from("<IHHQ", data, p)
        q, stop = p + hsize, min(p + hsize + size, end)
        while hsize >= 16 and q + 48 <= stop:
            kind, _, ehsize, payload = struct.unpack_from("<HHIQ", data, q)
            if ehsize < 48 or q + ehsize > stop:
                break
            sm = struct.unpack_from("<I", data, q + 28)[0]
            flags = struct.unpack_from("<Q", data, q + 40)[0]
            if kind in (1, 2) and 10 <= sm < 1000:
                suffix = "a" if flags & FATBIN_A else "f" if flags & FATBIN_F and kind == 1 else ""
                found.add((kind, sm, suffix))
            q += ehsize + payload
        p = data.find(FATBIN_MAGIC, max(stop, p + 4), end)


def elf_fatbins(data):
    """The (offset, end) of an ELF object's .nv_fatbin sections; None when data is no ELF."""
    if data[:4] != b"\x7fELF" or len(data) < 64:
        return None
    e = "<" if data[5] == 1 else ">"
    if data[4] == 2:
        shoff = struct.unpack_from(e + "Q", data, 0x28)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x3A)
        sect = lambda i: struct.unpack_from(e + "IIQQQQ", data, shoff + i * shentsize)
    else:
        shoff = struct.unpack_from(e + "I", data, 0x20)[0]
        shentsize, shnum, shstrndx = struct.unpack_from(e + "HHH", data, 0x2E)
        sect = lambda i: struct.unpack_from(e + "IIIIII", data, shoff + i * shentsize)
    if not shoff or shnum == 0 or shstrndx >= shnum or shoff + shnum * shentsize > len(data):
        return []
    strtab = sect(shstrndx)
    found = []
    for i in range(shnum):
        name, kind, _, _, off, size = sect(i)
        at = strtab[4] + name
        if kind != 8 and data[at:at + 11] == b".nv_fatbin\0" and off + size <= len(data):
            found.append((off, off + size))
    return found


def gpu_archs(wheel):
    """The GPU code of WHEEL's shared objects, as cuobjdump names it (a list, in order)."""
    found = set()
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            base = info.filename.rsplit("/", 1)[-1]
            if not (base.endswith((".so", ".pyd")) or ".so." in base) or info.file_size < 64:
                continue
            # through a temporary file and mmap: a real extension may be a gigabyte
            with z.open(info) as src, tempfile.TemporaryFile() as tmp:
                shutil.copyfileobj(src, tmp, 1 << 20)
                tmp.flush()
                data = mmap.mmap(tmp.fileno(), 0, access=mmap.ACCESS_READ)
                try:
                    try:
                        ranges = elf_fatbins(data)
                    except struct.error:
                        ranges = None
                    for start, end in ranges if ranges is not None else [(0, len(data))]:
                        fatbin_entries(data, start, end, found)
                finally:
                    data.close()
    return ["%s_%d%s" % ("sm" if k == 2 else "compute", sm, sfx) for k, sm, sfx in sorted(found, key=lambda f: (-f[0], f[1], f[2]))]


def dependencies(meta):
    """The projects of METADATA's Requires-Dist (PEP 503 names, sorted), less those an extra asks for."""
    names, current = set(), None
    for line in meta.decode("utf-8", "replace").splitlines() + [""]:
        if line[:1] in (" ", "\t") and current is not None:
            current += " " + line.strip()
            continue
        if current is not None and "extra" not in current.partition(";")[2]:
            m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", current)
            if m:
                names.add(re.sub(r"[-_.]+", "-", m.group(1)).lower())
        current = None
        if not line.strip():
            break
        name, sep, rest = line.partition(":")
        if sep and name.strip().lower() == "requires-dist":
            current = rest.strip()
    return sorted(names)


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
    if len(argv) == 3 and argv[1] == "--gpu-archs":
        print(" ".join(gpu_archs(argv[2])))
        return
    if len(argv) == 3 and argv[1] == "--dependencies":
        with open(argv[2], "rb") as f:
            print(" ".join(dependencies(f.read())))
        return
    if len(argv) == 4 and argv[1] == "--missing-modules":
        for m in sorted(modules(argv[3]) - modules(argv[2])):
            print(m)
        return
    argv = list(argv)
    forbid, requires, deps_to, gpu_to = [], [], None, None
    while len(argv) > 2 and argv[1] in ("--forbid", "--requires", "--dependencies-to", "--gpu-archs-to"):
        if argv[1] == "--forbid":
            forbid.append(argv[2])
        elif argv[1] == "--dependencies-to":
            deps_to = argv[2]
        elif argv[1] == "--gpu-archs-to":
            gpu_to = argv[2]
        else:
            with open(argv[2]) as f:
                requires += [line.strip() for line in f if line.strip()]
        del argv[1:3]
    if len(argv) not in (3, 5, 6):
        sys.exit("usage: wheel-info.py [--forbid PATH]... [--requires FILE] [--dependencies-to FILE] [--gpu-archs-to FILE]\n"
                 "                     WHEEL METADATA_OUT [LABEL OUTDIR [REQUIREMENT]]\n"
                 "       wheel-info.py --missing-modules WHEEL OTHER\n"
                 "       wheel-info.py --gpu-archs WHEEL\n"
                 "       wheel-info.py --dependencies METADATA")
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
    for path, line in ((deps_to, lambda: dependencies(meta)), (gpu_to, lambda: gpu_archs(wheel))):
        if path:
            with open(path, "w") as f:
                f.write(" ".join(line()) + "\n")
    print(h.hexdigest(), os.path.getsize(wheel), hashlib.sha256(meta).hexdigest(), requires_python(meta))


if __name__ == "__main__":
    main(sys.argv)
