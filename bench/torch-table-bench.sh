#!/bin/sh
# bench/torch-table-bench.sh [RUNS]: wheelgen torch-table against the real PyPI from this machine,
# RUNS times each (default 3): the default run (torch's page, one .metadata per minor and platform,
# the CUDA index), and --range (METADATA read out of the wheels by range requests where the index
# serves no .metadata). Prints each run's wall time, the median, and what the runs fetched: the
# page's size and its own download time (curl), how many .metadata files the index did not have.
# Needs out/wheelgen (./configure && ninja out/wheelgen), curl, and PyPI (INDEX=URL for another
# index; CUDA_INDEX=URL|none for the per-CUDA one, default download.pytorch.org/whl/).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
wg=$top/out/wheelgen
[ -x "$wg" ] || { echo "bench: build $wg first: ./configure && ninja out/wheelgen" >&2; exit 1; }
runs=${1:-3}
index=${INDEX:-https://pypi.org/simple/}
cudaindex=${CUDA_INDEX:-https://download.pytorch.org/whl/}
work=$(mktemp -d "${TMPDIR:-/tmp}/wgttbench.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { python3 -c 'import time; print("%.3f" % time.time())'; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "# torch's page: $index""torch/ (PEP 691 JSON)"
curl -sS -o "$work/page" -H 'Accept: application/vnd.pypi.simple.v1+json' \
	-w '#   %{size_download} bytes in %{time_total} s (curl; HTTP %{http_code}, %{content_type})\n' "${index}torch/"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); f = d["files"]; print("#   %d files, %d with core-metadata" % (len(f), sum(1 for x in f if x.get("core-metadata") or x.get("data-dist-info-metadata"))))' "$work/page"

for mode in default range; do
	args=
	[ "$mode" = default ] || args=--range
	: >"$work/times"
	i=0
	while [ "$i" -lt "$runs" ]; do
		i=$((i + 1))
		s=$(now)
		# shellcheck disable=SC2086
		"$wg" torch-table --config "$top/config/packages.yml" --index "$index" --cuda-index "$cudaindex" $args \
			>"$work/table.$mode" 2>"$work/err.$mode" || { cat "$work/err.$mode" >&2; exit 1; }
		e=$(now)
		echo "$s $e" | awk '{ printf "%.2f\n", $2 - $1 }' >>"$work/times"
	done
	echo "# torch-table ($mode${args:+: $args}): $(tr '\n' ' ' <"$work/times")s; median $(median <"$work/times") s; $(grep -c '^  "' "$work/table.$mode") rows"
	sed -n 's/^wheelgen: \([0-9]* of [0-9]* wheels have no .metadata file\).*/#   \1 on the index/p; s/^wheelgen: \(read the METADATA of .*\)/#   \1/p; s/^wheelgen: the CUDA index \([^ ]*\) did not answer (\(.*\)):.*/#   the CUDA index \1 did not answer (\2)/p' "$work/err.$mode"
done
echo "# the table read with --range:"
cat "$work/table.range"
