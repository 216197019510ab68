#!/usr/bin/env python3
"""A package index on 127.0.0.1 for tests/t1600 and t1610: torch's project page as PEP 691 JSON,
its PEP 658 .metadata files, tiny wheels (zips with a METADATA) that answer range requests, an
index of per-CUDA wheels in PEP 503 HTML, and hostile answers.

    python3 tests/fakeindex.py PORT STATEDIR

The served releases are read from STATEDIR/releases at every request (one per line: VERSION
CUDA PYTHONS..., e.g. "2.15.0 13.2 cp311 cp312 cp314t"), so that a test adds a minor by
appending a line. Paths:
  /simple/torch/                     PEP 691 JSON (core-metadata advertised, with hashes for 2.15)
  /files/<wheel>, /files/<wheel>.metadata
  /mirror/simple/torch/              the same page without core-metadata keys; /mirror/files/
                                     serves no .metadata (404) but wheels by range (as this
                                     machine's PyPI mirror)
  /whl/torch/                        PyTorch-style HTML: +cuXYZ wheels of each release
  /bad/<case>/simple/torch/          hostile pages; /badmeta/<case>/... a page whose one wheel's
                                     metadata is hostile
The process writes STATEDIR/requests (one line per request: METHOD PATH RANGE).
"""
import hashlib, http.server, io, json, os, socketserver, sys, time, zipfile

port, state = int(sys.argv[1]), sys.argv[2]
PLATS = ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64", "win_amd64"]


def releases():
    out = []
    with open(os.path.join(state, "releases")) as f:
        for line in f:
            w = line.split()
            if w and not w[0].startswith("#"):
                out.append((w[0], w[1], w[2:]))
    return out


def requires(version, cuda):
    """torch's Requires-Dist as PyPI's wheels have them: cu12 runtime pins up to 2.13, cuda-toolkit after"""
    minor = tuple(int(x) for x in version.split(".")[:2])
    if minor <= (2, 13):
        return ["nvidia-cuda-runtime-cu12==%s.90; platform_system == \"Linux\" and platform_machine == \"x86_64\"" % cuda,
                "triton==3.5.0; platform_system == \"Linux\" and platform_machine == \"x86_64\""]
    return ["cuda-toolkit[cublas,cudart,nvrtc]==%s.1; platform_system == \"Linux\"" % cuda,
            "nvidia-cudnn-cu13==9.19.0.56; platform_system == \"Linux\"",
            "triton~=3.9.0; platform_system == \"Linux\" and python_version < \"3.16\"",
            "sympy>=1.13.3", "typing-extensions>=4.10.0"]


def metadata(version, cuda):
    lines = ["Metadata-Version: 2.4", "Name: torch", "Version: " + version.split("-")[0], "Requires-Python: >=3.10"]
    lines += ["Requires-Dist: " + r for r in requires(version.split("-")[0], cuda)]
    return ("\n".join(lines) + "\n\nTensors and dynamic neural networks.\n").encode()


def wheels():
    """(file name, version, cuda, yanked) of every wheel, and the sdists"""
    out = []
    for version, cuda, pys in releases():
        yanked = version.endswith("!yanked")
        version = version.replace("!yanked", "")
        for py in pys:
            base = py.rstrip("t")
            for plat in PLATS:
                if plat == "win_amd64" and py.endswith("t"):
                    continue
                out.append(("torch-%s-%s-%s-%s.whl" % (version, base, py, plat), version, cuda, yanked))
        if version == "2.14.1":  # a rebuild with a build tag, as 2.10.0 has on PyPI
            out.append(("torch-2.14.1-2-cp312-cp312-manylinux_2_28_x86_64.whl", version, cuda, False))
        out.append(("torch-%s.tar.gz" % version, version, cuda, yanked))
    return out


_zips = {}


