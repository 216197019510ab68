#!/bin/sh
# git sources through libgit2, against a git daemon on 127.0.0.1: one shared mirror per
# repository, nested submodules (one with a relative url) checked out byte-identical to
# `git clone --recursive`, the lock file and a tag moved upstream, missing tags
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=wheelgen GIT_AUTHOR_EMAIL=wg@example.invalid GIT_COMMITTER_NAME=wheelgen GIT_COMMITTER_EMAIL=wg@example.invalid
repos=$WORK/repos
mkdir -p "$repos" "$WORK/work"

# a free port for git daemon
port=$(t_freeport)
base=git://127.0.0.1:$port

# fixtures: leaf <- mid (relative url ../leaf.git) <- top (absolute git:// url), like xformers
mkrepo() { # mkrepo NAME: a work tree in $WORK/work/NAME
	git init -q -b main "$WORK/work/$1"
}
publish() { # publish NAME: (re)create the bare repo from the work tree
	rm -rf "$repos/$1.git"
	git clone -q --bare "$WORK/work/$1" "$repos/$1.git"
}
g() { git -C "$WORK/work/$1" -c protocol.file.allow=always "$@"; }
mkrepo leaf
echo "leaf one" >"$WORK/work/leaf/leaf.txt"
printf '#!/bin/sh\necho hi\n' >"$WORK/work/leaf/run.sh"
chmod +x "$WORK/work/leaf/run.sh"
ln -s leaf.txt "$WORK/work/leaf/link"
git -C "$WORK/work/leaf" add -A && git -C "$WORK/work/leaf" commit -qm one && git -C "$WORK/work/leaf" tag v1.0
publish leaf
mkrepo mid
echo mid >"$WORK/work/mid/mid.txt"
git -C "$WORK/work/mid" add -A
git -C "$WORK/work/mid" -c protocol.file.allow=always submodule add -q "$repos/leaf.git" third_party/leaf >/dev/null 2>&1
git -C "$WORK/work/mid" config -f .gitmodules submodule.third_party/leaf.url ../leaf.git
git -C "$WORK/work/mid" add -A && git -C "$WORK/work/mid" commit -qm mid && git -C "$WORK/work/mid" tag -a v2.0 -m v2.0
publish mid
mkrepo top
mkdir -p "$WORK/work/top/topkg"
cat >"$WORK/work/top/setup.py" <<'PY'
from setuptools import setup
setup(name="topkg", version=open("VERSION").read().strip(), packages=["topkg"])
PY
echo "X = 1" >"$WORK/work/top/topkg/__init__.py"
echo 1.0 >"$WORK/work/top/VERSION"
git -C "$WORK/work/top" add -A
git -C "$WORK/work/top" -c protocol.file.allow=always submodule add -q "$repos/mid.git" third_party/mid >/dev/null 2>&1
git -C "$WORK/work/top" config -f .gitmodules submodule.third_party/mid.url "$base/mid.git"
git -C "$WORK/work/top" add -A && git -C "$WORK/work/top" commit -qm one && git -C "$WORK/work/top" tag -a v1.0 -m v1.0
echo 1.1 >"$WORK/work/top/VERSION"
git -C "$WORK/work/top" commit -qam two && git -C "$WORK/work/top" tag v1.1
publish top

