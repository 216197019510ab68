#!/bin/sh
# wheelgen publish step: send a tested cell's wheel, or the index, where the config's
# publish: says (BUILDDIR/publish.spec, written by wheelgen gen).
#
#   sh templates/publish.sh BUILDDIR CELL [RELEASE]  (ninja publish/<cell>, ninja publish)
#   sh templates/publish.sh --index BUILDDIR         (ninja publish-index)
#
# A cell's wheel, its .metadata (PEP 658) and its manifest (as <cell>.manifest, with the
# test's record: tested=<sha256>, gpu=...), in that order, go to each of
#   publish.dir     a directory                 (templates/publish-dir.sh)
#   publish.http    HTTP PUT under a URL        (templates/publish-http.sh)
#   publish.github  a GitHub release's assets   (templates/publish-github.sh)
# The manifest goes last: a reader that finds it finds the wheel (the store, wheelgen restore);
# a directory or HTTP store keeps the wheel and its .metadata at blobs/<sha256>/ (the manifest's
# stored=). Then BUILDDIR/publish/<cell>.done records the sha256 of the wheel the store's manifest
# names: this build's, or, when another publisher's build of the cell won a race, that one's
# (and a line built=<this build's sha256>). Every transfer has
# the time limits publish.timeout and publish.stall_timeout. The mark is removed
# first and written last, so an interrupted or failed upload never leaves the cell marked
# published. The index (BUILDDIR/index) goes to publish.index_dir and/or publish.index_http;
# over HTTP only the files that changed since the last publish-index are sent
# (BUILDDIR/publish-index.state).
#
# publish.github: the cell's files go to the release RELEASE (the graph computes it from the
# cell: wheelgen's store.h, storerelease), and its manifest says stored=RELEASE/<file name>. A
# file over 2 GiB (GitHub's limit on an asset) is refused before anything is sent.
#
# A store that timed out (a publisher's exit status 3) is given up on for the rest of the ninja
# run: BUILDDIR/store-down/<hash of the store> records the run (BUILDDIR/.lock) and the
# message, and the other cells of the run fail at once with it (wheelgen's store.h).
#
# WG_PUBLISH_DRY_RUN=1 passes --dry-run to every publisher: they print what they would send,
# send nothing, and no cell is marked published.
set -eu
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
wg_voice publish

usage() {
    printf 'usage: sh templates/publish.sh BUILDDIR CELL [RELEASE]\n       sh templates/publish.sh --index BUILDDIR\n' >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
index=0
if [ "${1:-}" = --index ]; then
    index=1
    shift
    [ "$#" -eq 1 ] || usage
else
    [ "$#" -eq 2 ] || [ "$#" -eq 3 ] || usage
fi
builddir=${1%/}
spec=$builddir/publish.spec
[ -f "$spec" ] || wg_fail 1 '%s is missing (run ninja build.ninja)' "$spec"
# shellcheck source=/dev/null
. "$spec"
dry=
case ${WG_PUBLISH_DRY_RUN:-0} in
    0 | '') ;;
    *) dry=--dry-run ;;
esac

if [ "$index" = 1 ]; then
    [ -f "$builddir/index/simple/index.html" ] || wg_fail 1 'no index in %s/index (run ninja index)' "$builddir"
    if [ -n "$WG_PUBLISH_INDEX_DIR" ]; then
        sh "$here/publish-dir.sh" $dry --tree "$builddir/index" "$WG_PUBLISH_INDEX_DIR"
    fi
    if [ -n "$WG_PUBLISH_INDEX_HTTP" ]; then
        sh "$here/publish-http.sh" $dry --retries "$WG_PUBLISH_RETRIES" --timeout "$WG_PUBLISH_TIMEOUT" \
            --stall "$WG_PUBLISH_STALL" --state "$builddir/publish-index.state" --tree "$builddir/index" "$WG_PUBLISH_INDEX_HTTP"
    fi
    exit 0
fi

