#!/bin/sh
# shellcheck disable=SC2317 # (the wg_* stubs below are called by the spec it sources)
# wheelgen container step: run one cell's build or test step inside the cell's image with
# docker or podman (configure --backend docker|podman); build-container.sh and
# test-container.sh call it. The test runs in the test image (the platform's without CUDA:
# container.cpu_image), with the build directory's toolkits and the cell's scratch hidden.
#
#   sh templates/container-run.sh build|test [--dry-run] BUILDDIR CELL
#
# Inside the container build-host.sh / test-host.sh run as on the host, with everything at
# fixed paths, the same for every cell (so that ccache's hashes match across cells):
#   /wg/templates  wheelgen's templates/ (read-only)
#   /wg/out        BUILDDIR: specs, wheels, logs, scratch (read-write)
#   /wg/src        the cell's source: a path source's directory or the git checkout (read-only)
#   /wg/out/cache  BUILDDIR/cache: ccache, uv and pip caches shared by all cells, on the build
#                  directory's mount, so that uv hard-links venvs from its cache (torch's 4 GB
#                  in a second and no disk) instead of copying; $WG_CACHE_DIR elsewhere is
#                  mounted at /wg/cache (then venvs are copies)
#   /wg/bin/uv     the host's uv, when configure found one (read-only)
# The container runs as the invoking user (docker --user UID:GID, rootless podman --userns=keep-id),
# so every file it writes belongs to you; a build's memory is limited to what it claims in
# wheelgen's memory pool (memory_per_job_gb x MAX_JOBS x NVCC_THREADS, at least 2 GB); a test of a CUDA cell gets the GPUs (docker --gpus all, podman CDI
# nvidia.com/gpu=all) where nvidia-smi lists one (WG_GPU=1 / WG_GPU=0 force it).
# The image is pulled when missing, with up to 3 tries (15 s, then 30 s apart). A run the engine
# itself fails (status 125) before the step begins is tried once more, 15 s later
# (WG_PULL_DELAY sets both delays).
# CCACHE_REMOTE_STORAGE is passed by name (-e NAME), so its value is never on a command line.
# WHEELGEN_ENGINE_OPTS: global engine options (before "run"); WHEELGEN_CONTAINER_ARGS: more
# options for "run" (before the image); WHEELGEN_CONTAINER_CUDA=host: a CUDA
# cell's build gets the host's toolkit of its version (host.txt), read-only at /usr/local/cuda-X.Y.
#
# --dry-run prints the engine commands instead of running them (nothing is written).
# Prints nothing on success; on failure the step's own report, or the engine's output.
set -eu

usage() {
    printf 'usage: sh templates/container-run.sh build|test [--dry-run] BUILDDIR CELL\n' >&2
    exit 2
}
[ "$#" -ge 1 ] || usage
step=$1
shift
case $step in
    build | test) ;;
    *) usage ;;
esac
dry=0
if [ "${1:-}" = --dry-run ]; then
    dry=1
    shift
fi
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
# shellcheck source=templates/step-lib.sh
. "$(dirname "$0")/step-lib.sh"
wg_cellargs "usage: sh templates/container-run.sh build|test [--dry-run] BUILDDIR CELL" "$@"
wg_voice "$step $CELL"
templates=$(cd "$(dirname "$0")" && pwd)

# --- what configure found, and the cell's spec ----------------------------------

backend=''
engine=''
uv=''
[ -f "$B/host.txt" ] || wg_die "$BUILDDIR_ARG/host.txt not found (run ./configure --backend docker|podman)"
while read -r key value; do
    case $key in
        backend) backend=$value ;;
        engine) engine=$value ;;
        uv) uv=$value ;;
    esac
done <"$B/host.txt"
case $backend in
    docker | podman) ;;
    *) wg_die "configure chose the '$backend' backend, not docker or podman (re-run ./configure --backend docker)" ;;
esac
[ -n "$engine" ] || wg_die "host.txt names no container engine (re-run ./configure --backend $backend)"

if [ "$step" = build ]; then spec=$B/cells/$CELL/spec; else spec=$B/cells/$CELL/test; fi
[ -f "$spec" ] || wg_die "spec file not found: $spec"
wg_clearspec
# the spec is POSIX sh written by wheelgen; the build parameters it also sets are not used here
wg_dep() { :; }
wg_arg() { :; }
wg_env() { :; }
wg_repair_exclude() { :; }
wg_skip_module() { :; }
wg_test_dep() { :; }
patches=''
wg_patch() { # mounted at /wg/patches/<n>.patch (newline-separated host paths)
    patches="$patches$1
"
}
# shellcheck source=/dev/null
. "$spec"
[ "$WG_CELL" = "$CELL" ] || wg_die "spec says WG_CELL='$WG_CELL', expected '$CELL'"
[ -n "$WG_IMAGE" ] || wg_die "spec names no image (was it generated for the host backend? re-run ./configure --backend $backend)"
# the test runs where a user stands: in the image of the cell's platform without CUDA (the test
# spec's WG_TEST_IMAGE, container.cpu_image), not in the devel image the wheel was built in
if [ "$step" = test ] && [ -n "${WG_TEST_IMAGE:-}" ]; then
    WG_IMAGE=$WG_TEST_IMAGE