git daemon --reuseaddr --export-all --base-path="$repos" --listen=127.0.0.1 --port="$port" --pid-file="$WORK/daemon.pid" --detach "$repos"
daemon_stop() { [ -f "$WORK/daemon.pid" ] && kill "$(cat "$WORK/daemon.pid")" 2>/dev/null; rm -f "$WORK/daemon.pid"; }
# on exit: stop the servers whatever happens, then count (t_cleanup sees the script's status)
stop_exit() {
	st=$?
	set +e
	daemon_stop
	t_git_http_stop "$WORK/http"
	t_git_http_stop "$WORK/auth"
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
i=0
until git ls-remote "$base/leaf.git" >/dev/null 2>&1; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || { t_case "git daemon starts"; t_fail "no answer on $base"; exit 0; }
	sleep 0.2
done

src=$WORK/src
t_copytree "$src"
cd "$src"
cat >git.yml <<YML
defaults: {python: ["$(t_pythons 1 2>/dev/null || echo 3.12)"]}
packages:
  topkg:
    source: {git: "$base/top.git"}
    versions: ["1.0", "1.1"]
    test_import: topkg
YML
# shellcheck disable=SC2086
./configure ${WG_CONFARGS:-} --config git.yml >"$WORK/configure.log" 2>&1 || { t_case configure; t_fail "$(cat "$WORK/configure.log")"; exit 0; }
py=$(sed -n 's/^python \([0-9.t]*\) .*/\1/p' out/host.txt | tail -n 1)
sed -i "s/^defaults: .*/defaults: {python: [\"$py\"]}/" git.yml
pyc=$(echo "$py" | tr -d .)

t_case "ninja fetches, checks out, builds and tests both versions of a git package"
t_ninja_ran "$WORK/ran1" || t_fail "$(tail -n 30 "$WORK/ran1.raw")"
grep -v '^CC \|^LINK ' "$WORK/ran1" >"$WORK/ran1.git"
t_ran_is "$WORK/ran1.git" "REGEN git.yml" "FETCH '$base/top.git'" "CHECKOUT topkg-1.0" "CHECKOUT topkg-1.1" \
	"WHEEL topkg-1.0-py$pyc" "WHEEL topkg-1.1-py$pyc" "TEST topkg-1.0-py$pyc" "TEST topkg-1.1-py$pyc" "INDEX out/index"

t_case "one mirror per repository, shared by both versions; the checkouts fetched nothing more"
mdir=out/git/127.0.0.1_$port
if [ -d "$mdir/top.git" ] && [ -d "$mdir/mid.git" ] && [ -d "$mdir/leaf.git" ] &&
	[ "$(find out/git -name '*.git' -type d | wc -l)" -eq 3 ]; then
	# each submodule's mirror is fetched by whichever checkout gets to it first (one may fetch
	# mid.git and the other leaf.git); the log names the urls that sent bytes: each once, top never
	from=$(sed -n 's/.* received (from \(.*\))$/\1/p' out/logs/topkg-1.0.checkout.log out/logs/topkg-1.1.checkout.log | tr ' ' '\n' | sort | tr '\n' ' ')
	if [ "$from" = "$base/leaf.git $base/mid.git " ]; then t_pass; else t_fail "fetched by the checkouts: '$from': $(cat out/logs/topkg-1.0.checkout.log out/logs/topkg-1.1.checkout.log)"; fi
else
	t_fail "$(find out/git -maxdepth 3)"
fi

t_case "nested submodules (relative and absolute urls) are byte-identical to git clone --recursive"
git -c protocol.file.allow=always clone -q --recursive -b v1.0 "$base/top.git" "$WORK/ref" >/dev/null 2>&1
if diff -r --no-dereference --exclude=.git "$WORK/ref" out/src/topkg-1.0 >"$WORK/diff" 2>&1 &&
	[ -x out/src/topkg-1.0/third_party/mid/third_party/leaf/run.sh ] && [ -L out/src/topkg-1.0/third_party/mid/third_party/leaf/link ]; then
	t_pass
else
	t_fail "$(head -n 20 "$WORK/diff")"
fi

t_case "the lock file records both commits; the manifests record the commit built"
c10=$(git -C "$repos/top.git" rev-parse 'v1.0^{commit}')
c11=$(git -C "$repos/top.git" rev-parse 'v1.1^{commit}')
if grep -q "^topkg 1.0 $c10\$" git.lock && grep -q "^topkg 1.1 $c11\$" git.lock &&
	grep -q "^commit=$c10\$" "out/wheels/topkg-1.0-py$pyc/manifest"; then t_pass; else t_fail "$(cat git.lock)"; fi

t_case "a no-op ninja runs nothing"
t_ninja_ran "$WORK/ran2"
t_check test ! -s "$WORK/ran2"

t_case "a tag moved upstream after locking fails the next build with both commits named; the lock stays"
cp git.lock "$WORK/lock.before"
echo 1.0-moved >"$WORK/work/top/VERSION"
git -C "$WORK/work/top" commit -qam moved
git -C "$WORK/work/top" push -q -f "$repos/top.git" HEAD:refs/tags/v1.0 2>/dev/null
moved=$(git -C "$repos/top.git" rev-parse 'v1.0^{commit}')
ninja fetch >"$WORK/fetch.log" 2>&1 || true
if ninja >"$WORK/moved.log" 2>&1; then
	t_fail "the build went on with a moved tag"
elif grep -q "tag 'v1.0' of $base/top.git now points at $moved, but .*git.lock locks it at $c10" "$WORK/moved.log" &&
	cmp -s git.lock "$WORK/lock.before"; then
	t_pass
else
	t_fail "$(tail -n 10 "$WORK/moved.log")"
fi

t_case "wheelgen lock --update accepts the moved tag"
if out/wheelgen lock --config git.yml --update >"$WORK/lock.log" 2>&1 && grep -q "^topkg 1.0 $moved\$" git.lock; then t_pass; else t_fail "$(cat "$WORK/lock.log")"; fi

t_case "wheelgen lock removes the entry of a version the config no longer lists, and says so"
echo "topkg 0.9 0123456789012345678901234567890123456789" >>git.lock
if out/wheelgen lock --config git.yml >"$WORK/prune.log" 2>&1 && ! grep -q "^topkg 0.9 " git.lock &&
	grep -q "^topkg 1.0 $moved\$" git.lock && [ "$(grep -c "^topkg 1.1 " git.lock)" = 1 ] &&
	grep -q "removed 'topkg 0.9' from .*git.lock: no configured version uses it" "$WORK/prune.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/prune.log" git.lock)"
