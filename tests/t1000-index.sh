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
# one Python (the index of several Pythons' wheels: t0400): the newest up to 3.11 where there
# is one, for the client matrix (pip before 23.1 does not run on 3.12)
py=$(t_pythons 1)
pyold=$(t_pythons 9 | awk -F. '$1 == 3 && $2 >= 8 && $2 <= 11' | tail -n 1)
[ -z "$pyold" ] || py=$pyold
sed -e "s/^  python: .*/  python: [\"$py\"]/" -e 's/^  cuda: .*/  cuda: ["13.0", "13.2"]/' examples/cuda/packages.yml >examples/cuda/variants.yml
sed -i 's|^config = .*|config = examples/cuda/variants.yml|' out/config.ninja
if ninja >"$WORK/ninja.log" 2>&1 && [ -f out/index/cu130/simple/wgcuda/index.json ] && [ -f out/index/cu132/simple/wgcuda/index.json ]; then
	t_pass
else
	t_fail "$(tail -n 30 "$WORK/ninja.log")" "$(find out/index -maxdepth 2 | head -n 20)"
	exit 0
fi

t_case "every page's #sha256, core metadata (HTML: both names; JSON: core-metadata only), size and requires-python match the files"
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
        # PEP 691: no key for no value; PEP 714: core-metadata alone in JSON (pip 22.3-23.1 crash on the old name)
        assert f.get("requires-python") == (rp[0] if rp else None) and ("requires-python" in f) == bool(rp), (f, rp)
        assert "dist-info-metadata" not in f, f
        assert f["upload-time"].endswith("Z") and "T" in f["upload-time"], f
    for a in p.links:
        assert a["data-core-metadata"].startswith("sha256="), a
        assert a["data-dist-info-metadata"] == a["data-core-metadata"], a  # pip < 23.3 reads only this one
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
# on exit: stop the nginx servers whatever happens, then count (t_cleanup sees the script's status)
stop_exit() {
	st=$?
	set +e
	for pidf in "$d/nginx.pid" "${d2:-/nonexistent}/nginx.pid"; do
		[ -f "$pidf" ] && kill "$(cat "$pidf")" 2>/dev/null
	done
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
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

t_case "nginx negotiates with q-values: JSON only when the client prefers it; a relative redirect"
bad=
while IFS='|' read -r want accept; do
	got=$(curl -s -H "Accept: $accept" "$url/simple/wgcuda/" | head -c 1)
	case $got in '{') got=json ;; '<') got=html ;; esac
	[ "$got" = "$want" ] || bad="$bad
  '$accept': $got, not $want"
