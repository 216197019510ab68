#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086 # cases are single-quoted scripts (t_expect); WG_CONFARGS splits
# the store never loses a cell: a store that accepts connections and never answers makes the
# plan, the restore and the publish end within their limits, naming it; a stored wheel that is
# deleted, truncated or changed in place is planned again, and the next ninja plus ninja
# publish heal the store (a directory store, and nginx WebDAV on 127.0.0.1); publishing is
# atomic: kill -9 at random moments of two publishers of differing builds of one cell never
# leaves a manifest that names bytes the store does not hold; two publishers of identical
# builds both succeed, and the loser of a race marks the winner's bytes; a restored wheel must be
# the cell's (its name, tags and .dist-info); merge-index fails, writing no index, on a store that
# never answers, refuses or answers 403, and on a full disk; damage found by restore, merge-index
# (also by range reads under index.base_url) and store verify --repair takes the entry out, so
# that the next plan builds it; a manifest relabelled to another cell is planned at once
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

WHEELGEN_STORE=
export WHEELGEN_STORE
# (the temporaries of the publishers this script kills -9 go with its work directory)
TMPDIR=$WORK/tmp
mkdir -p "$TMPDIR"
export TMPDIR
src=$WORK/src
t_copytree "$src"
cd "$src"
t_mkpkg fixture/alpha alpha
t_mkpkg fixture/beta beta
./configure ${WG_CONFARGS:-} --config examples/quickstart/packages.yml >"$WORK/configure.log" 2>&1 || true
py=$(t_pythons 1)
[ -n "$py" ] || { t_case "a Python"; t_fail "$(tail -n 5 "$WORK/configure.log")"; exit 0; }
nd=$(echo "$py" | tr -d .)
a=alpha-1.0-py$nd b=beta-1.0-py$nd
store=$WORK/store

# writeconfig PUBLISH: the fixture's config, publishing there, with short time limits
writeconfig() {
	cat >fixture/packages.yml <<YML
defaults:
  python: ["$py"]
packages:
  alpha:
    source: {path: alpha}
    versions: ["1.0"]
    test_import: alpha
  beta:
    source: {path: beta}
    versions: ["1.0"]
    test_import: beta
publish: $1
YML
}
plan() { out/wheelgen matrix --config fixture/packages.yml --missing 2>"$WORK/plan.err" | sort | tr '\n' ' '; }

# --- a store that accepts connections and never answers -----------------------------------
hport=$(t_freeport)
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(64)
held = []
while True:
    c, _ = s.accept(); held.append(c)   # accepted, never read, never answered
' "$hport" >/dev/null 2>&1 &
hung=$!
stop_exit() {
	st=$?
	set +e
	kill "$hung" 2>/dev/null
	[ -z "${forbid:-}" ] || kill "$forbid" 2>/dev/null
	[ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
hungurl=http://127.0.0.1:$hport/store/
writeconfig "{http: \"$hungurl\", timeout: \"20\", stall_timeout: \"2\", retries: \"1\"}"
./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/configure.log" 2>&1

t_expect "a store that never answers: matrix --missing ends within its limit, names the store, and plans every cell" '
	start=$(date +%s)
	got=$(plan)
	[ $(($(date +%s) - start)) -lt 15 ]
	[ "$got" = "$a $b " ]
	grep -q "warning: the store could not be read: GET ${hungurl}[^ ]*: .*(28).* (the store.s limits: publish.timeout 20 s, publish.stall_timeout 2 s): every cell counts as missing" "$WORK/plan.err"
'
t_expect "a store that never answers: ninja ends (the restore gives up on it, naming it) and builds the cells" '
	start=$(date +%s)
	ninja >"$WORK/hung.ninja.log" 2>&1
	[ $(($(date +%s) - start)) -lt 120 ]
	grep -q "warning: the store could not be read: GET ${hungurl}$a.manifest" "$WORK/hung.ninja.log"
	grep -q "^origin=build$" "out/wheels/$a/manifest"
'
t_expect "a store that never answers: ninja publish fails within its limit, naming the URL, and marks nothing published" '
	start=$(date +%s)
	! ninja "publish/$a" >"$WORK/hung.publish.log" 2>&1 || exit 1
	[ $(($(date +%s) - start)) -lt 60 ]
	grep -q "wheelgen: http: ${hungurl}blobs/.*PUT failed: curl: (28)" "$WORK/hung.publish.log"
	[ ! -e "out/publish/$a.done" ]
'

# --- merge-index never writes an index that lacks a stored cell because of a fault ------------
cat >"$WORK/forbid.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def answer(self):
        self.send_response(403)
        self.send_header("Content-Length", "0")
        self.end_headers()
    do_GET = do_HEAD = answer
    def log_message(self, *a):
        pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
fport=$(t_freeport)
python3 "$WORK/forbid.py" "$fport" >/dev/null 2>&1 &
forbid=$!
t_expect "merge-index with a store that never answers, refuses connections or answers 403: it fails naming the store and the cause, and writes no index" '
	rm -rf out/wheels out/tests out/index out/store
	start=$(date +%s)
	! ninja merge-index >"$WORK/mi.hung.log" 2>&1 || exit 1
	[ $(($(date +%s) - start)) -lt 15 ]
	grep -q "wheelgen: error: merge-index: the store .*could not be read: GET ${hungurl}[^ ]*: .*(28)" "$WORK/mi.hung.log"
	port=$(t_freeport)
	! WHEELGEN_STORE=http://127.0.0.1:$port/s/ ninja merge-index >"$WORK/mi.refused.log" 2>&1 || exit 1
	grep -q "wheelgen: error: merge-index: the store .*could not be read: .*127.0.0.1:$port/s/" "$WORK/mi.refused.log"
	! WHEELGEN_STORE=http://127.0.0.1:$fport/s/ ninja merge-index >"$WORK/mi.403.log" 2>&1 || exit 1
	grep -q "wheelgen: error: merge-index: the store .*could not be read: .*127.0.0.1:$fport/s/$a.manifest.*403" "$WORK/mi.403.log"
	[ ! -e out/index/simple/index.html ]
'

# --- damaged stores heal ----------------------------------------------------------------------
# publishall: build, test and publish both cells; the plan is empty afterwards
publishall() {
	ninja >"$WORK/p.log" 2>&1 && ninja publish >>"$WORK/p.log" 2>&1 && [ -z "$(plan)" ]
}
# damage HOW STOREDIR: the stored wheel of beta deleted, truncated or changed in place
damage() {
	w=$2/$(sed -n "s/^stored=//p" "$2/$b.manifest")
	[ -f "$w" ] || { echo "no stored wheel $w"; return 1; }
	case $1 in
	deleted) rm -f "$w" ;;
	truncated) head -c 1000 "$w" >"$w.x" && mv "$w.x" "$w" ;;
	changed) python3 -c "import sys; p = sys.argv[1]; b = bytearray(open(p, \"rb\").read()); b[len(b) // 2] ^= 1; open(p, \"wb\").write(b)" "$w" ;;
	esac
}
writeconfig "{dir: \"$store\"}"
for how in deleted truncated changed; do
	t_expect "a directory store whose stored wheel was $how: the plan lists that cell, and ninja plus ninja publish heal the store" '
		rm -rf out/wheels out/tests out/publish
		publishall
		damage '"$how"' "$store"
		[ "$(plan)" = "$b " ]
		grep -q "planned $b: store entry .*$b.manifest: its wheel " "$WORK/plan.err"
		rm -rf out/wheels out/tests out/publish
		ninja >"$WORK/heal.log" 2>&1
		grep -q "^origin=build$" "out/wheels/$b/manifest"
		grep -q "^origin=store$" "out/wheels/$a/manifest"
		ninja publish >>"$WORK/heal.log" 2>&1
		[ -z "$(plan)" ]
	'
