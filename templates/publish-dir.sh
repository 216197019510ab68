#!/bin/sh
# publish-dir.sh BUILDDIR CELL DEST: copy a tested cell's wheel and manifest into the
# directory DEST (the config's publish.dir), each through a temporary and a rename, then
# mark the cell published. An interrupted copy never leaves the cell marked done.
set -eu
[ $# -eq 3 ] || { echo "usage: publish-dir.sh BUILDDIR CELL DEST" >&2; exit 2; }
builddir=$1 cell=$2 dest=$3
manifest=$builddir/wheels/$cell/manifest
stamp=$builddir/publish/$cell.done
filename=$(sed -n 's/^filename=//p' "$manifest")
[ -n "$filename" ] || { echo "wheelgen: publish $cell: no filename in $manifest" >&2; exit 1; }
mkdir -p "$dest" "$builddir/publish"
rm -f "$stamp"
for f in "$builddir/wheels/$cell/$filename" "$manifest"; do
	name=$(basename "$f")
	[ "$name" = manifest ] && name=$cell.manifest
	cp "$f" "$dest/.$name.tmp.$$"
	mv "$dest/.$name.tmp.$$" "$dest/$name"
done
sha=$(sed -n 's/^sha256=//p' "$manifest")
printf '%s\n' "$sha" >"$stamp.tmp.$$"
mv "$stamp.tmp.$$" "$stamp"
