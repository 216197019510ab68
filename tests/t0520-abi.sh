#!/bin/sh
# abi: abi3: one wheel per version (and CUDA/torch) for every Python of the package: one build
# edge, a test edge per Python, one wheel in the index; a package that claims abi3 but builds
# a CPython-specific wheel fails with a message that says so
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"
mkabi() { # mkabi DIR NAME LIMITED(1|0)
	mkdir -p "$1/$2"
	printf '[build-system]\nrequires = ["setuptools>=61", "wheel"]\nbuild-backend = "setuptools.build_meta"\n' >"$1/pyproject.toml"
	if [ "$3" = 1 ]; then
		cat >"$1/setup.py" <<SETUP
from setuptools import setup, Extension
setup(name="$2", version="1.0", packages=["$2"],
      ext_modules=[Extension("$2._c", ["$2/_c.c"], define_macros=[("Py_LIMITED_API", "0x03080000")], py_limited_api=True)],
      options={"bdist_wheel": {"py_limited_api": "cp38"}})
SETUP
	else
		cat >"$1/setup.py" <<SETUP
from setuptools import setup, Extension
setup(name="$2", version="1.0", packages=["$2"], ext_modules=[Extension("$2._c", ["$2/_c.c"])])
SETUP
	fi
	echo "from ._c import hello" >"$1/$2/__init__.py"
	cat >"$1/$2/_c.c" <<CSRC
#include <Python.h>
static PyObject *hello(PyObject *self, PyObject *args) { (void)self; (void)args; return PyUnicode_FromString("abi3"); }
static PyMethodDef methods[] = { {"hello", hello, METH_NOARGS, "hello"}, {NULL, NULL, 0, NULL} };
static struct PyModuleDef mod = { PyModuleDef_HEAD_INIT, "_c", NULL, -1, methods, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&mod); }
CSRC
}
mkabi fixture/stable stable 1
mkabi fixture/notstable notstable 0
writeconfig() { # writeconfig PYTHONS PACKAGES...
	pys=$1
	shift
	{
		printf 'defaults:\n  python: [%s]\npackages:\n' "$pys"
		for p in "$@"; do
			printf '  %s:\n    source: {path: %s}\n    versions: ["1.0"]\n    abi: abi3\n    test_import: %s\n' "$p" "$p" "$p"
		done
	} >fixture/packages.yml
}
writeconfig '"3.12"' stable
t_configure_or_stop fixture/packages.yml
t_need_pythons 3
# shellcheck disable=SC2046
set -- $(t_pythons 3)
py1=$1 py2=$2 py3=$3
c() { echo "$1" | tr -d .; }
s1=stable-1.0-py$(c "$py1") s2=stable-1.0-py$(c "$py2") s3=stable-1.0-py$(c "$py3")
writeconfig "\"$py1\", \"$py2\", \"$py3\"" stable

t_case "matrix: the two higher Pythons' cells are built by the lowest's (table, tsv)"
out/wheelgen matrix --table --host out/host.txt >"$WORK/table"
out/wheelgen matrix --tsv >"$WORK/tsv"
if grep -q "^$s2 *x86_64 *yes (built by $s1)$" "$WORK/table" && grep -q "^$s3 *x86_64 *yes (built by $s1)$" "$WORK/table" &&
	grep -q "^$s1 *x86_64 *yes$" "$WORK/table" && [ "$(awk -F'\t' 'NR > 1 {print $8}' "$WORK/tsv" | sort -u)" = "$s1" ]; then
	t_pass
else
	t_fail "$(cat "$WORK/table" "$WORK/tsv")"
fi

t_case "one build edge, three test edges, one wheel in the index"
if ! t_ninja_ran "$WORK/ran"; then
	t_fail "$(tail -n 30 "$WORK/ran.raw")"
else
	nwheel=$(grep -c "^WHEEL " "$WORK/ran" || true)
	ntest=$(grep -c "^TEST " "$WORK/ran" || true)
	nshare=$(grep -c "^ABI3 " "$WORK/ran" || true)
	links=$(grep -c '\.whl#sha256=' out/index/simple/stable/index.html 2>/dev/null || echo 0)
	if [ "$nwheel" = 1 ] && grep -q "^WHEEL $s1$" "$WORK/ran" && [ "$ntest" = 3 ] && [ "$nshare" = 2 ] && [ "$links" = 1 ] &&
		grep -q 'stable-1.0-cp38-abi3-manylinux_2_[0-9]*_x86_64.whl#sha256=' out/index/simple/stable/index.html; then
		t_pass
	else
		t_fail "WHEEL $nwheel, TEST $ntest, ABI3 $nshare, index links $links" "$(cat "$WORK/ran")" "$(cat out/index/simple/stable/index.html 2>/dev/null)"
	fi
fi

