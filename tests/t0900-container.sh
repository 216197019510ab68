#!/bin/sh
# the docker and podman backends: the exact commands they run (golden files for a flash-attn
# cell, from --dry-run), what a stand-in engine on PATH receives when ninja runs a cell (the
# same arguments; image pulls retried), what configure says when the engine is missing; and,
# where podman runs containers, the real thing: cells built and tested in a Debian image made
# here, with podman and with docker's client on podman's socket
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# a stand-in engine: records each call's arguments one per line (calls separated by "--")
# in $WORK/engine.calls; "image inspect" fails (no image here), "pull" fails the first two
# times, "run" succeeds without doing anything (but fails with status 125, the engine's own
# error, while $WORK/runfails counts down)
mkdir -p "$WORK/bin"
enginepath=$WORK/bin:$PATH
for e in docker podman; do
	cat >"$WORK/bin/$e" <<ENGINE
#!/bin/sh
{ printf '%s\n' "\$@"; echo --; } >>"$WORK/engine.calls"
case "\$1 \${2:-}" in
"image inspect") exit 1 ;;
"pull "*)
	n=\$(cat "$WORK/pulls" 2>/dev/null || echo 0)
	echo \$((n + 1)) >"$WORK/pulls"
	[ "\$n" -ge 2 ] || { echo "pull failed: stand-in engine" >&2; exit 1; }
	;;
"run "*)
	n=\$(cat "$WORK/runfails" 2>/dev/null || echo 0)
	[ "\$n" -le 0 ] || { echo \$((n - 1)) >"$WORK/runfails"; echo "Error: stand-in engine: storage locked" >&2; exit 125; }
	;;
esac
exit 0
ENGINE
	chmod +x "$WORK/bin/$e"
done

cell=flash-attn-2.8.3-py312-cu128-torch2.9
# golden output: the work dir, uid and gid, and the engine's path made neutral
# (podman runs as the invoker with --userns=keep-id when rootless, --user 0:0 as root: both are
# @INVOKER@ in the golden files)
norm() {
	sed -e "s|$1|@SRC@|g" -e "s/--user $(id -u):$(id -g)\|--userns=keep-id/@INVOKER@/" -e "s|$WORK/bin/||g"
}
for engine in docker podman; do
	src=$WORK/$engine
	t_case "configure --backend $engine with $engine on PATH"
	if (PATH=$enginepath; t_configure "$src" --backend "$engine" --no-uv --memory-gb 64 --config tests/golden/flash-attn.yml) &&
		(cd "$src" && ninja build.ninja) >"$WORK/$engine.regen.log" 2>&1; then
		t_pass
	else
		t_fail "$(cat "$src.configure.log" "$WORK/$engine.regen.log")"
		continue
	fi
	for step in build test; do
		t_case "$engine $step of a flash-attn cell: the commands match tests/golden/$engine-$step.txt"
		(cd "$src" && WG_GPU=1 sh "templates/$step-container.sh" --dry-run out "$cell") 2>&1 | norm "$src" >"$WORK/$engine-$step.txt"
		t_cmp "$src/tests/golden/$engine-$step.txt" "$WORK/$engine-$step.txt"
	done
done

t_case "podman runs the step as the invoking user: --userns=keep-id when rootless, --user 0:0 as root (root's podman refuses keep-id)"
raw=$(cd "$WORK/podman" && sh templates/build-container.sh --dry-run out "$cell" | tail -n 1)
if [ "$(id -u)" -eq 0 ]; then want="--init --user 0:0 "; else want="--init --userns=keep-id "; fi
case $raw in *"$want"*) t_pass ;; *) t_fail "want '$want' in: $raw" ;; esac

src=$WORK/docker
t_case "the build runs at fixed paths, as the invoking user, with the memory the pool counted"
f=$WORK/docker-build.txt
if grep -q -- "--init @INVOKER@ " "$f" && grep -q -- "-v @SRC@/out:/wg/out " "$f" &&
	grep -q -- "-v @SRC@/out/src/flash-attn-2.8.3:/wg/src:ro " "$f" && grep -q -- "--memory 32768m " "$f" &&
	grep -q "^WG_MEMORY_GB=32.0$" "$src/out/cells/$cell/spec" &&
	grep -q "^WG_PYTHON_EXE='/opt/python/cp312-cp312/bin/python'$" "$src/out/cells/$cell/spec"; then
	t_pass