cell=$2
release=${3:-}
wg_voice
case $cell in
    '' | . | .. | */* | -*) wg_fail 2 'bad cell name: %s' "$cell" ;;
esac
wg_voice "publish $cell"
manifest=$builddir/wheels/$cell/manifest
stamp=$builddir/publish/$cell.done
[ -f "$manifest" ] || wg_fail 1 'no manifest (ninja wheel/%s)' "$cell"
# the manifest's reader and the store's layout (gen/manifest.c, gen/storelayout.c: their step tool)
step=$builddir/wheelgen-step
[ -x "$step" ] || wg_fail 1 '%s not found: re-run ./configure (it builds wheelgen-step beside wheelgen)' "$step"
filename=$("$step" manifest-get "$manifest" filename) || exit 1
sha=$("$step" manifest-get "$manifest" sha256) || exit 1
if [ -z "$filename" ] || [ -z "$sha" ]; then
    wg_fail 1 'no filename or sha256 in %s' "$manifest"
fi
wheel=$builddir/wheels/$cell/$filename
[ "$(sha256sum "$wheel" | cut -d' ' -f1)" = "$sha" ] ||
    wg_fail 1 '%s does not match the sha256 its manifest records (rebuild: ninja wheel/%s)' "$wheel" "$cell"
if [ -z "$dry" ]; then
    mkdir -p "$builddir/publish"
    rm -f "$stamp"
fi
set -- "$wheel"
[ ! -f "$wheel.metadata" ] || set -- "$@" "$wheel.metadata"
# GitHub holds at most 2 GiB an asset: refused before anything is sent anywhere
if [ -n "$WG_PUBLISH_GITHUB_REPO" ]; then
    for f in "$@"; do
        size=$(wc -c <"$f" | tr -d ' ')
        if [ "$size" -gt 2147483648 ]; then
            wg_fail 1 '%s is %s bytes, over the 2 GiB (2147483648 bytes) GitHub allows an asset; nothing sent' "${f##*/}" "$size"
        fi
    done
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wgpub.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# the manifest under a name that says whose it is, with the test's record (publish/<cell>
# depends on test/<cell>): the store's entry of the cell, read back by wheelgen restore
tested=$builddir/tests/$cell.ok
[ "$(sed -n 1p "$tested" 2>/dev/null)" = "$sha" ] ||
    wg_fail 1 '%s does not record a passed test of this wheel (ninja test/%s)' "$tested" "$cell"