def wheelzip(name, version, cuda):
    """a small wheel: METADATA first, then (for 2.15.0 x86_64 cp315, the one torch-table reads) 3 MB and enough members that the central
    directory is larger than the 2 MiB that remotewheel.c asks for first"""
    if name not in _zips:
        b = io.BytesIO()
        big = name == "torch-2.15.0-cp315-cp315-manylinux_2_28_x86_64.whl"
        with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("torch-%s.dist-info/METADATA" % version, metadata(version, cuda))
            z.writestr("torch/__init__.py", "")
            if big:
                z.writestr("torch/lib/filler.bin", os.urandom(3 << 20), zipfile.ZIP_STORED)
                for i in range(22000):
                    z.writestr("torch/include/a_long_directory_name_for_the_central_directory/header_%06d.h" % i, "")
            z.writestr("torch-%s.dist-info/WHEEL" % version, "Wheel-Version: 1.0\n")
            z.writestr("torch-%s.dist-info/RECORD" % version, "")
        _zips[name] = b.getvalue()
    return _zips[name]


def page(prefix, advertise=True):
    files = []
    for name, version, cuda, yanked in wheels():
        f = {"filename": name, "url": "%s/files/%s" % (prefix, name), "hashes": {"sha256": "0" * 64},
             "requires-python": ">=3.10", "yanked": yanked}
        if advertise and name.endswith(".whl") and not version.startswith("2.13"):
            # 2.13's entries say nothing: torch-table asks for the .metadata anyway
            if version.startswith("2.15"):
                f["core-metadata"] = {"sha256": hashlib.sha256(metadata(version, cuda)).hexdigest()}
            else:
                f["core-metadata"] = True
        files.append(f)
    vs = sorted({v.replace("!yanked", "") for v, _, _ in releases()})
    return json.dumps({"meta": {"api-version": "1.1"}, "name": "torch", "files": files, "versions": vs}).encode()


def cudapage():
    """download.pytorch.org/whl/torch/'s form: every variant of every release, +cuXYZ labels"""
    rows = ["<!DOCTYPE html>", "<html><body><h1>Links for torch</h1>"]
    for version, cuda, pys in releases():
        if version.endswith("!yanked") or "rc" in version:
            continue
        minor = tuple(int(x) for x in version.split(".")[:2])
        variants = {(2, 13): ["cu126", "cu128", "cu130"], (2, 14): ["cu128", "cu130", "cu132"]}.get(minor, ["cu130", "cu132"])
        for v in variants + ["cpu", "rocm6.4"]:
            for py in pys[:2]:
                for plat in ["manylinux_2_28_x86_64", "manylinux_2_28_aarch64"]:
                    n = "torch-%s+%s-%s-%s-%s.whl" % (version, v, py.rstrip("t"), py, plat)
                    rows.append('<a href="/whl/%s/%s#sha256=%s">%s</a><br/>' % (v, n.replace("+", "%2B"), "0" * 64, n))
    rows.append("</body></html>")
    return "\n".join(rows).encode()


def bad(case):
    ok = json.loads(page(""))
    if case == "malformed":
        return b'{"meta": {"api-version": "1.1"}, "files": [{"filename": "torch-2.15.0-cp312'
    if case == "deep":
        return b"[" * 100000 + b"]" * 100000
    if case == "path":
        ok["files"][0]["filename"] = "../../../etc/torch-2.15.0-cp312-cp312-manylinux_2_28_x86_64.whl"
    if case == "tag":
        ok["files"][0]["filename"] = "torch-2.15.0-cp312-cp312-manylinux_2_28_x86$64.whl"
    if case == "other":
        ok["files"][0]["filename"] = "numpy-2.0.0-cp312-cp312-manylinux_2_28_x86_64.whl"
    if case == "scheme":
        ok["files"][0]["url"] = "file:///etc/passwd"
    if case == "notutf8":
        return b'{"meta": {"api-version": "1.1"}, "files": [], "name": "torch\xff"}'
    return json.dumps(ok).encode()