done
t_expect "merge-index leaves a damaged entry out and says which and why" '
	rm -rf out/wheels out/tests out/publish out/store
	damage truncated "$store"
	ninja merge-index >"$WORK/merge.log" 2>&1
	grep -q "merge-index: left out $b: .*has sha256\|merge-index: left out $b: .*bytes" "$WORK/merge.log"
	grep -q "1 cell of the config restored, 0 built here, 0 not in the store, 0 built from other inputs (an earlier config), 1 left out: a damaged entry" "$WORK/merge.log"
	grep -q "\.whl#sha256=" out/index/simple/alpha/index.html
	[ ! -e out/index/simple/beta/index.html ]
	! grep -q "building" "$WORK/merge.log" || exit 1
	grep -q "took the damaged entry $store/$b.manifest out of the store" "$WORK/merge.log"
	[ -f "$store/$b.manifest.damaged" ]
	[ ! -e "$store/$b.manifest" ]
	rm -rf out/store
	publishall
'
t_expect "a manifest whose tested= names another wheel: the next plan lists its cell (no download), merge-index leaves it out and takes it out, and one build, publish and merge-index list it again" '
	rm -rf out/wheels out/tests out/publish out/store "$store"/*.damaged
	sed -i "s/^tested=.*/tested=$(printf "%064d" 0)/" "$store/$b.manifest"
	[ "$(plan)" = "$b " ]
	grep -q "planned $b: .*its tested= (0000000000000000000000000000000000000000000000000000000000000000) is not its wheel.s sha256" "$WORK/plan.err" ||
		grep -q "planned $b: .*its tested= (000000000000) is not its wheel.s sha256" "$WORK/plan.err"
	ninja merge-index >"$WORK/tmerge.log" 2>&1
	grep -q "merge-index: left out $b: .*tested=" "$WORK/tmerge.log"
	[ ! -e "$store/$b.manifest" ]
	[ ! -e out/index/simple/beta/index.html ]
	publishall
	rm -rf out/wheels out/tests out/publish out/store
	ninja merge-index >"$WORK/tmerge2.log" 2>&1
	grep -q "2 cells of the config restored" "$WORK/tmerge2.log"
	grep -q "\.whl#sha256=" out/index/simple/beta/index.html
'

