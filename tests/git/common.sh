# tests/git/common.sh: sourced by the scripts in tests/git/. Plain POSIX sh.
# Sets a git environment that ignores ~/.gitconfig and /etc/gitconfig, and defines
# gf_die, gf_abs, gf_freeport, gf_alive, gf_waitgone, gf_kill.

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=wheelgen GIT_AUTHOR_EMAIL=wg@example.invalid
export GIT_COMMITTER_NAME=wheelgen GIT_COMMITTER_EMAIL=wg@example.invalid
export GIT_TERMINAL_PROMPT=0 GIT_ASKPASS=/bin/false SSH_ASKPASS=/bin/false
# ls-remote/clone against 127.0.0.1 must never go through a proxy
export no_proxy=127.0.0.1,localhost NO_PROXY=127.0.0.1,localhost

gf_me=$(basename "$0")

gf_die() {
	echo "$gf_me: $*" >&2
	exit 1
}

# gf_abs DIR: DIR as an absolute path (DIR must exist)
gf_abs() {
	(cd "$1" && pwd -P) || gf_die "no such directory: $1"
}

# gf_freeport: a TCP port on 127.0.0.1 that nothing listens on right now
gf_freeport() {
	if command -v python3 >/dev/null 2>&1 &&
		python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null; then
		return 0
	fi
	# no python3: a pseudo-random port in 20000..29999 (the caller retries when the bind fails)
	echo $((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 10000))
}

# gf_alive PID: is the process running (and not a zombie)?
gf_alive() {
	[ -n "$1" ] || return 1
	kill -0 "$1" 2>/dev/null || return 1
	if [ -r "/proc/$1/stat" ]; then
		# field 3 is the state; a zombie (Z) or dead (X) one counts as gone
		st=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
		case $st in Z | X) return 1 ;; esac
	fi
	return 0
}

# gf_waitgone PID [TENTHS]: wait until PID has exited (default 5 s); fails if it has not
gf_waitgone() {
	n=0
	while gf_alive "$1"; do
		n=$((n + 1))
		[ "$n" -le "${2:-50}" ] || return 1
		sleep 0.1
	done
	return 0
}

# gf_kill PIDFILE: TERM the process named in PIDFILE, wait for it (KILL after 5 s), remove the file
gf_kill() {
	[ -f "$1" ] || return 0
	pid=$(cat "$1")
	if [ -n "$pid" ] && gf_alive "$pid"; then
		kill "$pid" 2>/dev/null || true
		if ! gf_waitgone "$pid" 50; then
			kill -9 "$pid" 2>/dev/null || true
			gf_waitgone "$pid" 20 || gf_die "process $pid (from $1) does not exit"
		fi
	fi
	rm -f "$1"
}
