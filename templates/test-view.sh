#!/bin/sh
# test-view.sh: run a command where a user stands, inside a new mount namespace that
# test-host.sh made (unshare) for the test of a cell: the directories listed in VIEW/dirs
# (CUDA toolkits, the cell's build tree) become empty, and the libraries listed in VIEW/files
# (the toolkit's, where the loader looks besides) are covered by VIEW/stub, an ELF header of
# the other class, which the loader passes over as it does another machine's library.
#
#   sh templates/test-view.sh VIEW CMD [ARG...]
#
# With WG_VIEW_UID and WG_VIEW_GID (test-host.sh under sudo), CMD runs as that user again, with
# the environment VIEW/env holds (export -p), which sudo did not pass on.
set -eu
v=$1
shift
while IFS= read -r f; do
    [ ! -e "$f" ] || mount --bind "$v/stub" "$f"
done <"$v/files"
while IFS= read -r d; do
    mount -t tmpfs -o size=64k,mode=0755 wheelgen-view "$d"
done <"$v/dirs"
if [ -n "${WG_VIEW_UID:-}" ]; then
    # shellcheck disable=SC2016 # (the inner shell's words)
    exec setpriv --reuid="$WG_VIEW_UID" --regid="${WG_VIEW_GID:?}" --init-groups sh -c '. "$1"; shift; exec "$@"' sh "$v/env" "$@"
fi
exec "$@"
