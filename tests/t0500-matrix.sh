#!/bin/sh
# shellcheck disable=SC2016,SC2034 # (cases are single-quoted scripts: t_expect; they read wga)
# wheelgen matrix for CI (--json, --github, --tsv, --table, --profile, --shard), check, help texts
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "build wheelgen"
if t_configure "$src" --config tests/configs/good/torch-matrix.yml && (cd "$src" && ninja out/wheelgen) >"$WORK/b.log" 2>&1; then t_pass; else t_fail "$(tail -n 20 "$src.configure.log" "$WORK/b.log")"; exit 0; fi
cd "$src"
wg=out/wheelgen
cfg=tests/configs/good/torch-matrix.yml
py=$(sed -n 's/^python [0-9.t]* //p' out/host.txt | tail -n 1)

t_case "plain output: one cell id per line, in config order"
$wg matrix --config "$cfg" >"$WORK/plain"
cat >"$WORK/plain.want" <<'EOF2'
flash-attn-2.8.3-py310-cu128-torch2.8
flash-attn-2.8.3-py310-cu128-torch2.9
flash-attn-2.8.3-py310-cu130-torch2.9
flash-attn-2.8.3-py311-cu128-torch2.8
flash-attn-2.8.3-py311-cu128-torch2.9
flash-attn-2.8.3-py311-cu130-torch2.9
flash-attn-2.8.3-py312-cu128-torch2.8
flash-attn-2.8.3-py312-cu128-torch2.9
flash-attn-2.8.3-py312-cu130-torch2.9
flash-attn-2.8.3-py313-cu130-torch2.9
flash-attn-2.8.3-py314-cu130-torch2.9
cupy-cuda13x-13.6.0-py312-cu130
cupy-cuda13x-13.6.0-py313-cu130
EOF2
t_cmp "$WORK/plain.want" "$WORK/plain"

t_case "--github is a GitHub Actions matrix with every field of every cell"
$wg matrix --config "$cfg" --github >"$WORK/gh.json"
if "$py" - "$WORK/gh.json" "$WORK/plain" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
cells = open(sys.argv[2]).read().split()
assert list(m) == ["include"], m.keys()
assert [c["cell"] for c in m["include"]] == cells
for c in m["include"]:
    assert set(c) == {"cell", "package", "version", "python", "cuda", "torch", "key", "build", "platform", "runner"}, c
    assert (c["platform"], c["runner"]) == ("x86_64", "ubuntu-latest"), c
    # a git source without a lock entry or a checkout has no key yet
    assert c["key"] == "" or (len(c["key"]) == 64 and int(c["key"], 16) >= 0), c
    want = "%s-%s-py%s" % (c["package"], c["version"], c["python"].replace(".", ""))
    want += "-cu" + c["cuda"].replace(".", "") if c["cuda"] else ""
    want += "-torch" + c["torch"] if c["torch"] else ""
    assert c["cell"] == want, (c, want)
PY
then t_pass; else t_fail "bad JSON: $(head -c 400 "$WORK/gh.json")"; fi

t_case "--json is a list of the same objects"
$wg matrix --config "$cfg" --json >"$WORK/j.json"
t_check "$py" -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2]))["include"]; assert a == b' "$WORK/j.json" "$WORK/gh.json"

t_case "--shard I/N: the shards are disjoint, near-equal and cover every cell once"
: >"$WORK/shards"
ok=1
for i in 1 2 3 4 5; do
	$wg matrix --config "$cfg" --shard "$i/5" >"$WORK/s$i"
	n=$(wc -l <"$WORK/s$i")
	[ "$n" -ge 2 ] && [ "$n" -le 3 ] || ok=0
	cat "$WORK/s$i" >>"$WORK/shards"
done
if [ "$ok" = 1 ] && cmp -s "$WORK/plain" "$WORK/shards"; then t_pass; else t_fail "$(diff "$WORK/plain" "$WORK/shards")"; fi

t_case "--shard with more shards than cells gives empty shards, not errors"
t_check sh -c "$wg matrix --config $cfg --shard 1/20 --github | grep -q '{\"include\": \[\]}'"

t_case "a bad --shard is a usage error"
if $wg matrix --config "$cfg" --shard 6/5 >/dev/null 2>"$WORK/e"; then t_fail "accepted"; else
	if grep -q "1 <= I <= N" "$WORK/e"; then t_pass; else t_fail "$(cat "$WORK/e")"; fi
fi

t_case "--profile selects the profile's cells"
$wg matrix --config "$cfg" --profile default >"$WORK/p"
t_check test "$(cat "$WORK/p")" = "flash-attn-2.8.3-py312-cu130-torch2.9"

