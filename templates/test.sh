#!/bin/sh
# wheelgen test edge: ninja's tests/CELL.done. Takes the test's record from a restored cell's
# manifest (wheelgen restore --test) or runs the test (test-host.sh, or test-container.sh), and
# records the outcome whatever it is, so that the index of the passing cells is still written
# when another cell's test fails (ninja -k 0); the next edge (tests/CELL.ok) fails for a
# failed test.
#
#   sh templates/test.sh BUILDDIR CELL BACKEND
#
# Writes BUILDDIR/tests/CELL.done ("passed SHA256", rewritten only when it changes) on a pass;
# on a failure removes it (the next ninja tests again) and writes BUILDDIR/tests/CELL.failed.
set -u
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
[ "$#" -eq 3 ] || { echo "usage: sh templates/test.sh BUILDDIR CELL BACKEND" >&2; exit 2; }
b=$1 cell=$2 backend=$3
case $cell in '' | . | .. | */* | -*) wg_fail 2 'bad cell name: %s' "$cell" ;; esac
done=$b/tests/$cell.done
mkdir -p "$b/tests"
rm -f "$b/tests/$cell.failed"
if "$b/wheelgen" restore --test --builddir "$b" "$cell" || sh "$(dirname "$0")/test-$backend.sh" "$b" "$cell"; then
    printf 'passed %s\n' "$("$b/wheelgen-step" manifest-get "$b/wheels/$cell/manifest" sha256)" >"$done.tmp"
    if cmp -s "$done.tmp" "$done"; then rm -f "$done.tmp"; else mv -f "$done.tmp" "$done"; fi
else
    rm -f "$done"
    : >"$b/tests/$cell.failed"
fi
exit 0