done <<'TABLE'
json|application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html; q=0.1, text/html; q=0.01
json|application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2, text/html;q=0.01
json|application/vnd.pypi.simple.v1+json
json|application/vnd.pypi.simple.latest+json
json|text/html;q=0.9, application/vnd.pypi.simple.v1+json
json|application/vnd.pypi.simple.v1+json;q=0.5, text/html;q=0.45
html|text/html, application/vnd.pypi.simple.v1+json;q=0.1
html|application/vnd.pypi.simple.v1+json;q=0, text/html
html|application/vnd.pypi.simple.v1+json;q=0
html|application/vnd.pypi.simple.v1+json;q=0.45, text/html;q=0.5
html|text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8
html|*/*
TABLE
loc=$(curl -s -o /dev/null -w '%{redirect_url} %header{location}' "$url/simple/wgcuda" 2>/dev/null || true)
case $loc in *' /simple/wgcuda/') ;; *) bad="$bad
  redirect: '$loc'" ;; esac
if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi

exe=$(sed -n "s/^python $py //p" out/host.txt)
t_venv "$WORK/venv" "$exe"
pipv() { # pipv INDEX-URL ...: install wgcuda into a fresh venv with pip; print the version
	rm -rf "$WORK/v"
	t_venv "$WORK/v" "$exe"
	"$WORK/v/bin/pip" install -q --no-cache-dir --index-url "$@" >>"$WORK/pip.log" 2>&1 &&
		(cd / && "$WORK/v/bin/python" -c 'import importlib.metadata as m; print(m.version("wgcuda"))')
}
t_case "pip, pointed at the cu130 index, installs +cu130 though the combined index would give +cu132"
a=$(pipv "$url/cu130/simple/" wgcuda)
b=$(pipv "$url/simple/" wgcuda)
if [ "$a" = 0.1.0+cu130 ] && [ "$b" = 0.1.0+cu132 ]; then t_pass; else t_fail "cu130 index: '$a'; combined: '$b'" "$(tail -n 10 "$WORK/pip.log")"; fi

t_case "pip --require-hashes installs from the variant index"
sha=$(sed -n 's/^sha256=//p' "out/wheels/wgcuda-0.1.0-py$(echo "$py" | tr -d .)-cu130/manifest")
echo "wgcuda==0.1.0+cu130 --hash=sha256:$sha" >"$WORK/req.txt"
c=$(pipv "$url/cu132/simple/" --extra-index-url "$url/cu130/simple/" --require-hashes -r "$WORK/req.txt")
if [ "$c" = 0.1.0+cu130 ]; then t_pass; else t_fail "got '$c'" "$(tail -n 10 "$WORK/pip.log")"; fi

t_case "uv, pointed at the cu132 index, installs +cu132 (asking for JSON)"
if [ -n "${UV:-}" ]; then
	rm -rf "$WORK/u"
	t_venv "$WORK/u" "$exe"
	if "$UV" pip install -q --no-cache --python "$WORK/u/bin/python" --index-url "$url/cu132/simple/" wgcuda >"$WORK/uv.log" 2>&1; then
		got=$(cd / && "$WORK/u/bin/python" -c 'import importlib.metadata as m; print(m.version("wgcuda"))')
		if [ "$got" = 0.1.0+cu132 ] && grep -q '"GET /cu132/simple/wgcuda/' "$d/logs/access.log"; then t_pass; else t_fail "got '$got'"; fi
	else
		t_fail "$(tail -n 10 "$WORK/uv.log")"
	fi
else
	t_fail "uv not found (tests/run.sh --install-deps puts it in out/tools)"
fi

# the clients people have: pip 22.0 to the newest (Debian 12's is 23.0.1) and uv, each in a
# venv of Python <= 3.11 of its own (that version of pip put in by uv, from its cache),
# installing from a variant index and from the combined one, served by nginx (negotiating: JSON
# for pip >= 22.2 and uv) and by a plain static server (HTML only); wgcuda is uninstalled
# between two installs
t_case "the client matrix: pip 22.0.4, 22.3.1, 23.0.1, 23.1.2, 23.2.1, the newest pip and uv, against nginx (variant and combined index) and a static server (combined)"
if [ -n "$pyold" ]; then
	exeold=$(sed -n "s/^python $pyold //p" out/host.txt)
	sport=$(t_freeport)
	(cd out/index && exec "$exeold" -m http.server --bind 127.0.0.1 "$sport") >"$WORK/static.log" 2>&1 &
	spid=$!
	bad="" n=0
	# each client's pip runs seven times in its venv: with its bytecode written on the first
	# (a harness may set PYTHONDONTWRITEBYTECODE: then every run compiled pip's 600 modules)
	pipc() { env -u PYTHONDONTWRITEBYTECODE "$WORK/cm/bin/pip" "$@"; }
	for client in 22.0.4 22.3.1 23.0.1 23.1.2 23.2.1 newest uv; do
		rm -rf "$WORK/cm"
		case $client in
		uv) want= ;;
		newest) want=pip ;;
		*) want=pip==$client ;;
		esac
		"$exeold" -m venv --without-pip "$WORK/cm" >>"$WORK/cm.log" 2>&1
		if [ -n "$want" ] && [ -n "${UV:-}" ]; then
			"$UV" pip install -q --python "$WORK/cm/bin/python" "$want" >>"$WORK/cm.log" 2>&1
		elif [ -n "$want" ]; then
			"$WORK/cm/bin/python" -m ensurepip >>"$WORK/cm.log" 2>&1 && "$WORK/cm/bin/python" -m pip install -q --upgrade "$want" >>"$WORK/cm.log" 2>&1
		fi
		case $client in
		[0-9]*) if [ "$(pipc --version 2>/dev/null | awk '{print $2}')" != "$client" ]; then
			bad="$bad
  $client: the venv runs pip $(pipc --version 2>&1 | tail -n 1)"
			continue
		fi ;;
		esac
		for server in "$url" "http://127.0.0.1:$sport"; do
			for idx in cu130 combined; do
				# (the static server only the combined index: the variant index is another
				# directory of the same files, which nginx serves to every client already)
				[ "$server" = "$url" ] || [ "$idx" = combined ] || continue
				# (the install is what is tried: the uninstall before it by uv where there is one,
				# a tenth of a pip start)
				if [ -n "${UV:-}" ] || [ "$client" = uv ]; then
					"${UV:-uv}" pip uninstall -q --python "$WORK/cm/bin/python" wgcuda >/dev/null 2>&1 || true
				else
					pipc uninstall -q -y wgcuda >/dev/null 2>&1 || true
				fi
				if [ "$idx" = cu130 ]; then iurl=$server/cu130/simple/ want=0.1.0+cu130; else iurl=$server/simple/ want=0.1.0+cu132; fi
				if [ "$client" = uv ]; then
					"${UV:-uv}" pip install -q --no-cache --python "$WORK/cm/bin/python" --index-url "$iurl" wgcuda >"$WORK/cm.out" 2>&1
				else
					pipc install --no-cache-dir --index-url "$iurl" wgcuda >"$WORK/cm.out" 2>&1
				fi
				got=$(cd / && "$WORK/cm/bin/python" -c 'import importlib.metadata as m; print(m.version("wgcuda"))' 2>/dev/null)
				n=$((n + 1))
				[ "$got" = "$want" ] || bad="$bad
  $client $iurl: got '$got': $(grep -i 'error' "$WORK/cm.out" | tail -n 2)"
			done
		done
	done
	kill "$spid" 2>/dev/null || true
	if [ -z "$bad" ] && [ "$n" = 21 ]; then t_pass; else t_fail "$bad" "$(tail -n 5 "$WORK/cm.log")"; fi
else
	t_fail "no Python from 3.8 to 3.11 on this host for the older pips"
fi

t_case "pypi-simple (PyPI) parses every page, HTML and JSON, and each JSON page holds to PEP 691's shape"
rm -rf "$WORK/ps"
if t_toolvenv "$WORK/ps" pypi-simple &&
	"$WORK/ps/bin/python" - out/index >"$WORK/ps.check" 2>&1 <<'PY'; then t_pass; else t_fail "$(tail -n 15 "$WORK/ps.log" "$WORK/ps.check")"; fi
import json, os, sys
from pypi_simple import IndexPage, ProjectPage
top, pages = sys.argv[1], 0
def shape(j, project):
    assert set(j) >= {"meta", "name" if project else "projects"}, j.keys()
    assert j["meta"]["api-version"] in ("1.0", "1.1"), j["meta"]
    for f in j.get("files", []):
        assert isinstance(f["filename"], str) and isinstance(f["url"], str) and isinstance(f["hashes"], dict), f
        assert "dist-info-metadata" not in f and f.get("requires-python", "") is not None, f
        assert isinstance(f.get("core-metadata", False), (bool, dict)) and isinstance(f.get("yanked", False), (bool, str)), f
        if j["meta"]["api-version"] == "1.1":
            assert isinstance(f["size"], int) and f["upload-time"].endswith("Z"), f
    for p in j.get("projects", []):
        assert isinstance(p["name"], str), p
for d, _, names in os.walk(top):
    if "index.json" not in names:
        continue
    j = json.load(open(os.path.join(d, "index.json")))
    html = open(os.path.join(d, "index.html")).read()
    project = "files" in j
    shape(j, project)
    if project:
        a, b = ProjectPage.from_html(j["name"], html), ProjectPage.from_json_data(j)
        assert [p.filename for p in a.packages] == [p.filename for p in b.packages], d
        assert all(p.digests.get("sha256") and p.has_metadata for p in a.packages + b.packages), d
        assert [p.metadata_digests for p in a.packages] == [p.metadata_digests for p in b.packages], d
    else:
        assert [p for p in IndexPage.from_html(html).projects] == [p for p in IndexPage.from_json_data(j).projects], d
    pages += 1
assert pages >= 6, pages
print("parsed", pages)
PY

t_case "ninja index with nothing changed rewrites no page"
before=$(find out/index -type f -newer out/index/index.html | wc -l)
touch -d '2 minutes ago' out/index/index.html out/index/simple/index.json
rm -f out/index/simple/index.html # the index target's output: the edge runs again
stamp=$WORK/stamp
touch "$stamp"
ninja index >"$WORK/index2.log" 2>&1
rewritten=$(find out/index -type f -newer "$stamp" | sort)
if [ "$rewritten" = out/index/simple/index.html ]; then t_pass; else t_fail "rewritten: $rewritten (before: $before)"; fi

t_case "wheelgen index --from-list: pages from file names alone, skipping names that are not projects, only PEP 440 versions, API 1.0 (no sizes)"
printf '%s\n' Foo.Bar-1.0-py3-none-any.whl foo_bar-1.1.tar.gz zope.interface-5.0.zip README "nicolas nester-1.0.tar.gz" \
	foo_bar-0.1.linux-x86_64.tar.gz >"$WORK/names.txt"
if out/wheelgen index --builddir "$WORK/fl" --from-list "$WORK/names.txt" 2>"$WORK/fl.err" &&
	[ "$(grep -c '<a href' "$WORK/fl/index/simple/foo-bar/index.html")" = 3 ] &&
	grep -q 'href="../../files/foo_bar-1.1.tar.gz"' "$WORK/fl/index/simple/foo-bar/index.html" &&
	[ -f "$WORK/fl/index/simple/zope-interface/index.json" ] &&
	grep -q "skipped 2 file names whose project cannot be told or is not a PEP 508 name (the first: 'README')" "$WORK/fl.err" &&
	[ -z "$(find "$WORK/fl/index/simple" -name '* *')" ] &&
	grep -q '"versions": \["1.0", "1.1"\]}' "$WORK/fl/index/simple/foo-bar/index.json" &&
	grep -q '"api-version": "1.0"' "$WORK/fl/index/simple/foo-bar/index.json" &&
	grep -q 'content="1.0"' "$WORK/fl/index/simple/foo-bar/index.html"; then
	t_pass
else
	t_fail "$(cat "$WORK/fl.err")" "$(find "$WORK/fl" | head -n 20)"
fi

t_case "the project pages are written by several threads: the same bytes as one thread, fresh and in place; a failed page fails the run"
# 2400 names in 1200 projects (projN, proj-n), some with local labels (+ -> %2B) and characters HTML escapes
: >"$WORK/many.txt"
i=0
while [ "$i" -lt 600 ]; do
	printf 'proj%d-1.0-py3-none-any.whl\nproj%d-1.1+cu130-cp312-cp312-linux_x86_64.whl\nproj%d-2.0.tar.gz\nProj_%d-2.1-py3-none-any.whl\n' "$i" "$i" "$i" "$i"
	i=$((i + 1))
done >>"$WORK/many.txt"
why=
for t in 1 4; do
	WHEELGEN_INDEX_THREADS=$t out/wheelgen index --builddir "$WORK/th$t" --from-list "$WORK/many.txt" 2>>"$WORK/th.err" || why="$why fresh$t"
done
out/wheelgen index --builddir "$WORK/thauto" --from-list "$WORK/many.txt" 2>>"$WORK/th.err" || why="$why freshauto"
diff -r "$WORK/th1" "$WORK/th4" >"$WORK/th.diff" 2>&1 || why="$why fresh-differs"
diff -r "$WORK/th1" "$WORK/thauto" >>"$WORK/th.diff" 2>&1 || why="$why auto-differs"
grep -q 'href="../../files/proj7-1.1%2Bcu130-cp312-cp312-linux_x86_64.whl"' "$WORK/th4/index/simple/proj7/index.html" || why="$why no-%2B"
[ "$(find "$WORK/th4/index/simple" -name index.json | wc -l)" = 1201 ] || why="$why json-count"
# in place: 180 projects gone, one new; both runs must prune and write the same
grep -v '^proj[1-9]0\?[0-9]-' "$WORK/many.txt" >"$WORK/fewer.txt"
echo 'newproj-0.1-py3-none-any.whl' >>"$WORK/fewer.txt"
for t in 1 4; do
	WHEELGEN_INDEX_THREADS=$t out/wheelgen index --builddir "$WORK/th$t" --from-list "$WORK/fewer.txt" 2>>"$WORK/th.err" || why="$why inplace$t"
done
diff -r "$WORK/th1" "$WORK/th4" >>"$WORK/th.diff" 2>&1 || why="$why inplace-differs"
[ ! -e "$WORK/th4/index/simple/proj15" ] && [ -f "$WORK/th4/index/simple/newproj/index.html" ] || why="$why not-pruned"
# a page that cannot be written (a file where its directory goes): the run fails, naming it
rm -rf "$WORK/th4/index/simple/newproj" && : >"$WORK/th4/index/simple/newproj"
if WHEELGEN_INDEX_THREADS=4 out/wheelgen index --builddir "$WORK/th4" --from-list "$WORK/fewer.txt" 2>"$WORK/thfail.err"; then
	why="$why failure-not-reported"
fi
grep -q "newproj" "$WORK/thfail.err" || why="$why failure-not-named"
if [ -z "$why" ]; then t_pass; else t_fail "$why" "$(head -n 20 "$WORK/th.err" "$WORK/th.diff" "$WORK/thfail.err")"; fi

t_case "two different wheels of one file name (merged from elsewhere): an error naming both cells; the index stays as it was"
mk() { # mk CELL CUDA CONTENT [NAME]: a wheel and its manifest in $WORK/coll/wheels/CELL
	md=$WORK/coll/wheels/$1
	f=${4:-x-1.0-cp312-cp312-linux_x86_64.whl}
	mkdir -p "$md"
	printf '%s' "$3" >"$md/$f"
	sha=$(printf '%s' "$3" | sha256sum | cut -d' ' -f1)
	printf 'cell=%s\npackage=x\nversion=1.0\nfilename=%s\nsha256=%s\ntags=cp312-cp312-linux_x86_64\nsize=%s\ncuda=%s\npython=3.12\n' \
		"$1" "$f" "$sha" "${#3}" "$2" >"$md/manifest"
	# its test's record, as a CI artifact of the directory carries it
	printf '%s\ngpu=skipped\n' "$sha" >"$md/tested"
	echo "$md/manifest" >>"$WORK/coll/list"
}
mkdir -p "$WORK/coll"
mk x-1.0-py312-cu130 13.0 'built with 13.0'
why=
out/wheelgen index --builddir "$WORK/coll" --manifests "$WORK/coll/list" 2>"$WORK/coll1.err" || why="$why first"
before=$(cd "$WORK/coll/index" && find . -type f -exec cksum {} + | sort)
mk x-1.0-py312-cu132 13.2 'built with 13.2'
if out/wheelgen index --builddir "$WORK/coll" --manifests "$WORK/coll/list" 2>"$WORK/coll2.err"; then why="$why accepted"; fi
grep -q "error: cells 'x-1.0-py312-cu130' and 'x-1.0-py312-cu132' both built 'x-1.0-cp312-cp312-linux_x86_64.whl', with different contents" "$WORK/coll2.err" || why="$why message"
[ "$before" = "$(cd "$WORK/coll/index" && find . -type f -exec cksum {} + | sort)" ] || why="$why index-changed"
# the same into an empty build directory leaves no half-written tree
mkdir -p "$WORK/coll-fresh"
if out/wheelgen index --builddir "$WORK/coll-fresh" --manifests "$WORK/coll/list" 2>/dev/null; then why="$why fresh-accepted"; fi
[ -z "$(find "$WORK/coll-fresh" -mindepth 1 ! -name index.lock)" ] || why="$why left:$(ls "$WORK/coll-fresh")"
if [ -z "$why" ]; then t_pass; else t_fail "$why" "$(cat "$WORK/coll1.err" "$WORK/coll2.err")"; fi

t_case "manifests whose fields would make paths outside the index (package, cuda, cell, filename) fail the run, named, before anything is written"
bad=
for field in "package=../../../elsewhere" "cuda=../../13.0" "torch=2.9/../x" "cell=../x" "filename=../x-1.0-py3-none-any.whl" "package=Not_Normal"; do
	rm -rf "$WORK/hostile"
	mkdir -p "$WORK/hostile/w"
	printf 'x' >"$WORK/hostile/w/x-1.0-py3-none-any.whl"
	{
		printf 'cell=x-1.0-py312\npackage=x\nversion=1.0\nfilename=x-1.0-py3-none-any.whl\nsha256=%s\nsize=1\n' "$(printf x | sha256sum | cut -d' ' -f1)"
		printf '%s\n' "$field"
	} >"$WORK/hostile/w/manifest"
	printf '%s\n' "$(printf x | sha256sum | cut -d' ' -f1)" >"$WORK/hostile/w/tested"
	echo "$WORK/hostile/w/manifest" >"$WORK/hostile/list"
	if out/wheelgen index --builddir "$WORK/hostile" --manifests "$WORK/hostile/list" >"$WORK/hostile.log" 2>&1; then
		bad="$bad $field:accepted"
	elif ! grep -q "error: manifest '$WORK/hostile/w/manifest': " "$WORK/hostile.log"; then
		bad="$bad $field:message($(cat "$WORK/hostile.log"))"
	elif [ -e "$WORK/hostile/index" ] || [ -n "$(find "$WORK" -maxdepth 3 -name elsewhere)" ]; then
		bad="$bad $field:wrote"
	fi
done
if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi

t_case "two wheelgen index runs creating one index at once both succeed (a lock), and a dead writer's index.tmp.<pid> is swept"
find out/wheels -name manifest | sort >"$WORK/conc.list"
mkdir -p "$WORK/conc/index.tmp.2147483600/simple"
out/wheelgen index --builddir "$WORK/conc" --spec out/index.spec --manifests "$WORK/conc.list" 2>"$WORK/conc1.err" &
c1=$!
out/wheelgen index --builddir "$WORK/conc" --spec out/index.spec --manifests "$WORK/conc.list" 2>"$WORK/conc2.err" &
c2=$!
ok=1
wait "$c1" || ok=0
wait "$c2" || ok=0
out/wheelgen index --builddir "$WORK/alone" --spec out/index.spec --manifests "$WORK/conc.list" 2>/dev/null || ok=0
if [ "$ok" = 1 ] && [ ! -e "$WORK/conc/index.tmp.2147483600" ] && diff -r "$WORK/conc/index/simple" "$WORK/alone/index/simple" >/dev/null; then
	t_pass
else
	t_fail "$(cat "$WORK/conc1.err" "$WORK/conc2.err")" "$(ls "$WORK/conc")"
fi

t_case "one abi3 wheel name from two Pythons of one variant: listed once, the first cell's file"
: >"$WORK/coll/list"
rm -rf "$WORK/coll/index" "$WORK/coll/wheels"
mk x-1.0-py311-cu130 13.0 'built by 3.11' x-1.0+cu130-cp39-abi3-linux_x86_64.whl
mk x-1.0-py312-cu130 13.0 'built by 3.12' x-1.0+cu130-cp39-abi3-linux_x86_64.whl
if out/wheelgen index --builddir "$WORK/coll" --manifests "$WORK/coll/list" 2>"$WORK/abi3.err" &&
	[ "$(grep -c '<a href' "$WORK/coll/index/cu130/simple/x/index.html")" = 1 ] &&
	[ "$(cat "$WORK/coll/index/files/x-1.0+cu130-cp39-abi3-linux_x86_64.whl")" = 'built by 3.11' ] &&
	grep -q "#sha256=$(printf 'built by 3.11' | sha256sum | cut -d' ' -f1)" "$WORK/coll/index/simple/x/index.html"; then
	t_pass
else
	t_fail "$(cat "$WORK/abi3.err")" "$(cat "$WORK/coll/index/simple/x/index.html" 2>/dev/null)"
fi

t_case "ThreadSanitizer finds no data race in the threaded index writer (fresh and in place)"
# (a file at a time, through the suite's ccache: tests/run.sh's WG_TEST_CCACHE)
tsanbuild() {
	mkdir -p "$WORK/tsan-obj"
	for c in gen/*.c; do
		# shellcheck disable=SC2046,SC2086
		${WG_TEST_CCACHE:-} cc -std=c99 -O1 -g -fsanitize=thread -pthread $(pkg-config --cflags yaml-0.1 libgit2 libpcre2-8 zlib) \
			-c "$c" -o "$WORK/tsan-obj/$(basename "$c" .c).o" || return 1
	done
	# shellcheck disable=SC2046
	cc -fsanitize=thread -pthread "$WORK"/tsan-obj/*.o -o "$WORK/wheelgen-tsan" $(pkg-config --libs yaml-0.1 libgit2 libpcre2-8 zlib)
}
if tsanbuild >"$WORK/tsan.log" 2>&1; then
	for f in many fewer; do
		WHEELGEN_INDEX_THREADS=4 TSAN_OPTIONS=exitcode=66 "$WORK/wheelgen-tsan" index --builddir "$WORK/tsan" \
			--from-list "$WORK/$f.txt" >>"$WORK/tsan.log" 2>&1 || echo "exit status $? ($f)" >>"$WORK/tsan.log"
	done
	if ! grep -q 'ThreadSanitizer\|exit status' "$WORK/tsan.log" && [ -f "$WORK/tsan/index/simple/newproj/index.html" ]; then
		t_pass
	else
		t_fail "$(head -n 40 "$WORK/tsan.log")"
	fi
else
	t_fail "cannot build wheelgen with -fsanitize=thread" "$(tail -n 10 "$WORK/tsan.log")"
fi

# --- the landing page in a real browser ---------------------------------------------------
t_case "the landing page renders in headless chromium: semantic, a section per setup, and every link it leads to resolves on the server"
chrome=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chrome" ]; then
	t_fail "chromium not found (tests/run.sh --install-deps installs it)"
elif ! timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --user-data-dir="$WORK/chrome" \
	--dump-dom "$url/" >"$WORK/dom.html" 2>"$WORK/chrome.log"; then
	t_fail "chromium failed: $(tail -n 5 "$WORK/chrome.log")"
elif python3 - "$url/" "$WORK/dom.html" "$WORK/commands" >"$WORK/crawl.log" 2>&1 <<'PY'; then t_pass; else t_fail "$(tail -n 15 "$WORK/crawl.log")"; fi
import html.parser, sys, urllib.parse, urllib.request
base, dom, cmdfile = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []; self.cells = 0; self.title = ""; self.tag = None
        self.h3 = []; self.pre = []; self.preid = []; self.lang = None; self.tags = set(); self.scopes = 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs); self.tags.add(tag)
        if tag == "a": self.links.append(a["href"])
        if tag == "td": self.cells += 1
        if tag == "html": self.lang = a.get("lang")
        if tag == "th" and a.get("scope") == "col": self.scopes += 1
        if tag in ("title", "h3", "pre"):
            self.tag = tag
            if tag == "h3": self.h3.append("")
            if tag == "pre": self.pre.append(""); self.preid.append(a.get("id"))
    def handle_endtag(self, tag):
        if tag == self.tag: self.tag = None
    def handle_data(self, d):
        if self.tag == "title": self.title += d
        if self.tag == "h3": self.h3[-1] += d
        if self.tag == "pre": self.pre[-1] += d
def parse(text):
    p = P(); p.feed(text); return p
# what the browser built from the page (after its script filled in the index address)
p = parse(dom)
assert p.title == "Wheels", p.title
assert p.lang == "en" and {"caption", "thead", "tbody", "main", "section"} <= p.tags, (p.lang, p.tags)
assert p.cells == 2 * 8, p.cells          # a row per wheel (2: one Python, two CUDA), 8 columns (platform, GPU too)
assert p.scopes == 8, p.scopes
assert sorted(p.h3) == ["CUDA 13.0", "CUDA 13.2"], p.h3
# (the sections' lines: not the finder's one-liner, not the selector's command, both held below)
cmds = [l for pre, i in zip(p.pre, p.preid) if i is None and "find.py" not in pre for l in pre.splitlines() if l.strip()]
assert len(cmds) == 4 and all("INDEX" not in c for c in cmds), cmds
want = base.rstrip("/")
# (PyPI beside the setup's index, for what the wheels require; pip pinned to the setup's newest version)
assert any(c == "pip install --index-url %s/cu130/simple/ --extra-index-url https://pypi.org/simple wgcuda==0.1.0" % want for c in cmds), cmds
assert any(c == "uv pip install --index %s/cu130/simple/ --default-index https://pypi.org/simple wgcuda" % want for c in cmds), cmds
open(cmdfile, "w").write("\n".join(cmds) + "\n")
seen, todo, fetched = set(), [(urllib.parse.urljoin(base, l), 1) for l in p.links], 0
while todo:
    u, depth = todo.pop()
    u = u.split("#")[0]
    if u in seen or not u.startswith(base):
        continue
    seen.add(u)
    with urllib.request.urlopen(u) as r:   # raises on 404 and other errors
        body = r.read(); fetched += 1
        if depth < 4 and r.headers.get_content_type() == "text/html":
            todo += [(urllib.parse.urljoin(u, l), depth + 1) for l in parse(body.decode()).links]
# the landing page, 3 simple roots, 3 project pages, 2 wheels (+ their hashes are checked above)
assert fetched >= 8, (fetched, sorted(seen))
print("fetched", fetched)
PY

t_case "every command the landing page shows, run as printed in a fresh venv, installs the wheel of its section"
bad=
if [ -s "$WORK/commands" ]; then
	while IFS= read -r cmd; do
		rm -rf "$WORK/cv"
		t_venv "$WORK/cv" "$exe"
		label=$(echo "$cmd" | sed -n 's|.*/\(cu[0-9]*\)/simple/.*|\1|p')
		# shellcheck disable=SC2086
		case $cmd in uv\ *) [ -n "${UV:-}" ] || { bad="$bad [uv not found: $cmd]"; continue; } ;; esac
		# shellcheck disable=SC2030 # (the subshell's own PATH)
		if (PATH=$WORK/cv/bin:$(dirname "${UV:-/nonexistent/uv}"):$PATH VIRTUAL_ENV=$WORK/cv UV_NO_CACHE=1 &&
			export PATH VIRTUAL_ENV UV_NO_CACHE && cd "$WORK" && eval "$cmd") >>"$WORK/cmds.log" 2>&1; then
			got=$(cd / && "$WORK/cv/bin/python" -c 'import importlib.metadata as m; print(m.version("wgcuda"))')
			[ "$got" = "0.1.0+$label" ] || bad="$bad [$cmd: installed $got]"
		else
			bad="$bad [$cmd: failed]"
		fi
	done <"$WORK/commands"
