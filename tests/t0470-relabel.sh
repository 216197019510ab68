#!/bin/sh
# templates/relabel.py and templates/wheel-info.py on wheels made here: the local label goes
# into every name pip checks, untouched members keep their compressed bytes, the ZIP64
# fallback gives the same members, and pip installs the result; wheel-info's hashes, sizes
# and Requires-Python match what hashlib and the email module say
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

py=$(command -v python3)
tpl=$top/templates
cd "$WORK"
# a wheel with a module deflated at level 1 (zipfile would deflate it again at 6: other bytes), a stored (uncompressed) member, a non-ASCII member name, a
# .data directory and a folded Requires-Python header
"$py" - <<'PY'
import base64, hashlib, zipfile
def h(b):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
members = [
    ("demo_pkg/__init__.py", b"VALUE = 42\n" * 50, zipfile.ZIP_DEFLATED),
    ("demo_pkg/blob.bin", bytes(range(256)) * 40, zipfile.ZIP_STORED),
    ("demo_pkg/d\u00e9j\u00e0.txt", "d\u00e9j\u00e0 vu\n".encode(), zipfile.ZIP_DEFLATED),
    ("demo_pkg-1.0.data/scripts/demo-tool", b"#!python\nprint('tool')\n", zipfile.ZIP_DEFLATED),
    ("demo_pkg-1.0.dist-info/METADATA",
     b"Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0\nRequires-Python: >=3.8,\n <4\nSummary: x\n\nbody Version: 9\n",
     zipfile.ZIP_DEFLATED),
    ("demo_pkg-1.0.dist-info/WHEEL",
     b"Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n", zipfile.ZIP_DEFLATED),
]
record = "".join("%s,%s,%d\n" % (n, h(d), len(d)) for n, d, _ in members) + "demo_pkg-1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile("demo_pkg-1.0-py3-none-any.whl", "w") as z:
    for n, d, c in members + [("demo_pkg-1.0.dist-info/RECORD", record.encode(), zipfile.ZIP_DEFLATED)]:
        i = zipfile.ZipInfo(n, (2020, 1, 2, 3, 4, 6))
        i.compress_type = c
        i.external_attr = 0o644 << 16
        z.writestr(i, d, compresslevel=1)
PY

t_case "relabel.py: names, METADATA and RECORD carry +cu130; untouched members keep their compressed bytes"
if out=$("$py" "$tpl/relabel.py" demo_pkg-1.0-py3-none-any.whl cu130 rl 2>&1) &&
	[ "$out" = "rl/demo_pkg-1.0+cu130-py3-none-any.whl" ] &&
	"$py" - "$out" >check.log 2>&1 <<'PY'; then t_pass; else t_fail "$out" "$(cat check.log 2>/dev/null)"; fi
import base64, csv, hashlib, io, struct, sys, zipfile
def raw(path, info):
    with open(path, "rb") as f:
        f.seek(info.header_offset)
        head = f.read(30)
        n, m = struct.unpack("<HH", head[26:30])
        f.seek(info.header_offset + 30 + n + m)
        return f.read(info.compress_size)
src, dst = "demo_pkg-1.0-py3-none-any.whl", sys.argv[1]
a, b = zipfile.ZipFile(src), zipfile.ZipFile(dst)
assert b.testzip() is None
names = b.namelist()
assert names == [
    "demo_pkg/__init__.py", "demo_pkg/blob.bin", "demo_pkg/d\u00e9j\u00e0.txt",
    "demo_pkg-1.0+cu130.data/scripts/demo-tool", "demo_pkg-1.0+cu130.dist-info/METADATA",
    "demo_pkg-1.0+cu130.dist-info/WHEEL", "demo_pkg-1.0+cu130.dist-info/RECORD"], names
meta = b.read("demo_pkg-1.0+cu130.dist-info/METADATA")
assert b"\nVersion: 1.0+cu130\n" in meta and meta.endswith(b"body Version: 9\n"), meta
for old, new in zip(a.infolist(), b.infolist()):
    assert new.compress_type == old.compress_type and new.date_time == old.date_time, new
    assert new.external_attr == old.external_attr, new
    if not old.filename.endswith(("METADATA", "RECORD")):
        assert raw(dst, new) == raw(src, old), old.filename
        assert b.read(new) == a.read(old)
rows = list(csv.reader(io.StringIO(b.read("demo_pkg-1.0+cu130.dist-info/RECORD").decode())))
assert [r[0] for r in rows] == names, rows
for name, digest, size in rows:
    if digest:
        data = b.read(name)
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert digest == want and int(size) == len(data), name
PY

t_case "relabel.py writes the same bytes every time"
if "$py" "$tpl/relabel.py" demo_pkg-1.0-py3-none-any.whl cu130 rl2 >/dev/null &&
	cmp rl/demo_pkg-1.0+cu130-py3-none-any.whl rl2/demo_pkg-1.0+cu130-py3-none-any.whl; then t_pass; else t_fail "two runs differ"; fi

