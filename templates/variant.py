"""The PEP 825 variant wheel of a tested CUDA cell (the config's index.variants: true).

    python3 variant.py BUILDDIR CELL

Reads BUILDDIR/wheels/CELL/manifest. When the cell's wheel passed its test (its sha256 is in
BUILDDIR/tests/CELL.done, "passed SHA256", or the first line of the "tested" file beside the
wheel, or the manifest's tested=), writes into BUILDDIR/variants/CELL/:

    <name>-<version>-<tags>-cuXYZ.whl   the same wheel, every member but the .dist-info's copied
                                        byte for byte (relabel.py): the version without the
                                        setup's local label (+torchX.Y kept for a torch cell,
                                        whose torch requirement picks the version), the label
                                        cuXYZ after the platform tag, .dist-info/variant.json
    <that name>.metadata                its METADATA (PEP 658)
    manifest                            the cell's manifest for that file, with variant_label=
                                        and variant_properties= (namespace::feature::value, ";"
                                        between them) for the index's variants.json

The variant's one property is nvidia :: cuda_version_lower_bound :: X.Y, the CUDA the wheel was
built with: uv's built-in NVIDIA provider (uv 0.13, --preview-features wheel-variants) takes the
variant whose bound the driver's CUDA reaches, the highest of them (a 13.2 driver: cu132 over
cu130). Otherwise (an untested wheel, a cell without CUDA) the directory holds a manifest
without tested=, which the index leaves out. Files are rewritten only when their content changes.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from relabel import fail, rewrite, wheel_parts  # noqa: E402

SCHEMA = "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json"
# uv's built-in NVIDIA provider answers for a namespace declared exactly so (no enable-if or
# install-time keys: uv 0.13.9 cannot parse them); gen/index.c writes the same into variants.json
PROVIDERS = {
    "nvidia": {
        "requires": ["nvidia-variant-provider>=0.0.1,<1.0.0"],
        "plugin-api": "nvidia_variant_provider.plugin:NvidiaVariantPlugin",
    }
}


def step(builddir, *args):
    """The output of BUILDDIR/wheelgen-step (gen/step: the manifest's reader and writer) with args."""
    tool = os.path.join(builddir, "wheelgen-step")
    try:
        return subprocess.run([tool] + list(args), stdout=subprocess.PIPE, check=True).stdout.decode("utf-8")
    except (OSError, subprocess.CalledProcessError) as e:
        fail("%s: %s (re-run ./configure: it builds wheelgen-step beside wheelgen)" % (tool, e))


def write_bytes(path, data):
    """Write data to path (a temporary renamed into place) unless the file holds it already."""
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def first_line(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.readline().strip()
    except OSError:
        return ""


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def variant_json(label, props):
    """variant.json of one variant: {namespace: {feature: [value]}} under its label"""
    variants = {}
    for ns, feature, value in props:
        variants.setdefault(ns, {}).setdefault(feature, []).append(value)
    doc = {
        "$schema": SCHEMA,
        "default-priorities": {"namespace": sorted(variants)},
        "providers": {ns: PROVIDERS[ns] for ns in sorted(variants)},
        "variants": {label: variants},
    }
    return (json.dumps(doc, indent=2, sort_keys=False) + "\n").encode("utf-8")


def main(argv):
    if len(argv) != 3:
        fail("usage: variant.py BUILDDIR CELL")
    builddir, cell = argv[1], argv[2]
    if "/" in cell or cell in ("", ".", ".."):
        fail("not a cell name: %r" % cell)
    src_dir = os.path.join(builddir, "wheels", cell)
    out = os.path.join(builddir, "variants", cell)
    src = os.path.join(src_dir, "manifest")
    filename, sha, cuda, torch, mtested = (step(builddir, "manifest-get", src, f).rstrip("\n")
                                           for f in ("filename", "sha256", "cuda", "torch", "tested"))
    os.makedirs(out, exist_ok=True)
    done = first_line(os.path.join(builddir, "tests", cell + ".done")).split()
    tested = sha and sha in (first_line(os.path.join(builddir, "tests", cell + ".ok")),
                             first_line(os.path.join(src_dir, "tested")), mtested,
                             done[1] if done[:1] == ["passed"] and len(done) == 2 else "")
    keep = {"manifest"}
    if tested and cuda and filename and "/" not in filename:
        version = wheel_parts(filename)[1].split("+")[0] + ("+torch" + torch if torch else "")
        label = "cu" + cuda.replace(".", "")
        props = [("nvidia", "cuda_version_lower_bound", cuda)]
        tmp = os.path.join(out, ".new")
        shutil.rmtree(tmp, ignore_errors=True)
        path = rewrite(os.path.join(src_dir, filename), tmp, version, None, (label, variant_json(label, props)))
        name = os.path.basename(path)
        with zipfile.ZipFile(path) as z:
            meta = z.read([n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA")][0])
        dest = os.path.join(out, name)
        if os.path.exists(dest) and sha256(dest) == sha256(path):
            os.remove(path)
        else:
            os.replace(path, dest)
        shutil.rmtree(tmp, ignore_errors=True)
        write_bytes(dest + ".metadata", meta)
        vsha = sha256(dest)
        fields = [("filename", name), ("sha256", vsha), ("size", str(os.path.getsize(dest))),
                  ("metadata_sha256", hashlib.sha256(meta).hexdigest()), ("wheel_version", version), ("tested", vsha),
                  ("variant_label", label), ("variant_properties", ";".join("::".join(p) for p in props)),
                  ("variant_of", filename)]
        args = ["--drop", "key", "--drop", "origin"] + [a for f in fields for a in ("--set",) + f]
        keep |= {name, name + ".metadata"}
    else:
        args = ["--drop", "tested", "--drop", "key", "--drop", "origin"]
    step(builddir, "manifest-write", os.path.join(out, "manifest"), "--from", src, *args)
    for stale in os.listdir(out):
        if stale not in keep:
            p = os.path.join(out, stale)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)


if __name__ == "__main__":
    main(sys.argv)