else
	bad="no commands were read from the page"
fi
if [ -z "$bad" ]; then t_pass; else t_fail "$bad" "$(tail -n 10 "$WORK/cmds.log")"; fi

# --- the finder (find.py, served beside wheels.json) and the page's selector ---------------------
# finder VENV CC DRIVER ARGS...: the index's finder as its one-liner runs it (curl INDEX/find.py |
# python3 -), in VENV's Python, with a stand-in nvidia-smi (one GPU CC, a driver of CUDA DRIVER)
finder() {
	fv=$1 fcc=$2 fdrv=$3
	shift 3
	t_fake_gpu "$WORK/gpu-$fcc-$fdrv" "$fcc" "$fdrv"
	# shellcheck disable=SC2031 # (this shell's PATH: the subshell above changed its own)
	curl -fsS "$url/find.py" | env PATH="$WORK/gpu-$fcc-$fdrv:$fv/bin:$PATH" python3 - --index "$url" "$@"
}
# pick DOM: what the selector shows in a --dump-dom: its pip command (or why no wheel fits), its uv command
pick() {
	"$exe" - "$1" <<'PY'
import html.parser, sys
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.cur = None; self.out = {}
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("pre", "p") and (a.get("id") or "").startswith("pick-"):
            self.cur = a["id"]; self.out[self.cur] = None if "hidden" in a else ""
    def handle_endtag(self, tag):
        if tag in ("pre", "p"): self.cur = None
    def handle_data(self, d):
        if self.cur and self.out[self.cur] is not None: self.out[self.cur] += d
p = P(); p.feed(open(sys.argv[1]).read())
print(p.out.get("pick-command") or p.out.get("pick-reason") or "(nothing)")
print(p.out.get("pick-uv") or "")
PY
}
# told JSON: the finder's command (or reason) and uv command in its --json answer JSON
told() {
	"$exe" -c 'import json, sys; j = json.load(open(sys.argv[1])); print(j.get("command") or j.get("reason")); print(j.get("uv_command") or "")' "$1"
}
chrome=$(command -v chromium || command -v chromium-browser || echo chromium)
dom() { timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --user-data-dir="$WORK/chrome" --dump-dom "$1" 2>>"$WORK/chrome.log"; }
t_venv "$WORK/fv" "$exe"

