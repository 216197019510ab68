#!/bin/sh
# failure hints: when a step's log shows a cause people often hit, the failure report ends
# with a line of advice, just before ninja's own last line (a compiler killed for memory;
# "undefined symbol" at import)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"
mkdir -p fixture/oomy fixture/abi/abi fixture/cxx/cxx fixture/wrongver fixture/xlink/obj fixture/cmakebad
# a CMake build (scikit-build-core) that links an imported target nothing defined, as a cross
# build of bitsandbytes did before its target's cuBLAS was there
cat >fixture/cmakebad/pyproject.toml <<'TOML'
[build-system]
requires = ["scikit-build-core"]
build-backend = "scikit_build_core.build"
[project]
name = "cmakebad"
version = "1.0"
TOML
cat >fixture/cmakebad/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.15)
project(cmakebad LANGUAGES C)
add_library(cmakebad MODULE m.c)
target_link_libraries(cmakebad PRIVATE CUDA::cublas)
CMAKE
: >fixture/cmakebad/m.c
# a link that fails the way a cross link does when an object was compiled for another machine
# (an aarch64 object here, on any host: the ELF header is all the hint reads), after a download
# that pip retried
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\001\000\267\000\001\000\000\000' >fixture/xlink/obj/ops.cu.o
cat >fixture/xlink/setup.py <<'PY'
import sys
sys.stderr.write("WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError(\\'<x>: Failed to establish a new connection: [Errno 101] Network is unreachable\\')': /simple/ninja/\n")
for i in range(3):
    sys.stderr.write("/usr/bin/ld: obj/ops.cu.o: Relocations in generic ELF (EM: 183)\n")
sys.stderr.write("/usr/bin/ld: obj/ops.cu.o: error adding symbols: file in wrong format\ncollect2: error: ld returned 1 exit status\n")
for i in range(30):
    sys.stderr.write("  File \"/usr/lib/python3/setuptools/x.py\", line %d, in run\n" % i)
sys.exit(1)
PY
# a package whose setup.py declares another version than the config's
printf 'from setuptools import setup\nsetup(name="wrongver", version="2.0")\n' >fixture/wrongver/setup.py
# a build that dies the way g++ does when the kernel kills cc1plus for memory
cat >fixture/oomy/setup.py <<'PY'
import sys
sys.stderr.write("c++: fatal error: Killed signal terminated program cc1plus\ncompilation terminated.\n")
sys.exit(1)
PY
# a wheel that builds, and fails at import the way a torch extension built against another torch does
cat >fixture/abi/setup.py <<'PY'
from setuptools import setup
setup(name="abi", version="1.0", packages=["abi"])
PY
echo 'raise ImportError("/venv/abi/_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEi")' >fixture/abi/abi/__init__.py
# a C++ extension that stops at an #error the way torch 2.14's headers do under -std=c++17,
# followed by a long traceback, as setuptools prints one (the #error is far from the tail)
cat >fixture/cxx/setup.py <<'PY'
import sys
from setuptools import setup, Extension
from setuptools.command.build_ext import build_ext
class noisy(build_ext):
    def run(self):
        try:
            super().run()
        except Exception:
            for i in range(40):
                sys.stderr.write('  File "/usr/lib/python3/setuptools/x.py", line %d, in run\n' % i)
            raise
setup(name="cxx", version="1.0", packages=["cxx"], cmdclass={"build_ext": noisy},
      ext_modules=[Extension("cxx._c", ["cxx/_c.cpp"], extra_compile_args=["-std=c++17"])])
PY
printf '#if __cplusplus < 202002L\n#error C++20 or later compatible compiler is required to use PyTorch.\n#endif\n' >fixture/cxx/cxx/_c.cpp
: >fixture/cxx/cxx/__init__.py
cat >fixture/packages.yml <<'YML'
defaults:
  python: ["3.12"]
packages:
  oomy:
    source: {path: oomy}
    versions: ["1.0"]
    cuda: []
  cxx:
    source: {path: cxx}
    versions: ["1.0"]
    cuda: []
  xlink:
    source: {path: xlink}
    versions: ["1.0"]
    cuda: []
  wrongver:
    source: {path: wrongver}
    versions: ["1.0"]
    cuda: []
  abi:
    source: {path: abi}
    versions: ["1.0"]
    cuda: []
    test_import: abi
  cmakebad:
    source: {path: cmakebad}
    versions: ["1.0"]
    cuda: []
YML
t_case "configure the fixture"
# shellcheck disable=SC2086
if ./configure ${WG_CONFARGS:-} --config fixture/packages.yml >"$WORK/configure.log" 2>&1 && ninja build.ninja >>"$WORK/configure.log" 2>&1; then t_pass; else t_fail "$(tail -n 20 "$WORK/configure.log")"; exit 0; fi
oomy=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' '$2 == "oomy" {print $1}')
abi=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' '$2 == "abi" {print $1}')

