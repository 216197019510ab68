#!/bin/sh
# bench/abi-bench.sh [CONFIG]: how many wheel builds does abi: abi3 save?
#
# Counts, from `wheelgen matrix --tsv` (its build column: the cell whose wheel a cell tests),
# the wheel builds of CONFIG (default config/packages.yml) as written, and of the same config
# with every `abi:` and `torch_abi:` line removed (one build per cell, as before abi-aware cells), per package
# and in total, and prints the ratio. Nothing is built. Needs a built out/wheelgen.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
wg=${WHEELGEN:-$top/out/wheelgen}
[ -x "$wg" ] || { echo "bench: build $wg first: ./configure && ninja out/wheelgen" >&2; exit 1; }
cfg=${1:-$top/config/packages.yml}
work=$(mktemp -d "${TMPDIR:-/tmp}/wgabi.XXXXXX")
trap 'rm -rf "$work"' EXIT
# (beside the config: its patches are named relative to it)
plain=$(dirname "$cfg")/.abi-bench.$$.yml
trap 'rm -rf "$work" "$plain"' EXIT
grep -v -E '^[[:space:]]*(torch_)?abi:' "$cfg" >"$plain"
"$wg" matrix --config "$cfg" --tsv >"$work/after" 2>/dev/null
"$wg" matrix --config "$plain" --tsv >"$work/before" 2>/dev/null
printf '%-16s %8s %14s %13s %7s\n' package cells builds_before builds_after ratio
awk -F'\t' 'FNR == 1 { next }
	FILENAME ~ /before$/ { before[$2]++; tb++; next }
	{ cells[$2]++; if (!seen[$8]++) { after[$2]++; ta++ } tc++ }
	END {
		for (p in cells) printf "%-16s %8d %14d %13d %7.2f\n", p, cells[p], before[p], after[p], after[p] / before[p]
		printf "%-16s %8d %14d %13d %7.2f\n", "total", tc, tb, ta, ta / tb
	}' "$work/before" "$work/after" | sort -k1,1 | awk '$1 != "total"; $1 == "total" { t = $0 } END { print t }'