else
	t_fail "$(cat "$f")"
fi

t_case "without a GPU the test gets none; CCACHE_REMOTE_STORAGE is passed by name, its value never printed"
out=$(cd "$src" && WG_GPU=0 CCACHE_REMOTE_STORAGE=redis://user:s3cret@127.0.0.1 sh templates/build-container.sh --dry-run out "$cell")
tout=$(cd "$src" && WG_GPU=0 sh templates/test-container.sh --dry-run out "$cell")
case $out in
*s3cret*) t_fail "the secret was printed: $out" ;;
*" -e CCACHE_REMOTE_STORAGE "*)
	case $tout in *--gpus*) t_fail "GPU flag without a GPU: $tout" ;; *) t_pass ;; esac ;;
*) t_fail "no -e CCACHE_REMOTE_STORAGE: $out" ;;
esac

# ninja with the stand-in engine, on the quickstart (a path source: no git fetch)
src=$WORK/ninja
t_case "ninja wheel/<cell> with --backend docker runs the engine with exactly the dry-run's arguments"
if (PATH=$enginepath; t_configure "$src" --backend docker --config examples/quickstart/packages.yml) &&
	(cd "$src" && ninja build.ninja) >"$WORK/q.regen.log" 2>&1; then
	qcell=$(cd "$src" && out/wheelgen matrix --config examples/quickstart/packages.yml --host out/host.txt --table | awk 'NR == 2 {print $1}')
	: >"$WORK/engine.calls"
	(cd "$src" && PATH=$enginepath WG_PULL_DELAY=0 ninja "wheel/$qcell") >"$WORK/q.ninja.log" 2>&1 || true
	dry=$(cd "$src" && sh templates/build-container.sh --dry-run out "$qcell" | tail -n 1)
	eval "set -- $dry"
	shift # the engine's path
	printf '%s\n' "$@" -- >"$WORK/want.calls"
	awk 'BEGIN { RS = "--\n" } $1 == "run" { printf "%s--\n", $0 }' "$WORK/engine.calls" >"$WORK/got.calls"
	if [ -s "$WORK/got.calls" ] && cmp -s "$WORK/want.calls" "$WORK/got.calls" &&
		grep -q "^quay.io/pypa/manylinux_2_28_x86_64$" "$WORK/want.calls"; then
		t_pass
	else
		t_fail "$(diff "$WORK/want.calls" "$WORK/got.calls" | head -n 20)" "$(tail -n 5 "$WORK/q.ninja.log")"
	fi
	t_case "a missing image is pulled, and a failed pull is tried again (3 tries)"
	pulls=$(grep -c '^pull$' "$WORK/engine.calls" || true)
	if [ "$pulls" = 3 ]; then t_pass; else t_fail "pulls: $pulls" "$(cat "$WORK/engine.calls")"; fi
else
	t_fail "$(cat "$src.configure.log" "$WORK/q.regen.log")"
fi

# shellcheck disable=SC2016
t_expect "a run that the engine itself fails (status 125) before the step begins is tried once more; a second such failure fails the step with the engine.s status" '
	cd "$WORK/ninja"
	export PATH="$enginepath" WG_PULL_DELAY=0
	: >"$WORK/engine.calls"
	echo 1 >"$WORK/runfails"
	t_log "$WORK/retry1.log" sh templates/build-container.sh out "$qcell"
	grep "could not start the container (status 125, its message above); trying once more" "$WORK/retry1.log"
	[ "$(grep -c "^run$" "$WORK/engine.calls")" = 2 ]
	: >"$WORK/engine.calls"
	echo 2 >"$WORK/runfails"
	rc=0
	sh templates/build-container.sh out "$qcell" >"$WORK/retry2.log" 2>&1 || rc=$?
	[ "$rc" = 125 ] || { echo "status $rc"; cat "$WORK/retry2.log"; exit 1; }
	[ "$(grep -c "^run$" "$WORK/engine.calls")" = 2 ]
	grep "could not run the container (status 125" "$WORK/retry2.log"
