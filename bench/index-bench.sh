#!/bin/sh
# bench/index-bench.sh [LIST]: wheelgen index --from-list against dumb-pypi (installed from PyPI
# into a private venv) on the same list of 71k distribution file names
# (../shared/bench/package-list-huge.txt by default), in one run: a full build into an
# empty directory, then a rebuild after adding 2 files (dumb-pypi with --previous-package-list,
# its partial rebuild; wheelgen rewriting only files whose content changed). Prints the
# seconds, the ratios (target: wheelgen at least 50x faster on the full build) and how many
# files each rebuild rewrote.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
list=${1:-$top/../shared/bench/package-list-huge.txt}
[ -f "$list" ] || { echo "bench: no package list at $list" >&2; exit 1; }
[ -x "$top/out/wheelgen" ] || { echo "bench: build wheelgen first (./configure && ninja out/wheelgen)" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/wgidxbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv" >/dev/null
"$work/venv/bin/pip" install -q dumb-pypi >"$work/pip.log" 2>&1 || { cat "$work/pip.log" >&2; exit 1; }
cp "$list" "$work/list1"
cp "$list" "$work/list2"
printf '%s\n' wgbench_one-1.0-py3-none-any.whl wgbench-two-2.0.tar.gz >>"$work/list2"
now() { date +%s.%N; }
secs() { echo "$2 - $1" | bc -l; }

t0=$(now)
"$work/venv/bin/dumb-pypi" --package-list "$work/list1" --packages-url ../../files/ --output-dir "$work/dp" --no-per-release-json
t1=$(now)
"$top/out/wheelgen" index --builddir "$work/wg" --from-list "$work/list1" 2>/dev/null
t2=$(now)
touch "$work/stamp"
sleep 1
t3=$(now)
"$work/venv/bin/dumb-pypi" --package-list "$work/list2" --previous-package-list "$work/list1" --packages-url ../../files/ \
	--output-dir "$work/dp" --no-per-release-json
t4=$(now)
"$top/out/wheelgen" index --builddir "$work/wg" --from-list "$work/list2" 2>/dev/null
t5=$(now)
dpfull=$(secs "$t0" "$t1") wgfull=$(secs "$t1" "$t2") dpinc=$(secs "$t3" "$t4") wginc=$(secs "$t4" "$t5")
dpn=$(find "$work/dp" -type f -newer "$work/stamp" | wc -l)
wgn=$(find "$work/wg" -type f -newer "$work/stamp" | wc -l)
wgall=$(find "$work/wg" -type f | wc -l)
printf '%-24s %10s %10s %8s\n' "" dumb-pypi wheelgen ratio
printf '%-24s %10.3f %10.3f %7.1fx   (target >= 50x)\n' "full build (s)" "$dpfull" "$wgfull" "$(echo "$dpfull / $wgfull" | bc -l)"
printf '%-24s %10.3f %10.3f %7.1fx\n' "after adding 2 files (s)" "$dpinc" "$wginc" "$(echo "$dpinc / $wginc" | bc -l)"
printf '%-24s %10s %10s   (wheelgen: %s files in all)\n' "files rewritten" "$dpn" "$wgn" "$wgall"
find "$work/wg" -type f -newer "$work/stamp" | sed "s|$work/wg/|  wheelgen rewrote: |"
