# A stand-in for GitHub on 127.0.0.1: the REST API of one repository o/r (releases by tag,
# their assets, uploads) and its release downloads, holding GitHub's limits:
#   - 1,000 assets a release: the 1,001st upload is refused (422, too_many);
#   - an asset of a name the release has: 422 (already_exists);
#   - 2 GiB an asset: an upload that declares more is refused (422) before its body is read;
#   - lists in pages: per_page 30 unless asked, at most 100; a Link header names the next page;
#     a release's own answer holds only its first 10 assets (a reader must page the list).
# Downloads: GET or HEAD /o/r/releases/download/<tag>/<name> answers a redirect (302) to
# /dl/<asset id> on this host, as GitHub sends its downloads elsewhere.
#
#   FAKE_TOKEN=... python3 tests/fakegithub.py DIR
# writes DIR/port once it listens; logs "METHOD PATH auth=ok|bad accept=..." per API request
# to DIR/log (downloads not logged); a file DIR/fail holding N answers the next N requests 502;
# POST /preload makes releases of files at once (bench/github-store.sh: a store of thousands);
# while a file DIR/baddigest is there, uploads are answered with a wrong digest.
import hashlib, json, os, sys, threading, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

d = sys.argv[1]
token = os.environ["FAKE_TOKEN"]
releases = {}  # tag -> release (assets: the full list)
blobs = {}     # asset id -> bytes
lock = threading.Lock()
ids = [10]
MAXASSETS = 1000
MAXSIZE = 2 << 30


def nextid():
    ids[0] += 1
    return ids[0]