t_expect "the summary of a merge-index reads data, not messages: with the messages of restore.c and indexplan.c reworded (in this test's copy of the tree, rebuilt), the summary of the same merge-index is the same byte for byte" '
	rm -rf out/wheels out/tests out/publish out/store
	damage truncated "$store"
	ninja merge-index >"$WORK/m1.log" 2>&1
	out/wheelgen summary index >"$WORK/summary1.md"
	grep -q "^| \`$b\` | .*\(has sha256\|bytes\)" "$WORK/summary1.md"
	grep -q "^The store .*: 1 cell of the config restored, 0 built here, .* 1 left out: a damaged entry" "$WORK/summary1.md"
	rm -rf out/store && publishall
	cp gen/restore.c gen/indexplan.c "$WORK/"
	sed -i "s/merge-index: left out %s: %s/merge-index: %s stays out of the index, as %s/; s/of the config restored%s, %zu built here/restored from the store%s; built here: %zu/" gen/restore.c
	sed -i "s/index: left out %s: %s/index: not indexed: %s (%s)/" gen/indexplan.c
	WHEELGEN_PREBUILT= CC=$(t_cc) ./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/reworded.log" 2>&1
	rm -rf out/wheels out/tests out/publish out/store
	damage truncated "$store"
	ninja merge-index >"$WORK/m2.log" 2>&1
	grep -q "merge-index: $b stays out of the index, as " "$WORK/m2.log"
	! grep -q "left out $b" "$WORK/m2.log"
	out/wheelgen summary index >"$WORK/summary2.md"
	cmp "$WORK/summary1.md" "$WORK/summary2.md"
'
# (the messages as they were, and the run's wheelgen, whatever the case above did)
cp "$WORK/restore.c" "$WORK/indexplan.c" gen/ 2>/dev/null || true
./configure ${WG_CONFARGS:-} --config fixture/packages.yml >>"$WORK/reworded.log" 2>&1
rm -rf out/store
publishall || true

t_expect "a manifest relabelled to another cell (its cell= and key= of beta, its filename and tags alpha's): the first plan lists beta, without a download; a restore takes it out" '
	sed "s/^cell=.*/cell=$b/; s/^key=.*/key=$(out/wheelgen key --config fixture/packages.yml "$b" | cut -d" " -f1)/" \
		"$store/$a.manifest" >"$store/$b.manifest"
	[ "$(plan)" = "$b " ]
	grep -q "planned $b: store entry .*$b.manifest contradicts its cell: its wheel alpha-1.0-.*: it is a wheel of alpha, not beta" "$WORK/plan.err"
	rm -rf out/wheels out/tests out/publish
	ninja >"$WORK/relabel.log" 2>&1
	grep -q "^origin=build$" "out/wheels/$b/manifest" && grep -q "^origin=store$" "out/wheels/$a/manifest"
	[ -f "$store/$b.manifest.damaged" ]
	ninja publish >>"$WORK/relabel.log" 2>&1
	[ -z "$(plan)" ]
'

