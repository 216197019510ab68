#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086 # cases are single-quoted scripts (t_expect); WG_CONFARGS splits
# linux aarch64 cells on this x86_64 host: the quickstart with platforms [x86_64, aarch64] and
# Python 3.11 builds and tests both cells (the aarch64 one cross-built against a Debian arm64
# root file system made by ninja, repaired to a manylinux aarch64 tag, its extension ELF
# aarch64, its test run under qemu-user); the index lists both wheels, pip --platform
# manylinux_2_28_aarch64 resolves the aarch64 one and this host's pip installs the x86_64 one;
# the CUDA fixture for aarch64 (nvcc -ccbin the cross compiler) for two Pythons, the second's
# CUDA object a compile cache hit; a setuptools_scm package without extra_deps (its build
# requirements installed for the target); what a build backend's get_requires_for_build_wheel
# asks for, installed too; CMake's CUDA cross build through the toolchain file
# (examples/cmake-cuda); a wheel with a shared object of the wrong machine is refused, and so is
# an aarch64 wheel without a compiled module of the x86_64 wheel built here;
# a host without the cross tools says so at configure time and when the cell is asked for
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

if [ "$(uname -m)" != x86_64 ]; then
	echo "# skip - this test cross-builds aarch64 cells on an x86_64 host (this host is $(uname -m))"
	exit 0
fi
for tool in aarch64-linux-gnu-gcc qemu-aarch64-static mmdebstrap; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		t_case "the cross tools are installed"
		t_fail "$tool not found (tests/run.sh --install-deps installs gcc-aarch64-linux-gnu, qemu-user-static, mmdebstrap)"
		exit 0
	fi
done

src=$WORK/src
t_copytree "$src"
cd "$src"
qcfg=examples/quickstart/aarch64.yml
q=wgquickstart-0.1.0-py311 qa=wgquickstart-0.1.0-py311-aarch64

t_case "configure finds the cross tools for the aarch64 cells the config names"
if ./configure ${WG_CONFARGS:-} --config "$qcfg" >"$WORK/configure.log" 2>&1 && grep -q "^cross aarch64 " out/host.txt &&
	grep -q "^sysroot aarch64 3.11 bookworm $src/out/sysroots/aarch64-bookworm$" out/host.txt &&
	grep -q "machine    x86_64; cross: aarch64: " "$WORK/configure.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/configure.log")"
	exit 0
fi
if ! grep -q "^python 3.11 " out/host.txt; then
	t_case "a Python 3.11 on this host (the aarch64 cell's build runs in this machine's 3.11)"
	t_fail "configure found: $(t_pythons 9 | tr '\n' ' ')"
	exit 0
fi

t_expect "ninja builds and tests both cells; the root file system is made first" '
	start=$(date +%s)
	ninja >"$WORK/q.log" 2>&1
	echo "# the quickstart for x86_64 and aarch64: $(($(date +%s) - start)) s (the root file system: $(sed -n "s/.*root file system.*, \([0-9]*\) s$/\1/p" out/sysroots/aarch64-bookworm.log) s)"
	grep -q "SYSROOT .*aarch64-bookworm" "$WORK/q.log"
	[ -f "out/tests/$q.ok" ]
	[ -f "out/tests/$qa.ok" ]
'
t_expect "the aarch64 wheel: its extension is ELF aarch64, its tag manylinux aarch64, its manifest says aarch64; the x86_64 wheel is as it was" '
	w=$src/$(ls out/wheels/$qa/*.whl)
	case ${w##*/} in wgquickstart-0.1.0-cp311-cp311-manylinux_2_28_aarch64.whl) ;; *) echo "$w"; exit 1 ;; esac
	rm -rf "$WORK/x"
	mkdir "$WORK/x"
	cd "$WORK/x"
	unzip -q "$w"
	readelf -h wgquickstart/_speedups.cpython-311-aarch64-linux-gnu.so | grep -q "Machine: *AArch64"
	cd "$src"
	grep -q "^platform=aarch64$" "out/wheels/$qa/manifest"
	grep -q "^tags=cp311-cp311-manylinux_2_28_aarch64$" "out/wheels/$qa/manifest"
	ls out/wheels/$q/wgquickstart-0.1.0-cp311-cp311-manylinux_2_*_x86_64.whl
	grep -q "wheelgen: cross-building for aarch64 on x86_64: aarch64-linux-gnu-gcc" "out/logs/$qa.build.log"