def shown(r):
    """a release as the API answers it: its first 10 assets only"""
    x = dict(r)
    x["assets"] = r["assets"][:10]
    return x


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # (its headers and its body are two writes: without this, a client on a kept-alive connection
    # waits out TCP's delayed acknowledgement, 40 ms a request, which GitHub's servers never make it)
    disable_nagle_algorithm = True

    def log_message(self, *a):
        pass

    def answer(self, code, obj=None, headers=(), body=None):
        if body is None:
            body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json" if obj is not None else "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def paged(self, items, u):
        q = urllib.parse.parse_qs(u.query)
        per = min(int(q.get("per_page", ["30"])[0]), 100)
        page = int(q.get("page", ["1"])[0])
        chunk = items[(page - 1) * per:page * per]
        h = []
        if page * per < len(items):
            h.append(("Link", '<http://127.0.0.1:%d%s?per_page=%d&page=%d>; rel="next"' % (self.server.server_port, u.path, per, page + 1)))
        return self.answer(200, chunk, h)

    def download(self, method, p):
        parts = [urllib.parse.unquote(x) for x in p.split("/")]
        with lock:
            if len(parts) == 7 and parts[1:5] == ["o", "r", "releases", "download"]:
                r = releases.get(parts[5])
                a = [a for a in (r["assets"] if r else []) if a["name"] == parts[6]]
                if not a:
                    return self.answer(404, body=b"Not Found")
                return self.answer(302, body=b"", headers=[("Location", "http://127.0.0.1:%d/dl/%d" % (self.server.server_port, a[0]["id"]))])
            if len(parts) == 3 and parts[1] == "dl" and int(parts[2]) in blobs:
                return self.answer(200, body=blobs[int(parts[2])])
        return self.answer(404, body=b"Not Found")

    def handle_one(self, method):
        u = urllib.parse.urlsplit(self.path)
        p = u.path
        if p.startswith("/o/r/releases/download/") or p.startswith("/dl/"):
            return self.download(method, p)
        n = int(self.headers.get("Content-Length") or 0)
        if method == "POST" and p.startswith("/up/") and n > MAXSIZE:
            # (refused on what it declares, before reading it)
            self.close_connection = True
            return self.answer(422, {"message": "Validation Failed", "errors": [{"code": "invalid", "field": "size"}]})
        body = self.rfile.read(n) if n else b""
        ok = self.headers.get("Authorization") == "Bearer " + token
        with open(os.path.join(d, "log"), "a") as f:
            f.write("%s %s auth=%s accept=%s\n" % (method, self.path, "ok" if ok else "bad", self.headers.get("Accept")))
        failf = os.path.join(d, "fail")
        if os.path.exists(failf):
            left = int(open(failf).read() or 0)
            if left > 0:
                open(failf, "w").write(str(left - 1))
                return self.answer(502, {"message": "Server Error"})
        # (a GET without credentials reads, as of a public repository; a wrong token never does)
        anon = self.headers.get("Authorization") is None and method == "GET"
        if not ok and not anon and p not in ("/seed", "/preload"):
            return self.answer(401, {"message": "Bad credentials"})
        with lock:
            if method == "POST" and p == "/preload":
                # (the benchmarks' own: releases and their assets made at once from files here,
                # [{"tag": T, "assets": [{"name": N, "path": P}, ...]}, ...])
                for rel in json.loads(body):
                    rid = nextid()
                    r = releases.setdefault(rel["tag"], {"id": rid, "tag_name": rel["tag"], "assets": [],
                        "upload_url": "http://127.0.0.1:%d/up/repos/o/r/releases/%d/assets{?name,label}" % (self.server.server_port, rid)})
                    for a in rel["assets"]:
                        data = open(a["path"], "rb").read()
                        x = {"id": nextid(), "name": a["name"], "size": len(data), "state": "uploaded",
                             "digest": "sha256:" + hashlib.sha256(data).hexdigest()}
                        r["assets"].append(x)
                        blobs[x["id"]] = data
                return self.answer(201, {"releases": len(releases)})
            if method == "POST" and p == "/seed":
                # (the test's own: a release TAG of N assets seedNNNN<SUFFIX>, made at once)
                q = urllib.parse.parse_qs(u.query)
                tag, k, suffix = q["tag"][0], int(q["n"][0]), q.get("suffix", [""])[0]
                rid = nextid()
                releases[tag] = {"id": rid, "tag_name": tag, "assets": [],
                    "upload_url": "http://127.0.0.1:%d/up/repos/o/r/releases/%d/assets{?name,label}" % (self.server.server_port, rid)}
                for i in range(k):
                    releases[tag]["assets"].append({"id": nextid(), "name": "seed%04d%s" % (i, suffix), "size": 0,
                        "digest": "sha256:" + hashlib.sha256(b"").hexdigest(), "state": "uploaded"})
                return self.answer(201, shown(releases[tag]))
            if method == "GET" and p == "/repos/o/r/releases":
                return self.paged([shown(r) for r in sorted(releases.values(), key=lambda r: -r["id"])], u)
            if method == "GET" and p.startswith("/repos/o/r/releases/tags/"):
                r = releases.get(urllib.parse.unquote(p[len("/repos/o/r/releases/tags/"):]))
                return self.answer(200, shown(r)) if r else self.answer(404, {"message": "Not Found"})
            if method == "GET" and p.startswith("/repos/o/r/releases/") and p.endswith("/assets"):
                rid = int(p.split("/")[5])
                r = [r for r in releases.values() if r["id"] == rid]
                return self.paged(r[0]["assets"], u) if r else self.answer(404, {"message": "Not Found"})
            if method == "POST" and p == "/repos/o/r/releases":
                tag = json.loads(body)["tag_name"]
                if tag in releases:
                    return self.answer(422, {"message": "Validation Failed", "errors": [{"code": "already_exists"}]})
                rid = nextid()
                releases[tag] = {"id": rid, "tag_name": tag, "assets": [],
                    "upload_url": "http://127.0.0.1:%d/up/repos/o/r/releases/%d/assets{?name,label}" % (self.server.server_port, rid)}
                return self.answer(201, shown(releases[tag]))
            if method == "POST" and p.startswith("/up/repos/o/r/releases/"):
                rid = int(p.split("/")[6])
                name = urllib.parse.parse_qs(u.query)["name"][0]
                r = [r for r in releases.values() if r["id"] == rid][0]
                if any(a["name"] == name for a in r["assets"]):
                    return self.answer(422, {"message": "Validation Failed", "errors": [{"code": "already_exists"}]})
                if len(r["assets"]) >= MAXASSETS:
                    return self.answer(422, {"message": "Validation Failed", "errors": [{"code": "too_many", "message": "a release holds at most 1000 assets"}]})
                digest = "sha256:" + hashlib.sha256(body).hexdigest()
                if os.path.exists(os.path.join(d, "baddigest")):
                    digest = "sha256:" + "0" * 64
                a = {"id": nextid(), "name": name, "size": len(body), "digest": digest, "state": "uploaded",
                     "content_type": self.headers.get("Content-Type")}
                r["assets"].append(a)
                blobs[a["id"]] = body
                return self.answer(201, a)
            if method == "DELETE" and p.startswith("/repos/o/r/releases/assets/"):
                aid = int(p.rsplit("/", 1)[1])
                for r in releases.values():
                    r["assets"] = [a for a in r["assets"] if a["id"] != aid]
                blobs.pop(aid, None)
                return self.answer(204)
        return self.answer(404, {"message": "Not Found"})

    def do_GET(self): self.handle_one("GET")
    def do_HEAD(self): self.handle_one("HEAD")
    def do_POST(self): self.handle_one("POST")
    def do_DELETE(self): self.handle_one("DELETE")


s = ThreadingHTTPServer(("127.0.0.1", 0), H)
s.daemon_threads = True
with open(os.path.join(d, "port.tmp"), "w") as f:
    f.write(str(s.server_port))
os.rename(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
s.serve_forever()