t_case "a compiler killed for memory: the report ends with the memory advice"
if ninja "wheel/$oomy" >"$WORK/oom.log" 2>&1; then
	t_fail "the build succeeded"
elif tail -n 2 "$WORK/oom.log" | grep -q "^wheelgen: hint: a compiler was killed or ran out of memory.*memory_per_job_gb"; then
	t_pass
else
	t_fail "$(tail -n 8 "$WORK/oom.log")"
fi

t_case "\"undefined symbol\" at import: the test's report ends with the ABI advice"
if ninja "test/$abi" >"$WORK/abi.log" 2>&1; then
	t_fail "the test passed"
elif grep -q '^wheelgen: hint: "undefined symbol" at import' "$WORK/abi.log"; then
	t_pass
else
	t_fail "$(tail -n 8 "$WORK/abi.log")"
fi

cxx=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' '$2 == "cxx" {print $1}')
t_case "an #error far above the log's tail: the report shows it first, with its line number, and the C++20 advice"
if ninja "wheel/$cxx" >"$WORK/cxx.log" 2>&1; then
	t_fail "the build succeeded"
elif grep -A1 '^wheelgen: the first errors in the log (line: text):$' "$WORK/cxx.log" | grep -q '^  [0-9]*:.*#error C++20 or later compatible compiler is required' &&
	grep -q '^wheelgen: hint: the headers (torch 2.14 and later: C++20) need a newer C++ standard' "$WORK/cxx.log" &&
	[ "$(grep -n 'the first errors in the log' "$WORK/cxx.log" | cut -d: -f1)" -lt "$(grep -n 'wheelgen: the build of cxx-.* failed (exit' "$WORK/cxx.log" | cut -d: -f1)" ]; then
	t_pass
else
	t_fail "$(head -n 30 "$WORK/cxx.log")"
fi

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "a failed CMake configure: its CMake Error, with the missing imported target, is the first error; the hint names the target" '
	cb=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F"\t" "\$2 == \"cmakebad\" {print \$1}")
	! ninja "wheel/$cb" >"$WORK/cb.log" 2>&1 || exit 1
	grep -A1 "^wheelgen: the first errors in the log (line: text):\$" "$WORK/cb.log" |
		grep -q "^  [0-9]*: CMake Error at CMakeLists.txt:4 (target_link_libraries): Target \"cmakebad\" links to: CUDA::cublas but the target was not found.\$"
	grep -q "^wheelgen: hint: CMake found no CUDA::cublas" "$WORK/cb.log"
'

t_case "a wheel of another version than the config's fails its build, and the terminal names both versions"
wv=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' '$2 == "wrongver" {print $1}')
if ninja "wheel/$wv" >"$WORK/wv.log" 2>&1; then
	t_fail "the build succeeded"
elif grep -q "^wheelgen: the build made wrongver-2.0-py3-none-any.whl, version 2.0, but packages.yml builds wrongver 1.0: a wrong version is refused" "$WORK/wv.log" &&
	[ ! -f "out/wheels/$wv/manifest" ]; then
	t_pass
else
	t_fail "$(tail -n 8 "$WORK/wv.log")"
fi

t_case "a link refusing an object of another machine: the linker's lines are the first errors (not pip's retry), the hint names the object and its machine"
xl=$(out/wheelgen matrix --config fixture/packages.yml --host out/host.txt --tsv | awk -F'\t' '$2 == "xlink" {print $1}')
if ninja "wheel/$xl" >"$WORK/xl.log" 2>&1; then
	t_fail "the build succeeded"
elif sed -n '/^wheelgen: the first errors in the log/,/^wheelgen: the log ends:$/p' "$WORK/xl.log" >"$WORK/xl.first" &&
	grep -q '^  [0-9]*: /usr/bin/ld: obj/ops.cu.o: Relocations in generic ELF (EM: 183)$' "$WORK/xl.first" &&
	grep -q '^  [0-9]*: /usr/bin/ld: obj/ops.cu.o: error adding symbols: file in wrong format$' "$WORK/xl.first" &&
	! grep -q 'Retrying' "$WORK/xl.first" &&
	grep -q "^wheelgen: hint: the linker refused obj/ops.cu.o, an object for aarch64.*, in a build for $(uname -m): the step that compiled it did not use the cross compilers.*CMAKE_TOOLCHAIN_FILE" "$WORK/xl.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/xl.log")"
fi

t_case "the step writes those first errors beside its log (logs/CELL.build.errors), and wheelgen summary shows them as they are"
sed -n '/^wheelgen: the first errors in the log/,/^wheelgen: the log ends:$/s/^  \([0-9]*: \)/\1/p' "$WORK/xl.log" >"$WORK/xl.errors.expect"
if out/wheelgen summary build "$xl" >"$WORK/xl.md" 2>&1 &&
	[ -s "$WORK/xl.errors.expect" ] && cmp -s "$WORK/xl.errors.expect" "out/logs/$xl.build.errors" &&
	sed -n 's/^    //p' "$WORK/xl.md" >"$WORK/xl.md.errors" && cmp -s "$WORK/xl.errors.expect" "$WORK/xl.md.errors"; then
	t_pass