'
t_expect "its test ran emulated: the log says so, the module was loaded by the Python of the root file system under qemu-user" '
	grep -q "^wheelgen: testing emulated (qemu-user, no binfmt_misc) for aarch64 on x86_64" "out/logs/$qa.test.log"
	grep -q "^imported compiled module wgquickstart._speedups$" "out/logs/$qa.test.log"
	grep -q "^emulated=qemu-aarch64-static$" "out/tests/$qa.ok"
	! grep -q "^emulated=" "out/tests/$q.ok" || exit 1
'

t_expect "both cells published to a directory store: a fresh clone's ninja restores the aarch64 cell (its wheel checked as aarch64) and builds nothing" '
	sed "/^# /d" "$qcfg" >examples/quickstart/aarch64-pub.yml
	printf "publish: {dir: \"%s\"}\n" "$WORK/store" >>examples/quickstart/aarch64-pub.yml
	./configure ${WG_CONFARGS:-} --config examples/quickstart/aarch64-pub.yml >"$WORK/pub.configure.log" 2>&1
	ninja publish >"$WORK/pub.log" 2>&1
	[ -f "$WORK/store/$qa.manifest" ] && [ -f "$WORK/store/$q.manifest" ]
	t_copytree "$WORK/fresh"
	cd "$WORK/fresh"
	./configure ${WG_CONFARGS:-} --config "$qcfg" >"$WORK/fresh.configure.log" 2>&1
	WHEELGEN_STORE=$WORK/store ninja >"$WORK/fresh.log" 2>&1
	grep -q "restored $qa from the store $WORK/store/" "$WORK/fresh.log"
	grep -q "^origin=store$" "out/wheels/$qa/manifest" && grep -q "^origin=store$" "out/wheels/$q/manifest"
	[ -z "$(find out/logs -name "*.build.log" -o -name "*.test.log")" ]
	! grep -q "building\|is not a wheel of" "$WORK/fresh.log"
	cd "$src" && ./configure ${WG_CONFARGS:-} --config "$qcfg" >>"$WORK/pub.configure.log" 2>&1
'

