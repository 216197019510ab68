#!/bin/sh
# bench/shard-bench.sh [cpu | torch | causal-conv1d] [N]: one cell built whole, then as N parts
# one after another (as N runners would, here in turn) and a final step that links them, in two
# copies of the tree in different directories (two runners). Prints, against the whole build
# measured in the same run:
#   - the final step's compiled count (0 when the parts hold every object);
#   - the wheel's sha256 whole and from parts (the same bytes);
#   - each part's objects, wall time, compile time (its first compile's start to its last
#     compile's end, from a clock in front of the compilers) and the ratio of that to the
#     whole's compile time, and its fixed setup (wall - compile: venv, torch, checkout, link);
#   - wheelgen shards suggest's reading of those logs.
# Fixtures: cpu (default; examples/shards/cpu.yml: a C extension of nine translation units,
# about a minute on 2 cores), torch (examples/shards/packages.yml: a torch CUDA extension of ten,
# needs CUDA 13.0 and torch 2.13), causal-conv1d (config/packages.yml's recipe with shards: "N"
# added; its git source must be reachable, and it takes tens of minutes: a real recipe's
# figures). N defaults to the config's shards (4), 4 for causal-conv1d. ccache is off
# (CCACHE_DISABLE=1): the compiles are timed, not the cache. Uses uv and its cache from
# out/tools and out/cache/uv when present, like the other benches.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
fixture=${1:-cpu}
n=${2:-4}
case $fixture in
cpu) cfg=examples/shards/cpu.yml ;;
torch) cfg=examples/shards/packages.yml ;;
causal-conv1d) cfg=config/packages.yml ;;
*) echo "shard-bench: unknown fixture '$fixture' (cpu, torch, causal-conv1d)" >&2; exit 2 ;;
esac
case $n in '' | *[!0-9]*) echo "shard-bench: N must be a number of parts (2 to 64), not '$n'" >&2; exit 2 ;; esac
if [ "$n" -lt 2 ] || [ "$n" -gt 64 ]; then echo "shard-bench: N must be 2 to 64, not $n" >&2; exit 2; fi
if [ -z "${UV:-}" ] && [ -x "$top/out/tools/bin/uv" ]; then UV=$top/out/tools/bin/uv; export UV; fi
UV_CACHE_DIR=${UV_CACHE_DIR:-$top/out/cache/uv}
CCACHE_DISABLE=1
export UV_CACHE_DIR CCACHE_DISABLE
now() { date +%s.%N; }
work=$(mktemp -d "$(bench_base)/wgshardbench.XXXXXX")
# (WGB_KEEP=1 keeps it, to read its logs)
[ -n "${WGB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

# the clock: first on PATH, after wheelgen-cc and ccache, before the compilers; each compile
# ("-c") appends "start end" to $WGB_CLOCK
mkdir -p "$work/clock"
cat >"$work/clock/wrap" <<'EOS'
#!/bin/sh
me=${0##*/}
dir=${0%/*}
rest=$(printf '%s\n' "$PATH" | tr ':' '\n' | grep -vx "$dir" | paste -sd: -)
real=$(PATH=$rest command -v "$me") || { echo "shard-bench clock: no $me on PATH" >&2; exit 127; }
case " $* " in
*" -c "* | *" --compile "* | *" -dc "*)
	s=$(date +%s.%N)
	rc=0
	PATH=$rest "$real" "$@" || rc=$?
	[ -z "${WGB_CLOCK:-}" ] || echo "$s $(date +%s.%N)" >>"$WGB_CLOCK"
	exit "$rc" ;;
esac
PATH=$rest exec "$real" "$@"
EOS
chmod +x "$work/clock/wrap"
for c in cc gcc c++ g++ nvcc; do ln -s wrap "$work/clock/$c"; done
PATH=$work/clock:$PATH
export PATH

# setshards DIR N: the fixture's package with shards: "N"
setshards() {
	if [ "$fixture" = causal-conv1d ]; then
		sed -i -e '/^    shards: /d' -e "s/^  causal-conv1d:$/  causal-conv1d:\n    shards: \"$2\"/" "$1/$cfg"
	else
		sed -i "s/^    shards: .*/    shards: \"$2\"/" "$1/$cfg"
	fi
}
# step DIR NAME TARGET: ninja TARGET in DIR, timed; its wall seconds and compile span into
# DIR/NAME.time ("wall compile"), its output into DIR/NAME.log
step() {
	WGB_CLOCK=$1/$2.clock
	export WGB_CLOCK
	: >"$WGB_CLOCK"
	t0=$(now)
	(cd "$1" && ninja "$3") >"$1/$2.log" 2>&1 || { tail -n 30 "$1/$2.log" >&2; echo "shard-bench: ninja $3 failed (above)" >&2; exit 1; }
	t1=$(now)
	# (the compile time: how long some compile ran, the union of their intervals)
	sort -n "$WGB_CLOCK" | awk -v t0="$t0" -v t1="$t1" '
		NR == 1 { s = $1; e = $2; next }
		$1 > e { c += e - s; s = $1; e = $2; next }
		$2 > e { e = $2 }
		END { if (NR) c += e - s; printf "%.2f %.2f\n", t1 - t0, c }' >"$1/$2.time"
}

for d in whole parts; do
	mkdir -p "$work/$d"
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work/$d"
done
# the newest Python of this host, for the cell (as tests/t1700 picks it)
(cd "$work/whole" && ./configure --config "$cfg") >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
py=$(sed -n 's/^python \(3\.[0-9]*\) .*/\1/p' "$work/whole/out/host.txt" | sort -t. -k2,2n | tail -n 1)
if [ "$fixture" = cpu ]; then
	for d in whole parts; do sed -i "s/python: \[\"3.12\"\]/python: [\"$py\"]/" "$work/$d/$cfg"; done
fi
setshards "$work/whole" 1
setshards "$work/parts" "$n"
(cd "$work/parts" && ./configure --config "$cfg" --wheelgen "$work/whole/out/wheelgen") >>"$work/configure.log" 2>&1 ||
	{ cat "$work/configure.log" >&2; exit 1; }
wg=$work/whole/out/wheelgen
case $fixture in
causal-conv1d) cell=$(cd "$work/parts" && "$wg" matrix --config "$cfg" --profile default --host out/host.txt --table | awk '$1 ~ /^causal-conv1d-/ && $3 == "yes" { print $1; exit }') ;;
*) cell=$(cd "$work/parts" && "$wg" matrix --config "$cfg" --host out/host.txt --table | awk '$3 == "yes" { print $1; exit }') ;;
esac
[ -n "$cell" ] || { echo "shard-bench: this host cannot build the $fixture fixture (wheelgen matrix --table says why)" >&2; exit 1; }
echo "shard-bench: $cell, whole and in $n parts ($(nproc) processors, ccache off)"

