#!/bin/sh
# incremental builds, counted from what ninja actually ran: a no-op build runs nothing,
# an env change re-runs only that package's cells, a new Python only the new cells, a
# comment only the regeneration; plus source edits, generator edits, test-only edits,
# a failing cell next to good ones (ninja -k 0) and a cell this host cannot build
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# (editing gen/*.c must rebuild wheelgen: not the run's prebuilt one)
unset WHEELGEN_PREBUILT
src=$WORK/src
t_copytree "$src"
cd "$src"
t_mkpkg fixture/alpha alpha
t_mkpkg fixture/beta beta
writeconfig() { # writeconfig PYTHONS FLAVOR BETA-TEST-IMPORT [EXTRA]
	cat >fixture/packages.yml <<YML
# incremental fixture
defaults:
  python: [$1]
packages:
  alpha:
    source: {path: alpha}
    versions: ["1.0"]
    env: {FIXTURE_FLAVOR: "$2"}
    test_import: alpha
  beta:
    source: {path: beta}
    versions: ["1.0"]
    test_import: $3
${4:-}
YML
}
writeconfig '"3.12"' one beta
t_configure_or_stop fixture/packages.yml
t_need_pythons 2
# shellcheck disable=SC2046
set -- $(t_pythons 2)
py1=$1 py2=$2
c() { echo "$1" | tr -d .; }
a1=alpha-1.0-py$(c "$py1") a2=alpha-1.0-py$(c "$py2")
b1=beta-1.0-py$(c "$py1") b2=beta-1.0-py$(c "$py2")

writeconfig "\"$py1\"" one beta

t_case "first build runs the generator, every wheel, every test and the index"
t_ninja_ran "$WORK/ran1" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran1.raw")"
grep -v '^CC \|^LINK ' "$WORK/ran1" >"$WORK/ran1.cells"
t_ran_is "$WORK/ran1.cells" "REGEN fixture/packages.yml" "WHEEL $a1" "WHEEL $b1" "TEST $a1" "TEST $b1" "INDEX out/index"

t_case "a no-op ninja runs nothing"
t_ninja_ran "$WORK/ran2"
if [ -s "$WORK/ran2" ] || ! grep -q "no work to do" "$WORK/ran2.raw"; then t_fail "$(cat "$WORK/ran2.raw")"; else t_pass; fi

t_case "changing one package's env re-runs only that package's cells"
writeconfig "\"$py1\"" two beta
t_ninja_ran "$WORK/ran3" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran3.raw")"
t_ran_is "$WORK/ran3" "REGEN fixture/packages.yml" "WHEEL $a1" "TEST $a1" "INDEX out/index"

t_case "the rebuilt wheel carries the new env"
venv=$WORK/venv
t_venv "$venv" "$(sed -n "s/^python $py1 //p" out/host.txt)"
"$venv/bin/pip" install -q --no-index --find-links "out/wheels/$a1" alpha >/dev/null 2>&1
t_check test "$(cd / && "$venv/bin/python" -c 'import alpha; print(alpha.flavor())')" = two

t_case "adding one Python version runs only the new cells"
writeconfig "\"$py1\", \"$py2\"" two beta
t_ninja_ran "$WORK/ran4" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran4.raw")"
t_ran_is "$WORK/ran4" "REGEN fixture/packages.yml" "WHEEL $a2" "WHEEL $b2" "TEST $a2" "TEST $b2" "INDEX out/index"

t_case "a comment-only edit runs only the regeneration"
echo "# a comment at the end" >>fixture/packages.yml
t_ninja_ran "$WORK/ran5" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran5.raw")"
t_ran_is "$WORK/ran5" "REGEN fixture/packages.yml"

t_case "a build setting that decides nothing in the wheel (configure --max-jobs) rebuilds the wheels; identical wheels stop there (restat)"
# shellcheck disable=SC2086
CC=$(t_cc) ./configure ${WG_CONFARGS:-} --config fixture/packages.yml --max-jobs 3 >"$WORK/configure6.log" 2>&1 || t_fail "$(cat "$WORK/configure6.log")"
t_ninja_ran "$WORK/ran6" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran6.raw")"
grep -v '^REGEN ' "$WORK/ran6" >"$WORK/ran6.cells"
t_ran_is "$WORK/ran6.cells" "WHEEL $a1" "WHEEL $a2" "WHEEL $b1" "WHEEL $b2"

