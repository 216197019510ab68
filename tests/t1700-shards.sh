#!/bin/sh
# shellcheck disable=SC2016,SC2034 # (cases are single-quoted scripts: t_expect; they read sha_a)
# shards and deadlines (examples/shards/cpu.yml: a C extension of nine translation units, in 4
# parts): the parts, then a wheel that compiles nothing and is the same bytes as a build in one
# piece; parts made in another clone in another directory; a part of another key left alone;
# a build stopped at its deadline, and the next one continuing from its objects
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

a=$WORK/a
b=$WORK/other/b
# the compiler: gcc, except that while $WORK/slow exists its compile of part5.c hangs (the
# deadline case needs a compile in flight; every build of the script uses the same compiler)
mkdir -p "$WORK/bin"
cat >"$WORK/bin/slowcc" <<EOS
#!/bin/sh
case " \$* " in *part5.c*) [ ! -e "$WORK/slow" ] || sleep 60 ;; esac
exec gcc "\$@"
EOS
chmod +x "$WORK/bin/slowcc"
PATH=$WORK/bin:$PATH
CC=slowcc
export PATH CC

# the newest Python of the host's, for the cell
t_case "configure two clones of examples/shards/cpu.yml"
mkdir -p "$WORK/other"
t_configure "$a" --config examples/shards/cpu.yml || { t_fail "$(cat "$a.configure.log")"; exit 0; }
# (the second clone takes the first one's wheelgen: no second compile of it)
t_configure "$b" --config examples/shards/cpu.yml --wheelgen "$a/out/wheelgen" || { t_fail "$(cat "$b.configure.log")"; exit 0; }
py=$(sed -n 's/^python \(3\.[0-9]*\) .*/\1/p' "$a/out/host.txt" | sort -t. -k2,2n | tail -n 1)
for d in "$a" "$b"; do
	sed -i "s/python: \[\"3.12\"\]/python: [\"$py\"]/" "$d/examples/shards/cpu.yml"
done
cell=wgshardsc-0.1.0-py$(echo "$py" | tr -d .)
# a file of the source whose path a depfile must escape ('$', '#', spaces; ':' as t1320's)
weird='examples/shards/cpkg/data/we$ird #x :dir/a b:c.txt'
for d in "$a" "$b"; do
	mkdir -p "$d/${weird%/*}"
	echo one >"$d/$weird"
done
t_pass

cd "$a"
t_expect "the graph has shard/CELL/1 ... /4, and no fifth" '
	ninja build.ninja >/dev/null
	ninja -t targets all >targets.txt
	for k in 1 2 3 4; do grep -q "^shard/$cell/$k: phony" targets.txt; done
	! grep -q "^shard/$cell/5:" targets.txt || exit 1
	grep -qx WG_SHARDS=4 out/cells/$cell/spec'

t_expect "each part compiles its share of the nine objects, kept with the cell's key (the four at once)" '
	ninja "shard/$cell/1" "shard/$cell/2" "shard/$cell/3" "shard/$cell/4" >"$WORK/parts.log" 2>&1
	key=$(./out/wheelgen key --config examples/shards/cpu.yml --builddir out --host out/host.txt "$cell" | cut -d" " -f1)
	n=0
	for k in 1 2 3 4; do
		grep -qx "$key" "out/shards/$cell/$k/key"
		c=$(sed -n "s/^wheelgen: objects: \([0-9]*\) compiled, 0 reused, 0 from the family$/\1/p" "out/logs/$cell.shard$k.log")
		[ "$(ls "out/shards/$cell/$k" | grep -c "\.o$")" = "$c" ]
		grep -qx "part=$k/4" "out/shards/$cell/$k/objects"
		grep -qx "compiled=$c" "out/shards/$cell/$k/objects"
		grep -qx "objects=9" "out/shards/$cell/$k/objects"
		grep -qx "share=$c" "out/shards/$cell/$k/objects"
		n=$((n + c))
	done
	[ "$n" = 9 ]
	[ ! -e "out/wheels/$cell/manifest" ]'

t_expect "ninja wheel/CELL after the parts compiles nothing: its log ends with the objects line, the manifest and the summary have them" '
	ninja "wheel/$cell" >"$WORK/wheel.log" 2>&1
	[ "$(grep "^wheelgen: " "out/logs/$cell.build.log" | tail -n 1)" = "wheelgen: objects: 0 compiled, 9 reused, 0 from the family" ]
	grep -qx objects_compiled=0 "out/wheels/$cell/manifest"
	grep -qx objects_reused=9 "out/wheels/$cell/manifest"
	./out/wheelgen summary build --builddir out "$cell" | grep -q "objects: 0 compiled here, 0 from the family, 9 from parts or an earlier attempt"'
