#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086 # cases are single-quoted scripts (t_expect); WG_CONFARGS splits
# the torch fixture for linux aarch64 on this x86_64 host (examples/torch/aarch64.yml): this
# host's torch 2.13 runs torch.utils.cpp_extension, the aarch64 torch 2.13 from PyPI gives the
# headers and libraries, nvcc cross-compiles the kernel; the wheel is an aarch64 wheel repaired to
# a manylinux aarch64 tag without torch's or CUDA's libraries, its extension is loaded after
# torch by the root file system's Python under qemu-user (its GPU test is skipped: no GPU here)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

if [ "$(uname -m)" != x86_64 ] || ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1; then
	echo "# skip - cross-building aarch64 torch cells needs an x86_64 host with the cross tools (tests/run.sh --install-deps)"
	exit 0
fi
src=$WORK/src
t_copytree "$src"
cd "$src"
c=wgtorch-0.1.0-py311-cu130-torch2.13-aarch64
./configure ${WG_CONFARGS:-} --config examples/torch/aarch64.yml >"$WORK/configure.log" 2>&1 || true
if ! grep -q "^cuda 13.0 " out/host.txt || ! grep -q "^python 3.11 " out/host.txt || ! grep -q "^cross aarch64 " out/host.txt; then
	t_case "CUDA 13.0, Python 3.11 and the aarch64 cross tools on this host"
	t_fail "$(tail -n 20 "$WORK/configure.log")"
	exit 0
fi
t_expect "the torch fixture cross-builds for aarch64 and its test runs emulated" '
	start=$(date +%s)
	ninja "test/$c" >"$WORK/ninja.log" 2>&1
	echo "# the aarch64 torch cell: $(($(date +%s) - start)) s (build $(sed -n "s/^wheelgen-step: end [0-9]* 0 \([0-9]*\) s$/\1/p" "out/logs/$c.build.log") s, test $(sed -n "s/^wheelgen-step: end [0-9]* 0 \([0-9]*\) s$/\1/p" "out/logs/$c.test.log") s)"
	[ -f "out/tests/$c.ok" ]
	grep -q "^emulated=qemu-aarch64-static$" "out/tests/$c.ok"
'
t_expect "its wheel: aarch64, manylinux, labelled, torch and CUDA libraries left out; its extension ELF aarch64, built for sm_90 against the aarch64 torch" '
	w=$src/$(ls out/wheels/$c/*.whl)
	case ${w##*/} in wgtorch-0.1.0+cu130torch2.13-cp311-cp311-manylinux_2_*_aarch64.whl) ;; *) echo "$w"; exit 1 ;; esac
	rm -rf "$WORK/x"
	mkdir "$WORK/x"
	cd "$WORK/x"
	unzip -q "$w"
	readelf -h wgtorch/_C.cpython-311-aarch64-linux-gnu.so | grep -q "Machine: *AArch64"
	readelf -d wgtorch/_C.cpython-311-aarch64-linux-gnu.so | grep -q "NEEDED.*libc10.so"
	! ls -d wgtorch.libs 2>/dev/null | grep -q . || exit 1
	cd "$src"
	grep -q "target/torch/include" "out/logs/$c.build.log"
	grep -q "GPU code in the wheel: sm_90" "out/logs/$c.build.log"
	grep -q "^torch_version=2.13" "out/wheels/$c/manifest"
'
t_expect "its test: torch imported under qemu-user, the extension loaded after it; the GPU test (test_command of a CUDA cell) reported skipped, not passed" '
	grep -q "^wheelgen: testing emulated (qemu-user, no binfmt_misc) for aarch64" "out/logs/$c.test.log"
	grep -q "^imported compiled module wgtorch._C$" "out/logs/$c.test.log"
	grep -q "^wheelgen: GPU test skipped: no GPU on this host" "out/logs/$c.test.log"
	grep -q "^gpu=skipped$" "out/tests/$c.ok"
'
