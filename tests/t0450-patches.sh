#!/bin/sh
# patches: a package's patches: are applied (patch -p1) to the build's copy of the source,
# in order; the original tree is untouched; editing a patch rebuilds the wheel; a patch that
# does not apply stops the build with the reason; the container backends mount each patch
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"
t_mkpkg fixture/alpha alpha
# the patch: the default flavor "plain" becomes "patched" (made here, with diff, from a copy)
mkpatch() { # mkpatch NEW-FLAVOR: fixture/flavor.patch turning "plain" into NEW-FLAVOR
	rm -rf "$WORK/a" "$WORK/b"
	mkdir -p "$WORK/a" "$WORK/b"
	cp fixture/alpha/setup.py "$WORK/a/setup.py"
	sed "s/\"plain\"/\"$1\"/" fixture/alpha/setup.py >"$WORK/b/setup.py"
	(cd "$WORK" && diff -u a/setup.py b/setup.py) >fixture/flavor.patch || true
}
mkpatch patched
writeconfig() { # writeconfig FLAVOR-THE-TEST-WANTS
	cat >fixture/packages.yml <<YML
defaults:
  python: ["3.12"]
packages:
  alpha:
    source: {path: alpha}
    versions: ["1.0"]
    cuda: []
    patches: [flavor.patch]
    env: {FIXTURE_VERSION: "v{version}-py{python}", FIXTURE_LITERAL: "{not-a-placeholder}"}
    test_import: alpha
    test_command: python -c "import alpha; assert alpha.flavor() == '$1', alpha.flavor()"
YML
}
writeconfig patched
t_case "configure a fixture whose package has a patch"
# shellcheck disable=SC2086
if ./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/configure.log" 2>&1; then t_pass; else t_fail "$(cat "$WORK/configure.log")"; exit 0; fi
cell=$(ninja -t targets all 2>/dev/null | sed -n 's|^test/\(alpha-[^:]*\): phony$|\1|p' | head -n 1)
if [ -z "$cell" ]; then
	ninja build.ninja >/dev/null 2>&1 || true
	cell=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' 'NR == 2 {print $1}')
fi

t_case "the wheel is built from the patched copy (its test checks the patched value); the source tree is untouched"
if ninja "test/$cell" >"$WORK/build.log" 2>&1 && grep -q "wheelgen: applying .*flavor.patch" "out/logs/$cell.build.log" &&
	grep -q '"plain"' fixture/alpha/setup.py; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/build.log")"
fi

t_case "env values get the cell's {version} and {python}; other braces stay as written"
if grep -qx "wg_env 'FIXTURE_VERSION' 'v1.0-py312'" "out/cells/$cell/spec" &&
	grep -qx "wg_env 'FIXTURE_LITERAL' '{not-a-placeholder}'" "out/cells/$cell/spec"; then
	t_pass
else
	t_fail "$(grep wg_env "out/cells/$cell/spec")"
fi

t_case "editing the patch rebuilds the wheel (the patch is an input of the build)"
mkpatch patched-again
writeconfig patched-again
t_ninja_ran "$WORK/ran" "test/$cell" || true
if grep -qx "WHEEL $cell" "$WORK/ran" && grep -qx "TEST $cell" "$WORK/ran"; then t_pass; else t_fail "ran: $(cat "$WORK/ran")" "$(tail -n 15 "$WORK/ran.raw")"; fi

t_case "a patch that does not apply stops the build and says which"
printf -- '--- a/setup.py\n+++ b/setup.py\n@@ -1,1 +1,1 @@\n-this line is not there\n+nor this one\n' >fixture/flavor.patch
if ninja "wheel/$cell" >"$WORK/bad.log" 2>&1; then
	t_fail "the build succeeded"
elif grep -q "patch .*flavor.patch does not apply to alpha 1.0" "$WORK/bad.log"; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/bad.log")"
fi

t_case "the container backends mount each patch read-only at /wg/patches/<n>.patch"
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/docker"
chmod +x "$WORK/bin/docker"
# shellcheck disable=SC2086
if PATH=$WORK/bin:$PATH ./configure ${WG_CONFARGS:-} --config fixture/packages.yml --backend docker >"$WORK/configure2.log" 2>&1 &&
	ninja build.ninja >/dev/null 2>&1 &&
	PATH=$WORK/bin:$PATH sh templates/container-run.sh build --dry-run out "$cell" >"$WORK/dry.log" 2>&1 &&
	grep -q -- "-v $src/fixture/flavor.patch:/wg/patches/1.patch:ro" "$WORK/dry.log" &&
	grep -q -- "-e WG_PATCH_DIR=/wg/patches" "$WORK/dry.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/configure2.log" "$WORK/dry.log" | tail -n 20)"
fi
