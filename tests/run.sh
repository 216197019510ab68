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
#                 libFuzzer, podman, runc, mmdebstrap, the aarch64 cross compilers and
#                 qemu-user, mingw-w64 and wine), and uv
#                 (PyPI) into out/tools
# --sanitize      build wheelgen and the unit tests with ASan + UBSan
# --werror        build with -Werror
# --fuzz SECONDS  run only the fuzz targets (t1400), each for SECONDS (default in a full run: 2)
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
	./configure --install-deps --deps-only --debs "git nginx-light fcgiwrap redis-server shellcheck bc unzip curl chromium clang libclang-rt-14-dev podman runc mmdebstrap gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user-static binutils"
	# (t0970: mingw-w64 and wine, without the fonts, sound and GUI libraries wine recommends)
	aptopts=--no-install-recommends ./configure --install-deps --deps-only --debs "gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 wine64 wine file"
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
# (and the arm64 root file systems of the aarch64 cells' cross builds, made once)
WHEELGEN_SYSROOT_CACHE=${WHEELGEN_SYSROOT_CACHE:-$WG_TEST_CACHE/sysroots}
# (and the repairs of wheels: many scripts build the same fixture to the same bytes; an entry
# unused for two weeks goes)
WHEELGEN_REPAIR_CACHE=${WHEELGEN_REPAIR_CACHE:-$WG_TEST_CACHE/repair}
mkdir -p "$UV_CACHE_DIR" "$PIP_CACHE_DIR" "$WHEELGEN_REPAIR_CACHE"
find "$WHEELGEN_REPAIR_CACHE" -mindepth 2 -maxdepth 2 -name 'done' -mtime +14 2>/dev/null | while IFS= read -r d; do
	rm -rf "${d%/done}"
done
export UV_CACHE_DIR PIP_CACHE_DIR WG_TEST_CACHE WHEELGEN_SYSROOT_CACHE WHEELGEN_REPAIR_CACHE

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

# the C compiler of the tests' configure runs that compile wheelgen (this one, t0000, t0100, t0300,
# t1310; the fuzz targets of t1400 too): through ccache when it is installed, with the suite's own
# cache (WG_TEST_CACHE/ccache; the cwd out of the hash: every script compiles in a copy of the
# tree elsewhere), so that an unchanged gen/ costs 1.4 s of processor time and not 9
if [ -z "${WG_TEST_CCACHE+set}" ]; then
	WG_TEST_CCACHE=
	if command -v ccache >/dev/null 2>&1; then
		WG_TEST_CCACHE="env CCACHE_DIR=$WG_TEST_CACHE/ccache CCACHE_NOHASHDIR=1 ccache"
	fi
fi
WG_TEST_CC="${WG_TEST_CCACHE:+$WG_TEST_CCACHE }${CC:-cc}"
export WG_TEST_CCACHE WG_TEST_CC

# wheelgen, compiled once for the whole run (configure in every test copies it: --wheelgen);
# the scripts that test compiling it (t0000, t0100, t0300) unset WHEELGEN_PREBUILT
WG_RUNDIR=$(mktemp -d "${TMPDIR:-/tmp}/wgrun.XXXXXX")
trap 'rm -rf "$WG_RUNDIR"' EXIT
export WG_RUNDIR

# python3 resolved once for the whole run: where PATH's python3 is a shim (pyenv's: a bash script
# that runs a dozen processes, 60 ms, before Python starts), the suite's 500 calls of it go
# straight to the interpreter the shim would have run
wg_py3=$(python3 -S -c 'import sys; print(sys.executable)' 2>/dev/null || true)
if [ -n "$wg_py3" ] && [ -x "$wg_py3" ] && [ "$(command -v python3)" != "$wg_py3" ]; then
	mkdir "$WG_RUNDIR/bin"
	ln -s "$wg_py3" "$WG_RUNDIR/bin/python3"
	PATH=$WG_RUNDIR/bin:$PATH
	export PATH
fi
if [ -z "${WHEELGEN_PREBUILT:-}" ]; then
	mkdir "$WG_RUNDIR/src"
	git ls-files -z -co --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$WG_RUNDIR/src"
	# shellcheck disable=SC2086
	if (cd "$WG_RUNDIR/src" && CC=$WG_TEST_CC ./configure --no-uv $confargs) >"$WG_RUNDIR/configure.log" 2>&1; then
		WHEELGEN_PREBUILT=$WG_RUNDIR/src/out/wheelgen
		export WHEELGEN_PREBUILT
	else
		echo "# wheelgen did not build once for the run; every configure compiles it:"
		sed 's/^/#   /' "$WG_RUNDIR/configure.log" | tail -n 20
	fi
