#!/bin/sh
# the test step loads every compiled module of the wheel, not only test_import: a package that
# imports its extension inside try/except, whose extension has an unresolved symbol, fails
# naming the module; an extension that links the NVIDIA driver (-lcuda) is recorded as
# needs-gpu on a host without one (not a failure, not passed); a good one is recorded. And
# the build's peak memory against the pool's budget
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"
# mkext DIR NAME CSRC SETUP-EXTRA: a package NAME whose __init__ imports NAME._c inside try/except
mkext() {
	mkdir -p "$1/$2"
	printf '[build-system]\nrequires = ["setuptools>=40.8", "wheel"]\nbuild-backend = "setuptools.build_meta"\n' >"$1/pyproject.toml"
	cat >"$1/setup.py" <<SETUP
from setuptools import setup, Extension
setup(name="$2", version="1.0", packages=["$2"],
      ext_modules=[Extension("$2._c", ["$2/_c.c"]$4)])
SETUP
	printf 'try:\n    from . import _c\nexcept ImportError:\n    _c = None\n' >"$1/$2/__init__.py"
	cat >"$1/$2/_c.c" <<CSRC
#include <Python.h>
$3
static struct PyModuleDef mod = { PyModuleDef_HEAD_INIT, "_c", NULL, -1, NULL, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&mod); }
CSRC
}
mkext fixture/broken broken 'extern int wheelgen_missing_symbol(void); int use(void) { return wheelgen_missing_symbol(); }' ''
# (the same broken module in a distribution of its own name: a wheel of another name is refused)
mkext fixture/skipped skipped 'extern int wheelgen_missing_symbol(void); int use(void) { return wheelgen_missing_symbol(); }' ''
mkext fixture/driver driver 'extern int cuInit(unsigned int); int use(void) { return cuInit(0); }' \
	', library_dirs=["/usr/local/cuda/lib64/stubs"], libraries=["cuda"]'
mkext fixture/fine fine '' ''
# mklib DIR NAME CSRC: a package NAME with NAME/_ops.so, a library without PyInit__ops that its
# __init__ loads by path (as torch.ops.load_library does: xformers 0.0.35's _C)
mklib() {
	mkdir -p "$1/$2"
	printf '[build-system]\nrequires = ["setuptools>=40.8", "wheel"]\nbuild-backend = "setuptools.build_meta"\n' >"$1/pyproject.toml"
	printf 'from setuptools import setup, Extension\nsetup(name="%s", version="1.0", packages=["%s"], ext_modules=[Extension("%s._ops", ["%s/ops.c"])])\n' "$2" "$2" "$2" "$2" >"$1/setup.py"
	printf 'import ctypes, glob, os\ntry:\n    ctypes.CDLL(glob.glob(os.path.join(os.path.dirname(__file__), "_ops*.so"))[0])\nexcept OSError:\n    pass\n' >"$1/$2/__init__.py"
	printf '%s\nint ops_answer(void) { return 42; }\n' "$3" >"$1/$2/ops.c"
}
mklib fixture/libfine libfine ''
mklib fixture/libbroken libbroken 'extern int wheelgen_missing_symbol(void); int use(void) { return wheelgen_missing_symbol(); }'
# a build that holds 400 MB for 3 s, under a budget of 0.1 GB (memory_per_job_gb 0.1 x 1 x 1)
mkdir -p fixture/hungry/hungry
: >fixture/hungry/hungry/__init__.py
cat >fixture/hungry/setup.py <<'PY'
import time
from setuptools import setup
hog = bytearray(400 << 20)
for i in range(0, len(hog), 4096):
    hog[i] = 1
