# step-lib.sh: what every build step shares; sourced by build-host.sh, test-host.sh and
# container-run.sh, after voice.sh (wg_say, wg_warn, wg_die: the steps speak through it).
#
#   wg_begin STEP LOGKIND "$@"    (STEP: wheel | test; LOGKIND: build | test; "$@": BUILDDIR CELL)
#
# Checks the arguments, then sets B (BUILDDIR, absolute), BUILDDIR_ARG (as ninja spells it),
# CELL, log, errors and log_shown, sends all further output to the log, and on a non-zero exit
# writes the log's first errors beside it (BUILDDIR/logs/CELL.LOGKIND.errors: wg_first_errors)
# and prints "wheelgen: STEP CELL failed; log: PATH", those errors and the log's last 20 lines
# to the caller's stderr (kept on fd 3).

wg_begin() {
    wg_step=$1
    wg_logkind=$2
    shift 2
    wg_cellargs "usage: sh templates/$wg_logkind-host.sh BUILDDIR CELL" "$@"
    log=$B/logs/$CELL.$wg_logkind.log
    # the log as ninja's user knows it (relative to where ninja runs; in a container, the
    # build directory as the host spells it: WG_HOST_BUILDDIR, from container-run.sh)
    log_shown=${WG_HOST_BUILDDIR:-$BUILDDIR_ARG}/logs/$CELL.$wg_logkind.log
    # (the log's name with .errors for .log: gen/summary.c reads it there)
    errors=${log%.log}.errors
    mkdir -p "$B/logs"
    rm -f "$errors"
    : >"$log"
    exec 3>&2 </dev/null >>"$log" 2>&1
    # the first and last lines say when the step started and how it ended (wheelgen status
    # reads them); a heartbeat line every minute shows a long step is alive
    wg_t0=$(date +%s)
    printf 'wheelgen-step: start %s %s %s\n' "$wg_t0" "$wg_logkind" "$CELL"
    # (without fd 3, ninja's pipe: ninja waits for every holder of it, and the heartbeat's
    # sleep outlives the step by up to a minute)
    wg_heartbeat 3>&- &
    wg_hb=$!
    trap wg_on_exit EXIT
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

# wg_cellargs USAGE BUILDDIR CELL: check a step's arguments (exit 2 with USAGE or the
# problem); sets BUILDDIR_ARG (as ninja spells it), B (absolute) and CELL
wg_cellargs() {
    if [ "$#" -ne 3 ]; then
        printf '%s\n' "$1" >&2
        exit 2
    fi
    BUILDDIR_ARG=${2%/}
    [ -n "$BUILDDIR_ARG" ] || BUILDDIR_ARG=/
    CELL=$3
    case $CELL in
        '' | . | .. | */* | -*)
            wg_say 'bad cell name: %s' "$CELL" >&2
            exit 2
            ;;
    esac
    if [ ! -d "$BUILDDIR_ARG" ]; then
        wg_say 'build directory does not exist: %s' "$BUILDDIR_ARG" >&2
        exit 2
    fi
    B=$(cd "$BUILDDIR_ARG" && pwd)
}

# wg_quote WORD: WORD single-quoted for a later eval
wg_quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# wg_replace NEW DEST: DEST gets NEW's content, unless it has it already: then NEW is removed
# and DEST keeps its time (ninja's restat sees nothing new); status 1 when unchanged
wg_replace() {
    if [ -f "$2" ] && cmp -s "$1" "$2"; then
        rm -f "$1"
        return 1
    fi
    mv -f "$1" "$2"
}

# every variable a cell's specs (cells/CELL/spec and cells/CELL/test, written by gen/graph.c)
# may set: wg_clearspec empties them before a spec is read, so that set -u holds for those it
# leaves out (tests/t0000 checks this list against graph.c)
wg_specvars='WG_ABI WG_CCACHE WG_CELL WG_CUDA WG_CUDA_ARCHS WG_CUDA_HOME WG_FAMILY WG_FAMILY_KEY
WG_FRONTEND WG_IMAGE WG_CROSS_PREFIX WG_CROSS_SCRIPT WG_LOCAL_VERSION WG_MANYLINUX_FLOOR
WG_MAX_JOBS WG_MEMORY_GB WG_NVCC_COMPRESS WG_NVCC_THREADS WG_PACKAGE WG_PLATFORM WG_PYTHON
WG_PYTHON_EXE WG_QEMU WG_REPAIR WG_REPAIR_CUDA WG_REPAIR_PLAT WG_SKIP_SUBMODULES WG_SOURCE
WG_SOURCE_DIR WG_SOURCE_KIND WG_SYSROOT WG_SHARDS WG_TEST_COMMAND WG_TEST_IMAGE WG_TEST_IMPORT
WG_TORCH WG_TORCH_INDEX WG_TORCH_REQUIREMENT WG_UV WG_VERSION WG_WIDTH'
wg_clearspec() {
    for wg_v in $wg_specvars; do
        eval "$wg_v=''"
    done
}

# wg_readspec FILE: print and source the cell's spec (POSIX sh written by wheelgen), and
# check that it is this cell's
wg_readspec() {
    wg_clearspec
    wg_say '%s %s (%s)' "$wg_logkind" "$CELL" "$(date '+%Y-%m-%d %H:%M:%S')"
    [ -f "$1" ] || wg_die "spec file not found: $1"
    wg_say 'spec %s' "$1"
    sed 's/^/  | /' "$1"
    # shellcheck source=/dev/null
    . "$1"
    [ "$WG_CELL" = "$CELL" ] || wg_die "spec says WG_CELL='$WG_CELL', expected '$CELL'"
}

# wg_cross_load: for a cell cross-built here (its spec sets WG_SYSROOT), source its platform's
# helper from the templates directory: WG_CROSS_SCRIPT, gen/platform.c's crossscript (cross.sh;
# win_amd64: windows.sh). Each defines the same functions (wg_cross_begin, wg_cross_say, ...)
wg_cross_load() {
    case ${WG_CROSS_SCRIPT:-} in
        '' | */* | .*) wg_die "spec: WG_CROSS_SCRIPT='${WG_CROSS_SCRIPT:-}' names no helper of templates/ (re-run ninja: it rewrites the spec)" ;;
    esac
    # shellcheck source=templates/cross.sh disable=SC2154 # (wg_templates: the step's, beside it)
    . "$wg_templates/$WG_CROSS_SCRIPT"
}

