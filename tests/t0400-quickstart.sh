#!/bin/sh
# the quickstart end to end: one import-tested wheel per local Python, manifests that match
# the wheels, an index pip installs from, publishing only when asked
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure the quickstart"
if t_configure "$src" --config examples/quickstart/packages.yml; then t_pass; else t_fail "$(cat "$src.configure.log")"; exit 0; fi
cd "$src"

t_case "ninja builds, tests and indexes the quickstart"
if ninja >"$WORK/ninja.log" 2>&1; then t_pass; else t_fail "$(tail -n 40 "$WORK/ninja.log")"; fi

pys=$(sed -n 's/^python \([0-9.t]*\) .*/\1/p' out/host.txt)
t_case "one import-tested wheel per local Python (at least 2)"
n=0 bad=
for py in $pys; do
	cell=wgquickstart-0.1.0-py$(echo "$py" | tr -d .)
	if [ -f "out/wheels/$cell/manifest" ] && [ -f "out/tests/$cell.ok" ]; then n=$((n + 1)); else bad="$bad $cell"; fi
done
if [ -z "$bad" ] && [ "$n" -ge 2 ]; then t_pass; else t_fail "missing:$bad (built $n)"; fi

t_case "each manifest names its wheel with the right sha256, size and tags"
bad=
for m in out/wheels/*/manifest; do
	d=$(dirname "$m")
	f=$(sed -n 's/^filename=//p' "$m")
	sha=$(sed -n 's/^sha256=//p' "$m")
	size=$(sed -n 's/^size=//p' "$m")
	tags=$(sed -n 's/^tags=//p' "$m")
	[ -f "$d/$f" ] || { bad="$bad $m:nofile"; continue; }
	[ "$(sha256sum "$d/$f" | cut -d' ' -f1)" = "$sha" ] || bad="$bad $m:sha256"
	[ "$(wc -c <"$d/$f" | tr -d ' ')" = "$size" ] || bad="$bad $m:size"
	case $f in *"-$tags.whl") ;; *) bad="$bad $m:tags" ;; esac
	[ "$(find "$d" -name '*.whl' | wc -l)" -eq 1 ] || bad="$bad $m:count"
done
if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "every wheel is tagged manylinux_2_X_x86_64 (auditwheel repaired it), and auditwheel agrees (what auditwheel show finds, with the repair's CUDA and torch exclusions)" '
	ls out/wheels/*/*.whl >"$WORK/whls"
	[ "$(wc -l <"$WORK/whls")" -ge 2 ]
	t_auditwheel_agrees $(cat "$WORK/whls") >"$WORK/aw.log" || { cat "$WORK/aw.log"; exit 1; }
	[ "$(grep -c "^wgquickstart-0.1.0-cp[0-9]*-cp[0-9]*m\{0,1\}-manylinux_2_[0-9]*_x86_64.whl: tagged " "$WORK/aw.log")" = "$(wc -l <"$WORK/whls")" ]
'

t_case "each build used uv build where uv made its venv (Python >= 3.8), pip wheel elsewhere"
uvhere=$(sed -n 's/^uv //p' out/host.txt)
bad='' uvcell=''
for py in $pys; do
	cell=wgquickstart-0.1.0-py$(echo "$py" | tr -d .)
	case $uvhere:$py in
		:* | *:3.6 | *:3.7) want='pip wheel' ;;
		*) want='uv build' uvcell=$cell ;;
	esac
	grep -qx "wheelgen: building with $want" "out/logs/$cell.build.log" || bad="$bad $cell(not $want)"
done
if [ -z "$uvhere" ]; then
	t_fail "configure found no uv (tests/run.sh --install-deps puts it in out/tools)"