t_case "an unknown profile is an error listing the profiles"
if $wg matrix --config "$cfg" --profile nope >/dev/null 2>"$WORK/e"; then t_fail "accepted"; else
	if grep -q "no profile 'nope'" "$WORK/e" && grep -q "^  stable" "$WORK/e"; then t_pass; else t_fail "$(cat "$WORK/e")"; fi
fi

t_case "--tsv has a header and ten columns (the key, the cell that builds the wheel, the platform and its runner)"
$wg matrix --config "$cfg" --tsv >"$WORK/t"
if [ "$(head -n 1 "$WORK/t")" = "$(printf 'cell\tpackage\tversion\tpython\tcuda\ttorch\tkey\tbuild\tplatform\trunner')" ] &&
	[ "$(awk -F'\t' 'NF != 10 || (NR > 1 && ($8 != $1 || $9 != "x86_64"))' "$WORK/t" | wc -l)" -eq 0 ] && [ "$(wc -l <"$WORK/t")" -eq 14 ]; then t_pass; else t_fail "$(cat "$WORK/t")"; fi

t_case "--table --host says which cells this host can build and why not"
$wg matrix --config "$cfg" --table --host out/host.txt >"$WORK/tab"
if grep -q "^cupy-cuda13x-13.6.0-py312-cu130 .*" "$WORK/tab" && grep -q "no: CUDA 12.8 toolkit was not found" "$WORK/tab" &&
	grep -q "^flash-attn-2.8.3-py312-cu130-torch2.9 *x86_64 *yes$" "$WORK/tab" && grep -q "py314-cu130-torch2.9 *x86_64 *no: Python 3.14 was not found" "$WORK/tab"; then t_pass; else t_fail "$(cat "$WORK/tab")"; fi

t_case "--verbose lists dropped cells with the reason"
$wg matrix --config "$cfg" --verbose >/dev/null 2>"$WORK/v"
if grep -q "dropped flash-attn-2.8.3-py313-cu128-torch2.8: excluded (exclude at line 15)" "$WORK/v" &&
	grep -q "dropped flash-attn-2.8.3-py310-cu130-torch2.8: torch 2.8 ships no wheels for CUDA 13.0" "$WORK/v"; then t_pass; else t_fail "$(cat "$WORK/v")"; fi

t_case "check prints a one-line summary for a good config"
t_check sh -c "$wg check --config $cfg | grep -q 'ok: 2 packages, 13 cells'"

t_case "every command has --help, and an unknown command is a usage error"
ok=1
for c in check matrix gen index; do
	$wg "$c" --help | grep -q "^usage: wheelgen $c" || ok=0
done
$wg --help | grep -q "^commands:" || ok=0
if $wg frobnicate 2>/dev/null; then ok=0; fi
if $wg check --no-such-option 2>/dev/null; then ok=0; fi
if [ "$ok" = 1 ]; then t_pass; else t_fail "a help text or usage error is missing"; fi

t_expect "each command takes its own options: one it does not take is refused (status 2, the command and option named, its usage), one it takes works; --help lists every command of the table" '
	set +e
	$wg status --profile x >/dev/null 2>"$WORK/refused1"; a=$?
	$wg check --config $cfg --json >/dev/null 2>"$WORK/refused2"; b=$?
	$wg claim -c $cfg >/dev/null 2>"$WORK/refused3"; c=$?
	set -e
	[ "$a$b$c" = 222 ]
	grep -qx "wheelgen: error: status does not take --profile" "$WORK/refused1"
	grep -q "^usage: wheelgen status " "$WORK/refused1"
	grep -qx "wheelgen: error: check does not take --json" "$WORK/refused2"
	grep -qx "wheelgen: error: claim does not take --config" "$WORK/refused3"
	$wg matrix --config $cfg --profile stable --json >"$WORK/taken.json"
	grep -q "\"cell\"" "$WORK/taken.json"
	for c in check matrix gen index lock fetch checkout outdated torch-table key restore store status claim summary; do
		$wg --help | grep -q "^  $c  *[a-zA-Z]" && $wg $c --help | grep -q "^usage: wheelgen $c " || exit 1
	done'

t_case "the production config passes check"
t_check $wg check --config config/packages.yml >/dev/null