t_case "relabel.py's ZIP64 fallback (zipfile, recompressing) gives the same members"
if (cd "$tpl" && "$py" -c 'import sys, relabel; relabel.ZIP64_AT = 0; print(relabel.relabel(*sys.argv[1:]))' \
	"$WORK/demo_pkg-1.0-py3-none-any.whl" cu130 "$WORK/rl64") >fb.log 2>&1 &&
	"$py" - >>fb.log 2>&1 <<'PY'; then t_pass; else t_fail "$(cat fb.log)"; fi
import zipfile
a = zipfile.ZipFile("rl/demo_pkg-1.0+cu130-py3-none-any.whl")
b = zipfile.ZipFile("rl64/demo_pkg-1.0+cu130-py3-none-any.whl")
assert b.testzip() is None
assert a.namelist() == b.namelist()
for n in a.namelist():
    assert a.read(n) == b.read(n), n
PY

t_case "relabel.py replaces a wheel's own label (saying so), and refuses a label that is not PEP 440"
if "$py" "$tpl/relabel.py" rl/demo_pkg-1.0+cu130-py3-none-any.whl cu131 rl3 2>e1.log >/dev/null &&
	grep -q 'its own local version label +cu130 is replaced by +cu131' e1.log &&
	"$py" -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); n = z.namelist(); assert "demo_pkg-1.0+cu131.dist-info/METADATA" in n and not [x for x in n if "cu130" in x], n; assert b"Version: 1.0+cu131" in z.read("demo_pkg-1.0+cu131.dist-info/METADATA")' rl3/demo_pkg-1.0+cu131-py3-none-any.whl 2>>e1.log &&
	! "$py" "$tpl/relabel.py" demo_pkg-1.0-py3-none-any.whl 'cu 130' rl4 2>e2.log &&
	grep -q 'is not a PEP 440 local version label' e2.log && [ ! -e rl4 ]; then
	t_pass
else
	t_fail "$(cat e1.log e2.log)"
fi

t_case "wheel-info.py: relabels, then the sha256, size, METADATA and its hash, and the folded Requires-Python"
if info=$("$py" "$tpl/wheel-info.py" demo_pkg-1.0-py3-none-any.whl meta.out cu130 wi 2>&1) &&
	w=wi/demo_pkg-1.0+cu130-py3-none-any.whl && [ -f "$w" ] &&
	want=$("$py" - "$w" <<'PY'
import email.parser, hashlib, os, sys, zipfile
w = sys.argv[1]
meta = zipfile.ZipFile(w).read("demo_pkg-1.0+cu130.dist-info/METADATA")
rp = email.parser.BytesParser().parsebytes(meta, headersonly=True).get("Requires-Python") or ""
print(hashlib.sha256(open(w, "rb").read()).hexdigest(), os.path.getsize(w), hashlib.sha256(meta).hexdigest(), " ".join(str(rp).split()))
PY
) && [ "$info" = "$want" ] && [ "${info##* }" = "<4" ] &&
	"$py" -c 'import sys, zipfile; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read("demo_pkg-1.0+cu130.dist-info/METADATA"))' "$w" | cmp -s - meta.out; then
	t_pass
else
	t_fail "wheel-info: '$info'" "expected: '${want:-}'"
fi

t_case "wheel-info.py without a label reads the wheel as it is (no Requires-Python: an empty field)"
"$py" - <<'PY'
import zipfile
with zipfile.ZipFile("plain-2.0-py3-none-any.whl", "w") as z:
    z.writestr("plain-2.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: plain\nVersion: 2.0\n\n")
    z.writestr("plain-2.0.dist-info/RECORD", "")
PY
if info=$("$py" "$tpl/wheel-info.py" plain-2.0-py3-none-any.whl plain.meta) &&
	[ "$info" = "$(sha256sum plain-2.0-py3-none-any.whl | cut -d' ' -f1) $(wc -c <plain-2.0-py3-none-any.whl | tr -d ' ') $(sha256sum plain.meta | cut -d' ' -f1) " ]; then
	t_pass
else
	t_fail "got '${info:-}'"
fi

t_case "pip installs the relabelled wheel by its labelled version; the .data script and the non-ASCII file land"
if t_venv venv "$py" &&
	venv/bin/python -m pip install --no-index --find-links rl 'demo-pkg==1.0+cu130' >pip.log 2>&1 &&
	[ "$(venv/bin/python -c 'import importlib.metadata as m; print(m.version("demo-pkg"))')" = 1.0+cu130 ] &&
	[ -f venv/bin/demo-tool ] && [ -f "$(venv/bin/python -c 'import demo_pkg, os; print(os.path.dirname(demo_pkg.__file__))')/déjà.txt" ]; then
	t_pass
