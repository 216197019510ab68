#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086,SC2119,SC2120 # cases are single-quoted scripts (t_expect, calling writeconfig with arguments); WG_CONFARGS splits
# a store read by its listing and a catalog of what was read (gen/storeview.c, catalog.c): a plan
# and merge-index read only the manifests that changed, the requests counted in nginx's log; a
# catalog that is damaged, stale or of a store without a listing costs reads, never a wrong
# answer; damage the plan sees without a download (a forged tested=, a missing .metadata); a wheel
# changed in place at its size under index.base_url is not indexed; kill -9 of merge-index at
# random moments never leaves the index listing a file it lacks; store --unused lists the
# temporaries of killed publishes; store verify --repair puts back an entry taken out wrongly.
# The store's entries are made here (tests/fakecells.py: a pure wheel, its .metadata and a
# manifest with the cell's key; nothing built).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

WHEELGEN_STORE=
export WHEELGEN_STORE
src=$WORK/src
t_copytree "$src"
cd "$src"
mkdir -p fixture/tiny/tiny
printf 'from setuptools import setup\nsetup(name="tiny", version="1.0", packages=["tiny"])\n' >fixture/tiny/setup.py
echo "x = 1" >fixture/tiny/tiny/__init__.py
ngd=$WORK/nginx
port=$(t_freeport)
url=http://127.0.0.1:$port/s/
plain=http://127.0.0.1:$port/plain/
mkdir -p "$ngd/root/s"
{
	t_nginx_head "$ngd"
	cat <<NGINX
  access_log $ngd/logs/access.log;
  server {
    listen 127.0.0.1:$port;
    root $ngd/root;
    client_max_body_size 0;
    location /s/ { dav_methods PUT DELETE MOVE; create_full_put_path on; autoindex on; autoindex_format json; }
    location /plain/ { alias $ngd/root/s/; }
  }
}
NGINX
} >"$ngd/nginx.conf"
nginx -c "$ngd/nginx.conf" >"$WORK/nginx.err" 2>&1 || { t_case "nginx"; t_fail "$(cat "$WORK/nginx.err" "$ngd/logs/error.log" 2>/dev/null)"; exit 0; }
stop_nginx() {
	st=$?
	kill "$(cat "$ngd/nginx.pid" 2>/dev/null)" 2>/dev/null || true
	(exit "$st")
	t_cleanup
}
trap stop_nginx EXIT

# writeconfig [EXTRA]: 8 versions of tiny for one Python, published to the store at url
writeconfig() {
	cat >fixture/packages.yml <<YML
defaults:
  python: ["3.12"]
packages:
  tiny:
    source: {path: tiny}
    versions: ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7"]
    test_import: tiny
publish: {http: "$url", timeout: "20", stall_timeout: "10"}
${1:-}
YML
}
writeconfig
if ./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/configure.log" 2>&1; then
	ninja build.ninja >>"$WORK/configure.log" 2>&1 || true
fi
out/wheelgen matrix --tsv >"$WORK/cells.tsv" 2>>"$WORK/configure.log" || true
python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" 3.12 dir "$ngd/root/s"
s=$ngd/root/s
c0=tiny-1.0-py312 c1=tiny-1.1-py312 c2=tiny-1.2-py312
log=$ngd/logs/access.log
# plan [STORE]: the cells matrix --missing lists (WHEELGEN_STORE=STORE), one line; its requests in $WORK/req
plan() {
	n0=$(wc -l <"$log")
	WHEELGEN_STORE=${1:-} out/wheelgen matrix --missing 2>"$WORK/plan.err" | sort | tr '\n' ' '
	sed -n "$((n0 + 1)),\$p" "$log" | sed 's/.*"\([A-Z]* [^ ]*\) HTTP[^"]*" \([0-9]*\) .*/\1 \2/' >"$WORK/req"
}
# since: wait past the second in which the store's files last changed (nginx lists seconds)
since() { sleep 1.1; }

t_expect "a cold plan lists the store and reads every manifest at once; the next reads the listings alone (2 requests)" '
	rm -f out/store-catalog
	since
	[ -z "$(plan)" ]
	grep -q "^GET /s/ 200$" "$WORK/req"
	[ "$(grep -c "^GET /s/tiny-1\.[0-9]-py312\.manifest 200$" "$WORK/req")" = 8 ]
	! grep -q "^HEAD " "$WORK/req" || exit 1
	since
	[ -z "$(plan)" ]
	[ "$(sort "$WORK/req" | tr "\n" " ")" = "GET /s/ 200 GET /s/blobs/ 200 " ]
	grep -q "8 manifests asked for, 8 as the catalog had them, 2 requests" "$WORK/plan.err"
'

