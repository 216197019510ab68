#!/bin/sh
# the index: two variants of one package (CUDA 13.0 from /usr/local, 13.2 assembled from PyPI,
# relabelled +cu130 / +cu132), served by nginx with templates/nginx-index.conf. pip and uv
# pointed at a variant's index install that variant even though the combined index holds a
# higher-sorting label; JSON comes with its Content-Type; every hash matches its file
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure the CUDA example for two CUDA variants (13.2 assembled from PyPI)"
if ! t_configure "$src" --config examples/cuda/packages.yml --cuda-from-pypi 13.2; then t_fail "$(tail -n 20 "$src.configure.log")"; exit 0; fi
cd "$src" || exit 1
py=$(t_pythons 1)
sed -e "s/^  python: .*/  python: [\"$py\"]/" -e 's/^  cuda: .*/  cuda: ["13.0", "13.2"]/' \
	-e 's/^    versions: \["0.1.0"\]/    versions: ["0.1.0"]\n    local_version: "cu{cuda}"/' examples/cuda/packages.yml >examples/cuda/variants.yml
sed -i 's|^config = .*|config = examples/cuda/variants.yml|' out/config.ninja
if ninja >"$WORK/ninja.log" 2>&1 && [ -f out/index/cu130/simple/wgcuda/index.json ] && [ -f out/index/cu132/simple/wgcuda/index.json ]; then
	t_pass
else
	t_fail "$(tail -n 30 "$WORK/ninja.log")" "$(find out/index -maxdepth 2 | head -n 20)"
	exit 0
fi

t_case "every page's #sha256, data-core-metadata, size and requires-python match the files (HTML and JSON agree)"
if "$(sed -n "s/^python $py //p" out/host.txt)" - out/index >"$WORK/check.log" 2>&1 <<'PY'
import hashlib, html.parser, json, os, sys, urllib.parse
top = sys.argv[1]
def sha(p):
    return hashlib.sha256(open(p, "rb").read()).hexdigest()
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []; self.meta = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a": self.links.append(a)
        if tag == "meta" and a.get("name"): self.meta[a["name"]] = a.get("content")
pages = 0
for d, _, files in os.walk(top):
    if "index.json" not in files or d.endswith("/simple"):
        continue
    pages += 1
    p = Links(); p.feed(open(os.path.join(d, "index.html")).read())
    assert p.meta.get("pypi:repository-version") == "1.1", (d, p.meta)
    j = json.load(open(os.path.join(d, "index.json")))
    assert j["meta"]["api-version"] == "1.1" and j["name"] == os.path.basename(d), d
    assert [a["href"] for a in p.links] == [f["url"] + "#sha256=" + f["hashes"]["sha256"] for f in j["files"]], d
    for f in j["files"]:
        path = os.path.normpath(os.path.join(d, urllib.parse.unquote(f["url"])))
        assert "%2B" in f["url"] and "+" in f["filename"], f["url"]
        assert sha(path) == f["hashes"]["sha256"], path
        assert os.path.getsize(path) == f["size"], path
        assert sha(path + ".metadata") == f["core-metadata"]["sha256"], path
        meta = open(path + ".metadata").read()
        rp = [l.split(":", 1)[1].strip() for l in meta.splitlines() if l.startswith("Requires-Python:")]
        assert f["requires-python"] == (rp[0] if rp else None), (f["requires-python"], rp)
        assert f["upload-time"].endswith("Z") and "T" in f["upload-time"], f
    for a in p.links:
        assert a["data-core-metadata"].startswith("sha256="), a
    assert sorted(j["versions"]) == sorted({f["filename"].split("-")[1] for f in j["files"]}), j["versions"]
assert pages == 3, pages  # simple/wgcuda, cu130/simple/wgcuda, cu132/simple/wgcuda
print("ok", pages)
PY
then t_pass; else t_fail "$(tail -n 15 "$WORK/check.log")"; fi

t_case "each variant's index holds only its own wheel; the combined index holds both"
if grep -q 'wgcuda-0.1.0%2Bcu130-' out/index/cu130/simple/wgcuda/index.html && ! grep -q 'cu132' out/index/cu130/simple/wgcuda/index.html &&
	grep -q 'wgcuda-0.1.0%2Bcu132-' out/index/cu132/simple/wgcuda/index.html && ! grep -q 'cu130-' out/index/cu132/simple/wgcuda/index.html &&
	[ "$(grep -c '<a href' out/index/simple/wgcuda/index.html)" = 2 ]; then
	t_pass
else
	t_fail "$(cat out/index/cu130/simple/wgcuda/index.html)"
fi

# nginx with the shipped configuration
d=$WORK/nginx
port=$(t_freeport)
sed -e "s|listen 127.0.0.1:8080;|listen 127.0.0.1:$port;|" -e "s|root /srv/wheelgen/out/index;|root $src/out/index;|" \
	templates/nginx-index.conf >"$WORK/index.conf"
{
	t_nginx_head "$d"
	cat <<NGINX
  include /etc/nginx/mime.types;
  access_log $d/logs/access.log;
  include $WORK/index.conf;
}
NGINX
} >"$WORK/nginx.conf"
t_case "nginx serves the index with the shipped configuration"
if nginx -c "$WORK/nginx.conf" >"$WORK/nginx-start.log" 2>&1; then t_pass; else t_fail "$(cat "$WORK/nginx-start.log" "$d/logs/error.log" 2>/dev/null)"; exit 0; fi
trap 'kill "$(cat "$d/nginx.pid" 2>/dev/null)" 2>/dev/null; t_cleanup' EXIT
url=http://127.0.0.1:$port
ctype() { curl -s -o /dev/null -w '%{content_type}' "$@"; }