# shellcheck disable=SC2016
t_expect "the index serves find.py and wheels.json: each wheel with its package, version, tags, CUDA, index and GPU code" '
	curl -fsS "$url/find.py" | cmp - templates/find.py
	curl -fsS "$url/wheels.json" >"$WORK/wheels.json"
	"$exe" - "$WORK/wheels.json" <<PY
import json, sys
j = json.load(open(sys.argv[1]))
assert j["format"] == "wheelgen-wheels/1", j
got = sorted((w["package"], w["version"], w["python_tag"], w["platform_tag"], w["cuda"], w["index"], tuple(w["gpu_archs"]), w["torch"]) for w in j["wheels"])
cp = "cp" + "$py".replace(".", "")
# (the platform tag is what the repair gives: manylinux_2_X_x86_64, X what its symbols allow)
import re
assert all(re.match(r"manylinux_2_[0-9]+_x86_64$", g[3]) for g in got), got
want = [("wgcuda", "0.1.0+cu" + c.replace(".", ""), cp, got[0][3], c, "cu%s/simple/" % c.replace(".", ""), ("sm_90",), None) for c in ("13.0", "13.2")]
assert got == want, (got, want)
PY
'

# shellcheck disable=SC2016
t_expect "the finder on a machine that fits (stand-in nvidia-smi: GPU 9.0, a driver of CUDA 13.0): its command, run as printed, installs +cu130, which imports; with CUDA 13.2, --json names +cu132" '
	finder "$WORK/fv" 9.0 13.0 wgcuda >"$WORK/find.out"
	cat "$WORK/find.out"
	cmd=$(sed -n "s/^  \(python3 -m pip install .*\)/\1/p" "$WORK/find.out")
	[ "$cmd" = "python3 -m pip install --index-url $url/cu130/simple/ wgcuda==0.1.0+cu130" ]
	(PATH=$WORK/fv/bin:$PATH && export PATH && cd "$WORK" && eval "$cmd") >"$WORK/find-pip.log" 2>&1
	(cd / && "$WORK/fv/bin/python" -c "import importlib.metadata as m, wgcuda; assert m.version(\"wgcuda\") == \"0.1.0+cu130\"; assert wgcuda.runtime_version() // 1000 == 13")
	finder "$WORK/fv" 9.0 13.2 --json wgcuda >"$WORK/find.json"
	"$exe" -c "import json, sys; j = json.load(open(sys.argv[1])); assert j[\"status\"] == \"found\" and j[\"wheel\"][\"version\"] == \"0.1.0+cu132\" and j[\"machine\"][\"gpus\"][0][\"compute_capability\"] == \"9.0\", j" "$WORK/find.json"