else
	t_fail "$(tail -n 15 venv.log pip.log 2>/dev/null)"
fi

t_case "relabel.py with a torch requirement: one Requires-Dist on torch in METADATA (the wheel's own on torch replaced, others kept), RECORD matches"
"$py" - <<'PY'
import zipfile
# stand-ins for torch 2.13.0 and 2.15.0 and numpy (only their names and versions are read by resolvers)
for name, v in (("torch", "2.13.0"), ("torch", "2.15.0"), ("numpy", "1.0")):
    with zipfile.ZipFile("%s-%s-py3-none-any.whl" % (name, v), "w") as z:
        info = "%s-%s.dist-info/" % (name, v)
        z.writestr(info + "METADATA", "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, v))
        z.writestr(info + "WHEEL", "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(info + "RECORD", info + "METADATA,,\n" + info + "WHEEL,,\n" + info + "RECORD,,\n")
PY
mkdir -p tw && mv torch-2.1*.whl numpy-1.0-*.whl tw/
# the demo wheel with requirements of its own: two on torch (replaced), one on numpy (kept)
"$py" - <<'PY'
import base64, hashlib, zipfile
src = zipfile.ZipFile("demo_pkg-1.0-py3-none-any.whl")
def h(b):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
with zipfile.ZipFile("demo_req.whl", "w") as z:
    rows = []
    for i in src.infolist():
        d = src.read(i.filename)
        if i.filename.endswith("METADATA"):
            d = d.replace(b"Summary: x\n", b"Summary: x\nRequires-Dist: torch\nRequires-Dist: numpy\nRequires-Dist: Torch (>=1.0)\n")
        if i.filename.endswith("RECORD"):
            d = "".join(rows).encode() + b"demo_pkg-1.0.dist-info/RECORD,,\n"
        else:
            rows.append("%s,%s,%d\n" % (i.filename, h(d), len(d)))
        z.writestr(i, d)
PY
mkdir -p req && mv demo_req.whl req/demo_pkg-1.0-py3-none-any.whl
if a=$("$py" "$tpl/relabel.py" req/demo_pkg-1.0-py3-none-any.whl cu130torch2.13 tw "torch>=2.13,<2.14" 2>&1) &&
	b=$("$py" "$tpl/relabel.py" req/demo_pkg-1.0-py3-none-any.whl cu130torch2.15 tw "torch>=2.15,<2.16" 2>&1) &&
	"$py" - "$a" >req.log 2>&1 <<'PY'; then t_pass; else t_fail "$a $b" "$(cat req.log 2>/dev/null)"; fi
import base64, csv, hashlib, io, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
info = "demo_pkg-1.0+cu130torch2.13.dist-info/"
meta = z.read(info + "METADATA")
head, body = meta.split(b"\n\n", 1)
assert [l for l in head.split(b"\n") if l.startswith(b"Requires-Dist")] == [b"Requires-Dist: numpy", b"Requires-Dist: torch>=2.13,<2.14"], head
assert body == b"body Version: 9\n", body
rows = {r[0]: r for r in csv.reader(io.StringIO(z.read(info + "RECORD").decode()))}
want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(meta).digest()).rstrip(b"=").decode()
assert rows[info + "METADATA"][1:] == [want, str(len(meta))], rows[info + "METADATA"]
PY

t_case "pip and uv, asked for torch==2.13.*, pick the torch2.13 wheel over the higher torch2.15 label"
t_venv pv "$py"
ok=1
"$WORK/pv/bin/pip" install -q --no-index --find-links tw demo-pkg "torch==2.13.*" >pip.log 2>&1 &&
	"$WORK/pv/bin/pip" show demo-pkg 2>/dev/null | grep -q '^Version: 1.0+cu130torch2.13$' || ok=0
if [ -n "${UV:-}" ]; then
	t_venv uvv "$py"
	"$UV" pip install -q --python uvv/bin/python --no-index --find-links tw demo-pkg "torch==2.13.*" >uv.log 2>&1 &&
		"$WORK/uvv/bin/pip" show demo-pkg 2>/dev/null | grep -q '^Version: 1.0+cu130torch2.13$' || ok=0
fi
if [ "$ok" = 1 ]; then t_pass; else t_fail "$(tail -n 5 pip.log uv.log 2>/dev/null)"; fi

t_case "installing the torch2.13 wheel where torch 2.15 is pinned fails at install time, naming torch"
t_venv pv2 "$py"
if "$WORK/pv2/bin/pip" install --no-index --find-links tw "demo-pkg==1.0+cu130torch2.13" "torch==2.15.0" >conflict.log 2>&1; then
	t_fail "pip installed it: $(tail -n 3 conflict.log)"
elif grep -q 'torch' conflict.log && grep -qi 'conflict\|ResolutionImpossible\|depends on torch' conflict.log; then
	t_pass
else
	t_fail "$(tail -n 10 conflict.log)"
fi
