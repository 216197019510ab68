#!/bin/sh
# bench/aarch64-bench.sh [quickstart] [cuda] [torch] [-n RUNS]: what a cross-built linux aarch64
# cell costs against its x86_64 cell, measured in the same run on this x86_64 host. For each
# fixture (examples/*/aarch64.yml, Python 3.11; default all three) it builds the x86_64 wheel
# and the aarch64 wheel RUNS times each (default 3), alternating, each time from scratch without
# the compile cache (CCACHE_DISABLE=1: the compilers' time, not the cache's), both wheels
# repaired by auditwheel (an aarch64 wheel always is; the fixtures' x86_64 wheels are not unless
# asked, so the bench asks: the ratio is then the cross build's own cost), and prints the
# median wall times and the ratio aarch64/x86_64 (goal: at most 1.3). Then, apart, the
# emulated import test of the aarch64 cell (qemu-user) against the native test of the x86_64
# cell. The root file system is made before the first timing. Runs in a private copy of the tree;
# uses uv and its cache from out/tools and out/cache/uv when tests/run.sh --install-deps put
# them there, and $WHEELGEN_SYSROOT_CACHE for the root file systems.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
runs=3
fixtures=
while [ "$#" -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift ;;
	quickstart | cuda | torch) fixtures="$fixtures $1" ;;
	*) echo "usage: bench/aarch64-bench.sh [quickstart] [cuda] [torch] [-n RUNS]" >&2; exit 2 ;;
	esac
	shift
done
fixtures=${fixtures:-quickstart cuda torch}
if [ -z "${UV:-}" ] && [ -x "$top/out/tools/bin/uv" ]; then UV=$top/out/tools/bin/uv; export UV; fi
UV_CACHE_DIR=${UV_CACHE_DIR:-$top/out/cache/uv}
export UV_CACHE_DIR
now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# secs LOG: the step's seconds, from its last line ("wheelgen-step: end T RC SECS s")
secs() { sed -n 's/^wheelgen-step: end [0-9]* 0 \([0-9]*\) s$/\1/p' "$1"; }

printf '%-12s %10s %10s %8s   %s\n' fixture x86_64_s aarch64_s ratio "test: x86_64 s, aarch64 (emulated) s"
for fx in $fixtures; do
	work=$(mktemp -d "${TMPDIR:-/tmp}/wgxbench.XXXXXX")
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work"
	cd "$work"
	cfg=examples/$fx/aarch64.yml
	# like for like: the x86_64 wheel repaired too (auditwheel), as an aarch64 wheel always is
	grep -q '^    repair:' "$cfg" || sed -i 's/^    test_import: .*/    repair: {}\n&/' "$cfg"
	./configure --config "$cfg" >configure.log 2>&1 || { cat configure.log >&2; exit 1; }
	grep -q '^cross aarch64 ' out/host.txt || { echo "bench: no aarch64 cross tools (./configure --install-deps --config $cfg)" >&2; exit 1; }
	ninja build.ninja >/dev/null
	x=$(out/wheelgen matrix --config "$cfg" | grep -v aarch64 | head -n 1)
	a=$x-aarch64
	# the root file system and the downloads first (not timed)
	ninja "wheel/$x" "wheel/$a" >warm.log 2>&1 || { tail -n 30 warm.log >&2; exit 1; }
	: >x.times
	: >a.times
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		for c in "$x" "$a"; do
			rm -rf "out/wheels/$c"
			t0=$(now)
			CCACHE_DISABLE=1 ninja "wheel/$c" >/dev/null 2>&1
			t1=$(now)
			if [ "$c" = "$x" ]; then f=x.times; else f=a.times; fi
			echo "$t1 - $t0" | bc -l >>"$f"
		done
	done
	ninja "test/$x" "test/$a" >/dev/null 2>&1
	tx=$(median <x.times)
	ta=$(median <a.times)
	printf '%-12s %10.1f %10.1f %8.2f   %s, %s\n' "$fx" "$tx" "$ta" "$(echo "$ta / $tx" | bc -l)" \
		"$(secs "out/logs/$x.test.log")" "$(secs "out/logs/$a.test.log")"
	cd "$top"
	rm -rf "$work"
done
