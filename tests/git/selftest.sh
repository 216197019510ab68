#!/bin/sh
# tests/git/selftest.sh: check the git test fixtures and servers with the git CLI.
#
#   tests/git/selftest.sh
#
# Builds the repositories in a temporary directory, serves them with daemon.sh (git://) and
# http.sh (smart HTTP), and checks: recursive clones of top at v2.0 and v2.1 over git://, http://
# and file:// get the right leaf two levels down; refs/pull/1/head is advertised but on no branch
# or tag; many.git has 3000 commits and its tags; movetag.sh moves tags; topkg builds with
# `pip wheel` (skipped when python3 has no pip; SELFTEST_NOWHEEL=1 skips it too); a port taken
# makes start fail; stop leaves no process behind, twice. Prints "ok - ..." or "FAIL - ..." per
# check and the timings; exit status 1 if anything failed. WG_KEEP=1 keeps the directory.
# (sh -c '...' sh ARGS: the single quotes are meant)
# shellcheck disable=SC2016
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source-path=SCRIPTDIR
# shellcheck source=common.sh
. "$here/common.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/wggit.XXXXXX")
R=$T/repos
failed=0
passed=0

cleanup() {
	rc=$?
	"$here/daemon.sh" stop "$T" >/dev/null 2>&1 || true
	"$here/http.sh" stop "$T" >/dev/null 2>&1 || true
	if [ "$failed" -eq 0 ] && [ "$rc" -eq 0 ] && [ -z "${WG_KEEP:-}" ]; then
		rm -rf "$T"
	else
		echo "# directory kept: $T" >&2
	fi
	if [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ]; then
		echo "FAIL - stopped with status $rc"
		exit "$rc"
	fi
	[ "$failed" -eq 0 ] || exit 1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() {
	passed=$((passed + 1))
	echo "ok - $1"
}
fail() {
	failed=$((failed + 1))
	echo "FAIL - $1"
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/    /'
}
# check TITLE COMMAND...: ok if the command succeeds
check() {
	title=$1
	shift
	if "$@" >"$T/check.out" 2>&1; then ok "$title"; else fail "$title" "$(tail -n 20 "$T/check.out")"; fi
}
ms() { echo $(($(date +%s%N) / 1000000)); }
took() { echo "# $1: $(($(ms) - $2)) ms"; }

commit_of() { git -C "$R/$1.git" rev-parse "$2^{commit}"; }

# verify CLONE TOPTAG: the checkout of top at TOPTAG (v2.0: mid v2.0, leaf v1.0; v2.1: mid v2.1, leaf v1.1)
verify() {
	c=$1
	case $2 in
	v2.0) mv=2.0 lv=1.0 lt=v1.0 mt=v2.0 txt="leaf one" ;;
	v2.1) mv=2.1 lv=1.1 lt=v1.1 mt=v2.1 txt="leaf two" ;;
	esac
	l=$c/third_party/mid/third_party/leaf
	grep -q "^VERSION = \"${2#v}\"\$" "$c/setup.py" || { echo "setup.py is not version ${2#v}"; return 1; }
	grep -q "MID_VERSION \"$mv\"" "$c/third_party/mid/include/mid.h" || { echo "mid.h is not $mv"; return 1; }
	grep -q "LEAF_VERSION \"$lv\"" "$l/include/leaf.h" || { echo "leaf.h is not $lv"; return 1; }
	[ "$(cat "$l/leaf.txt")" = "$txt" ] || { echo "leaf.txt: $(cat "$l/leaf.txt")"; return 1; }
	[ -x "$l/run.sh" ] || { echo "run.sh is not executable"; return 1; }
	[ -L "$l/link" ] || { echo "link is not a symlink"; return 1; }
	[ "$(readlink "$l/link")" = leaf.txt ] || { echo "link does not point at leaf.txt"; return 1; }
	[ "$(git -C "$c/third_party/mid" rev-parse HEAD)" = "$(commit_of mid "$mt")" ] || { echo "mid is not at $mt"; return 1; }
	[ "$(git -C "$l" rev-parse HEAD)" = "$(commit_of leaf "$lt")" ] || { echo "leaf is not at $lt"; return 1; }
	return 0
}

