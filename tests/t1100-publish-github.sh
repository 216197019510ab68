#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086 # t_expect cases are single-quoted scripts; $ghenv splits
# templates/publish-github.sh, the GitHub release publisher: the requests --dry-run would make
# (with canned answers for the release's GET: the skip, mismatch and replace decisions), the
# errors (no token, usage, an unreachable API, after retrying), a real run against a stand-in
# API on 127.0.0.1 (python3), and that the token never shows in any output, traces included
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

pg=$top/templates/publish-github.sh
token=ghp_secretvalue123
all=$WORK/all-output # every output of every run, searched for the token at the end
: >"$all"
mkdir -p "$WORK/files"
whl=$WORK/files/pkg-1.0+cu128-cp312-cp312-linux_x86_64.whl
meta=$whl.metadata
printf 'wheel bytes\n' >"$whl"
printf 'Metadata-Version: 2.1\nName: pkg\n' >"$meta"
wname=${whl##*/}
wenc=pkg-1.0%2Bcu128-cp312-cp312-linux_x86_64.whl
wsha=$(sha256sum "$whl" | cut -d' ' -f1)
msha=$(sha256sum "$meta" | cut -d' ' -f1)
wsize=$(wc -c <"$whl" | tr -d ' ')
msize=$(wc -c <"$meta" | tr -d ' ')
api=https://api.github.com/repos/o/r
dr='wheelgen: github: dry-run:'

# pg OUT [args...]: run the publisher with the token set; stdout in OUT, stderr in OUT.err;
# returns its status
pg() {
	o=$1
	shift
	set +e
	GH_TOKEN=$token "$@" >"$o" 2>"$o.err"
	rc=$?
	set -e
	cat "$o" "$o.err" >>"$all"
	return $rc
}

# a canned release (id 7) whose assets are the arguments NAME=DIGEST ("-": no digest field)
canned() {
	mkdir -p "$WORK/canned"
	python3 -c '
import json, sys
assets = []
for i, a in enumerate(sys.argv[1:]):
    name, digest = a.split("=", 1)
    asset = {"id": 100 + i, "name": name, "state": "uploaded"}
    if digest != "-":
        asset["digest"] = digest
    assets.append(asset)
print(json.dumps({"id": 7, "tag_name": "v1",
                  "upload_url": "https://uploads.github.com/repos/o/r/releases/7/assets{?name,label}",
                  "assets": assets}))
' "$@" >"$WORK/canned/release.json"
}

t_case "dry-run, no release: GET, the release's creation, one upload per file (names, sizes, sha256)"
cat >"$WORK/want1" <<EOF
$dr GET $api/releases/tags/v1
$dr POST $api/releases {"tag_name": "v1", "name": "v1"}
$dr POST https://uploads.github.com/repos/o/r/releases/<id>/assets?name=$wenc ($wsize bytes, sha256 $wsha)
$dr POST https://uploads.github.com/repos/o/r/releases/<id>/assets?name=$wenc.metadata ($msize bytes, sha256 $msha)
EOF
if pg "$WORK/out1" env -u WG_GITHUB_DRYRUN_DIR sh "$pg" --dry-run o/r v1 "$whl" "$meta"; then
	t_cmp "$WORK/want1" "$WORK/out1"
else
	t_fail "exit status $rc" "$(cat "$WORK/out1.err")"
fi

t_case "dry-run needs no token and makes no request (curl is not even on PATH)"
mkdir -p "$WORK/nocurl"
for c in python3 sha256sum cut wc tr sed awk mktemp rm cp chmod cat tail od; do
	ln -sf "$(command -v "$c")" "$WORK/nocurl/$c"
done
# the interpreter itself, not a wrapper script (pyenv's shims need bash)
ln -sf "$(python3 -c 'import sys; print(sys.executable)')" "$WORK/nocurl/python3"
shell=$(command -v sh)
if out=$(env -u GH_TOKEN -u GITHUB_TOKEN PATH="$WORK/nocurl" "$shell" "$pg" --dry-run o/r v1 "$whl" "$meta" 2>&1) &&
	[ "$out" = "$(cat "$WORK/want1")" ]; then
	t_pass
else
	t_fail "$out"
fi

t_case "dry-run, the release has the file with the same sha256: skipped, no upload"
canned "$wname=sha256:$wsha"
cat >"$WORK/want2" <<EOF
$dr GET $api/releases/tags/v1
wheelgen: github: $wname already in o/r v1 (same sha256), skipped
$dr POST https://uploads.github.com/repos/o/r/releases/7/assets?name=$wenc.metadata ($msize bytes, sha256 $msha)
EOF
if pg "$WORK/out2" env WG_GITHUB_DRYRUN_DIR="$WORK/canned" sh "$pg" --dry-run o/r v1 "$whl" "$meta"; then
	t_cmp "$WORK/want2" "$WORK/out2"
else
	t_fail "exit status $rc" "$(cat "$WORK/out2.err")"
fi

other=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
t_case "dry-run, the release has the file with another sha256: exit 1 naming both, nothing uploaded"
canned "$wname=sha256:$other"
if pg "$WORK/out3" env WG_GITHUB_DRYRUN_DIR="$WORK/canned" sh "$pg" --dry-run o/r v1 "$meta" "$whl"; then
	t_fail "exit status 0" "$(cat "$WORK/out3")"
elif [ "$rc" != 1 ]; then
	t_fail "exit status $rc, not 1" "$(cat "$WORK/out3.err")"
elif ! grep "$wname" "$WORK/out3.err" | grep "$other" | grep -q "$wsha"; then
	t_fail "no message naming the asset and both sha256:" "$(cat "$WORK/out3.err")"
elif grep -q 'POST' "$WORK/out3"; then
	t_fail "an upload despite the refusal:" "$(cat "$WORK/out3")"
else
	t_pass
fi

t_case "dry-run --replace, another sha256: DELETE the asset, then upload"
cat >"$WORK/want4" <<EOF
$dr GET $api/releases/tags/v1
$dr DELETE $api/releases/assets/100
$dr POST https://uploads.github.com/repos/o/r/releases/7/assets?name=$wenc ($wsize bytes, sha256 $wsha)
EOF
if pg "$WORK/out4" env WG_GITHUB_DRYRUN_DIR="$WORK/canned" sh "$pg" --dry-run --replace o/r v1 "$whl"; then
	t_cmp "$WORK/want4" "$WORK/out4"
else
	t_fail "exit status $rc" "$(cat "$WORK/out4.err")"
fi

t_case "dry-run, an asset of the same name without a digest is a mismatch"
canned "$wname=-"
if pg "$WORK/out5" env WG_GITHUB_DRYRUN_DIR="$WORK/canned" sh "$pg" --dry-run o/r v1 "$whl"; then
	t_fail "exit status 0" "$(cat "$WORK/out5")"
elif [ "$rc" = 1 ] && grep -q "$wname.*no sha256" "$WORK/out5.err" &&
	pg "$WORK/out5r" env WG_GITHUB_DRYRUN_DIR="$WORK/canned" sh "$pg" --dry-run --replace o/r v1 "$whl" &&
	grep -q "DELETE $api/releases/assets/100\$" "$WORK/out5r"; then
	t_pass
else
	t_fail "exit status $rc" "$(cat "$WORK/out5.err" "$WORK/out5r" "$WORK/out5r.err" 2>/dev/null)"
fi

t_case "no token and no --dry-run: a clear error, exit 1"
set +e
env -u GH_TOKEN -u GITHUB_TOKEN sh "$pg" o/r v1 "$whl" >"$WORK/out6" 2>&1
rc=$?
set -e
if [ "$rc" = 1 ] && grep -q 'no token: set GH_TOKEN or GITHUB_TOKEN' "$WORK/out6"; then
	t_pass
else
	t_fail "exit status $rc" "$(cat "$WORK/out6")"
fi

t_case "usage errors: exit 2 with the usage; -h prints it and succeeds"
ok=1
for args in "" "o/r v1" "--bogus o/r v1 $whl" "--retries x o/r v1 $whl" "--retries" "owner v1 $whl" "o/r/x v1 $whl"; do
	# shellcheck disable=SC2086 # the arguments, split
	if pg "$WORK/out7" sh "$pg" $args; then
		ok=0; echo "exit status 0 for: $args" >>"$WORK/out7.why"
	elif [ "$rc" != 2 ] || ! grep -q '^usage: ' "$WORK/out7.err"; then
		ok=0; echo "exit status $rc for: $args: $(cat "$WORK/out7.err")" >>"$WORK/out7.why"
	fi
done
if ! pg "$WORK/out7h" sh "$pg" --help || ! grep -q '^usage: ' "$WORK/out7h"; then
	ok=0; echo "--help: exit status $rc" >>"$WORK/out7.why"
fi
if [ "$ok" = 1 ]; then t_pass; else t_fail "$(cat "$WORK/out7.why")"; fi

t_case "an unreachable API: fails after the retries, clearly, within the time limit"
set +e
GH_TOKEN=$token GITHUB_API_URL=http://127.0.0.1:9 WG_RETRY_SLEEP=0 timeout 60 sh -x "$pg" --retries 2 o/r v1 "$whl" >"$WORK/out8" 2>"$WORK/out8.err"
rc=$?
set -e
cat "$WORK/out8" "$WORK/out8.err" >>"$all"
if [ "$rc" = 1 ] && grep -q '^wheelgen: github: GET http://127.0.0.1:9/repos/o/r/releases/tags/v1 failed: .*(tried 2 times)$' "$WORK/out8.err" &&
	[ "$(grep -c '^wheelgen: github: GET .* trying again in 0 s$' "$WORK/out8.err")" = 1 ]; then
	t_pass
else
	t_fail "exit status $rc" "$(grep -v '^+' "$WORK/out8.err")"
fi

# --- a real run, against a stand-in for the API ------------------------------------------

fake=$WORK/fake
mkdir -p "$fake"
FAKE_TOKEN=$token python3 "$top/tests/fakegithub.py" "$fake" >"$fake/server.log" 2>&1 &
fakepid=$!
# stop it however this script ends (then lib.sh's cleanup, with the status it would have seen)
fake_exit() {
	st=$?
	kill "$fakepid" 2>/dev/null || true
	(exit "$st")
	t_cleanup
}
trap fake_exit EXIT
i=0
while [ ! -f "$fake/port" ] && [ "$i" -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
port=$(cat "$fake/port" 2>/dev/null || echo 9)
fakeapi=http://127.0.0.1:$port
# fakerun OUT [args...]: the publisher against the stand-in, the token in GH_TOKEN
fakerun() {
	: >"$fake/log"
	pg "$@"
}
fakeenv="GITHUB_API_URL=$fakeapi WG_RETRY_SLEEP=0"

t_case "a real run: the release is created and both files uploaded, with the token, once each"
# shellcheck disable=SC2086 # the environment, split
if fakerun "$WORK/out9" env $fakeenv timeout 60 sh "$pg" o/r v1 "$whl" "$meta"; then
	printf '%s\n' "wheelgen: github: uploaded $wname to o/r v1" "wheelgen: github: uploaded $wname.metadata to o/r v1" >"$WORK/want9"
	printf '%s\n' "GET /repos/o/r/releases/tags/v1 auth=ok accept=application/vnd.github+json" \
		"POST /repos/o/r/releases auth=ok accept=application/vnd.github+json" \
		"POST /up/repos/o/r/releases/11/assets?name=$wenc auth=ok accept=application/vnd.github+json" \
		"POST /up/repos/o/r/releases/11/assets?name=$wenc.metadata auth=ok accept=application/vnd.github+json" >"$WORK/want9.log"
	cat "$WORK/out9" "$fake/log" >"$WORK/got9"
	cat "$WORK/want9" "$WORK/want9.log" >"$WORK/want9.all"
	t_cmp "$WORK/want9.all" "$WORK/got9"
else
	t_fail "exit status $rc" "$(cat "$WORK/out9.err" "$fake/server.log")"
fi

t_case "a real run again: both skipped (the digests match), nothing uploaded"
# shellcheck disable=SC2086 # the environment, split
if fakerun "$WORK/out10" env $fakeenv sh "$pg" o/r v1 "$whl" "$meta" &&
	[ "$(grep -c 'same sha256), skipped$' "$WORK/out10")" = 2 ] && ! grep -q '^POST' "$fake/log"; then
	t_pass
else
	t_fail "exit status $rc" "$(cat "$WORK/out10" "$WORK/out10.err" "$fake/log")"
fi

t_case "a real run with a changed file: refused without --replace; with it, deleted and uploaded"
printf 'other wheel bytes\n' >"$whl"
nsha=$(sha256sum "$whl" | cut -d' ' -f1)
# shellcheck disable=SC2086 # the environment, split
if fakerun "$WORK/out11" env $fakeenv sh "$pg" o/r v1 "$whl" "$meta"; then
	t_fail "exit status 0 without --replace" "$(cat "$WORK/out11")"
elif [ "$rc" != 1 ] || ! grep -q "$wsha.*$nsha" "$WORK/out11.err" || grep -q '^POST\|^DELETE' "$fake/log"; then
	t_fail "exit status $rc" "$(cat "$WORK/out11.err" "$fake/log")"
elif fakerun "$WORK/out11r" env $fakeenv sh "$pg" --replace o/r v1 "$whl" "$meta" &&
	grep -q "^wheelgen: github: replaced $wname in o/r v1 (sha256 was $wsha, now $nsha)\$" "$WORK/out11r" &&
	grep -q "skipped" "$WORK/out11r" &&
	[ "$(sed -n 's/ auth=.*//p' "$fake/log" | tr '\n' ' ')" = "GET /repos/o/r/releases/tags/v1 GET /repos/o/r/releases/11/assets?per_page=100&page=1 DELETE /repos/o/r/releases/assets/12 POST /up/repos/o/r/releases/11/assets?name=$wenc " ]; then
	t_pass
else
	t_fail "exit status $rc" "$(cat "$WORK/out11r" "$WORK/out11r.err" "$fake/log")"
fi

t_case "a real run: 502s are tried again; a wrong returned digest is an error"
echo 2 >"$fake/fail"
# shellcheck disable=SC2086 # the environment, split
if fakerun "$WORK/out12" env $fakeenv sh "$pg" o/r v2 "$meta" &&
	[ "$(grep -c 'HTTP 502: Server Error; trying again in 0 s$' "$WORK/out12.err")" = 2 ] &&
	grep -q "^wheelgen: github: uploaded $wname.metadata to o/r v2\$" "$WORK/out12"; then
	: >"$fake/baddigest"
	# shellcheck disable=SC2086 # the environment, split
	if fakerun "$WORK/out12b" env $fakeenv sh "$pg" o/r v3 "$meta"; then
		t_fail "exit status 0 with a wrong digest" "$(cat "$WORK/out12b")"
	elif [ "$rc" = 1 ] && grep -q "GitHub has sha256 0000000000000000000000000000000000000000000000000000000000000000 for the upload, .* has $msha" "$WORK/out12b.err"; then
		t_pass
	else
		t_fail "exit status $rc" "$(cat "$WORK/out12b.err")"
	fi
	rm -f "$fake/baddigest"
else
	t_fail "exit status $rc" "$(cat "$WORK/out12" "$WORK/out12.err" "$fake/log")"
fi

t_case "a real run with a wrong token: the API's message, exit 1"
set +e
GH_TOKEN=ghp_wrongtoken GITHUB_API_URL=$fakeapi WG_RETRY_SLEEP=0 sh "$pg" o/r v1 "$whl" >"$WORK/out13" 2>&1
rc=$?
set -e
if [ "$rc" = 1 ] && grep -q '^wheelgen: github: GET .*/releases/tags/v1: HTTP 401: Bad credentials' "$WORK/out13"; then
	t_pass
else
	t_fail "exit status $rc" "$(cat "$WORK/out13")"
fi

t_case "an asset over 2 GiB is refused before any request, naming it and its size"
truncate -s 2147483649 "$WORK/files/huge-1.0-py3-none-any.whl"
# shellcheck disable=SC2086 # the environment, split
if fakerun "$WORK/out14" env $fakeenv sh "$pg" o/r v9 "$meta" "$WORK/files/huge-1.0-py3-none-any.whl"; then
	t_fail "exit status 0" "$(cat "$WORK/out14")"
elif [ "$rc" = 1 ] && grep -q "huge-1.0-py3-none-any.whl is 2147483649 bytes, over the 2 GiB" "$WORK/out14.err" && [ ! -s "$fake/log" ]; then
	t_pass
else
	t_fail "exit status $rc" "$(cat "$WORK/out14.err" "$fake/log")"
fi
rm -f "$WORK/files/huge-1.0-py3-none-any.whl"

t_case "a release of 1,000 assets: the listing is read in full (10 pages), and the 1,001st is refused before it is sent"
curl -sS -X POST -o /dev/null "$fakeapi/seed?tag=full&n=999"
printf 'one\n' >"$WORK/files/one.txt"
printf 'two\n' >"$WORK/files/two.txt"
# shellcheck disable=SC2086 # the environment, split
if fakerun "$WORK/out15" env $fakeenv sh "$pg" o/r full "$WORK/files/one.txt" &&
	grep -q '^wheelgen: github: uploaded one.txt' "$WORK/out15" &&
	[ "$(grep -c '^GET /repos/o/r/releases/[0-9]*/assets?per_page=100&page=' "$fake/log")" = 10 ]; then
	if fakerun "$WORK/out15c" env $fakeenv sh "$pg" o/r full "$WORK/files/one.txt" "$WORK/files/two.txt"; then
		t_fail "exit status 0 for the 1,001st" "$(cat "$WORK/out15c")"
	elif grep -q "the release full of o/r holds 1000 assets: 1 more would pass the 1,000 GitHub allows a release; nothing sent" "$WORK/out15c.err" &&
		! grep -q '^POST' "$fake/log"; then
		t_pass
	else
		t_fail "exit status $rc" "$(cat "$WORK/out15c.err")"
	fi
else
	t_fail "exit status $rc" "$(cat "$WORK/out15" "$WORK/out15.err" "$fake/log")"
fi

# --- a store of many releases: 510 cells (1,530 assets) published, planned, restored, indexed
src=$WORK/src
t_copytree "$src"
cd "$src"
mkdir -p fixture/tiny/tiny
printf 'from setuptools import setup\nsetup(name="tiny", version="1.0", packages=["tiny"])\n' >fixture/tiny/setup.py
echo "x = 1" >fixture/tiny/tiny/__init__.py
# (510 cells, 1,530 assets: bench/github-store.sh; the suite publishes 12, in 12 releases)
ncells=${WG_GITHUB_CELLS:-12}
ghenv="GITHUB_API_URL=$fakeapi GITHUB_SERVER_URL=$fakeapi"
WHEELGEN_STORE=
export WHEELGEN_STORE
# shellcheck disable=SC2086 # WG_CONFARGS splits
./configure ${WG_CONFARGS:-} --config examples/quickstart/packages.yml >"$WORK/configure.log" 2>&1 || true
py=$(t_pythons 1)
python3 - "$ncells" "$py" "$fakeapi" >fixture/packages.yml <<'PY'
import sys
n = int(sys.argv[1])
print('defaults:\n  python: ["%s"]' % sys.argv[2])
print("packages:\n  tiny:\n    source: {path: tiny}\n    test_import: tiny")
print("    versions: [%s]" % ", ".join('"1.%d"' % i for i in range(n)))
print("publish: {github: {repo: o/r, tag: wheels}, timeout: \"30\", stall_timeout: \"10\"}")
print("index: {base_url: \"%s/o/r/releases/download/\"}" % sys.argv[3])
PY
# shellcheck disable=SC2086 # WG_CONFARGS splits
[ -z "$py" ] || { ./configure ${WG_CONFARGS:-} --config fixture/packages.yml && ninja build.ninja; } >>"$WORK/configure.log" 2>&1 || true
t_case "a store of $ncells cells ($((ncells * 3)) assets): published through the stand-in in releases computed from each cell"
if [ -z "$py" ] || ! grep -q "release = " out/graph.ninja; then
	t_fail "configure: $(tail -n 5 "$WORK/configure.log")"
else
	# each cell's release, as the graph computes it for publish/<cell>
	awk '/^build .*\/publish\/.*: publish / { c = 1; next } c && $1 == "cell" { cell = $3 } c && $1 == "release" { print cell, $3; c = 0 }' out/graph.ninja >"$WORK/releases"
	out/wheelgen matrix --tsv >"$WORK/cells.tsv"
	# a wheel, its .metadata and a manifest per cell, made here (nothing built): the manifest
	# with the cell's key, the test's record and stored=<release>/<wheel>
	python3 "$top/tests/fakecells.py" "$WORK/cells.tsv" "$py" github "$WORK/releases" "$WORK/pub"
	start=$(date +%s)
	: >"$fake/log"
	sed -n 's/^\([^ ]*\) \([^ ]*\)$/\1 \2/p' "$WORK/releases" >"$WORK/todo"
	# shellcheck disable=SC2016 # the script's own expansions
	GH_TOKEN=$token GITHUB_API_URL=$fakeapi WG_RETRY_SLEEP=0 xargs -P 4 -L 1 sh -c '
		d=$0/$2; sh "$1" o/r "$3" "$d"/*.whl "$d"/*.whl.metadata "$d/$2.manifest" >/dev/null 2>"$d.err" || echo "FAILED $2: $(cat "$d.err")"
	' "$WORK/pub" "$pg" <"$WORK/todo" >"$WORK/pubfail" 2>&1 || true
	took=$(($(date +%s) - start))
	echo "# published $ncells cells ($((ncells * 3)) assets, $ncells releases) in $took s"
	nrel=$(sort -u -k2,2 "$WORK/todo" | wc -l)
	nup=$(grep -c '^POST /up/' "$fake/log" || true)
	if [ -s "$WORK/pubfail" ] || [ "$nup" != $((ncells * 3)) ] || [ "$nrel" != "$ncells" ] ; then
		t_fail "$took s, $nup uploads, $nrel releases" "$(head -n 5 "$WORK/pubfail")"
	else
		t_pass
	fi
fi
# (this tree built nothing and holds no store: out/ has no wheels, as a fresh clone's)
t_expect "a fresh clone plans 0 cells missing from the releases (every manifest and wheel read from the stand-in)" '
	[ ! -d out/wheels ]
	[ ! -d out/store ]
	start=$(date +%s)
	env $ghenv out/wheelgen matrix --missing >"$WORK/missing" 2>"$WORK/missing.err"
	echo "# planned $ncells cells in $(($(date +%s) - start)) s" >>"$WORK/times"
	[ ! -s "$WORK/missing" ]
	grep -q "0 cells missing from the store $fakeapi/o/r/releases/download/" "$WORK/missing.err"
'
t_expect "a fresh clone restores a cell from its release" '
	env $ghenv ninja "wheel/tiny-1.7-py$(echo "$py" | tr -d .)" >"$WORK/restore.log" 2>&1
	grep -q "restored tiny-1.7-py$(echo "$py" | tr -d .) from the store" "$WORK/restore.log"
	grep -q "^origin=store$" "out/wheels/tiny-1.7-py$(echo "$py" | tr -d .)/manifest"
'
t_expect "merge-index links every wheel of the $ncells releases" '
	start=$(date +%s)
	env $ghenv ninja merge-index >"$WORK/merge.log" 2>&1
	echo "# merge-index of $ncells cells in $(($(date +%s) - start)) s" >>"$WORK/times"
	[ "$(grep -o "tiny-1\.[0-9]*-py3-none-any\.whl#sha256=" out/index/simple/tiny/index.html | sort -u | wc -l)" = "$ncells" ]
	grep -q "href=\"$fakeapi/o/r/releases/download/wheels-tiny-1\.3-py$(echo "$py" | tr -d .)/tiny-1\.3-py3-none-any\.whl#sha256=" out/index/simple/tiny/index.html
	grep -q "^release=wheels$" out/index.spec
'
t_expect "store --unused reads every page of the releases and their assets: 0 of the $ncells cells, 150 strays" '
	env $ghenv out/wheelgen store --unused >"$WORK/unused" 2>"$WORK/unused.err"
	[ ! -s "$WORK/unused" ]
	grep -q "^wheelgen: 0 store entries no cell of the config keys" "$WORK/unused.err"
	curl -sS -X POST -o /dev/null "$fakeapi/seed?tag=wheels-stray&n=150&suffix=.manifest"
	env $ghenv out/wheelgen store --unused >"$WORK/unused" 2>"$WORK/unused.err"
	[ "$(grep -c "^wheels-stray/seed0[0-9]*\.manifest	not a manifest wheelgen can use$" "$WORK/unused")" = 150 ]
'
t_expect "the store read with GH_TOKEN: the API gets it (its log says auth=ok); a wrong one names GH_TOKEN, never its value" '
	: >"$fake/log"
	GH_TOKEN=$token env $ghenv out/wheelgen store --unused >/dev/null 2>"$WORK/unused.err"
	grep -q "^GET /repos/o/r/releases?per_page=100&page=1 auth=ok" "$fake/log"
	! GH_TOKEN=ghp_wrongtoken env $ghenv out/wheelgen store --unused >/dev/null 2>"$WORK/unused.err" || exit 1
	grep -q "HTTP status 401 (the store refused the token in GH_TOKEN: " "$WORK/unused.err"
	! grep -q "ghp_wrongtoken\|$token" "$WORK/unused.err" || exit 1
'
cat "$WORK/times" 2>/dev/null || true
cd "$top"
kill "$fakepid" 2>/dev/null || true
wait "$fakepid" 2>/dev/null || true

t_case "the token never shows: not in any output above, not in a trace (sh -x) of a dry-run"
GH_TOKEN=$token WG_GITHUB_DRYRUN_DIR="$WORK/canned" sh -x "$pg" --dry-run --replace o/r v1 "$whl" >>"$all" 2>&1 || true
GITHUB_TOKEN=$token GITHUB_API_URL=http://127.0.0.1:9 WG_RETRY_SLEEP=0 timeout 60 sh -x "$pg" --retries 1 o/r v1 "$whl" >>"$all" 2>&1 || true
if grep -q "$token" "$all"; then
	t_fail "the token was printed:" "$(grep "$token" "$all" | head -n 5)"
elif ! grep -q 'wheelgen: github:' "$all" || ! grep -q '^+ ' "$all"; then
	t_fail "no output was collected"
else
	t_pass
fi

# (templates/publish-github.sh is shellcheck-clean: t0100 checks every script)