'

# another Python of this host, for which the index has no wheel
py2=$(t_pythons 9 | grep -v -x "$py" | tail -n 1)
# shellcheck disable=SC2016
t_expect "each mismatch prints its own reason and exits 1: a GPU 7.5, a driver of CUDA 12.4, Python $py2 (its own interpreter); --json says the same" '
	t_venv "$WORK/fv2" "$(sed -n "s/^python $py2 //p" out/host.txt)"
	set +e
	finder "$WORK/fv" 7.5 13.2 wgcuda >"$WORK/m1"; r1=$?
	finder "$WORK/fv" 9.0 12.4 wgcuda >"$WORK/m2"; r2=$?
	finder "$WORK/fv2" 9.0 13.2 wgcuda >"$WORK/m3"; r3=$?
	finder "$WORK/fv" 9.0 12.4 --json wgcuda >"$WORK/m4"; r4=$?
	set -e
	cat "$WORK/m1" "$WORK/m2" "$WORK/m3"
	[ "$r1$r2$r3$r4" = 1111 ]
	grep -x "  GPU 7.5 (NVIDIA Stand-in GPU) is not among the wheels. architectures 9.0" "$WORK/m1"
	grep -x "  the driver runs CUDA 12.4 and the wheels need 13.0 or newer" "$WORK/m2"
	grep -x "  no wheel for Python $py2 (this index has $py)" "$WORK/m3"
	[ "$(told "$WORK/m4" | head -n 1)" = "the driver runs CUDA 12.4 and the wheels need 13.0 or newer" ]
	# and a wrong index or argument: 2
	set +e
	finder "$WORK/fv" 9.0 13.0 nosuchpackage 2>"$WORK/m5"; r5=$?
	curl -fsS "$url/find.py" | "$WORK/fv/bin/python" - --index "$url/cu130" wgcuda 2>>"$WORK/m5"; r6=$?
	set -e
	cat "$WORK/m5"
	[ "$r5$r6" = 22 ]
'

