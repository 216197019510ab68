#!/bin/sh
# tests/git/http.sh: serve DIR/repos read-only over smart HTTP on 127.0.0.1
# (nginx + fcgiwrap + git http-backend).
#
#   tests/git/http.sh start DIR [PORT]
#   tests/git/http.sh stop DIR
#
# start installs nginx-light and fcgiwrap with apt-get if they are missing (and says so on
# stderr), starts fcgiwrap on the unix socket DIR/nginx/fcgiwrap.sock and nginx (`daemon on`,
# running as the current user, config, logs, pid and temp files all under DIR/nginx; no system
# nginx file is read or written) on 127.0.0.1:PORT (default: a free port; a few are tried if the
# bind fails), waits until `git ls-remote http://127.0.0.1:PORT/leaf.git` works (10 s at most; when
# DIR/repos/leaf.git does not exist yet, until nginx answers) and prints PORT. URLs are
# http://127.0.0.1:PORT/NAME.git for DIR/repos/NAME.git; pushing is refused. Files: DIR/http.port,
# DIR/nginx/{nginx.conf,nginx.pid,fcgiwrap.pid,fcgiwrap.sock}, logs in DIR/nginx/logs/. It fails if
# servers started by this script still run for DIR. stop stops nginx (master and workers) and
# fcgiwrap (and its children), waits until they have exited and removes the pid, port and socket
# files; it succeeds when nothing runs.
set -eu
# shellcheck source-path=SCRIPTDIR
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}
[ $# -ge 2 ] || usage
cmd=$1
[ -d "$2" ] || mkdir -p "$2"
D=$(gf_abs "$2")
N=$D/nginx
PATH=$PATH:/usr/sbin:/sbin

install_deps() {
	missing=
	command -v nginx >/dev/null 2>&1 || missing="nginx-light"
	command -v fcgiwrap >/dev/null 2>&1 || missing="$missing fcgiwrap"
	[ -n "$missing" ] || return 0
	sudo=
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null 2>&1 || gf_die "missing:$missing; install them as root: apt-get install -y nginx-light fcgiwrap"
		sudo="sudo -n"
	fi
	echo "$gf_me: installing nginx-light and fcgiwrap (missing:$missing)" >&2
	{
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nginx-light fcgiwrap
	} >&2 || gf_die "apt-get install nginx-light fcgiwrap failed"
	command -v nginx >/dev/null 2>&1 || gf_die "nginx is still missing after apt-get install"
	command -v fcgiwrap >/dev/null 2>&1 || gf_die "fcgiwrap is still missing after apt-get install"
}

backend() {
	for b in "$(git --exec-path)/git-http-backend" /usr/lib/git-core/git-http-backend; do
		if [ -x "$b" ]; then
			echo "$b"
			return 0
		fi
	done
	gf_die "git http-backend is not installed (apt-get install git)"
}

# ready PORT: does the server answer?
ready() {
	if [ -d "$D/repos/leaf.git" ]; then
		git ls-remote "http://127.0.0.1:$1/leaf.git" >/dev/null 2>&1
	else
		python3 -c 'import sys, urllib.request as u
try:
    u.urlopen("http://127.0.0.1:%s/" % sys.argv[1], timeout=1)
except u.HTTPError:
    pass' "$1" 2>/dev/null
	fi
}

# the fcgiwrap processes: the one we started and the children it forked (-c)
fcgi_pids() {
	[ -f "$N/fcgiwrap.pid" ] || return 0
	p=$(cat "$N/fcgiwrap.pid")
	gf_alive "$p" || return 0
	echo "$p"
	pgrep -P "$p" 2>/dev/null || true
}

# the nginx processes: master and workers
nginx_pids() {
	[ -f "$N/nginx.pid" ] || return 0
	p=$(cat "$N/nginx.pid")
	gf_alive "$p" || return 0
	echo "$p"
	pgrep -P "$p" 2>/dev/null || true
}

stop_all() {
	# nginx: TERM to the master is a fast shutdown of master and workers. fcgiwrap: its children
	# do not exit with the parent, so each gets a TERM of its own.
	pids="$(nginx_pids) $(fcgi_pids)"
	for p in $pids; do
		kill "$p" 2>/dev/null || true
	done
	for p in $pids; do
		if ! gf_waitgone "$p" 50; then
			kill -9 "$p" 2>/dev/null || true
			gf_waitgone "$p" 20 || gf_die "process $p does not exit"
		fi
	done
	rm -f "$N/nginx.pid" "$N/fcgiwrap.pid" "$N/fcgiwrap.sock" "$D/http.port"
}

start() {
	[ $# -le 1 ] || usage
	want=${1:-}
	case $want in *[!0-9]*) usage ;; esac
	if [ -n "$(nginx_pids)$(fcgi_pids)" ]; then
		gf_die "nginx or fcgiwrap already run for $D; stop them first"
	fi
	install_deps
	hb=$(backend)
	mkdir -p "$D/repos" "$N/logs" "$N/tmp"
	sock=$N/fcgiwrap.sock
	# sun_path holds 108 bytes
	[ "${#sock}" -lt 100 ] || gf_die "the socket path $sock is too long for a unix socket; use a shorter DIR"
	rm -f "$N/nginx.pid" "$N/fcgiwrap.pid" "$sock" "$D/http.port"

	# fcgiwrap: 4 workers, in its own session when setsid exists. It has no pid file option:
	# a shell writes its own pid and then execs fcgiwrap, so the pid is right even if setsid forks.
	# shellcheck disable=SC2016 # expanded by the inner sh
	set -- sh -c 'echo $$ >"$1"; exec fcgiwrap -c 4 -s "unix:$2"' fcgiwrap "$N/fcgiwrap.pid" "$sock"
	if command -v setsid >/dev/null 2>&1; then set -- setsid "$@"; fi
	"$@" </dev/null >>"$N/logs/fcgiwrap.log" 2>&1 &
	n=0
	until [ -S "$sock" ]; do
		n=$((n + 1))
		if [ "$n" -ge 50 ] || { [ -f "$N/fcgiwrap.pid" ] && ! gf_alive "$(cat "$N/fcgiwrap.pid")"; }; then
			stop_all
			gf_die "fcgiwrap did not start: $(cat "$N/logs/fcgiwrap.log")"
		fi
		sleep 0.1
	done

	user=
	# as root, the workers would run as nobody, who cannot connect to the socket
	[ "$(id -u)" != 0 ] || user="user root root;"
	tries=0
	while :; do
		tries=$((tries + 1))
		port=${want:-$(gf_freeport)}
		cat >"$N/nginx.conf" <<EOF
# written by tests/git/http.sh
$user
daemon on;
master_process on;
worker_processes 1;
pid $N/nginx.pid;
error_log $N/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log $N/logs/access.log;
  client_body_temp_path $N/tmp/body;
  fastcgi_temp_path $N/tmp/fastcgi;
  proxy_temp_path $N/tmp/proxy;
  uwsgi_temp_path $N/tmp/uwsgi;
  scgi_temp_path $N/tmp/scgi;
  client_max_body_size 0;
  client_body_buffer_size 1m;
  server {
    listen 127.0.0.1:$port;
    server_name 127.0.0.1;
    location / {
      limit_except GET POST { deny all; }
      fastcgi_pass unix:$sock;
      fastcgi_read_timeout 300s;
      fastcgi_param SCRIPT_FILENAME $hb;
      fastcgi_param GATEWAY_INTERFACE CGI/1.1;
      fastcgi_param SERVER_PROTOCOL \$server_protocol;
      fastcgi_param SERVER_NAME \$server_name;
      fastcgi_param SERVER_PORT \$server_port;
      fastcgi_param REQUEST_METHOD \$request_method;
      fastcgi_param REQUEST_URI \$request_uri;
      fastcgi_param QUERY_STRING \$query_string;
      fastcgi_param CONTENT_TYPE \$content_type;
      fastcgi_param CONTENT_LENGTH \$content_length;
      fastcgi_param PATH_INFO \$uri;
      fastcgi_param REMOTE_ADDR \$remote_addr;
      fastcgi_param GIT_PROJECT_ROOT $D/repos;
      fastcgi_param GIT_HTTP_EXPORT_ALL 1;
      fastcgi_param GIT_CONFIG_NOSYSTEM 1;
      fastcgi_param GIT_CONFIG_GLOBAL /dev/null;
      fastcgi_param HOME $N;
    }
  }
}
EOF
		# -e: the error log before the config is read (the compiled-in one may be under /var/log)
		if nginx -p "$N" -c "$N/nginx.conf" -e "$N/logs/error.log" >"$N/logs/start.log" 2>&1; then
			n=0
			until ready "$port"; do
				n=$((n + 1))
				if [ "$n" -ge 100 ]; then
					stop_all
					gf_die "nginx on port $port does not answer after 10 s; $(tail -n 20 "$N/logs/error.log" "$N/logs/fcgiwrap.log" 2>/dev/null)"
				fi
				sleep 0.1
			done
			echo "$port" >"$D/http.port"
			echo "$port"
			return 0
		fi
		if [ -n "$want" ] || [ "$tries" -ge 5 ] || ! grep -q 'Address already in use' "$N/logs/start.log"; then
			msg=$(cat "$N/logs/start.log")
			stop_all
			gf_die "nginx did not start on port $port: $msg"
		fi
	done
}

stop() {
	[ $# -eq 0 ] || usage
	stop_all
}

shift 2
case $cmd in
start) start "$@" ;;
stop) stop "$@" ;;
*) usage ;;
esac
