#!/bin/sh
# shellcheck disable=SC2016,SC2034,SC2086,SC2012 # cases are single-quoted scripts (t_expect) using variables set here; option lists split; ls of a scratch directory
# wheelgen torch-table against a package index on 127.0.0.1 (tests/fakeindex.py: torch's page as
# PEP 691 JSON, .metadata files declaring CUDA 12.8, 13.0 and 13.2, x86_64 and aarch64 wheels,
# cp313t/cp314t/cp315t files, a build tag, a yanked release and a pre-release, an HTML index of
# +cuXYZ wheels, a mirror without .metadata whose wheels answer range requests, hostile answers):
# the rows printed, --write changing the table alone, a new minor's row and cells, the fallbacks
# and the errors (each naming its URL, nothing written)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "build wheelgen"
if t_configure "$src" --config examples/quickstart/packages.yml && (cd "$src" && ninja out/wheelgen) >"$WORK/b.log" 2>&1; then
	t_pass
else
	t_fail "$(tail -n 20 "$src.configure.log" "$WORK/b.log")"
	exit 0
fi
cd "$src" || exit 0
wg=$src/out/wheelgen

# the index: the releases it serves (VERSION CUDA ABIS...), read at every request
state=$WORK/index
mkdir -p "$state"
cat >"$state/releases" <<'EOF'
2.13.0 12.8 cp310 cp311 cp312 cp313 cp314 cp314t
2.14.0 13.0 cp310 cp311 cp312 cp313 cp314
2.14.1 13.0 cp310 cp311 cp312 cp313 cp313t cp314 cp314t
2.15.0 13.2 cp311 cp312 cp313 cp314 cp314t cp315 cp315t
2.15.1!yanked 13.2 cp311 cp312
2.15.2rc1 13.2 cp311 cp312
EOF
: >"$state/requests"
port=$(t_freeport)
python3 "$top/tests/fakeindex.py" "$port" "$state" >"$WORK/index.log" 2>&1 &
echo $! >"$WORK/index.pid"
stop_exit() {
	st=$?
	kill "$(cat "$WORK/index.pid")" 2>/dev/null
	(exit "$st")
	t_cleanup
}
trap stop_exit EXIT
base=http://127.0.0.1:$port
i=0
until curl -s -o /dev/null "$base/simple/torch/"; do
	i=$((i + 1))
	[ "$i" -lt 50 ] || { t_case "the index starts"; t_fail "$(cat "$WORK/index.log")"; exit 0; }
	sleep 0.2
done
idx="--index $base/simple/ --cuda-index $base/whl/"
: >"$state/requests"

# the config: comments, a row the index lacks, a row over two lines with single quotes (torch-table
# reads it as check does: its copy $WORK/cfg.orig finds a pkg beside it too)
mkdir -p "$WORK/cfg/pkg" "$WORK/pkg"
cfg=$WORK/cfg/torch.yml
cat >"$cfg" <<'EOF'
# a config whose torch table torch-table updates
defaults:
  python: ["3.12", "3.13"]
  cuda: ["13.0"]

# the table: the rest of the file stays byte for byte
torch:
  "2.12": {cuda: ["12.8", "13.0"], python: ["3.10", "3.11"], pypi: "12.8"}
  "2.13": {cuda: ["12.8", "13.0"], python: ["3.10", "3.11", "3.12", "3.13"], pypi: "12.8"}   # a trailing comment
  "2.14": {cuda: ["12.8", "13.0", "13.2"], python: ["3.10", "3.11", "3.12", "3.13", "3.14"], pypi: "13.0"}
  # a comment between rows
  "2.15": {cuda: ['12.8', '13.0'], python: ['3.11', '3.12'],
           pypi: '13.0'}
torch_index: "https://download.pytorch.org/whl/cu{cuda}"

packages:
  pkg:
    source: {path: pkg}
    versions: ["1.0"]
    torch: ["2.14", "2.15"]   # the minors it builds for
    test_import: pkg
    local_version: "cu{cuda}torch{torch}"
profiles:
  stable: {python: ["3.12"]}
EOF
cp "$cfg" "$WORK/cfg.orig"

t_case "torch-table prints the rows: newest release per minor (no yanked file, no pre-release), its Pythons (free-threaded as t), platforms, PyPI's CUDA from .metadata (12.8, 13.0, 13.2), the CUDA index's variants; a row the index lacks kept"
cat >"$WORK/rows.want" <<'EOF'
torch:
  "2.12": {cuda: ["12.8", "13.0"], python: ["3.10", "3.11"], pypi: "12.8"}
  "2.13": {cuda: ["12.6", "12.8", "13.0"], python: ["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t"], pypi: "12.8", platforms: ["x86_64"]}
  "2.14": {cuda: ["12.8", "13.0", "13.2"], python: ["3.10", "3.11", "3.12", "3.13", "3.13t", "3.14", "3.14t"], pypi: "13.0", platforms: ["x86_64", "aarch64"]}
  "2.15": {cuda: ["13.0", "13.2"], python: ["3.11", "3.12", "3.13", "3.14", "3.14t", "3.15", "3.15t"], pypi: "13.2", platforms: ["x86_64", "aarch64"]}