fi

# the scripts, longest first (the times of the last run, kept in the test cache; else
# tests/times, measured on a 2-core machine; else by the script's size), WG_JOBS at a time (default: processors + 1, as most
# scripts wait on pip, uv and servers part of the time); each one's output is printed whole
# when it ends
selected=
for t in tests/t[0-9]*.sh; do
	name=$(basename "$t" .sh)
	if [ -n "$only" ]; then
		keep=0
		for o in $only; do
			case $name in "$o"*) keep=1 ;; esac
		done
		[ "$keep" = 1 ] || continue
	fi
	selected="$selected $name"
done
times=$WG_TEST_CACHE/times
for name in $selected; do
	w=$(sed -n "s/^$name //p" "$times" 2>/dev/null | tail -n 1)
	# (no time of this machine's yet: the figure measured on a 2-core machine, tests/times)
	[ -n "$w" ] || w=$(sed -n "s/^$name //p" tests/times 2>/dev/null | tail -n 1)
	echo "${w:-$(($(wc -c <"tests/$name.sh") / 50))} $name"
done | sort -k1,1nr | cut -d' ' -f2 >"$WG_RUNDIR/order"
jobs=${WG_JOBS:-$(($(nproc 2>/dev/null || echo 1) + 1))}
suitestart=$(date +%s)
echo "# $(wc -l <"$WG_RUNDIR/order") scripts, $jobs at a time"
xargs -r -P "$jobs" -n 1 sh "$top/tests/run-one.sh" <"$WG_RUNDIR/order"
echo "# the suite took $(($(date +%s) - suitestart)) s; the longest scripts:"
sort -k2,2nr "$WG_RUNDIR"/*.time | head -n 5 | awk '{printf "#   %s %d s\n", $1, $2}'
{
	cat "$WG_RUNDIR"/*.time 2>/dev/null
	grep -v -F -f "$WG_RUNDIR/order" "$times" 2>/dev/null
} >"$times.new" || true
mv "$times.new" "$times"
# the bytecode of what uv unpacked into the suite's cache, compiled for the next run (only the
# suite's own cache; a warm one costs a listing: tests/warm-bytecode.py)
if [ "$UV_CACHE_DIR" = "$WG_TEST_CACHE/uv" ] && [ -f "$WG_RUNDIR/src/out/host.txt" ]; then
	python3 -S tests/warm-bytecode.py "$UV_CACHE_DIR" "$WG_RUNDIR/src/out/host.txt" "$WG_TEST_CACHE/bytecode" || true
fi

# a test stops what it starts: no process may be left that names a test's work directory (in
# its command line, an nginx master's title among them, or as its working directory); one that
# is fails the run, and is stopped
: >"$WG_RUNDIR/leftover"
if [ -s "$WG_RUNDIR/works" ]; then
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" != $$ ] || continue
		cmd=$({ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null) || continue
		[ -n "$cmd" ] || continue
		cwd=$(readlink "$p/cwd" 2>/dev/null || true)
		while IFS= read -r w; do
			case "$cmd|$cwd" in
			*"$w/"* | *"$w "* | *"$w|"* | *"$w") echo "$pid $cmd" >>"$WG_RUNDIR/leftover"; break ;;
			esac
		done <"$WG_RUNDIR/works"
	done
fi
if [ -s "$WG_RUNDIR/leftover" ]; then
	echo "FAIL - the suite left no process of its own running"
	sed 's/^/    left: /' "$WG_RUNDIR/leftover"
	cut -d' ' -f1 "$WG_RUNDIR/leftover" | xargs kill 2>/dev/null || true
	echo "0 1" >"$WG_RUNDIR/leftover.res"
else
	echo "ok - the suite left no process of its own running"
	echo "1 0" >"$WG_RUNDIR/leftover.res"
fi

passed=$(cat "$WG_RUNDIR"/*.res 2>/dev/null | awk '{p += $1} END {print p + 0}')
failed=$(cat "$WG_RUNDIR"/*.res 2>/dev/null | awk '{f += $2} END {print f + 0}')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
