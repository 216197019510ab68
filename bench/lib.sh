# bench/lib.sh: sourced by the benchmarks.

# bench_base: where a benchmark works: TMPDIR when set, else /dev/shm when it is a writable tmpfs
# (RAM: the programs are compared, not this disk's state), else /tmp
bench_base() {
	if [ -n "${TMPDIR:-}" ]; then
		echo "$TMPDIR"
	elif [ "$(df -PT /dev/shm 2>/dev/null | awk 'NR == 2 {print $2}')" = tmpfs ] && [ -w /dev/shm ]; then
		echo /dev/shm
	else
		echo /tmp
	fi
}