# wg_heartbeat: every minute while the step runs, its elapsed time and the last progress
# counter of the build ("[12/40]": ninja's, as torch's cpp_extension and cmake print it)
wg_heartbeat() {
    wg_parent=$$
    wg_n=0
    wg_sleep=
    # (stopped by the step's end: its sleep goes too, not a minute later)
    trap '[ -z "$wg_sleep" ] || kill "$wg_sleep" 2>/dev/null; exit 0' TERM
    while :; do
        sleep 60 &
        wg_sleep=$!
        wait "$wg_sleep" || exit 0
        wg_sleep=
        kill -0 "$wg_parent" 2>/dev/null || exit 0
        wg_n=$((wg_n + 1))
        wg_prog=$(grep -o -E '^\[[0-9]+/[0-9]+\]' "$log" 2>/dev/null | tail -n 1 || true)
        printf 'wheelgen-step: heartbeat %s min%s\n' "$wg_n" "${wg_prog:+, $wg_prog objects}"
    done
}

wg_on_exit() {
    wg_rc=$?
    [ -z "${wg_hb:-}" ] || kill "$wg_hb" 2>/dev/null || true
    printf 'wheelgen-step: end %s %s %s s\n' "$(date +%s)" "$wg_rc" "$(($(date +%s) - ${wg_t0:-$(date +%s)}))"
    if [ "$wg_rc" -ne 0 ]; then
        {
            wg_say '%s %s failed; log: %s' "$wg_step" "$CELL" "$log_shown"
            wg_first_errors
            tail -n 20 "$log"
            wg_hint
        } >&3
    fi
    exit "$wg_rc"
}

