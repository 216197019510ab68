# tests/lib.sh: sourced by tests/t*.sh. Each test script runs its cases against a
# private copy of the source tree (so the user's build.ninja and out/ are never
# touched) and prints one line per case: "ok - title" or "FAIL - title" plus why.
# The totals go to $WG_RESULTS (one line "passed failed") for tests/run.sh.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# no store unless a test names one: config/packages.yml's (a GitHub release) is not on loopback
WHEELGEN_STORE=${WHEELGEN_STORE:-none}
export WHEELGEN_STORE
WORK=$(mktemp -d "${TMPDIR:-/tmp}/wgtest.XXXXXX")
# (tests/run.sh looks, after the suite, for a process that names one of these: a server a test
# started and did not stop)
[ -z "${WG_RUNDIR:-}" ] || echo "$WORK" >>"$WG_RUNDIR/works"
t_passed=0
t_failed=0
t_title=

t_cleanup() {
	rc=$?
	if [ -n "${WG_RESULTS:-}" ]; then
		echo "$t_passed $t_failed" >>"$WG_RESULTS"
	fi
	# (a failed run's directory can hold gigabytes: kept only when asked for)
	if [ -z "${WG_KEEP:-}" ]; then
		rm -rf "$WORK"
	else
		echo "# work directory kept: $WORK" >&2
	fi
	if [ "$rc" -ne 0 ] && [ "$t_failed" -eq 0 ]; then
		echo "FAIL - $(basename "$0") stopped with status $rc during: $t_title"
		[ -n "${WG_RESULTS:-}" ] && echo "0 1" >>"$WG_RESULTS"
	fi
	exit 0
}
trap t_cleanup EXIT

# copy the tracked and untracked-but-not-ignored files of the tree into $1
t_copytree() {
	mkdir -p "$1"
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$1"
}

# t_case "title": start a case
t_case() {
	t_title=$1
	t_start=$(date +%s)
	[ -z "${WG_CASE_TIMES:-}" ] || { t_cpu; t_cpu0=$t_cpunow; }
}