# clone_verify TITLE NAME URL TAG [git -c options...]: git clone --recursive -b TAG URL into
# $T/NAME, then verify
clone_verify() {
	title=$1 dest=$T/$2 url=$3 tg=$4
	shift 4
	if git "$@" clone -q --recursive -b "$tg" "$url" "$dest" >"$T/clone.out" 2>&1 &&
		verify "$dest" "$tg" >>"$T/clone.out" 2>&1; then
		ok "$title"
	else
		fail "$title" "$(tail -n 20 "$T/clone.out")"
	fi
}

# ------------------------------------------------------------------ build and serve
t=$(ms)
dport=$("$here/freeport.sh")
"$here/mkrepos.sh" "$T" "git://127.0.0.1:$dport"
took "mkrepos.sh (leaf, mid, top, many)" "$t"
t=$(ms)
"$here/mkrepos.sh" --top "$T" "file://$R" top-file
took "mkrepos.sh --top (one more top)" "$t"
out=$("$here/mkrepos.sh" "$T/again" "git://127.0.0.1:$dport" 2>&1)
check "mkrepos.sh prints nothing on success" test -z "$out"
refs() { for r in leaf mid top many; do git -C "$1/repos/$r.git" for-each-ref --format='%(refname) %(objectname)'; done; }
check "mkrepos.sh is reproducible: the same BASEURL gives the same ids" test "$(refs "$T")" = "$(refs "$T/again")"
rm -rf "$T/again"

t=$(ms)
p=$("$here/daemon.sh" start "$T" "$dport")
took "daemon.sh start" "$t"
check "daemon.sh start prints the port asked for and writes daemon.port" test "$p $(cat "$T/daemon.port")" = "$dport $dport"
G=git://127.0.0.1:$dport

t=$(ms)
hport=$("$here/http.sh" start "$T")
took "http.sh start" "$t"
H=http://127.0.0.1:$hport
check "http.sh start prints the port and writes http.port" test "$(cat "$T/http.port")" = "$hport"
"$here/mkrepos.sh" --top "$T" "$H" top-http

if "$here/daemon.sh" start "$T/other" "$hport" >"$T/taken.out" 2>&1; then
	fail "daemon.sh start on a port in use fails" "it succeeded"
	"$here/daemon.sh" stop "$T/other"
else
	check "daemon.sh start on a port in use fails, naming the port" grep -q "port $hport" "$T/taken.out"
fi

# ------------------------------------------------------------------ clones
t=$(ms)
clone_verify "git:// clone --recursive of top v2.0: mid v2.0, leaf v1.0 two levels down" git20 "$G/top.git" v2.0
took "git clone --recursive over git://" "$t"
clone_verify "git:// clone --recursive of top v2.1: mid v2.1, leaf v1.1" git21 "$G/top.git" v2.1
t=$(ms)
clone_verify "http:// clone --recursive of top-http v2.0 (submodules over http too)" http20 "$H/top-http.git" v2.0
took "git clone --recursive over http://" "$t"
clone_verify "http:// clone --recursive of top-http v2.1" http21 "$H/top-http.git" v2.1
clone_verify "http:// clone of top.git v2.0 (its submodules over git://)" mixed20 "$H/top.git" v2.0
check "the submodules of top-http were fetched over http" grep -q "GET /leaf.git/info/refs" "$T/nginx/logs/access.log"
if git clone -q --recursive -b v2.0 "file://$R/top-file.git" "$T/clone.file-denied" >/dev/null 2>&1; then
	fail "file:// submodules need protocol.file.allow=always (git >= 2.38.1)" "the clone succeeded without it"
else
	ok "file:// submodules need protocol.file.allow=always (git >= 2.38.1)"
fi
clone_verify "file:// clone --recursive with protocol.file.allow=always" file20 "file://$R/top-file.git" v2.0 -c protocol.file.allow=always