# a torch package whose wheels are made up (its manifests, the wheels bytes): torch 2.13 for CUDA
# 12.8 (from PyTorch's index) and 13.0, torch 2.14 for 13.0, manylinux_2_28; indexed from a
# directory, as file:// URLs
mkw() { # mkw CELL CUDA TORCH TORCH_VERSION TORCH_INDEX
	fd=$WORK/fk/wheels/$1
	tv=$(echo "$2" | tr -d .)
	f=wgfake-1.0+cu${tv}torch$3-cp311-cp311-manylinux_2_28_x86_64.whl
	mkdir -p "$fd"
	printf '%s' "$1" >"$fd/$f"
	fsha=$(printf '%s' "$1" | sha256sum | cut -d' ' -f1)
	printf 'cell=%s\npackage=wgfake\nversion=1.0\nfilename=%s\nsha256=%s\nsize=%s\ncuda=%s\ntorch=%s\npython=3.11\ngpu_archs=sm_80 sm_90 compute_90\ndependencies=torch\ntorch_version=%s\ntorch_cuda=%s\ntorch_index=%s\ntorch_cxx11_abi=1\n' \
		"$1" "$f" "$fsha" "${#1}" "$2" "$3" "$4" "$2" "$5" >"$fd/manifest"
	echo "$fsha" >"$fd/tested"
	echo "$fd/manifest" >>"$WORK/fk/list"
}
mkdir -p "$WORK/fk"
mkw a-cu128-2.13 12.8 2.13 2.13.0+cu128 https://download.pytorch.org/whl/cu128
mkw a-cu130-2.13 13.0 2.13 2.13.0 ""
mkw a-cu130-2.14 13.0 2.14 2.14.0 ""
out/wheelgen index --builddir "$WORK/fk" --manifests "$WORK/fk/list" >"$WORK/fk.log" 2>&1
# shellcheck disable=SC2034 # (read by the cases' scripts)
fk=file://$WORK/fk/index
fakefind() { # fakefind CC DRIVER ARGS...
	t_fake_gpu "$WORK/gpu-$1-$2" "$1" "$2"
	fcc=$1 fdrv=$2
	shift 2
	# shellcheck disable=SC2031
	env PATH="$WORK/gpu-$fcc-$fdrv:$WORK/fv/bin:$PATH" python3 "$WORK/fk/index/find.py" "$@"
}
# shellcheck disable=SC2016
t_expect "a torch package: without torch the finder takes the newest torch the driver runs and says which torch it brings; a torch, a glibc it has no wheel for: the reason, exit 1" '
	fakefind 9.0 13.0 --json wgfake >"$WORK/t1"
	fakefind 9.0 12.8 wgfake >"$WORK/t2"
	cat "$WORK/t2"
	set +e
	fakefind 9.0 13.0 --torch 2.12.1+cu130 wgfake >"$WORK/t3"; r3=$?
	fakefind 9.0 13.0 --torch 2.14.0+cu128 wgfake >"$WORK/t4"; r4=$?
	fakefind 9.0 13.0 --glibc 2.27 wgfake >"$WORK/t5"; r5=$?
	set -e
	cat "$WORK/t3" "$WORK/t4" "$WORK/t5"
	[ "$r3$r4$r5" = 111 ]
	[ "$(told "$WORK/t1" | head -n 1)" = "python3 -m pip install --index-url $fk/cu130-torch2.14/simple/ --extra-index-url https://pypi.org/simple wgfake==1.0+cu130torch2.14 torch==2.14.0" ]
	grep -x "  python3 -m pip install --index-url $fk/cu128-torch2.13/simple/ --extra-index-url https://download.pytorch.org/whl/cu128 --extra-index-url https://pypi.org/simple wgfake==1.0+cu128torch2.13 torch==2.13.0+cu128" "$WORK/t2"
	grep -x "  with the torch it was built against, torch 2.13.0+cu128 (CUDA 12.8), from https://download.pytorch.org/whl/cu128" "$WORK/t2"
	grep -x "  no wheel for torch 2.12 (this index has 2.13 and 2.14)" "$WORK/t3"
	grep -x "  no wheel for torch 2.14 with CUDA 12.8 (for torch 2.14 this index has CUDA 13.0)" "$WORK/t4"
	grep -x "  glibc 2.27 is older than the manylinux_2_28 floor of the wheels" "$WORK/t5"
'

# shellcheck disable=SC2016
t_expect "the selector in headless chromium shows, for each setup chosen (in the URL fragment), the command the finder prints when told that setup, or the same reason" '
	[ -s "$WORK/dom.html" ]
	fail=
	# the page as it opens (no fragment: the newest Python and CUDA), and CUDA 13.0; the finder told
	# of no driver and no GPU, as the page knows none (not the nvidia-smi of this host)
	pick "$WORK/dom.html" >"$WORK/s1"
	"$WORK/fv/bin/python" templates/find.py --index "$url" --platform x86_64 --python "$py" --cuda 13.2 --driver none --gpu none --json wgcuda >"$WORK/f1" || true
	dom "$url/#package=wgcuda&platform=x86_64&python=$py&cuda=13.0" >"$WORK/dom2.html"
	pick "$WORK/dom2.html" >"$WORK/s2"
	"$WORK/fv/bin/python" templates/find.py --index "$url" --platform x86_64 --python "$py" --cuda 13.0 --driver none --gpu none --json wgcuda >"$WORK/f2" || true
	# the made-up torch package, from file://: no torch (it brings one); a Python it has no wheel for
	dom "$fk/index.html#package=wgfake&platform=x86_64&python=3.11&torch=none&cuda=12.8" >"$WORK/dom3.html"
	pick "$WORK/dom3.html" >"$WORK/s3"
	"$WORK/fv/bin/python" templates/find.py --index "$fk" --platform x86_64 --python 3.11 --torch none --cuda 12.8 --driver none --gpu none --json wgfake >"$WORK/f3" || true
	dom "$fk/index.html#package=wgfake&platform=x86_64&python=3.15&torch=2.14&cuda=13.0" >"$WORK/dom4.html"
	pick "$WORK/dom4.html" >"$WORK/s4"
	"$WORK/fv/bin/python" templates/find.py --index "$fk" --platform x86_64 --python 3.15 --torch 2.14 --cuda 13.0 --driver none --gpu none --json wgfake >"$WORK/f4" || true
	for k in 1 2 3 4; do
		told "$WORK/f$k" >"$WORK/t$k"
		echo "setup $k: selector / finder"; cat "$WORK/s$k" "$WORK/t$k"
		cmp -s "$WORK/s$k" "$WORK/t$k" || fail="$fail $k"
	done
	grep -q "cu132/simple/ wgcuda==0.1.0+cu132" "$WORK/s1"
	grep -q "torch==2.13.0+cu128" "$WORK/s3"
	grep -q "^no wheel for Python 3.15 " "$WORK/s4"
	[ -z "$fail" ]
'

# --- index.variants: PEP 825 variant wheels for uv ---------------------------------------------
cp examples/cuda/variants.yml "$WORK/novariants.yml"
cp -r out/index "$WORK/index-before"
printf 'index: {variants: true}\n' >>examples/cuda/variants.yml
# shellcheck disable=SC2016
t_expect "index.variants: true: a VARIANT step per CUDA cell and the index, no build; the per-setup indexes pip uses are unchanged" '
	ninja >"$WORK/variants.log" 2>&1
	[ "$(grep -c "VARIANT wgcuda-0.1.0-" "$WORK/variants.log")" = 2 ]
	! grep -q "WHEEL \|TEST " "$WORK/variants.log" || exit 1
	diff -r "$WORK/index-before/cu130" out/index/cu130
	diff -r "$WORK/index-before/cu132" out/index/cu132
	diff -r "$WORK/index-before/simple" out/index/simple
	[ "$(grep -c "<a href" out/index/variants/simple/wgcuda/index.html)" = 3 ]
	grep -q "files/wgcuda-0.1.0-variants.json#sha256=" out/index/variants/simple/wgcuda/index.html
'