t_expect "two entries published again (new bytes, the same keys): the next plan reads those two manifests and their wheels. directories, nothing else" '
	mkdir -p "$WORK/again"
	sed -n "1p;2,3p" "$WORK/cells.tsv" >"$WORK/again.tsv"
	FAKECELLS_SALT=again python3 "$top/tests/fakecells.py" "$WORK/again.tsv" 3.12 dir "$WORK/again"
	cp -R "$WORK/again/blobs/." "$s/blobs/"
	for c in $c0 $c1; do cp "$WORK/again/$c.manifest" "$s/.x" && mv "$s/.x" "$s/$c.manifest"; done
	since
	[ -z "$(plan)" ]
	[ "$(grep -c "manifest 200$" "$WORK/req")" = 2 ]
	grep -q "^GET /s/$c0.manifest 200$" "$WORK/req"
	grep -q "^GET /s/$c1.manifest 200$" "$WORK/req"
	[ "$(grep -c "^GET /s/blobs/[0-9a-f]*/ 200$" "$WORK/req")" = 2 ]
	[ "$(wc -l <"$WORK/req")" = 6 ]
'

t_expect "a catalog that is damaged (a byte changed) is said and read as empty: every manifest is read again, the plan the same" '
	python3 -c "import sys; p = sys.argv[1]; b = bytearray(open(p, \"rb\").read()); b[len(b) // 3] ^= 4; open(p, \"wb\").write(b)" out/store-catalog
	[ -z "$(plan)" ]
	grep -q "the store.s catalog out/store-catalog is damaged (its last line is not the sha256 of the rest): every manifest is read again" "$WORK/plan.err"
	[ "$(grep -c "manifest 200$" "$WORK/req")" = 8 ]
'

t_expect "a manifest changed in the second the catalog read it, at its size (its validator the same): not trusted, read again" '
	since
	[ -z "$(plan)" ]
	sed -i "s/^upload_time=1764000000$/upload_time=1764000001/" "$s/$c2.manifest"
	[ -z "$(plan)" ]
	sed -i "s/^upload_time=1764000001$/upload_time=1764000000/" "$s/$c2.manifest"
	[ -z "$(plan)" ]
	grep -q "^GET /s/$c2.manifest 200$" "$WORK/req"
'

t_expect "a store without a listing: said, every manifest read every time, the same plan" '
	[ -z "$(plan "$plain")" ]
	grep -q "serves no listing with the sizes and times of its files" "$WORK/plan.err"
	[ -z "$(plan "$plain")" ]
	[ "$(grep -c "manifest 200$" "$WORK/req")" = 8 ]
	grep -q "^HEAD /plain/blobs/" "$WORK/req"
'