t_expect "store verify re-hashes every stored wheel: a wheel changed in place is named (exit 1); --repair takes it out, the next plan lists it, a publish heals it" '
	rm -f "$store"/*.damaged
	out/wheelgen store verify --config fixture/packages.yml >"$WORK/verify.out" 2>"$WORK/verify.err"
	[ "$(sort "$WORK/verify.out")" = "$(printf "%s\tok\n" "$a.manifest" "$b.manifest")" ]
	damage changed "$store"
	! out/wheelgen store verify --config fixture/packages.yml >"$WORK/verify.out" 2>"$WORK/verify.err" || exit 1
	grep -q "^$a.manifest	ok$" "$WORK/verify.out"
	grep -q "^$b.manifest	damaged: .*has sha256 .*, its manifest says" "$WORK/verify.out"
	grep -q "2 entries verified, 1 damaged" "$WORK/verify.err"
	out/wheelgen store verify --repair --config fixture/packages.yml >"$WORK/verify.out" 2>"$WORK/verify.err"
	[ -f "$store/$b.manifest.damaged" ]
	[ ! -e "$store/$b.manifest" ]
	[ "$(plan)" = "$b " ]
	rm -rf out/wheels out/tests out/publish
	publishall
	out/wheelgen store verify --config fixture/packages.yml >/dev/null 2>&1
'

if [ "$(id -u)" != 0 ]; then
	echo "# skip - a full disk under out/store: mounting a tmpfs needs root"
else
t_expect "merge-index with out/store on a full disk (an 8 KiB tmpfs): it fails naming the cause, and writes no index" '
	rm -rf out/wheels out/tests out/publish out/store out/index
	mkdir -p out/store
	mount -t tmpfs -o size=8k tmpfs out/store
	set +e
	ninja merge-index >"$WORK/full.log" 2>&1
	st=$?
	set -e
	umount out/store
	[ "$st" -ne 0 ]
	grep -q "wheelgen: error: merge-index: .*No space left on device" "$WORK/full.log"
	[ ! -e out/index/simple/index.html ]
	ninja merge-index >"$WORK/notfull.log" 2>&1
	grep -q "2 cells of the config restored" "$WORK/notfull.log"
'
fi

t_case "an nginx WebDAV store (MOVE): publishing, then a deleted and a truncated stored wheel are planned and healed"
nd_=$WORK/nginx
nport=$(t_freeport)
if ! t_nginx_dav "$nd_" "$nport" "autoindex on;" >"$WORK/nginx.err" 2>&1; then
	t_fail "$(cat "$WORK/nginx.err")"
else
	hurl=http://127.0.0.1:$nport/s/
	mkdir -p "$nd_/root/s"
	writeconfig "{http: \"$hurl\"}"
	rm -rf out/wheels out/tests out/publish
	ok=1
	publishall || { ok=0; echo "first publish: $(tail -n 5 "$WORK/p.log")"; }
	grep -q "\"MOVE /s/tmp/" "$nd_/logs/access.log" || { ok=0; echo "no MOVE from the store.s tmp/"; }
	for how in deleted truncated; do
		damage "$how" "$nd_/root/s" || ok=0
		[ "$(plan)" = "$b " ] || { ok=0; echo "$how: plan '$(plan)' $(cat "$WORK/plan.err")"; }
		rm -rf out/wheels out/tests out/publish
		publishall || { ok=0; echo "$how: heal: $(tail -n 5 "$WORK/p.log")"; }
	done
	if [ "$ok" = 1 ]; then t_pass; else t_fail "see above"; fi
fi

t_expect "an HTTP store whose wheel was changed in place at its size (no plan can see it): merge-index leaves it out and takes it out (DELETE); then one plan, build, publish and merge-index list it again" '
	rm -rf out/wheels out/tests out/publish out/store out/index
	damage changed "$nd_/root/s"
	[ -z "$(plan)" ]
	ninja merge-index >"$WORK/hmerge.log" 2>&1
	grep -q "merge-index: left out $b: .*has sha256" "$WORK/hmerge.log"
	grep -q "\"DELETE /s/$b.manifest HTTP/1.1\" 204 " "$nd_/logs/access.log"
	[ "$(plan)" = "$b " ]
	publishall
	rm -rf out/wheels out/tests out/publish
	ninja merge-index >"$WORK/hmerge2.log" 2>&1
	grep -q "2 cells of the config restored" "$WORK/hmerge2.log"
	grep -q "\.whl#sha256=" out/index/simple/beta/index.html
'

t_expect "under index.base_url at an HTTP store, merge-index checks what it links by range reads: a forged wheel (its manifest matching its bytes) whose WHEEL names other tags is left out and taken out" '
	writeconfig "{http: \"$hurl\"}
index: {base_url: \"$hurl\"}"
	rm -rf out/wheels out/tests out/publish out/store out/index
	w=$nd_/root/s/$(sed -n "s/^stored=//p" "$nd_/root/s/$b.manifest")
	python3 - "$w" "$nd_/root/s/$b.manifest" <<'"'"'PY'"'"'
import hashlib, os, re, sys, zipfile
w, man = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(w) as z:
    items = [(i, z.read(i)) for i in z.infolist()]
with zipfile.ZipFile(w + ".new", "w", zipfile.ZIP_DEFLATED) as z:
    for i, data in items:
        if i.filename.endswith(".dist-info/WHEEL"):
            data = re.sub(rb"Tag: .*", b"Tag: cp27-cp27mu-manylinux1_x86_64", data)
        z.writestr(i, data)
sha = hashlib.sha256(open(w + ".new", "rb").read()).hexdigest()
blob = os.path.join(os.path.dirname(os.path.dirname(w)), sha)
os.makedirs(blob, exist_ok=True)
os.replace(w + ".new", os.path.join(blob, os.path.basename(w)))
if os.path.exists(w + ".metadata"):
    open(os.path.join(blob, os.path.basename(w) + ".metadata"), "wb").write(open(w + ".metadata", "rb").read())
text = open(man).read()
text = re.sub(r"(?m)^sha256=.*$", "sha256=" + sha, text)
text = re.sub(r"(?m)^size=.*$", "size=%d" % os.path.getsize(os.path.join(blob, os.path.basename(w))), text)
text = re.sub(r"(?m)^tested=.*$", "tested=" + sha, text)
text = re.sub(r"(?m)^stored=blobs/[0-9a-f]+/", "stored=blobs/%s/" % sha, text)
open(man, "w").write(text)
PY
	ninja merge-index >"$WORK/bmerge.log" 2>&1
	grep -q "merge-index: left out $b: its wheel .*: its .dist-info/WHEEL does not list the tags of its name" "$WORK/bmerge.log"
	grep -q "1 cell of the config restored (manifests only" "$WORK/bmerge.log"
	grep -q "href=\"$hurl" out/index/simple/alpha/index.html
	[ ! -e out/index/simple/beta/index.html ]
	[ ! -e "$nd_/root/s/$b.manifest" ]
	grep -q "\"GET /s/blobs/[0-9a-f]*/alpha-1.0-.*\.whl HTTP/1.1\" 206 " "$nd_/logs/access.log"
	writeconfig "{http: \"$hurl\"}"
	publishall
'

# --- kill -9 of racing publishers of differing builds: no manifest ever names missing bytes ----
# a second runner whose beta wheel differs in its bytes (the same key: a build that is not
# reproducible), its manifest and test record made to match
other=$WORK/other
rm -rf out/publish
cp -R "$src" "$other"
python3 - "$other/out/wheels/$b" <<'PY'
import hashlib, os, sys, zipfile
d = sys.argv[1]
m = dict(l.split("=", 1) for l in open(os.path.join(d, "manifest")).read().splitlines() if "=" in l)
w = os.path.join(d, m["filename"])
with zipfile.ZipFile(w) as z:
    items = [(i, z.read(i)) for i in z.infolist()]