fi

t_case "a missing tag is an error naming the package, the url and the nearest tags"
sed -i 's/versions: \["1.0", "1.1"\]/versions: ["1.0", "1.1", "1.2"]/' git.yml
if ninja >"$WORK/missing.log" 2>&1; then t_fail "built a version without a tag"; else
	if grep -q "topkg 1.2: tag 'v1.2' not found in $base/top.git; nearest tags: v1.0, v1.1" "$WORK/missing.log"; then t_pass; else t_fail "$(tail -n 10 "$WORK/missing.log")"; fi
fi

t_case "an unreachable url is an error naming it, and leaves no mirror behind"
dead=git://127.0.0.1:9/nothing.git
if out/wheelgen fetch --url "$dead" >"$WORK/dead.log" 2>&1; then t_fail "fetch succeeded"; else
	if grep -q "cannot fetch '$dead'" "$WORK/dead.log" && [ ! -e out/git/127.0.0.1_9/nothing.git ]; then t_pass; else t_fail "$(cat "$WORK/dead.log")"; fi
fi

t_case "a remote that lacks an object: the error carries the remote's own message"
mkrepo holey
echo a >"$WORK/work/holey/a.txt"
git -C "$WORK/work/holey" add -A && git -C "$WORK/work/holey" commit -qm one
echo b >"$WORK/work/holey/b.txt"
git -C "$WORK/work/holey" add -A && git -C "$WORK/work/holey" commit -qm two && git -C "$WORK/work/holey" tag v1.0
git init -q --bare "$repos/holey.git"
git -C "$WORK/work/holey" push -q "$repos/holey.git" main --tags # few objects: stored loose
blob=$(git -C "$WORK/work/holey" rev-parse HEAD~1:a.txt)
rm -f "$repos/holey.git/objects/$(echo "$blob" | cut -c1-2)/$(echo "$blob" | cut -c3-)"
if out/wheelgen fetch --url "$base/holey.git" >"$WORK/holey.log" 2>&1; then
	t_fail "fetched a repository with a missing object"
elif grep -q "^wheelgen: error: cannot fetch '$base/holey.git': .*(the remote said: fatal: unable to read $blob)" "$WORK/holey.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/holey.log")"
fi

t_case "a mirror that lacks a blob of the tag's tree: the checkout names the object and the file"
mkdir -p "$WORK/holebuild/git/127.0.0.1_$port"
cp -r "$repos/holey.git" "$WORK/holebuild/git/127.0.0.1_$port/holey.git"
printf 'package=holey\nversion=1.0\nurl=%s/holey.git\nref=v1.0\ndest=%s/holey\nstamp=%s/holey.commit\nlock=\n' "$base" "$WORK" "$WORK" >"$WORK/holey.spec"
if out/wheelgen checkout --builddir "$WORK/holebuild" "$WORK/holey.spec" >"$WORK/holeco.log" 2>&1; then
	t_fail "checked out"
elif grep -q "the mirror lacks object $blob (a.txt)" "$WORK/holeco.log" && [ ! -e "$WORK/holey" ]; then
	t_pass
else
	t_fail "$(cat "$WORK/holeco.log")"
fi