t_case "the benchmarks still run (small sizes): bench/gen-bench.sh, bench/git-bench.sh, bench/index-bench.sh, bench/relabel-bench.sh"
head -n 300 "$top/../shared/bench/package-list-huge.txt" >"$WORK/list300" 2>/dev/null || printf '%s\n' a-1.0.tar.gz b-2.0-py3-none-any.whl >"$WORK/list300"
if sh bench/gen-bench.sh 100 >"$WORK/bench.log" 2>&1 && grep -q "^100 " "$WORK/bench.log" &&
	sh bench/git-bench.sh 2 >>"$WORK/bench.log" 2>&1 && grep -q "^2 " "$WORK/bench.log" &&
	sh bench/index-bench.sh "$WORK/list300" >>"$WORK/bench.log" 2>&1 && grep -q "^full build (s, median of 5) " "$WORK/bench.log" &&
	grep -q "^file-system floor (s) " "$WORK/bench.log" &&
	sh bench/relabel-bench.sh "$(command -v ls)" >>"$WORK/bench.log" 2>&1 && grep -q "^speed-up " "$WORK/bench.log"; then
	t_pass
else
	t_fail "$(tail -n 20 "$WORK/bench.log")"
fi

# --- the platform axis ---------------------------------------------------------------------
cat >"$WORK/plat.yml" <<'YML'
defaults: {python: ["3.11", "3.12"], cuda: ["13.0"], platforms: [x86_64, aarch64]}
torch:
  "2.13": {cuda: ["13.0"], python: ["3.11", "3.12"], pypi: "13.0"}
  "2.14": {cuda: ["13.0"], python: ["3.11", "3.12"], pypi: "13.0", platforms: [x86_64, aarch64]}
packages:
  a:
    source: {path: .}
    versions: ["1.0"]
    torch: ["2.13", "2.14"]
    local_version: "cu{cuda}torch{torch}"
    exclude: [{python: "3.12", platforms: [aarch64]}]
  b:
    source: {path: .}
    versions: ["1.0"]
    cuda: []
    platforms: [aarch64]
profiles:
  arm: {platforms: [aarch64]}
YML
t_expect "platforms: aarch64 cells end in -aarch64, x86_64 cells keep their names; the torch table drops what PyPI lacks; excludes and profiles take platforms" '
	$wg matrix --config "$WORK/plat.yml" --verbose >"$WORK/plat" 2>"$WORK/plat.v"
	[ "$(tr "\n" " " <"$WORK/plat")" = "a-1.0-py311-cu130-torch2.13 a-1.0-py311-cu130-torch2.14 a-1.0-py312-cu130-torch2.13 a-1.0-py312-cu130-torch2.14 a-1.0-py311-cu130-torch2.14-aarch64 b-1.0-py311-aarch64 b-1.0-py312-aarch64 " ]
	grep -q "dropped a-1.0-py311-cu130-torch2.13-aarch64: torch 2.13 ships no aarch64 wheels built with CUDA (torch table, line 3: its platforms)" "$WORK/plat.v"
	grep -q "dropped a-1.0-py312-cu130-torch2.14-aarch64: excluded" "$WORK/plat.v"
	[ "$($wg matrix --config "$WORK/plat.yml" --profile arm | tr "\n" " ")" = "a-1.0-py311-cu130-torch2.14-aarch64 b-1.0-py311-aarch64 b-1.0-py312-aarch64 " ]
	$wg matrix --config "$WORK/plat.yml" --tsv | grep -q "^b-1.0-py311-aarch64	b	1.0	3.11			.*	b-1.0-py311-aarch64	aarch64	ubuntu-24.04-arm$"
'
t_expect "an unknown platform is file:line:col with a suggestion" '
	printf "defaults: {python: [\"3.12\"], platforms: [x86_64, arm64, macos_arm64]}\npackages:\n  a: {source: {path: .}, versions: [\"1\"]}\n" >"$WORK/badplat.yml"
	! $wg check --config "$WORK/badplat.yml" 2>"$WORK/badplat.err" || exit 1
	grep -q "badplat.yml:1:50: error: unknown platform .arm64. in defaults.platforms; did you mean .aarch64.?" "$WORK/badplat.err"
	grep -q "badplat.yml:1:57: error: unknown platform .macos_arm64. in defaults.platforms: wheelgen builds wheels for x86_64, aarch64 and win_amd64 (nothing here can build or run a macOS wheel)" "$WORK/badplat.err"
