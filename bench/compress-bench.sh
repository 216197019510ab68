#!/bin/sh
# bench/compress-bench.sh [-a "8.0 9.0 10.0 12.0"] [-n RUNS] [FILE.cu [NVCC_ARG...]]: what nvcc's
# -compress-mode (a package's nvcc_compress) does to the GPU code of one translation unit. It
# compiles FILE.cu (default: the CUDA fixture's kernels, examples/cuda/pkg) for the architectures
# (default: config/packages.yml's cuda_archs default) with -compress-mode none, default, speed,
# balance and size, RUNS times each (default 1), and prints the object's size and the median
# compile time of each mode, with their ratios against none (the baseline, measured in the same
# run). NVCC_ARG... go to nvcc before the file (-I for a torch extension's headers). nvcc:
# $NVCC, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc. A wheel of compressed GPU code
# needs a driver of r550 or newer (CUDA 12.4) to load it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
archs="8.0 9.0 10.0 12.0"
runs=1
while [ "$#" -gt 0 ]; do
	case $1 in
	-a) archs=$2; shift 2 ;;
	-n) runs=$2; shift 2 ;;
	-h | --help) sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
src=${1:-$top/examples/cuda/pkg/src/wgcuda/kernels.cu}
[ "$#" -gt 0 ] && shift
nvcc=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
[ -x "$nvcc" ] || { echo "compress-bench: no nvcc at $nvcc (set NVCC or CUDA_HOME)" >&2; exit 1; }
[ -f "$src" ] || { echo "compress-bench: no such file: $src" >&2; exit 1; }
work=$(mktemp -d "$(bench_base)/wgcompress.XXXXXX")
trap 'rm -rf "$work"' EXIT
gencode=
for a in $archs; do
	n=$(echo "$a" | tr -d .)
	gencode="$gencode -gencode arch=compute_$n,code=sm_$n"
done
now() { date +%s.%N; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "# $("$nvcc" --version | tail -n 1); $(basename "$src") for sm: $archs; $runs run(s) a mode"
printf '%-8s %12s %8s %10s %8s\n' mode bytes ratio seconds ratio
for mode in none default speed balance size; do
	: >"$work/t"
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		s=$(now)
		# shellcheck disable=SC2086 # gencode and the caller's arguments split
		"$nvcc" -c -O3 -Xcompiler -fPIC -std=c++17 $gencode -compress-mode="$mode" -I"$(dirname "$src")" "$@" "$src" -o "$work/$mode.o" \
			>"$work/$mode.log" 2>&1 || { cat "$work/$mode.log" >&2; exit 1; }
		awk -v a="$(now)" -v b="$s" 'BEGIN { print a - b }' >>"$work/t"
	done
	bytes=$(stat -c %s "$work/$mode.o")
	secs=$(median <"$work/t")
	[ "$mode" = none ] && { base_b=$bytes; base_s=$secs; }
	awk -v m="$mode" -v b="$bytes" -v s="$secs" -v bb="$base_b" -v bs="$base_s" \
		'BEGIN { printf "%-8s %12d %8.3f %10.1f %8.2f\n", m, b, b / bb, s, s / bs }'
done