# the index, served by nginx: pip resolves each platform's wheel
nd=$WORK/nginx
port=$(t_freeport)
mkdir -p "$nd"
{
	t_nginx_head "$nd"
	printf '  access_log off;\n  server {\n    listen 127.0.0.1:%s;\n    root %s;\n  }\n}\n' "$port" "$src/out/index"
} >"$nd/nginx.conf"
stop_exit() {
	st=$?
	set +e
	[ -f "$nd/nginx.pid" ] && kill "$(cat "$nd/nginx.pid")" 2>/dev/null
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
nginx -c "$nd/nginx.conf" >"$nd/start.log" 2>&1 || cat "$nd/start.log"
t_expect "the index lists both wheels; pip download --platform manylinux_2_28_aarch64 resolves the aarch64 one, and pip here installs the x86_64 one, which works" '
	[ "$(grep -c "\.whl#sha256=" out/index/simple/wgquickstart/index.html)" -eq 2 ]
	grep -q "<td>aarch64</td>" out/index/index.html
	grep -q "<td>x86_64</td>" out/index/index.html
	python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_aarch64 --python-version 3.11 \
		--index-url "http://127.0.0.1:$port/simple/" -d "$WORK/dl" wgquickstart
	ls "$WORK/dl/wgquickstart-0.1.0-cp311-cp311-manylinux_2_28_aarch64.whl"
	py=$(sed -n "s/^python 3.11 //p" out/host.txt)
	"$py" -m venv "$WORK/venv"
	"$WORK/venv/bin/pip" install -q --no-deps --index-url "http://127.0.0.1:$port/simple/" wgquickstart
	ls "$WORK"/venv/lib/python3.11/site-packages/wgquickstart/_speedups.cpython-311-x86_64-linux-gnu.so
	"$WORK/venv/bin/python" -c "import wgquickstart; assert wgquickstart.fib(10) == 55"
'

# a package that ships a prebuilt shared object of this machine (x86_64), asked for aarch64
mkdir -p fixture/alien/alien
cat >fixture/alien/setup.py <<'PY'
from setuptools import setup
setup(name="alien", version="1.0", packages=["alien"], package_data={"alien": ["*.so"]})
PY
: >fixture/alien/alien/__init__.py
cp "$(python3 -c 'import _ctypes; print(_ctypes.__file__)')" fixture/alien/alien/libnative.so
cat >fixture/alien.yml <<'YML'
defaults: {python: ["3.11"], platforms: [aarch64]}
packages:
  alien:
    source: {path: alien}
    versions: ["1.0"]
    cuda: []
YML
t_expect "a wheel holding a shared object of another machine is refused by the build" '
	./configure ${WG_CONFARGS:-} --config fixture/alien.yml >"$WORK/alien.configure.log" 2>&1
	! ninja wheel/alien-1.0-py311-aarch64 >"$WORK/alien.log" 2>&1 || exit 1
	grep -q "holds shared objects of another machine than aarch64" "$WORK/alien.log"
	grep -q "alien/libnative.so (x86_64)" "out/logs/alien-1.0-py311-aarch64.build.log"
	[ ! -f out/wheels/alien-1.0-py311-aarch64/manifest ]
'

# a package whose setup.py leaves an extension out when the target is not x86_64: the aarch64
# wheel lacks a compiled module of the x86_64 wheel built here, and its build fails naming it
mkdir -p fixture/wgmods/wgmods
cat >fixture/wgmods/setup.py <<'PY'
import sysconfig
from setuptools import Extension, setup
ext = [Extension("wgmods._c", ["wgmods/_c.c"])]
if sysconfig.get_platform().endswith("x86_64"):
    ext.append(Extension("wgmods.fast._x", ["wgmods/_c.c"]))
setup(name="wgmods", version="1.0", packages=["wgmods", "wgmods.fast"], ext_modules=ext)
PY
mkdir -p fixture/wgmods/wgmods/fast
: >fixture/wgmods/wgmods/__init__.py
: >fixture/wgmods/wgmods/fast/__init__.py
printf '#include <Python.h>\nPyMODINIT_FUNC PyInit__c(void) { return NULL; }\n' >fixture/wgmods/wgmods/_c.c
cat >fixture/wgmods.yml <<'YML'
defaults: {python: ["3.11"], platforms: [x86_64, aarch64]}
packages:
  wgmods:
    source: {path: wgmods}
    versions: ["1.0"]
    cuda: []
YML
t_expect "an aarch64 wheel without a compiled module of the x86_64 wheel built here is refused, naming the module and both wheels" '
	./configure ${WG_CONFARGS:-} --config fixture/wgmods.yml >"$WORK/mods.configure.log" 2>&1
	ninja wheel/wgmods-1.0-py311 >"$WORK/mods.log" 2>&1
	! ninja wheel/wgmods-1.0-py311-aarch64 >>"$WORK/mods.log" 2>&1 || exit 1
	grep -q "wgmods-1.0-cp311-cp311-linux_aarch64.whl lacks compiled modules that the x86_64 wheel wgmods-1.0-cp311-cp311-manylinux_2_[0-9]*_x86_64.whl (wgmods-1.0-py311) has: wgmods.fast._x: the build for aarch64 left them out" "$WORK/mods.log"
	[ ! -f out/wheels/wgmods-1.0-py311-aarch64/manifest ]
'

# a C extension whose version comes from setuptools_scm (a generated version.py that the package
# imports), with no extra_deps: its [build-system].requires are installed for the target (tomli
# only where platform_machine is aarch64, which setup.py checks)
mkdir -p fixture/wgscm/wgscm
cat >fixture/wgscm/pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools>=64", "setuptools_scm>=8", "tomli; platform_machine == 'aarch64'"]
build-backend = "setuptools.build_meta"
[project]
name = "wgscm"
dynamic = ["version"]
[tool.setuptools]
packages = ["wgscm"]
[tool.setuptools_scm]
version_file = "wgscm/version.py"
TOML
cat >fixture/wgscm/setup.py <<'PY'
import tomli
from setuptools import Extension, setup
assert "_vendor" not in tomli.__file__, tomli.__file__
setup(ext_modules=[Extension("wgscm._c", ["wgscm/_c.c"])])
PY
printf 'from .version import version as __version__\nfrom ._c import answer\n' >fixture/wgscm/wgscm/__init__.py
cat >fixture/wgscm/wgscm/_c.c <<'C'
#include <Python.h>
static PyObject *answer(PyObject *self, PyObject *args) { (void)self; (void)args; return PyLong_FromLong(42); }
static PyMethodDef methods[] = {{"answer", answer, METH_NOARGS, NULL}, {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_c", NULL, -1, methods};
PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&module); }
C
cat >fixture/wgscm.yml <<'YML'
defaults: {python: ["3.11"], platforms: [aarch64]}
packages:
  wgscm:
    source: {path: wgscm}
    versions: ["0.3.0"]
    cuda: []
    test_command: python -c "import wgscm; assert wgscm.__version__ == '0.3.0', wgscm.__version__; assert wgscm.answer() == 42"
YML
t_expect "a setuptools_scm package without extra_deps: its build requirements, evaluated for aarch64, are installed; its wheel has the config's version and passes its test under qemu" '
	./configure ${WG_CONFARGS:-} --config fixture/wgscm.yml >"$WORK/scm.configure.log" 2>&1
	ninja test/wgscm-0.3.0-py311-aarch64 >"$WORK/scm.log" 2>&1
	grep -q "^wheelgen: cross: the build requirements of pyproject.toml for aarch64: setuptools>=64 setuptools_scm>=8 tomli $" out/logs/wgscm-0.3.0-py311-aarch64.build.log
	ls out/wheels/wgscm-0.3.0-py311-aarch64/wgscm-0.3.0-cp311-cp311-manylinux_2_28_aarch64.whl
	grep -q "^wheelgen: no x86_64 wheel of wgscm-0.3.0-py311 here: its compiled modules are not compared$" out/logs/wgscm-0.3.0-py311-aarch64.build.log
	[ -f out/tests/wgscm-0.3.0-py311-aarch64.ok ]
'

# a build backend that asks for more than its [build-system].requires (PEP 517's
# get_requires_for_build_wheel, as scikit-build-core asks for setuptools_scm when its version
# comes from there: spglib, docs/records/spglib-aarch64.md): an isolated build installs what it
# returns, and so must the cross build. Here an in-tree backend (backend-path) over setuptools'
# asks for setuptools_scm, which setup.py imports.
mkdir -p fixture/wgdyn/wgdyn fixture/wgdyn/_backend
cat >fixture/wgdyn/pyproject.toml <<'TOML'
[build-system]
requires = ["setuptools>=64"]
build-backend = "wgbackend"
backend-path = ["_backend"]
[project]
name = "wgdyn"
version = "0.1.0"
[tool.setuptools]
packages = ["wgdyn"]
TOML
cat >fixture/wgdyn/_backend/wgbackend.py <<'PY'
from setuptools.build_meta import *  # noqa: F403
def get_requires_for_build_wheel(config_settings=None):
    print("wgbackend: asked for the requirements of the wheel")
    return ["setuptools_scm>=8", "tomli; platform_machine == 'x86_64'"]
PY
cat >fixture/wgdyn/setup.py <<'PY'
import setuptools_scm  # noqa: F401 (only the backend's get_requires_for_build_wheel asks for it)
from setuptools import Extension, setup
setup(ext_modules=[Extension("wgdyn._c", ["wgdyn/_c.c"])])
PY
cp fixture/wgscm/wgscm/_c.c fixture/wgdyn/wgdyn/_c.c
printf 'from ._c import answer\n' >fixture/wgdyn/wgdyn/__init__.py
cat >fixture/wgdyn.yml <<'YML'
defaults: {python: ["3.11"], platforms: [aarch64]}
packages:
  wgdyn:
    source: {path: wgdyn}
    versions: ["0.1.0"]
    cuda: []
YML
t_expect "a build backend that asks for more (get_requires_for_build_wheel): the cross build installs what it returns, markers evaluated for aarch64" '
	./configure ${WG_CONFARGS:-} --config fixture/wgdyn.yml >"$WORK/dyn.configure.log" 2>&1
	ninja wheel/wgdyn-0.1.0-py311-aarch64 >"$WORK/dyn.log" 2>&1
	l=out/logs/wgdyn-0.1.0-py311-aarch64.build.log
	grep -q "^wgbackend: asked for the requirements of the wheel$" "$l"
	grep -q "^wheelgen: cross: what the build backend asks for besides (get_requires_for_build_wheel) for aarch64: setuptools_scm>=8 $" "$l"
	ls out/wheels/wgdyn-0.1.0-py311-aarch64/wgdyn-0.1.0-cp311-cp311-manylinux_2_28_aarch64.whl
'

t_expect "a host without the cross tools: configure says what is missing, and asking for the cell names the reason" '
	mkdir -p "$WORK/nobin"
	for f in /usr/bin/* /usr/local/bin/*; do
		case ${f##*/} in aarch64-linux-gnu-* | qemu-aarch64*) ;; *) [ -e "$WORK/nobin/${f##*/}" ] || ln -s "$f" "$WORK/nobin/" ;; esac
	done
	PATH=$WORK/nobin ./configure ${WG_CONFARGS:-} --config "$qcfg" >"$WORK/nocross.log" 2>&1
	grep -q "warning: the config names aarch64 cells, but this x86_64 host lacks what cross-builds them: gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static" "$WORK/nocross.log"
	! PATH=$WORK/nobin ninja "wheel/$qa" >"$WORK/nocross.ninja.log" 2>&1 || exit 1
	grep -q "cannot build $qa on this host: this x86_64 host has no cross toolchain for aarch64" "$WORK/nocross.ninja.log"
