#!/bin/sh
# one build directory, several runs: a second ninja stops at once with a clear message while
# the first goes on (wheelgen claim), and ninja or wheelgen index killed with -9 at random
# points leaves nothing the next run does not repair: every wheel matches its manifest, every
# index hash its file, and no temporary is left (WG_KILL_TRIALS trials each, default 4; CI runs the suite twice)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"
t_mkpkg fixture/slow slow
# the build waits FIXTURE_SLEEP seconds: long enough for a second run to meet the first
sed -i '1i import os, time; time.sleep(float(os.environ.get("FIXTURE_SLEEP", "0")))' fixture/slow/setup.py
t_mkpkg fixture/quick quick
writeconfig() { # writeconfig SLEEP FLAVOR
	cat >fixture/packages.yml <<YML
defaults:
  python: ["$py"]
packages:
  slow:
    source: {path: slow}
    versions: ["1.0"]
    env: {FIXTURE_SLEEP: "$1", FIXTURE_FLAVOR: "$2"}
    test_import: slow
    test_command: python -c "import time; time.sleep($1)"
  quick:
    source: {path: quick}
    versions: ["1.0"]
    env: {FIXTURE_FLAVOR: "$2"}
    test_import: quick
YML
}
py=3.12
writeconfig 0 a
t_configure_or_stop fixture/packages.yml
py=$(t_pythons 1)
writeconfig 6 b

# consistent: every wheel matches its manifest, every index link its file, no temporaries
consistent() {
	python3 - "$1" <<'PY' || return 1
import hashlib, os, re, sys
out = sys.argv[1]
bad = []
for cell in os.listdir(out + "/wheels"):
    m = out + "/wheels/" + cell + "/manifest"
    if not os.path.exists(m):
        continue
    f = dict(l.split("=", 1) for l in open(m).read().splitlines() if "=" in l)
    w = out + "/wheels/" + cell + "/" + f["filename"]
    data = open(w, "rb").read()
    if hashlib.sha256(data).hexdigest() != f["sha256"] or len(data) != int(f["size"]):
        bad.append("wheel %s does not match its manifest" % w)
for root, dirs, files in os.walk(out + "/index"):
    for name in files:
        if name != "index.html":
            continue
        page = os.path.join(root, name)
        for href, sha in re.findall(r'href="([^"#]+)#sha256=([0-9a-f]+)"', open(page).read()):
            target = os.path.normpath(os.path.join(root, href))
            if not os.path.exists(target):
                bad.append("%s links %s, which is missing" % (page, href))
            elif hashlib.sha256(open(target, "rb").read()).hexdigest() != sha:
                bad.append("%s: the hash of %s does not match" % (page, href))
for root, dirs, files in os.walk(out):
    for name in dirs + files:
        if re.search(r"\.tmp($|\.)|^index\.tmp", name) and "/venv" not in root and "/build/" not in root:
            bad.append("temporary left: " + os.path.join(root, name))
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
PY
}

# wait_for FILE PATTERN SECONDS
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ "$i" -le $(($3 * 10)) ] || return 1
		sleep 0.1
	done
}

t_case "a second ninja in the same build directory stops at once, naming the first one's pid"
setsid ninja >"$WORK/first.log" 2>&1 &
first=$!
# wheelgen status from a second terminal, as soon as it shows the slow cell's step running (its
# build and its test each sleep 6 s): taken only after the second ninja below, it could fall
# between the two on a loaded machine (ninja prints WHEEL when the build ends)
i=0
while [ "$i" -lt 600 ]; do
	out/wheelgen status >"$WORK/status.running" 2>&1 || true
	grep -q -E "^(build|test) +slow-1\.0-py[0-9]+ +running +[0-9]+s +." "$WORK/status.running" && break
	sleep 0.1
	i=$((i + 1))
done
if ! wait_for "$WORK/first.log" "WHEEL slow" 120; then
	t_fail "the first run never started the slow wheel: $(tail -n 20 "$WORK/first.log")"
else
	start=$(date +%s)
	set +e
	ninja >"$WORK/second.log" 2>&1
	rc=$?
	set -e
	took=$(($(date +%s) - start))
	owner=$(cut -d' ' -f1 out/.lock 2>/dev/null)
	if [ "$rc" = 0 ]; then
		t_fail "the second ninja succeeded while the first ran"
	elif ! grep -q "^wheelgen: error: another ninja is running in out (pid $owner)" "$WORK/second.log"; then
		t_fail "no lock message naming pid $owner" "$(cat "$WORK/second.log")"
	elif grep -v -e '^\[' -e '^FAILED' -e '^wheelgen: error: another ninja' -e '^ninja: build stopped' -e 'wheelgen claim' "$WORK/second.log" | grep -q .; then
		t_fail "other output besides the lock message" "$(cat "$WORK/second.log")"
	elif [ "$took" -gt 5 ]; then
		t_fail "the second ninja took $took s to stop"
	else
		t_pass
	fi
