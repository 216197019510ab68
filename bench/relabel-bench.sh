#!/bin/sh
# bench/relabel-bench.sh [LIBRARY]: relabelling a big CUDA wheel (local_version). Builds a wheel
# holding LIBRARY (default: the largest shared library of the CUDA toolkit, a stand-in for a
# flash-attn .so of hundreds of megabytes) as its extension module, then relabels it +cu130 two
# ways in the same run: templates/relabel.py as builds run it (compressed members copied as they
# are) and its fallback for ZIP64 wheels (zipfile: every member inflated and deflated again, the
# way relabel.py worked before), and prints both times and their ratio. Both results must hold
# the same members. Prints the peak memory of each too (the copy streams; zipfile holds a member).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
# shellcheck disable=SC2012 # the toolkit's file names are plain
lib=${1:-$(ls -S "$cuda"/lib64/*.so* 2>/dev/null | head -n 1)}
if [ -z "$lib" ] || [ ! -f "$lib" ]; then
	echo "bench: no library to put in the wheel (give one: bench/relabel-bench.sh FILE)" >&2
	exit 1
fi
# in RAM (/dev/shm when it is a tmpfs; TMPDIR picks another place): on this project's test
# machines the disk's writeback of the 374 MB input doubled the copy's time from run to run
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
base=$(bench_base)
work=$(mktemp -d "$base/wgrlbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }
cd "$work"
python3 - "$lib" <<'PY'
import base64, hashlib, sys, zipfile
def h(b):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
so = open(sys.argv[1], "rb").read()
members = [
    ("bigpkg/__init__.py", b"from ._C import *\n"),
    ("bigpkg/_C.cpython-312-x86_64-linux-gnu.so", so),
    ("bigpkg-1.0.dist-info/METADATA", b"Metadata-Version: 2.1\nName: bigpkg\nVersion: 1.0\n\n"),
    ("bigpkg-1.0.dist-info/WHEEL", b"Wheel-Version: 1.0\nGenerator: bench\nRoot-Is-Purelib: false\nTag: cp312-cp312-linux_x86_64\n"),
]
record = "".join("%s,%s,%d\n" % (n, h(d), len(d)) for n, d in members) + "bigpkg-1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile("bigpkg-1.0-cp312-cp312-linux_x86_64.whl", "w", zipfile.ZIP_DEFLATED) as z:
    for n, d in members + [("bigpkg-1.0.dist-info/RECORD", record.encode())]:
        z.writestr(n, d)
PY
whl=bigpkg-1.0-cp312-cp312-linux_x86_64.whl
# run MODE OUTDIR: relabel the wheel (MODE raw: as builds do; zipfile: the ZIP64 fallback);
# prints the process's peak memory in MB
run() {
	(cd "$top/templates" && python3 -c '
import resource, sys, relabel
if sys.argv[1] == "zipfile":
    relabel.ZIP64_AT = 0
relabel.relabel(*sys.argv[2:])
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)' "$1" "$work/$whl" cu130 "$work/$2")
}
t0=$(now)
mraw=$(run raw raw)
t1=$(now)
mzf=$(run zipfile zipfile)
t2=$(now)
python3 - <<'PY'
import zipfile
a = zipfile.ZipFile("raw/bigpkg-1.0+cu130-cp312-cp312-linux_x86_64.whl")
b = zipfile.ZipFile("zipfile/bigpkg-1.0+cu130-cp312-cp312-linux_x86_64.whl")
assert a.namelist() == b.namelist()
for n in a.namelist():
    assert a.getinfo(n).CRC == b.getinfo(n).CRC and a.read(n) == b.read(n), n
PY
raw=$(secs "$t0" "$t1") zf=$(secs "$t1" "$t2")
printf 'wheel: %s MB (%s, %s MB)\n' "$(($(wc -c <"$whl") / 1000000))" "${lib##*/}" "$(($(wc -c <"$lib") / 1000000))"
printf '%-44s %8.2f s %8s MB peak\n' "relabel, compressed bytes copied" "$raw" "$mraw"
printf '%-44s %8.2f s %8s MB peak\n' "relabel, inflated and deflated again (before)" "$zf" "$mzf"
printf '%-44s %8.1fx\n' "speed-up" "$(echo "$zf / $raw" | bc -l)"
