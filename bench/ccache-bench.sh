#!/bin/sh
# bench/ccache-bench.sh [cuda] [torch] [causal-conv1d]: the compile cache across cells. For each
# fixture (examples/cuda: a .cu extension built by nvcc; examples/torch: a torch CUDA extension
# built by torch.utils.cpp_extension, its kernel including the ATen headers; default both), here
# for 4 GPU architectures as real CUDA packages build, it builds the wheel for one Python with an
# empty cache (cell A), then for another Python with the same CUDA (cell B), and prints both wall
# times, the ratio B/A (target: at most 0.3) and B's ccache hits. causal-conv1d is the real
# upstream package of docs/records/causal-conv1d.md (its git source must be reachable: the
# internet, or WHEELGEN_GIT_REWRITE to a mirror), for Python 3.12 and 3.13 and one architecture
# (about 8 minutes on 2 cores). Runs in a private copy of the tree; uses uv and its cache from
# out/tools and out/cache/uv when tests/run.sh --install-deps put them there.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
fixtures=${*:-cuda torch}
if [ -z "${UV:-}" ] && [ -x "$top/out/tools/bin/uv" ]; then UV=$top/out/tools/bin/uv; export UV; fi
UV_CACHE_DIR=${UV_CACHE_DIR:-$top/out/cache/uv}
export UV_CACHE_DIR
now() { date +%s.%N; }
printf '%-40s %8s\n' cell seconds
for fx in $fixtures; do
	case $fx in cuda | torch | causal-conv1d) ;; *) echo "bench: unknown fixture '$fx' (cuda, torch, causal-conv1d)" >&2; exit 2 ;; esac
	work=$(mktemp -d "${TMPDIR:-/tmp}/wgccbench.XXXXXX")
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work"
	cd "$work"
	if [ "$fx" = causal-conv1d ]; then
		cfg=docs/records/causal-conv1d.yml
		sed -i -e 's/^  python: \["3.12"\]/  python: ["3.12", "3.13"]/' \
			-e 's/python: \["3.12"\], pypi:/python: ["3.12", "3.13"], pypi:/' "$cfg"
	else
		cfg=examples/$fx/packages.yml
		sed -i 's/^  cuda_archs: .*/  cuda_archs: ["8.0", "9.0", "10.0", "12.0"]/' "$cfg"
		# the torch fixture's kernel includes the ATen headers, as real packages' kernels do
		# (the tests' fixture leaves them out: nvcc takes 25 s of CPU on them, 0.8 s without)
		[ "$fx" != torch ] || sed -i '1i #include <ATen/ATen.h>\n#include <ATen/cuda/CUDAContext.h>' examples/torch/pkg/csrc/scale.cu
	fi
	./configure --config "$cfg" >configure.log 2>&1 || { cat configure.log >&2; exit 1; }
	grep -q '^ccache ' out/host.txt || { echo "bench: ccache is not installed" >&2; exit 1; }
	ninja build.ninja >/dev/null
	cells=$(out/wheelgen matrix --config "$cfg" --host out/host.txt --table | awk '$3 == "yes" {print $1}' | tail -n 2)
	a=$(echo "$cells" | head -n 1)
	b=$(echo "$cells" | tail -n 1)
	if [ -z "$a" ] || [ "$a" = "$b" ]; then echo "bench: $fx needs two Pythons" >&2; exit 1; fi
	rm -rf out/cache/ccache
	t0=$(now)
	ninja "wheel/$a" >/dev/null
	t1=$(now)
	ninja "wheel/$b" >/dev/null
	t2=$(now)
	ta=$(echo "$t1 - $t0" | bc -l)
	tb=$(echo "$t2 - $t1" | bc -l)
	hits=$(grep -A2 "ccache statistics" "out/logs/$b.build.log" | sed -n 's/.*Hits: *\([0-9]*\) *\/ *\([0-9]*\).*/\1 \/ \2/p')
	printf '%-40s %8.2f   (cold cache)\n' "$a" "$ta"
	printf '%-40s %8.2f   (ccache hits: %s)\n' "$b" "$tb" "$hits"
	printf '%-40s %8.2f   (target <= 0.3)\n' "$fx: B/A" "$(echo "$tb / $ta" | bc -l)"
	cd "$top"
	rm -rf "$work"
done
