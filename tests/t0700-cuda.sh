#!/bin/sh
# shellcheck disable=SC2016 # (t_expect cases are single-quoted scripts)
# the CUDA fixture: nvcc-compiled wheels for three local Pythons and every CUDA toolkit, imported
# without a GPU, the GPU test reported as skipped (never passed) where there is none, and
# a memory pool that runs builds one at a time when each claims more than the host has
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure the CUDA example with 1 GB for builds"
if t_configure "$src" --config examples/cuda/packages.yml --memory-gb 1; then t_pass; else t_fail "$(cat "$src.configure.log")"; exit 0; fi
cd "$src"
if ! grep -q '^cuda ' out/host.txt; then
	t_case "a CUDA toolkit on this host"
	t_fail "configure found none (nvcc is expected at /usr/local/cuda-*)"
	exit 0
fi

# three of the host's Pythons, the oldest and the two newest (t0400 builds for all of them):
# every CUDA cell costs the same fixed steps
pys=$(sed -n 's/^python \([0-9.]*\) .*/\1/p' out/host.txt | { read -r o; printf '%s\n' "$o"; tail -n 2; } | sort -u -V | sed 's/.*/"&"/' | paste -s -d, -)
sed -i "s/^  python: .*/  python: [$pys]/" examples/cuda/packages.yml

t_case "the memory pool allows one build at a time when one build claims more than the host has"
ninja build.ninja >"$WORK/regen.log" 2>&1 || true
if grep -q "^pool wheelmem" out/graph.ninja && grep -A1 "^pool wheelmem" out/graph.ninja | grep -q "depth = 1$" &&
	grep -q "MAX_JOBS=" templates/build-host.sh; then t_pass; else t_fail "$(head -n 8 out/graph.ninja)"; fi

t_case "ninja builds and tests the CUDA fixture for the oldest and two newest local Pythons and every toolkit"
if ninja >"$WORK/ninja.log" 2>&1; then t_pass; else t_fail "$(tail -n 30 "$WORK/ninja.log")"; fi

cells=$(out/wheelgen matrix --config examples/cuda/packages.yml --host out/host.txt --table | awk '$3 == "yes" {print $1}')
t_case "one tested wheel per buildable cell (at least 2), built by nvcc for sm_90"
n=0 bad=
for cell in $cells; do
	if [ -f "out/tests/$cell.ok" ] && grep -q -- "-gencode arch=compute_90,code=sm_90" "out/logs/$cell.build.log" &&
		grep -q "^MAX_JOBS\|MAX_JOBS=" "out/cells/$cell/spec"; then n=$((n + 1)); else bad="$bad $cell"; fi
