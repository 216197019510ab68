#!/bin/sh
# bench/index-bench.sh [LIST]: wheelgen index --from-list against dumb-pypi (installed from PyPI
# into a private venv) on the same list of 71k distribution file names
# (../shared/bench/package-list-huge.txt by default), in one run: a full build into an
# empty directory, then a rebuild after adding 2 files (dumb-pypi with --previous-package-list,
# its partial rebuild; wheelgen rewriting only files whose content changed). Prints the
# seconds, the ratios (target: wheelgen at least 50x faster on the full build) and how many
# files each rebuild rewrote. Each full build runs 5 times (the median counts), and so does the
# file system's floor: tar extracting wheelgen's finished tree (the same files and directories, no
# page to compute) into an empty directory. dumb-pypi / floor is the highest ratio this disk allows.
# Both run in a RAM file system (/dev/shm when it is a tmpfs; TMPDIR=DIR picks another place):
# the two generators are compared, not the disk. On an ext4 without a journal (this project's
# test machines), each new inode is checked against those deleted in the last minutes, so the
# same cold build took 0.26 to 2.8 s there within minutes, and tar's floor alone is 12 to 16x
# below dumb-pypi (README.md, "Tests and benchmarks").
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$top/../shared/bench/package-list-huge.txt}
[ -f "$list" ] || { echo "bench: no package list at $list" >&2; exit 1; }
[ -x "$top/out/wheelgen" ] || { echo "bench: build wheelgen first (./configure && ninja out/wheelgen)" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
base=$(bench_base)
work=$(mktemp -d "$base/wgidxbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
# (with uv where there is one: the venv module's ensurepip costs seconds of its own)
uv=${UV:-$(command -v uv || true)}
[ -n "$uv" ] || [ ! -x "$top/out/tools/bin/uv" ] || uv=$top/out/tools/bin/uv
if [ -n "$uv" ]; then
	"$uv" venv -q -p python3 "$work/venv" >"$work/pip.log" 2>&1 &&
		"$uv" pip install -q --python "$work/venv/bin/python" dumb-pypi >>"$work/pip.log" 2>&1
else
	python3 -m venv "$work/venv" >"$work/pip.log" 2>&1 && "$work/venv/bin/pip" install -q dumb-pypi >>"$work/pip.log" 2>&1
fi || { cat "$work/pip.log" >&2; exit 1; }
cp "$list" "$work/list1"
cp "$list" "$work/list2"
printf '%s\n' wgbench_one-1.0-py3-none-any.whl wgbench-two-2.0.tar.gz >>"$work/list2"
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }
# med5 CMD: run the shell command CMD 5 times ({} in it becomes 1 to 5); print the median seconds
med5() {
	: >"$work/times"
	for i in 1 2 3 4 5; do
		cmd=$(printf '%s' "$1" | sed "s/{}/$i/g")
		a=$(now)
		sh -c "$cmd" >"$work/cmd.log" 2>&1 || { cat "$work/cmd.log" >&2; echo "bench: failed: $cmd" >&2; return 1; }
		b=$(now)
		secs "$a" "$b" >>"$work/times"
	done
	sort -n "$work/times" | sed -n 3p
}
dp=$work/venv/bin/dumb-pypi wg=$top/out/wheelgen

dpfull=$(med5 "'$dp' --package-list '$work/list1' --packages-url ../../files/ --output-dir '$work/dp{}' --no-per-release-json")
wgfull=$(med5 "'$wg' index --builddir '$work/wg{}' --from-list '$work/list1'")
(cd "$work/wg1/index" && tar -cf "$work/tree.tar" .)
floor=$(med5 "mkdir '$work/floor{}' && tar -xmf '$work/tree.tar' --no-same-owner --no-same-permissions -C '$work/floor{}'")
touch "$work/stamp"
sleep 1
t3=$(now)
"$dp" --package-list "$work/list2" --previous-package-list "$work/list1" --packages-url ../../files/ \
	--output-dir "$work/dp1" --no-per-release-json >"$work/dpinc.log" 2>&1 || { cat "$work/dpinc.log" >&2; exit 1; }
t4=$(now)
"$wg" index --builddir "$work/wg1" --from-list "$work/list2" 2>/dev/null
t5=$(now)
dpinc=$(secs "$t3" "$t4") wginc=$(secs "$t4" "$t5")
dpn=$(find "$work/dp1" -type f -newer "$work/stamp" | wc -l)
wgn=$(find "$work/wg1" -type f -newer "$work/stamp" | wc -l)
wgall=$(find "$work/wg1" -type f | wc -l)
wgdirs=$(find "$work/wg1/index" -type d | wc -l)
printf 'file system of %s: %s\n' "$base" "$(df -PT "$work" | awk 'NR == 2 {print $2}')"
printf '%-28s %10s %10s %8s\n' "" dumb-pypi wheelgen ratio
printf '%-28s %10.3f %10.3f %7.1fx   (target >= 50x)\n' "full build (s, median of 5)" "$dpfull" "$wgfull" "$(echo "$dpfull / $wgfull" | bc -l)"
printf '%-28s %10.3f %10.3f %7.1fx\n' "after adding 2 files (s)" "$dpinc" "$wginc" "$(echo "$dpinc / $wginc" | bc -l)"
printf '%-28s %10s %10s   (wheelgen: %s files in all)\n' "files rewritten" "$dpn" "$wgn" "$wgall"
printf '%-28s %10s %10.3f %7.1fx   (tar -x (no owner, mode or time restored) of the same %s files in %s directories: dumb-pypi / floor)\n' \
	"file-system floor (s)" "" "$floor" "$(echo "$dpfull / $floor" | bc -l)" "$wgall" "$wgdirs"
printf '%-28s %10s %10.2f\n' "wheelgen / floor" "" "$(echo "$wgfull / $floor" | bc -l)"
find "$work/wg1" -type f -newer "$work/stamp" | sed "s|$work/wg1/|  wheelgen rewrote: |"