t_expect "a manifest whose tested= is not its wheel.s sha256: planned (no download), and merge-index leaves it out and takes it out" '
	since
	sed -i "s/^tested=\(.\)/tested=0\1/; s/^tested=\(.\{64\}\).*/tested=\1/" "$s/$c2.manifest"
	[ "$(plan)" = "$c2 " ]
	grep -q "planned $c2: store entry .*: its tested= (.*) is not its wheel.s sha256" "$WORK/plan.err"
	ninja merge-index >"$WORK/merge.log" 2>&1
	grep -q "merge-index: left out $c2: .*tested=" "$WORK/merge.log"
	[ ! -e "$s/$c2.manifest" ]
	[ "$(grep -c "tiny-1\.[0-9]-py3-none-any\.whl#" out/index/simple/tiny/index.html)" = 7 ]
'

t_expect "a missing .metadata: planned at once" '
	since
	m=$(sed -n "s/^stored=//p" "$s/tiny-1.3-py312.manifest")
	mv "$s/$m.metadata" "$WORK/meta.away"
	[ "$(plan)" = "$c2 tiny-1.3-py312 " ]
	grep -q "planned tiny-1.3-py312: .*\.whl\.metadata is missing" "$WORK/plan.err"
	mv "$WORK/meta.away" "$s/$m.metadata"
'

t_expect "under index.base_url, a wheel changed in place at its size is not indexed (read whole and hashed), and is taken out" '
	python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" 3.12 dir "$s"
	writeconfig "index: {base_url: \"$url\"}"
	ninja build.ninja >/dev/null 2>&1
	w=$s/$(sed -n "s/^stored=//p" "$s/tiny-1.4-py312.manifest")
	python3 -c "import sys; p = sys.argv[1]; b = bytearray(open(p, \"rb\").read()); b[len(b) // 2] ^= 1; open(p, \"wb\").write(b)" "$w"
	rm -rf out/store out/index out/store-catalog
	ninja merge-index >"$WORK/bmerge.log" 2>&1
	grep -q "merge-index: left out tiny-1.4-py312: its wheel .* has sha256 .*, its manifest says" "$WORK/bmerge.log"
	! grep -q "tiny-1\.4-py3-none-any" out/index/simple/tiny/index.html || exit 1
	grep -q "href=\"${url}blobs/[0-9a-f]*/tiny-1\.5-py3-none-any\.whl#sha256=" out/index/simple/tiny/index.html
	[ ! -e "$s/tiny-1.4-py312.manifest" ]
	writeconfig
	ninja build.ninja >/dev/null 2>&1
'

t_expect "10 kill -9 of merge-index at random moments, its wheels changing between runs: the index never lists a file it lacks" '
	rm -rf out/store out/index out/store-catalog "$s"/*.manifest.*
	python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" 3.12 dir "$s"
	ninja merge-index >/dev/null 2>&1
	# (how long a run of new wheels takes: the kills spread over it)
	FAKECELLS_SALT=run0 python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" 3.12 dir "$s"
	t0=$(date +%s%N)
	ninja merge-index >/dev/null 2>&1
	ms=$((($(date +%s%N) - t0) / 1000000))
	i=0
	while [ "$i" -lt 10 ]; do
		i=$((i + 1))
		FAKECELLS_SALT=run$i python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" 3.12 dir "$s"
		setsid ninja merge-index >/dev/null 2>&1 &
		pid=$!
		sleep "$(awk -v i="$i" -v ms="$ms" "BEGIN { srand(i * 104729); printf \"%.3f\", (i - 1 + rand()) * ms / 10000 }")"
		kill -9 "-$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		for p in out/index/simple/*/index.html; do
			[ -f "$p" ] || continue
			for f in $(grep -o "href=\"../../files/[^#\"]*" "$p" | sed "s|.*/files/||"); do
				[ -f "out/index/files/$f" ] || { echo "trial $i: $p lists $f, files/ lacks it"; exit 1; }
			done
		done
	done
	ninja merge-index >/dev/null 2>&1
	[ "$(grep -c "\.whl#sha256=" out/index/simple/tiny/index.html)" = 8 ]
	[ -z "$(find out/index -name "*.tmp.*")" ]
'

t_expect "store --unused lists the temporaries of publishes that did not finish, with their age; --delete --grace 0 removes them" '
	mkdir -p "$s/tmp"
	echo half >"$s/tmp/tiny-1.0-py3-none-any.whl.tmp.123-456"
	echo half >"$s/tiny-1.1-py312.manifest.tmp.77"
	out/wheelgen store --unused >"$WORK/unused" 2>"$WORK/unused.err"
	grep -q "^tmp/tiny-1.0-py3-none-any.whl.tmp.123-456	a publish.s temporary, 0 minutes old$" "$WORK/unused"
	grep -q "^tiny-1.1-py312.manifest.tmp.77	a publish.s temporary" "$WORK/unused"
	out/wheelgen store --unused --delete >/dev/null 2>&1
	[ -f "$s/tmp/tiny-1.0-py3-none-any.whl.tmp.123-456" ]
	out/wheelgen store --unused --delete --grace 0 >"$WORK/unused" 2>&1
	[ ! -e "$s/tmp/tiny-1.0-py3-none-any.whl.tmp.123-456" ]
	[ ! -e "$s/tiny-1.1-py312.manifest.tmp.77" ]
	[ -f "$s/$c0.manifest" ]
'

t_expect "store verify --repair puts back a whole entry taken out as damaged (a directory store), and leaves a damaged one out" '
	d=$WORK/dirstore
	rm -rf "$d"
	mkdir -p "$d"
	python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" 3.12 dir "$d"
	mv "$d/$c0.manifest" "$d/$c0.manifest.damaged"
	w=$d/$(sed -n "s/^stored=//p" "$d/$c1.manifest")
	python3 -c "import sys; p = sys.argv[1]; b = bytearray(open(p, \"rb\").read()); b[len(b) // 2] ^= 1; open(p, \"wb\").write(b)" "$w"
	mv "$d/$c1.manifest" "$d/$c1.manifest.damaged"
	WHEELGEN_STORE=$d out/wheelgen store verify >"$WORK/verify.out" 2>&1
	grep -q "^$c0.manifest.damaged	whole: taken out wrongly (--repair puts it back)$" "$WORK/verify.out"
	! grep -q "^$c1.manifest.damaged" "$WORK/verify.out" || exit 1
	WHEELGEN_STORE=$d out/wheelgen store verify --repair >"$WORK/verify.out" 2>&1
	grep -q "^$c0.manifest.damaged	whole: put back$" "$WORK/verify.out"
	[ -f "$d/$c0.manifest" ]
	[ ! -e "$d/$c0.manifest.damaged" ]
	[ -f "$d/$c1.manifest.damaged" ]
	[ "$(WHEELGEN_STORE=$d out/wheelgen matrix --missing 2>/dev/null | tr "\n" " ")" = "$c1 " ]
'
