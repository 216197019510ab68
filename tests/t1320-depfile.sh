#!/bin/sh
# the wheel's depfile (BUILDDIR/wheels/<cell>/manifest.d) has one writer, wheelgen restore
# (gen/key.h, depfilewrite): a source file whose path has '$', a space and ':' is one dependency,
# the same after a fresh build as after a restore from the store, and an edit to it rebuilds
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

WHEELGEN_STORE=
export WHEELGEN_STORE
src=$WORK/src
t_copytree "$src"
cd "$src"
t_mkpkg fixture/alpha alpha
# shellcheck disable=SC2016 # (a literal $ in the file's name)
weird='fixture/alpha/data/we$ird :dir/a b:c.txt'
mkdir -p "${weird%/*}"
echo one >"$weird"
writeconfig() {
	cat >fixture/packages.yml <<YML
defaults:
  python: ["$1"]
packages:
  alpha:
    source: {path: alpha}
    versions: ["1.0"]
    test_import: alpha
publish: {dir: "$WORK/store"}
YML
}
mkdir -p "$WORK/store"
writeconfig 3.12
t_configure_or_stop fixture/packages.yml
t_need_pythons 1
writeconfig "$(t_pythons 1)"
cell=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' '$2 == "alpha" {print $1}')

# deps NAME: what ninja recorded from the wheel's depfile (its mtime aside) into $WORK/NAME
deps() {
	ninja -t deps "out/wheels/$cell/manifest" | sed 's/, deps mtime [0-9]* / /' >"$WORK/$1"
}

t_case "a fresh build: the depfile names the file with '\$', space and ':' as one source"
if ninja "wheel/$cell" >"$WORK/build.log" 2>&1 && deps fresh &&
	grep -qxF "    $src/$weird" "$WORK/fresh" && grep -qxF "    $src/fixture/alpha/setup.py" "$WORK/fresh"; then
	t_pass
else
	t_fail "$(cat "$WORK/build.log" "$WORK/fresh" 2>&1)"
fi

t_case "a restore from the store records the same dependencies as the fresh build"
if ninja "publish/$cell" >"$WORK/publish.log" 2>&1 && rm -rf "out/wheels/$cell" &&
	ninja "wheel/$cell" >"$WORK/restore.log" 2>&1 && grep -q "restored $cell from the store" "$WORK/restore.log" &&
	deps restored; then
	t_cmp "$WORK/fresh" "$WORK/restored"
else
	t_fail "$(cat "$WORK/publish.log" "$WORK/restore.log" 2>&1)"
fi

t_case "an edit to that file rebuilds the wheel (ninja follows the depfile)"
echo two >"$weird"
if ninja -n "wheel/$cell" | grep -q "WHEEL $cell"; then
	t_pass
else
	t_fail "$(ninja -d explain -n "wheel/$cell" 2>&1)"
fi