t_case "a comment in a source file changes that package's keys (depfile): its wheels rebuild, identical, and their tests run for the new keys"
echo "/* edited */" >>fixture/alpha/alpha/_c.c
t_ninja_ran "$WORK/ran6a" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran6a.raw")"
t_ran_is "$WORK/ran6a" "WHEEL $a1" "WHEEL $a2" "TEST $a1" "TEST $a2" "INDEX out/index"

t_case "a real source change rebuilds, re-tests and re-indexes that package's cells"
echo "EDITED = True" >>fixture/alpha/alpha/__init__.py
t_ninja_ran "$WORK/ran6b" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran6b.raw")"
t_ran_is "$WORK/ran6b" "WHEEL $a1" "WHEEL $a2" "TEST $a1" "TEST $a2" "INDEX out/index"

t_case "a path source is copied whole: a symlink as its target's content, a name with a blank and a '#'"
# the link points outside the package's tree, as a shared header or module may
mkdir -p "fixture/alpha/data dir"
echo 'LINKED = "first"' >fixture/shared_linked.py
ln -s ../../shared_linked.py fixture/alpha/alpha/linked.py
echo one >"fixture/alpha/data dir/a #1.txt"
echo "from .linked import LINKED" >>fixture/alpha/alpha/__init__.py
linked() { # linked CELL: LINKED as the cell's wheel has it
	python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.read("alpha/linked.py").decode().strip())' out/wheels/"$1"/alpha-*.whl
}
if t_ninja_ran "$WORK/ran6c" && [ "$(linked "$a1")" = 'LINKED = "first"' ] &&
	ninja -t deps "out/wheels/$a1/manifest" >"$WORK/deps6c" &&
	grep -q 'fixture/alpha/data dir/a #1.txt$' "$WORK/deps6c" && grep -q 'fixture/alpha/alpha/linked.py$' "$WORK/deps6c"; then
	echo 'LINKED = "second"' >fixture/shared_linked.py
	echo two >"fixture/alpha/data dir/a #1.txt"
	if t_ninja_ran "$WORK/ran6d" && grep -q "^WHEEL $a1\$" "$WORK/ran6d" && grep -q "^TEST $a1\$" "$WORK/ran6d" &&
		[ "$(linked "$a1")" = 'LINKED = "second"' ]; then
		t_pass
	else
		t_fail "after editing the link's target: $(cat "$WORK/ran6d")" "$(linked "$a1" 2>&1)"
	fi
else
	t_fail "$(tail -n 20 "$WORK/ran6c.raw")" "$(cat "$WORK/deps6c" 2>&1)" "$(linked "$a1" 2>&1)"
fi

t_case "changing only test_import re-runs the tests, not the wheels"
writeconfig "\"$py1\", \"$py2\"" two "[beta, beta._c]"
t_ninja_ran "$WORK/ran7" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran7.raw")"
t_ran_is "$WORK/ran7" "REGEN fixture/packages.yml" "TEST $b1" "TEST $b2"

t_case "the test step imports test_import: a missing module fails the test, not the build"
writeconfig "\"$py1\", \"$py2\"" two "[beta, beta.nosuchmodule]"
if t_ninja_ran "$WORK/ran7b" "test/$b1"; then
	t_fail "the test passed with a missing module"
elif grep -q "^wheelgen: test $b1 failed; log: out/logs/$b1.test.log" "$WORK/ran7b.raw" && grep -q "nosuchmodule" "$WORK/ran7b.raw" &&
	! grep -q "^WHEEL" "$WORK/ran7b"; then
	t_pass
else
	t_fail "$(cat "$WORK/ran7b.raw")"
fi

t_case "ninja -k 0 with one package's tests failing: the index holds the passing cells only, and says what it left out"
if t_ninja_ran "$WORK/ran7c" -k 0; then
	t_fail "ninja succeeded with failing tests"
