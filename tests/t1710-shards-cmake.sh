#!/bin/sh
# shellcheck disable=SC2016,SC2034 # (cases are single-quoted scripts: t_expect; they read sha)
# shards through CMake: a scikit-build-core package (a static library of four sources and a
# module; CMake's own try-compiles; a new temporary build directory each time) built as 2 parts
# and then as one wheel that compiles nothing, the same bytes as a build in one piece
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure a scikit-build-core package with shards: \"2\""
t_copytree "$src"
mkdir -p "$src/skb/pkg/src"
cd "$src/skb"
cat >pkg/pyproject.toml <<'TOML'
[build-system]
requires = ["scikit-build-core>=0.10"]
build-backend = "scikit_build_core.build"

[project]
name = "wgskb"
version = "0.1.0"
requires-python = ">=3.8"

[tool.scikit-build]
wheel.packages = []
TOML
cat >pkg/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.15)
project(wgskb LANGUAGES C)
find_package(Python COMPONENTS Interpreter Development.Module REQUIRED)
add_library(core STATIC src/a.c src/b.c src/c.c src/d.c)
set_target_properties(core PROPERTIES POSITION_INDEPENDENT_CODE ON)
Python_add_library(wgskb MODULE src/ext.c WITH_SOABI)
target_link_libraries(wgskb PRIVATE core)
install(TARGETS wgskb DESTINATION .)
CMAKE
for f in a b c d; do echo "int $f(int x); int $f(int x) { return x + 1; }" >"pkg/src/$f.c"; done
cat >pkg/src/ext.c <<'C'
#include <Python.h>
int a(int); int b(int); int c(int); int d(int);
static PyObject *f(PyObject *s, PyObject *o) { (void)s; return PyLong_FromLong(a(b(c(d((int)PyLong_AsLong(o)))))); }
static PyMethodDef m[] = { { "f", f, METH_O, NULL }, { NULL, NULL, 0, NULL } };
static struct PyModuleDef mod = { PyModuleDef_HEAD_INIT, "wgskb", NULL, -1, m, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit_wgskb(void) { return PyModule_Create(&mod); }
C
cd "$src"
cat >skb/packages.yml <<'YML'
defaults:
  python: ["3.12"]
packages:
  wgskb:
    source: {path: pkg}
    versions: ["0.1.0"]
    cuda: []
    shards: "2"
    test_import: wgskb
    test_command: python -c "import wgskb; assert wgskb.f(1) == 5"
YML
# shellcheck disable=SC2086
if ./configure ${WG_CONFARGS:-} --config skb/packages.yml >"$WORK/configure.log" 2>&1; then t_pass; else t_fail "$(cat "$WORK/configure.log")"; exit 0; fi
py=$(sed -n 's/^python \(3\.[0-9]*\) .*/\1/p' out/host.txt | sort -t. -k2,2n | tail -n 1)
sed -i "s/python: \[\"3.12\"\]/python: [\"$py\"]/" skb/packages.yml
cell=wgskb-0.1.0-py$(echo "$py" | tr -d .)

t_expect "the two parts at once, then the wheel: nothing compiled, and the import test passes" '
	ninja "shard/$cell/1" "shard/$cell/2" >"$WORK/parts.log" 2>&1
	n=0
	for k in 1 2; do
		grep -q "Building project with Ninja" "out/logs/$cell.shard$k.log"
		n=$((n + $(sed -n "s/^compiled=//p" "out/shards/$cell/$k/objects")))
	done
	[ "$n" = 5 ]
	ninja "test/$cell" >"$WORK/test.log" 2>&1
	grep -qx "wheelgen: objects: 0 compiled, 5 reused, 0 from the family" "out/logs/$cell.build.log"'
sha=$(sed -n 's/^sha256=//p' "out/wheels/$cell/manifest")

sed -i 's/shards: "2"/shards: "1"/' skb/packages.yml
t_expect "the same wheel, byte for byte, from a build in one piece" '
	rm -rf out/shards "out/wheels/$cell"
	ninja "wheel/$cell" >"$WORK/one.log" 2>&1
	[ -n "$sha" ]
	[ "$(sed -n "s/^sha256=//p" "out/wheels/$cell/manifest")" = "$sha" ]'

# a PyPI source: its sdist is unpacked into the cell's directory, where the parts' objects are
# told apart by their source path as a path source's are, and patched there: a(x) = x + 2
# (its build requirement from the build venv, where uv installs it from its cache: pip's own
# isolated environments would fetch it from PyPI, twice a build)
sed -i 's/shards: "1"/shards: "2"/; s/== 5"/== 6"/; s|source: {path: pkg}|source: {pypi: true}\n    extra_deps: ["scikit-build-core>=0.10"]\n    build_args: "--no-build-isolation"\n    patches: [a.patch]|' skb/packages.yml
t_expect "a PyPI source (the sdist from a local find-links) in two parts, patched: the wheel compiles nothing, and the import test sees the patch" '
	uv=$(sed -n "s/^uv //p" out/host.txt)
	"$uv" build -q --sdist -o "$WORK/dl" skb/pkg >"$WORK/sdist.log" 2>&1 || { cat "$WORK/sdist.log"; exit 1; }
	mkdir -p "$WORK/p/a/src" "$WORK/p/b/src"
	cp skb/pkg/src/a.c "$WORK/p/a/src/a.c"
	sed "s/x + 1/x + 2/" skb/pkg/src/a.c >"$WORK/p/b/src/a.c"
	(cd "$WORK/p" && diff -u a/src/a.c b/src/a.c) >skb/a.patch || true
	grep -q "^+.*x + 2" skb/a.patch
	rm -rf out/shards "out/wheels/$cell"
	export PIP_FIND_LINKS="$WORK/dl" PIP_NO_INDEX=1
	ninja "shard/$cell/1" "shard/$cell/2" >"$WORK/pypi-parts.log" 2>&1 || { tail -n 30 "$WORK/pypi-parts.log"; exit 1; }
	grep -q "wheelgen: the sdist of wgskb 0.1.0, unpacked into" "out/logs/$cell.shard1.log"
	grep -q "wheelgen: applying .*a.patch" "out/logs/$cell.shard1.log"
	ninja "test/$cell" >"$WORK/pypi-test.log" 2>&1 || { tail -n 30 "$WORK/pypi-test.log"; exit 1; }
	grep -x "wheelgen: objects: .*" "out/logs/$cell.build.log"
	grep -qx "wheelgen: objects: 0 compiled, 5 reused, 0 from the family" "out/logs/$cell.build.log"'