else
	t_fail "$(cat "$WORK/xl.md" "out/logs/$xl.build.errors" 2>&1)"
fi

t_case "the first-errors rule of the steps (step-lib.sh, its one owner) finds the lines tests/golden/first-errors.expect lists (gen/summary.c's unit test shows them from that file)"
# shellcheck disable=SC2016
if sh -c '. templates/step-lib.sh; wg_first_errors_of tests/golden/first-errors.log 10' >"$WORK/golden.first" &&
	diff tests/golden/first-errors.expect "$WORK/golden.first" >"$WORK/golden.diff"; then
	t_pass
else
	t_fail "$(cat "$WORK/golden.diff")"
fi

t_case "uv's offline try that failed before the index answered: its errors are logged as wheelgen's lines, no first error"
printf '#!/bin/sh\ncase "$*" in *--offline*) echo "error: Because ninja was not found in the cache, the requirements are unsatisfiable" >&2; exit 1 ;; esac\necho "Installed 1 package"\n' >"$WORK/fakeuv"
chmod +x "$WORK/fakeuv"
# shellcheck disable=SC2016
# (two steps: the first asks the index and stamps it, the second tries offline first)
for i in 1 2; do
	sh -c '. templates/voice.sh; . templates/step-lib.sh; B=$1 WG_UV=$2 UV_CACHE_DIR=$1/uv py=python3; wg_uv_cached pip install ninja' sh "$WORK/uvtry" "$WORK/fakeuv"
done >"$WORK/uvtry.log" 2>&1
# shellcheck disable=SC2016
if grep -q "^wheelgen: (offline try) error: Because ninja was not found" "$WORK/uvtry.log" && [ "$(grep -c "^Installed 1 package$" "$WORK/uvtry.log")" = 2 ] &&
	[ -z "$(sh -c '. templates/step-lib.sh; wg_first_errors_of "$1" 5' sh "$WORK/uvtry.log")" ]; then
	t_pass
else
	t_fail "$(cat "$WORK/uvtry.log")"
fi

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "uv build with a fresh stamp: --offline; a requirement the cache lacks is asked of the index (a note, and no first error before it); a compile error is the build's, built once" '
	printf "%s\n" "#!/bin/sh" "echo \"uv \$*\" >>\"\$0.calls\"" \
		"case \"\$*\" in *fail*) echo \"src/a.c:3:1: error: expected ;\"; exit 1 ;; esac" \
		"case \"\$*\" in *--offline*) echo \"error: Failed to build\" >&2; echo \"  cause: Because flit-core was not found in the cache, the requirements are unsatisfiable\" >&2; exit 2 ;; esac" \
		"echo built" >"$WORK/fakeuvb"
	chmod +x "$WORK/fakeuvb"
	mkdir -p "$WORK/uvb/uv"
	: >"$WORK/uvb/uv/wheelgen-index-checked.$(printf default | cksum | cut -d" " -f1)"
	run() { sh -c ". templates/voice.sh; . templates/step-lib.sh; B=\$1 WG_UV=\$2 UV_CACHE_DIR=\$1/uv; shift 2; wg_uv_build \"\$@\"" sh "$WORK/uvb" "$WORK/fakeuvb" "$@"; }
	run --wheel src >"$WORK/uvb.log" 2>&1
	cat "$WORK/uvb.log"
	grep -qx "uv build --wheel src --offline" "$WORK/fakeuvb.calls"
	grep -qx "uv build --wheel src" "$WORK/fakeuvb.calls"
	grep -qx "wheelgen: note: that did not work from uv.s cache alone (--offline); asking the index" "$WORK/uvb.log"
	grep -qx built "$WORK/uvb.log"
	[ -z "$(sh -c ". templates/step-lib.sh; wg_first_errors_of \"\$1\" 5" sh "$WORK/uvb.log")" ]
	: >"$WORK/fakeuvb.calls"
	! run --wheel fail >"$WORK/uvf.log" 2>&1 || exit 1
	[ "$(cat "$WORK/fakeuvb.calls")" = "uv build --wheel fail --offline" ]
	sh -c ". templates/step-lib.sh; wg_first_errors_of \"\$1\" 5" sh "$WORK/uvf.log" | grep -q "error: expected ;"
	: >"$WORK/fakeuvb.calls"
	run --wheel --no-build-isolation src >/dev/null 2>&1
	[ "$(cat "$WORK/fakeuvb.calls")" = "uv build --wheel --no-build-isolation src" ]
'

t_case "a failure without a known cause gets no hint"
printf 'import sys\nsys.exit("plain failure")\n' >fixture/oomy/setup.py
if ninja "wheel/$oomy" >"$WORK/plain.log" 2>&1; then
	t_fail "the build succeeded"
elif grep -q "wheelgen: hint:" "$WORK/plain.log"; then
	t_fail "$(tail -n 4 "$WORK/plain.log")"
else
	t_pass
fi