sha_a=$(sed -n 's/^sha256=//p' "out/wheels/$cell/manifest")

t_expect "a part's depfile (build-host.sh, through wheelgen-step) and the wheel's (wheelgen restore) have one writer: each names the file with \$, #, spaces and : as one source, and both list the same sources" '
	ninja -t deps "out/shards/$cell/1.done" | sed 1d >"$WORK/part.deps"
	ninja -t deps "out/wheels/$cell/manifest" | sed 1d >"$WORK/wheel.deps"
	grep -qxF "    $a/$weird" "$WORK/part.deps"
	grep -qxF "    $a/examples/shards/cpkg/setup.py" "$WORK/part.deps"
	[ "$(grep -c "^    /" "$WORK/part.deps")" -ge 12 ]
	diff "$WORK/wheel.deps" "$WORK/part.deps"'

cd "$b"
sed -i 's/shards: "4"/shards: "1"/' examples/shards/cpu.yml
t_expect "shards \"1\", in another directory: nothing in front of the compilers, and the same wheel, byte for byte" '
	ninja "wheel/$cell" >"$WORK/one.log" 2>&1
	! grep -q "wheelgen-cc" "out/logs/$cell.build.log" || exit 1
	! grep -q "^objects_" "out/wheels/$cell/manifest" || exit 1
	[ "$(sed -n "s/^sha256=//p" "out/wheels/$cell/manifest")" = "$sha_a" ]
	[ "$(sha256sum out/wheels/$cell/*.whl | cut -d" " -f1)" = "$sha_a" ]'

sed -i 's/shards: "1"/shards: "4"/' examples/shards/cpu.yml
t_expect "parts 1-3 made in the first clone and part 4 made here combine: nothing compiled, the same wheel" '
	ninja "shard/$cell/4" >"$WORK/b4.log" 2>&1
	for k in 1 2 3; do cp -R "$a/out/shards/$cell/$k" "out/shards/$cell/"; done
	rm -rf "out/wheels/$cell"
	ninja "wheel/$cell" >"$WORK/bwheel.log" 2>&1
	grep -qx "wheelgen: objects: 0 compiled, 9 reused, 0 from the family" "out/logs/$cell.build.log"
	[ "$(sed -n "s/^sha256=//p" "out/wheels/$cell/manifest")" = "$sha_a" ]'

t_expect "parts of another key than the cell's are not used: every object compiled (or a hit of the family's compile cache: this clone built the cell before)" '
	for k in 1 2 3 4; do printf "%064d\n" 0 >"out/shards/$cell/$k/key"; done
	rm -rf "out/wheels/$cell"
	ninja "wheel/$cell" >"$WORK/otherkey.log" 2>&1
	[ "$(($(sed -n "s/^wheelgen: objects: \([0-9]*\) compiled, 0 reused, \([0-9]*\) from the family$/\1 + \2/p" "out/logs/$cell.build.log")))" = 9 ]
	[ "$(sed -n "s/^sha256=//p" "out/wheels/$cell/manifest")" = "$sha_a" ]'

t_expect "a deadline stops the build: the compile in flight killed, the rest not started, the message; the next build continues and makes the same wheel" '
	rm -rf "out/shards/$cell" "out/wheels/$cell"
	touch "$WORK/slow"
	t0=$(date +%s)
	! WHEELGEN_DEADLINE=$((t0 + 6)) ninja "wheel/$cell" >"$WORK/deadline.log" 2>&1 || exit 1
	rm -f "$WORK/slow"
	[ $(($(date +%s) - t0)) -lt 40 ]
	done=$(sed -n "s/^wheelgen: stopped at the deadline: \([0-9]*\) of 9 objects compiled .*/\1/p" "out/logs/$cell.build.log")
	[ -n "$done" ]
	[ "$done" -lt 9 ]
	grep -q "stopped at the deadline: $done of 9 objects compiled" "$WORK/deadline.log"
	[ "$(ls "out/shards/$cell/resume" | grep -c "\.o$")" = "$done" ]
	grep -qx state=stopped "out/shards/$cell/resume/objects"
	grep -qx "done=$done" "out/shards/$cell/resume/objects"
	grep -qx share=9 "out/shards/$cell/resume/objects"
	[ ! -e "out/wheels/$cell/manifest" ]
	ninja "wheel/$cell" >"$WORK/resume.log" 2>&1
	[ "$(($(sed -n "s/^wheelgen: objects: \([0-9]*\) compiled, $done reused, \([0-9]*\) from the family$/\1 + \2/p" "out/logs/$cell.build.log")))" = $((9 - done)) ]
	[ "$(sed -n "s/^sha256=//p" "out/wheels/$cell/manifest")" = "$sha_a" ]
	[ ! -e "out/shards/$cell/resume" ]
	echo "stopped with $done of 9"'