done
if [ -z "$bad" ] && [ "$n" -ge 2 ]; then t_pass; else t_fail "missing:$bad (ok: $n)"; fi

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "every wheel is tagged manylinux_2_X_x86_64, auditwheel agrees, and it requires nothing (the CUDA runtime linked statically)" '
	for cell in $cells; do ls out/wheels/$cell/*.whl; done >"$WORK/whls"
	[ "$(wc -l <"$WORK/whls")" -ge 2 ]
	t_auditwheel_agrees $(cat "$WORK/whls") >"$WORK/aw.log" || { cat "$WORK/aw.log"; exit 1; }
	[ "$(grep -c "manylinux_2_[0-9]*_x86_64.whl: tagged " "$WORK/aw.log")" = "$(wc -l <"$WORK/whls")" ]
	for w in $(cat "$WORK/whls"); do
		unzip -p "$w" "*.dist-info/METADATA" | grep -c "^Requires-Dist:" | grep -qx 0
	done
'

t_case "without a GPU the GPU test is reported as skipped, never as passed"
if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
	want=passed
else
	want=skipped
fi
bad=
for cell in $cells; do
	grep -q "^gpu=$want\$" "out/tests/$cell.ok" || bad="$bad $cell"
done
if [ -z "$bad" ] && { [ "$want" = passed ] || grep -q "GPU test skipped (no GPU here)" "$WORK/ninja.log"; }; then t_pass; else t_fail "stamps not gpu=$want:$bad"; fi

t_case "the wheel imports without a GPU and reports the CUDA runtime it was built with"
cell=$(echo "$cells" | tail -n 1)
cu=$(sed -n 's/^cuda=//p' "out/wheels/$cell/manifest" | tr -d .)
py=$(sed -n 's/^WG_PYTHON_EXE=//p' "out/cells/$cell/spec" | tr -d "'")
t_venv "$WORK/venv" "$py"
"$WORK/venv/bin/pip" install -q --no-deps "out/wheels/$cell/"*.whl >/dev/null 2>&1
got=$(cd / && "$WORK/venv/bin/python" -c 'import wgcuda; print(wgcuda.runtime_version() // 100)')
t_check test "$got" = "$cu"

t_case "with a pool of depth 1, no two wheel builds overlapped (from .ninja_log)"
if awk -F'\t' 'NR > 1 && $4 ~ /\/manifest$/ {print $1, $2}' out/.ninja_log | sort -n | awk '
	{ if (NR > 1 && $1 < end) bad = 1; end = $2 } END { exit bad }'; then t_pass; else t_fail "$(cat out/.ninja_log)"; fi

t_case "ccache: after the first cell, every cell's CUDA object comes from the cache (another Python, same CUDA)"
if grep -q '^ccache ' out/host.txt; then
	n=0 hits=0
	for cell in $cells; do
		n=$((n + 1))
		grep -A2 "ccache statistics of this build" "out/logs/$cell.build.log" | grep -q "Hits: *[1-9]" && hits=$((hits + 1))
	done
	if [ "$n" -ge 2 ] && [ "$hits" -ge $((n - 1)) ]; then t_pass; else t_fail "$hits of $n cells hit the cache"; fi
else
	t_fail "configure found no ccache (apt-get install ccache)"
fi

a=$(echo "$cells" | head -n 1)
t_case "a CUDA wheel built again without the compile cache is the same bytes (wheelgen-cc takes nvcc's temporary names out of its objects)"
sha0=$(sed -n 's/^sha256=//p' "out/wheels/$a/manifest")
rm -f "out/wheels/$a/manifest"
if CCACHE_DISABLE=1 ninja "wheel/$a" >"$WORK/again.log" 2>&1 &&
	[ "$(sed -n 's/^sha256=//p' "out/wheels/$a/manifest")" = "$sha0" ] &&
	grep -q "^wheelgen: wheelgen-cc in front of nvcc" "out/logs/$a.build.log"; then
	t_pass
else
	t_fail "before: $sha0" "after: $(sed -n 's/^sha256=//p' "out/wheels/$a/manifest")" "$(tail -n 20 "$WORK/again.log")"
fi

# remote_builds URL NAME: the first and the last cell built one after the other, each with an
# empty local cache and CCACHE_REMOTE_STORAGE=URL; true if the last one's CUDA object came from
# the remote storage. remote_stats: that build's cache statistics.
b=$(echo "$cells" | tail -n 1)
remote_builds() {
	export CCACHE_REMOTE_STORAGE="$1"
	for c in "$a" "$b"; do
		rm -rf out/cache/ccache "out/wheels/$c/manifest"
		ninja "wheel/$c" >"$WORK/$2-$c.log" 2>&1 || true
	done
	unset CCACHE_REMOTE_STORAGE
	sed -n '/Remote storage:/,/Hits:/p' "out/logs/$b.build.log" | grep -q "Hits: *[1-9]"
}
remote_stats() { sed -n '/ccache statistics/,$p' "out/logs/$b.build.log" | head -n 30; }

t_case "ccache remote storage: a build with an empty local cache gets the CUDA object from redis on 127.0.0.1"
if command -v redis-server >/dev/null 2>&1; then
	rport=$(t_freeport)
	redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
		--pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" >/dev/null
	i=0
	until redis-cli -p "$rport" ping >/dev/null 2>&1; do i=$((i + 1)); [ "$i" -lt 50 ] || break; sleep 0.1; done
	if remote_builds "redis://127.0.0.1:$rport" redis && ! grep -q "redis://" "out/cells/$b/spec"; then
		t_pass
	else
		t_fail "$(remote_stats)"
	fi
	kill "$(cat "$WORK/redis.pid")" 2>/dev/null || true
else
	t_fail "redis-server is not installed (apt-get install redis-server)"
fi

t_case "ccache remote storage over http://: an nginx with WebDAV PUT on 127.0.0.1 serves the CUDA object to a build with an empty local cache"
if command -v nginx >/dev/null 2>&1; then
	hd=$WORK/nginx-ccache
	hport=$(t_freeport)
	mkdir -p "$hd/root/ccache"
	if ! t_nginx_dav "$hd" "$hport" >"$hd/start.err"; then
		t_fail "$(cat "$hd/start.err")"
	elif remote_builds "http://127.0.0.1:$hport/ccache/" http && grep -q '"PUT /ccache/' "$hd/logs/access.log" &&
		grep -q '"GET /ccache/[^ ]* HTTP/1.1" 200 ' "$hd/logs/access.log" && [ -n "$(find "$hd/root/ccache" -type f | head -n 1)" ]; then
		t_pass
	else
		t_fail "$(remote_stats)" "$(tail -n 5 "$hd/logs/access.log")"
	fi
	[ ! -f "$hd/nginx.pid" ] || kill "$(cat "$hd/nginx.pid")" 2>/dev/null || true
else
	t_fail "nginx is not installed (apt-get install nginx-light)"
fi

# (before the sdist case, which empties the compile cache: the cache then holds the family
# cu130's objects of the newest Python, and the C module's compile would be the same)
t_expect "configure --cuda-from-pypi 13.2 assembles a second toolkit from PyPI's wheels; its cell builds and imports, and reuses nothing of the CUDA 13.0 family (its C module, the same source and flags, is compiled again)" '
	./configure ${WG_CONFARGS:-} --config examples/cuda/packages.yml --memory-gb 1 --cuda-from-pypi 13.2 >"$WORK/pypicuda.log" 2>&1
	grep -q "^cuda 13.2 $PWD/out/toolkits/cuda-13.2/nvidia/cu13$" out/host.txt
	py=$(t_pythons 1)
	cell=wgcuda-0.1.0-py$(echo "$py" | tr -d .)-cu132
	exe=$(sed -n "s/^python $py //p" out/host.txt)
	[ -f "out/wheels/wgcuda-0.1.0-py$(echo "$py" | tr -d .)-cu130/manifest" ]
	ninja "test/$cell" >"$WORK/cu132.log" 2>&1
	t_venv "$WORK/venv132" "$exe"
	"$WORK/venv132/bin/pip" install -q --no-deps "out/wheels/$cell/"*.whl >/dev/null 2>&1
	[ "$(cd / && "$WORK/venv132/bin/python" -c "import wgcuda; print(wgcuda.runtime_version())")" = 13020 ]
	grep -q "out/toolkits/cuda-13.2/nvidia/cu13/bin/nvcc\|CUDA_HOME=.*cuda-13.2" "out/logs/$cell.build.log"
	# (ccache'"'"'s own count: neither of its 2 compiles a hit)
	sed -n "/ccache statistics of this build/,\$p" "out/logs/$cell.build.log" | grep -m 1 "^  |   Hits:" | grep -q "^  |   Hits: *0 / 2 "
'

t_case "a pypi: source: the sdist is unpacked into the cell's build directory, so the next Python's CUDA object comes from the cache, and the wheel names no temporary directory of pip's"
# the fixture's setup.py passes nvcc an absolute -I into its own tree, as real packages do;
# pip's own unpack directory (pip-wheel-<random>/<name>_<uuid>) would put a new path into every
# compile and into the wheel's debug information: not the same bytes twice (a compare of two
# builds needs one without the cache, which hands back the first build's object, names and all)
uv=$(sed -n 's/^uv //p' out/host.txt)
a=$(echo "$cells" | head -n 1)
b=$(echo "$cells" | tail -n 1)
cp -r examples/cuda/pkg "$WORK/sdist-src"
cp examples/cuda/packages.yml "$WORK/cuda.yml"
sed -i 's/^    source: {path: pkg}$/    source: {pypi: true}/' examples/cuda/packages.yml
if [ -z "$uv" ]; then
	t_fail "configure found no uv (tests/run.sh --install-deps puts it in out/tools)"
elif ! "$uv" build -q --sdist -o "$WORK/dl" "$WORK/sdist-src" >"$WORK/sdist.log" 2>&1; then
	t_fail "$(tail -n 20 "$WORK/sdist.log")"
else
	rm -rf out/cache/ccache "out/wheels/$a/manifest" "out/wheels/$b/manifest"
	PIP_NO_INDEX=1 PIP_FIND_LINKS=$WORK/dl ninja "wheel/$a" >"$WORK/pypi-a.log" 2>&1 &&
		PIP_NO_INDEX=1 PIP_FIND_LINKS=$WORK/dl ninja "wheel/$b" >"$WORK/pypi-b.log" 2>&1
	if ! grep -q "wgcuda-0.1.0.tar.gz" "out/logs/$b.build.log"; then
		t_fail "not built from the sdist:" "$(tail -n 20 "$WORK/pypi-a.log" "$WORK/pypi-b.log")"
	elif [ "$a" = "$b" ]; then
		t_fail "needs two buildable cells"
	elif ! grep -A2 "ccache statistics of this build" "out/logs/$b.build.log" | grep -q "Hits: *[1-9]"; then
		t_fail "$(sed -n '/ccache statistics of this build/,$p' "out/logs/$b.build.log" | head -n 12)"
	elif unzip -p "out/wheels/$b/"*.whl | grep -a -q -E "pip-(req-build|wheel|unpack)-"; then
		t_fail "the wheel names one of pip's temporary directories:" \
			"$(unzip -p "out/wheels/$b/"*.whl | grep -a -o -E "[[:print:]]*pip-(req-build|wheel|unpack)-[[:print:]]*" | head -n 3)"
	else
		t_pass
	fi
fi
cp "$WORK/cuda.yml" examples/cuda/packages.yml

t_case "the build names the GPU architectures in the wheel, and they match cuda_archs"
bad=
for cell in $cells; do
	grep -q "^wheelgen: GPU code in the wheel: sm_90$" "out/logs/$cell.build.log" || bad="$bad $cell"
	! grep -q "warning: the wheel of .* has GPU code for" "out/logs/$cell.build.log" || bad="$bad $cell(warned)"
done
if [ -z "$bad" ]; then t_pass; else t_fail "not in the logs of:$bad" "$(grep -h 'GPU code' out/logs/*.build.log | head -n 5)"; fi

# shellcheck disable=SC2016
t_expect "each CUDA wheel's manifest lists its GPU code (gpu_archs), as NVIDIA's cuobjdump (PyPI's nvidia-cuda-cuobjdump) lists the wheel's" '
	t_toolvenv "$WORK/cuobjdump" "nvidia-cuda-cuobjdump>=13"
	cuobjdump=$(find "$WORK/cuobjdump" -name cuobjdump -type f | head -n 1)
	for cell in $cells; do
		rm -rf "$WORK/so"
		mkdir "$WORK/so"
		(cd "$WORK/so" && unzip -q "$src/out/wheels/$cell/"*.whl)
		# cuobjdump: "ELF file 1: x.1.sm_90.cubin", "PTX file 1: x.1.sm_90.ptx"
		want=$(find "$WORK/so" -name "*.so" -exec "$cuobjdump" --list-elf --list-ptx {} \; 2>/dev/null |
			sed -n "s/^ELF file.*\.\(sm_[0-9a-z]*\)\.cubin$/\1/p; s/^PTX file.*\.sm_\([0-9a-z]*\)\.ptx$/compute_\1/p" | sort -u)
		got=$(sed -n "s/^gpu_archs=//p" "out/wheels/$cell/manifest" | tr " " "\n" | sort -u)
		echo "$cell: manifest [$got], cuobjdump [$want]"
		[ -n "$want" ]
		[ "$got" = "$want" ]
	done
'

t_case "a setup.py that adds an architecture of its own: the build warns, naming both sets"
mkdir -p fixture
cp -r examples/cuda/pkg fixture/hard
# like causal-conv1d's setup.py: -gencode flags of its own besides TORCH_CUDA_ARCH_LIST's
sed -i 's/^    return flags$/    return flags + ["-gencode", "arch=compute_80,code=sm_80"]/' fixture/hard/setup.py
py=$(t_pythons 1)
cu=$(sed -n 's/^cuda \([0-9.]*\) \/usr.*/\1/p' out/host.txt | tail -n 1)
cat >fixture/hard.yml <<YML
defaults: {python: ["$py"], cuda: ["$cu"], cuda_archs: ["9.0"]}
packages:
  wgcuda:
    source: {path: hard}
    versions: ["0.1.0"]
    build_args: "--no-build-isolation"
    test_import: wgcuda