t_case "a corrupt mirror is cloned again"
rm -rf "out/git/127.0.0.1_$port/leaf.git/objects" "out/git/127.0.0.1_$port/leaf.git/HEAD"
if out/wheelgen fetch --url "$base/leaf.git" >"$WORK/corrupt.log" 2>&1 && git -C "out/git/127.0.0.1_$port/leaf.git" rev-parse v1.0 >/dev/null 2>&1; then t_pass; else t_fail "$(cat "$WORK/corrupt.log")"; fi

t_case "a mirror whose remote refuses connections is kept as it is (an error naming both URLs, no re-clone)"
m=out/git/127.0.0.1_$port/leaf.git
before=$(git -C "$m" rev-parse v1.0 2>&1)
if WHEELGEN_GIT_REWRITE="$base/=git://127.0.0.1:9/" out/wheelgen fetch --url "$base/leaf.git" >"$WORK/refused.log" 2>&1; then
	t_fail "fetch succeeded: $(cat "$WORK/refused.log")"
elif grep -q "cannot fetch '$base/leaf.git' (from git://127.0.0.1:9/leaf.git, WHEELGEN_GIT_REWRITE): " "$WORK/refused.log" && ! grep -q 'looks corrupt\|cloning it again' "$WORK/refused.log" &&
	[ "$(git -C "$m" rev-parse v1.0 2>&1)" = "$before" ] && [ -z "$(find "$(dirname "$m")" -maxdepth 1 \( -name 'leaf.git.tmp.*' -o -name 'leaf.git.old.*' \))" ]; then
	t_pass
else
	t_fail "$(cat "$WORK/refused.log")" "$(ls "$(dirname "$m")")"
fi

t_case "file:// urls and plain paths work too"
if out/wheelgen fetch --url "file://$repos/leaf.git" >"$WORK/file.log" 2>&1 && out/wheelgen fetch --url "$repos/mid.git" >>"$WORK/file.log" 2>&1 &&
	[ -d "out/git/file$repos/leaf.git" ] && [ -d "out/git/file$repos/mid.git" ]; then t_pass; else t_fail "$(cat "$WORK/file.log"; find out/git -maxdepth 4 -type d | head)"; fi

t_case "wheelgen outdated lists newer upstream tags without cloning; pre-releases only with --pre"
sed -i 's/versions: \["1.0", "1.1", "1.2"\]/versions: ["1.0", "1.1"]/' git.yml
git -C "$WORK/work/top" tag v1.3
git -C "$WORK/work/top" tag v1.4rc1
git -C "$WORK/work/top" tag not-a-version
git -C "$WORK/work/top" push -q "$repos/top.git" v1.3 v1.4rc1 not-a-version 2>/dev/null
out/wheelgen outdated --config git.yml >"$WORK/outdated" 2>&1 || true
out/wheelgen outdated --config git.yml --pre --json >"$WORK/outdated.json" 2>&1 || true
if grep -q "^topkg  *1.1  *1.3\$" "$WORK/outdated" &&
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d[0]["newer"] == ["1.4rc1", "1.3"], d' "$WORK/outdated.json"; then
	t_pass
else
	t_fail "$(cat "$WORK/outdated" "$WORK/outdated.json")"
fi

t_case "the user's ~/.gitconfig does not change what is fetched"
mkdir -p "$WORK/home"
printf '[url "git://127.0.0.1:9/"]\n\tinsteadOf = %s/\n' "$base" >"$WORK/home/.gitconfig"
rm -rf "out/git/127.0.0.1_$port/mid.git"
if HOME=$WORK/home out/wheelgen fetch --url "$base/mid.git" >"$WORK/home.log" 2>&1 && [ -d "out/git/127.0.0.1_$port/mid.git" ]; then t_pass; else t_fail "$(cat "$WORK/home.log")"; fi

t_case "a repository with thousands of commits: tags anywhere in its history check out"
git init -q --bare "$repos/many.git"
python3 - "$WORK/stream" <<'PY'
import sys
out = open(sys.argv[1], "wb")
for i in range(1, 3001):
    data = (b"line %d\n" % i) * 40
    out.write(b"blob\nmark :%d\ndata %d\n%s\n" % (2 * i - 1, len(data), data))
    msg = b"commit %d" % i
    out.write(b"commit refs/heads/main\nmark :%d\ncommitter b <b@x> %d +0000\ndata %d\n%s\n" % (2 * i, 1000000000 + i, len(msg), msg))
    out.write(b"M 100644 :%d f%d.txt\n\n" % (2 * i - 1, i % 300))
    if i in (1, 1500, 3000):
        out.write(b"reset refs/tags/t%d\nfrom :%d\n\n" % (i, 2 * i))
