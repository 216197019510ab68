#!/bin/sh
# bench/ccache-bench.sh: the compile cache across cells. Builds the CUDA fixture (examples/cuda,
# here for 4 GPU architectures so that nvcc dominates) for one Python with an empty cache
# (cell A), then for another Python with the same CUDA (cell B), and prints both wall times,
# the ratio B/A (target: at most 0.3) and B's ccache hits. Runs in a private copy of the tree.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/wgccbench.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work"
cd "$work"
sed -i 's/^  cuda_archs: .*/  cuda_archs: ["8.0", "9.0", "10.0", "12.0"]/' examples/cuda/packages.yml
./configure --config examples/cuda/packages.yml >configure.log 2>&1 || { cat configure.log >&2; exit 1; }
grep -q '^ccache ' out/host.txt || { echo "bench: ccache is not installed" >&2; exit 1; }
ninja build.ninja >/dev/null
cells=$(out/wheelgen matrix --config examples/cuda/packages.yml --host out/host.txt --table | awk '$2 == "yes" {print $1}' | tail -n 2)
a=$(echo "$cells" | head -n 1)
b=$(echo "$cells" | tail -n 1)
[ "$a" != "$b" ] || { echo "bench: needs two Pythons" >&2; exit 1; }
now() { date +%s.%N; }
rm -rf out/cache/ccache
t0=$(now); ninja "wheel/$a" >/dev/null; t1=$(now); ninja "wheel/$b" >/dev/null; t2=$(now)
ta=$(echo "$t1 - $t0" | bc -l)
tb=$(echo "$t2 - $t1" | bc -l)
hits=$(grep -A2 "ccache statistics" "out/logs/$b.build.log" | sed -n 's/.*Hits: *\([0-9]* \/ [0-9]*\).*/\1/p')
printf '%-32s %8s\n' cell seconds
printf '%-32s %8.2f   (cold cache)\n' "$a" "$ta"
printf '%-32s %8.2f   (ccache hits: %s)\n' "$b" "$tb" "$hits"
printf 'B/A = %.2f (target <= 0.3)\n' "$(echo "$tb / $ta" | bc -l)"
