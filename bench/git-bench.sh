#!/bin/sh
# bench/git-bench.sh [COUNTS...]: checking out N versions of one repository, served by git daemon
# on 127.0.0.1: wheelgen (one libgit2 mirror shared by all versions, then a checkout per version)
# against `git clone --branch <tag>` per version, in the same run. For N = 1, 5, 20 (or the counts
# given) it prints the bytes received and the wall time of each, and their ratios.
# Needs out/wheelgen (./configure && ninja out/wheelgen) and git.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
wg=$top/out/wheelgen
[ -x "$wg" ] || { echo "bench: build $wg first: ./configure && ninja out/wheelgen" >&2; exit 1; }
counts=${*:-1 5 20}
work=$(mktemp -d "${TMPDIR:-/tmp}/wggitbench.XXXXXX")
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
cleanup() { [ -f "$work/pid" ] && kill "$(cat "$work/pid")" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

# a repository with history: 2000 commits, each rewriting one of 200 files of 2 KiB; a tag every 100 commits
mkdir -p "$work/repos"
git init -q --bare "$work/repos/r.git"
python3 - "$work/stream" <<'PY'
import random, sys
random.seed(1)
out = open(sys.argv[1], "wb")
mark = 0
for i in range(1, 2001):
    data = bytes(random.getrandbits(8) for _ in range(2048)).hex()[:2048].encode()
    mark += 1
    out.write(b"blob\nmark :%d\ndata %d\n%s\n" % (mark, len(data), data))
    msg = b"commit %d" % i
    out.write(b"commit refs/heads/main\nmark :%d\ncommitter b <b@x> %d +0000\ndata %d\n%s\n" % (mark + 1, 1000000000 + i, len(msg), msg))
    out.write(b"M 100644 :%d f%d.txt\n\n" % (mark, i % 200))
    mark += 1
    if i % 100 == 0:
        out.write(b"reset refs/tags/v%d.0\nfrom :%d\n\n" % (i // 100, mark))
PY
git -C "$work/repos/r.git" fast-import --quiet <"$work/stream"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
git daemon --reuseaddr --export-all --base-path="$work/repos" --listen=127.0.0.1 --port="$port" \
	--pid-file="$work/pid" --detach "$work/repos"
url=git://127.0.0.1:$port/r.git
i=0
until git ls-remote "$url" >/dev/null 2>&1; do i=$((i + 1)); [ "$i" -lt 50 ] || exit 1; sleep 0.2; done

now() { date +%s.%N; }
printf '%-8s %14s %14s %10s %10s %12s %12s\n' versions wg_bytes clone_bytes wg_s clone_s bytes_ratio time_ratio
for n in $counts; do
	b=$work/b$n
	mkdir -p "$b"
	t0=$(now)
	bytes=0
	v=1
	while [ "$v" -le "$n" ]; do
		printf 'package=r\nversion=%d.0\nurl=%s\nref=v%d.0\ndest=%s/src/r-%d\nstamp=%s/src/r-%d.commit\nlock=\n' \
			"$v" "$url" "$v" "$b" "$v" "$b" "$v" >"$b/spec"
		got=$("$wg" checkout --builddir "$b" "$b/spec" | sed -n 's/.*; \([0-9]*\) bytes.*/\1/p')
		bytes=$((bytes + got))
		v=$((v + 1))
	done
	t1=$(now)
	cbytes=0
	v=1
	while [ "$v" -le "$n" ]; do
		git clone -q --branch "v$v.0" "$url" "$b/clone$v" 2>/dev/null
		cbytes=$((cbytes + $(du -sb "$b/clone$v/.git/objects/pack" | cut -f1)))
		v=$((v + 1))
	done
	t2=$(now)
	wt=$(echo "$t1 - $t0" | bc -l)
	ct=$(echo "$t2 - $t1" | bc -l)
	printf '%-8s %14s %14s %10.2f %10.2f %12.3f %12.3f\n' "$n" "$bytes" "$cbytes" "$wt" "$ct" \
		"$(echo "$bytes / $cbytes" | bc -l)" "$(echo "$wt / $ct" | bc -l)"
	rm -rf "$b"
done
