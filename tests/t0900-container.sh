#!/bin/sh
# the docker and podman backends: no engine runs here, so they are tested by the exact
# commands they would run (golden files for a flash-attn cell, from --dry-run), by what a
# stand-in engine on PATH receives when ninja runs a cell (the same arguments; image pulls
# retried), and by what configure says when the engine is missing
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# a stand-in engine: records each call's arguments one per line (calls separated by "--")
# in $WORK/engine.calls; "image inspect" fails (no image here), "pull" fails the first two
# times, "run" succeeds without doing anything
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
esac
exit 0
ENGINE
	chmod +x "$WORK/bin/$e"
done

cell=flash-attn-2.8.3-py312-cu128-torch2.9
# golden output: the work dir, uid and gid, and the engine's path made neutral
norm() {
	sed -e "s|$1|@SRC@|g" -e "s|--user $(id -u):$(id -g)|--user @UID@:@GID@|" -e "s|$WORK/bin/||g"
}
for engine in docker podman; do
	src=$WORK/$engine
	t_case "configure --backend $engine with $engine on PATH"
	if (PATH=$enginepath; t_configure "$src" --backend "$engine" --no-uv --config tests/golden/flash-attn.yml) &&
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

src=$WORK/docker
t_case "the build runs at fixed paths, as the invoking user, with the memory the pool counted"
f=$WORK/docker-build.txt
if grep -q -- "--user @UID@:@GID@ " "$f" && grep -q -- "-v @SRC@/out:/wg/out " "$f" &&
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