t_case "each variant wheel is its cell's tested wheel: the same members but the .dist-info, version without the setup's label, label in the name, variant.json as uv parses it (listed in RECORD); variants.json lists every label"
if "$exe" - out >"$WORK/vcheck.log" 2>&1 <<'PY'; then t_pass; else t_fail "$(tail -n 15 "$WORK/vcheck.log")"; fi
import base64, csv, glob, hashlib, io, json, os, sys, zipfile
out = sys.argv[1]
labels = set()
for m in glob.glob(out + "/variants/*/manifest"):
    kv = dict(l.split("=", 1) for l in open(m).read().splitlines())
    cell = os.path.basename(os.path.dirname(m))
    src = dict(l.split("=", 1) for l in open(out + "/wheels/%s/manifest" % cell).read().splitlines())
    label = "cu" + src["cuda"].replace(".", "")
    assert kv["variant_label"] == label and kv["variant_of"] == src["filename"], kv
    assert kv["filename"] == src["filename"].replace("+" + label, "")[:-4] + "-" + label + ".whl", kv["filename"]
    a = zipfile.ZipFile(out + "/wheels/%s/%s" % (cell, src["filename"]))
    b = zipfile.ZipFile(os.path.dirname(m) + "/" + kv["filename"])
    assert hashlib.sha256(open(b.filename, "rb").read()).hexdigest() == kv["sha256"] == kv["tested"]
    outside = lambda z: {n: z.read(n) for n in z.namelist() if ".dist-info/" not in n}
    assert outside(a) == outside(b), "members outside the .dist-info differ"
    doc = json.loads(b.read("wgcuda-0.1.0.dist-info/variant.json"))
    # uv 0.13.9 refuses unknown keys and needs providers with exactly requires and plugin-api
    assert set(doc) == {"$schema", "default-priorities", "providers", "variants"}, doc
    assert doc["$schema"] == "https://variants-schema.wheelnext.dev/peps/825/v0.1.1.json"
    assert doc["default-priorities"] == {"namespace": ["nvidia"]}, doc
    assert set(doc["providers"]["nvidia"]) == {"requires", "plugin-api"}, doc
    assert doc["variants"] == {label: {"nvidia": {"cuda_version_lower_bound": [src["cuda"]]}}}, doc
    rec = {r[0]: r for r in csv.reader(io.StringIO(b.read("wgcuda-0.1.0.dist-info/RECORD").decode()))}
    for n in b.namelist():
        # (auditwheel's repair writes directory entries too, which RECORD does not list)
        if not n.endswith("RECORD") and not n.endswith("/"):
            h = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b.read(n)).digest()).rstrip(b"=").decode()
            assert rec[n][1] == h, (n, rec[n])
    assert b"Version: 0.1.0\n" in b.read("wgcuda-0.1.0.dist-info/METADATA")
    labels.add(label)
vj = json.load(open(out + "/index/files/wgcuda-0.1.0-variants.json"))
assert set(vj["variants"]) == labels == {"cu130", "cu132"}, (vj, labels)
print("ok", sorted(labels))
PY

# uv's NVIDIA provider asks nvidia-smi for the driver's CUDA; NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION
# (uv's built-in provider) stands in for a driver here
uvvariant() { # uvvariant DRIVER-CUDA|none: install wgcuda from the variants index; print its variant label
	rm -rf "$WORK/uvv"
	"$UV" venv -q -p "$exe" "$WORK/uvv" >/dev/null 2>&1
	if [ "$1" = none ]; then
		env -u NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION "$UV" pip install -p "$WORK/uvv" --preview-features wheel-variants \
			--index-url "$url/variants/simple/" wgcuda >"$WORK/uvv.log" 2>&1 || return 0
	else
		NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION=$1 "$UV" pip install -p "$WORK/uvv" --preview-features wheel-variants \
			--index-url "$url/variants/simple/" wgcuda >"$WORK/uvv.log" 2>&1 || return 0
	fi
	"$WORK/uvv/bin/python" -c 'import importlib.metadata as m, json; d = m.distribution("wgcuda"); print(d.version, *json.loads(d.read_text("variant.json"))["variants"])'
}
# shellcheck disable=SC2016
t_expect "uv --preview-features wheel-variants from one index: a CUDA 13.0 driver gets the cu130 wheel, 13.2 and 13.9 the cu132 one" '
	[ -n "${UV:-}" ]
	[ "$(uvvariant 13.0)" = "0.1.0 cu130" ]
	[ "$(uvvariant 13.2)" = "0.1.0 cu132" ]
	[ "$(uvvariant 13.9)" = "0.1.0 cu132" ]
'
# shellcheck disable=SC2016
# (uv 0.13.9 says "has only unsupported wheel variants" when one Python's wheels are there; with
# several Pythons' wheels its resolver reports "no wheels with a matching Python ABI tag" instead)
t_expect "no GPU (no nvidia-smi) or a 12.8 driver: uv refuses, installing nothing (this package has no CPU build to fall back to)" '
	got=$(uvvariant none)
	cat "$WORK/uvv.log"
	[ -z "$got" ]
	grep -q -E "has only unsupported wheel variants|no wheels with a matching Python ABI tag" "$WORK/uvv.log"
	[ ! -e "$WORK/uvv/lib/python"*/site-packages/wgcuda ]
	got=$(uvvariant 12.8)
	cat "$WORK/uvv.log"
	[ -z "$got" ]
	grep -q -E "has only unsupported wheel variants|no wheels with a matching Python ABI tag" "$WORK/uvv.log"
	[ ! -e "$WORK/uvv/lib/python"*/site-packages/wgcuda ]
'
# shellcheck disable=SC2016
t_expect "the landing page shows the uv variants command; run as printed (a 13.2 driver), it installs the cu132 wheel" '
	cmd=$(sed -n "s|^<pre><code>\(uv pip install --preview-features wheel-variants .*\)|\1|p" out/index/index.html |
		sed -e "s|<span class=\"index\">INDEX</span>|$url|")
	[ "$cmd" = "uv pip install --preview-features wheel-variants --index $url/variants/simple/ --default-index https://pypi.org/simple wgcuda" ]
	rm -rf "$WORK/uvv"
	"$UV" venv -q -p "$exe" "$WORK/uvv" >/dev/null 2>&1
	(VIRTUAL_ENV=$WORK/uvv PATH=$(dirname "$UV"):$PATH NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION=13.2 && export VIRTUAL_ENV PATH NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION && eval "$cmd")
	"$WORK/uvv/bin/python" -c "import importlib.metadata as m; assert \"cu132\" in m.distribution(\"wgcuda\").read_text(\"variant.json\")"
'
cp "$WORK/novariants.yml" examples/cuda/variants.yml
# shellcheck disable=SC2016
t_expect "index.variants off again: the variants tree and variants.json are removed, the rest stays" '
	ninja >"$WORK/novariants.log" 2>&1
	[ ! -e out/index/variants ]
	[ ! -e out/index/files/wgcuda-0.1.0-variants.json ]
	diff -r "$WORK/index-before/cu130" out/index/cu130
'

# --- publishing: HTTP PUT into nginx's WebDAV, the index with a base_url ---------------------
d2=$WORK/nginx2
dport=$(t_freeport)
pport=$(t_freeport)
mkdir -p "$WORK/dav"
sed -e "s|listen 127.0.0.1:8080;|listen 127.0.0.1:$pport;|" -e "s|root /srv/wheelgen/out/index;|root $WORK/dav/index;|" \
	templates/nginx-index.conf >"$WORK/published.conf"
{
	t_nginx_head "$d2"
	cat <<NGINX
  include /etc/nginx/mime.types;
  access_log $d2/logs/access.log;
  server {
    listen 127.0.0.1:$dport;
    root $WORK/dav;
    client_max_body_size 0;
    location / {
      dav_methods PUT DELETE MKCOL MOVE;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }
  }
  include $WORK/published.conf;
}
NGINX
} >"$WORK/nginx2.conf"
t_case "a second nginx: WebDAV PUT for publishing, and the published index served with the shipped configuration"
if nginx -c "$WORK/nginx2.conf" >"$WORK/nginx2-start.log" 2>&1; then t_pass; else t_fail "$(cat "$WORK/nginx2-start.log" "$d2/logs/error.log" 2>/dev/null)"; exit 0; fi
dav=http://127.0.0.1:$dport
purl=http://127.0.0.1:$pport
cat >>examples/cuda/variants.yml <<YML
publish: {http: "$dav/wheels/", index_http: "$dav/index/", retries: 2}
index: {base_url: "$dav/wheels/", title: "wheelgen test wheels"}
YML
WG_RETRY_SLEEP=0
export WG_RETRY_SLEEP