# t_cpu: t_cpunow = the processor seconds this script's finished children have used so far (the
# second line of "times": user and system; "times" must run in this shell, not in a subshell)
t_cpu() {
	times >"$WORK/.times"
	t_cpunow=$(tail -n 1 "$WORK/.times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); t += a[1] * 60 + a[2] } printf "%d", t }')
}

# WG_CASE_TIMES=FILE: each case's seconds and processor seconds appended there
# ("SECONDS<TAB>CPU<TAB>script<TAB>title"), to find the slow ones
t_timed() {
	[ -n "${WG_CASE_TIMES:-}" ] || return 0
	t_cpu
	printf '%s\t%s\t%s\t%s\n' "$(($(date +%s) - ${t_start:-$(date +%s)}))" "$((t_cpunow - ${t_cpu0:-0}))" \
		"$(basename "$0" .sh)" "$t_title" >>"$WG_CASE_TIMES"
}

t_pass() {
	t_passed=$((t_passed + 1))
	t_timed
	echo "ok - $t_title"
}

# t_fail "why": the current case failed
t_fail() {
	t_failed=$((t_failed + 1))
	t_timed
	echo "FAIL - $t_title"
	printf '%s\n' "$@" | sed 's/^/    /'
}

# t_check COND-COMMAND...: pass if the command succeeds
t_check() {
	if "$@"; then t_pass; else t_fail "command failed: $*"; fi
}

# t_expect TITLE SCRIPT: a whole case with one verdict: SCRIPT (shell commands, run by eval in
# a subshell with set -e, so every command must succeed; set -e ignores a "! cmd" and each part
# of "a && b" but the last: write "! cmd || exit 1", and one condition a line) passes or fails;
# on failure the last lines it printed are shown.
# Assignments inside do not outlive it. (The subshell runs outside an "if": there set -e would
# be ignored, and only the last command would count.)
t_expect() {
	t_case "$1"
	set +e
	(
		set -e
		[ -z "${WG_XTRACE:-}" ] || set -x
		eval "$2"
	) >"$WORK/.expect.out" 2>&1
	t_rc=$?
	set -e
	if [ "$t_rc" -eq 0 ]; then
		t_pass
	else
		t_fail "$(tail -n 25 "$WORK/.expect.out")"
	fi
}

# t_log LOG CMD...: CMD with its output in LOG; when it fails, its status and the end of LOG,
# so that a case's failure shows why (a case prints only what its commands print)
t_log() {
	t_log_file=$1
	shift
	t_log_rc=0
	"$@" >"$t_log_file" 2>&1 || t_log_rc=$?
	[ "$t_log_rc" -eq 0 ] && return 0
	echo "$* failed (status $t_log_rc); the end of $t_log_file:"
	tail -n 30 "$t_log_file"
	return "$t_log_rc"
}

# t_cmp EXPECTED-FILE ACTUAL-FILE: pass if equal, else show the diff
t_cmp() {
	if cmp -s "$1" "$2"; then
		t_pass
	else
		t_fail "$(diff -u "$1" "$2" | head -n 40)"
	fi
}

# the edges a ninja run executed, one description per line, sorted ("WHEEL cell", "REGEN ...");
# the verdicts of tests ("TESTED cell", which follow every "TEST cell" that ran) are left out
# usage: t_ninja_ran OUTFILE [ninja args...]; returns ninja's status
t_ninja_ran() {
	t_out=$1
	shift
	set +e
	NINJA_STATUS='@@ ' ninja "$@" >"$t_out.raw" 2>&1
	t_rc=$?
	set -e
	sed -n 's/^@@ //p' "$t_out.raw" | grep -v '^TESTED ' | sort >"$t_out"
	return $t_rc
}

# t_configure DIR [configure args...]: copy the tree into DIR and configure it there
# (with the options tests/run.sh was given: --sanitize, --werror, --install-deps)
t_configure() {
	t_cdir=$1
	shift
	t_copytree "$t_cdir"
	# shellcheck disable=SC2086
	(cd "$t_cdir" && CC=$(t_cc) ./configure ${WG_CONFARGS:-} "$@") >"$t_cdir.configure.log" 2>&1
}

# t_cc: the C compiler for a configure that compiles wheelgen: tests/run.sh's WG_TEST_CC (through
# the suite's ccache), else CC
t_cc() {
	echo "${WG_TEST_CC:-${CC:-cc}}"
}

# t_mkpkg DIR NAME: a tiny setuptools package NAME with a C extension NAME._c whose
# flavor() returns $FIXTURE_FLAVOR as it was at build time (so env changes change the wheel)
t_mkpkg() {
	mkdir -p "$1/$2"
	cat >"$1/pyproject.toml" <<PYPROJECT
[build-system]
requires = ["setuptools>=40.8", "wheel"]
build-backend = "setuptools.build_meta"
PYPROJECT
	cat >"$1/setup.py" <<SETUP
import os
from setuptools import setup, Extension
flavor = os.environ.get("FIXTURE_FLAVOR", "plain")
setup(name="$2", version="1.0", packages=["$2"],
      ext_modules=[Extension("$2._c", ["$2/_c.c"], define_macros=[("FLAVOR", '"%s"' % flavor)])])
SETUP
	echo "from ._c import flavor" >"$1/$2/__init__.py"
	cat >"$1/$2/_c.c" <<CSRC
#include <Python.h>
static PyObject *flavor(PyObject *self, PyObject *args) { (void)self; (void)args; return PyUnicode_FromString(FLAVOR); }
static PyMethodDef methods[] = { {"flavor", flavor, METH_NOARGS, "build-time flavor"}, {NULL, NULL, 0, NULL} };
static struct PyModuleDef mod = { PyModuleDef_HEAD_INIT, "_c", NULL, -1, methods, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&mod); }
CSRC
}

# t_configure_or_stop CONFIG: ./configure the current tree for CONFIG; on failure, a failed
# case with configure's output, and the end of the script
t_configure_or_stop() {
	# shellcheck disable=SC2086
	CC=$(t_cc) ./configure ${WG_CONFARGS:-} --config "$1" >"$WORK/configure.log" 2>&1 && return 0
	t_case "configure"
	t_fail "$(cat "$WORK/configure.log")"
	exit 0
}

# t_need_pythons N: unless configure found N Pythons, a failed case and the end of the script
t_need_pythons() {
	[ "$(t_pythons "$1" | wc -l)" -lt "$1" ] || return 0
	t_case "this test needs $1 Pythons on the host"
	t_fail "configure found: $(t_pythons 99 | tr '\n' ' ')"
	exit 0
}

