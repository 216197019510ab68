#!/bin/sh
# bench/gen-bench.sh [SIZES...]: how fast is the generator, and how fast is a no-op ninja?
#
# For generated configs of 1k, 10k and 50k cells (or the sizes given) it prints:
#   gen-cold   wheelgen gen into an empty build directory (all specs + graph.ninja written)
#   gen-warm   wheelgen gen again, nothing changed (every file compared, none written)
#   noop       ninja after everything was built once (the wheel/test steps replaced by
#              stand-ins that write a manifest and a stamp, so no Python is involved)
#   write      baseline 1: writing one file as large as graph.ninja
#   create     baseline 2: creating the same files in the same directories (one per spec file)
#              with Python's os.makedirs + open/write: what any generator pays on this disk
# and the ratios of gen to these baselines, all measured in the same run. Targets (issue 2): 10k cells gen < 0.2 s,
# no-op ninja < 0.5 s. Needs a built out/wheelgen (./configure && ninja out/wheelgen).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
wg=$top/out/wheelgen
[ -x "$wg" ] || { echo "bench: build $wg first: ./configure && ninja out/wheelgen" >&2; exit 1; }
sizes=${*:-1000 10000 50000}
work=$(mktemp -d "${TMPDIR:-/tmp}/wgbench.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
elapsed() { echo "$2 - $1" | bc -l | awk '{printf "%.3f", $1}'; }
ratio() { echo "$1 / $2" | bc -l | awk '{printf "%.1f", $1}'; }
best() { # best CMD...: the fastest of 3 runs, in seconds
	b=
	for _ in 1 2 3; do
		t0=$(now); "$@" >/dev/null 2>&1; t1=$(now)
		t=$(elapsed "$t0" "$t1")
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

printf '%-7s %8s %8s %9s %10s %10s %8s %12s %12s\n' cells graph_MB write_s create_s gen_cold_s gen_warm_s noop_s cold/create warm/write
for n in $sizes; do
	d=$work/$n
	mkdir -p "$d/templates" "$d/out"
	# 10 cells per package version: 5 Pythons x 2 CUDA
	nver=10
	npkg=$((n / (nver * 10)))
	[ "$npkg" -ge 1 ] || npkg=1
	{
		echo 'defaults: {python: ["3.9", "3.10", "3.11", "3.12", "3.13"], cuda: ["12.8", "13.0"]}'
		echo 'packages:'
		i=0
		while [ "$i" -lt "$npkg" ]; do
			printf '  pkg%d: {versions: [' "$i"
			v=0
			while [ "$v" -lt "$nver" ]; do printf '"%d.%d"%s' "$i" "$v" "$([ $v -lt $((nver - 1)) ] && echo ', ')"; v=$((v + 1)); done
			printf '], env: {X: "1"}, local_version: "cu{cuda}", test_import: pkg%d}\n' "$i"
			i=$((i + 1))
		done
	} >"$d/packages.yml"
	{
		for p in 3.9 3.10 3.11 3.12 3.13; do echo "python $p /usr/bin/true"; done
		echo "cuda 12.8 /nonexistent/cuda-12.8"
		echo "cuda 13.0 /nonexistent/cuda-13.0"
	} >"$d/out/host.txt"
	cp "$wg" "$d/out/wheelgen"
	# (the graph names the compiler wrapper and the step tool configure builds beside it)
	cp "$wg-cc" "$d/out/wheelgen-cc"
	cp "$wg-step" "$d/out/wheelgen-step"
	# stand-ins for the build and test steps: same outputs, no Python
	cat >"$d/templates/build-host.sh" <<'SH'
m=$1/wheels/$2; mkdir -p "$m"; : >"$m/x.whl"
printf 'package=%s\nfilename=x.whl\nsha256=%064d\n' "${2%%-*}" 0 >"$m/manifest"; echo "$m/manifest:" >"$m/manifest.d"
SH
	# shellcheck disable=SC2016
	printf 'mkdir -p "$1/tests"; printf "%%064d\\n" 0 >"$1/tests/$2.ok"\n' >"$d/templates/test-host.sh"
	cp "$top/templates/test.sh" "$top/templates/voice.sh" "$d/templates/"
	: >"$d/templates/publish-dir.sh"
	: >"$d/templates/step-lib.sh"
	: >"$d/templates/relabel.py"
	: >"$d/templates/wheel-info.py"
	: >"$d/templates/linux-repair.py"
	: >"$d/templates/find.py"
	: >"$d/templates/cuda-libs.txt"
	: >"$d/templates/test-view.sh"
	printf 'builddir = out\nconfig = packages.yml\nsubninja out/graph.ninja\n' >"$d/build.ninja"
	cd "$d"
	t0=$(now); ./out/wheelgen gen --config packages.yml --builddir out --host out/host.txt; t1=$(now)
	cold=$(elapsed "$t0" "$t1")
	warm=$(best ./out/wheelgen gen --config packages.yml --builddir out --host out/host.txt)
	size=$(wc -c <out/graph.ninja)
	write=$(best sh -c "head -c $size /dev/zero >'$d/same-size'")
	files=$(find out/cells -type f | wc -l)
	spec=$(wc -c <"$(find out/cells -name spec | head -n 1)")
	t0=$(now)
	python3 -c 'import os, sys
root, n, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
data = b"x" * size
for i in range(n // 2):
    d = os.path.join(root, "cell%d" % i)
    os.makedirs(d, exist_ok=True)
    for name in ("spec", "test"):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)' "$d/baseline" "$files" "$spec"
	t1=$(now)
	create=$(elapsed "$t0" "$t1")
	ninja -j 8 >"$d/ninja.log" 2>&1 || { tail -n 20 "$d/ninja.log" >&2; exit 1; }
	noop=$(best ninja)
	ninja | grep -q "no work to do" || { echo "bench: the no-op ninja was not a no-op" >&2; exit 1; }
	cells=$(./out/wheelgen matrix --config packages.yml | wc -l)
	printf '%-7s %8.1f %8s %9s %10s %10s %8s %12s %12s\n' "$cells" "$(echo "$size / 1048576" | bc -l)" "$write" "$create" "$cold" "$warm" "$noop" \
		"$(ratio "$cold" "$create")" "$(ratio "$warm" "$write")"
	cd "$top"
	rm -rf "$d"
done