# ------------------------------------------------------------------ refs
pr=$(git ls-remote "$G/top.git" refs/pull/1/head | cut -f1)
check "ls-remote of top (git://) shows refs/pull/1/head" test -n "$pr"
check "ls-remote of top (http://) shows refs/pull/1/head" test "$(git ls-remote "$H/top.git" refs/pull/1/head | cut -f1)" = "$pr"
check "refs/pull/1/head is on no branch and no tag" sh -c '! git -C "$1" rev-list --branches --tags | grep -qx "$2"' sh "$R/top.git" "$pr"
check "a plain clone of top does not have the pull request commit" sh -c '! git -C "$1" cat-file -e "$2^{commit}"' sh "$T/git20" "$pr"
check "top: main (2.2.dev0) is past v2.1" sh -c 'git -C "$1" merge-base --is-ancestor v2.1 main && test "$(git -C "$1" rev-parse v2.1)" != "$(git -C "$1" rev-parse main)"' sh "$R/top.git"
check "tag kinds: leaf v1.0 lightweight, v1.1 annotated; mid v2.0 annotated; top v2.0 annotated, v2.1 lightweight" test \
	"$(git -C "$R/leaf.git" cat-file -t v1.0) $(git -C "$R/leaf.git" cat-file -t v1.1) $(git -C "$R/mid.git" cat-file -t v2.0) $(git -C "$R/top.git" cat-file -t v2.0) $(git -C "$R/top.git" cat-file -t v2.1)" = "commit tag tag tag commit"
check "mid's .gitmodules has the relative url ../leaf.git" test "$(git -C "$R/mid.git" config --blob v2.0:.gitmodules submodule.third_party/leaf.url)" = ../leaf.git
check "top's .gitmodules has BASEURL/mid.git" test "$(git -C "$R/top.git" config --blob v2.0:.gitmodules submodule.third_party/mid.url)" = "$G/mid.git"

# ------------------------------------------------------------------ many
t=$(ms)
if git clone -q --bare "$H/many.git" "$T/many.http" >"$T/many.out" 2>&1; then ok "http:// clone of many.git"; else fail "http:// clone of many.git" "$(cat "$T/many.out")"; fi
took "git clone --bare of many.git over http://" "$t"
check "many.git has 3000 commits, v0.5 is commit 1500" test "$(git -C "$T/many.http" rev-list --count v1.0) $(git -C "$T/many.http" rev-list --count v0.5)" = "3000 1500"
check "many.git has tags v0.1 ... v0.9 and v1.0" test "$(git ls-remote --tags --refs "$G/many.git" | cut -f2 | tr '\n' ' ')" = \
	"refs/tags/v0.1 refs/tags/v0.2 refs/tags/v0.3 refs/tags/v0.4 refs/tags/v0.5 refs/tags/v0.6 refs/tags/v0.7 refs/tags/v0.8 refs/tags/v0.9 refs/tags/v1.0 "
# a big negotiation: 3000 haves, so git sends chunked request bodies to nginx
if git -C "$T/many.http" fetch -q "$H/leaf.git" main >"$T/chunked.out" 2>&1 &&
	[ "$(git -C "$T/many.http" rev-parse FETCH_HEAD)" = "$(commit_of leaf main)" ]; then
	ok "http:// fetch with 3000 haves (chunked request bodies)"
else
	fail "http:// fetch with 3000 haves (chunked request bodies)" "$(cat "$T/chunked.out")"
fi

# ------------------------------------------------------------------ movetag
old=$(commit_of leaf v1.0)
new=$("$here/movetag.sh" "$T" leaf v1.0)
check "movetag.sh moves leaf v1.0 to a child of the old commit (seen over git://)" test \
	"$(git ls-remote "$G/leaf.git" refs/tags/v1.0 | cut -f1) $(git -C "$R/leaf.git" rev-parse "$new^")" = "$new $old"
new2=$("$here/movetag.sh" "$T" leaf.git v1.1)
check "movetag.sh keeps an annotated tag annotated (seen over http://)" test \
	"$(git ls-remote "$H/leaf.git" 'refs/tags/v1.1^{}' | cut -f1) $(git -C "$R/leaf.git" cat-file -t v1.1)" = "$new2 tag"
