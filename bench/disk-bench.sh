#!/bin/sh
# bench/disk-bench.sh [CONFIG [CELL]]: the peak disk of one cell's build and test, from nothing:
# a private copy of the tree, an empty build directory and an empty uv cache (the compile cache
# too), as on a fresh CI runner. CONFIG defaults to examples/torch/packages.yml (the torch
# fixture), CELL to its first cell this host can build. While `ninja test/CELL` runs it samples
# the size of the build directory (specs, venvs, source, wheel, logs, the compile cache) and uv's
# cache every 5 s, and prints the peak of each and of both, with the ratio against the free disk
# of GitHub's standard runner (RUNNER_FREE_GB, default 14). The CUDA toolkit, the host's Pythons
# and a builder image are not counted: the runner brings or installs them (docs/manual.md#ci).
# Git sources fetch from their URL (WHEELGEN_GIT_REWRITE for a mirror).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
cfg=${1:-examples/torch/packages.yml}
cell=${2:-}
free_gb=${RUNNER_FREE_GB:-14}
if [ -z "${UV:-}" ] && [ -x "$top/out/tools/bin/uv" ]; then UV=$top/out/tools/bin/uv; export UV; fi
# (on disk, not in /dev/shm: gigabytes)
work=$(mktemp -d "${TMPDIR:-/var/tmp}/wgdisk.XXXXXX")
trap 'rm -rf "$work"' EXIT
(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work"
cd "$work"
UV_CACHE_DIR=$work/uvcache
export UV_CACHE_DIR
./configure --config "$cfg" >configure.log 2>&1 || { cat configure.log >&2; exit 1; }
ninja build.ninja >/dev/null
[ -n "$cell" ] || cell=$(out/wheelgen matrix --config "$cfg" --table | awk '$3 == "yes" { print $1; exit }')
[ -n "$cell" ] || { echo "disk-bench: no cell of $cfg builds on this host" >&2; exit 1; }
# sample: the build directory, uv's cache, and both (a file hard-linked from a venv into the
# cache counts once: du counts an inode once a run)
sample() {
	b=$(du -sxm out 2>/dev/null | cut -f1) u=$(du -sxm "$UV_CACHE_DIR" 2>/dev/null | cut -f1)
	t=$(du -sxmc out "$UV_CACHE_DIR" 2>/dev/null | tail -n 1 | cut -f1)
	echo "${b:-0} ${u:-0} ${t:-0}" >>samples
}
: >samples
ninja "test/$cell" >ninja.log 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	sample
	sleep 5
done
wait "$pid" || { tail -n 30 ninja.log >&2; exit 1; }
sample
echo "# $cell ($cfg), $(wc -l <samples) samples"
awk -v free="$free_gb" '
	{ if ($1 > b) b = $1; if ($2 > u) u = $2; if ($3 > t) t = $3 }
	END {
		printf "%-34s %8s\n", "peak", "MB"
		printf "%-34s %8d\n", "build directory", b
		printf "%-34s %8d\n", "uv cache", u
		printf "%-34s %8d  (%.2f of a %d GB runner; hard links counted once)\n", "both at once", t, t / (free * 1024), free
	}' samples
