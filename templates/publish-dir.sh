#!/bin/sh
# wheelgen publisher: copy files into a directory (the config's publish.dir, or publish.index_dir
# for the index).
#
#   sh templates/publish-dir.sh [--dry-run] [--tmp-dir REL] [--no-replace] [--prefix REL] DEST FILE...
#                                   each FILE as DEST/[REL/]<its name>
#   sh templates/publish-dir.sh [--dry-run] --tree DIR DEST  DIR's files at the same paths
#                                                            under DEST
# (--retries, --timeout and --stall are accepted, as publish-http.sh takes them, and mean
# nothing here)
#
# Each file goes through a temporary beside its destination (with --tmp-dir REL, under DEST/REL/,
# where a store's stray temporaries are found: wheelgen store --unused) and a rename, so a reader
# never sees half a file; a file whose destination already has the same bytes is not touched.
# With --no-replace a destination that is there already stays (the temporary is linked into
# place, which fails where a file is), and the exit status is 4. With
# --tree, the files under files/ go first and the pages after them, deepest first, so that no
# page ever names a file that is not there yet; afterwards the index pages (index.html,
# index.json) and files/ entries under DEST that DIR no longer has are removed, and nothing
# else. --dry-run prints what it would copy and remove.
set -eu
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
wg_voice dir

usage() {
    printf 'usage: sh templates/publish-dir.sh [--dry-run] [--tmp-dir REL] [--no-replace] [--prefix REL] DEST FILE...\n       sh templates/publish-dir.sh [--dry-run] --tree DIR DEST\n' >&2
    exit 2
}
dry=0
tree=
prefix=
tmpdir=
noreplace=0
while [ "$#" -gt 0 ]; do
    case $1 in
        --dry-run) dry=1 ;;
        --no-replace) noreplace=1 ;;
        --tree | --prefix | --tmp-dir | --retries | --timeout | --stall)
            [ "$#" -ge 2 ] || usage
            case $1 in
                --tree) tree=$2 ;;
                --prefix) prefix=${2%/}/ ;;
                --tmp-dir) tmpdir=${2%/}/ ;;
            esac
            shift
            ;;
        -h | --help) usage ;;
        -*) usage ;;
        *) break ;;
    esac
    shift
done
[ "$#" -ge 1 ] || usage
dest=${1%/}
shift
# shellcheck source=templates/publish-lib.sh
. "$(dirname "$0")/publish-lib.sh"
wg_pub_rel --tmp-dir "$tmpdir"
wg_pub_operands publish "$tree" "$#"

# put SRC REL: SRC as DEST/REL
put() {
    if [ -f "$dest/$2" ] && cmp -s "$1" "$dest/$2"; then
        return 0
    fi
    if [ "$dry" = 1 ]; then
        wg_say 'dry-run: copy %s to %s' "$1" "$dest/$2"
        return 0
    fi
    # (a failure names the file and the store, with the system's reason: a full disk, no permission)
    case $2 in
        */*) wg_dir=$dest/${2%/*} ;;
        *) wg_dir=$dest ;;
    esac
    wg_tmp=$dest/$2.tmp.$$
    [ -z "$tmpdir" ] || wg_tmp=$dest/$tmpdir${2##*/}.tmp.$$
    if ! wg_err=$(mkdir -p "$wg_dir" "${wg_tmp%/*}" 2>&1); then
        wg_fail 1 'cannot write %s to the store %s: %s' "$2" "$dest" "${wg_err##*: }"
    fi
    if ! wg_err=$(cp "$1" "$wg_tmp" 2>&1); then
        rm -f "$wg_tmp"
        wg_fail 1 'cannot write %s to the store %s: %s' "$2" "$dest" "${wg_err##*: }"
    fi
    if [ "$noreplace" = 1 ]; then
        # (link(2) makes the name only where there is none: the first one there stays)
        if ! ln "$wg_tmp" "$dest/$2" 2>/dev/null; then
            rm -f "$wg_tmp"
            if [ -e "$dest/$2" ]; then
                wg_fail 4 '%s is there already: not replaced' "$dest/$2"
            fi
            wg_fail 1 'cannot write %s to the store %s' "$2" "$dest"
        fi
        rm -f "$wg_tmp"
    elif ! wg_err=$(mv -f "$wg_tmp" "$dest/$2" 2>&1); then
        rm -f "$wg_tmp"
        wg_fail 1 'cannot write %s to the store %s: %s' "$2" "$dest" "${wg_err##*: }"
    fi
    wg_say '%s' "$dest/$2"
}

if [ -z "$tree" ]; then
    wg_pub_files publish "$prefix" "$@"
    exit 0
fi

list=$(mktemp "${TMPDIR:-/tmp}/wgpublist.XXXXXX")
trap 'rm -f "$list" "$list.old"' EXIT
wg_pub_tree "$tree" "$list"
# what DEST has from an earlier publish and DIR no longer has
if [ -d "$dest" ]; then
    (cd "$dest" && find . -type f \( -name index.html -o -name index.json -o -path './files/*' \) | sed 's|^\./||') >"$list.old"
    while IFS= read -r rel; do
        [ ! -e "$tree/$rel" ] || continue
        if [ "$dry" = 1 ]; then
            wg_say 'dry-run: remove %s' "$dest/$rel"
        else
            rm -f "$dest/$rel"
            rmdir "$(dirname "$dest/$rel")" 2>/dev/null || true
            wg_say 'removed %s' "$dest/$rel"
        fi
    done <"$list.old"
fi