fi

t_case "wheelgen status from a second terminal: the ninja, and the slow cell's step running with its time and last log line"
if grep -q "^ninja: running in out (pid $owner)$" "$WORK/status.running" &&
	grep -q -E "^(build|test) +slow-1\.0-py[0-9]+ +running +[0-9]+s +." "$WORK/status.running"; then
	t_pass
else
	t_fail "$(cat "$WORK/status.running")"
fi

t_case "the first ninja finishes unharmed, and the tree is consistent"
if ! wait "$first"; then
	t_fail "the first run failed" "$(tail -n 30 "$WORK/first.log")"
elif ! why=$(consistent out); then
	t_fail "$why"
elif ! ninja -n | grep -q "no work to do"; then
	t_fail "work left after it: $(ninja -n | head -n 5)"
else
	t_pass
fi

t_case "after the run, wheelgen status: no ninja, the steps ok, each log ending with its duration"
out/wheelgen status >"$WORK/status.done" 2>&1 || true
if grep -q "^ninja: none running in out$" "$WORK/status.done" && grep -q -E "^build +slow-1\.0-py[0-9]+ +ok +" "$WORK/status.done" &&
	grep -q -E "^test +slow-1\.0-py[0-9]+ +ok +" "$WORK/status.done" &&
	tail -n 1 out/logs/slow-1.0-py*.build.log | grep -q -E "^wheelgen-step: end [0-9]+ 0 [0-9]+ s$"; then
	t_pass
else
	t_fail "$(cat "$WORK/status.done")" "$(tail -n 2 out/logs/slow-1.0-py*.build.log)"
fi

t_case "after the owner ends, the next ninja takes the build directory over"
writeconfig 1 c
t0=$(python3 -c 'import time; print(time.time())')
if ninja >"$WORK/third.log" 2>&1; then t_pass; else t_fail "$(tail -n 20 "$WORK/third.log")"; fi
# how long a run with changed inputs takes: the kill trials stop runs at random points of it
span=$(python3 -c "import time; print(round(time.time() - $t0, 2))")

t_case "outside ninja, wheelgen claim only checks: no lock written, exit 0 when no ninja runs"
before=$(cat out/.lock)
if out/wheelgen claim --builddir out && [ "$(cat out/.lock)" = "$before" ]; then t_pass; else t_fail "changed or refused"; fi

# kill -9 at random points of a ninja run whose inputs changed, then run again
trials=${WG_KILL_TRIALS:-4}
flavor=0
bad=
killed=0
i=0
while [ "$i" -lt "$trials" ]; do
	i=$((i + 1))
	flavor=$((flavor + 1))
	writeconfig 1 "k$flavor"
	setsid ninja >"$WORK/kill$i.log" 2>&1 &
	pid=$!
	# a random point of the run (regeneration, wheels, tests, index)
	sleep "$(python3 -c "import random; print(round(random.uniform(0.05, $span), 2))")"
	kill -9 "-$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	grep -q "INDEX" "$WORK/kill$i.log" || killed=$((killed + 1))
	if ! ninja >"$WORK/after$i.log" 2>&1; then
		bad="$bad trial $i: the next run failed: $(tail -n 5 "$WORK/after$i.log")"
	elif ! why=$(consistent out); then
		bad="$bad trial $i: $why"
	fi
done
t_case "$trials kill -9 trials of ninja: the next run succeeds and leaves a consistent tree"
echo "# $killed of $trials ninja runs were killed before their index step (runs take $span s)"
if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi

bad=
i=0
find out/wheels -name manifest | sort >"$WORK/manifests"
while [ "$i" -lt "$trials" ]; do
	i=$((i + 1))
	rm -rf out/index
	out/wheelgen index --builddir out --spec out/index.spec --manifests "$WORK/manifests" >/dev/null 2>&1 &
	pid=$!
	sleep "$(python3 -c 'import random; print(round(random.uniform(0, 0.05), 3))')"
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if ! out/wheelgen index --builddir out --spec out/index.spec --manifests "$WORK/manifests" >"$WORK/index$i.log" 2>&1; then
		bad="$bad trial $i: the next index failed: $(tail -n 3 "$WORK/index$i.log")"
	elif ! why=$(consistent out); then
		bad="$bad trial $i: $why"
	fi
done
t_case "$trials kill -9 trials of a first-time wheelgen index: the next one sweeps and succeeds"
if [ -z "$bad" ]; then t_pass; else t_fail "$bad"; fi