'

# the CUDA fixture for aarch64 (examples/cuda/aarch64.yml): Python 3.11 (bookworm) and 3.13 (trixie)
if ! grep -q "^cuda 13.0 " out/host.txt || ! grep -q "^python 3.13 " out/host.txt; then
	echo "# skip - the CUDA cells: this host lacks CUDA 13.0 or Python 3.13"
	exit 0
fi
t_expect "the CUDA fixture for aarch64, two Pythons: nvcc builds an aarch64 extension with GPU code for sm_90 (its manifest says so), tested under qemu (GPU test skipped); the CUDA object of the second Python is a compile cache hit" '
	./configure ${WG_CONFARGS:-} --config examples/cuda/aarch64.yml >"$WORK/cuda.configure.log" 2>&1
	# (one after the other: run together, the second would compile before the first stored its object)
	ninja test/wgcuda-0.1.0-py311-cu130-aarch64 >"$WORK/cuda.log" 2>&1
	ninja test/wgcuda-0.1.0-py313-cu130-aarch64 >>"$WORK/cuda.log" 2>&1
	for c in wgcuda-0.1.0-py311-cu130-aarch64 wgcuda-0.1.0-py313-cu130-aarch64; do
		[ -f "out/tests/$c.ok" ]
		grep -q "^gpu=skipped$" "out/tests/$c.ok"
		w=$src/$(ls out/wheels/$c/*.whl)
		case ${w##*/} in wgcuda-0.1.0+cu130-cp31[13]-cp31[13]-manylinux_2_*_aarch64.whl) ;; *) echo "$w"; exit 1 ;; esac
		rm -rf "$WORK/cx"
		mkdir "$WORK/cx"
		(cd "$WORK/cx" && unzip -q "$w")
		so=$(find "$WORK/cx" -name "_kernels*.so")
		readelf -h "$so" | grep -q "Machine: *AArch64"
		readelf -S "$so" | grep -q "\.nv_fatbin"
		grep -q "GPU code in the wheel: sm_90" "out/logs/$c.build.log"
		# (read from the aarch64 object as from an x86_64 one: the fat binary is the same)
		grep -q "^gpu_archs=sm_90$" "out/wheels/$c/manifest"
	done
	grep -q "SYSROOT .*aarch64-trixie" "$WORK/cuda.log"
	# (the second build of the same .cu file: its nvcc compile from the cache)
	sed -n "/ccache statistics of this build/,\$p" out/logs/wgcuda-0.1.0-py313-cu130-aarch64.build.log >"$WORK/cuda.stats"
	hits=$(sed -n "s/.*Hits: *\([0-9][0-9]*\).*/\1/p" "$WORK/cuda.stats" | head -n 1)
	[ "${hits:-0}" -ge 1 ]
