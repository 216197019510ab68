"""A cell's manifest, written by this one program (wheelgen index and restore read it in C).

    python manifest.py OUT [--from MANIFEST] [--drop KEY]... KEY=VALUE...

A manifest is "key=value" lines (a key: a-z, 0-9, _; a value: one line). OUT gets the lines
of MANIFEST (when given) less the dropped keys; each KEY=VALUE then replaces its key's line
where it stands, or is appended in the order given. OUT is rewritten only when its content
changes (a temporary renamed into place: ninja's restat sees nothing new otherwise), and the
word "updated" or "unchanged" is printed.

Used by build-host.sh (a built wheel's manifest), abi-share.sh (a shared wheel's, from its
builder's) and variant.py (a variant wheel's, imported). Python 3.6 and later (the cell's own
Python runs it in build-host.sh).
"""

import os
import re
import sys

KEY = re.compile(r"^[a-z0-9_]+$")


def fail(msg):
    sys.stderr.write("manifest: %s\n" % msg)
    sys.exit(1)


def read(path):
    """The (key, value) pairs of a manifest, in order (lines without "=" are left out)."""
    with open(path, encoding="utf-8") as f:
        return [tuple(line.split("=", 1)) for line in f.read().splitlines() if "=" in line]


def merge(pairs, drop=(), sets=()):
    """pairs less the keys in drop, then each (key, value) of sets in its key's place or appended."""
    out = [[k, v] for k, v in pairs if k not in drop]
    for key, value in sets:
        if not KEY.match(key):
            fail("not a manifest key: %r" % key)
        if "\n" in value or "\r" in value:
            fail("the value of %s holds a line break" % key)
        for kv in out:
            if kv[0] == key:
                kv[1] = value
                break
        else:
            out.append([key, value])
    return [tuple(kv) for kv in out]


def write(path, pairs):
    """Write the manifest unless it holds these pairs already; True when it was rewritten."""
    return write_bytes(path, "".join("%s=%s\n" % kv for kv in pairs).encode("utf-8"))


def write_bytes(path, data):
    """Write data to path (a temporary renamed into place) unless the file holds it already;
    True when it was rewritten."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return True


def main(argv):
    if len(argv) < 2:
        fail("usage: manifest.py OUT [--from MANIFEST] [--drop KEY]... KEY=VALUE...")
    out, args, base, drop, sets = argv[1], argv[2:], [], set(), []
    while args:
        a = args.pop(0)
        if a in ("--from", "--drop") and args:
            if a == "--from":
                base = read(args.pop(0))
            else:
                drop.add(args.pop(0))
        elif "=" in a:
            sets.append(tuple(a.split("=", 1)))
        else:
            fail("not KEY=VALUE: %r" % a)
    print("updated" if write(out, merge(base, drop, sets)) else "unchanged")


if __name__ == "__main__":
    main(sys.argv)