def badmeta(case):
    good = metadata("2.15.0", "13.2")
    head = b"Requires-Python: >=3.10\n"
    return {"version": good.replace(b"Version: 2.15.0", b"Version: 2.14.0"),
            "notutf8": good.replace(head, head + b"Summary: x\xff\n"),
            "huge": good.replace(head, head + b"Requires-Dist: x\n" * 70000),
            "marker": good.replace(head, head + b"Requires-Dist: cuda-toolkit==13.0; platform_machine ==\n"),
            "hash": good.replace(b"13.2.1", b"13.0.1")}[case]


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # (headers and body are two writes: no 40 ms wait on a kept-alive connection, as no real server makes one)
    disable_nagle_algorithm = True

    def log_message(self, *a):
        pass

    def send(self, body, ctype="application/octet-stream", status=200, length=None, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def wheel(self, name):
        for n, version, cuda, _ in wheels():
            if n == name:
                return version, cuda
        return None, None

    def serverange(self, data):
        r = self.headers.get("Range", "")
        if not r.startswith("bytes="):
            return self.send(data)
        a, _, b = r[6:].partition("-")
        if a == "":
            a, b = max(0, len(data) - int(b)), len(data) - 1
        else:
            a, b = int(a), min(int(b) if b else len(data) - 1, len(data) - 1)
        self.send(data[a:b + 1], status=206, headers=[("Content-Range", "bytes %d-%d/%d" % (a, b, len(data)))])

    def do_GET(self):
        p = self.path
        with open(os.path.join(state, "requests"), "a") as f:
            f.write("GET %s %s\n" % (p, self.headers.get("Range", "-")))
        j = "application/vnd.pypi.simple.v1+json"
        if p == "/simple/torch/":
            return self.send(page("http://127.0.0.1:%d" % port), j)
        if p == "/mirror/simple/torch/":
            return self.send(page("http://127.0.0.1:%d/mirror" % port, advertise=False), j)
        if p == "/whl/torch/":
            return self.send(cudapage(), "text/html")
        for prefix in ("/files/", "/mirror/files/"):
            if p.startswith(prefix):
                name = p[len(prefix):]
                version, cuda = self.wheel(name[:-9] if name.endswith(".metadata") else name)
                if version is None or (name.endswith(".metadata") and prefix == "/mirror/files/"):
                    return self.send(b"not found", "text/plain", 404)
                if name.endswith(".metadata"):
                    return self.send(metadata(version, cuda))
                return self.serverange(wheelzip(name, version, cuda))
        if p.startswith("/bad/"):
            case = p.split("/")[2]
            if case == "truncated":
                self.send_response(200)
                self.send_header("Content-Type", j)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.write(page("")[:5000])
                self.wfile.flush()
                self.close_connection = True
                return
            if case in ("huge", "hugechunked"):
                self.send_response(200)
                self.send_header("Content-Type", j)
                if case == "huge":
                    self.send_header("Content-Length", str(40 << 20))
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                try:
                    for _ in range(40):
                        self.wfile.write(b" " * (1 << 20))
                except (BrokenPipeError, ConnectionResetError):
                    pass
                return
            if case == "stall":
                self.send_response(200)
                self.send_header("Content-Type", j)
                self.send_header("Content-Length", "1000")
                self.end_headers()
                self.wfile.write(b"{")
                self.wfile.flush()
                time.sleep(30)
                return
            return self.send(bad(case), j)
        if p.startswith("/badmeta/"):
            case = p.split("/")[2]
            name = "torch-2.15.0-cp312-cp312-manylinux_2_28_x86_64.whl"
            if p.endswith("/simple/torch/"):
                good = metadata("2.15.0", "13.2")
                entry = {"filename": name, "url": "/badmeta/%s/files/%s" % (case, name), "hashes": {},
                         "core-metadata": {"sha256": hashlib.sha256(good).hexdigest()} if case == "hash" else True}
                return self.send(json.dumps({"meta": {"api-version": "1.0"}, "files": [entry]}).encode(), j)
            return self.send(badmeta(case))
        self.send(b"not found", "text/plain", 404)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


Server(("127.0.0.1", port), Handler).serve_forever()