time.sleep(3)
print("/usr/local/cuda/bin/nvcc -c k.cu -o k.o --threads=8")  # as a setup.py that hardcodes its threads
setup(name="hungry", version="1.0", packages=["hungry"])
PY
# the same hog, whose build then fails (as one killed for memory would)
mkdir -p fixture/starved/starved
: >fixture/starved/starved/__init__.py
sed -e 's/"hungry"/"starved"/g' -e 's/^setup(.*/raise SystemExit("error: the compiler was Killed")/' fixture/hungry/setup.py >fixture/starved/setup.py
cat >fixture/packages.yml <<'YML'
packages:
  starved: {source: {path: starved}, versions: ["1.0"], memory_per_job_gb: "0.1", max_jobs: "1", test_import: starved}
  hungry: {source: {path: hungry}, versions: ["1.0"], memory_per_job_gb: "0.1", max_jobs: "1", test_import: hungry}
  broken: {source: {path: broken}, versions: ["1.0"], test_import: broken}
  driver: {source: {path: driver}, versions: ["1.0"], test_import: driver}
  fine: {source: {path: fine}, versions: ["1.0"], test_import: fine}
  libfine: {source: {path: libfine}, versions: ["1.0"], test_import: libfine}
  libbroken: {source: {path: libbroken}, versions: ["1.0"], test_import: libbroken}
  skipped: {source: {path: skipped}, versions: ["1.0"], test_import: skipped, test_skip_modules: {skipped._c: "needs the wheelgen_missing_symbol runtime"}}
YML
py=
t_case "configure the fixture (one Python)"
# shellcheck disable=SC2086
if ./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/configure.log" 2>&1; then
	py=$(t_pythons 1)
	sed -i "s/^packages:/defaults: {python: [\"$py\"]}\npackages:/" fixture/packages.yml
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/configure.log")"
	exit 0
fi
n=$(echo "$py" | tr -d .)

t_case "an extension with an unresolved symbol, imported inside try/except: the test fails naming the module"
if ninja "test/broken-1.0-py$n" >"$WORK/broken.log" 2>&1; then
	t_fail "the test passed: $(tail -n 5 "$WORK/broken.log")"
elif grep -q "compiled module broken._c does not load: .*undefined symbol: wheelgen_missing_symbol" "out/logs/broken-1.0-py$n.test.log" &&
	grep -q "compiled modules that do not load: broken._c" "$WORK/broken.log" && [ ! -e "out/tests/broken-1.0-py$n.ok" ]; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/broken.log")"
fi

t_case "an extension that links the NVIDIA driver, on a host without one: needs-gpu, printed and recorded"
if ls /usr/lib/x86_64-linux-gnu/libcuda.so.1 >/dev/null 2>&1; then
	t_fail "this host has the NVIDIA driver (libcuda.so.1): the case needs a host without one"
elif ninja "test/driver-1.0-py$n" >"$WORK/driver.log" 2>&1 &&
	grep -q "needs-gpu (not loaded here: no NVIDIA driver): driver._c" "$WORK/driver.log" &&
	grep -q '^needs_gpu=driver._c$' "out/tests/driver-1.0-py$n.ok" && grep -q '^modules=1$' "out/tests/driver-1.0-py$n.ok"; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/driver.log")" "$(cat "out/tests/driver-1.0-py$n.ok" 2>&1)"
fi

t_case "a good extension: loaded and counted, nothing needs a GPU"
if ninja "test/fine-1.0-py$n" >"$WORK/fine.log" 2>&1 && grep -q "imported compiled module fine._c" "out/logs/fine-1.0-py$n.test.log" &&
	grep -q '^modules=1$' "out/tests/fine-1.0-py$n.ok" && grep -q '^needs_gpu=$' "out/tests/fine-1.0-py$n.ok"; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/fine.log")"
fi

t_case "a library without PyInit (loaded by path, as torch.ops.load_library does): loaded with every symbol resolved, counted"
if ninja "test/libfine-1.0-py$n" >"$WORK/libfine.log" 2>&1 &&
	grep -q "loaded compiled library libfine._ops (no PyInit function" "out/logs/libfine-1.0-py$n.test.log" &&
	grep -q '^modules=1$' "out/tests/libfine-1.0-py$n.ok"; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/libfine.log")"
fi