t_case "WG_PUBLISH_DRY_RUN=1 ninja publish prints the PUTs, sends nothing and marks nothing published"
if WG_PUBLISH_DRY_RUN=1 ninja publish >"$WORK/dry.log" 2>&1 && [ "$(grep -c "dry-run: PUT $dav/wheels/" "$WORK/dry.log")" = 6 ] &&
	[ ! -d "$WORK/dav/wheels" ] && [ -z "$(find out/publish -name '*.done' 2>/dev/null)" ]; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/dry.log")"
fi

t_case "ninja publish PUTs each tested wheel and its .metadata under blobs/<sha256>/, then its manifest, and marks the cells published"
if ninja publish >"$WORK/publish.log" 2>&1; then
	bad=
	for m in out/wheels/*/manifest; do
		cell=$(basename "$(dirname "$m")")
		f=$(sed -n 's/^filename=//p' "$m")
		sha=$(sed -n 's/^sha256=//p' "$m")
		cmp -s "out/wheels/$cell/$f" "$WORK/dav/wheels/blobs/$sha/$f" || bad="$bad $f"
		cmp -s "out/wheels/$cell/$f.metadata" "$WORK/dav/wheels/blobs/$sha/$f.metadata" || bad="$bad $f.metadata"
		# the published manifest: the wheel's, with the test's record and where the wheel is (the store's entry)
		{ grep -v '^origin=' "$m"; printf 'origin=build\ntested=%s\n' "$sha"; sed -n 's/^gpu=/gpu=/p' "out/tests/$cell.ok"; printf 'stored=blobs/%s/%s\n' "$sha" "$f"; } >"$WORK/want.manifest"
		cmp -s "$WORK/want.manifest" "$WORK/dav/wheels/$cell.manifest" || bad="$bad $cell.manifest"
		[ "$(cat "out/publish/$cell.done")" = "$(sed -n 's/^sha256=//p' "$m")" ] || bad="$bad $cell.done"
	done
	if [ -z "$bad" ] && grep -q '"MOVE /wheels/tmp/wgcuda-0.1.0%2Bcu130-[^ ]*\.tmp\.' "$d2/logs/access.log"; then t_pass; else t_fail "missing or different:$bad" "$(tail -n 10 "$WORK/publish.log")"; fi
else
	t_fail "$(tail -n 20 "$WORK/publish.log")"
fi

t_case "with index.base_url the pages link the published wheels (the store's blobs), and files/ is gone"
if ninja index >"$WORK/index3.log" 2>&1 && grep -q "href=\"$dav/wheels/blobs/[0-9a-f]\{64\}/wgcuda-0.1.0%2Bcu130-" out/index/cu130/simple/wgcuda/index.html &&
	grep -q "\"url\": \"$dav/wheels/blobs/[0-9a-f]\{64\}/wgcuda-0.1.0%2Bcu132-" out/index/simple/wgcuda/index.json && [ ! -e out/index/files ] &&
	grep -q '<title>wheelgen test wheels</title>' out/index/index.html; then
	t_pass
else
	t_fail "$(cat "$WORK/index3.log")" "$(head -n 12 out/index/cu130/simple/wgcuda/index.html)"
fi

t_case "ninja publish-index PUTs the tree; pip installs +cu130 from the published cu130 index, the wheel from the publish URL"
if ninja publish-index >"$WORK/pi.log" 2>&1; then
	a=$(pipv "$purl/cu130/simple/" wgcuda)
	if [ "$a" = 0.1.0+cu130 ] && grep -q '"GET /wheels/blobs/[0-9a-f]\{64\}/wgcuda-0.1.0%2Bcu130-' "$d2/logs/access.log" &&
		[ "$(curl -s -o /dev/null -w '%{content_type}' -H 'Accept: application/vnd.pypi.simple.v1+json' "$purl/cu130/simple/wgcuda/")" = application/vnd.pypi.simple.v1+json ]; then
		t_pass
	else
		t_fail "got '$a'" "$(tail -n 10 "$WORK/pip.log")"
	fi
else
	t_fail "$(tail -n 20 "$WORK/pi.log")"
fi

t_case "publish-index with nothing changed sends nothing"
ninja publish-index >"$WORK/pi2.log" 2>&1 || true
if ! grep -q "wheelgen: http: $dav" "$WORK/pi2.log" && grep -q PUBLISH-INDEX "$WORK/pi2.log"; then t_pass; else t_fail "$(cat "$WORK/pi2.log")"; fi

t_case "a yanked version: data-yanked and the JSON reason on every page of it; publish-index sends only those pages"
sed -i 's/^    versions: \["0.1.0"\]/    versions: ["0.1.0"]\n    yanked: {"0.1.0": "a test yank"}/' examples/cuda/variants.yml
if ninja index publish-index >"$WORK/pi3.log" 2>&1; then
	sent=$(sed -n "s|^wheelgen: http: $dav/index/||p" "$WORK/pi3.log" | sort | tr '\n' ' ')
	want='cu130/simple/wgcuda/index.html cu130/simple/wgcuda/index.json cu132/simple/wgcuda/index.html cu132/simple/wgcuda/index.json index.html simple/wgcuda/index.html simple/wgcuda/index.json wheels.json '
	if [ "$sent" = "$want" ] && grep -q 'data-yanked="a test yank"' "$WORK/dav/index/cu130/simple/wgcuda/index.html" &&
		grep -q '"yanked": "a test yank"' "$WORK/dav/index/simple/wgcuda/index.json"; then
		t_pass
	else
		t_fail "sent: $sent" "want: $want"
	fi
else
	t_fail "$(tail -n 20 "$WORK/pi3.log")"
fi

t_case "pip skips the yanked version unless it is pinned with =="
a=$(pipv "$purl/cu130/simple/" wgcuda || true)
b=$(pipv "$purl/cu130/simple/" "wgcuda==0.1.0" || true)
if [ -z "$a" ] && [ "$b" = 0.1.0+cu130 ] && grep -q 'yanked' "$WORK/pip.log"; then t_pass; else t_fail "unpinned: '$a'; pinned: '$b'" "$(tail -n 8 "$WORK/pip.log")"; fi

t_case "a failed upload is retried, fails with the reason, and leaves no cell marked published"
sed -i "s|^publish: {http: \"$dav/wheels/\"|publish: {http: \"$purl/readonly/\"|" examples/cuda/variants.yml
if ninja -k 0 publish >"$WORK/fail.log" 2>&1; then
	t_fail "publish succeeded"
elif grep -q "PUT failed: .*405" "$WORK/fail.log" && grep -q 'tried 2 times' "$WORK/fail.log" &&
	[ -z "$(find out/publish -name '*.done')" ]; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/fail.log")" "$(ls out/publish)"
fi

t_case "a variant no longer built: its pages are removed, the others stay"
sed -i 's/^  cuda: .*/  cuda: ["13.0"]/' examples/cuda/variants.yml
if ninja index >"$WORK/index4.log" 2>&1 && [ ! -e out/index/cu132 ] && [ -f out/index/cu130/simple/wgcuda/index.html ] &&
	[ "$(grep -c '<a href' out/index/simple/wgcuda/index.html)" = 1 ]; then
	t_pass
else
	t_fail "$(cat "$WORK/index4.log")" "$(find out/index | head -n 20)"
fi