# the store's entries of the cell: a directory or HTTP store keeps the wheel at its blob
# (blobs/<sha256>/<file>: a name that never holds other bytes), a GitHub store in the cell's
# release; each entry's stored= says which
blob=$("$step" store-blob "$sha" "$filename") || exit 1
blob=${blob%/*}
mkdir -p "$tmp/blob"
"$step" manifest-entry "$tmp/blob/$cell.manifest" "$manifest" "$tested" --blob || exit 1
marked=$sha
limits="--retries $WG_PUBLISH_RETRIES --timeout $WG_PUBLISH_TIMEOUT --stall $WG_PUBLISH_STALL"

# the ninja run this step belongs to: "pid start" of BUILDDIR/.lock while that ninja runs
run=
if read -r lpid lstart <"$builddir/.lock" 2>/dev/null && [ -r "/proc/$lpid/stat" ] &&
    [ "$(sed 's/.*) //' "/proc/$lpid/stat" | cut -d' ' -f20)" = "$lstart" ]; then
    run="$lpid $lstart"
fi
# downmark STORE: the file that says this run gave up on STORE (keyed as wheelgen keys it: the
# directory or URL, ending in '/')
downmark() {
    printf '%s/store-down/%s' "$builddir" "$(printf '%s/' "${1%/}" | sha256sum | cut -c1-16)"
}
# send STORE PUBLISHER ARGS...: run the publisher for STORE, unless this run gave STORE up; a
# timeout (status 3) gives it up for the run. Any failure ends the publish, naming the cell.
send() {
    wg_store=$1
    shift
    wg_mark=$(downmark "$wg_store")
    if [ -n "$run" ] && [ -f "$wg_mark" ] && [ "$(sed -n 1p "$wg_mark")" = "$run" ]; then
        wg_fail 1 '%s (given up on earlier in this run: not tried again)' "$(sed -n 2p "$wg_mark")"
    fi
    wg_st=0
    "$@" 2>"$tmp/err" || wg_st=$?
    cat "$tmp/err" >&2
    [ "$wg_st" != 0 ] || return 0
    # (--no-replace: the name is taken; the caller decides)
    [ "$wg_st" != 4 ] || return 4
    if [ "$wg_st" = 3 ] && [ -n "$run" ]; then
        mkdir -p "${wg_mark%/*}"
        { printf '%s\n' "$run"; tail -n 1 "$tmp/err" | wg_unsay '[a-z]*: '; } >"$wg_mark.tmp.$$"
        mv -f "$wg_mark.tmp.$$" "$wg_mark"
    fi
    wg_fail 1 'the store %s failed (see above); the cell is not marked published' "$wg_store"
}

# A directory or an HTTP store: the wheel and its .metadata under blobs/<their sha256>/, then
# the manifest, each through a temporary (under the store's tmp/, where a killed publish's are
# found: wheelgen store --unused) moved into place (rename; WebDAV MOVE): a manifest only ever
# names bytes the store holds, whenever a publish is killed, and publishers of one cell never
# overwrite each other's wheel. The manifest goes in only where the store has none (link(2);
# MOVE with Overwrite: F), or one of other inputs or damaged: of two publishers of one key the
# first entry stays, the other publisher adopts it and says so, and its mark records the bytes
# the store names.
storetmp=$("$step" store-tmp) || exit 1
entry=$tmp/blob/$cell.manifest
mykey=$("$step" manifest-get "$entry" key) || exit 1
# current DEST: the store's manifest of the cell now (nothing when it has none)
current() {
    case $1 in
        http://* | https://*) sh "$here/publish-http.sh" --timeout "$WG_PUBLISH_TIMEOUT" --stall "$WG_PUBLISH_STALL" --cat "$cell.manifest" "$1" ;;
        *) cat "$1/$cell.manifest" 2>/dev/null || true ;;
    esac
}
# field TEXT NAME: a field of the manifest TEXT
field() {
    printf '%s\n' "$1" | { "$step" manifest-get - "$2" 2>/dev/null || :; }
}
# sound DEST TEXT: is the store's entry TEXT of this cell's key, tested, with its wheel there at its size?
sound() {
    [ "$(field "$2" key)" = "$mykey" ] && [ -n "$mykey" ] || return 1
    wg_s=$(field "$2" sha256)
    [ "$(field "$2" tested)" = "$wg_s" ] || return 1
    wg_at=$(field "$2" stored)
    [ -n "$wg_at" ] || wg_at=$(field "$2" filename)
    case $1 in
        http://* | https://*)
            wg_size=$(sh "$here/publish-http.sh" --timeout "$WG_PUBLISH_TIMEOUT" --stall "$WG_PUBLISH_STALL" --size "$wg_at" "$1") || return 1 ;;
        *) wg_size=$(wc -c <"$1/$wg_at" 2>/dev/null | tr -d ' ') || return 1 ;;
    esac
    [ -n "$wg_size" ] && [ "$wg_size" = "$(field "$2" size)" ]
}
# place DEST PUBLISHER: the manifest into DEST, unless DEST holds a sound entry of the key already
place() {
    wg_tries=0
    while :; do
        wg_cur=$(current "$1")
        if [ -n "$wg_cur" ]; then
            # (the first publisher's entry of this key stays; one of other inputs, or damaged, goes)
            sound "$1" "$wg_cur" && return 0
            # shellcheck disable=SC2086
            send "$1" sh "$here/$2" $limits --tmp-dir "$storetmp" "$1" "$entry"
            return 0
        fi
        wg_st=0
        # shellcheck disable=SC2086
        send "$1" sh "$here/$2" $limits --tmp-dir "$storetmp" --no-replace "$1" "$entry" || wg_st=$?
        [ "$wg_st" = 4 ] || return 0
        wg_tries=$((wg_tries + 1))
        if [ "$wg_tries" -ge 3 ]; then
            wg_fail 1 '%s: its manifest of the cell came and went three times while this publish placed its own' "$1"
        fi
    done
}
for dest in "$WG_PUBLISH_DIR" "$WG_PUBLISH_HTTP"; do
    [ -n "$dest" ] || continue
    case $dest in
        http://* | https://*) pub=publish-http.sh ;;
        *) pub=publish-dir.sh ;;
    esac
    # shellcheck disable=SC2086
    send "$dest" sh "$here/$pub" $dry $limits --tmp-dir "$storetmp" --prefix "$blob" "$dest" "$@"
    if [ -n "$dry" ]; then
        # shellcheck disable=SC2086
        send "$dest" sh "$here/$pub" $dry $limits "$dest" "$entry"
        continue
    fi
    place "$dest" "$pub"
    now=$(field "$(current "$dest")" sha256)
    if [ -z "$now" ]; then
        wg_fail 1 '%s holds no manifest of the cell after its publish (read back: none)' "$dest"
    elif [ "$now" != "$sha" ]; then
        wg_say 'another publisher'"'"'s build of the cell (sha256 %s) is the entry of %s now; this one (sha256 %s) stays there unreferenced' \
            "$now" "$dest" "$sha" >&2
        # (the mark records the bytes the store names, not this build's)
        marked=$now
    fi
done
if [ -n "$WG_PUBLISH_GITHUB_REPO" ]; then
    [ -n "$release" ] || wg_fail 2 'publish.github needs the release of the cell (ninja publish/%s passes it)' "$cell"
    replace=
    [ "$WG_PUBLISH_GITHUB_REPLACE" != 1 ] || replace=--replace
    mkdir -p "$tmp/gh"
    "$step" manifest-entry "$tmp/gh/$cell.manifest" "$manifest" "$tested" --release "$release" || exit 1
    server=${GITHUB_SERVER_URL:-https://github.com}
    # shellcheck disable=SC2086
    send "${server%/}/$WG_PUBLISH_GITHUB_REPO/releases/download/" sh "$here/publish-github.sh" $dry $replace $limits \
        "$WG_PUBLISH_GITHUB_REPO" "$release" "$@" "$tmp/gh/$cell.manifest"
fi
[ -z "$dry" ] || exit 0
if [ "$marked" = "$sha" ]; then
    printf '%s\n' "$sha" >"$stamp.tmp.$$"
else
    printf '%s\nbuilt=%s (another publisher'"'"'s build is the store'"'"'s)\n' "$marked" "$sha" >"$stamp.tmp.$$"
fi
mv -f "$stamp.tmp.$$" "$stamp"