t_case "each Python's test installed the one wheel into its own venv (the manifests name the cell, its Python, the builder)"
ok=1
for cc in "$s2:$py2" "$s3:$py3"; do
	cell=${cc%%:*} py=${cc#*:}
	m=out/wheels/$cell/manifest
	grep -q "^cell=$cell$" "$m" && grep -q "^python=$py$" "$m" && grep -q "^abi_from=$s1$" "$m" &&
		grep -q "^filename=stable-1.0-cp38-abi3-manylinux_2_[0-9]*_x86_64.whl$" "$m" && [ -f "out/tests/$cell.ok" ] &&
		grep -q "Python $py" "out/logs/$cell.test.log" 2>/dev/null || ok=0
done
if [ "$ok" = 1 ]; then t_pass; else t_fail "$(cat out/wheels/"$s2"/manifest; tail -n 20 "out/logs/$s2.test.log")"; fi

t_case "a no-op ninja runs nothing"
if t_ninja_ran "$WORK/ran2" && [ ! -s "$WORK/ran2" ]; then t_pass; else t_fail "$(cat "$WORK/ran2")"; fi

# shellcheck disable=SC2016
# (in copies of the tree, so that this build directory stays as it is; the shared cells are made
# again from the restored wheel and tested again: their test records are not restored)
t_expect "published to a directory store, the builder is restored by a fresh copy (its cp38-abi3 wheel taken as a wheel for Python $py1) and nothing is built" '
	t_copytree "$WORK/pub"
	cp -R fixture "$WORK/pub/"
	cd "$WORK/pub"
	printf "publish: {dir: \"%s\"}\n" "$WORK/store" >>fixture/packages.yml
	./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/pub.configure.log" 2>&1
	ninja publish >"$WORK/pub.log" 2>&1 || { tail -n 20 "$WORK/pub.log"; exit 1; }
	[ -f "$WORK/store/$s1.manifest" ]
	[ -f "$WORK/store/$s3.manifest" ]
	t_copytree "$WORK/fresh"
	cp -R "$src/fixture" "$WORK/fresh/"
	cd "$WORK/fresh"
	./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/fresh.configure.log" 2>&1
	WHEELGEN_STORE=$WORK/store ninja >"$WORK/fresh.log" 2>&1 || { tail -n 20 "$WORK/fresh.log"; exit 1; }
	cat "$WORK/fresh.log"
	grep -q "restored $s1 from the store $WORK/store/" "$WORK/fresh.log"
	! grep -q "not for Python\|damaged" "$WORK/fresh.log" || exit 1
	[ -z "$(find out/logs -name "*.build.log" -o -name "$s1.test.log")" ]
	grep -q "^origin=store$" "out/wheels/$s1/manifest"
	grep -q "^abi_from=$s1$" "out/wheels/$s3/manifest"
'

t_case "a package that claims abi3 but builds a CPython-specific wheel fails, saying so"
writeconfig "\"$py1\", \"$py2\"" notstable
if ninja >"$WORK/bad.log" 2>&1; then
	t_fail "built"
elif grep -q "built notstable-1.0-cp$(c "$py1")-cp$(c "$py1").*, which is not an abi3 wheel: the package's 'abi: abi3' does not hold" "$WORK/bad.log"; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/bad.log")"
fi

# torch_abi: stable (and abi3 with it): the matrix and the shared cell's manifest; no torch is
# installed here (t0800 builds a torch extension): the share step runs on a stand-in build
cu=$(sed -n 's/^cuda \([0-9.]*\) \/usr.*/\1/p' out/host.txt | tail -n 1)
cat >fixture/torch.yml <<YML
defaults: {python: ["$py1", "$py2"], cuda: ["$cu"]}
torch:
  "2.14": {cuda: ["$cu"], python: ["$py1", "$py2"], pypi: "$cu"}
  "2.15": {cuda: ["$cu"], python: ["$py1", "$py2"], pypi: "$cu"}
packages:
  sab:
    source: {path: stable}
    versions: ["1.0"]
    torch: ["2.14", "2.15"]
    abi: abi3
    torch_abi: stable
    torch_requirement: "torch>={torch}"
    local_version: "cu{cuda}"
    test_import: stable
YML
c2() { echo "$1" | tr -d .; }
b=sab-1.0-py$(c2 "$py1")-cu$(c2 "$cu")-torch2.14
o=sab-1.0-py$(c2 "$py2")-cu$(c2 "$cu")-torch2.15
t_case "torch_abi: stable with abi3: every cell of a CUDA version is built by the lowest Python's and torch's"
out/wheelgen matrix --config fixture/torch.yml --table --host out/host.txt >"$WORK/ttable"
if [ "$(grep -c "(built by $b)$" "$WORK/ttable")" = 3 ] && grep -q "^$b *x86_64 *yes$" "$WORK/ttable"; then
	t_pass
else
	t_fail "$(cat "$WORK/ttable")"
fi

t_case "the shared cell's manifest names its own Python and torch, and the torch its test installs"
mkdir -p outt/wheels/"$b"
cp out/wheelgen out/wheelgen-step out/host.txt outt/
out/wheelgen gen --config fixture/torch.yml --builddir outt --host out/host.txt >/dev/null 2>&1
w=sab-1.0+cu$(c2 "$cu")-cp38-abi3-linux_x86_64.whl
echo stand-in >"outt/wheels/$b/$w"
printf 'cell=%s\npackage=sab\nversion=1.0\npython=%s\ncuda=%s\ntorch=2.14\ntorch_version=2.14.1\nfilename=%s\nsha256=%064d\nsize=9\ntested=%064d\ngpu=skipped\n' \
	"$b" "$py1" "$cu" "$w" 0 0 >"outt/wheels/$b/manifest"
if sh templates/abi-share.sh outt "$b" "$o" fixture/torch.yml >"$WORK/share.log" 2>&1; then
	m=outt/wheels/$o/manifest
	if grep -q "^cell=$o$" "$m" && grep -q "^python=$py2$" "$m" && grep -q "^torch=2.15$" "$m" &&
		grep -q "^torch_version=2.14.1$" "$m" && grep -q "^test_torch=2.15\.\*$" "$m" && grep -q "^abi_from=$b$" "$m" &&
		grep -q -E "^key=[0-9a-f]{64}$" "$m" && ! grep -q "^tested=\|^gpu=" "$m" && [ "$(stat -c %i "outt/wheels/$o/$w")" = "$(stat -c %i "outt/wheels/$b/$w")" ]; then
		t_pass
	else
		t_fail "$(cat "$m")"
	fi
else
	t_fail "$(cat "$WORK/share.log")"
fi
