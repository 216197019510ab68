# Store entries of cells made here, nothing built: for each cell of `wheelgen matrix --tsv`'s
# TSV (a pure-Python package, e.g. tests' "tiny"), a py3-none-any wheel of its version, its
# .metadata and its manifest, with the cell's key and the test's record (tested=). The manifest's
# python= is the cell's (the TSV's); FAKECELLS_SALT=TEXT puts TEXT into each wheel (other bytes,
# the same cells: a rebuild published again).
#
#   python3 tests/fakecells.py TSV PYTHON github RELEASES OUT
#       OUT/<cell>/ holds the three files; RELEASES ("CELL RELEASE" lines) names each cell's
#       release, and the manifest says stored=<release>/<wheel>
#   python3 tests/fakecells.py TSV PYTHON dir STORE
#       a directory store: STORE/<cell>.manifest, the wheel and .metadata at blobs/<sha256>/
import hashlib, io, os, sys, zipfile

tsv, py, kind = sys.argv[1:4]
rows = [l.split("\t") for l in open(tsv).read().splitlines()[1:]]
rel = dict(l.split() for l in open(sys.argv[4]).read().splitlines()) if kind == "github" else {}
out = sys.argv[5] if kind == "github" else sys.argv[4]
salt = os.environ.get("FAKECELLS_SALT", "")
for r in rows:
    cell, pkg, ver, key = r[0], r[1], r[2], r[6]
    cellpy = r[3] or py
    name = "%s-%s-py3-none-any.whl" % (pkg, ver)
    meta = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (pkg, ver)
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        z.writestr("%s/__init__.py" % pkg, "x = 1\n" + ("# %s\n" % salt if salt else ""))
        z.writestr("%s-%s.dist-info/METADATA" % (pkg, ver), meta)
        z.writestr("%s-%s.dist-info/WHEEL" % (pkg, ver), "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr("%s-%s.dist-info/RECORD" % (pkg, ver), "")
    w = b.getvalue()
    sha = hashlib.sha256(w).hexdigest()
    if kind == "github":
        d = os.path.join(out, cell)
        stored = "%s/%s" % (rel[cell], name)
        man = os.path.join(d, cell + ".manifest")
    else:
        d = os.path.join(out, "blobs", sha)
        stored = "blobs/%s/%s" % (sha, name)
        man = os.path.join(out, cell + ".manifest")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), "wb").write(w)
    open(os.path.join(d, name + ".metadata"), "w").write(meta)
    m = [("cell", cell), ("package", pkg), ("version", ver), ("python", cellpy), ("cuda", ""), ("torch", ""),
         ("wheel_version", ver), ("filename", name), ("sha256", sha), ("size", str(len(w))),
         ("metadata_sha256", hashlib.sha256(meta.encode()).hexdigest()), ("requires_python", ""), ("upload_time", "1764000000"),
         ("tags", "py3-none-any"), ("platform", "x86_64"), ("key", key), ("origin", "build"), ("tested", sha),
         ("stored", stored)]
    open(man, "w").write("".join("%s=%s\n" % kv for kv in m))