YML
# shellcheck disable=SC2086
./configure ${WG_CONFARGS:-} --config fixture/hard.yml >"$WORK/hard.conf" 2>&1
if ! grep -q "code=sm_80" fixture/hard/setup.py; then
	t_fail "the fixture's setup.py was not changed"
elif ninja >"$WORK/hard.log" 2>&1 && grep -q "warning: the wheel of wgcuda-0.1.0-py.* has GPU code for sm_80 sm_90, but cuda_archs asks for sm_90" "$WORK/hard.log"; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/hard.log")"
fi

t_case "nvcc_compress: nvcc runs with -compress-mode; the GPU code of 'none' is larger than that of 'size', and both wheels import"
sizes=
for mode in none size; do
	rm -rf fixture/cmp && mkdir -p fixture/cmp && cp -r examples/cuda/pkg fixture/cmp/pkg
	cat >fixture/cmp/packages.yml <<YML
defaults: {python: ["$py"], cuda: ["$cu"], cuda_archs: ["9.0"]}
packages:
  wgcuda:
    source: {path: pkg}
    versions: ["0.1.0"]
    build_args: "--no-build-isolation"
    nvcc_compress: $mode
    test_import: wgcuda
YML
	# shellcheck disable=SC2086
	./configure ${WG_CONFARGS:-} --config fixture/cmp/packages.yml >"$WORK/cmp-$mode.conf" 2>&1
	c=$(out/wheelgen matrix --config fixture/cmp/packages.yml --host out/host.txt)
	if ninja "test/$c" >"$WORK/cmp-$mode.log" 2>&1 &&
		grep -q "^wheelgen: nvcc -compress-mode=$mode (nvcc_compress)$" "out/logs/$c.build.log"; then
		sizes="$sizes $(unzip -l out/wheels/"$c"/*.whl | awk '/\.so$/ { print $1 }')"
	else
		sizes="$sizes failed($mode)"
	fi
