#!/bin/sh
# tests/git/daemon.sh: serve DIR/repos read-only over git:// on 127.0.0.1.
#
#   tests/git/daemon.sh start DIR [PORT]
#   tests/git/daemon.sh stop DIR
#
# start runs `git daemon --export-all --base-path=DIR/repos --reuseaddr` in its own session on
# 127.0.0.1:PORT (default: a free port; a few are tried if the bind fails), waits until
# `git ls-remote git://127.0.0.1:PORT/leaf.git` answers (10 s at most; when DIR/repos/leaf.git does
# not exist yet, until the port accepts connections) and prints PORT. Files: DIR/daemon.pid,
# DIR/daemon.port, DIR/daemon.log (the daemon's --verbose log). It fails if a daemon started by
# this script is still running for DIR. stop kills it, waits until it has exited and removes the
# pid and port files; it succeeds when nothing runs.
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

# the daemon binary: `git daemon` dispatches to git-daemon in the exec path
daemon_cmd() {
	if [ -x "$(git --exec-path)/git-daemon" ]; then
		echo "$(git --exec-path)/git-daemon"
	elif [ -x /usr/lib/git-core/git-daemon ]; then
		echo /usr/lib/git-core/git-daemon
	else
		gf_die "git daemon is not installed (apt-get install git)"
	fi
}

# ready PORT: does the daemon answer?
ready() {
	if [ -d "$D/repos/leaf.git" ]; then
		git ls-remote "git://127.0.0.1:$1/leaf.git" >/dev/null 2>&1
	else
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' "$1" 2>/dev/null
	fi
}

start() {
	[ $# -le 1 ] || usage
	want=${1:-}
	case $want in *[!0-9]*) usage ;; esac
	if [ -f "$D/daemon.pid" ] && gf_alive "$(cat "$D/daemon.pid")"; then
		gf_die "a git daemon already runs for $D (pid $(cat "$D/daemon.pid")); stop it first"
	fi
	mkdir -p "$D/repos"
	bin=$(daemon_cmd)
	tries=0
	while :; do
		tries=$((tries + 1))
		port=${want:-$(gf_freeport)}
		rm -f "$D/daemon.pid" "$D/daemon.port"
		: >"$D/daemon.log"
		# setsid: its own session, so that signals to the caller's process group do not reach it;
		# --pid-file is written by the daemon itself, so the pid is right with or without setsid
		set -- "$bin" --verbose --reuseaddr --export-all --listen=127.0.0.1 --port="$port" \
			--base-path="$D/repos" --pid-file="$D/daemon.pid" "$D/repos"
		if command -v setsid >/dev/null 2>&1; then set -- setsid "$@"; fi
		"$@" </dev/null >"$D/daemon.log" 2>&1 &
		bg=$!
		n=0
		while :; do
			# "Ready to rumble" is logged once it listens: before that, a daemon of someone else
			# on the same port could answer
			if grep -q 'Ready to rumble' "$D/daemon.log" 2>/dev/null && ready "$port"; then
				echo "$port" >"$D/daemon.port"
				echo "$port"
				return 0
			fi
			pid=$(cat "$D/daemon.pid" 2>/dev/null || true)
			if [ -z "$pid" ]; then gf_alive "$bg" || break; else gf_alive "$pid" || break; fi
			n=$((n + 1))
			if [ "$n" -ge 100 ]; then
				gf_kill "$D/daemon.pid"
				gf_die "git daemon on port $port does not answer after 10 s; log: $(cat "$D/daemon.log")"
			fi
			sleep 0.1
		done
		# it exited: most likely the port was taken
		rm -f "$D/daemon.pid"
		if [ -n "$want" ] || [ "$tries" -ge 5 ]; then
			gf_die "git daemon on port $port exited: $(cat "$D/daemon.log")"
		fi
	done
}

stop() {
	[ $# -eq 0 ] || usage
	gf_kill "$D/daemon.pid"
	rm -f "$D/daemon.port"
}

shift 2
case $cmd in
start) start "$@" ;;
stop) stop "$@" ;;
*) usage ;;
esac