'
t_expect "on an aarch64 host (an arm runner) its cells build natively, every Python it has, no root file system; x86_64 cells say why not" '
	printf "machine aarch64\npython 3.11 /usr/bin/python3.11\npython 3.12 /usr/bin/python3.12\ncuda 13.0 /usr/local/cuda-13.0\n" >"$WORK/arm.host"
	$wg matrix --config "$WORK/plat.yml" --host "$WORK/arm.host" --table >"$WORK/arm.table"
	[ "$(awk "\$3 == \"yes\" { print \$1 }" "$WORK/arm.table" | tr "\n" " ")" = "a-1.0-py311-cu130-torch2.14-aarch64 b-1.0-py311-aarch64 b-1.0-py312-aarch64 " ]
	grep -q "^a-1.0-py311-cu130-torch2.13 .* no: this aarch64 host builds only aarch64 cells (build x86_64 cells on an x86_64 host, or cross-build them on x86_64)" "$WORK/arm.table"
	rm -rf "$WORK/armgen"
	$wg gen --config "$WORK/plat.yml" --builddir "$WORK/armgen" --host "$WORK/arm.host" >/dev/null
	! grep -q "^WG_SYSROOT=\|^WG_QEMU=" "$WORK/armgen/cells/b-1.0-py312-aarch64/spec" || exit 1
	! grep -q "^rule sysroot" "$WORK/armgen/graph.ninja" || exit 1
'

cat >"$WORK/cmp.yml" <<'YML'
defaults: {python: ["3.12"], cuda: ["12.6", "13.0"]}
packages:
  a: {source: {path: .}, versions: ["1.0"], nvcc_compress: size, local_version: "cu{cuda}"}
  b: {source: {path: .}, versions: ["1.0"], local_version: "cu{cuda}"}
YML
t_expect "nvcc_compress reaches the specs of CUDA 12.8 and later only (older nvcc has no -compress-mode), and not those of packages without it" '
	printf "python 3.12 /usr/bin/python3\ncuda 12.6 /usr/local/cuda-12.6\ncuda 13.0 /usr/local/cuda-13.0\n" >"$WORK/cmp.host"
	rm -rf "$WORK/cmpgen"
	$wg gen --config "$WORK/cmp.yml" --builddir "$WORK/cmpgen" --host "$WORK/cmp.host" >/dev/null
	grep -qx "WG_NVCC_COMPRESS=.size." "$WORK/cmpgen/cells/a-1.0-py312-cu130/spec"
	! grep -q "WG_NVCC_COMPRESS" "$WORK/cmpgen/cells/a-1.0-py312-cu126/spec" || exit 1
	! grep -q "WG_NVCC_COMPRESS" "$WORK/cmpgen/cells/b-1.0-py312-cu130/spec" || exit 1
'