PY
git -C "$repos/many.git" fast-import --quiet <"$WORK/stream"
ok=1
for tag in t1 t1500 t3000; do
	printf 'package=many\nversion=%s\nurl=%s/many.git\nref=%s\ndest=%s/many-%s\nstamp=%s/many-%s.commit\nlock=\n' \
		"$tag" "$base" "$tag" "$WORK" "$tag" "$WORK" "$tag" >"$WORK/many.spec"
	out/wheelgen checkout --builddir out "$WORK/many.spec" >>"$WORK/many.log" 2>&1 || ok=0
	git -c protocol.file.allow=always clone -q -b "$tag" "$repos/many.git" "$WORK/many-ref-$tag" 2>/dev/null
	diff -r --exclude=.git "$WORK/many-ref-$tag" "$WORK/many-$tag" >>"$WORK/many.log" 2>&1 || ok=0
done
if [ "$ok" = 1 ] && [ "$(git -C "out/git/127.0.0.1_$port/many.git" rev-list --count main)" -eq 3000 ]; then t_pass; else t_fail "$(tail -n 10 "$WORK/many.log")"; fi

t_case "a full disk fails the fetch with a message naming the url, and leaves no mirror behind"
mkdir -p "$WORK/tiny"
if mount -t tmpfs -o size=128k tmpfs "$WORK/tiny" 2>"$WORK/mount.log"; then
	if out/wheelgen fetch --builddir "$WORK/tiny" --url "$base/many.git" >"$WORK/full.log" 2>&1; then
		t_fail "the fetch into 128 KiB succeeded"
	elif grep -q "$base/many.git" "$WORK/full.log" && [ -z "$(find "$WORK/tiny" -name '*.git' -type d)" ]; then
		t_pass
	else
		t_fail "$(cat "$WORK/full.log"; find "$WORK/tiny" -maxdepth 4)"
	fi
	umount "$WORK/tiny"
else
	t_fail "cannot mount a small tmpfs to fill: $(cat "$WORK/mount.log")"
fi

t_case "smart HTTP (nginx + git http-backend): a checkout over http:// matches the one over git://"
if hport=$(t_git_http_start "$repos" "$WORK/http" 2>"$WORK/http.log"); then
	printf 'package=topkg\nversion=1.1\nurl=http://127.0.0.1:%s/top.git\nref=v1.1\ndest=%s/http-top\nstamp=%s/http-top.commit\nlock=\n' \
		"$hport" "$WORK" "$WORK" >"$WORK/http.spec"
	if out/wheelgen checkout --builddir "$WORK/httpbuild" "$WORK/http.spec" >"$WORK/httpco.log" 2>&1 &&
		[ -d "$WORK/httpbuild/git/127.0.0.1_$hport/top.git" ] &&
		diff -r --no-dereference out/src/topkg-1.1 "$WORK/http-top" >"$WORK/httpdiff" 2>&1; then
		t_pass
	else
		t_fail "$(cat "$WORK/httpco.log" "$WORK/httpdiff"; tail -n 5 "$WORK/http/logs/error.log")"
	fi
else
	t_fail "cannot start the HTTP git server: $(cat "$WORK/http.log")"
fi

t_case "skip_submodules: the submodule is left empty and never fetched; the stamp says so; a path that is no submodule is warned about"
printf 'package=topkg\nversion=1.1\nurl=%s/top.git\nref=v1.1\ndest=%s/skip-top\nstamp=%s/skip-top.commit\nlock=\nskip=third_party/mid vendor/typo\n' \
	"$base" "$WORK" "$WORK" >"$WORK/skip.spec"
if out/wheelgen checkout --builddir "$WORK/skipbuild" "$WORK/skip.spec" >"$WORK/skip.log" 2>&1 &&
	[ -d "$WORK/skip-top/third_party/mid" ] && [ -z "$(ls -A "$WORK/skip-top/third_party/mid")" ] &&
	[ -f "$WORK/skip-top/setup.py" ] && [ ! -e "$WORK/skipbuild/git/127.0.0.1_$port/mid.git" ] &&
	grep -q "^skipped [0-9a-f]* third_party/mid$" "$WORK/skip-top.commit" &&
	grep -q "skip_submodules names 'vendor/typo', which is no submodule of the checkout" "$WORK/skip.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/skip.log" "$WORK/skip-top.commit"; ls "$WORK/skipbuild/git/"*)"
