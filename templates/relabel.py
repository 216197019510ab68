"""Give a wheel a PEP 440 local version label, everywhere pip looks for it, and the
requirement on torch it was built for.

    python relabel.py WHEEL LABEL OUTDIR [REQUIREMENT]

Writes OUTDIR/<name>-<version>+<LABEL>-<tags>.whl and prints its path.  The
label goes into the file name, the .dist-info (and .data) directory names,
METADATA's Version field and RECORD (new paths, new METADATA hash); every
other member is copied byte for byte, keeping its order, timestamp and
compression, so that a reproducible wheel stays reproducible.  pip refuses a
wheel whose file name and METADATA disagree ("inconsistent version"), which is
what renaming the file alone would give.

REQUIREMENT (e.g. "torch>=2.13,<2.14") replaces METADATA's Requires-Dist lines on torch: a
torch extension loads only into the torch minor it was built against, and a wheel that says
so fails at install time, naming torch, instead of at import with "undefined symbol". An
empty LABEL keeps the version (only the requirement changes).

Run by build-host.sh (through wheel-info.py, which imports relabel()) with the
cell's own Python (3.6 and later).
"""

import base64
import csv
import hashlib
import io
import os
import re
import struct
import sys
import zipfile
import zlib

LABEL = re.compile(r"^[a-z0-9]+(?:\.[a-z0-9]+)*$", re.IGNORECASE)


def fail(msg):
    sys.stderr.write("relabel: %s\n" % msg)
    sys.exit(1)


def record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


LOCAL = struct.Struct("<4s2B4HL2L2H")  # local file header
CENTRAL = struct.Struct("<4s4B4HL2L5H2L")  # central directory entry
END = struct.Struct("<4s4H2LH")  # end of central directory
LIMIT = 0xFFFFFFFF
ZIP64_AT = LIMIT - (1 << 20)  # sizes and offsets from here on need ZIP64


def dos_time(date_time):
    y, mo, d, h, mi, sec = date_time
    return (h << 11) | (mi << 5) | (sec // 2), ((y - 1980) << 9) | (mo << 5) | d


def copy_raw(zin, src, dest, rename, changed, added=()):
    """Write dest: every member of zin under its new name, its compressed bytes copied as
    they are (no inflating and deflating again: seconds for a CUDA wheel of hundreds of
    megabytes), the members in changed (name -> new content) compressed again, and the
    members in added ((ZipInfo, content), named as they are to be) inserted before the last
    member (RECORD, as wheel writers put it). Returns False, leaving no dest, when the result
    would need ZIP64 or a member is encrypted."""
    infos = list(zin.infolist())
    new = {}
    for info, data in added:
        new[id(info)] = data
        infos.insert(len(infos) - 1, info)
    if len(infos) >= 0xFFFF or os.path.getsize(src) >= ZIP64_AT:
        return False
    if any(i.flag_bits & 1 or i.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) for i in infos):
        return False
    central = []
    with open(src, "rb") as fin, open(dest, "wb") as out:
        for info in infos:
            name = info.filename if id(info) in new else rename(info.filename)
            data = None
            if id(info) in new or info.filename in changed:
                data = new[id(info)] if id(info) in new else changed[info.filename]
                crc, size = zlib.crc32(data) & LIMIT, len(data)
                if info.compress_type == zipfile.ZIP_DEFLATED:
                    c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
                    data = c.compress(data) + c.flush()
                csize = len(data)
            else:
                # copied below in pieces: a member may be a .so of hundreds of megabytes
                fin.seek(info.header_offset)
                head = fin.read(LOCAL.size)
                if len(head) != LOCAL.size or head[:4] != b"PK\x03\x04":
                    fail("%s: no local header for %s" % (src, info.filename))
                fields = LOCAL.unpack(head)
                fin.seek(info.header_offset + LOCAL.size + fields[10] + fields[11])
                crc, size, csize = info.CRC, info.file_size, info.compress_size
            try:
                raw_name = name.encode("ascii")
                flags = info.flag_bits & 0x6  # deflate's level bits; no data descriptor
            except UnicodeEncodeError:
                raw_name = name.encode("utf-8")
                flags = (info.flag_bits & 0x6) | 0x800
            t, d = dos_time(info.date_time)
            offset = out.tell()
            need = max(info.extract_version, 20)
            out.write(LOCAL.pack(b"PK\x03\x04", need, 0, flags, info.compress_type, t, d, crc, csize, size, len(raw_name), 0))
            out.write(raw_name)
            if data is not None:
                out.write(data)
            else:
                left = csize
                while left:
                    piece = fin.read(min(left, 1 << 22))
                    if not piece:
                        fail("%s: %s is cut short" % (src, info.filename))
                    out.write(piece)
                    left -= len(piece)
            central.append(CENTRAL.pack(b"PK\x01\x02", info.create_version, info.create_system, need, 0, flags,
                                        info.compress_type, t, d, crc, csize, size, len(raw_name), 0, 0, 0,
                                        info.internal_attr, info.external_attr, offset) + raw_name)
        start = out.tell()
        for entry in central:
            out.write(entry)
        end = out.tell()
        if end >= ZIP64_AT:
            out.close()
            os.remove(dest)
            return False
        out.write(END.pack(b"PK\x05\x06", 0, 0, len(central), len(central), end - start, start, 0))
    return True


REQ_NAME = re.compile(rb"^Requires-Dist:\s*([A-Za-z0-9._-]+)", re.IGNORECASE)


def canonical(name):
    return re.sub(rb"[-_.]+", b"-", name).lower()


