#!/bin/sh
# tests/git/movetag.sh: move a tag upstream, as a force-pushed tag does.
#
#   tests/git/movetag.sh DIR REPO TAG
#
# In the bare repository DIR/repos/REPO.git (REPO with or without .git) makes a new commit whose
# parent is the commit TAG points at now, with the same tree plus the file MOVED (one more line
# "TAG moved" each time), and points TAG at it: an annotated tag stays annotated (a new tag
# object), a lightweight one stays lightweight. No branch moves. Prints the new commit id.
# Names and dates are fixed, so the same moves give the same ids.
set -eu
# shellcheck source-path=SCRIPTDIR
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

[ $# -eq 3 ] || {
	sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}
D=$(gf_abs "$1")
b=$D/repos/${2%.git}.git
tagname=$3
[ -d "$b" ] || gf_die "no repository $b"
G() { git -C "$b" "$@"; }

old=$(G rev-parse --verify -q "refs/tags/$tagname^{commit}") || gf_die "no tag $tagname in $b"
kind=$(G cat-file -t "refs/tags/$tagname")
# a date after every fixture commit, and a different one per depth, so a move is never a no-op
depth=$(G rev-list --count "$old")
t=$((1800000000 + 60 * depth))
GIT_AUTHOR_DATE="@$t +0000"
GIT_COMMITTER_DATE="@$t +0000"
export GIT_AUTHOR_DATE GIT_COMMITTER_DATE

tmp=$(mktemp -d "${TMPDIR:-/tmp}/movetag.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
idx=$tmp/index
# the old tree, with MOVED (its old content plus one line) replaced, through a private index
prev=$(G cat-file -p "$old:MOVED" 2>/dev/null || true)
blob=$(printf '%s%s moved\n' "${prev:+$prev
}" "$tagname" | G hash-object -w --stdin)
GIT_INDEX_FILE=$idx G read-tree "$old"
GIT_INDEX_FILE=$idx G update-index --add --cacheinfo "100644,$blob,MOVED"
tree=$(GIT_INDEX_FILE=$idx G write-tree)
new=$(echo "move $tagname" | G commit-tree "$tree" -p "$old")
if [ "$kind" = tag ]; then
	G tag -f -a -m "$tagname (moved)" "$tagname" "$new" >/dev/null
else
	G update-ref "refs/tags/$tagname" "$new" "$(G rev-parse "refs/tags/$tagname")"
fi
echo "$new"