# wg_first_errors: after a failure, the log's first errors (the cause; the tail is mostly the
# traceback of the tool that gave up) into $errors, one "LINE: text" a line (wg_first_errors_of),
# and printed. That file is the rule's one product: wheelgen summary reads it, never the rule
# (it takes the file when it is not older than the log, so a step that never started, such as
# a container that could not run, shows no old errors)
wg_first_errors() {
    wg_first_errors_of "$log" 5 >"$errors" 2>/dev/null || true
    if [ -s "$errors" ]; then
        wg_say 'the first errors in the log (line: text):'
        sed 's/^/  /' "$errors"
        wg_say 'the log ends:'
    fi
}

# wg_first_errors_of LOG MAX: the first MAX error lines of LOG as "LINE: text", each message
# once (numbers aside). An error line: a compiler's ("error:", "fatal error", "#error", not
# inside a word), ninja's "FAILED: ", a linker's refusal of an object ("file in wrong format",
# "Relocations in generic ELF"), a full disk ("No space left on device"), Python's last
# traceback line ("SomeError: ..."), and CMake's "CMake Error" with its message (the indented
# lines after it, up to its list of possible reasons or call stack, joined into the one line:
# a missing imported target names the target there). Not: a command (+ ...), wheelgen's own
# lines (a retry that worked, such as uv's offline try, is logged as one), a build system's
# compiler checks (tmp.../a.c), pip's "Retrying (Retry(...". The one owner of this rule
# (tests/golden/first-errors.* hold it; gen/summary.c reads what it found)
wg_first_errors_of() {
    LC_ALL=C awk -v max="$2" -v note="note: $wg_offline_note" '
        function emit(nr, text, k) {
            k = text
            gsub(/[0-9]+/, "N", k)
            if (!seen[k]++ && n < max) got[++n] = nr ": " text
        }
        # inside a CMake error: its message is indented; blank lines separate its parts
        blk != "" {
            if ($0 ~ /^[ \t]*$/) next
            if ($0 ~ /^  /) {
                t = $0
                sub(/^[ \t]+/, "", t)
                if (t ~ /^Call Stack/) stop = 1
                if (!stop && length(blk) < 400) {
                    if (sub(/ *Possible reasons include.*$/, "", t)) stop = 1
                    if (t != "") blk = blk " " t
                }
                next
            }
            emit(blknr, blk)
            blk = ""
        }
        # (what an offline try said before wheelgen asked the index: not the cause)
        index($0, note) { n = 0; split("", seen); blk = ""; next }
        /^CMake Error/ { blk = $0; blknr = NR; stop = 0; next }
        /^(\+ |wheelgen)/ || /tmp.*\/a\.(c|cc|cpp|cu):/ || /Retrying \(Retry\(/ { next }
        /^FAILED: / || /file in wrong format|Relocations in generic ELF|No space left on device/ ||
            /(^|[^a-z_])(error:|fatal error|#error)/ || /^[A-Za-z0-9_.]+(Error|Exception):/ { emit(NR, $0) }
        END { if (blk != "") emit(blknr, blk); for (i = 1; i <= n; i++) print got[i] }' "$1"
}

# wg_hint: after a failure, a line of advice when the log shows a cause people often hit
# (docs/troubleshooting.md has the longer story)
wg_hint() {
    if grep -q -E 'file in wrong format|Relocations in generic ELF' "$log"; then
        wg_hint_object
    elif grep -q 'No space left on device' "$log"; then
        wg_say 'hint: the disk is full (No space left on device): %s has %s left. A CUDA build needs several GB for its objects and the wheel; free space (old out/build/* scratch directories of failed builds, out/cache) or point the build directory elsewhere' \
            "$B" "$(df -h "$B" 2>/dev/null | awk 'NR == 2 { print $4 }')"
    elif grep -q -E 'links to:|but the target was not found' "$log" && grep -q -E '^ +CUDA::' "$log"; then
        wg_say 'hint: CMake found no %s: the CUDA toolkit the build sees lacks that library. On the host, install it (the toolkit'"'"'s cuBLAS, cuSPARSE...); a cross build gets the target'"'"'s CUDA libraries the package names (CUDA::x in its CMake files) from PyPI: see docs/troubleshooting.md, "CMake cannot find a CUDA:: target"' \
            "$(grep -o -E '^ +CUDA::[A-Za-z0-9_]+' "$log" | head -n 1 | tr -d ' ')"
    elif grep -q -E 'Killed signal terminated program|died due to signal 9|signal 9 \(Kill|virtual memory exhausted|std::bad_alloc|[Oo]ut of memory|Cannot allocate memory' "$log"; then
        wg_say 'hint: a compiler was killed or ran out of memory. Each build claims memory_per_job_gb x MAX_JOBS x NVCC_THREADS in the memory pool: raise memory_per_job_gb or lower max_jobs / nvcc_threads for this package, or ./configure --max-jobs N / --memory-gb N'
    elif grep -q 'undefined symbol' "$log"; then
        wg_say 'hint: "undefined symbol" at import: the extension was compiled against another torch, CUDA or C++ ABI than the one that loaded it. The test installs the torch the manifest records; if it still fails, the build saw a different torch (check "torch ... built with CUDA" near the top of the build log)'
    elif grep -q -E 'C\+\+(20|17) or later compatible compiler is required' "$log"; then
        wg_say 'hint: the headers (torch 2.14 and later: C++20) need a newer C++ standard than the package compiles with: patch its -std flag (patches:, as config/patches/sageattention-2.2-cxx20.patch does); appending a second -std through the environment does not work with nvcc'
    elif grep -q 'libcuda\.so\.1' "$log"; then
        wg_say 'hint: "libcuda.so.1" is the NVIDIA driver, which this host lacks: a module that links it loads only on a GPU machine (test it there: WHEELGEN_TEST_PYTHON, see docs/manual.md, "GPU tests"); the build itself needs only the toolkit'
    elif grep -q -E 'lib[A-Za-z0-9_.+-]*\.so[.0-9]*: cannot open shared object file' "$log"; then
        wg_say 'hint: the wheel needs %s, which neither the wheel carries nor what its METADATA installs provides: its test runs where a user stands, without this host'"'"'s CUDA toolkit, loader path or build tree. The repair declares a CUDA library it links with PyPI'"'"'s wheel (repair.cuda: pypi, the default; vendor copies it in); another library needs repair (vendored) or a requirement that provides it (docs/manual.md, "What a wheel needs")' \
            "$(grep -o -E 'lib[A-Za-z0-9_.+-]*\.so[.0-9]*: cannot open shared object file' "$log" | head -n 1 | cut -d: -f1)"
    elif grep -q -E 'CUDA_HOME environment variable is not set|nvcc: not found|No such file or directory: .*/bin/nvcc' "$log"; then
        wg_say 'hint: the build found no CUDA toolkit: install it (or ./configure --cuda-from-pypi X.Y) and re-run ./configure, which records the toolkits it finds'
    fi
}

# wg_hint_object: the linker refused an object of another machine: which object, which machine
# (its ELF header, where the object is still there: the build's scratch directory is kept after
# a failure; else the linker's "EM: N"), and what to do
wg_hint_object() {
    wg_hl=$(grep -E 'file in wrong format|Relocations in generic ELF' "$log" | head -n 1)
    wg_ho=$(printf '%s\n' "$wg_hl" | sed -n -E 's/^.*: ([^:]+): (Relocations in generic ELF|error adding symbols: file in wrong format|file in wrong format).*$/\1/p')
    wg_hm=$(grep -o -E 'Relocations in generic ELF \(EM: [0-9]+\)' "$log" | head -n 1 | grep -o -E '[0-9]+' || true)
    wg_hf=''
    if [ -n "$wg_ho" ]; then
        case $wg_ho in
            /*) [ ! -f "$wg_ho" ] || wg_hf=$wg_ho ;;
            *) [ -z "${scratch:-}" ] || [ ! -d "$scratch" ] ||
                wg_hf=$(find "$scratch" -path "*/${wg_ho#./}" -type f 2>/dev/null | head -n 1) ;;
        esac
    fi
    # e_machine: 2 bytes at offset 18 (a little-endian ELF: byte 5 is 1)
    if [ -n "$wg_hf" ] && [ "$(od -An -tu1 -j5 -N1 "$wg_hf" 2>/dev/null | tr -d ' ')" = 1 ]; then
        wg_hm=$(od -An -tu1 -j18 -N2 "$wg_hf" | awk '{ print $1 + 256 * $2 }')
    fi
    # (its name: gen/platform.c's, from wheelgen-step)
    wg_hn='another machine'
    if [ -n "$wg_hm" ]; then
        wg_hn=$("$B/wheelgen-step" elf-machines 2>/dev/null | awk -v m="$wg_hm" '$1 == m { print $2 }')
        [ -n "$wg_hn" ] || wg_hn="ELF machine $wg_hm"
    fi
    wg_hd=''
    [ -z "$wg_hf" ] || ! command -v file >/dev/null 2>&1 || wg_hd=" ($(file -b "$wg_hf" | cut -d, -f1-2))"
    # shellcheck disable=SC2016 # ($CC: the variables' names)
    wg_say 'hint: the linker refused %s, an object for %s%s, in a build for %s: the step that compiled it did not use the cross compilers. A CMake build reads them from the toolchain file wheelgen hands over (CMAKE_TOOLCHAIN_FILE, CMAKE_ARGS); a build that runs gcc, g++ or nvcc by a fixed name, or ships prebuilt objects, needs a patch (patches:) to use $CC, $CXX and $NVCC (docs/troubleshooting.md, "Cross builds")' \
        "${wg_ho:-an object}" "$wg_hn" "$wg_hd" "${WG_PLATFORM:-$(uname -m)}"
}

# Run a command, logged.  fd 3 (our caller's stderr, kept for the failure
# report) is closed for it: a daemon left behind by a build (a compiler
# server, say) would otherwise hold ninja's pipe open and hang it.
wg_run() {
    printf '+ %s\n' "$*"
    "$@" 3>&-
}

# wg_install ARGS...: install into the venv of $py, with uv when the spec names one (it
# links torch's gigabytes from its cache in about a second; pip unpacks them every time)
# wg_uv ARGS...: run uv with wheelgen's cache, no progress bars, no Python downloads
wg_uv() {
    UV_CACHE_DIR=${UV_CACHE_DIR:-$B/cache/uv} UV_NO_PROGRESS=1 UV_PYTHON_DOWNLOADS=never \
        wg_run "$WG_UV" "$@"
}

# what a step says when uv's cache alone (--offline) did not do: the failure report counts no
# error before it (wg_first_errors_of)
wg_offline_note="that did not work from uv's cache alone (--offline); asking the index"

# wg_uv_cached ARGS...: a uv command that reads a package index (venv --seed, pip install),
# from uv's cache alone (--offline) when wheelgen asked that index less than a day ago (a stamp
# per index in uv's cache: wheelgen-index-checked.<cksum of its URL>) and the cache has
# everything, else from the index. An index that sends no cache headers (a proxy, a devpi or
# Artifactory mirror) would otherwise cost a round trip per package in every venv, about 0.3 s
# each time for setuptools and wheel; PyPI's own cache headers allow 10 minutes. So within a
# day a new release on the index may be missed (a newer setuptools, a torch patch release);
# WHEELGEN_UV_REFRESH=1 asks the index every time. wg_uv_index names the index (the torch
# index, or empty for the default one); wg_uv_clean names a directory to remove before the
# online try (what a failed offline try may have left: a half-made venv).
wg_uv_cached() {
    wg_uv_fresh "${wg_uv_index:-}"
    if [ "$wg_fresh" = yes ]; then
        # what the offline try says is kept apart: when it fails, its errors are logged as
        # wheelgen's lines ("wheelgen: (offline try) ..."), which no failure report counts
        # as the cause (wg_first_errors_of)
        wg_off=${TMPDIR:-/tmp}/wheelgen-uv-offline.$$
        if wg_uv "$@" --offline >"$wg_off" 2>&1; then
            cat "$wg_off"
            rm -f "$wg_off"
            return 0
        fi
        wg_say_lines '(offline try) ' <"$wg_off"
        rm -f "$wg_off"
        wg_say 'note: %s' "$wg_offline_note"
        [ -z "${wg_uv_clean:-}" ] || rm -rf "$wg_uv_clean"
    fi
    wg_uv "$@" || return
    { mkdir -p "${wg_stamp%/*}" && : >>"$wg_stamp" && touch "$wg_stamp"; } 2>/dev/null || :
}

# wg_uv_fresh INDEX: wg_fresh=yes when wheelgen asked INDEX (empty: the default one) less than
# a day ago and WHEELGEN_UV_REFRESH is unset, else no; wg_stamp names its stamp.
# Decided once per step and index, so that a step that finds the stamp old asks the index for
# everything it installs from it.
wg_uv_fresh() {
    wg_key=$(printf '%s' "${1:-default}" | cksum | cut -d' ' -f1)
    wg_stamp=${UV_CACHE_DIR:-$B/cache/uv}/wheelgen-index-checked.$wg_key
    eval "wg_fresh=\${wg_uv_fresh_$wg_key:-}"
    if [ -z "$wg_fresh" ]; then
        wg_fresh=no
        if [ -z "${WHEELGEN_UV_REFRESH:-}" ] && [ -n "$(find "$wg_stamp" -mmin -1440 2>/dev/null)" ]; then
            wg_fresh=yes
        fi
        eval "wg_uv_fresh_$wg_key=\$wg_fresh"
    fi
}

# wg_uv_build ARGS...: uv build, whose build environment (an isolated build's requirements)
# comes from uv's cache alone under the rule of wg_uv_cached: a fresh stamp of the default index
# builds --offline, and only an offline try that failed for want of the network (uv: "not found
# in the cache", "the network was disabled": a requirement the cache lacks) is built again from
# the index; any other failure is the build's. The output
# streams into the log as the build goes; a failure report counts the errors after the note
# (wg_first_errors_of). A build without isolation resolves nothing: it runs as it is.
wg_uv_build() {
    wg_uv_fresh ''
    case " $* " in *" --no-build-isolation "*) wg_fresh=no ;; esac
    if [ "$wg_fresh" = yes ]; then
        wg_off=${TMPDIR:-/tmp}/wheelgen-uv-build.$$
        { wg_uv build "$@" --offline 2>&1; echo "$?" >"$wg_off.rc"; } | tee "$wg_off"
        wg_rc=$(cat "$wg_off.rc" 2>/dev/null || echo 1)
        if [ "$wg_rc" != 0 ] && grep -q -e 'the network was disabled' -e 'not found in the cache' "$wg_off"; then
            rm -f "$wg_off" "$wg_off.rc"
            wg_say 'note: %s' "$wg_offline_note"
        else
            rm -f "$wg_off" "$wg_off.rc"
            return "$wg_rc"
        fi
    fi
    wg_uv build "$@"
}

wg_install() {
    if [ -n "${WG_UV:-}" ]; then
        wg_uv_cached pip install --python "$py" "$@"
    else
        wg_run "$py" -m pip install "$@"
    fi
}

# wg_list: log what the venv of $py holds
wg_list() {
    if [ -n "${WG_UV:-}" ]; then
        wg_uv pip list --python "$py"
    else
        wg_run "$py" -m pip list
    fi
}

# wg_install_torch ARGS... SPEC: torch (with its CUDA libraries) from WG_TORCH_INDEX, or PyPI when empty
wg_install_torch() {
    if [ -n "${WG_TORCH_INDEX:-}" ]; then
        wg_uv_index=$WG_TORCH_INDEX
        wg_install --index-url "$WG_TORCH_INDEX" "$@"
        wg_rc=$?
        wg_uv_index=''
        return "$wg_rc"
    else
        wg_install "$@"
    fi
}

# wg_header_mtimes DIR: one mtime (2000-01-01) for every file under DIR's include directories.
# GCC's #pragma once takes two headers of the same size, mtime (in seconds) and content for one
# file, and skips the second: torch 2.13 has eleven such headers (ATen/ops/*_native.h that declare
# nothing), and their mtimes are the moments uv unpacked them, so which of them a compile read,
# and with it the preprocessed output that ccache hashes, changed from one install to the next
# (the next Python of a torch cell missed the compile cache when the unpacking of those eleven
# crossed a second, more often on a busy machine). With one mtime it is the same everywhere.
wg_header_mtimes() {
    find "$1" -path '*/include/*' -type f -exec touch -m -d @946684800 {} + 2>/dev/null || true
}

# wg_pth NAME DIR: put DIR on the sys.path of the venv of $py (NAME.pth in its site-packages)
wg_pth() {
    wg_sp=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    printf '%s\n' "$2" >"$wg_sp/$1.pth"
}

# wg_venv_uv: whether wg_venv makes the venv with uv (the spec names uv, and the Python is 3.8
# or later)
wg_venv_uv() {
    case ${WG_UV:+uv}:${WG_PYTHON:-} in
        uv:3.[0-7] | uv:3.[0-7]t | uv:2.* | :*) return 1 ;;
    esac
}

# wg_venv DIR [--bare]: a fresh venv from $WG_PYTHON_EXE, activated (VIRTUAL_ENV, PATH, py)
# (uv makes it in a fraction of a second with pip seeded from its cache; the venv module
# runs ensurepip, about 3 s per venv; uv makes venvs only of Pythons from 3.8 on, but installs
# into older ones: for 3.6 and 3.7 the venv module makes it without pip, and uv installs the
# newest pip that Python runs, where ensurepip and then pip's upgrade of itself took 5 s).
# --bare: where uv makes it, no pip is seeded (an isolated uv build's venv, which installs
# nothing with pip; linking pip's files costs a fifth of a second of the kernel's time)
wg_venv() {
    if wg_venv_uv; then
        wg_seed=--seed
        [ "${2:-}" != --bare ] || wg_seed=
        wg_uv_clean=$1
        wg_uv_cached venv ${wg_seed:+"$wg_seed"} --python "$WG_PYTHON_EXE" "$1"
        wg_uv_clean=
    else
        case ${WG_UV:+uv}:${WG_PYTHON:-} in
            uv:3.[67] | uv:3.[67]t)
                wg_run "$WG_PYTHON_EXE" -m venv --without-pip "$1"
                wg_uv_cached pip install --python "$1/bin/python" pip
                ;;
            *)
                wg_run "$WG_PYTHON_EXE" -m venv "$1"
                # The pip bundled with old Pythons (18.1 on 3.6) is too old for today's
                # pyproject builds and wheels: upgrade it then, and only then (it costs seconds).
                if ! "$1/bin/python" -c 'import sys, pip; sys.exit(int(pip.__version__.split(".")[0]) < 22)'; then
                    wg_run "$1/bin/python" -m pip install --upgrade pip
                fi
                ;;
        esac
    fi
    VIRTUAL_ENV=$1
    PATH=$VIRTUAL_ENV/bin:$PATH
    export VIRTUAL_ENV PATH
    py=$VIRTUAL_ENV/bin/python
    wg_run "$py" --version
}