fi

# --- the engine command ------------------------------------------------------------

runargs=''
arg() { # arg WORD...: append to the engine's argument list (kept in $runargs, newline-separated)
    for a in "$@"; do
        case $a in
            *'
'*) wg_die "argument with a newline: $a" ;;
        esac
        runargs="$runargs$a
"
    done
}

# global engine options first (WHEELGEN_ENGINE_OPTS, split at blanks: --runtime runc,
# --cgroup-manager=cgroupfs ... where a sandbox needs them)
for o in ${WHEELGEN_ENGINE_OPTS:-}; do
    arg "$o"
done
arg run --rm --init
if [ "$backend" = podman ] && [ "$(id -u)" -ne 0 ]; then
    # rootless podman maps the invoking user to the same uid inside (root's podman refuses
    # keep-id: there root inside is root outside, as --user 0:0 says)
    arg --userns=keep-id
else
    arg --user "$(id -u):$(id -g)"
fi
arg -e HOME=/tmp -e "WG_HOST_BUILDDIR=$BUILDDIR_ARG"
arg -v "$templates:/wg/templates:ro"
arg -v "$B:/wg/out"
cache=${WG_CACHE_DIR:-$B/cache}
case $cache in
    "$B"/*)
        # inside the build directory: on its mount (hard links from uv's cache into the venvs)
        incache=/wg/out/${cache#"$B"/}
        ;;
    *)
        incache=/wg/cache
        arg -v "$cache:/wg/cache"
        ;;
esac
arg -e "CCACHE_DIR=$incache/ccache" -e "UV_CACHE_DIR=$incache/uv" -e "PIP_CACHE_DIR=$incache/pip"
if [ -n "$uv" ]; then
    arg -v "$uv:/wg/bin/uv:ro"
fi
if [ "$step" = build ]; then
    # the limit is the claim the memory pool counted for this build (the test is not limited)
    mb=$(awk -v g="${WG_MEMORY_GB:-0}" 'BEGIN { m = int(g * 1024 + 0.5); if (m < 2048) m = 2048; print m }')
    arg --memory "${mb}m" --memory-swap "${mb}m"
    case $WG_SOURCE_KIND in
        path)
            # (WG_DEPFILE_SOURCE: the source as the host's ninja spells it, for a part's depfile)
            arg -v "$WG_SOURCE:/wg/src:ro" -e WG_SOURCE_OVERRIDE=/wg/src -e "WG_DEPFILE_SOURCE=$WG_SOURCE"
            ;;
        git)
            arg -v "$WG_SOURCE_DIR:/wg/src:ro" -v "$WG_SOURCE_DIR.commit:/wg/src.commit:ro" -e WG_SOURCE_OVERRIDE=/wg/src
            ;;
    esac
    n=0
    while IFS= read -r p; do
        [ -n "$p" ] || continue
        n=$((n + 1))
        arg -v "$p:/wg/patches/$n.patch:ro"
    done <<EOF
$patches
EOF
    [ "$n" -eq 0 ] || arg -e WG_PATCH_DIR=/wg/patches
    # shards and deadlines (build-host.sh): a part, its key and its stamp as the host's ninja
    # spells it; the deadline
    if [ -n "${WG_SHARD:-}" ]; then
        arg -e "WG_SHARD=$WG_SHARD" -e "WG_SHARD_KEY=${WG_SHARD_KEY:-}" \
            -e "WG_SHARD_DEPFILE_TARGET=$BUILDDIR_ARG/shards/$CELL/${WG_SHARD%/*}.done"
    fi
    [ -z "${WHEELGEN_DEADLINE:-}" ] || arg -e "WHEELGEN_DEADLINE=$WHEELGEN_DEADLINE"
    # families: the family's compile cache in BUILDDIR/families/ (build-host.sh)
    [ -z "${WHEELGEN_FAMILY_CACHE:-}" ] || arg -e "WHEELGEN_FAMILY_CACHE=$WHEELGEN_FAMILY_CACHE"
fi
if [ "$step" = test ]; then
    # nor the build's toolkits and scratch (BUILDDIR/toolkits, BUILDDIR/build/CELL), which the
    # build directory's mount would show
    for d in toolkits "build/$CELL"; do
        [ ! -d "$B/$d" ] || arg --tmpfs "/wg/out/$d"
    done
fi
if [ "$step" = build ] && [ -n "$WG_CUDA" ] && [ "${WHEELGEN_CONTAINER_CUDA:-}" = host ]; then
    # the host's toolkit of the cell's CUDA, read-only where manylinux images keep theirs
    hostcuda=$(sed -n "s|^cuda $WG_CUDA ||p" "$B/host.txt" | head -n 1)
    [ -n "$hostcuda" ] || wg_die "WHEELGEN_CONTAINER_CUDA=host, but configure found no CUDA $WG_CUDA toolkit on this host"
    arg -v "$hostcuda:/usr/local/cuda-$WG_CUDA:ro"
fi
if [ -n "${CCACHE_REMOTE_STORAGE:-}" ]; then
    arg -e CCACHE_REMOTE_STORAGE
fi
if [ "$step" = test ] && [ -n "$WG_CUDA" ]; then
    gpu=${WG_GPU:-}
    if [ -z "$gpu" ]; then
        if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then gpu=1; else gpu=0; fi
    fi
    if [ "$gpu" = 1 ]; then
        if [ "$backend" = podman ]; then arg --device nvidia.com/gpu=all; else arg --gpus all; fi
    fi
fi
# WHEELGEN_CONTAINER_ARGS: more options for "run" (split at blanks): a mount, an -e NAME, ...
for o in ${WHEELGEN_CONTAINER_ARGS:-}; do
    arg "$o"
done
arg -w /wg/out "$WG_IMAGE" sh "/wg/templates/$step-host.sh" /wg/out "$CELL"

oldifs=$IFS
IFS='
'
# shellcheck disable=SC2086 # one argument per line of $runargs
set -- $runargs
IFS=$oldifs
# the same, quoted for printing
shown=''
for a in "$@"; do
    case $a in
        *[!A-Za-z0-9_./:=@%+,-]* | '') shown="$shown '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'" ;;
        *) shown="$shown $a" ;;
    esac
done

# (the engine's messages have no context: "pulling ...", "STEP CELL failed: ...")
wg_voice
pull() {
    i=1
    while :; do
        if "$engine" pull "$WG_IMAGE"; then return 0; fi
        [ "$i" -lt 3 ] || return 1
        wg_say 'pulling %s failed (try %d of 3); again in %d s' "$WG_IMAGE" "$i" "$((i * ${WG_PULL_DELAY:-15}))"
        sleep "$((i * ${WG_PULL_DELAY:-15}))"
        i=$((i + 1))
    done
}

if [ "$dry" = 1 ]; then
    printf '%s image inspect %s || %s pull %s   # up to 3 tries\n' "$engine" "$WG_IMAGE" "$engine" "$WG_IMAGE"
    printf '%s%s\n' "$engine" "$shown"
    exit 0
fi

mkdir -p "$cache/ccache" "$cache/uv"
mkdir -p "$B/logs"
englog=$B/logs/$CELL.$step-engine.log
: >"$englog"
if ! "$engine" image inspect "$WG_IMAGE" >/dev/null 2>&1; then
    if ! pull >>"$englog" 2>&1; then
        wg_say '%s %s failed: cannot pull %s; log: %s/logs/%s.%s-engine.log' \
            "$step" "$CELL" "$WG_IMAGE" "$BUILDDIR_ARG" "$CELL" "$step" >&2
        tail -n 20 "$englog" >&2
        exit 1
    fi
fi
printf '+ %s%s\n' "$engine" "$shown" >>"$englog"
# the step inside prints its own failure report (to stderr, which the engine passes on)
# (the step writes its log from its first line: an empty one after a failure means that the
# engine never ran it)
steplog=$B/logs/$CELL.$step.log
: >"$steplog"
rc=0
"$engine" "$@" || rc=$?
if [ "$rc" = 125 ] && [ ! -s "$steplog" ]; then
    # 125: the engine's own error (docker's and podman's status for it), before the step began:
    # a transient one (a storage lock another engine process holds) passes; tried once more
    wg_say '%s %s: %s could not start the container (status 125, its message above); trying once more in %s s' \
        "$step" "$CELL" "$backend" "${WG_PULL_DELAY:-15}" >&2
    sleep "${WG_PULL_DELAY:-15}"
    printf '+ %s%s   # once more\n' "$engine" "$shown" >>"$englog"
    rc=0
    "$engine" "$@" || rc=$?
fi
case $rc in
    0) ;;
    *)
        [ ! -s "$steplog" ] || exit "$rc"
        # the engine's own failure: no container ran the step
        wg_say '%s %s failed: %s could not run the container (status %d, its message above); in a sandbox see docs/troubleshooting.md, "Containers in restricted environments"; the command: %s/logs/%s.%s-engine.log' \
            "$step" "$CELL" "$backend" "$rc" "$BUILDDIR_ARG" "$CELL" "$step" >&2
        ;;
esac
exit "$rc"