# t_pythons N: the N newest Python versions configure found (from out/host.txt), one per line
t_pythons() {
	sed -n 's/^python \([0-9.]*\) .*/\1/p' out/host.txt | tail -n "$1"
}

# t_ran_is FILE LINE...: pass if the sorted edges in FILE are exactly the given lines
t_ran_is() {
	t_rf=$1
	shift
	printf '%s\n' "$@" | sed '/^$/d' | sort >"$t_rf.want"
	t_cmp "$t_rf.want" "$t_rf"
}

# t_venv DIR PYTHON: a fresh venv with pip in DIR, from the interpreter PYTHON (a path): uv's
# (pip seeded from the suite's uv cache, about 0.1 s of processor time) where the suite has uv,
# else the venv module (ensurepip: about 3.5 s each, which the suite paid some 40 times)
t_venv() {
	rm -rf "$1"
	if [ -n "${UV:-}" ]; then
		"$UV" venv -q --seed -p "$2" "$1" >/dev/null 2>&1
	else
		"$2" -m venv "$1" >/dev/null 2>&1
	fi
}

# t_toolvenv DIR PACKAGE...: a venv of python3 in DIR with the tools PACKAGE... from PyPI (uv
# where the suite has it, else pip); its output appended to DIR.log
t_toolvenv() {
	t_vdir=$1
	shift
	if [ -n "${UV:-}" ]; then
		"$UV" venv -q -p python3 "$t_vdir" >>"$t_vdir.log" 2>&1 && "$UV" pip install -q --python "$t_vdir/bin/python" "$@" >>"$t_vdir.log" 2>&1
	else
		python3 -m venv "$t_vdir" >>"$t_vdir.log" 2>&1 && "$t_vdir/bin/pip" install -q "$@" >>"$t_vdir.log" 2>&1
	fi
}

# t_fake_gpu DIR CC DRIVER: DIR/nvidia-smi, a stand-in for a machine with one GPU of compute
# capability CC whose driver runs CUDA DRIVER, answering what the index's finder asks
# (--query-gpu=index,name,compute_cap --format=csv,noheader; and the header, with "CUDA Version")
t_fake_gpu() {
	mkdir -p "$1"
	cat >"$1/nvidia-smi" <<SH
#!/bin/sh
case "\$*" in
*--query-gpu=*) echo '0, NVIDIA Stand-in GPU, $2' ;;
*) echo '| NVIDIA-SMI 580.65.06    Driver Version: 580.65.06    CUDA Version: $3     |' ;;
esac
SH
	chmod +x "$1/nvidia-smi"
}

# t_auditwheel_agrees WHEEL...: auditwheel (the version templates/build-host.sh repairs with, in
# a venv of its own under $WORK) agrees with each wheel's one manylinux tag, given the CUDA and
# torch exclusions of the repair (tests/auditwheel-agrees.py); prints a line per wheel
t_auditwheel_agrees() {
	if [ ! -x "$WORK/auditwheel/bin/python" ]; then
		t_toolvenv "$WORK/auditwheel" "auditwheel==$(sed -n 's/^wg_auditwheel=//p' "$top/templates/build-host.sh")" ||
			{ cat "$WORK/auditwheel.log"; return 1; }
	fi
	"$WORK/auditwheel/bin/python" "$top/tests/auditwheel-agrees.py" "$@"
}