fi

t_case "skip_submodules in a config: check refuses paths outside the checkout, gen writes the checkout spec's skip="
cat >"$WORK/skipbad.yml" <<YML
defaults: {python: ["3.12"]}
packages:
  topkg:
    source: {git: "$base/top.git"}
    versions: ["1.1"]
    skip_submodules: [third_party/mid, ../x, /abs]
YML
if out/wheelgen check --config "$WORK/skipbad.yml" >"$WORK/skipbad.log" 2>&1; then
	t_fail "accepted"
elif [ "$(grep -c "in skip_submodules is not a submodule path inside the checkout" "$WORK/skipbad.log")" = 2 ] &&
	! grep -q "'third_party/mid' in skip_submodules" "$WORK/skipbad.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/skipbad.log")"
fi

t_case "only heads and tags are fetched, not refs/pull/*"
git -C "$WORK/work/top" commit -q --allow-empty -m "a pull request"
git -C "$WORK/work/top" push -q "$repos/top.git" HEAD:refs/pull/1/head 2>/dev/null
out/wheelgen fetch --url "$base/top.git" >/dev/null 2>&1 || true
if git -C "$repos/top.git" rev-parse -q --verify refs/pull/1/head >/dev/null &&
	! git -C "out/git/127.0.0.1_$port/top.git" for-each-ref | grep -q "refs/pull/"; then t_pass; else t_fail "$(git -C "out/git/127.0.0.1_$port/top.git" for-each-ref)"; fi

t_case "a submodule that cannot be fetched fails the checkout naming the package, the submodule and its url"
mkrepo broken
echo b >"$WORK/work/broken/b.txt"
git -C "$WORK/work/broken" add -A
git -C "$WORK/work/broken" -c protocol.file.allow=always submodule add -q "$repos/leaf.git" vendor/leaf >/dev/null 2>&1
git -C "$WORK/work/broken" config -f .gitmodules submodule.vendor/leaf.url git://127.0.0.1:9/gone.git
git -C "$WORK/work/broken" add -A && git -C "$WORK/work/broken" commit -qm b && git -C "$WORK/work/broken" tag v1.0
publish broken
printf 'package=broken\nversion=1.0\nurl=%s/broken.git\nref=v1.0\ndest=%s/broken\nstamp=%s/broken.commit\nlock=\n' \
	"$base" "$WORK" "$WORK" >"$WORK/broken.spec"
if out/wheelgen checkout --builddir out "$WORK/broken.spec" >"$WORK/broken.log" 2>&1; then
	t_fail "checked out with a submodule that cannot be fetched"
elif grep -q "broken 1.0: cannot fetch submodule 'vendor/leaf' from git://127.0.0.1:9/gone.git" "$WORK/broken.log" &&
	[ ! -e "$WORK/broken" ] && [ ! -e "$WORK/broken.commit" ]; then
	t_pass
else
	t_fail "$(cat "$WORK/broken.log"; find "$WORK" -maxdepth 1 -name "broken*")"
fi

t_case "WHEELGEN_GIT_REWRITE fetches an unreachable URL from a mirror; the mirror path keeps the config's URL"
if WHEELGEN_GIT_REWRITE="https://example.invalid/=$base/ https://example.invalid/nope/=git://127.0.0.1:9/" \
	out/wheelgen fetch --url https://example.invalid/leaf.git >"$WORK/rewrite.log" 2>&1 &&
	git -C out/git/example.invalid/leaf.git rev-parse -q --verify refs/tags/v1.0 >/dev/null; then
	t_pass
else
	t_fail "$(cat "$WORK/rewrite.log")" "$(ls out/git)"
fi

t_case "without the rewrite the same URL fails (the mirror was really used)"
if out/wheelgen fetch --url https://example.invalid/other.git >"$WORK/norewrite.log" 2>&1; then t_fail "fetched"; else t_pass; fi