with zipfile.ZipFile(w + ".new", "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
    for i, data in items:
        z.writestr(i, data)
    z.comment = b"another build"
os.replace(w + ".new", w)
sha = hashlib.sha256(open(w, "rb").read()).hexdigest()
m["sha256"], m["size"] = sha, str(os.path.getsize(w))
open(os.path.join(d, "manifest"), "w").write("".join("%s=%s\n" % kv for kv in m.items()))
for f in (os.path.join(d, "tested"), os.path.join(d, "..", "..", "tests", m["cell"] + ".ok")):
    lines = open(f).read().splitlines()
    open(f, "w").write("\n".join([sha] + lines[1:]) + "\n")
PY
# consistent STORE-DIR: every manifest's stored wheel is there with its sha256
consistent() {
	for m in "$1"/*.manifest; do
		[ -f "$m" ] || continue
		w=$(sed -n "s/^stored=//p" "$m")
		[ -n "$w" ] || w=$(sed -n "s/^filename=//p" "$m")
		w=$1/$w
		[ "$(sha256sum <"$w" 2>/dev/null | cut -d" " -f1)" = "$(sed -n "s/^sha256=//p" "$m")" ] || { echo "$m names bytes the store lacks"; return 1; }
	done
}
for kind in dir http; do
	t_case "$kind store: 12 trials of kill -9 at a random moment of one of two racing publishers of differing builds: every manifest names bytes the store holds, and a publisher that finished marks the bytes the store names"
	if [ "$kind" = dir ]; then dest="{dir: \"$store\"}" sdir=$store; else dest="{http: \"$hurl\"}" sdir=$nd_/root/s; fi
	(writeconfig "$dest" && cd "$other" && writeconfig "$dest")
	(cd "$other" && ninja build.ninja >/dev/null 2>&1)
	ninja build.ninja >/dev/null 2>&1
	bad='' i=0
	while [ "$i" -lt 12 ]; do
		i=$((i + 1))
		rm -f out/publish/*.done "$other"/out/publish/*.done
		setsid sh templates/publish.sh out "$b" >"$WORK/race.a" 2>&1 &
		pa=$!
		(cd "$other" && setsid sh templates/publish.sh out "$b") >"$WORK/race.b" 2>&1 &
		pb=$!
		sleep "0.$(awk -v s="$i" 'BEGIN { srand(s * 7919); printf "%02d", int(rand() * 60) }')"
		kill -9 "-$pa" 2>/dev/null || true
		wait "$pa" 2>/dev/null || true
		wait "$pb" 2>/dev/null || true
		consistent "$sdir" >"$WORK/cons.log" || bad="$bad trial $i: $(cat "$WORK/cons.log")"
		named=$(sed -n "s/^sha256=//p" "$sdir/$b.manifest" 2>/dev/null)
		for d in out "$other/out"; do
			[ ! -f "$d/publish/$b.done" ] || [ "$(sed -n 1p "$d/publish/$b.done")" = "$named" ] ||
				bad="$bad trial $i: $d/publish/$b.done names $(sed -n 1p "$d/publish/$b.done"), the store $named;"
		done
	done
	if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi
	t_expect "$kind store: store --unused lists the temporaries the killed publishers left (under tmp/), and --delete --grace 0 removes them" '
	find "$sdir" -name "*.tmp.*" >"$WORK/temps"
	! grep -v "^$sdir/tmp/" "$WORK/temps" || exit 1
	out/wheelgen store --unused >"$WORK/unused" 2>&1
	[ "$(grep -c "	a publish.s temporary" "$WORK/unused")" = "$(wc -l <"$WORK/temps")" ]
	out/wheelgen store --unused --delete --grace 0 >/dev/null 2>&1
	[ -z "$(find "$sdir" -name "*.tmp.*")" ]
'
done

t_expect "two publishers of identical builds of one cell at once both succeed" '
	rm -rf "$store"
	writeconfig "{dir: \"$store\"}"
	ninja build.ninja >/dev/null 2>&1
	rm -rf "$WORK/same"
	cp -R "$src" "$WORK/same"
	rm -f out/publish/*.done "$WORK"/same/out/publish/*.done
	sh templates/publish.sh out "$a" >"$WORK/same.a" 2>&1 &
	pa=$!
	(cd "$WORK/same" && sh templates/publish.sh out "$a") >"$WORK/same.b" 2>&1
	wait "$pa"
	[ -f "out/publish/$a.done" ]
	[ -f "$WORK/same/out/publish/$a.done" ]
	consistent "$store"
	! grep -q "another publisher" "$WORK/same.a" "$WORK/same.b" || exit 1
'

t_expect "the loser of a publish race marks the bytes the store names (the winner's sha256), not its own" '
	writeconfig "{dir: \"$store\"}" && ninja build.ninja >/dev/null 2>&1
	(cd "$other" && writeconfig "{dir: \"$store\"}" && ninja build.ninja >/dev/null 2>&1)
	(cd "$other" && sh templates/publish.sh out "$b") >"$WORK/win.log" 2>&1
	cp "$store/$b.manifest" "$WORK/winner.manifest"
	won=$(sed -n "s/^sha256=//p" "$WORK/winner.manifest") mine=$(sed -n "s/^sha256=//p" "out/wheels/$b/manifest")
	[ -n "$won" ] && [ "$won" != "$mine" ]
	# (the winner'"'"'s manifest lands right after this publisher'"'"'s, before it reads the store back)
	rm -rf "$WORK/tpl" && cp -R templates "$WORK/tpl" && mv "$WORK/tpl/publish-dir.sh" "$WORK/tpl/publish-dir.real.sh"
	printf "%s\n" "sh \"\$(dirname \"\$0\")/publish-dir.real.sh\" \"\$@\" || exit 1" \
		"case \$* in *.manifest) cp \"$WORK/winner.manifest\" \"$store/$b.manifest\" ;; esac" >"$WORK/tpl/publish-dir.sh"
	sh "$WORK/tpl/publish.sh" out "$b" >"$WORK/lose.log" 2>&1
	grep -q "another publisher.s build of the cell (sha256 $won) is the entry of $store now; this one (sha256 $mine)" "$WORK/lose.log"
	[ "$(sed -n 1p "out/publish/$b.done")" = "$won" ] && grep -q "^built=$mine " "out/publish/$b.done"
	[ "$(sed -n 1p "$other/out/publish/$b.done")" = "$won" ]
'

t_expect "restore refuses a wheel that is not the cell (its module built for another Python), with its manifest and blob made to match" '
	rm -rf out/wheels out/tests out/publish
	w=$store/$(sed -n "s/^stored=//p" "$store/$a.manifest")
	python3 - "$w" "$store/$a.manifest" <<'"'"'PY'"'"'
import hashlib, os, re, sys, zipfile
w, man = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(w) as z:
    items = [(i, z.read(i)) for i in z.infolist()]
with zipfile.ZipFile(w + ".new", "w", zipfile.ZIP_DEFLATED) as z:
    for i, data in items:
        i.filename = re.sub(r"cpython-3\d+", "cpython-399", i.filename)
        z.writestr(i, data)
sha = hashlib.sha256(open(w + ".new", "rb").read()).hexdigest()
name = os.path.basename(w)
blob = os.path.join(os.path.dirname(os.path.dirname(w)), sha)
os.makedirs(blob, exist_ok=True)
os.replace(w + ".new", os.path.join(blob, name))
if os.path.exists(w + ".metadata"):
    open(os.path.join(blob, name + ".metadata"), "wb").write(open(w + ".metadata", "rb").read())
text = open(man).read()
text = re.sub(r"(?m)^sha256=.*$", "sha256=" + sha, text)
text = re.sub(r"(?m)^tested=.*$", "tested=" + sha, text)
text = re.sub(r"(?m)^size=.*$", "size=%d" % os.path.getsize(os.path.join(blob, name)), text)
text = re.sub(r"(?m)^stored=blobs/[0-9a-f]+/", "stored=blobs/%s/" % sha, text)
open(man, "w").write(text)
PY
	ninja "wheel/$a" >"$WORK/ident.log" 2>&1
	grep -q "warning: store entry of $a: .*is not a wheel of $a: its module .*built for another Python than $py" "$WORK/ident.log"
	grep -q "^origin=build$" "out/wheels/$a/manifest"
'

# --- a store that misbehaves: endless answers, refusals, redirects; a dead store once per run -----
cat >"$WORK/odd.py" <<'PY'
# a store on 127.0.0.1 that misbehaves by path: /endless/ streams any GET without a length,
# forever; /big/ answers 100,000 bytes, announced; /forbid/ answers 403; /full/ answers a PUT 507; /putredir/ answers a PUT 302;
# /away/ answers a GET with a redirect to 127.0.0.2 (another host); /auth/ serves the files of
# DIR/authstore to a request with "Authorization: Bearer sekrit-token" only (401 without; its
# /auth/away/ redirects to 127.0.0.2). Logs "METHOD PATH", " auth" after it when the request
# had an Authorization header. Listens on 127.0.0.1, or the address its third argument names.
import os, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
d = sys.argv[1]
class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # (headers and body are two writes: no 40 ms wait on a kept-alive connection, as no real server makes one)
    disable_nagle_algorithm = True
    def log_message(self, *a):
        pass
    def plain(self, code, extra=()):
        self.send_response(code)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def any(self, method):
        n = int(self.headers.get("Content-Length") or 0)
        if n:
            self.rfile.read(n)
        with open(os.path.join(d, "log"), "a") as f:
            f.write("%s %s%s\n" % (method, self.path, " auth" if self.headers.get("Authorization") else ""))
        p = self.path
        if p.startswith("/auth/away/"):
            return self.plain(302, [("Location", "http://127.0.0.2:%d/x/%s" % (self.server.server_port, p[11:]))])
        if p.startswith("/auth/"):
            if self.headers.get("Authorization") != "Bearer sekrit-token":
                return self.plain(401)
            f = os.path.join(d, "authstore", p[6:])
            if method not in ("GET", "HEAD") or ".." in p or not os.path.isfile(f):
                return self.plain(404)
            body = open(f, "rb").read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if method == "GET":
                self.wfile.write(body)
            return
        if p.startswith("/endless/") and method == "GET":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                while True:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                return
        if p.startswith("/big/") and method == "GET":
            body = b"a" * 100000
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except OSError:
                pass
            return
        if p.startswith("/forbid/"):
            return self.plain(403)
        if p.startswith("/full/") and method == "PUT":
            return self.plain(507)
        if p.startswith("/putredir/") and method == "PUT":
            return self.plain(302, [("Location", "http://127.0.0.1:%d/elsewhere/" % self.server.server_port)])
        if p.startswith("/away/"):
            return self.plain(302, [("Location", "http://127.0.0.2:%d/x/%s" % (self.server.server_port, p[6:]))])
        return self.plain(404)
    def do_GET(self): self.any("GET")
    def do_HEAD(self): self.any("HEAD")
    def do_PUT(self): self.any("PUT")
    def do_DELETE(self): self.any("DELETE")
s = ThreadingHTTPServer((sys.argv[3] if len(sys.argv) > 3 else "127.0.0.1", int(sys.argv[2])), H)
s.daemon_threads = True
s.serve_forever()
PY
oport=$(t_freeport)
mkdir -p "$WORK/odd"
python3 "$WORK/odd.py" "$WORK/odd" "$oport" >"$WORK/odd/server.log" 2>&1 &
oddpid=$!
python3 "$WORK/odd.py" "$WORK/odd" "$oport" 127.0.0.2 >"$WORK/odd/server2.log" 2>&1 &
oddpid2=$!
stop_exit2() {
	st=$?
	kill "$oddpid" "$oddpid2" 2>/dev/null
	(exit "$st")
	stop_exit
}
trap stop_exit2 EXIT
i=0
while ! curl -s -o /dev/null "http://127.0.0.1:$oport/" && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
odd=http://127.0.0.1:$oport

t_expect "a manifest streamed endlessly, without a length: the read stops at its limit at once, and out/ holds no temporaries" '
	writeconfig "{http: \"$odd/endless/\", timeout: \"60\", stall_timeout: \"30\"}"
	start=$(date +%s)
	got=$(plan)
	[ $(($(date +%s) - start)) -lt 10 ]
	[ "$got" = "$a $b " ]
	grep -q "GET $odd/endless/$a.manifest: larger than 65536 bytes" "$WORK/plan.err"
	[ -z "$(find out -name "*.tmp*" -o -name ".matrix-manifest*" | head -n 1)" ]
	writeconfig "{http: \"$odd/big/\"}"
	[ "$(plan)" = "$a $b " ]
	grep -q "GET $odd/big/$a.manifest: larger than 65536 bytes" "$WORK/plan.err"
	[ -z "$(find out -name "*.tmp*" -o -name ".matrix-manifest*" | head -n 1)" ]
'
t_expect "a store answering 403: the plan names WG_HTTP_TOKEN (never its value); a PUT answered 403 or 507 is not tried again" '
	writeconfig "{http: \"$odd/forbid/\", retries: \"3\"}"
	WG_HTTP_TOKEN=sekrit-token plan >/dev/null
	grep -q "HTTP status 403 (the store refused the token in WG_HTTP_TOKEN" "$WORK/plan.err"
	! grep -q sekrit-token "$WORK/plan.err" || exit 1
	: >"$WORK/odd/log"
	! WG_RETRY_SLEEP=0 WG_HTTP_TOKEN=sekrit-token sh templates/publish-http.sh --retries 3 "$odd/forbid/" "$WORK/plan.err" 2>"$WORK/put.err" || exit 1
	grep -q "PUT: HTTP 403: the store refused the token in WG_HTTP_TOKEN" "$WORK/put.err"
	! grep -q sekrit-token "$WORK/put.err" || exit 1
	[ "$(grep -c "^PUT" "$WORK/odd/log")" = 1 ]
	: >"$WORK/odd/log"
	! WG_RETRY_SLEEP=0 sh templates/publish-http.sh --retries 3 "$odd/full/" "$WORK/plan.err" 2>"$WORK/put.err" || exit 1
	grep -q "PUT: HTTP 507: the store has no room (not tried again)" "$WORK/put.err"
	[ "$(grep -c "^PUT" "$WORK/odd/log")" = 1 ]
'
t_expect "a PUT answered with a redirect fails, saying so and where; a read redirected to another host is not followed, and says where" '
	! sh templates/publish-http.sh "$odd/putredir/" "$WORK/plan.err" 2>"$WORK/put.err" || exit 1
	grep -q "the store answered the PUT with HTTP 302, a redirect to $odd/elsewhere/: a PUT is not redirected" "$WORK/put.err"
	! grep -q "read back" "$WORK/put.err" || exit 1
	writeconfig "{http: \"$odd/away/\"}"
	plan >/dev/null
	grep -q "GET $odd/away/$a.manifest: redirected to http://127.0.0.2:$oport/x/$a.manifest, outside the store.s host: not followed" "$WORK/plan.err"
'
# a curl on PATH that records its arguments, then runs curl
mkdir -p "$WORK/fakebin"
printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/argv"\nexec %s "$@"\n' "$WORK/fakebin" "$(command -v curl)" >"$WORK/fakebin/curl"
chmod +x "$WORK/fakebin/curl"
t_expect "a store that wants a token: reads send WG_HTTP_TOKEN, from a private file, never in a process.s arguments or a trace; without it, 401 names the variable" '
	writeconfig "{http: \"$odd/auth/\"}"
	ninja build.ninja >/dev/null 2>&1
	out/wheelgen matrix --config fixture/packages.yml --tsv >"$WORK/auth.tsv"
	python3 "$top/tests/fakecells.py" "$WORK/auth.tsv" "$py" dir "$WORK/odd/authstore"
	[ "$(plan)" = "$a $b " ]
	grep -q "GET $odd/auth/[^ ]*\.manifest: HTTP status 401 (the store refused a request without a token: set WG_HTTP_TOKEN" "$WORK/plan.err"
	: >"$WORK/odd/log"
	: >"$WORK/fakebin/argv"
	mkdir -p "$WORK/authtmp"
	[ "$(TMPDIR=$WORK/authtmp PATH=$WORK/fakebin:$PATH WG_HTTP_TOKEN=sekrit-token plan)" = "" ]
	grep -q "^GET /auth/$a.manifest auth$" "$WORK/odd/log"
	grep -q "^HEAD /auth/blobs/.* auth$" "$WORK/odd/log"
	PATH=$WORK/fakebin:$PATH WG_HTTP_TOKEN=sekrit-token sh -x templates/publish-http.sh --cat "$a.manifest" "$odd/auth/" >"$WORK/cat.out" 2>"$WORK/cat.trace"
	grep -q "^key=" "$WORK/cat.out"
	[ "$(grep -c "$odd/auth/" "$WORK/fakebin/argv")" -ge 4 ]
	! grep -q sekrit "$WORK/fakebin/argv" "$WORK/cat.trace" "$WORK/plan.err" || exit 1
	[ -z "$(find "$WORK/authtmp" -maxdepth 1 -name "wghdr.*" 2>/dev/null)" ]
'
t_expect "the shell helper (publish-lib.sh: wg_auth, wg_curl): the token to the URL host only, also through curl -L; a token with a newline is refused" '
	: >"$WORK/odd/log"
	WG_HTTP_TOKEN=sekrit-token sh -c ". templates/publish-lib.sh && wg_auth \"\$1\" NOPE WG_HTTP_TOKEN && wg_curl \"\$1\" -sS -L -o /dev/null \"\$2\"" sh "$WORK/auth.hdr" "$odd/auth/away/y"
	[ "$(stat -c %a "$WORK/auth.hdr")" = 600 ]
	grep -q "^GET /auth/away/y auth$" "$WORK/odd/log"
	grep -q "^GET /x/y$" "$WORK/odd/log"
	! WG_HTTP_TOKEN="$(printf "a\nX-Evil: 1")" sh -c ". templates/publish-lib.sh && wg_auth \"\$1\" WG_HTTP_TOKEN" sh "$WORK/auth.hdr" || exit 1
	[ ! -s "$WORK/auth.hdr" ]
'
t_expect "a directory store that cannot be written: the publish names the cell, the store and the reason" '
	: >"$WORK/notadir"
	writeconfig "{dir: \"$WORK/notadir/store\"}"
	ninja build.ninja >/dev/null 2>&1
	! ninja "publish/$a" >"$WORK/dirfail.log" 2>&1 || exit 1
	grep -q "wheelgen: dir: cannot write blobs/.* to the store $WORK/notadir/store: Not a directory" "$WORK/dirfail.log"
	grep -q "wheelgen: publish $a: the store $WORK/notadir/store failed" "$WORK/dirfail.log"
	[ ! -e "out/publish/$a.done" ]
'

# 8 cells of a pure-Python package, restored from a directory store (nothing built), then
# published to the store that never answers
mkdir -p fixture/tiny/tiny
printf 'from setuptools import setup\nsetup(name="tiny", version="1.0", packages=["tiny"])\n' >fixture/tiny/setup.py
echo "x = 1" >fixture/tiny/tiny/__init__.py
# tinyconfig PUBLISH
tinyconfig() {
	cat >fixture/packages.yml <<YML
defaults:
  python: ["$py"]
packages:
  tiny:
    source: {path: tiny}
    versions: ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7"]
    test_import: tiny
publish: $1
YML
}
tstore=$WORK/tinystore
tinyconfig "{dir: \"$tstore\"}"
t_expect "a store that never answers: ninja -k 0 publish of 8 cells ends within twice one cell's limit, each failing with the first's message" '
	ninja build.ninja >/dev/null 2>&1
	out/wheelgen matrix --tsv >"$WORK/tiny.tsv"
	python3 "$top/tests/fakecells.py" "$WORK/tiny.tsv" "$py" dir "$tstore"
	rm -rf out/wheels out/tests out/publish out/store-down
	ninja >"$WORK/tiny.log" 2>&1
	[ "$(grep -c "restored tiny-1\.[0-7]-py$nd from the store" "$WORK/tiny.log")" = 8 ]
	tinyconfig "{http: \"$hungurl\", timeout: \"8\", stall_timeout: \"8\", retries: \"2\"}"
	ninja build.ninja >/dev/null 2>&1
	start=$(date +%s)
	! ninja -k 0 -j 4 publish >"$WORK/tinypub.log" 2>&1 || exit 1
	took=$(($(date +%s) - start))
	echo "took $took s"
	[ "$took" -lt 16 ]
	[ "$(grep -c "given up on earlier in this run: not tried again" "$WORK/tinypub.log")" -ge 4 ]
	grep "given up on earlier in this run" "$WORK/tinypub.log" | head -n 1 | grep -q "PUT failed: curl: (28)"
	[ -z "$(ls out/publish/*.done 2>/dev/null)" ]
	grep -q "^[0-9]* [0-9]*$" out/store-down/*
'
