#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086 # cases are single-quoted scripts (t_expect); WG_CONFARGS splits
# the store as the build state (a CI simulation on loopback): cell keys (the same in two clones
# in different directories; each input changes them), runner A builds and publishes, runner B
# (another fresh clone) plans 0 missing cells, builds 0 wheels and writes the same simple/ tree
# byte for byte; an env change, a new Python and a new package each plan and build exactly the
# changed cells; a third clone's merge-index lists every stored cell; the same against an HTTP
# store (nginx WebDAV on 127.0.0.1); bad store entries and unreachable stores are warnings and
# the cell builds (a damaged entry is taken out); store --unused [--delete]; two publishers of
# one key at once
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# this script names its stores itself (lib.sh sets none)
WHEELGEN_STORE=
export WHEELGEN_STORE
store=$WORK/store

# the project: the repository with a fixture of two packages, laid out the same in every clone
proto=$WORK/proto
t_copytree "$proto"
t_mkpkg "$proto/fixture/alpha" alpha
t_mkpkg "$proto/fixture/beta" beta
t_mkpkg "$proto/fixture/gamma" gamma
(cd "$proto" && ./configure ${WG_CONFARGS:-} --config examples/quickstart/packages.yml >"$WORK/proto.configure.log" 2>&1) || true
# shellcheck disable=SC2046
set -- $(cd "$proto" && t_pythons 3)
if [ $# -lt 3 ]; then
	t_case "this test needs 3 Pythons on the host"
	t_fail "configure found: $* $(tail -n 5 "$WORK/proto.configure.log")"
	exit 0
fi
py1=$1 py2=$2 py3=$3
rm -rf "$proto/out" "$proto/build.ninja"
nd() { echo "$1" | tr -d .; }
a1=alpha-1.0-py$(nd "$py1") a2=alpha-1.0-py$(nd "$py2") a3=alpha-1.0-py$(nd "$py3")
b1=beta-1.0-py$(nd "$py1") b2=beta-1.0-py$(nd "$py2") b3=beta-1.0-py$(nd "$py3")
g1=gamma-1.0-py$(nd "$py1") g2=gamma-1.0-py$(nd "$py2")

# writeconfig DIR PYTHONS FLAVOR [EXTRA-PACKAGE-YAML] [PUBLISH]: DIR/fixture/packages.yml
writeconfig() {
	cat >"$1/fixture/packages.yml" <<YML
defaults:
  python: [$2]
packages:
  alpha:
    source: {path: alpha}
    versions: ["1.0"]
    env: {FIXTURE_FLAVOR: "$3"}
    test_import: alpha
  beta:
    source: {path: beta}
    versions: ["1.0"]
    test_import: beta
${4:-}
publish: ${5:-"{dir: \"$store\"}"}
YML
}
gamma='  gamma:
    source: {path: gamma}
    versions: ["1.0"]
    test_import: gamma'

# clone NAME [writeconfig args after DIR]: a fresh clone at $WORK/NAME, configured
clone() {
	n=$1
	shift
	rm -rf "${WORK:?}/$n"
	cp -R "$proto" "$WORK/$n"
	writeconfig "$WORK/$n" "$@"
	(cd "$WORK/$n" && ./configure ${WG_CONFARGS:-} --config fixture/packages.yml) >"$WORK/$n.configure.log" 2>&1 &&
		(cd "$WORK/$n" && ninja out/wheelgen build.ninja) >>"$WORK/$n.configure.log" 2>&1
}
# origins DIR: "cell origin" for each manifest under DIR/out/wheels, sorted
origins() {
	for m in "$1"/out/wheels/*/manifest; do
		[ -f "$m" ] && printf '%s %s\n' "$(sed -n 's/^cell=//p' "$m")" "$(sed -n 's/^origin=//p' "$m")"
	done | sort
}
# plan DIR: the cells matrix --missing lists, sorted
plan() {
	(cd "$1" && out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --missing 2>"$1.plan.err") | sort
}
lines() { printf '%s\n' "$@" | sed '/^$/d' | sort; }

pys="\"$py1\", \"$py2\""
t_case "two clones in different directories compute the same keys; every cell has one"
if clone a "$pys" one && clone b "$pys" one; then
	(cd "$WORK/a" && out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv) >"$WORK/keys.a"
	(cd "$WORK/b" && out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv) >"$WORK/keys.b"
	if cmp -s "$WORK/keys.a" "$WORK/keys.b" && [ "$(sed 1d "$WORK/keys.a" | cut -f7 | grep -cE '^[0-9a-f]{64}$')" -eq 4 ] &&
		[ "$(cut -f7 "$WORK/keys.a" | sort -u | wc -l)" -eq 5 ]; then
		t_pass
	else
		t_fail "$(diff "$WORK/keys.a" "$WORK/keys.b")" "$(cat "$WORK/keys.a")"
	fi
else
	t_fail "$(tail -n 20 "$WORK/a.configure.log" "$WORK/b.configure.log")"
	exit 0
fi

# keyof DIR CELL: the cell's key there
keyof() { (cd "$1" && out/wheelgen key --config fixture/packages.yml --host out/host.txt "$2") | cut -d' ' -f1; }
k0=$(keyof "$WORK/a" "$a1")
t_expect "each input changes the key: env, source file, patch, template, container image, git commit" '
	cd "$WORK/a"
	cp fixture/packages.yml "$WORK/cfg.saved"
	sed -i "s/FIXTURE_FLAVOR: \"one\"/FIXTURE_FLAVOR: \"two\"/" fixture/packages.yml
	[ "$(keyof . "$a1")" != "$k0" ]
	cp "$WORK/cfg.saved" fixture/packages.yml
	[ "$(keyof . "$a1")" = "$k0" ]
	echo "/* a comment */" >>fixture/alpha/alpha/_c.c
	[ "$(keyof . "$a1")" != "$k0" ]
	cp "$proto/fixture/alpha/alpha/_c.c" fixture/alpha/alpha/_c.c
	mkdir -p fixture/alpha/build
	echo junk >fixture/alpha/build/x.o
	[ "$(keyof . "$a1")" = "$k0" ] # a build product is not a source
	printf "%s\n" "--- a/setup.py" "+++ b/setup.py" "@@ -1 +1 @@" "-import os" "+import os  # one" >"$WORK/p.diff"
	sed -i "s|test_import: alpha|test_import: alpha\n    patches: [\"$WORK/p.diff\"]|" fixture/packages.yml
	kp=$(keyof . "$a1"); [ "$kp" != "$k0" ]
	sed -i "s/# one/# two/" "$WORK/p.diff"
	[ "$(keyof . "$a1")" != "$kp" ]
	cp "$WORK/cfg.saved" fixture/packages.yml
	echo "# a comment" >>templates/test-host.sh
	[ "$(keyof . "$a1")" != "$k0" ]
	cp "$proto/templates/test-host.sh" templates/test-host.sh
	[ "$(keyof . "$a1")" = "$k0" ]
	sed "s/^backend .*/backend podman/" out/host.txt >"$WORK/host.container"
	out/wheelgen key --config fixture/packages.yml --host "$WORK/host.container" --explain "$a1" | grep -q "^WG_IMAGE=.quay.io/pypa/manylinux"
	[ "$(out/wheelgen key --config fixture/packages.yml --host "$WORK/host.container" "$a1" | cut -d" " -f1)" != "$k0" ]
	out/wheelgen key --config fixture/packages.yml --explain "$a1" | grep -q "^wheelgen cell key, format 1$"
	# a git source: the lock file pins the commit
	printf "%s\n" "defaults: {python: [\"$py1\"]}" "packages:" "  g:" "    source: {git: \"http://127.0.0.1:9/g.git\"}" "    versions: [\"1.0\"]" >fixture/git.yml
	! out/wheelgen key --config fixture/git.yml "g-1.0-py$(nd "$py1")" 2>"$WORK/git.err" || exit 1
	grep -q "not known yet" "$WORK/git.err"
	echo "g 1.0 1111111111111111111111111111111111111111" >fixture/git.lock
	k1=$(out/wheelgen key --config fixture/git.yml "g-1.0-py$(nd "$py1")" | cut -d" " -f1)
	echo "g 1.0 2222222222222222222222222222222222222222" >fixture/git.lock
	k2=$(out/wheelgen key --config fixture/git.yml "g-1.0-py$(nd "$py1")" | cut -d" " -f1)
	[ -n "$k1" ]
	[ -n "$k2" ]
	[ "$k1" != "$k2" ]
	rm -rf fixture/alpha/build fixture/git.yml fixture/git.lock
'

t_expect "runner A (empty out/, empty store) plans every cell, builds, tests and publishes them" '
	cd "$WORK/a"
	[ "$(plan "$WORK/a")" = "$(lines "$a1" "$a2" "$b1" "$b2")" ]
	grep -q "store directory .* is missing: every cell counts as missing" "$WORK/a.plan.err"
	ninja >"$WORK/a.ninja.log" 2>&1
	ninja publish >>"$WORK/a.ninja.log" 2>&1
	[ "$(origins .)" = "$(lines "$a1 build" "$a2 build" "$b1 build" "$b2 build")" ]
	for c in "$a1" "$a2" "$b1" "$b2"; do
		grep -q "^key=$(keyof . "$c")\$" "$store/$c.manifest"
		grep -q "^tested=$(sed -n "s/^sha256=//p" "out/wheels/$c/manifest")\$" "$store/$c.manifest"
	done
'

t_case "runner B (another fresh clone): plans 0 cells, builds 0 wheels (origin=store), tests 0, the same simple/ byte for byte"
start=$(date +%s)
(cd "$WORK/b" && ninja) >"$WORK/b.ninja.log" 2>&1 || true
secs=$(($(date +%s) - start))
if [ -z "$(plan "$WORK/b")" ] && [ "$(origins "$WORK/b")" = "$(lines "$a1 store" "$a2 store" "$b1 store" "$b2 store")" ] &&
	! find "$WORK/b/out/logs" -name '*.build.log' -o -name '*.test.log' 2>/dev/null | grep -q . &&
	[ "$(grep -c 'passed before it was published' "$WORK/b.ninja.log")" -eq 4 ] &&
	diff -r "$WORK/a/out/index/simple" "$WORK/b/out/index/simple" >"$WORK/ab.diff"; then
	t_pass
	echo "# runner B restored and indexed 4 cells in ${secs}s"
else
	t_fail "$(cat "$WORK/b.plan.err")" "$(origins "$WORK/b")" "$(head -n 20 "$WORK/ab.diff")" "$(tail -n 15 "$WORK/b.ninja.log")"
fi

# change CHANGE-TITLE CONFIG-ARGS... EXPECTED-CELLS...: in B, with the new config, the plan and the
# cells built are exactly the expected ones; then publish them
change() {
	title=$1 want=$2
	shift 2
	t_case "$title: the plan and the build are exactly $(echo "$want" | tr ' ' ',')"
	writeconfig "$WORK/b" "$@"
	got_plan=$(plan "$WORK/b")
	(cd "$WORK/b" && ninja && ninja publish) >"$WORK/b.change.log" 2>&1 || true
	# shellcheck disable=SC2086
	built=$(origins "$WORK/b" | awk '$2 == "build" {print $1}')
	# shellcheck disable=SC2086
	if [ "$got_plan" = "$(lines $want)" ] && [ "$built" = "$(lines $want)" ]; then
		t_pass
	else
		t_fail "plan: $got_plan" "built: $built" "$(tail -n 10 "$WORK/b.change.log")"
	fi
	# the next change starts from cells that all came from the store
	(cd "$WORK/b" && rm -rf out/wheels out/tests && ninja) >/dev/null 2>&1 || true
}
change "an env change of one package" "$a1 $a2" "$pys" two
change "a new Python" "$a3 $b3" "\"$py1\", \"$py2\", \"$py3\"" two
change "a new package" "$g1 $g2" "$pys" two "$gamma"

t_expect "a third clone: ninja merge-index indexes every stored cell of the config, building nothing" '
	clone c "$pys" two "$gamma"
	cd "$WORK/c"
	ninja merge-index >"$WORK/c.merge.log" 2>&1
	grep -q "6 cells of the config restored" "$WORK/c.merge.log"
	for p in alpha beta gamma; do
		[ "$(grep -c "\.whl#sha256=" "out/index/simple/$p/index.html")" -eq 2 ]
	done
	[ ! -d out/wheels ]
'

t_expect "with index.base_url at the store, merge-index reads manifests only (no wheel downloaded) and the pages link the store" '
	clone e "$pys" two "$gamma
index: {base_url: \"https://wheels.example.org/store/\"}"
	cd "$WORK/e"
	ninja merge-index >"$WORK/e.merge.log" 2>&1
	grep -q "6 cells of the config restored (manifests only: the pages link the store)" "$WORK/e.merge.log"
	[ -z "$(find out/store -name "*.whl")" ]
	[ ! -d out/index/files ]
	grep -q "href=\"https://wheels.example.org/store/blobs/[0-9a-f]\{64\}/alpha-1.0-" out/index/simple/alpha/index.html
'

t_expect "WHEELGEN_RETEST=1 tests a restored cell again" '
	cd "$WORK/c"
	ninja "wheel/$b1" >/dev/null
	WHEELGEN_RETEST=1 ninja "test/$b1" >"$WORK/retest.log" 2>&1
	[ -f "out/logs/$b1.test.log" ]
	! grep -q "passed before it was published" "$WORK/retest.log" || exit 1
'

# bad stores: each a warning naming it; the cell builds; nothing lost
t_expect "a store entry whose wheel has a wrong hash: a warning names it, the cell builds, the store keeps its other entries" '
	clone d "$pys" two "$gamma"
	cd "$WORK/d"
	f=$(sed -n "s/^stored=//p" "$store/$b1.manifest")
	cp "$store/$f" "$WORK/good.whl"
	printf x >>"$store/$f"
	ninja "wheel/$b1" >"$WORK/d.log" 2>&1
	cp "$WORK/good.whl" "$store/$f"
	grep -q "warning: store entry of $b1: .*$f has sha256 .*, its manifest says" "$WORK/d.log"
	# (the damage reaches the next plan: the entry is taken out)
	grep -q "took the damaged entry $store/$b1.manifest out of the store" "$WORK/d.log"
	mv "$store/$b1.manifest.damaged" "$store/$b1.manifest"
	grep -q "^origin=build$" "out/wheels/$b1/manifest"
	ninja "wheel/$b2" >/dev/null 2>&1
	grep -q "^origin=store$" "out/wheels/$b2/manifest"
'
t_expect "a store manifest without a key: a warning, the cell builds" '
	cd "$WORK/d"
	cp "$store/$b2.manifest" "$WORK/b2.manifest"
	grep -v "^key=" "$WORK/b2.manifest" >"$store/$b2.manifest"
	rm -rf "out/wheels/$b2"
	ninja "wheel/$b2" >"$WORK/d2.log" 2>&1
	cp "$WORK/b2.manifest" "$store/$b2.manifest"
	grep -q "warning: .*$b2.manifest has no key" "$WORK/d2.log" || grep -q "$b2.manifest has no key" "$WORK/d2.log"
	grep -q "^origin=build$" "out/wheels/$b2/manifest"
'
t_expect "a store URL that refuses connections, a store directory that does not exist: a warning naming it, the cell builds" '
	cd "$WORK/d"
	port=$(t_freeport)
	rm -rf "out/wheels/$g1" "out/wheels/$g2"
	WHEELGEN_STORE=http://127.0.0.1:$port/store/ ninja "wheel/$g1" >"$WORK/d3.log" 2>&1
	grep -q "warning: the store could not be read: GET http://127.0.0.1:$port/store/$g1.manifest: curl: (7)" "$WORK/d3.log"
	grep -q "^origin=build$" "out/wheels/$g1/manifest"
	WHEELGEN_STORE=$WORK/no/such/dir ninja "wheel/$g2" >"$WORK/d4.log" 2>&1
	grep -q "warning: the store could not be read: the store directory .$WORK/no/such/dir/. is missing" "$WORK/d4.log"
	grep -q "^origin=build$" "out/wheels/$g2/manifest"
'

t_expect "store --unused lists the entries no cell keys (a dropped package, a changed one); --delete removes them and keeps the rest" '
	cd "$WORK/d"
	writeconfig . "$pys" three
	out/wheelgen store --unused --config fixture/packages.yml --host out/host.txt >"$WORK/unused" 2>"$WORK/unused.err"
	[ "$(cut -f1 "$WORK/unused" | sort)" = "$(lines "$a1.manifest" "$a2.manifest" "$a3.manifest" "$b3.manifest" "$g1.manifest" "$g2.manifest")" ]
	fa=$(sed -n "s/^stored=//p" "$store/$a1.manifest")
	out/wheelgen store --unused --delete --config fixture/packages.yml --host out/host.txt >"$WORK/deleted" 2>&1
	[ ! -e "$store/$a1.manifest" ]
	[ ! -e "$store/$fa" ]
	[ ! -e "$store/$fa.metadata" ]
	[ -e "$store/$b1.manifest" ]
	[ -e "$store/$(sed -n "s/^stored=//p" "$store/$b1.manifest")" ]
	[ -z "$(out/wheelgen store --unused --config fixture/packages.yml --host out/host.txt 2>/dev/null)" ]
'

t_expect "two publishers of one key at once leave one consistent entry (the wheel under blobs/<sha256>/, the manifest last, each file through a temporary)" '
	rm -rf "$store"
	cd "$WORK/a" && writeconfig . "$pys" one && rm -rf out/wheels out/tests out/publish && ninja "test/$b1" >/dev/null 2>&1
	cd "$WORK/b" && writeconfig . "$pys" one && rm -rf out/wheels out/tests out/publish && ninja "test/$b1" >/dev/null 2>&1
	for i in 1 2 3 4 5; do
		(cd "$WORK/a" && sh templates/publish.sh out "$b1") >/dev/null 2>&1 &
		(cd "$WORK/b" && sh templates/publish.sh out "$b1") >/dev/null 2>&1
		wait
	done
	[ -z "$(find "$store" -name "*.tmp.*")" ]
	f=$(sed -n "s/^stored=//p" "$store/$b1.manifest")
	[ "$(sed -n "s/^sha256=//p" "$store/$b1.manifest")" = "$(sha256sum "$store/$f" | cut -d" " -f1)" ]
	cd "$WORK/c" && writeconfig . "$pys" one && rm -rf out/wheels && ninja "wheel/$b1" >/dev/null 2>&1
	grep -q "^origin=store$" "out/wheels/$b1/manifest"
'

# the same CI simulation against an HTTP store: nginx with WebDAV PUT and a directory listing
t_case "an HTTP store (nginx WebDAV on 127.0.0.1): A publishes, B restores every cell and writes the same simple/"
hd=$WORK/nginx
hport=$(t_freeport)
mkdir -p "$hd/root/wheels"
stop_exit() {
	st=$?
	set +e
	[ -f "$hd/nginx.pid" ] && kill "$(cat "$hd/nginx.pid")" 2>/dev/null
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
url=http://127.0.0.1:$hport/wheels/
if ! t_nginx_dav "$hd" "$hport" "autoindex on;" >"$hd/start.err"; then
	t_fail "$(cat "$hd/start.err")"
	exit 0
fi
for r in a b; do
	writeconfig "$WORK/$r" "$pys" one "" "{http: \"$url\"}"
	rm -rf "$WORK/$r/out/wheels" "$WORK/$r/out/tests" "$WORK/$r/out/publish" "$WORK/$r/out/index"
done
if (cd "$WORK/a" && ninja && ninja publish) >"$WORK/ha.log" 2>&1 && [ -z "$(plan "$WORK/b")" ] &&
	(cd "$WORK/b" && ninja) >"$WORK/hb.log" 2>&1 &&
	[ "$(origins "$WORK/b")" = "$(lines "$a1 store" "$a2 store" "$b1 store" "$b2 store")" ] &&
	grep -q "GET /wheels/$a1.manifest HTTP/1.1\" 200 " "$hd/logs/access.log" &&
	diff -r "$WORK/a/out/index/simple" "$WORK/b/out/index/simple" >"$WORK/hab.diff"; then
	t_pass
else
	t_fail "$(tail -n 10 "$WORK/ha.log" "$WORK/hb.log")" "$(cat "$WORK/b.plan.err")" "$(origins "$WORK/b")"
fi

t_expect "the HTTP store: --unused reads its listing, --delete removes with DELETE" '
	cd "$WORK/b"
	writeconfig . "\"$py1\"" one "" "{http: \"$url\"}"
	out/wheelgen store --unused --delete --config fixture/packages.yml --host out/host.txt >"$WORK/hdel" 2>&1
	grep -q "^$a2.manifest	" "$WORK/hdel"
	grep -q "^$b2.manifest	" "$WORK/hdel"
	[ ! -e "$hd/root/wheels/$a2.manifest" ]
	[ -e "$hd/root/wheels/$a1.manifest" ]
	grep -q "\"DELETE /wheels/$a2.manifest HTTP/1.1\" 204 " "$hd/logs/access.log"
'
