#!/bin/sh
# failure hints: when a step's log shows a cause people often hit, the failure report ends
# with a line of advice, just before ninja's own last line (a compiler killed for memory;
# "undefined symbol" at import)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"
mkdir -p fixture/oomy fixture/abi/abi
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
cat >fixture/packages.yml <<'YML'
defaults:
  python: ["3.12"]
packages:
  oomy:
    source: {path: oomy}
    versions: ["1.0"]
    cuda: []
  abi:
    source: {path: abi}
    versions: ["1.0"]
    cuda: []
    test_import: abi
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

t_case "\"undefined symbol\" at import: the report ends with the ABI advice"
if ninja "test/$abi" >"$WORK/abi.log" 2>&1; then
	t_fail "the test passed"
elif tail -n 2 "$WORK/abi.log" | grep -q '^wheelgen: hint: "undefined symbol" at import'; then
	t_pass
else
	t_fail "$(tail -n 8 "$WORK/abi.log")"
fi

t_case "a failure without a known cause gets no hint"
printf 'import sys\nsys.exit("plain failure")\n' >fixture/oomy/setup.py
if ninja "wheel/$oomy" >"$WORK/plain.log" 2>&1; then
	t_fail "the build succeeded"
elif grep -q "wheelgen: hint:" "$WORK/plain.log"; then
	t_fail "$(tail -n 4 "$WORK/plain.log")"
else
	t_pass
fi
