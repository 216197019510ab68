"""Give a wheel a PEP 440 local version label, everywhere pip looks for it.

    python relabel.py WHEEL LABEL OUTDIR

Writes OUTDIR/<name>-<version>+<LABEL>-<tags>.whl and prints its path.  The
label goes into the file name, the .dist-info (and .data) directory names,
METADATA's Version field and RECORD (new paths, new METADATA hash); every
other member is copied byte for byte, keeping its order, timestamp and
compression, so that a reproducible wheel stays reproducible.  pip refuses a
wheel whose file name and METADATA disagree ("inconsistent version"), which is
what renaming the file alone would give.

Run by build-host.sh with the cell's own Python (3.6 and later).
"""

import base64
import csv
import hashlib
import io
import os
import re
import sys
import zipfile

LABEL = re.compile(r"^[a-z0-9]+(?:\.[a-z0-9]+)*$", re.IGNORECASE)


def fail(msg):
    sys.stderr.write("relabel: %s\n" % msg)
    sys.exit(1)


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def main(argv):
    if len(argv) != 4:
        fail("usage: relabel.py WHEEL LABEL OUTDIR")
    src, label, outdir = argv[1:]
    if not LABEL.match(label):
        fail("'%s' is not a PEP 440 local version label (letters, digits, dots)" % label)
    base = os.path.basename(src)
    if not base.endswith(".whl"):
        fail("not a .whl file: %s" % src)
    parts = base[:-4].split("-")
    if len(parts) not in (5, 6):
        fail("cannot parse the wheel file name %s" % base)
    version = parts[1]
    if "+" in version:
        fail("%s already has a local version label (%s)" % (base, version))
    new_version = version + "+" + label
    # file names spell the local label's "+" as is; only the name part is escaped
    new_base = "-".join([parts[0], new_version] + parts[2:]) + ".whl"
    os.makedirs(outdir, exist_ok=True)
    dest = os.path.join(outdir, new_base)
    tmp = dest + ".tmp"
    with zipfile.ZipFile(src) as zin:
        names = zin.namelist()
        # the .dist-info directory as the wheel spells it (older tools did not normalize the name)
        infos = [n[: -len("METADATA")] for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
        if len(infos) != 1:
            fail("%s has %d top-level .dist-info/METADATA files, expected one" % (base, len(infos)))
        old_info = infos[0]
        dist = old_info[: -len(".dist-info/")]
        if not dist.endswith("-" + version):
            fail("%s: the .dist-info directory %s does not carry the version %s" % (base, old_info, version))
        stem = dist[: -len(version)]
        new_info = stem + new_version + ".dist-info/"
        old_data, new_data = dist + ".data/", stem + new_version + ".data/"
        if old_info + "RECORD" not in names:
            fail("%s has no %sRECORD" % (base, old_info))

        def rename(path):
            for old, new in ((old_info, new_info), (old_data, new_data)):
                if path.startswith(old):
                    return new + path[len(old):]
            return path

        metadata = zin.read(old_info + "METADATA")
        lines = metadata.split(b"\n")
        found = False
        for i, line in enumerate(lines):
            if line == b"" or line == b"\r":
                break  # the headers end at the first blank line
            if line.startswith(b"Version:"):
                have = line[len(b"Version:"):].strip().decode("utf-8")
                if have != version:
                    fail("METADATA says Version: %s, the file name %s" % (have, version))
                lines[i] = b"Version: " + new_version.encode("ascii") + (b"\r" if line.endswith(b"\r") else b"")
                found = True
                break
        if not found:
            fail("METADATA of %s has no Version field" % base)
        metadata = b"\n".join(lines)

        rows = list(csv.reader(io.StringIO(zin.read(old_info + "RECORD").decode("utf-8"))))
        out_rows = []
        for row in rows:
            if not row:
                continue
            path = rename(row[0])
            if row[0] == old_info + "METADATA":
                row = [path, record_hash(metadata), str(len(metadata))]
            else:
                row = [path] + row[1:]
            out_rows.append(row)
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(out_rows)
        record = buf.getvalue().encode("utf-8")

        with zipfile.ZipFile(tmp, "w") as zout:
            for info in zin.infolist():
                new = zipfile.ZipInfo(rename(info.filename), info.date_time)
                new.compress_type = info.compress_type
                new.external_attr = info.external_attr
                new.create_system = info.create_system
                if info.filename == old_info + "METADATA":
                    data = metadata
                elif info.filename == old_info + "RECORD":
                    data = record
                else:
                    data = zin.read(info.filename)
                zout.writestr(new, data)
    os.replace(tmp, dest)
    print(dest)


if __name__ == "__main__":
    main(sys.argv)
