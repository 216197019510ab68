#!/bin/sh
# bench/store-bench.sh [CELLS]: a farm's store over HTTP: CELLS cells (default 3,000: a pure
# package's 300 versions x 10 Pythons) as store entries (tests/fakecells.py: each a wheel, its
# .metadata and a manifest with the cell's key; nothing built), served by nginx on 127.0.0.1
# with WebDAV and its autoindex. Then, each timed, with the requests nginx logged:
#   plan cold          wheelgen matrix --missing, no catalog (out/store-catalog) yet
#   plan warm          the same again: the listings, and nothing else
#   plan, 30 changed   30 entries published again (new bytes): the listings and those 30
#   merge-index cold   ninja merge-index into an empty out/store (every wheel downloaded)
#   merge-index warm   again
#   base_url cold/warm ninja merge-index with index.base_url at the store (manifests, and the
#                      wheels checked by range reads: whole here, they are small)
# and, the baseline of the ratios, the same store served without a listing (no autoindex: every
# manifest read every time, as before the catalog). Then the same cells in a GitHub store (the
# stand-in tests/fakegithub.py, its releases made at once): plan and merge-index with base_url,
# cold and warm, and the requests wheelgen made. Prints the seconds, the requests and the
# ratios "baseline / this"; the last line is
#   store: N cells: plan cold S s, warm S s; merge-index cold S s, warm S s (HTTP on 127.0.0.1)
# Needs nginx (tests/run.sh --install-deps installs it) and a built wheelgen (./configure && ninja out/wheelgen).
# shellcheck disable=SC2154 # (the t_NAME and r_NAME figures run sets by eval)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
ncells=${1:-3000}
case $ncells in '' | *[!0-9]*) echo "usage: bench/store-bench.sh [CELLS]" >&2; exit 2 ;; esac
command -v nginx >/dev/null 2>&1 || { echo "bench: nginx is needed (tests/run.sh --install-deps)" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
work=$(mktemp -d "$(bench_base)/wgstorebench.XXXXXX")
fakepid=
stop() {
	[ ! -f "$work/nginx/nginx.pid" ] || kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
	[ -z "$fakepid" ] || kill "$fakepid" 2>/dev/null || true
	rm -rf "$work"
}
trap stop EXIT
now() { date +%s.%N; }
secs() { printf '%.2f' "$(echo "$2 - $1" | bc -l)"; }

# the project: a copy of the tree with a package of CELLS cells
src=$work/src
mkdir -p "$src"
(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$src"
mkdir -p "$src/fixture/tiny/tiny"
printf 'from setuptools import setup\nsetup(name="tiny", version="1.0", packages=["tiny"])\n' >"$src/fixture/tiny/setup.py"
echo "x = 1" >"$src/fixture/tiny/tiny/__init__.py"
nver=$(((ncells + 9) / 10))
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url=http://127.0.0.1:$port/s/
plain=http://127.0.0.1:$port/plain/s/
# writeconfig [INDEX-LINE [PUBLISH]]: the config, publishing to PUBLISH (default: {http: "URL"}, the
# store at url)
writeconfig() {
	python3 - "$nver" "$url" "${1:-}" "${2:-}" >"$src/fixture/packages.yml" <<'PY'
import sys
n, url, extra, publish = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
print('defaults:\n  python: ["3.6", "3.7", "3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14", "3.15"]')
print("packages:\n  tiny:\n    source: {path: tiny}\n    test_import: tiny")
print("    versions: [%s]" % ", ".join('"1.%d"' % i for i in range(n)))
print("publish: %s" % (publish or '{http: "%s"}' % url))
if extra:
    print(extra)
PY
}
writeconfig
(cd "$src" && ./configure --config fixture/packages.yml && ninja build.ninja) >"$work/configure.log" 2>&1 ||
	{ tail -n 20 "$work/configure.log" >&2; exit 1; }
cd "$src"
out/wheelgen matrix --tsv | head -n "$((ncells + 1))" >"$work/cells.tsv"
ncells=$(($(wc -l <"$work/cells.tsv") - 1))
mkdir -p "$work/nginx/root/s" "$work/nginx/logs" "$work/nginx/tmp"
start=$(now)
python3 "$top/tests/fakecells.py" "$work/cells.tsv" 3.12 dir "$work/nginx/root/s"
echo "# made $ncells store entries in $(secs "$start" "$(now)") s ($(du -sh "$work/nginx/root/s" | cut -f1))"
cat >"$work/nginx/nginx.conf" <<NGINX
daemon on;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
user root root;
events { worker_connections 256; }
http {
  client_body_temp_path $work/nginx/tmp;
  access_log $work/nginx/logs/access.log;
  server {
    listen 127.0.0.1:$port;
    root $work/nginx/root;
    location /s/ { dav_methods PUT DELETE MOVE; create_full_put_path on; autoindex on; autoindex_format json; }
    location /plain/s/ { alias $work/nginx/root/s/; }
  }
}
NGINX
nginx -c "$work/nginx/nginx.conf" || { cat "$work/nginx/logs/error.log" >&2; exit 1; }

log=$work/nginx/logs/access.log
# run NAME CMD...: time CMD (its output to NAME.log), count the requests it made
run() {
	name=$1
	shift
	n0=$(wc -l <"$log")
	a=$(now)
	"$@" >"$work/$name.log" 2>&1 || { tail -n 20 "$work/$name.log" >&2; echo "bench: $name failed" >&2; exit 1; }
	b=$(now)
	t=$(secs "$a" "$b")
	r=$(($(wc -l <"$log") - n0))
	eval "t_$name=\$t r_$name=\$r"
	printf '%-24s %8s s %7s requests\n' "$name" "$t" "$r"
}
plan() { WHEELGEN_STORE=$1 out/wheelgen matrix --missing --builddir out; }
# the baseline: the store without a listing: every manifest read, every time
rm -f out/store-catalog
run plan_nolisting plan "$plain"
run plan_nolisting_again plan "$plain"
rm -f out/store-catalog
run plan_cold plan "$url"
run plan_warm plan "$url"
[ -z "$(plan "$url" 2>/dev/null)" ] || { echo "bench: the plan is not empty" >&2; exit 1; }
# 30 entries published again with new bytes (their wheels rebuilt elsewhere): the same keys
sed -n '1,31p' "$work/cells.tsv" >"$work/changed.tsv"
mkdir -p "$work/changed"
FAKECELLS_SALT=again python3 "$top/tests/fakecells.py" "$work/changed.tsv" 3.12 dir "$work/changed"
sleep 1.1
for m in "$work/changed"/*.manifest; do
	c=$(basename "$m")
	b=$(sed -n 's/^stored=//p' "$m")
	mkdir -p "$work/nginx/root/s/${b%/*}"
	cp "$work/changed/$b" "$work/changed/$b.metadata" "$work/nginx/root/s/${b%/*}/"
	cp "$m" "$work/nginx/root/s/$c.tmp" && mv "$work/nginx/root/s/$c.tmp" "$work/nginx/root/s/$c"
done
sleep 1.1
run plan_30_changed plan "$url"
run plan_warm_again plan "$url"

rm -rf out/store out/index out/store-catalog
run merge_cold ninja merge-index
run merge_warm ninja merge-index
grep -q "$ncells cells of the config restored" "$work/merge_warm.log" || { tail -n 5 "$work/merge_warm.log" >&2; exit 1; }
writeconfig "index: {base_url: \"$url\"}"
rm -rf out/store out/index out/store-catalog
run baseurl_cold ninja merge-index
run baseurl_warm ninja merge-index
# (a version's cells share one py3-none-any wheel: a link a version)
nlinks=$(grep -o 'href="http' out/index/simple/tiny/index.html | wc -l)
[ "$nlinks" -ge "$nver" ] || { echo "bench: the index links $nlinks wheels, not $nver" >&2; exit 1; }
writeconfig "index: {base_url: \"$plain\"}"
rm -rf out/store out/index out/store-catalog
run baseurl_nolisting ninja merge-index

# the same cells in a GitHub store: the stand-in (tests/fakegithub.py, GitHub's limits and its
# downloads' redirects), its releases made at once from the entries (POST /preload)
fake=$work/fake
mkdir -p "$fake"
FAKE_TOKEN=benchtoken python3 "$top/tests/fakegithub.py" "$fake" >"$fake/server.log" 2>&1 &
fakepid=$!
i=0
while [ ! -f "$fake/port" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
fakeapi=http://127.0.0.1:$(cat "$fake/port")
awk -F'\t' 'NR > 1 { print $1, "wheels-" $1 }' "$work/cells.tsv" >"$work/releases"
python3 "$top/tests/fakecells.py" "$work/cells.tsv" 3.12 github "$work/releases" "$work/gh"
python3 - "$work/gh" "$work/releases" >"$work/preload.json" <<'PY'
import json, os, sys
d, rel = sys.argv[1], dict(l.split() for l in open(sys.argv[2]).read().splitlines())
print(json.dumps([{"tag": rel[c], "assets": [{"name": f, "path": os.path.join(d, c, f)} for f in sorted(os.listdir(os.path.join(d, c)))]} for c in sorted(os.listdir(d))]))
PY
curl -sS -X POST --data-binary @"$work/preload.json" -o /dev/null "$fakeapi/preload"
writeconfig "index: {base_url: \"$fakeapi/o/r/releases/download/\"}" "{github: {repo: o/r, tag: wheels}}"
GITHUB_API_URL=$fakeapi GITHUB_SERVER_URL=$fakeapi GH_TOKEN=benchtoken
export GITHUB_API_URL GITHUB_SERVER_URL GH_TOKEN
ghplan() { out/wheelgen matrix --missing --builddir out; }
rm -rf out/store out/index out/store-catalog
run gh_plan_cold ghplan
run gh_plan_warm ghplan
[ -z "$(ghplan 2>/dev/null)" ] || { echo "bench: the GitHub plan is not empty" >&2; exit 1; }
rm -rf out/store out/index out/store-catalog
run gh_merge_cold ninja merge-index
run gh_merge_warm ninja merge-index
kill "$fakepid" 2>/dev/null || true
reqs() { sed -n 's/.*asked for, [0-9]* as the catalog had them, \([0-9]*\) request.*/\1/p' "$work/$1.log" | tail -n 1; }
echo "github: plan cold $t_gh_plan_cold s ($(reqs gh_plan_cold) requests), warm $t_gh_plan_warm s ($(reqs gh_plan_warm) requests); merge-index with base_url cold $t_gh_merge_cold s, warm $t_gh_merge_warm s"

ratio() { printf '%.1f' "$(echo "$1 / $2" | bc -l)"; }
echo "plan: no listing $t_plan_nolisting_again s ($r_plan_nolisting_again requests) / warm $t_plan_warm s ($r_plan_warm requests) = $(ratio "$t_plan_nolisting_again" "$t_plan_warm")x"
echo "plan: 30 changed entries read $r_plan_30_changed requests (listings 2, manifests and their blob directories: 60)"
echo "merge-index with base_url: no listing $t_baseurl_nolisting s / warm $t_baseurl_warm s = $(ratio "$t_baseurl_nolisting" "$t_baseurl_warm")x"
echo "store: $ncells cells: plan cold $t_plan_cold s, warm $t_plan_warm s; merge-index cold $t_merge_cold s, warm $t_merge_warm s; with base_url cold $t_baseurl_cold s, warm $t_baseurl_warm s (HTTP on 127.0.0.1)"