def with_requirement(headers, requirement, extra=()):
    """The METADATA header lines with requirement instead of every Requires-Dist on torch, and
    each of extra whose distribution METADATA does not require yet."""
    out = []
    cr = b"\r" if headers and headers[0].endswith(b"\r") else b""
    have = set()
    for line in headers:
        m = REQ_NAME.match(line)
        if m and requirement and canonical(m.group(1)) == b"torch":
            continue
        if m:
            have.add(canonical(m.group(1)))
        out.append(line)
    if requirement:
        out.append(b"Requires-Dist: " + requirement.encode("utf-8") + cr)
    for r in extra:
        name = re.match(r"[A-Za-z0-9._-]+", r).group(0).encode("utf-8")
        if canonical(name) in have:
            sys.stderr.write("relabel: METADATA requires %s already: %s is not added\n" % (name.decode(), r))
            continue
        out.append(b"Requires-Dist: " + r.encode("utf-8") + cr)
    return out


def wheel_parts(src):
    """The fields of a wheel's file name: name, version, [build,] python, abi, platform."""
    base = os.path.basename(src)
    if not base.endswith(".whl"):
        fail("not a .whl file: %s" % src)
    parts = base[:-4].split("-")
    if len(parts) not in (5, 6):
        fail("cannot parse the wheel file name %s" % base)
    return parts


def relabel(src, label, outdir, requirement=None, extra=()):
    """Write the relabelled copy of the wheel src into outdir; return its path."""
    if not LABEL.match(label) and not (label == "" and (requirement or extra)):
        fail("'%s' is not a PEP 440 local version label (letters, digits, dots)" % label)
    parts = wheel_parts(src)
    version = parts[1]
    if "+" in version and label:
        # upstream's own label (nunchaku's setup.py appends +torchX.Y): the config's replaces it,
        # since the config's tells the variants apart (+torch2.15 alone names no CUDA)
        version, own = version.split("+", 1)
        sys.stderr.write("relabel: %s: its own local version label +%s is replaced by +%s\n"
                         % (os.path.basename(src), own, label))
    return rewrite(src, outdir, version + "+" + label if label else version, requirement, extra=extra)


def rewrite(src, outdir, new_version, requirement=None, variant=None, extra=()):
    """Write a copy of the wheel src into outdir with the version new_version (METADATA, the
    .dist-info and .data names, RECORD), the requirement on torch, and with variant = (label,
    variant.json bytes) a PEP 825 variant wheel: the label after the platform tag in the file
    name, the .dist-info/variant.json member in RECORD. Returns its path."""
    parts = wheel_parts(src)
    base = os.path.basename(src)
    version = parts[1]
    # file names spell the local label's "+" as is; only the name part is escaped
    new_base = "-".join([parts[0], new_version] + parts[2:] + ([variant[0]] if variant else [])) + ".whl"
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
        end = len(lines)
        for i, line in enumerate(lines):
            if line == b"" or line == b"\r":
                end = i
                break  # the headers end at the first blank line
        for i, line in enumerate(lines[:end]):
            if line.startswith(b"Version:"):
                have = line[len(b"Version:"):].strip().decode("utf-8")
                if have != version:
                    fail("METADATA says Version: %s, the file name %s" % (have, version))
                lines[i] = b"Version: " + new_version.encode("ascii") + (b"\r" if line.endswith(b"\r") else b"")
                found = True
                break
        if not found:
            fail("METADATA of %s has no Version field" % base)
        if requirement or extra:
            lines = with_requirement(lines[:end], requirement, extra) + lines[end:]
        metadata = b"\n".join(lines)

        added = []
        if variant:
            vinfo = zipfile.ZipInfo(new_info + "variant.json", zin.getinfo(old_info + "METADATA").date_time)
            vinfo.compress_type = zipfile.ZIP_DEFLATED
            vinfo.external_attr = 0o644 << 16
            added.append((vinfo, variant[1]))
        rows = list(csv.reader(io.StringIO(zin.read(old_info + "RECORD").decode("utf-8"))))
        out_rows = []
        for row in rows:
            if not row:
                continue
            path = rename(row[0])
            if row[0] == old_info + "RECORD":
                out_rows.extend([[i.filename, record_hash(d), str(len(d))] for i, d in added])
            if row[0] == old_info + "METADATA":
                row = [path, record_hash(metadata), str(len(metadata))]
            else:
                row = [path] + row[1:]
            out_rows.append(row)
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(out_rows)
        record = buf.getvalue().encode("utf-8")

        changed = {old_info + "METADATA": metadata, old_info + "RECORD": record}
        if not copy_raw(zin, src, tmp, rename, changed, added):
            # a wheel that needs ZIP64 (4 GiB, 65535 members): zipfile recompresses every member
            with zipfile.ZipFile(tmp, "w") as zout:
                for info in zin.infolist():
                    new = zipfile.ZipInfo(rename(info.filename), info.date_time)
                    new.compress_type = info.compress_type
                    new.external_attr = info.external_attr
                    new.create_system = info.create_system
                    data = changed.get(info.filename)
                    zout.writestr(new, zin.read(info.filename) if data is None else data)
                for info, data in added:
                    zout.writestr(info, data)
    os.replace(tmp, dest)
    return dest


def main(argv):
    if len(argv) not in (4, 5):
        fail("usage: relabel.py WHEEL LABEL OUTDIR [REQUIREMENT]")
    print(relabel(*argv[1:]))


if __name__ == "__main__":
    main(sys.argv)
