#!/bin/sh
# tests/run-one.sh NAME: run tests/NAME.sh for tests/run.sh (which runs several at once): its
# output into WG_RUNDIR/NAME.out, printed whole when it ends (under a lock, so that scripts
# ending together do not interleave), its counts into NAME.res, its time into NAME.time
set -u
name=$1
d=$WG_RUNDIR
top=$(cd "$(dirname "$0")/.." && pwd)
start=$(date +%s)
: >"$d/$name.res"
{
	echo "# $name"
	WG_RESULTS=$d/$name.res sh "$top/tests/$name.sh" 2>&1
	if [ ! -s "$d/$name.res" ]; then
		# its exit trap never wrote its counts: whatever it checked is unknown
		echo "FAIL - $name reported no results (did its exit trap run?)"
		echo "0 1" >>"$d/$name.res"
	fi
	secs=$(($(date +%s) - start))
	echo "$name $secs" >"$d/$name.time"
	# the processor time of the script and what it waited for (the suite is bound by it: 2 cores
	# run 3 scripts), from the children's line of "times" ("0m12.3s 0m4.5s")
	times >"$d/$name.cpu"
	cpu=$(tail -n 1 "$d/$name.cpu" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d", t }')
	awk -v n="$name" -v s="$secs" -v c="$cpu" '{p += $1; f += $2} END {printf "# %s: %d passed, %d failed (%d s, %s s of CPU)\n", n, p, f, s, c}' "$d/$name.res"
} >"$d/$name.out"
flock "$d/print.lock" cat "$d/$name.out"
