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
	awk -v n="$name" -v s="$secs" '{p += $1; f += $2} END {printf "# %s: %d passed, %d failed (%d s)\n", n, p, f, s}' "$d/$name.res"
} >"$d/$name.out"
flock "$d/print.lock" cat "$d/$name.out"