EOF
# shellcheck disable=SC2086
if "$wg" torch-table --config "$cfg" $idx >"$WORK/rows" 2>"$WORK/rows.err"; then t_cmp "$WORK/rows.want" "$WORK/rows"; else t_fail "$(cat "$WORK/rows.err")"; fi

t_expect "stderr says how the index differs from the config, and that PyPI's aarch64 wheel of 2.13 is CPU-only (so aarch64 is not among its platforms)" '
	grep -qx "wheelgen: against $cfg: torch 2.15: python + 3.13, 3.14, 3.14t, 3.15, 3.15t; cuda + 13.2 - 12.8; platforms + x86_64, aarch64; pypi 13.0 -> 13.2" "$WORK/rows.err"
	grep -q "PyPI.s aarch64 wheels of torch 2.13 are CPU-only" "$WORK/rows.err"
	! grep -q "torch 2.12" "$WORK/rows.err"'

t_expect "one .metadata per minor and platform, the page once, no wheel; 2.14's from the build-tagged rebuild; 2.13's asked for though its entries do not advertise it" '
	[ "$(grep -c "\.metadata " "$state/requests")" = 6 ]
	[ "$(grep -c "^GET /simple/torch/ " "$state/requests")" = 1 ]
	! grep -q "\.whl " "$state/requests" || exit 1
	grep -q "^GET /files/torch-2.14.1-2-cp312-cp312-manylinux_2_28_x86_64.whl.metadata " "$state/requests"
	grep -q "^GET /files/torch-2.13.0-cp314-cp314-manylinux_2_28_aarch64.whl.metadata " "$state/requests"'

t_expect "--pre: 2.15's newest is the release candidate (its two Pythons); --since 2.14 leaves 2.13 out" '
	"$wg" torch-table --config "$cfg" $idx --pre --since 2.14 >"$WORK/pre" 2>/dev/null
	grep -q "^  \"2.15\": {cuda: \[\"13.0\", \"13.2\"\], python: \[\"3.11\", \"3.12\"\], pypi: \"13.2\"" "$WORK/pre"
	! grep -q "\"2.13\": {cuda: \[\"12.6\"" "$WORK/pre"'

t_case "--write changes the table alone: comments, quoting, the two-line row, the trailing comment kept; the rest byte for byte"
cat >"$WORK/table.want" <<'EOF'
torch:
  "2.12": {cuda: ["12.8", "13.0"], python: ["3.10", "3.11"], pypi: "12.8"}
  "2.13": {cuda: ["12.6", "12.8", "13.0"], python: ["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t"], pypi: "12.8", platforms: ["x86_64"]}   # a trailing comment
  "2.14": {cuda: ["12.8", "13.0", "13.2"], python: ["3.10", "3.11", "3.12", "3.13", "3.13t", "3.14", "3.14t"], pypi: "13.0", platforms: ["x86_64", "aarch64"]}
  # a comment between rows
  "2.15": {cuda: ['13.0', '13.2'], python: ['3.11', '3.12', '3.13', '3.14', '3.14t', '3.15', '3.15t'],
           pypi: '13.2', platforms: ['x86_64', 'aarch64']}
EOF
# the file outside the table, before and after
outside() { sed '/^torch:/,/^torch_index:/{/^torch_index:/!d}' "$1"; }
table() { sed -n '/^torch:/,/^torch_index:/{/^torch_index:/!p}' "$1"; }
# shellcheck disable=SC2086
if "$wg" torch-table --write "$cfg" $idx >"$WORK/write.out" 2>"$WORK/write.err"; then
	outside "$WORK/cfg.orig" >"$WORK/outside.before"
	outside "$cfg" >"$WORK/outside.after"
	table "$cfg" >"$WORK/table"
	if cmp -s "$WORK/outside.before" "$WORK/outside.after"; then
		t_cmp "$WORK/table.want" "$WORK/table"
	else
		t_fail "outside the table:" "$(diff "$WORK/outside.before" "$WORK/outside.after")"
	fi
else
	t_fail "$(cat "$WORK/write.out" "$WORK/write.err")"
fi