'

t_case "configure --backend podman without podman on PATH fails and says so"
mkdir -p "$WORK/nopodman" "$WORK/nopodman-bin"
t_copytree "$WORK/nopodman"
# a PATH with every command of /usr/bin and /bin but podman (which a host may well have)
for f in /usr/bin/* /bin/*; do
	case ${f##*/} in podman) continue ;; esac
	[ -e "$WORK/nopodman-bin/${f##*/}" ] || ln -s "$f" "$WORK/nopodman-bin/${f##*/}"
done
if (cd "$WORK/nopodman" && PATH=$WORK/nopodman-bin ./configure --backend podman) >"$WORK/nopodman.log" 2>&1; then
	t_fail "configure succeeded"
else
	t_check grep -q "configure: error: --backend podman: 'podman' not found on PATH" "$WORK/nopodman.log"
fi

# --- the real engines: podman, and docker's client on podman's socket ------------------------
# A manylinux-shaped Debian image built here (tests/images/debian.sh: mmdebstrap, podman
# import; no registry), the quickstart and a CUDA cell built and tested inside it. Sandboxes
# refuse containers' setrlimit: a containers.conf without default ulimits (CONTAINERS_CONF,
# podman's own setting) lets podman run there and changes nothing elsewhere.
cache=${WG_TEST_CACHE:-${HOME:-/tmp}/.cache/wheelgen-tests}
printf '[containers]\ndefault_ulimits = []\n' >"$WORK/containers.conf"
CONTAINERS_CONF=$WORK/containers.conf
export CONTAINERS_CONF
pimage=
if ! command -v podman >/dev/null 2>&1 || ! command -v mmdebstrap >/dev/null 2>&1; then
	echo "# skip - the real podman path: podman or mmdebstrap is not installed (tests/run.sh --install-deps installs both)"
else
	t_case "a manylinux-shaped Debian image, built here (mmdebstrap, podman import) and cached, runs a container"
	if pimage=$("$top/tests/images/debian.sh" podman "$cache" 2>"$WORK/image.log") &&
		podman run --rm --network=none "$pimage" /opt/python/cp311-cp311/bin/python -c 'print("hello")' >"$WORK/hello.log" 2>&1 &&
		grep -q hello "$WORK/hello.log"; then
		t_pass
	else
		t_fail "$(tail -n 20 "$WORK/image.log" "$WORK/hello.log" 2>/dev/null)"
		pimage=
	fi