step "$work/whole" whole "wheel/$cell"
k=1
while [ "$k" -le "$n" ]; do
	step "$work/parts" "part$k" "shard/$cell/$k"
	k=$((k + 1))
done
step "$work/parts" final "wheel/$cell"

sha() { sed -n 's/^sha256=//p' "$1/out/wheels/$cell/manifest"; }
final=$(sed -n 's/^wheelgen: objects: \([0-9]*\) compiled, \([0-9]*\) reused, [0-9]* from the family$/\1 \2/p' "$work/parts/out/logs/$cell.build.log" | tail -n 1)
read -r wwall wcomp <"$work/whole/whole.time"
read -r fwall _ <"$work/parts/final.time"
printf 'final step: objects: %s compiled, %s reused\n' "${final% *}" "${final#* }"
printf 'wheel sha256 whole:      %s\n' "$(sha "$work/whole")"
printf 'wheel sha256 from parts: %s (%s)\n' "$(sha "$work/parts")" "$([ "$(sha "$work/whole")" = "$(sha "$work/parts")" ] && echo same || echo DIFFERENT)"
printf '\n%-7s %8s %8s %9s %14s %8s\n' step objects wall_s compile_s compile/whole setup_s
total=$(sed -n 's/^objects=//p' "$work/parts/out/shards/$cell/1/objects")
printf '%-7s %8s %8.2f %9.2f %14.2f %8.2f\n' whole "$total" "$wwall" "$wcomp" 1 "$(echo "$wwall $wcomp" | awk '{ print $1 - $2 }')"
k=1
while [ "$k" -le "$n" ]; do
	read -r pwall pcomp <"$work/parts/part$k.time"
	printf '%-7s %8s %8.2f %9.2f %14.2f %8.2f\n' "part$k" "$(sed -n 's/^compiled=//p' "$work/parts/out/shards/$cell/$k/objects")" \
		"$pwall" "$pcomp" "$(echo "$pcomp $wcomp" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" "$(echo "$pwall $pcomp" | awk '{ print $1 - $2 }')"
	k=$((k + 1))
done
printf '%-7s %8s %8.2f %9s %14s %8.2f\n' final "${final% *}" "$fwall" - - "$fwall"
echo
echo "wheelgen shards suggest (from the parts' logs and the final step's):"
(cd "$work/parts" && "$wg" shards suggest --target-minutes "${WGB_TARGET_MINUTES:-330}" "$cell" 2>&1) | sed "s/^/  /" || true