'

t_expect "index.variants: the aarch64 cells get PEP 825 variant wheels too: each its cell's tested aarch64 wheel relabelled, listed beside the x86_64 ones in variants/simple/" '
	cp examples/cuda/aarch64.yml "$WORK/cuda-aarch64.yml"
	printf "index: {variants: true}\n" >>examples/cuda/aarch64.yml
	ninja index >"$WORK/variants.log" 2>&1
	cp "$WORK/cuda-aarch64.yml" examples/cuda/aarch64.yml
	page=out/index/variants/simple/wgcuda/index.html
	for c in wgcuda-0.1.0-py311-cu130-aarch64 wgcuda-0.1.0-py313-cu130-aarch64; do
		v=$(sed -n "s/^filename=//p" "out/variants/$c/manifest")
		case $v in wgcuda-0.1.0-cp31[13]-cp31[13]-manylinux_2_*_aarch64-cu130.whl) ;; *) echo "variant of $c: $v"; exit 1 ;; esac
		grep -q "$v" "$page"
		[ "$(sed -n "s/^variant_of=//p" "out/variants/$c/manifest")" = "$(basename out/wheels/$c/*.whl)" ]
		rm -rf "$WORK/va" "$WORK/vb" && mkdir "$WORK/va" "$WORK/vb"
		(cd "$WORK/va" && unzip -q "$src"/out/wheels/$c/*.whl && rm -rf ./*.dist-info)
		(cd "$WORK/vb" && unzip -q "$src/out/variants/$c/$v" && rm -rf ./*.dist-info)
		diff -r "$WORK/va" "$WORK/vb"
	done
	grep -q "wgcuda-0.1.0-cp311-cp311-manylinux_2_[0-9]*_x86_64-cu130.whl" "$page"
'

t_expect "CMake's CUDA cross build (examples/cmake-cuda, scikit-build-core, CUDA::cudart and CUDA::cublas, no torch): the toolchain file reaches CMake, with the target's cuBLAS from PyPI; the module is ELF aarch64 with GPU code for sm_90" '
	./configure ${WG_CONFARGS:-} --config examples/cmake-cuda/packages.yml >"$WORK/cmake.configure.log" 2>&1
	c=wgcmake-0.1.0-py311-cu130-aarch64
	ninja "test/$c" >"$WORK/cmake.log" 2>&1
	l=out/logs/$c.build.log
	grep -q "^  | set(CMAKE_CUDA_HOST_COMPILER \"/usr/bin/aarch64-linux-gnu-g++\")$" "$l"
	grep -q "The CUDA compiler identification is NVIDIA" "$l"
	grep -q "GPU code in the wheel: sm_90" "$l"
	grep -q "^wheelgen: cross: the CUDA libraries for aarch64: cuda-toolkit\[cublas,cudart\]==13.0.\* (what the build of wgcmake names)$" "$l"
	# the link: the shared runtime and cuBLAS of the target CUDA directory, from PyPI'"'"'s aarch64 wheels
	grep "Linking CXX shared module\|-shared .*-o _kernels" "$l" | grep -q "cuda-aarch64/targets/aarch64-linux/lib/libcublas.so"
	w=$src/$(ls out/wheels/$c/*.whl)
	case ${w##*/} in wgcmake-0.1.0+cu130-cp311-cp311-manylinux_2_*_aarch64.whl) ;; *) echo "$w"; exit 1 ;; esac
	rm -rf "$WORK/cm"
	mkdir "$WORK/cm"
	(cd "$WORK/cm" && unzip -q "$w")
	so=$WORK/cm/wgcmake/_kernels.cpython-311-aarch64-linux-gnu.so
	readelf -h "$so" | grep -q "Machine: *AArch64"
	readelf -S "$so" | grep -q "\.nv_fatbin"
