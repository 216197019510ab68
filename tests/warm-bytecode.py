# Compile the bytecode of the unpacked wheels in the suite's uv cache (tests/run.sh runs it after
# a run, for the next one). uv links an entry's files into each venv it fills, __pycache__
# included, so a venv's pip, setuptools or torch then imports from bytecode instead of compiling
# each module from source in every process (this machine's environment sets
# PYTHONDONTWRITEBYTECODE=1: nothing would ever write it). A .pyc is used only by its own Python
# minor version and only while its source's mtime and size match (a hard link shares both; a copy
# that differs is compiled as before), so a stale or foreign one costs time, never a wrong import.
#
#   python3 tests/warm-bytecode.py CACHE HOSTTXT STAMPS
#       CACHE: a uv cache directory (its archive-v*/<id>/ entries); HOSTTXT: configure's
#       host.txt, whose "python X.Y PATH" lines name the Pythons to compile for; STAMPS: a
#       directory of this script's, outside CACHE
#
# An entry is compiled for each Python its wheel's tags allow (cpXY: that one; py3, abi3: all)
# and stamped with the versions done (STAMPS/<archive>-<id>), so a warm cache costs a listing.
# *.data/ and *.dist-info/ are left alone: uv refuses a wheel whose scripts directory holds one.
import glob, os, re, subprocess, sys

# run by each Python: compile the directories named on stdin (3.6 has no invalidation_mode: its
# default is the timestamp too; SOURCE_DATE_EPOCH would make 3.7+ choose hashes)
COMPILE = r"""
import compileall, py_compile, sys
kw = {}
if hasattr(py_compile, "PycInvalidationMode"):
    kw["invalidation_mode"] = py_compile.PycInvalidationMode.TIMESTAMP
for d in sys.stdin.read().splitlines():
    compileall.compile_dir(d, maxlevels=1000, quiet=2, **kw)
"""


def pythons(hosttxt):
    """{"313": path}: one interpreter per minor version (free-threaded ones share no bytecode
    with the others and are left out)"""
    out = {}
    for line in open(hosttxt):
        m = re.match(r"python (\d)\.(\d+) (\S+)$", line.strip())
        if m:
            out.setdefault(m.group(1) + m.group(2), m.group(3))
    return out


def wants(entry, versions):
    """the versions an entry's wheel can be imported by"""
    want = set()
    for w in glob.glob(os.path.join(entry, "*.dist-info", "WHEEL")):
        with open(w, errors="replace") as f:
            for tag in re.findall(r"^Tag: *(\S+)", f.read(), re.M):
                parts = tag.split("-")
                if len(parts) != 3:
                    continue
                for py in parts[0].split("."):
                    m = re.match(r"cp(\d+)$", py)
                    want.update({m.group(1)} if m and parts[1] != "abi3" else versions)
    return want & set(versions)


def main():
    cache, hosttxt, stampdir = sys.argv[1:4]
    versions = pythons(hosttxt)
    todo = {v: [] for v in versions}
    stamps = {}
    os.makedirs(stampdir, exist_ok=True)
    entries = sorted(glob.glob(os.path.join(cache, "archive-v*", "*")))
    names = {os.path.basename(os.path.dirname(e)) + "-" + os.path.basename(e): e for e in entries}
    # (the stamps of entries uv removed go too)
    for n in os.listdir(stampdir):
        if n not in names:
            os.unlink(os.path.join(stampdir, n))
    for name, entry in sorted(names.items()):
        stamp = os.path.join(stampdir, name)
        try:
            with open(stamp) as f:
                done = set(f.read().split())
        except OSError:
            done = set()
        missing = wants(entry, versions) - done
        if not missing:
            continue
        dirs = [os.path.join(entry, n) for n in sorted(os.listdir(entry))
                if os.path.isdir(os.path.join(entry, n)) and not n.endswith((".data", ".dist-info"))]
        for v in missing:
            todo[v] += dirs
        stamps[stamp] = done | missing
    for v, dirs in sorted(todo.items()):
        if dirs:
            subprocess.run([versions[v], "-S", "-c", COMPILE], input="\n".join(dirs), text=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for stamp, done in stamps.items():
        with open(stamp + ".tmp", "w") as f:
            f.write("\n".join(sorted(done)) + "\n")
        os.replace(stamp + ".tmp", stamp)
    print("# bytecode of the uv cache: %d entries compiled for the next run" % len(stamps))


main()
