#!/bin/sh
# tests/wheelgen-split.sh WHEELGEN ARGS...: run WHEELGEN ARGS, standing in for the option
# `wheelgen matrix --github --split N` that the workflow's plan uses, for as long as WHEELGEN
# lacks it (once it has it, this only runs it). What the stand-in prints, as the option will:
# for $GITHUB_OUTPUT, N lines matrixK={"include": [...]} and N lines countK=ROWS (K = 1..N):
# the rows of `matrix --github` grouped by platform (their runner: ubuntu-latest for x86_64,
# ubuntu-24.04-arm for aarch64; each row gets its runner field), then in chunks of at most 256
# (GitHub's limit for a job matrix), the chunks in order, the K past them empty; an error when
# they are more than N. (tests/t1250-act.sh and t1200-workflow.sh use it.)
set -eu
[ "$#" -ge 1 ] || { echo "usage: tests/wheelgen-split.sh WHEELGEN ARGS..." >&2; exit 2; }
real=$1
shift
case " $* " in *" --split "* | *" --split="*) ;; *) exec "$real" "$@" ;; esac
if "$real" matrix --help 2>/dev/null | grep -q -- '--split'; then
	exec "$real" "$@"
fi
split='' next=0 n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	if [ "$next" = 1 ]; then
		split=$a next=0
	elif [ "$a" = --split ]; then
		next=1
	elif [ "${a#--split=}" != "$a" ]; then
		split=${a#--split=}
	else
		set -- "$@" "$a"
	fi
done
case $split in '' | *[!0-9]* | 0) echo "wheelgen: error: --split wants a number of jobs, not '$split'" >&2; exit 2 ;; esac
out=$("$real" "$@")
printf '%s\n' "$out" | python3 -c '
import json, sys
n = int(sys.argv[1])
rows = json.loads(sys.stdin.read())["include"]
runners = []
for r in rows:
    r.setdefault("runner", "ubuntu-24.04-arm" if "aarch64" in r.get("platform", "") else "ubuntu-latest")
    if r["runner"] not in runners:
        runners.append(r["runner"])
chunks = []
for runner in runners:
    mine = [r for r in rows if r["runner"] == runner]
    chunks += [mine[i:i + 256] for i in range(0, len(mine), 256)]
if len(chunks) > n:
    sys.exit("wheelgen: error: %d rows make %d job matrices of at most 256 rows, more than --split %d" % (len(rows), len(chunks), n))
chunks += [[]] * (n - len(chunks))
for k, c in enumerate(chunks, 1):
    print("matrix%d=%s" % (k, json.dumps({"include": c})))
for k, c in enumerate(chunks, 1):
    print("count%d=%d" % (k, len(c)))
' "$split"