# a plan of 600 rows over two platforms: no matrix over 256 rows
python3 - "$WORK/big.yml" <<'PY'
import sys
vs = ", ".join('"1.%d"' % i for i in range(100))
open(sys.argv[1], "w").write("""defaults: {python: ["3.11", "3.12", "3.13"], platforms: [x86_64, aarch64]}
packages:
  a:
    source: {path: .}
    versions: [%s]
    cuda: []
""" % vs)
PY
t_expect "--split: a plan of 600 rows over two platforms is split per platform, then in chunks of at most 256; too few matrices is an error" '
	$wg matrix --config "$WORK/big.yml" --github --by-build --split 4 >"$WORK/split"
	[ "$(grep -c "^matrix[1-4]={" "$WORK/split")" -eq 4 ] && [ "$(grep -c "^count[1-4]=" "$WORK/split")" -eq 4 ]
	[ "$(sed -n "s/^count\([0-9]\)=//p" "$WORK/split" | tr "\n" " ")" = "256 44 256 44 " ]
	python3 -c "
import json, sys
rows = []
for l in open(sys.argv[1]):
    if l.startswith(\"matrix\"):
        m = json.loads(l.split(\"=\", 1)[1])[\"include\"]
        assert len(m) <= 256 and len({r[\"platform\"] for r in m}) <= 1, len(m)
        rows += m
assert len(rows) == 600 and len({r[\"cell\"] for r in rows}) == 600
" "$WORK/split"
	! $wg matrix --config "$WORK/big.yml" --github --split 2 >/dev/null 2>"$WORK/split.err" || exit 1
	grep -q "the plan has 600 rows, which need 4 job matrices of at most 256 rows" "$WORK/split.err"
'

# shards: a sharded wheel is N part rows plus its final row; --split N puts them in partsK= and
# finalsK= (K = 1..N), apart from the wheels built in one piece
mkdir -p "$WORK/big" "$WORK/small" "$WORK/one"
cat >"$WORK/sharded.yml" <<'YML'
defaults: {python: ["3.11", "3.12"]}
packages:
  big: {source: {path: big}, versions: ["1.0"], shards: "3"}
  small: {source: {path: small}, versions: ["1.0"]}
  one: {source: {path: one}, versions: ["1.0"], abi: abi3, shards: "2"}
profiles:
  bigonly: {packages: [big], python: ["3.12"]}
YML
cat >"$WORK/sharded.py" <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["include"]
got = [(r["cell"], r.get("part"), r.get("parts"), r.get("targets"), r.get("tests"), r.get("partsof"), r["family"]) for r in rows]
want = []
# (--no-families: each sharded wheel its own parts; else big's two Pythons share big-1.0-py311's)
for c in ("big-1.0-py311", "big-1.0-py312"):
    if sys.argv[2] == "each" or c == "big-1.0-py311":
        want += [(c, str(k), "3", "shard/%s/%d" % (c, k), None, None, "big-1.0") for k in (1, 2, 3)]
    want += [(c, None, "3", None, "test/" + c, c if sys.argv[2] == "each" else "big-1.0-py311", "big-1.0")]
want += [("small-1.0-py311", None, None, None, "test/small-1.0-py311", None, "small-1.0"),
         ("small-1.0-py312", None, None, None, "test/small-1.0-py312", None, "small-1.0")]
want += [("one-1.0-py311", str(k), "2", "shard/one-1.0-py311/%d" % k, None, None, "one-1.0") for k in (1, 2)]
want += [("one-1.0-py311", None, "2", None, "test/one-1.0-py311 test/one-1.0-py312", "one-1.0-py311", "one-1.0")]
assert got == want, got
PY
t_expect "shards: --by-build gives a sharded wheel N part rows (part, parts, targets shard/CELL/K) before its final row (parts, partsof); the wheels of a family share its first wheel's parts (--no-families: each its own); --split puts them in partsK= and finalsK=; --count and --table show the parts" '
	$wg matrix --config "$WORK/sharded.yml" --github --by-build --no-families >"$WORK/sh.json"
	"$py" "$WORK/sharded.py" "$WORK/sh.json" each
	$wg matrix --config "$WORK/sharded.yml" --github --by-build >"$WORK/shf.json"
	"$py" "$WORK/sharded.py" "$WORK/shf.json" family
	$wg matrix --config "$WORK/sharded.yml" --github --by-build --split 2 --no-families >"$WORK/sh.split"
	[ "$(sed -n "s/^\([a-z]*[0-9]*\)=.*/\1/p" "$WORK/sh.split" | tr "\n" " ")" = "matrix1 count1 matrix2 count2 parts1 partcount1 parts2 partcount2 finals1 finalcount1 finals2 finalcount2 " ]
	grep -qx "count1=2" "$WORK/sh.split" && grep -qx "count2=0" "$WORK/sh.split"
	grep -qx "partcount1=8" "$WORK/sh.split" && grep -qx "finalcount1=3" "$WORK/sh.split"
	grep -qx "parts2={\"include\": \[\]}" "$WORK/sh.split" && grep -qx "partcount2=0" "$WORK/sh.split" && grep -qx "finalcount2=0" "$WORK/sh.split"
	grep "^matrix1=" "$WORK/sh.split" | grep -q "small-1.0-py312" && ! grep "^matrix1=" "$WORK/sh.split" | grep -q "big-"
	$wg matrix --config "$WORK/sharded.yml" --github --by-build --split 2 >"$WORK/shf.split"
	grep -qx "count1=2" "$WORK/shf.split"
	grep -qx "partcount1=5" "$WORK/shf.split"
	grep -qx "finalcount1=3" "$WORK/shf.split"
	$wg matrix --config "$WORK/sharded.yml" --count --no-families >"$WORK/sh.count"
	[ "$(cat "$WORK/sh.count")" = "$(printf "(all)\t6\t8\nbigonly\t1\t3")" ]
	$wg matrix --config "$WORK/sharded.yml" --count >"$WORK/shf.count"
	[ "$(cat "$WORK/shf.count")" = "$(printf "(all)\t6\t5\nbigonly\t1\t3")" ]
	$wg matrix --config "$WORK/sharded.yml" --table >"$WORK/sh.table"
	grep -q "^big-1.0-py312 .*  \[3 parts\]$" "$WORK/sh.table" && ! grep -q "^small-1.0-py312 .*parts\]$" "$WORK/sh.table"
'
# (each partsK and finalsK: at most 256 rows, their counts right, every row once, every set of
# parts a final row waits for (partsof); a wheel's part rows in one matrix unless $2 is "any")
cat >"$WORK/splitcheck.py" <<'PY'
import json, sys
lines = dict(l.split("=", 1) for l in open(sys.argv[1]).read().splitlines())
n = int(sys.argv[3])
parts, finals, where = [], [], {}
for k in range(1, n + 1):
    p, f = json.loads(lines["parts%d" % k])["include"], json.loads(lines["finals%d" % k])["include"]
    assert len(p) <= 256 and len(f) <= 256 and lines["partcount%d" % k] == str(len(p)) and lines["finalcount%d" % k] == str(len(f)), k
    parts += p
    finals += f
    for r in p:
        where.setdefault(r["cell"], set()).add(k)
assert "parts%d" % (n + 1) not in lines and "parts" not in lines and "finals" not in lines, sorted(lines)
assert len({(r["cell"], r["part"]) for r in parts}) == len(parts) and len({r["cell"] for r in finals}) == len(finals)
assert {r["partsof"] for r in finals} == set(where) and all(len(parts) >= 1 for _ in finals)
if sys.argv[2] != "any":
    assert all(len(ks) == 1 for ks in where.values()), where
print(" ".join(lines["partcount%d" % k] for k in range(1, n + 1)), "/", " ".join(lines["finalcount%d" % k] for k in range(1, n + 1)))
PY
python3 - "$WORK/brim.yml" <<'PY'
import sys
vs = ", ".join('"1.%d"' % i for i in range(341))
open(sys.argv[1], "w").write("""defaults: {python: ["3.12"]}
packages:
  a:
    source: {path: .}
    versions: [%s]
    cuda: []
    shards: "3"
""" % vs)
PY
t_expect "shards: part and final rows count against GitHub's limit of 256 rows a matrix: --split N gives N of each, filled in order, a wheel's parts in one where they fit, to the brim where not; more than N x 256 is an error" '
	sed "s/^    cuda: \[\]$/    cuda: []\n    shards: \"4\"/" "$WORK/big.yml" >"$WORK/bigsharded.yml"
	! $wg matrix --config "$WORK/bigsharded.yml" --github --by-build --split 4 --no-families >/dev/null 2>"$WORK/bigsharded.err" || exit 1
	grep -q "the plan has 2400 part rows and 600 final rows: --split 4 matrices of each hold at most 1024 rows (256 each" "$WORK/bigsharded.err"
	$wg matrix --config "$WORK/bigsharded.yml" --count --no-families | grep -qx "(all)	600	2400"
	# (families: the 3 Pythons of each version share one set of parts)
	$wg matrix --config "$WORK/bigsharded.yml" --count | grep -qx "(all)	600	800"
	# (600 wheels of 3 parts: 85 wheels a matrix, 255 rows)
	sed "s/^    cuda: \[\]$/    cuda: []\n    shards: \"3\"/" "$WORK/big.yml" >"$WORK/three.yml"
	$wg matrix --config "$WORK/three.yml" --github --by-build --split 8 --no-families >"$WORK/three.split"
	[ "$("$py" "$WORK/splitcheck.py" "$WORK/three.split" whole 8)" = "255 255 255 255 255 255 255 15 / 256 256 88 0 0 0 0 0" ]
	! $wg matrix --config "$WORK/three.yml" --github --by-build --split 7 --no-families >/dev/null 2>"$WORK/three.err" || exit 1
	grep -q "the plan has 1800 part rows and 600 final rows: --split 7" "$WORK/three.err"
	# (341 wheels of 3 parts, 1023 rows: whole wheels would need 5 matrices, 4 hold them filled to the brim)
	$wg matrix --config "$WORK/brim.yml" --github --by-build --split 4 >"$WORK/brim.split"
	[ "$("$py" "$WORK/splitcheck.py" "$WORK/brim.split" any 4)" = "256 256 256 255 / 256 85 0 0" ]
	# (the production config: flash-attn shards "4", profile all: each wheel its own parts, over
	# two matrices; as the workflow plans it, its families share them, fewer than a matrix holds)
	$wg matrix --config "$top/config/packages.yml" --github --by-build --split 4 --profile all --no-families >"$WORK/prod.split"
	"$py" "$WORK/splitcheck.py" "$WORK/prod.split" whole 4 >"$WORK/prod.counts"
	[ "$(sed -n "s/^partcount\([0-9]\)=//p" "$WORK/prod.split" | awk "{n += \$1} END {print n}")" -gt 256 ]
	$wg matrix --config "$top/config/packages.yml" --github --by-build --split 4 --profile all >"$WORK/prodf.split"
	"$py" "$WORK/splitcheck.py" "$WORK/prodf.split" whole 4 >"$WORK/prodf.counts"
	[ "$(sed -n "s/^partcount\([0-9]\)=//p" "$WORK/prodf.split" | awk "{n += \$1} END {print n}")" -lt 256 ]
'

# matrix --estimate: a family of two Pythons in 3 parts, its figures from a times file, then from
# the manifests of its builds (a part cell that took its 12 objects from 3 parts of 4, a second
# Python that compiled 2 and took 10 from the family): a job is 60 s of setup and 10 s an object
mkdir -p "$WORK/est/big" "$WORK/est/b/wheels/big-1.0-py311" "$WORK/est/b/wheels/big-1.0-py312"
printf 'defaults: {python: ["3.11", "3.12"]}\npackages:\n  big: {source: {path: big}, versions: ["1.0"], shards: "3"}\n' >"$WORK/est/est.yml"
printf '# from a record\nbig objects=12 python_objects=12 object_seconds=10 setup_seconds=60\n' >"$WORK/est/times.txt"
h=$(printf "%064d" 1)
for v in 11 12; do
	printf 'cell=big-1.0-py3%s\npackage=big\nversion=1.0\npython=3.%s\nfilename=big-1.0-cp3%s-cp3%s-linux_x86_64.whl\nsha256=%s\nsize=10\ntags=cp3%s-cp3%s-linux_x86_64\n' \
		"$v" "$v" "$v" "$v" "$h" "$v" "$v" >"$WORK/est/b/wheels/big-1.0-py3$v/manifest"
done
printf 'objects_compiled=0\nobjects_reused=12\nobjects_family=0\njob_times=build:0:60 part1:4:100 part2:4:100 part3:4:100\n' >>"$WORK/est/b/wheels/big-1.0-py311/manifest"
printf 'objects_compiled=2\nobjects_reused=0\nobjects_family=10\njob_times=build:2:80 bad part9:x:1\n' >>"$WORK/est/b/wheels/big-1.0-py312/manifest"
wga=$src/out/wheelgen
t_expect "matrix --estimate: runner-hours, the wall time on 1 and 2 concurrent jobs (a final row after every part row) and the longest chain, from a times file; --no-families: each wheel its own parts" '
	cd "$WORK/est"
	wg=$wga
	$wg matrix --config est.yml --estimate --times times.txt --job-overhead 0 --runners 1 >one.txt
	cat one.txt
	grep -qx "plan: 2 wheels: 0 build rows, 3 part rows, 2 final rows" one.txt
	grep -qx "runner-hours: 0.15 (540 s)" one.txt
	grep -qx "wall: 0.15 h (540 s) on 1 concurrent job" one.txt
	grep -qx "longest chain: 0.08 h (280 s): big-1.0-py311, part 1 of 3 (1m40s), then big-1.0-py312.s final row (3m00s)" one.txt
	grep -qx "  big: 2 wheels, 0.15 runner-hours; 12 objects, 12 with Python.h; 10 s an object, 1m00s of setup (times.txt:2)" one.txt
	$wg matrix --config est.yml --estimate --times times.txt --job-overhead 0 --runners 2 | grep -qx "wall: 0.11 h (380 s) on 2 concurrent jobs"
	$wg matrix --config est.yml --estimate --times times.txt --job-overhead 0 --runners 1 --no-families >each.txt
	grep -qx "plan: 2 wheels: 0 build rows, 6 part rows, 2 final rows" each.txt
	grep -qx "runner-hours: 0.20 (720 s)" each.txt
	# (each job 3 minutes more by default)
	$wg matrix --config est.yml --estimate --times times.txt --runners 1 | grep -qx "runner-hours: 0.40 (1440 s)"
'
t_expect "matrix --estimate from the manifests of earlier builds: job_times fitted to 60 s of setup and 10 s an object, the objects a second Python compiled (what includes Python.h); a malformed job record is skipped; its option errors" '
	cd "$WORK/est"
	wg=$wga
	$wg matrix --config est.yml --builddir b --estimate --job-overhead 0 --runners 2 >rec.txt
	cat rec.txt
	grep -qx "runner-hours: 0.12 (440 s)" rec.txt
	grep -qx "wall: 0.08 h (280 s) on 2 concurrent jobs" rec.txt
	grep -qx "  big: 2 wheels, 0.12 runner-hours; 12 objects, 2 with Python.h; 10 s an object, 1m00s of setup (5 jobs of 2 builds recorded)" rec.txt
	! $wg matrix --config est.yml --runners 2 2>err.txt || exit 1
	grep -q "go with --estimate" err.txt
	! $wg matrix --config est.yml --estimate --github 2>err.txt || exit 1
	grep -q "estimate prints the estimate" err.txt
	printf "big objects=12 speed=3\n" >bad.txt
	! $wg matrix --config est.yml --estimate --times bad.txt 2>err.txt || exit 1
	grep -q "^wheelgen: error: bad.txt:1: .speed=3. is not one of objects=" err.txt
	printf "nosuch objects=1\n" >bad.txt
	! $wg matrix --config est.yml --estimate --times bad.txt 2>err.txt || exit 1
	grep -q "bad.txt:1: no package .nosuch. in the config" err.txt
'

# shards suggest: flash-attn's production cell as the issue measured it (73 objects, 9.5 hours)
# and one part of it: 10 minutes of setup, 460 s an object
mkdir -p "$WORK/sug/logs"
sugcell=flash-attn-2.8.3-py312-cu130-torch2.15
printf 'wheelgen-step: start 1000 build %s\n[1/73] nvcc a.cu\n[73/73] nvcc z.cu\nwheelgen-step: end 35180 0 34180 s\n' "$sugcell" >"$WORK/sug/logs/$sugcell.build.log"
printf 'wheelgen-step: start 1000 shard1 %s\nwheelgen: objects: 20 compiled, 0 reused\nwheelgen-step: end 10800 0 9800 s\n' "$sugcell" >"$WORK/sug/logs/$sugcell.shard1.log"
t_expect "shards suggest: the objects from the build log, setup and time per object fitted from the build and a part, N for the target (3 for 330 minutes, 4 for 240); a build alone needs --setup-minutes" '
	$wg shards suggest --builddir "$WORK/sug" "$sugcell" >"$WORK/sug.out"
	grep -qx "$sugcell: 73 objects (the largest \[i/N\] of ninja in its build log)" "$WORK/sug.out"
	grep -qx "a job: 10m00s of setup (fitted) + 7m40s an object" "$WORK/sug.out"
	[ "$(tail -n 1 "$WORK/sug.out")" = "shards: \"3\"   (jobs of at most 5h30m)" ]
	$wg shards suggest --builddir "$WORK/sug" --target-minutes 240 "$sugcell" | tail -n 1 | grep -qx "shards: \"4\" .*"
	rm "$WORK/sug/logs/$sugcell.shard1.log"
	! $wg shards suggest --builddir "$WORK/sug" "$sugcell" 2>"$WORK/sug.err" || exit 1
	grep -q "give --setup-minutes" "$WORK/sug.err"
	$wg shards suggest --builddir "$WORK/sug" --setup-minutes 10 "$sugcell" | tail -n 1 | grep -qx "shards: \"3\" .*"
	! $wg shards suggest --builddir "$WORK/sug" --setup-minutes 10 --target-minutes 5 "$sugcell" 2>"$WORK/sug.err" || exit 1
	grep -q "no N up to 64 fits" "$WORK/sug.err"
'

# memory-aware width: configure --memory-gb 16 on the production config
t_expect "configure --memory-gb 16: flash-attn builds with MAX_JOBS x NVCC_THREADS x 7 GB within 16 GB, and its spec says how; a build that does not fit even once says that" '
	rm -rf "$WORK/m16"
	mkdir "$WORK/m16"
	printf "machine x86_64\nmemory_gb 16\ncpus 4\npython 3.12 /usr/bin/python3\ncuda 13.0 /usr/local/cuda-13.0\n" >"$WORK/m16/host.txt"
	$wg gen --config "$top/config/packages.yml" --builddir "$WORK/m16" --host "$WORK/m16/host.txt" >/dev/null 2>&1
	spec=$WORK/m16/cells/flash-attn-2.8.3-py312-cu130-torch2.15/spec
	j=$(sed -n "s/^WG_MAX_JOBS=//p" "$spec") t=$(sed -n "s/^WG_NVCC_THREADS=//p" "$spec")
	[ "$j" -le 2 ]
	[ $((j * t * 7)) -le 16 ]
	grep -q "^WG_WIDTH=.MAX_JOBS $j of 4: $j x NVCC_THREADS $t x memory_per_job_gb 7.0 = 14.0 GB of the 16.0 GB builds may use here" "$spec"
	sed "s/^memory_gb .*/memory_gb 10/" "$WORK/m16/host.txt" >"$WORK/m16/host10.txt"
	$wg gen --config "$top/config/packages.yml" --builddir "$WORK/m16" --host "$WORK/m16/host10.txt" >/dev/null 2>&1
	grep -q "^WG_MAX_JOBS=1$" "$spec"
	grep -q "even 1 job x NVCC_THREADS 2 x memory_per_job_gb 7.0 = 14.0 GB is more than the 10.0 GB" "$spec"
'
