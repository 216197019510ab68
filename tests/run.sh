#!/bin/sh
# tests/run.sh: the whole test suite: the scripts tests/t*.sh (t0000 runs the C unit
# tests), each on a private copy of the tree, so your build.ninja and out/ stay as they are. Ends with
# "N passed, N failed"; exit status 1 if anything failed.
#
#   tests/run.sh [--install-deps] [--sanitize] [--werror] [--fuzz SECONDS] [t0100 ...]
#
# --install-deps  install the Debian packages first, once (apt-get; needs root or sudo):
#                 wheelgen's build dependencies and the tools the tests use (git, nginx,
#                 fcgiwrap, redis, bc, unzip, curl, chromium, the shell linter, clang with
#                 libFuzzer), and uv
#                 (PyPI) into out/tools
# --sanitize      build wheelgen and the unit tests with ASan + UBSan
# --werror        build with -Werror
# --fuzz SECONDS  run only the fuzz targets (t1400), each for SECONDS (default in a full run: 10)
# Names select test scripts by prefix (default: all). Work directories are removed, also after
# a failure, unless WG_KEEP=1. Downloads are cached in WG_TEST_CACHE (~/.cache/wheelgen-tests).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
confargs=
only=
installdeps=0
fuzznext=0
for a in "$@"; do
	case $a in
	--install-deps) installdeps=1 ;;
	--sanitize|--werror) confargs="$confargs $a" ;;
	--fuzz) fuzznext=1 ;;
	-h|--help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
	-*) echo "tests/run.sh: unknown option '$a'" >&2; exit 2 ;;
	*)
		if [ "$fuzznext" = 1 ]; then
			case $a in '' | *[!0-9]*) echo "tests/run.sh: --fuzz wants seconds, not '$a'" >&2; exit 2 ;; esac
			WG_FUZZ_SECONDS=$a
			export WG_FUZZ_SECONDS
			only="$only t1400"
			fuzznext=0
		else
			only="$only $a"
		fi
		;;
	esac
done
[ "$fuzznext" = 0 ] || { echo "tests/run.sh: --fuzz needs a number of seconds" >&2; exit 2; }

if [ "$installdeps" = 1 ]; then
	./configure --install-deps --deps-only
	# the tools the tests use, through configure's installer (nothing when all are there; it
	# waits for a dpkg lock another process holds)
	./configure --install-deps --deps-only --debs "git nginx-light fcgiwrap redis-server shellcheck bc unzip curl chromium clang libclang-rt-14-dev"
fi

# uv (configure --install-deps put it in out/tools) for every test's configure, and one uv and
# one pip cache for all of them, so that torch is downloaded once: the suite's own
# (WG_TEST_CACHE, default ~/.cache/wheelgen-tests), never the user's out/cache
if [ -z "${UV:-}" ] && [ -x "$top/out/tools/bin/uv" ]; then
	UV=$top/out/tools/bin/uv
	export UV
fi
WG_TEST_CACHE=${WG_TEST_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/wheelgen-tests}
UV_CACHE_DIR=${UV_CACHE_DIR:-$WG_TEST_CACHE/uv}
PIP_CACHE_DIR=${PIP_CACHE_DIR:-$WG_TEST_CACHE/pip}
mkdir -p "$UV_CACHE_DIR" "$PIP_CACHE_DIR"
export UV_CACHE_DIR PIP_CACHE_DIR

WG_RESULTS=$(mktemp "${TMPDIR:-/tmp}/wgresults.XXXXXX")
export WG_RESULTS
WG_CONFARGS=$confargs
export WG_CONFARGS
case $confargs in
*--sanitize*)
	# full stacks (the libraries have no frame pointers), so that the suppressions match
	ASAN_OPTIONS=fast_unwind_on_malloc=0:abort_on_error=0
	LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
	export ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS
	;;
esac

suitestart=$(date +%s)
for t in tests/t[0-9]*.sh; do
	name=$(basename "$t" .sh)
	if [ -n "$only" ]; then
		keep=0
		for o in $only; do
			case $name in "$o"*) keep=1 ;; esac
		done
		[ "$keep" = 1 ] || continue
	fi
	echo "# $name"
	before=$(wc -l <"$WG_RESULTS")
	tstart=$(date +%s)
	sh "$t" || true
	if [ "$(wc -l <"$WG_RESULTS")" -eq "$before" ]; then
		# its exit trap never wrote its counts: whatever it checked is unknown
		echo "FAIL - $name reported no results (did its exit trap run?)"
		echo "0 1" >>"$WG_RESULTS"
	fi
	tail -n "+$((before + 1))" "$WG_RESULTS" | awk -v n="$name" -v s="$(($(date +%s) - tstart))" \
		'{p += $1; f += $2} END {printf "# %s: %d passed, %d failed (%d s)\n", n, p, f, s}'
done
echo "# the suite took $(($(date +%s) - suitestart)) s"

passed=$(awk '{p += $1} END {print p + 0}' "$WG_RESULTS")
failed=$(awk '{f += $2} END {print f + 0}' "$WG_RESULTS")
rm -f "$WG_RESULTS" "$WG_RESULTS.log" "$WG_RESULTS.unit"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
