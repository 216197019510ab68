#!/bin/sh
# wheelgen shared-wheel edge: ninja's wheels/CELL/manifest for a cell whose wheel another cell
# builds (abi: abi3: one wheel for every Python; torch_abi: stable: one wheel for every torch).
# Hard-links the builder's wheel and METADATA into BUILDDIR/wheels/CELL/ and writes CELL's
# manifest: the builder's, with this cell's id, Python, torch and key, abi_from=BUILDER,
# test_torch (the torch minor this cell tests with, when it is not the builder's), and without
# the builder's test record (tested=, gpu=: this cell is tested here). The test step installs
# that one wheel into a venv of CELL's Python (and torch); the index lists it once per variant.
#
#   sh templates/abi-share.sh BUILDDIR BUILDER CELL CONFIG
#
# The manifest is rewritten only when it changes (ninja's restat: nothing downstream reruns).
set -eu
# shellcheck source=templates/voice.sh
. "$(dirname "$0")/voice.sh"
[ "$#" -eq 4 ] || { echo "usage: sh templates/abi-share.sh BUILDDIR BUILDER CELL CONFIG" >&2; exit 2; }
b=$1 from=$2 cell=$3 config=$4
for c in "$from" "$cell"; do
    case $c in '' | . | .. | */* | -*) wg_fail 2 'bad cell name: %s' "$c" ;; esac
done
wg_voice "$cell"
src=$b/wheels/$from dst=$b/wheels/$cell
man=$src/manifest
[ -f "$man" ] || wg_fail 1 'the manifest of %s is missing (ninja wheel/%s)' "$from" "$from"
# the manifest's reader and writer (gen/manifest.c, through its static step tool)
step=$b/wheelgen-step
[ -x "$step" ] || wg_fail 1 '%s not found: re-run ./configure (it builds wheelgen-step beside wheelgen)' "$step"
wheel=$("$step" manifest-get "$man" filename) || exit 1
case $wheel in
    '' | */* | .*) wg_fail 1 "%s names no plain wheel file ('%s')" "$man" "$wheel" ;;
esac
# this cell's Python and torch, from its test spec (the manifest's are the builder's)
specvar() { sed -n "s/^$1='\{0,1\}\([^']*\)'\{0,1\}$/\1/p" "$b/cells/$cell/test" | head -n 1; }
py=$(specvar WG_PYTHON)
torch=$(specvar WG_TORCH)
[ -n "$py" ] || wg_fail 1 'no WG_PYTHON in %s/cells/%s/test' "$b" "$cell"
# another Python installs the wheel only when it is abi3 (or pure Python)
if [ "$py" != "$("$step" manifest-get "$man" python)" ]; then
    case $wheel in
        *-abi3-*.whl | *-none-*.whl) ;;
        *) wg_fail 1 "%s built %s, which is not an abi3 wheel: the package's 'abi: abi3' does not hold (its build must pass py_limited_api)" "$from" "$wheel" ;;
    esac
fi
mkdir -p "$dst"
# the builder's files, linked (copied across file systems); older wheels of this cell go
for f in "$dst"/*.whl "$dst"/METADATA; do
    [ -e "$f" ] || continue
    [ "$(basename "$f")" = "$wheel" ] || [ "$(basename "$f")" = METADATA ] || rm -f "$f"
done
for f in "$wheel" METADATA; do
    [ -e "$src/$f" ] || continue
    # (the same file already: the same inode)
    if [ "$(stat -c %d:%i "$src/$f")" != "$(stat -c %d:%i "$dst/$f" 2>/dev/null)" ]; then
        ln -f "$src/$f" "$dst/$f.tmp" 2>/dev/null || cp -p "$src/$f" "$dst/$f.tmp"
        mv -f "$dst/$f.tmp" "$dst/$f"
    fi
done
# this cell's key (its own inputs: they change whenever the builder's do)
key=$("$b/wheelgen" key --builddir "$b" --config "$config" --host "$b/host.txt" "$cell") || exit 1
key=${key%% *}
# the builder's manifest with this cell's fields
set -- --set cell "$cell" --set python "$py" --set torch "$torch" --set key "$key" --set abi_from "$from"
# torch_abi: stable: the test installs this cell's torch minor, not the one the wheel was built with
if [ -n "$torch" ] && [ "$torch" != "$("$step" manifest-get "$man" torch)" ]; then
    set -- "$@" --set test_torch "$torch.*"
fi
"$step" manifest-write "$dst/manifest" --from "$man" --drop key --drop abi_from \
    --drop test_torch --drop tested --drop gpu "$@" >/dev/null