t_expect "--write says each change on stdout, and that it wrote the file; nothing left beside it" '
	grep -qx "wheelgen: torch 2.14: python + 3.13t, 3.14t; platforms + x86_64, aarch64" "$WORK/write.out"
	grep -qx "wheelgen: wrote $cfg" "$WORK/write.out"
	[ "$(ls -A "$WORK/cfg")" = "pkg
torch.yml" ]'

t_expect "a second --write writes nothing: the table is up to date, the file untouched" '
	ls -li --time-style=full-iso "$cfg" >"$WORK/stat1"
	"$wg" torch-table --write "$cfg" $idx >"$WORK/again.out" 2>/dev/null
	ls -li --time-style=full-iso "$cfg" >"$WORK/stat2"
	cmp -s "$WORK/stat1" "$WORK/stat2"
	grep -qx "wheelgen: $cfg: the torch table is up to date" "$WORK/again.out"'

t_expect "the CUDA index does not answer: the cuda lists are kept, and stderr says so" '
	"$wg" torch-table --config "$WORK/cfg.orig" --index "$base/simple/" --cuda-index http://127.0.0.1:9/whl/ >"$WORK/nocuda" 2>"$WORK/nocuda.err"
	grep -q "the CUDA index http://127.0.0.1:9/whl/torch/ did not answer (.*): the cuda lists are kept as .* has them" "$WORK/nocuda.err"
	grep -q "^  \"2.15\": {cuda: \[\"12.8\", \"13.0\", \"13.2\"\]" "$WORK/nocuda"'

t_expect "an index without .metadata files (a mirror): PyPI's CUDA is kept, and stderr says so" '
	"$wg" torch-table --config "$WORK/cfg.orig" --index "$base/mirror/simple/" --cuda-index none >"$WORK/mirror" 2>"$WORK/mirror.err"
	grep -q "6 of 6 wheels have no .metadata file on the index (add --range .*): PyPI.s CUDA of those minors is kept" "$WORK/mirror.err"
	grep -q "^  \"2.15\": .*pypi: \"13.0\"" "$WORK/mirror"'

t_expect "--range reads METADATA out of those wheels by range requests (the tail, the rest of a central directory larger than 2 MiB, the member), never a whole wheel" '
	: >"$state/requests"
	"$wg" torch-table --config "$WORK/cfg.orig" --index "$base/mirror/simple/" --cuda-index none --range >"$WORK/range" 2>"$WORK/range.err"
	grep -q "^  \"2.15\": .*pypi: \"13.2\"" "$WORK/range"
	grep -q "^  \"2.13\": .*pypi: \"12.8\"" "$WORK/range"
	[ "$(grep -c "^GET /mirror/files/torch-2.15.0-cp315-cp315-manylinux_2_28_x86_64.whl bytes=" "$state/requests")" = 3 ]
	! grep -q "\.whl -$" "$state/requests"'

# a new minor appears: one new row, and (--follow) the package's cells for it
cp "$WORK/cfg.orig" "$WORK/cfg/np.yml"
np=$WORK/cfg/np.yml
mkdir -p "$WORK/store"
missing() { WHEELGEN_STORE=$WORK/store "$wg" matrix --config "$np" --missing 2>/dev/null; }
"$wg" torch-table --write "$np" --no-platforms $idx >/dev/null 2>&1 || true
missing >"$WORK/cells.before"
cp "$np" "$WORK/np.before"
echo "2.16.0 13.2 cp311 cp312 cp313 cp315t" >>"$state/releases"

t_expect "a new minor on the index: --write adds its one row in order, names the packages it could follow, and plans no cell for it yet" '
	"$wg" torch-table --write "$np" --no-platforms $idx >"$WORK/new.out" 2>"$WORK/new.err"
	[ "$(table "$np" | grep -c "^  \"2.16\": {cuda: \[\"13.0\", \"13.2\"\], python: \[\"3.11\", \"3.12\", \"3.13\", \"3.15t\"\], pypi: \"13.2\"}$")" = 1 ]
	[ "$(table "$np" | tail -n 1 | cut -c1-9)" = "  \"2.16\":" ]
	grep -qx "wheelgen: torch 2.16: a new row: .*" "$WORK/new.out"
	grep -q "1 package lists torch 2.15, the newest before: --follow adds the new minor to them" "$WORK/new.err"
	missing >"$WORK/cells.mid"
	cmp -s "$WORK/cells.before" "$WORK/cells.mid"'

t_expect "--follow: the package that lists 2.15, the newest before, gets 2.16 with its row; matrix --missing has two cells more, both 2.16's" '
	cp "$WORK/np.before" "$np"
	"$wg" torch-table --write "$np" --no-platforms --follow $idx >"$WORK/follow.out" 2>/dev/null
	grep -qx "wheelgen: package pkg: torch + 2.16" "$WORK/follow.out"
	grep -q "^    torch: \[\"2.14\", \"2.15\", \"2.16\"\]   # the minors it builds for$" "$np"
	missing >"$WORK/cells.after"
	[ "$(wc -l <"$WORK/cells.after")" = $(($(wc -l <"$WORK/cells.before") + 2)) ]
	[ "$(comm -13 "$WORK/cells.before" "$WORK/cells.after" | tr "\n" " ")" = "pkg-1.0-py312-cu130-torch2.16 pkg-1.0-py313-cu130-torch2.16 " ]
	"$wg" check --config "$np" >/dev/null'

t_expect "--drop removes the row of a minor the index lacks (2.12), and says so" '
	"$wg" torch-table --write "$np" --no-platforms --drop $idx >"$WORK/drop.out" 2>/dev/null
	grep -qx "wheelgen: torch 2.12: removed (the index has no release of it)" "$WORK/drop.out"
	! grep -q "\"2.12\"" "$np" || exit 1
	"$wg" check --config "$np" >/dev/null'

# hostile answers: an error naming the URL, nothing written
sed -i '/^2.16.0 /d' "$state/releases"
for case in malformed:"a string that never ends" deep:"nested too deep" path:"is not a plain file name" \
	tag:"has an odd version or tag" other:"is not torch's" scheme:"is not an http:// or https:// URL" \
	notutf8:"bytes that are not UTF-8" truncated:"transfer closed with" huge:"larger than 33554432 bytes" \
	hugechunked:"larger than 33554432 bytes"; do
	c=${case%%:*}
	want=${case#*:}
	cp "$WORK/cfg.orig" "$cfg"
	t_expect "a hostile page ($c): an error naming its URL ($want), nothing written" '
		! "$wg" torch-table --write "$cfg" --index "$base/bad/$c/simple/" --cuda-index none >"$WORK/bad.out" 2>"$WORK/bad.err" || exit 1
		grep "^wheelgen: error: " "$WORK/bad.err" | grep -q "$base/bad/$c/simple/torch/"
		grep -qF "$want" "$WORK/bad.err"
		cmp -s "$cfg" "$WORK/cfg.orig"
		[ "$(ls -A "$WORK/cfg" | tr "\n" " ")" = "np.yml pkg torch.yml " ]'
done
for case in version:"the metadata of 'torch' '2.14.0', not of torch 2.15.0" notutf8:"bytes that are not UTF-8" \
	huge:"larger than 1048576 bytes" marker:"a marker that does not parse" hash:"the index says"; do
	c=${case%%:*}
	want=${case#*:}
	t_expect "hostile metadata ($c): an error naming the .metadata URL ($want), nothing written" '
		! "$wg" torch-table --write "$cfg" --since 2.15 --index "$base/badmeta/$c/simple/" --cuda-index none >"$WORK/bad.out" 2>"$WORK/bad.err" || exit 1
		grep -q "^wheelgen: error: $base/badmeta/$c/files/torch-2.15.0-cp312-cp312-manylinux_2_28_x86_64.whl.metadata: " "$WORK/bad.err"
		grep -qF "$want" "$WORK/bad.err"
		cmp -s "$cfg" "$WORK/cfg.orig"'
done

t_expect "a server that stalls: given up after --timeout, the error names the URL and the limits" '
	s=$(date +%s)
	! "$wg" torch-table --config "$cfg" --timeout 2 --index "$base/bad/stall/simple/" --cuda-index none >/dev/null 2>"$WORK/stall.err" || exit 1
	[ $(($(date +%s) - s)) -lt 10 ]
	grep -q "cannot read torch.s page $base/bad/stall/simple/torch/: .*(the limits: 2 s in all, 2 s under 1 KiB/s)" "$WORK/stall.err"'

t_expect "usage: --follow without --write, --since not X.Y, an unknown option: exit status 2; a flow-mapping table cannot be written" '
	set +e
	"$wg" torch-table --follow >/dev/null 2>&1; a=$?
	"$wg" torch-table --since 2 >/dev/null 2>&1; b=$?
	"$wg" torch-table --frobnicate >/dev/null 2>&1; c=$?
	set -e
	[ "$a$b$c" = 222 ]
	printf "torch: {\"2.15\": {cuda: [\"13.0\"], python: [\"3.12\"]}}\npackages: {pkg: {source: {path: pkg}, versions: [\"1.0\"], python: [\"3.12\"], torch: [\"2.15\"], test_import: pkg}}\n" >"$WORK/flow.yml"
	cp "$WORK/flow.yml" "$WORK/flow.orig"
	! "$wg" torch-table --write "$WORK/flow.yml" $idx 2>"$WORK/flow.err" || exit 1
	grep -q "the torch table is not a block mapping" "$WORK/flow.err"
	cmp -s "$WORK/flow.yml" "$WORK/flow.orig"'