elif grep -q "^INDEX out/index$" "$WORK/ran7c" && [ "$(grep -c '\.whl#sha256=' out/index/simple/alpha/index.html)" -eq 2 ] &&
	[ ! -e out/index/simple/beta ] && ! grep -q 'beta-1.0' out/index/simple/index.html &&
	[ -z "$(find out/index/files -name 'beta-*')" ] &&
	grep -q "^wheelgen: index: left out $b1: beta-1.0-.*\.whl has not passed its test" "$WORK/ran7c.raw" &&
	grep -q "wheelgen: test $b1 failed (see above; log: out/logs/$b1.test.log)" "$WORK/ran7c.raw"; then
	t_pass
else
	t_fail "$(cat "$WORK/ran7c")" "$(grep -v '^  |' "$WORK/ran7c.raw" | tail -n 20)"
fi

t_case "after a failed test the next ninja tests that cell again"
writeconfig "\"$py1\", \"$py2\"" two "[beta, beta._c]"
t_ninja_ran "$WORK/ran7d" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran7d.raw")"
t_ran_is "$WORK/ran7d" "REGEN fixture/packages.yml" "TEST $b1" "TEST $b2" "INDEX out/index"
if [ "$(grep -c '\.whl#sha256=' out/index/simple/beta/index.html 2>/dev/null)" != 2 ]; then
	t_case "the index holds the cells whose tests pass again"
	t_fail "$(cat out/index/simple/beta/index.html 2>&1)"
fi

t_case "editing gen/*.c rebuilds wheelgen, regenerates and re-indexes in the same run, and nothing else"
# (a room of wheelgen's alone: esc.c, say, is wheelgen-cc's and wheelgen-step's too)
echo "/* edited */" >>gen/landing.c
t_ninja_ran "$WORK/ran8" || t_fail "ninja failed: $(tail -n 30 "$WORK/ran8.raw")"
t_ran_is "$WORK/ran8" "CC gen/landing.c" "LINK out/wheelgen" "REGEN fixture/packages.yml" "INDEX out/index"

t_case "a failing cell prints its log path and tail; ninja -k 0 builds the others"
t_mkpkg fixture/gamma gamma
echo "this is not C" >>fixture/gamma/gamma/_c.c
t_mkpkg fixture/delta delta
writeconfig "\"$py1\", \"$py2\"" two "[beta, beta._c]" "  gamma: {source: {path: gamma}, versions: [\"1.0\"], python: [\"$py2\"], test_import: gamma}
  delta: {source: {path: delta}, versions: [\"1.0\"], python: [\"$py2\"], test_import: delta}"
g2=gamma-1.0-py$(c "$py2") d2=delta-1.0-py$(c "$py2")
if t_ninja_ran "$WORK/ran9" -k 0; then
	t_fail "ninja succeeded with a broken package"
elif ! grep -q "^wheelgen: wheel $g2 failed; log: out/logs/$g2.build.log" "$WORK/ran9.raw"; then
	t_fail "no log path in the failure" "$(tail -n 30 "$WORK/ran9.raw")"
elif ! grep -q "this is not C" "$WORK/ran9.raw"; then
	t_fail "the log's tail (with the compiler error) was not shown" "$(tail -n 30 "$WORK/ran9.raw")"
elif [ ! -f "out/tests/$d2.ok" ]; then
	t_fail "the good cell next to the broken one was not built and tested" "$(cat "$WORK/ran9")"
else
	t_pass
fi

t_case "asking for a cell this host cannot build fails with the reason"
writeconfig "\"$py1\", \"$py2\", \"3.6\", \"3.15t\"" two "[beta, beta._c]"
if ninja wheel/alpha-1.0-py315t >"$WORK/ran10.raw" 2>&1; then
	t_fail "ninja built a cell for a Python this host does not have"
else
	if grep -q "cannot build alpha-1.0-py315t on this host: Python 3.15t was not found" "$WORK/ran10.raw"; then t_pass; else t_fail "$(cat "$WORK/ran10.raw")"; fi
fi

t_case "the default target leaves out cells this host cannot build"
if ninja -n >"$WORK/ran11.raw" 2>&1 && ! grep -q py315t "$WORK/ran11.raw"; then t_pass; else t_fail "$(grep py315t "$WORK/ran11.raw" | head -n 5)"; fi