elif [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi

t_case "uv asks the indexes at most once a day; then venvs and uv build fill from its cache; a day-old stamp, WHEELGEN_UV_REFRESH=1 or a cache that lacks a package ask again"
uvcache=${UV_CACHE_DIR:-$src/out/cache/uv}
stampname=wheelgen-index-checked.$(printf default | cksum | cut -d' ' -f1)
# the build step's uv lines: "offline" when every one read only the cache, "online" when none did
uvmode() {
	n=$(grep -c '^+ .*/uv \(venv\|pip install\|build\) ' "out/logs/$uvcell.build.log" || true)
	o=$(grep -c '^+ .*/uv \(venv\|pip install\|build\) .* --offline$' "out/logs/$uvcell.build.log" || true)
	if [ "$n" -ge 2 ] && [ "$o" = "$n" ]; then echo offline; elif [ "$n" -ge 2 ] && [ "$o" = 0 ]; then echo online; else echo "mixed ($o of $n offline)"; fi
}
if [ -z "$uvcell" ]; then
	t_fail "no cell was built with uv"
elif [ -z "$(find "$uvcache/$stampname" -mmin -1440 2>/dev/null)" ]; then
	t_fail "no fresh stamp $uvcache/$stampname after the builds"
else
	why=
	sh templates/build-host.sh out "$uvcell" 2>>"$WORK/uvmode.err" || why="$why build1"
	m1=$(uvmode)
	# the trials that ask the index use a cache of their own: an answer of the index can unpack a
	# wheel anew, and the suite's cache keeps what it unpacked (tests/warm-bytecode.py)
	# a fresh stamp over an empty cache: the offline try fails, the index serves
	mkdir -p "$WORK/uvc" && : >"$WORK/uvc/$stampname"
	UV_CACHE_DIR=$WORK/uvc sh templates/build-host.sh out "$uvcell" 2>>"$WORK/uvmode.err" || why="$why build2"
	grep -q "^wheelgen: note: that did not work from uv's cache alone (--offline); asking the index$" "out/logs/$uvcell.build.log" || why="$why no-note"
	touch -d '2 days ago' "$WORK/uvc/$stampname"
	UV_CACHE_DIR=$WORK/uvc sh templates/build-host.sh out "$uvcell" 2>>"$WORK/uvmode.err" || why="$why build3"
	m3=$(uvmode)
	[ -n "$(find "$WORK/uvc/$stampname" -mmin -5)" ] || why="$why stamp-not-renewed"
	UV_CACHE_DIR=$WORK/uvc WHEELGEN_UV_REFRESH=1 sh templates/build-host.sh out "$uvcell" 2>>"$WORK/uvmode.err" || why="$why build4"
	m4=$(uvmode)
	if [ -z "$why" ] && [ "$m1" = offline ] && [ "$m3" = online ] && [ "$m4" = online ]; then
		t_pass
	else
		t_fail "fresh stamp: $m1, day-old stamp: $m3, WHEELGEN_UV_REFRESH=1: $m4;$why" "$(cat "$WORK/uvmode.err")"
	fi
fi

# shellcheck disable=SC2016
t_expect "an isolated uv build makes a bare venv (no pip seeded, no setuptools or wheel installed: its build environment has its own); a build with --no-build-isolation gets them" '
	[ -n "$uvcell" ]
	log=out/logs/$uvcell.build.log
	grep "^+ .*/uv venv .*--python " "$log"
	! grep "^+ .*/uv venv .*--seed" "$log" || exit 1
	! grep "^+ .*/uv pip install " "$log" || exit 1
	grep -q "^wheelgen: building with uv build$" "$log"
	# (the spec put back as it was, its time too, and the cell built again from it: ninja sees
	# nothing new)
	cp -p out/cells/$uvcell/spec "$WORK/spec.saved"
	echo "wg_arg --no-build-isolation" >>out/cells/$uvcell/spec
	rc=0
	sh templates/build-host.sh out "$uvcell" >"$WORK/iso.log" 2>&1 || rc=$?
	cp -p "$WORK/spec.saved" out/cells/$uvcell/spec
	cp "$log" "$WORK/iso.build.log"
	sh templates/build-host.sh out "$uvcell" >"$WORK/again.log" 2>&1
	[ "$rc" = 0 ] || { tail -n 20 "$WORK/iso.build.log"; exit 1; }
	grep "^+ .*/uv venv .*--seed" "$WORK/iso.build.log"
	grep "^+ .*/uv pip install .*--upgrade wheel setuptools" "$WORK/iso.build.log"
'

t_case "the index lists every wheel with a matching #sha256 and its escaped data-requires-python"
bad=
for m in out/wheels/*/manifest; do
	f=$(sed -n 's/^filename=//p' "$m")
	sha=$(sed -n 's/^sha256=//p' "$m")
	# python_requires=">=3.6" arrives HTML-escaped (PEP 503)
	grep -q "href=\"../../files/$f#sha256=$sha\" data-requires-python=\"&gt;=3.6\"" out/index/simple/wgquickstart/index.html || bad="$bad $f"
	cmp -s "out/index/files/$f" "$(dirname "$m")/$f" || bad="$bad files/$f"
done
grep -q 'href="wgquickstart/"' out/index/simple/index.html || bad="$bad root-page"
if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi

newest=$(sed -n 's/^python [0-9.t]* //p' out/host.txt | tail -n 1)
t_venv "$WORK/venv" "$newest"
# shellcheck disable=SC2016
t_expect "the index's finder, in a fresh venv, prints the command that installs the quickstart from the generated index (as the README shows it); run as printed, it installs it, and it works" '
	env PATH="$WORK/venv/bin:$PATH" python3 out/index/find.py wgquickstart >"$WORK/find.out"
	cat "$WORK/find.out"
	cmd=$(sed -n "s/^  \(python3 -m pip install .*\)/\1/p" "$WORK/find.out")
	[ "$cmd" = "python3 -m pip install --index-url file://$src/out/index/simple/ wgquickstart==0.1.0" ]
	(PATH=$WORK/venv/bin:$PATH && export PATH && cd "$WORK" && eval "$cmd")
	(cd / && "$WORK/venv/bin/python" -c "import wgquickstart; assert wgquickstart.fib(10) == 55")
'

t_case "publish is not part of the default target"
t_check test ! -e out/publish

t_case "publish without a destination fails and says why"
cell=$(out/wheelgen matrix --config examples/quickstart/packages.yml --host out/host.txt --tsv | awk -F'\t' 'NR == 2 {print $1}')
if ninja "publish/$cell" >"$WORK/pub.log" 2>&1; then t_fail "publish succeeded"; else
	if grep -q "cannot publish $cell: the config's 'publish:' names no destination for wheels" "$WORK/pub.log"; then t_pass; else t_fail "$(cat "$WORK/pub.log")"; fi
fi

t_case "with publish.dir set, the default build runs only the regeneration"
printf 'publish: {dir: "%s"}\n' "$WORK/published" >>examples/quickstart/packages.yml
t_ninja_ran "$WORK/ran" || true
if [ "$(cat "$WORK/ran")" = "REGEN examples/quickstart/packages.yml" ]; then
	t_pass
else
	t_fail "ran: $(cat "$WORK/ran")" "$(tail -n 20 "$WORK/ran.raw")"
fi

t_case "ninja publish copies every tested wheel and its manifest"
if ninja publish >"$WORK/pub.log" 2>&1; then
	nw=$(find "$WORK/published" -name '*.whl' | wc -l)
	nm=$(find "$WORK/published" -name '*.manifest' | wc -l)
	nc=$(find out/wheels -name manifest | wc -l)
	if [ "$nw" -eq "$nc" ] && [ "$nm" -eq "$nc" ]; then t_pass; else t_fail "published $nw wheels, $nm manifests for $nc cells"; fi
else
	t_fail "$(tail -n 20 "$WORK/pub.log")"
fi

# freshclone NAME STORE: a fresh clone of the quickstart reading STORE; it plans, then builds
freshclone() {
	t_configure "$WORK/$1" --config examples/quickstart/packages.yml &&
		(cd "$WORK/$1" && WHEELGEN_STORE=$2 out/wheelgen matrix --missing >"$WORK/$1.plan" 2>"$WORK/$1.plan.err" &&
			WHEELGEN_STORE=$2 t_ninja_ran "$WORK/$1.ran")
}
# restoredall NAME: the fresh clone planned none of this host's Pythons' cells (the config's others,
# 3.14 and 3.15, no host published), built and tested nothing, and indexes every Python's wheel
restoredall() {
	# (the wheel and test edges run, restoring: no step logs a build or a test)
	[ -z "$(find "$WORK/$1/out/logs" -name "*.build.log" -o -name "*.test.log" 2>/dev/null)" ] || { echo "built or tested: $(ls "$WORK/$1/out/logs")"; return 1; }
	for py in $pys; do
		cell=wgquickstart-0.1.0-py$(echo "$py" | tr -d .)
		! grep -qx "$cell" "$WORK/$1.plan" || { echo "$cell: planned: $(cat "$WORK/$1.plan.err")"; return 1; }
		grep -q "^origin=store$" "$WORK/$1/out/wheels/$cell/manifest" || { echo "$cell: not restored"; return 1; }
		f=$(sed -n 's/^filename=//p' "$WORK/$1/out/wheels/$cell/manifest")
		grep -q "href=\"../../files/$f#sha256=" "$WORK/$1/out/index/simple/wgquickstart/index.html" || { echo "$cell: not indexed"; return 1; }
	done
}
# shellcheck disable=SC2016 # (the case is a single-quoted script, as t_expect takes it)
t_expect "every Python's cell ($(echo "$pys" | tr " " ,)) in the directory store: a fresh clone plans 0 missing, restores each, builds none, and indexes them all" '
	freshclone fresh "$WORK/published"
	restoredall fresh
'
# shellcheck disable=SC2016
t_expect "the same store over HTTP (nginx on 127.0.0.1): a fresh clone plans 0 missing, restores each, builds none, and indexes them all" '
	t_nginx_dav "$WORK/ngx" "$(t_freeport)" "autoindex on;" >"$WORK/ngx.err"
	port=$(sed -n "s/.*listen 127.0.0.1:\([0-9]*\);/\1/p" "$WORK/ngx/nginx.conf")
	cp -R "$WORK/published" "$WORK/ngx/root/s"
	st=0
	freshclone freshhttp "http://127.0.0.1:$port/s/" || st=$?
	kill "$(cat "$WORK/ngx/nginx.pid")"
	[ "$st" = 0 ] || exit "$st"
	restoredall freshhttp
	grep -q "\"GET /s/ HTTP/1.1\" 200" "$WORK/ngx/logs/access.log"
'

t_case "publish.github, dry run: each wheel, its .metadata and its manifest would go to the release; the token never shows; no mark is lost"
sed -i 's|^publish: {dir: \(.*\)}$|publish: {dir: \1, github: {repo: example/wheels, tag: wheels-test}}|' examples/quickstart/packages.yml
if GH_TOKEN=ghp_t0400secret WG_PUBLISH_DRY_RUN=1 ninja publish >"$WORK/gh.log" 2>&1; then
	ups=$(grep -c 'dry-run: POST https://uploads.github.com/repos/example/wheels/releases/.*/assets?name=' "$WORK/gh.log" || true)
	done=$(find out/publish -name '*.done' | wc -l)
	if [ "$ups" -eq $((3 * nc)) ] && [ "$(grep -c 'assets?name=wgquickstart-0.1.0-py[0-9]*\.manifest ' "$WORK/gh.log")" -eq "$nc" ] &&
		[ "$done" -eq "$nc" ] && ! grep -q ghp_t0400secret "$WORK/gh.log" &&
		grep -q 'dry-run: GET https://api.github.com/repos/example/wheels/releases/tags/wheels-test' "$WORK/gh.log"; then
		t_pass
	else
		t_fail "$ups uploads for $nc cells, $done marks" "$(tail -n 12 "$WORK/gh.log")"
	fi
else
	t_fail "$(tail -n 20 "$WORK/gh.log")"
fi

t_case "ninja merge-index indexes wheels built elsewhere (CI artifacts in out/wheels/<cell>/) and builds nothing"
ci=$WORK/ci
if t_configure "$ci" --config examples/quickstart/packages.yml && (cd "$ci" && ninja build.ninja) >"$WORK/ci.log" 2>&1; then
	mkdir -p "$ci/out/wheels"
	cp -R out/wheels/. "$ci/out/wheels/"
	(cd "$ci" && t_ninja_ran "$WORK/merged" merge-index) || true
	links=$(grep -c '<a href' "$ci/out/index/simple/wgquickstart/index.html" 2>/dev/null || true)
	if [ "$(cat "$WORK/merged")" = "MERGE-INDEX out/index" ] && [ "$links" = "$nc" ]; then
		t_pass
	else
		t_fail "ran: $(cat "$WORK/merged")" "$links links for $nc wheels" "$(tail -n 10 "$WORK/merged.raw")"
	fi
else
	t_fail "$(tail -n 20 "$ci.configure.log" "$WORK/ci.log")"
fi

t_case "publish.index_dir: ninja publish-index copies the index; a page that is gone from out/index goes from the copy too"
sed -i "s|tag: wheels-test}}\$|tag: wheels-test}, index_dir: \"$WORK/www\"}|" examples/quickstart/packages.yml
mkdir -p "$WORK/www/simple/gone"
echo stale >"$WORK/www/simple/gone/index.html"
if ninja publish-index >"$WORK/pi.log" 2>&1 && diff -r out/index "$WORK/www" >"$WORK/pi.diff" 2>&1; then
	t_pass
else
	t_fail "$(tail -n 10 "$WORK/pi.log")" "$(head -n 10 "$WORK/pi.diff")"
fi

# (the last case: the other cells would rebuild after going back to uv)
t_case "build_frontend: pip rebuilds a uv-built cell with pip wheel, to the same wheel bytes"
if [ -n "$uvcell" ]; then
	f=$(sed -n 's/^filename=//p' "out/wheels/$uvcell/manifest")
	cp "out/wheels/$uvcell/$f" "$WORK/uv.whl"
	sed -i 's/^    test_import: wgquickstart$/    build_frontend: pip\n&/' examples/quickstart/packages.yml
	if ! ninja "wheel/$uvcell" >"$WORK/pipfe.log" 2>&1; then
		t_fail "$(tail -n 20 "$WORK/pipfe.log")"
	elif ! grep -qx "wheelgen: building with pip wheel" "out/logs/$uvcell.build.log"; then
		t_fail "the log does not say pip wheel: $(grep 'building with' "out/logs/$uvcell.build.log")"
	else
		t_cmp "$WORK/uv.whl" "out/wheels/$uvcell/$f"
	fi
else
	t_fail "no cell was built with uv"
fi
