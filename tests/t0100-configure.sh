#!/bin/sh
# configure: --help, bad options, missing files and dependencies, what it writes and finds
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# (these cases test compiling wheelgen: not the run's prebuilt one)
unset WHEELGEN_PREBUILT
src=$WORK/src
t_copytree "$src"
cd "$src"

t_case "configure --help describes the options"
if ./configure --help >"$WORK/help" 2>&1 && grep -q -- "--install-deps" "$WORK/help" && grep -q -- "--backend" "$WORK/help"; then t_pass; else t_fail "$(cat "$WORK/help")"; fi

t_case "an unknown option is an error naming it"
if ./configure --frobnicate >"$WORK/o" 2>&1; then t_fail "accepted"; else
	if grep -q "unknown option '--frobnicate'" "$WORK/o"; then t_pass; else t_fail "$(cat "$WORK/o")"; fi
fi

t_case "a missing config file is an error and writes nothing"
if ./configure --config nope.yml >"$WORK/o" 2>&1; then t_fail "accepted"; else
	if grep -q "config file 'nope.yml' not found" "$WORK/o" && [ ! -e build.ninja ]; then t_pass; else t_fail "$(cat "$WORK/o")"; fi
fi

t_case "a missing library names the Debian package to install"
mkdir -p "$WORK/pc"
if PKG_CONFIG_LIBDIR=$WORK/pc ./configure >"$WORK/o" 2>&1; then t_fail "accepted"; else
	if grep -q "apt-get install libyaml-dev" "$WORK/o"; then t_pass; else t_fail "$(cat "$WORK/o")"; fi
fi

t_case "a path with a space is refused clearly"
if ./configure --builddir "my out" >"$WORK/o" 2>&1; then t_fail "accepted"; else
	if grep -q "may only hold" "$WORK/o"; then t_pass; else t_fail "$(cat "$WORK/o")"; fi
fi

t_case "an unknown backend is refused, naming the four there are"
if ./configure --backend lxc >"$WORK/o" 2>&1; then t_fail "accepted"; else
	if grep -q "unknown backend 'lxc' (auto, host, docker or podman)" "$WORK/o"; then t_pass; else t_fail "$(cat "$WORK/o")"; fi
fi

t_case "configure writes build.ninja, out/config.ninja and out/host.txt and prints a summary"
# shellcheck disable=SC2086
CC=$(t_cc) ./configure ${WG_CONFARGS:-} --builddir build2 --config examples/quickstart/packages.yml >"$WORK/o" 2>&1 || true
if [ -f build.ninja ] && [ -f build2/config.ninja ] && [ -f build2/host.txt ] && grep -q "^builddir = build2" build.ninja &&
	grep -q "^  pythons " "$WORK/o"; then t_pass; else t_fail "$(cat "$WORK/o")"; fi

t_case "configure finds every pyenv Python that can make a venv"
pyenvroot=${PYENV_ROOT:-$(pyenv root 2>/dev/null || true)}
missing=
for exe in "$pyenvroot"/versions/*/bin/python3; do
	[ -x "$exe" ] || continue
	v=$("$exe" -c 'import sys, venv, ensurepip; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) || continue
	grep -q "^python $v " build2/host.txt || missing="$missing $v"
done
if [ -z "$missing" ]; then t_pass; else t_fail "not in host.txt:$missing" "$(cat build2/host.txt)"; fi

t_case "CC and CFLAGS are honoured, and --werror adds -Werror"
# (one configure for both: each compiles wheelgen; clang through the suite's ccache, as t_cc)
CC="${WG_TEST_CCACHE:+$WG_TEST_CCACHE }clang" CFLAGS="-O1 -DWG_TEST_FLAG" ./configure --werror --builddir build3 --config examples/quickstart/packages.yml >"$WORK/o" 2>&1 || true
if grep -q "^cc = \(.* \)\{0,1\}clang$" build3/config.ninja && grep -q "WG_TEST_FLAG" build3/config.ninja && grep -q -- "-Werror" build3/config.ninja; then
	t_pass
else
	t_fail "$(cat "$WORK/o" build3/config.ninja 2>&1 | head -n 20)"
fi

# shellcheck disable=SC2016
t_expect "--wheelgen PATH copies a prebuilt wheelgen (no compile; a changed one is copied again); a bad path is refused" '
	# shellcheck disable=SC2086
	./configure ${WG_CONFARGS:-} --builddir build5 --wheelgen build2/wheelgen --config examples/quickstart/packages.yml >"$WORK/o" 2>&1
	grep "a copy of $src/build2/wheelgen" "$WORK/o"
	[ ! -d build5/obj ]
	cmp build2/wheelgen build5/wheelgen
	build5/wheelgen --version
	cp build2/wheelgen "$WORK/wg2"
	printf x >>"$WORK/wg2"
	./configure --builddir build5 --wheelgen "$WORK/wg2" --config examples/quickstart/packages.yml >"$WORK/o" 2>&1
	cmp "$WORK/wg2" build5/wheelgen
	if ./configure --builddir build6 --wheelgen nope/wheelgen >"$WORK/o" 2>&1; then exit 1; fi
	grep "no such executable file" "$WORK/o"
	[ ! -e build6 ]
'

t_case "the shell scripts are shellcheck-clean"
if command -v shellcheck >/dev/null 2>&1; then
	# A clean verdict is kept in the suite's cache under the sha256 of shellcheck's version and
	# of every script it reads (the ones named, and what they source: all among them), as ccache
	# keeps an object: the same scripts are not checked twice (20 s of processor time)
	sc_key=$({ shellcheck --version; cat configure templates/*.sh tests/*.sh bench/*.sh .ci/run; } | sha256sum | cut -d' ' -f1)
	sc_ok=${WG_TEST_CACHE:+$WG_TEST_CACHE/shellcheck/$sc_key}
	if [ -n "$sc_ok" ] && [ -f "$sc_ok" ]; then
		echo "# shellcheck: these scripts were found clean before ($sc_ok)"
		t_pass
	elif shellcheck -s sh -x configure templates/*.sh tests/*.sh bench/*.sh .ci/run >"$WORK/shellcheck.out" 2>&1; then
		[ -z "$sc_ok" ] || { mkdir -p "${sc_ok%/*}" && : >"$sc_ok"; }
		t_pass
	else
		t_fail "$(head -n 60 "$WORK/shellcheck.out")"
	fi
else
	t_fail "shellcheck is not installed (apt-get install shellcheck)"
fi

t_case "--install-deps with everything installed runs no apt-get: it succeeds while another process holds the dpkg lock"
lockf=/var/lib/dpkg/lock-frontend
if [ "$(id -u)" != 0 ] || [ ! -e "$lockf" ]; then
	t_fail "needs root and $lockf (this machine's Debian)"
else
	flock "$lockf" sleep 20 &
	holder=$!
	sleep 1
	start=$(date +%s)
	if ./configure --install-deps --deps-only --no-uv >"$WORK/locked.log" 2>&1 &&
		grep -q "^configure: the Debian packages are installed" "$WORK/locked.log" && [ $(($(date +%s) - start)) -lt 15 ]; then
		t_pass
	else
		t_fail "$(cat "$WORK/locked.log")"
	fi
	pkill -P "$holder" 2>/dev/null || true # the sleep that holds the lock
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
fi
