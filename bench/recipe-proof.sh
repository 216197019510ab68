#!/bin/sh
# bench/recipe-proof.sh: repeat one package's record (docs/records/PACKAGE.md): configure a build
# directory from docs/records/PACKAGE.yml (one Python, CUDA 13.0, one architecture; one cell, or
# the cells of one shared wheel: torch_abi: stable), run `ninja test/<cell>...` (checkout ->
# wheel -> import test of every compiled module) under /usr/bin/time, sample the machine's
# memory every second, and print the record's figures.
set -eu

usage() {
	cat <<'EOF'
usage: bench/recipe-proof.sh PACKAGE [--builddir DIR] [--mirrors DIR] [--port N] [--fresh]

Builds the cells of docs/records/PACKAGE.yml end to end (one cell, or one wheel that several
cells test: torch_abi: stable) and prints the figures a record gives: wall time, peak memory
against the memory pool's budget, the wheel's size, its compiled modules and which of them need
a GPU, and each cell's test. The figures are also written to DIR/proof-PACKAGE.txt.

  --builddir DIR  the build directory (default out-proof/PACKAGE); build.ninja is restored
                  afterwards, so the tree's own configuration is left as it was
  --mirrors DIR   serve DIR with git daemon on 127.0.0.1 (DIR/OWNER/NAME.git, bare
                  repositories or links to them) and fetch https://github.com/ from there
                  (WHEELGEN_GIT_REWRITE): for hosts without GitHub. Objects a snapshot lacks
                  outside the pinned trees (old history) are left out of the packs
  --port N        git daemon's port with --mirrors (default 9418)
  --fresh         remove DIR first: the wheel, the test record and the compile cache are
                  rebuilt (the figures of a record are taken this way)
EOF
}

pkg=
builddir=
mirrors=
port=9418
fresh=0
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--builddir) builddir=$2; shift 2 ;;
	--mirrors) mirrors=$2; shift 2 ;;
	--port) port=$2; shift 2 ;;
	--fresh) fresh=1; shift ;;
	-*) echo "recipe-proof: unknown option $1" >&2; usage >&2; exit 2 ;;
	*) [ -z "$pkg" ] || { echo "recipe-proof: one package at a time" >&2; exit 2; }; pkg=$1; shift ;;
	esac