t_case "a fetch killed with -9 mid re-clone: the next fetch puts the mirror set aside back and removes the dead clone, even offline"
m=out/git/127.0.0.1_$port/leaf.git
if [ -d "$m" ]; then
	mv "$m" "$m.old.2147483600"
	mkdir -p "$m.tmp.2147483601/objects"
	WHEELGEN_GIT_REWRITE="$base/=git://127.0.0.1:9/" out/wheelgen fetch --url "$base/leaf.git" >"$WORK/aside.log" 2>&1 || true
	if git -C "$m" rev-parse -q --verify refs/tags/v1.0 >/dev/null && [ ! -e "$m.old.2147483600" ] && [ ! -e "$m.tmp.2147483601" ] &&
		grep -q "set aside by a fetch that died; restored" "$WORK/aside.log"; then
		t_pass
	else
		t_fail "$(cat "$WORK/aside.log"; ls -d "$m"*)"
	fi
else
	t_fail "no mirror $m to work with"
fi

# a repository that asks for credentials: the token comes from the environment only, and no
# file of the build and no output holds it
token=wgplanted$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
mkdir -p "$WORK/auth"
printf 'wg:{PLAIN}%s\n' "$token" >"$WORK/auth/htpasswd"
t_case "a git server that asks for credentials: without WHEELGEN_GIT_TOKEN the fetch fails, saying where a token goes"
if aport=$(t_git_http_start "$repos" "$WORK/auth" "$WORK/auth/htpasswd" 2>"$WORK/auth.log"); then
	cat >auth.yml <<YML
defaults: {python: ["$py"]}
packages:
  topkg:
    source: {git: "http://127.0.0.1:$aport/top.git"}
    versions: ["1.1"]
    test_import: topkg
YML
	# shellcheck disable=SC2086
	./configure ${WG_CONFARGS:-} --config auth.yml --builddir outauth >"$WORK/authconf.log" 2>&1
	if ninja >"$WORK/noauth.log" 2>&1; then
		t_fail "built without credentials"
	elif grep -q "the server asks for credentials: give a token in WHEELGEN_GIT_TOKEN" "$WORK/noauth.log"; then
		t_pass
	else
		t_fail "$(tail -n 15 "$WORK/noauth.log")"
	fi
	t_case "with WHEELGEN_GIT_TOKEN (and WHEELGEN_GIT_USER) it builds, and the token is nowhere in outauth/, build.ninja or the output"
	if WHEELGEN_GIT_TOKEN=$token WHEELGEN_GIT_USER=wg ninja -v >"$WORK/auth.out" 2>&1; then
		leaks=$(grep -rl -F "$token" outauth build.ninja "$WORK/auth.out" 2>/dev/null || true)
		if [ -z "$leaks" ]; then t_pass; else t_fail "the token is in: $leaks"; fi
	else
		t_fail "$(tail -n 20 "$WORK/auth.out")"
	fi
else
	t_fail "cannot start the HTTP git server: $(cat "$WORK/auth.log")"
fi

t_case "a package whose version comes from git (setuptools_scm) builds from a tag: the checkout has no .git, the version is handed over"
mkrepo scmpkg
mkdir -p "$WORK/work/scmpkg/scmpkg"
cat >"$WORK/work/scmpkg/pyproject.toml" <<'TOML'
[build-system]
requires = ["setuptools>=64", "setuptools_scm>=8"]
build-backend = "setuptools.build_meta"
[project]
name = "scmpkg"
dynamic = ["version"]
[tool.setuptools]
packages = ["scmpkg"]
[tool.setuptools_scm]
TOML
echo "X = 1" >"$WORK/work/scmpkg/scmpkg/__init__.py"
git -C "$WORK/work/scmpkg" add -A && git -C "$WORK/work/scmpkg" commit -qm scm && git -C "$WORK/work/scmpkg" tag v3.1
publish scmpkg
cat >scm.yml <<YML
defaults: {python: ["$py"]}
packages:
  scmpkg:
    source: {git: "$base/scmpkg.git"}
    versions: ["3.1"]
    test_import: scmpkg
YML
# shellcheck disable=SC2086
./configure ${WG_CONFARGS:-} --config scm.yml --builddir outscm >"$WORK/scmconf.log" 2>&1
if ninja >"$WORK/scm.log" 2>&1 && grep -q "^filename=scmpkg-3.1-py3-none-any.whl$" "outscm/wheels/scmpkg-3.1-py$pyc/manifest"; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/scm.log"; cat "outscm/wheels/scmpkg-3.1-py$pyc/manifest" 2>/dev/null)"
fi