t_case "JSON for Accept: application/vnd.pypi.simple.v1+json, HTML otherwise, each with its Content-Type"
j=$(ctype -H 'Accept: application/vnd.pypi.simple.v1+json' "$url/cu130/simple/wgcuda/")
h=$(ctype -H 'Accept: text/html' "$url/cu130/simple/wgcuda/")
body=$(curl -s -H 'Accept: application/vnd.pypi.simple.v1+json' "$url/simple/")
if [ "$j" = application/vnd.pypi.simple.v1+json ] && [ "${h%%;*}" = text/html ] &&
	[ "$body" = '{"meta": {"api-version": "1.1"}, "projects": [{"name": "wgcuda"}]}' ]; then
	t_pass
else
	t_fail "json: $j; html: $h; root: $body"
fi

exe=$(sed -n "s/^python $py //p" out/host.txt)
"$exe" -m venv "$WORK/venv" >/dev/null 2>&1
pipv() { # pipv INDEX-URL ...: install wgcuda into a fresh venv with pip; print the version
	rm -rf "$WORK/v"
	"$exe" -m venv "$WORK/v" >/dev/null 2>&1
	"$WORK/v/bin/pip" install -q --no-cache-dir --index-url "$@" >>"$WORK/pip.log" 2>&1 &&
		(cd / && "$WORK/v/bin/python" -c 'import importlib.metadata as m; print(m.version("wgcuda"))')
}
t_case "pip, pointed at the cu130 index, installs +cu130 though the combined index would give +cu132"
a=$(pipv "$url/cu130/simple/" wgcuda)
b=$(pipv "$url/simple/" wgcuda)
if [ "$a" = 0.1.0+cu130 ] && [ "$b" = 0.1.0+cu132 ]; then t_pass; else t_fail "cu130 index: '$a'; combined: '$b'" "$(tail -n 10 "$WORK/pip.log")"; fi

t_case "pip --require-hashes installs from the variant index"
sha=$(sed -n 's/^sha256=//p' out/wheels/wgcuda-0.1.0-py*-cu130/manifest)
echo "wgcuda==0.1.0+cu130 --hash=sha256:$sha" >"$WORK/req.txt"
c=$(pipv "$url/cu132/simple/" --extra-index-url "$url/cu130/simple/" --require-hashes -r "$WORK/req.txt")
if [ "$c" = 0.1.0+cu130 ]; then t_pass; else t_fail "got '$c'" "$(tail -n 10 "$WORK/pip.log")"; fi

t_case "uv, pointed at the cu132 index, installs +cu132 (asking for JSON)"
if [ -n "${UV:-}" ]; then
	rm -rf "$WORK/u"
	"$exe" -m venv "$WORK/u" >/dev/null 2>&1
	if "$UV" pip install -q --no-cache --python "$WORK/u/bin/python" --index-url "$url/cu132/simple/" wgcuda >"$WORK/uv.log" 2>&1; then
		got=$(cd / && "$WORK/u/bin/python" -c 'import importlib.metadata as m; print(m.version("wgcuda"))')
		if [ "$got" = 0.1.0+cu132 ] && grep -q '"GET /cu132/simple/wgcuda/' "$d/logs/access.log"; then t_pass; else t_fail "got '$got'"; fi
	else
		t_fail "$(tail -n 10 "$WORK/uv.log")"
	fi
else
	t_fail "uv not found (tests/run.sh --install-deps puts it in out/tools)"
fi

t_case "ninja index with nothing changed rewrites no page"
before=$(find out/index -type f -newer out/index/index.html | wc -l)
touch -d '2 minutes ago' out/index/index.html out/index/simple/index.json
rm -f out/index/simple/index.html # the index target's output: the edge runs again
stamp=$WORK/stamp
touch "$stamp"
ninja index >"$WORK/index2.log" 2>&1
rewritten=$(find out/index -type f -newer "$stamp" | sort)
if [ "$rewritten" = out/index/simple/index.html ]; then t_pass; else t_fail "rewritten: $rewritten (before: $before)"; fi

t_case "wheelgen index --from-list builds pages from file names alone, skipping names without a project"
printf '%s\n' Foo.Bar-1.0-py3-none-any.whl foo_bar-1.1.tar.gz zope.interface-5.0.zip README >"$WORK/names.txt"
if out/wheelgen index --builddir "$WORK/fl" --from-list "$WORK/names.txt" 2>"$WORK/fl.err" &&
	[ "$(grep -c '<a href' "$WORK/fl/index/simple/foo-bar/index.html")" = 2 ] &&
	grep -q 'href="../../files/foo_bar-1.1.tar.gz"' "$WORK/fl/index/simple/foo-bar/index.html" &&
	[ -f "$WORK/fl/index/simple/zope-interface/index.json" ] && grep -q "skipped 1 file name whose project cannot be told (the first: 'README')" "$WORK/fl.err"; then
	t_pass
else
	t_fail "$(cat "$WORK/fl.err")" "$(find "$WORK/fl" | head -n 20)"
fi