done
[ -n "$pkg" ] || { usage >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cfg=docs/records/$pkg.yml
[ -f "$cfg" ] || { echo "recipe-proof: no record config $cfg (records: $(for f in docs/records/*.yml; do basename "$f" .yml; done | tr '\n' ' '))" >&2; exit 2; }
builddir=${builddir:-out-proof/$pkg}
[ "$fresh" = 0 ] || rm -rf "$builddir"
mkdir -p "$builddir"

scratch=$(mktemp -d)
saved=
daemon=
sampler=
cleanup() {
	[ -z "$sampler" ] || kill "$sampler" 2>/dev/null || true
	[ -z "$daemon" ] || kill "$daemon" 2>/dev/null || true
	if [ -n "$saved" ]; then mv -f "$saved" build.ninja; fi
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -n "$mirrors" ]; then
	[ -d "$mirrors" ] || { echo "recipe-proof: --mirrors $mirrors is not a directory" >&2; exit 2; }
	# a snapshot may lack objects of old history; git's upload-pack then refuses the whole pack
	# ("possible repository corruption"): the hook (read from the daemon's global config only)
	# lets pack-objects leave them out. The pinned trees themselves must be complete.
	mkdir -p "$scratch/home"
	printf '#!/bin/sh\nexec "$@" --missing=allow-any\n' >"$scratch/pack-hook"
	chmod +x "$scratch/pack-hook"
	HOME=$scratch/home git config --global uploadpack.packObjectsHook "$scratch/pack-hook"
	HOME=$scratch/home git daemon --base-path="$(cd "$mirrors" && pwd)" --export-all --reuseaddr \
		--listen=127.0.0.1 --port="$port" --pid-file="$scratch/daemon.pid" --detach
	sleep 1
	daemon=$(cat "$scratch/daemon.pid")
	WHEELGEN_GIT_REWRITE="https://github.com/=git://127.0.0.1:$port/"
	export WHEELGEN_GIT_REWRITE
	echo "recipe-proof: fetching https://github.com/ from git://127.0.0.1:$port/ ($mirrors)"
fi

if [ -f build.ninja ]; then
	saved=$scratch/build.ninja
	cp -p build.ninja "$saved"
fi
# --install-deps: apt-get only for what is missing, and uv into the build directory
./configure --install-deps --config "$cfg" --builddir "$builddir" >"$builddir/configure.log" 2>&1 ||
	{ cat "$builddir/configure.log" >&2; exit 1; }
ninja "$builddir/wheelgen" >"$builddir/configure.log" 2>&1 || { cat "$builddir/configure.log" >&2; exit 1; }
cells=$("$builddir/wheelgen" matrix --config "$cfg" --host "$builddir/host.txt" --builddir "$builddir")
[ -n "$cells" ] || { echo "recipe-proof: $cfg has no cell this host can build" >&2; exit 1; }
targets=$(for c in $cells; do printf 'test/%s ' "$c"; done)

# the machine's memory in use (MemTotal - MemAvailable), every second; the peak minus the
# figure before the run is what the build took
used_kb() { awk '/^MemTotal:/ { t = $2 } /^MemAvailable:/ { a = $2 } END { print t - a }' /proc/meminfo; }
base_kb=$(used_kb)
(
	peak=0
	while :; do
		u=$(used_kb)
		[ "$u" -le "$peak" ] || { peak=$u; echo "$peak" >"$scratch/peak"; }
		sleep 1
	done
) &
sampler=$!

echo "recipe-proof: ninja $targets(log: $builddir/proof-$pkg.log)"
start=$(date +%s)
rc=0
# shellcheck disable=SC2086
/usr/bin/time -v -o "$scratch/time" ninja $targets >"$builddir/proof-$pkg.log" 2>&1 || rc=$?
end=$(date +%s)
kill "$sampler" 2>/dev/null || true
sampler=
if [ "$rc" != 0 ]; then
	tail -n 40 "$builddir/proof-$pkg.log" >&2
	echo "recipe-proof: $pkg: FAILED after $((end - start)) s (exit $rc); the whole log: $builddir/proof-$pkg.log" >&2
	exit 1
fi

gb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1048576 }'; }
field() { sed -n "s/^$1=//p" "$2" 2>/dev/null | head -n 1; }
# the cell that built the wheel (the others tested it)
# shellcheck disable=SC2086
set -- $cells
cell=$1
for c in $cells; do
	if [ -f "$builddir/logs/$c.build.log" ]; then cell=$c; break; fi
done
man=$builddir/wheels/$cell/manifest
stamp=$builddir/tests/$cell.ok
secs=$((end - start))
{
	echo "package: $pkg"
	echo "cell: $cell"
	echo "date: $(date -u +%Y-%m-%d)"
	echo "commit: $(cat "$builddir/src/"*.commit 2>/dev/null | head -n 1)"
	echo "wall time: $((secs / 60)) min $((secs % 60)) s ($secs s, fetch + checkout + wheel + test)"
	echo "origin of the wheel: $(field origin "$man") (store = restored, not built: use --fresh)"
	echo "peak memory of the machine: $(gb $(( $(cat "$scratch/peak" 2>/dev/null || echo "$base_kb") - base_kb ))) GB over the $(gb "$base_kb") GB in use before"
	echo "peak memory of the build (its own sampling): $(field peak_memory_gb "$builddir/wheels/$cell/build-stats") GB"
	echo "memory pool's budget for the cell: $(field budget_gb "$builddir/wheels/$cell/build-stats") GB"
	echo "largest single process: $(gb "$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$scratch/time")") GB"
	echo "wheel: $(field filename "$man") ($(field size "$man") bytes)"
	echo "compiled modules: $(field modules "$stamp")"
	echo "needs-gpu modules: $(field needs_gpu "$stamp")"
	echo "architectures in the build log: $(grep -o -E 'code=(sm|compute)_[0-9]+a?' "$builddir/logs/$cell.build.log" 2>/dev/null | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')"
	for c in $cells; do
		# (the package list the test log ends with)
		echo "tested: $c, torch $(awk '$1 == "torch" && NF == 2 { v = $2 } END { print v ? v : "none" }' "$builddir/logs/$c.test.log" 2>/dev/null), modules=$(field modules "$builddir/tests/$c.ok"), gpu=$(field gpu "$builddir/tests/$c.ok")"
	done
} >"$builddir/proof-$pkg.txt"
cat "$builddir/proof-$pkg.txt"