# t_freeport: a free TCP port on 127.0.0.1
t_freeport() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# t_git_http_start REPOS DIR: serve the bare repositories in REPOS over smart HTTP on 127.0.0.1
# (nginx + fcgiwrap + git http-backend, every file of theirs inside DIR); prints the port.
# t_git_http_stop DIR stops them.
# t_nginx_head DIR: the start of an nginx.conf for a private nginx (pid, logs and temp files
# in DIR, daemon), up to and including "http {"; the caller adds the rest
t_nginx_head() {
	mkdir -p "$1/tmp" "$1/logs"
	[ "$(id -u)" != 0 ] || echo "user root;"
	cat <<NGINX
daemon on;
pid $1/nginx.pid;
error_log $1/logs/error.log;
events { worker_connections 64; }
http {
  client_body_temp_path $1/tmp/body;
  fastcgi_temp_path $1/tmp/fastcgi;
  proxy_temp_path $1/tmp/proxy;
  uwsgi_temp_path $1/tmp/uwsgi;
  scgi_temp_path $1/tmp/scgi;
NGINX
}

# t_nginx_dav DIR PORT [DIRECTIVE...]: start a private nginx on 127.0.0.1:PORT serving DIR/root
# with WebDAV PUT and DELETE (and each DIRECTIVE, e.g. "autoindex on;", in its location);
# access log DIR/logs/access.log; stop it with: kill "$(cat DIR/nginx.pid)"
t_nginx_dav() {
	t_nd=$1 t_np=$2
	shift 2
	mkdir -p "$t_nd/root"
	{
		t_nginx_head "$t_nd"
		cat <<NGINX
  access_log $t_nd/logs/access.log;
  server {
    listen 127.0.0.1:$t_np;
    root $t_nd/root;
    client_max_body_size 0;
    location / {
      dav_methods PUT DELETE MOVE;
      create_full_put_path on;
NGINX
		for t_ndir in "$@"; do printf '      %s\n' "$t_ndir"; done
		printf '    }\n  }\n}\n'
	} >"$t_nd/nginx.conf"
	nginx -c "$t_nd/nginx.conf" >"$t_nd/start.log" 2>&1 || { cat "$t_nd/start.log" "$t_nd/logs/error.log" 2>/dev/null; return 1; }
}

t_git_http_start() {
	repos=$1 d=$2 htpasswd=${3:-}
	if ! command -v nginx >/dev/null 2>&1 || ! command -v fcgiwrap >/dev/null 2>&1; then
		echo "nginx and fcgiwrap are needed: apt-get install nginx-light fcgiwrap" >&2
		return 1
	fi
	mkdir -p "$d/tmp" "$d/logs"
	port=$(t_freeport)
	authlines=
	if [ -n "$htpasswd" ]; then
		# shellcheck disable=SC2016 # nginx's variable $remote_user, not the shell's
		authlines=$(printf '      auth_basic git;\n      auth_basic_user_file %s;\n      fastcgi_param REMOTE_USER $remote_user;' "$htpasswd")
	fi
	fcgiwrap -s "unix:$d/fcgi.sock" >"$d/logs/fcgiwrap.log" 2>&1 &
	echo $! >"$d/fcgiwrap.pid"
	{
		t_nginx_head "$d"
		cat <<NGINX
  access_log off;
  server {
    listen 127.0.0.1:$port;
    location / {
$authlines
      include /etc/nginx/fastcgi_params;
      fastcgi_param SCRIPT_FILENAME /usr/lib/git-core/git-http-backend;
      fastcgi_param GIT_PROJECT_ROOT $repos;
      fastcgi_param GIT_HTTP_EXPORT_ALL "";
      fastcgi_param PATH_INFO \$uri;
      fastcgi_pass unix:$d/fcgi.sock;
    }
  }
}
NGINX
	} >"$d/nginx.conf"
	nginx -p "$d" -c "$d/nginx.conf" -e "$d/logs/error.log" || return 1
	i=0
	# up: it answers (401 when it asks for credentials)
	until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/leaf.git/info/refs?service=git-upload-pack")" != 000 ]; do
		i=$((i + 1))
		[ "$i" -lt 50 ] || { cat "$d/logs/error.log" >&2; return 1; }
		sleep 0.2
	done
	echo "$port"
}

t_git_http_stop() {
	[ -f "$1/nginx.pid" ] && kill "$(cat "$1/nginx.pid")" 2>/dev/null
	[ -f "$1/fcgiwrap.pid" ] && kill "$(cat "$1/fcgiwrap.pid")" 2>/dev/null
	rm -f "$1/nginx.pid" "$1/fcgiwrap.pid"
}

# t_podman_socket SOCK: podman's Docker-compatible API on the unix socket SOCK (podman system
# service, its pid in $svc), waited for (10 s at most), and DOCKER_HOST pointing at it
t_podman_socket() {
	podman system service --time=0 "unix://$1" >"$WORK/service.log" 2>&1 &
	# shellcheck disable=SC2034 # (read by the caller)
	svc=$!
	i=0
	while [ ! -S "$1" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	DOCKER_HOST=unix://$1
	export DOCKER_HOST
}