fi
if [ -n "$pimage" ]; then
	# the host's CA bundle and SSL_CERT_FILE (for a TLS-intercepting proxy on the way to PyPI),
	# and a second Python the way manylinux images have them: the host's 3.12 at /opt/python
	# (and at its own prefix, where its libpython is found)
	WHEELGEN_CONTAINER_ARGS=
	f=/etc/ssl/certs/ca-certificates.crt
	[ ! -f "$f" ] || WHEELGEN_CONTAINER_ARGS="-v $f:$f:ro -e SSL_CERT_FILE=$f"
	psrc=$WORK/podman
	t_copytree "$psrc"
	qconf() { # qconf FILE PYTHONS: the quickstart for those Pythons, in the test image
		sed -e "s/^  python: .*/  python: [$2]/" -e "s/^  default: .*/  default: {python: [$2]}/" \
			examples/quickstart/packages.yml >"$1"
		printf 'container:\n  image: %s\n  cpu_image: %s\n' "$pimage" "$pimage" >>"$1"
	}
	(cd "$psrc" && qconf examples/quickstart/podman.yml '"3.11"')
	export WHEELGEN_CONTAINER_ARGS
	# shellcheck disable=SC2016
	t_expect "podman: the quickstart cell builds and tests in the container; its files are the invoking user's; its memory limit is the pool's claim" '
		cd "$psrc"
		t_log "$WORK/p.configure.log" ./configure ${WG_CONFARGS:-} --backend podman --config examples/quickstart/podman.yml
		t_log "$WORK/p.ninja.log" ninja
		grep "TEST wgquickstart-0.1.0-py311" "$WORK/p.ninja.log"
		ls out/wheels/wgquickstart-0.1.0-py311/wgquickstart-0.1.0-cp311-cp311-manylinux_2_*_x86_64.whl
		grep -q "podman run --rm --init" out/logs/wgquickstart-0.1.0-py311.build-engine.log
		[ -z "$(find out -not -user "$(id -u)" | head -n 3)" ]
		mem=$(sed -n "s/^WG_MEMORY_GB=//p" out/cells/wgquickstart-0.1.0-py311/spec)
		want=$(awk -v g="$mem" "BEGIN { m = int(g * 1024 + 0.5); if (m < 2048) m = 2048; printf \"%d\", m }")
		want=$((want * 1048576))
		grep "^wheelgen: memory limit of the cgroup: $want\$" out/logs/wgquickstart-0.1.0-py311.build.log
	'
	# shellcheck disable=SC2016
	t_expect "podman: touching templates/container-run.sh reruns the build and the test edge of the cell; test-container.sh only its test edge" '
		cd "$psrc"
		c=wgquickstart-0.1.0-py311
		explain() { # the edges ninja reruns because of templates/$1, one word each
			sed -n "s|^ninja explain: .*output \([^ ]*\) older than most recent input templates/$1 .*|\1|p" |
				sed -e "s|^out/wheels/$c/manifest\$|build|" -e "s|^out/tests/$c.done\$|test|" | sort -u | tr "\n" " "
		}
		touch templates/container-run.sh
		ninja -n -d explain "test/$c" >"$WORK/x1.log" 2>&1
		got=$(explain container-run.sh <"$WORK/x1.log")
		[ "$got" = "build " ] || { echo "container-run.sh, first: $got"; exit 1; }
		# (the test edge is explained by its own inputs once the build has run: restat)
		t_log "$WORK/x2.log" ninja "wheel/$c"
		ninja -n -d explain "test/$c" >"$WORK/x3.log" 2>&1
		got=$(explain container-run.sh <"$WORK/x3.log")
		[ "$got" = "test " ] || { echo "container-run.sh, then: $got"; exit 1; }
		t_log "$WORK/x4.log" ninja "test/$c"
		touch templates/test-container.sh
		ninja -n -d explain "test/$c" >"$WORK/x5.log" 2>&1
		got=$(explain test-container.sh <"$WORK/x5.log")
		[ "$got" = "test " ] || { echo "test-container.sh: $got"; exit 1; }
		! grep -q "WHEEL $c" "$WORK/x5.log" || exit 1
	'
	# shellcheck disable=SC2016
	t_expect "podman and the host backend build the same wheel bytes where the toolchain is the same (Debian 12 Python 3.11 and gcc 12), or the difference is the Python build's" '
		hsrc=$WORK/host
		t_copytree "$hsrc"
		cp "$psrc/examples/quickstart/podman.yml" "$hsrc/examples/quickstart/podman.yml"
		cd "$hsrc"
		t_log "$WORK/h.configure.log" ./configure ${WG_CONFARGS:-} --config examples/quickstart/podman.yml
		t_log "$WORK/h.ninja.log" ninja
		w=$(ls out/wheels/wgquickstart-0.1.0-py311/wgquickstart-0.1.0-cp311-cp311-manylinux_2_*_x86_64.whl)
		if grep -q "^python 3.11 /usr/bin/python3.11$" out/host.txt; then
			cmp "$w" "$psrc/$w"
		else
			# another build of Python 3.11 on the host: other compiler flags in its sysconfig
			echo "# the host Python 3.11 is not Debian'"'"'s: comparing the members but the .so"
			python3 -c "import sys, zipfile; a, b = (zipfile.ZipFile(p) for p in sys.argv[1:]); assert {n for n in a.namelist()} == {n for n in b.namelist()}" "$w" "$psrc/$w"
		fi
	'
	# a host Python 3.12 in a prefix of its own (pyenv's), never /usr
	py12=$(sed -n 's|^python 3.12 \(.*\)/bin/python.*|\1|p' "$psrc/out/host.txt" 2>/dev/null | head -n 1)
	case $py12 in /usr | /usr/local | / | '') py12= ;; esac
	if [ -n "$py12" ] && [ -d "$py12/lib/python3.12" ]; then
		WHEELGEN_CONTAINER_ARGS="$WHEELGEN_CONTAINER_ARGS -v $py12:/opt/python/cp312-cp312:ro -v $py12:$py12:ro"
		WHEELGEN_CONTAINER_CUDA=host
		export WHEELGEN_CONTAINER_CUDA
		(cd "$psrc" && sed -e 's/^  python: .*/  python: ["3.11", "3.12"]/' -e 's/^  cuda: .*/  cuda: ["13.0"]/' \
			examples/cuda/packages.yml >examples/cuda/podman.yml &&
			printf 'container:\n  image: %s\n  cpu_image: %s\n' "$pimage" "$pimage" >>examples/cuda/podman.yml)
		# shellcheck disable=SC2016
		t_expect "podman: a CUDA cell for two Pythons (the host toolkit mounted: WHEELGEN_CONTAINER_CUDA=host) builds and tests; the second Python's CUDA object is a ccache hit" '
			cd "$psrc"
			sed -i "s|^config = .*|config = examples/cuda/podman.yml|" out/config.ninja
			# (one cell first: built side by side, neither would find the other'"'"'s objects)
			t_log "$WORK/pc.ninja.log" ninja wheel/wgcuda-0.1.0-py311-cu130
			ninja >>"$WORK/pc.ninja.log" 2>&1
			grep "TESTED wgcuda-0.1.0-py312-cu130" "$WORK/pc.ninja.log"
			grep "GPU code in the wheel: sm_90" out/logs/wgcuda-0.1.0-py312-cu130.build.log
			grep "^  |   Hits: *1 / 2" out/logs/wgcuda-0.1.0-py312-cu130.build.log
		'
	else
		echo "# skip - podman CUDA cells for two Pythons: configure found no Python 3.12 in a prefix of its own to mount"
	fi
	# shellcheck disable=SC2016
	t_expect "podman: a build that fails inside the container prints the log path as the host spells it, the first errors and the tail" '
		cd "$psrc"
		mkdir -p examples/quickstart/broken
		cp -r examples/quickstart/pkg/. examples/quickstart/broken/
		for c in $(find examples/quickstart/broken -name "*.c"); do printf "this is not C;\n" >>"$c"; done
		sed -e "s|source: {path: pkg}|source: {path: broken}|" examples/quickstart/podman.yml >examples/quickstart/broken.yml
		sed -i "s|^config = .*|config = examples/quickstart/broken.yml|" out/config.ninja
		if ninja >"$WORK/pb.ninja.log" 2>&1; then exit 1; fi
		cat "$WORK/pb.ninja.log"
		grep "failed; log: out/logs/wgquickstart-0.1.0-py311.build.log" "$WORK/pb.ninja.log"
		grep "error" "$WORK/pb.ninja.log"
		! grep -q "/wg/out/logs" "$WORK/pb.ninja.log" || exit 1
	'
	# docker's client on podman's socket (podman system service): the docker backend for real
	if command -v docker >/dev/null 2>&1; then
		sock=$WORK/podman.sock
		t_podman_socket "$sock"
		# shellcheck disable=SC2016
		t_expect "docker (the client, on podman's socket): the quickstart cell builds and tests; the same wheel as podman's" '
			dsrc=$WORK/dockersock
			t_copytree "$dsrc"
			cp "$psrc/examples/quickstart/podman.yml" "$dsrc/examples/quickstart/podman.yml"
			cd "$dsrc"
			t_log "$WORK/d.configure.log" ./configure ${WG_CONFARGS:-} --backend docker --config examples/quickstart/podman.yml
			t_log "$WORK/d.ninja.log" ninja
			grep "TESTED wgquickstart-0.1.0-py311" "$WORK/d.ninja.log"
			w=$(ls out/wheels/wgquickstart-0.1.0-py311/wgquickstart-0.1.0-cp311-cp311-manylinux_2_*_x86_64.whl)
			cmp "$w" "$psrc/$w"
		'
		kill "$svc" 2>/dev/null || true
		unset DOCKER_HOST
	else
		echo "# skip - docker on podman's socket: no docker client here"
	fi
fi