'

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "the CMake wheel for aarch64 links the shared CUDA runtime and cuBLAS and carries neither: it requires cuda-toolkit[cublas,cudart]==13.0.*, finds them through RUNPATH \$ORIGIN/../nvidia/cu13/lib, and its test installs them from PyPI for aarch64 and calls into both under qemu where no toolkit is seen; auditwheel agrees with its tag (x86_64: t0700)" '
	a=wgcmake-0.1.0-py311-cu130-aarch64
	for c in $a; do
		w=$(ls out/wheels/$c/*.whl)
		unzip -p "$w" "*.dist-info/METADATA" | grep -qx "Requires-Dist: cuda-toolkit\[cublas,cudart\]==13.0.\*"
		rm -rf "$WORK/cmr"
		mkdir "$WORK/cmr"
		(cd "$WORK/cmr" && unzip -q "$src/$w")
		readelf -d "$WORK"/cmr/wgcmake/_kernels*.so >"$WORK/cmr.dyn"
		grep -q "Shared library: \[libcudart.so.13\]" "$WORK/cmr.dyn"
		grep -q "Shared library: \[libcublas.so.13\]" "$WORK/cmr.dyn"
		grep -q "Library runpath: \[\$ORIGIN/../nvidia/cu13/lib\]" "$WORK/cmr.dyn"
		[ -z "$(unzip -Z1 "$w" | grep "libcu")" ]
		grep -q "^wheelgen: the view: a mount namespace (unshare) hides" "out/logs/$c.test.log"
		grep -q "^wheelgen: the wheel requires (METADATA): cuda-toolkit\[cublas,cudart\]==13.0.\*$" "out/logs/$c.test.log"
		grep -q "^wgcmake: CUDA runtime 130[0-9]*, cuBLAS 13[0-9]*$" "out/logs/$c.test.log"
		grep -q "^imported wgcmake.selfcheck from" "out/logs/$c.test.log"
		[ -f "out/tests/$c.ok" ]
	done
	t_auditwheel_agrees out/wheels/$a/*.whl
'

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "no path of the build machine in any wheel built here, and a clone at another, longer path builds the CMake CUDA wheel cross-built for aarch64 to the same bytes" '
	for w in out/wheels/*/*.whl; do
		rm -rf "$WORK/bp"
		mkdir "$WORK/bp"
		(cd "$WORK/bp" && unzip -q "$src/$w")
		! grep -r -l -F "$src/out" "$WORK/bp" >"$WORK/bp.found" || exit 1
		[ ! -s "$WORK/bp.found" ] || { echo "$w names $src/out: $(cat "$WORK/bp.found")"; exit 1; }
	done
	t_copytree "$WORK/a/much/longer/clone"
	cd "$WORK/a/much/longer/clone"
	# (the wheelgen built here: the clone is about the wheels)
	./configure ${WG_CONFARGS:-} --wheelgen "$src/out/wheelgen" --config examples/cmake-cuda/packages.yml >"$WORK/clone.configure.log" 2>&1
	# (the cross-built CMake CUDA cell: a CUDA, a CMake and a cross cell at once, and the one whose
	# RUNPATH named the build directory; the x86_64 CMake cell never did)
	ninja wheel/wgcmake-0.1.0-py311-cu130-aarch64 >"$WORK/clone.log" 2>&1
	for c in wgcmake-0.1.0-py311-cu130-aarch64; do
		a=$(sed -n "s/^sha256=//p" "$src/out/wheels/$c/manifest") b=$(sed -n "s/^sha256=//p" "out/wheels/$c/manifest")
		[ -n "$a" ] && [ "$a" = "$b" ] || { echo "$c: $a here, $b in the clone"; exit 1; }
	done
'