t_case "a library without PyInit whose symbol is unresolved: the test fails naming it"
if ninja "test/libbroken-1.0-py$n" >"$WORK/libbroken.log" 2>&1; then
	t_fail "the test passed: $(tail -n 5 "$WORK/libbroken.log")"
elif grep -q "compiled module libbroken._ops does not load: .*undefined symbol: wheelgen_missing_symbol" "out/logs/libbroken-1.0-py$n.test.log" &&
	[ ! -e "out/tests/libbroken-1.0-py$n.ok" ]; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/libbroken.log")"
fi

t_case "a build over its memory budget: a warning with both figures and the memory_per_job_gb that fits; the peak in the log"
if ninja "wheel/hungry-1.0-py$n" >"$WORK/hungry.log" 2>&1 &&
	grep -q "warning: the build of hungry-1.0-py$n peaked at 0\.[4-9] GB, over the 0\.1 GB the memory pool budgeted (memory_per_job_gb x MAX_JOBS 1 x NVCC_THREADS 1): memory_per_job_gb: \"0\.[4-9]\" would have fit" "$WORK/hungry.log" &&
	grep -q "^wheelgen: peak memory of the build: 0\.[4-9] GB (the memory pool budgeted 0\.1 GB)" "out/logs/hungry-1.0-py$n.build.log"; then
	t_pass
else
	t_fail "$(grep -i 'memory\|warning' "$WORK/hungry.log" "out/logs/hungry-1.0-py$n.build.log" | head -n 10)"
fi

t_case "a failed build over its budget: the warning and the peak come with the failure"
if ninja "wheel/starved-1.0-py$n" >"$WORK/starved.log" 2>&1; then
	t_fail "the build passed: $(tail -n 5 "$WORK/starved.log")"
elif grep -q "warning: the build of starved-1.0-py$n peaked at 0\.[4-9] GB, over the 0\.1 GB the memory pool budgeted" "$WORK/starved.log" &&
	grep -q "^wheelgen: peak memory of the build: 0\.[4-9] GB (the memory pool budgeted 0\.1 GB)" "out/logs/starved-1.0-py$n.build.log" &&
	[ ! -e "out/wheels/starved-1.0-py$n/build-stats" ]; then
	t_pass
else
	t_fail "$(grep -i 'memory\|warning\|wheelgen:' "$WORK/starved.log" "out/logs/starved-1.0-py$n.build.log" | tail -n 10)"
fi

t_case "a build within its budget: the peak in the log, no warning"
if grep -q "^wheelgen: peak memory of the build: [0-9.]* GB (the memory pool budgeted [0-9.]* GB)" "out/logs/fine-1.0-py$n.build.log" &&
	! grep -q "warning: the build of fine" "out/logs/fine-1.0-py$n.build.log"; then
	t_pass
else
	t_fail "$(grep -i 'memory' "out/logs/fine-1.0-py$n.build.log")"
fi

t_case "nvcc run with other --threads than the pool counts: a warning naming both"
if grep -q "warning: the build of hungry-1.0-py$n runs nvcc with --threads=8, the memory pool counts NVCC_THREADS=1" "$WORK/hungry.log" &&
	! grep -q "runs nvcc with" "out/logs/fine-1.0-py$n.build.log"; then
	t_pass
else
	t_fail "$(grep 'threads' "$WORK/hungry.log" | head -n 5)"
fi

t_case "test_skip_modules: a module named there is not loaded, with its reason printed; the rest of the test runs"
if ninja "test/skipped-1.0-py$n" >"$WORK/skipped.log" 2>&1 &&
	grep -q "compiled module skipped._c is not loaded (test_skip_modules): needs the wheelgen_missing_symbol runtime" "out/logs/skipped-1.0-py$n.test.log" &&
	grep -q '^modules=1$' "out/tests/skipped-1.0-py$n.ok"; then
	t_pass
else
	t_fail "$(tail -n 10 "$WORK/skipped.log")"
fi