done
# shellcheck disable=SC2086
set -- $sizes
case "$1$2" in
*failed*) t_fail "$sizes" "$(tail -n 20 "$WORK"/cmp-*.log)" ;;
*) if [ "$1" -gt "$2" ]; then t_pass; else t_fail "extension sizes, none then size:$sizes"; fi ;;
esac

# a C extension that links the shared CUDA runtime and cuBLAS (-lcudart -lcublas) and calls both
# when imported: its wheel declares PyPI's (cuda-toolkit[cublas,cudart]) and finds them there, and
# its test, where no CUDA toolkit is seen, passes; the same wheel with repair.cuda: none (declared
# by nobody) fails its test, naming libcudart.so.13 (t0950 does the same for aarch64 with CMake)
mkdir -p fixture/rt/wgrt
cat >fixture/rt/setup.py <<'PY'
import os
from setuptools import Extension, setup
home = os.environ["CUDA_HOME"]
setup(name="wgrt", version="0.1.0", packages=["wgrt"],
      ext_modules=[Extension("wgrt._rt", ["wgrt/_rt.c"], include_dirs=[os.path.join(home, "include")],
                             library_dirs=[os.path.join(home, "lib64")], libraries=["cudart", "cublas"])])
PY
printf 'from ._rt import CUBLAS, RUNTIME\n' >fixture/rt/wgrt/__init__.py
cat >fixture/rt/wgrt/_rt.c <<'C'
#include <Python.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>
static struct PyModuleDef m = { PyModuleDef_HEAD_INIT, "_rt", NULL, -1, NULL, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit__rt(void)
{
	int v = 0, b = 0;
	PyObject *mod;
	if (cudaRuntimeGetVersion(&v) != cudaSuccess || v <= 0 ||
	    cublasGetProperty(MAJOR_VERSION, &b) != CUBLAS_STATUS_SUCCESS || b <= 0) {
		PyErr_SetString(PyExc_RuntimeError, "the CUDA runtime or cuBLAS gives no version");
		return NULL;
	}
	mod = PyModule_Create(&m);
	if (mod && (PyModule_AddIntConstant(mod, "RUNTIME", v) < 0 || PyModule_AddIntConstant(mod, "CUBLAS", b) < 0)) {
		Py_DECREF(mod);
		return NULL;
	}
	return mod;
}
C
rtcfg() { # rtcfg REPAIR-LINE
	cat >fixture/rt.yml <<YML
defaults: {python: ["$py"], cuda: ["$cu"], cuda_archs: ["9.0"]}
packages:
  wgrt:
    source: {path: rt}
    versions: ["0.1.0"]
    build_args: "--no-build-isolation"
    test_import: wgrt
$1
YML
}
rtcfg ''
# shellcheck disable=SC2034 # (read by the cases)
rt=wgrt-0.1.0-py$(echo "$py" | tr -d .)-cu$(echo "$cu" | tr -d .)
# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "a C extension linking the shared CUDA runtime and cuBLAS: its wheel requires cuda-toolkit[cublas,cudart] and finds them through RUNPATH; its test, where no toolkit is seen, imports it (a call into each)" '
	./configure ${WG_CONFARGS:-} --config fixture/rt.yml >"$WORK/rt.conf" 2>&1
	ninja "test/$rt" >"$WORK/rt.log" 2>&1
	w=$PWD/$(ls out/wheels/$rt/*.whl)
	case ${w##*/} in wgrt-0.1.0-cp*-manylinux_2_*_x86_64.whl) ;; *) echo "$w"; exit 1 ;; esac
	unzip -p "$w" "*.dist-info/METADATA" | grep -qx "Requires-Dist: cuda-toolkit\[cublas,cudart\]==$cu\.\*"
	[ -z "$(unzip -Z1 "$w" | grep libcu)" ]
	rm -rf "$WORK/rtx"
	mkdir "$WORK/rtx"
	(cd "$WORK/rtx" && unzip -q "$w")
	readelf -d "$WORK"/rtx/wgrt/_rt*.so | grep -q "Library runpath: \[\$ORIGIN/../nvidia/cu${cu%%.*}/lib\]"
	grep -q "^wheelgen: the view: a mount namespace (unshare) hides" "out/logs/$rt.test.log"
	grep -q "^  | hidden: /usr/local/cuda-$cu$" "out/logs/$rt.test.log"
	grep -q "^view=clean$" "out/tests/$rt.ok"
	t_auditwheel_agrees "$w"
'

rtcfg '    repair: {cuda: none}'
# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "the same wheel with repair.cuda: none (it neither carries nor declares the runtime): its test fails, naming libcudart.so.13, which this host has outside the view" '
	ninja build.ninja >/dev/null 2>&1
	! ninja "test/$rt" >"$WORK/rtnone.log" 2>&1 || exit 1
	[ ! -f "out/tests/$rt.ok" ]
	unzip -p out/wheels/$rt/*.whl "*.dist-info/METADATA" | grep -c "^Requires-Dist:" | grep -qx 0
	grep -q "links libcublas.so.13, libcudart.so.13, which it does not carry nor declares (repair.cuda: none)" "out/logs/$rt.build.log"
	grep -A1 "^wheelgen: the first errors in the log" "$WORK/rtnone.log" | grep -q "ImportError: libcudart.so.13: cannot open shared object file"
	grep -q "^wheelgen: hint: the wheel needs libcudart.so.13" "$WORK/rtnone.log"
	ls "$(sed -n "s/^cuda $cu //p" out/host.txt)"/lib*/libcudart.so.13
'