check "movetag.sh moves no branch" test "$(commit_of leaf main)" = "$(git -C "$T/work/leaf" rev-parse main)"

# ------------------------------------------------------------------ pip wheel
if [ -n "${SELFTEST_NOWHEEL:-}" ]; then
	echo "# skipped: pip wheel (SELFTEST_NOWHEEL is set)"
elif ! python3 -m pip --version >/dev/null 2>&1; then
	echo "# skipped: pip wheel (python3 has no pip)"
else
	src=$T/git20
	noiso=
	if python3 -c 'import setuptools, wheel' >/dev/null 2>&1; then noiso=--no-build-isolation; fi
	t=$(ms)
	# shellcheck disable=SC2086
	if python3 -m pip wheel -q --no-deps $noiso -w "$T/wheels" "$src" >"$T/wheel.out" 2>&1 &&
		python3 -m zipfile -e "$T"/wheels/topkg-2.0-*.whl "$T/site" >>"$T/wheel.out" 2>&1 &&
		[ "$(cd "$T" && PYTHONPATH=$T/site python3 -c 'import topkg; v = topkg.versions(); print(v["top"], v["mid"], v["leaf"])')" = "2.0 2.0 1.0" ]; then
		ok "pip wheel builds topkg 2.0 from the clone; versions() says top 2.0, mid 2.0, leaf 1.0"
	else
		fail "pip wheel builds topkg 2.0 from the clone" "$(tail -n 20 "$T/wheel.out")"
	fi
	took "pip wheel of topkg${noiso:+ ($noiso)}" "$t"
	rm -rf "$T/nosub"
	git clone -q -b v2.0 "$G/top.git" "$T/nosub" 2>/dev/null
	if python3 -m pip wheel -q --no-deps $noiso -w "$T/wheels.nosub" "$T/nosub" >"$T/nosub.out" 2>&1; then
		fail "without its submodules topkg does not build" "it built"
	else
		check "without its submodules topkg does not build, saying why" grep -q "submodules are not checked out" "$T/nosub.out"
	fi
fi

# ------------------------------------------------------------------ stop
pids="$(cat "$T/daemon.pid") $(cat "$T/nginx/nginx.pid") $(pgrep -P "$(cat "$T/nginx/nginx.pid")" | tr '\n' ' ')$(cat "$T/nginx/fcgiwrap.pid") $(pgrep -P "$(cat "$T/nginx/fcgiwrap.pid")" | tr '\n' ' ')"
t=$(ms)
"$here/daemon.sh" stop "$T"
"$here/http.sh" stop "$T"
took "daemon.sh stop + http.sh stop" "$t"
alive() {
	for p in $pids; do
		if gf_alive "$p"; then echo "still running: $(ps -o pid=,args= -p "$p")"; fi
	done
	pgrep -af "$T" || true
	for f in daemon.pid daemon.port http.port nginx/nginx.pid nginx/fcgiwrap.pid nginx/fcgiwrap.sock; do
		if [ -e "$T/$f" ]; then echo "left behind: $f"; fi
	done
}
check "stop leaves no process (pgrep -f DIR, and the $(echo "$pids" | wc -w) pids) and no pid file" test -z "$(alive)"
check "a second stop succeeds" sh -c '"$1/daemon.sh" stop "$2" && "$1/http.sh" stop "$2"' sh "$here" "$T"

t=$(ms)
hport=$("$here/http.sh" start "$T")
took "http.sh start (second time)" "$t"
check "a second http.sh start serves again" git ls-remote "http://127.0.0.1:$hport/top.git"
check "a second http.sh start while running fails" sh -c '! "$1/http.sh" start "$2"' sh "$here" "$T"
pids="$(cat "$T/nginx/nginx.pid") $(pgrep -P "$(cat "$T/nginx/nginx.pid")" | tr '\n' ' ')$(cat "$T/nginx/fcgiwrap.pid") $(pgrep -P "$(cat "$T/nginx/fcgiwrap.pid")" | tr '\n' ' ')"
"$here/http.sh" stop "$T"
check "the second http.sh stop leaves no process either" test -z "$(alive)"

echo "# $passed passed, $failed failed"
