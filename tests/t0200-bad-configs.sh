#!/bin/sh
# bad configs: every error at file:line:col with the line and a caret, exit 1, and a
# failed regeneration leaves build.ninja, graph.ninja and the cell specs untouched
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure a tree for the config tests"
if t_configure "$src" --config examples/quickstart/packages.yml && (cd "$src" && ninja out/wheelgen) >"$WORK/build.log" 2>&1; then
	t_pass
else
	t_fail "$(tail -n 30 "$src.configure.log" "$WORK/build.log")"
	exit 0
fi
cd "$src"

for yml in tests/configs/bad/*.yml; do
	name=$(basename "$yml" .yml)
	t_case "bad config $name: exact messages and exit status 1"
	set +e
	timeout 10 out/wheelgen check --config "$yml" >"$WORK/$name.out" 2>"$WORK/$name.err"
	rc=$?
	set -e
	if [ "$rc" -ne 1 ]; then
		t_fail "exit status $rc, want 1" "$(head -n 5 "$WORK/$name.err")"
	elif [ -s "$WORK/$name.out" ]; then
		t_fail "printed to stdout: $(head -n 3 "$WORK/$name.out")"
	else
		t_cmp "tests/configs/bad/$name.err" "$WORK/$name.err"
	fi
done

for yml in tests/configs/good/*.yml; do
	t_case "good config $(basename "$yml") passes wheelgen check"
	t_check out/wheelgen check --config "$yml" >/dev/null
done

t_case "billion laughs is rejected at once, in little memory"
# (no address-space limit under ASan, which reserves terabytes of it)
case ${WG_CONFARGS:-} in *--sanitize*) limit=unlimited ;; *) limit=200000 ;; esac
# shellcheck disable=SC3045
if (ulimit -v "$limit"; timeout 2 out/wheelgen check --config tests/configs/bad/billion-laughs.yml) >/dev/null 2>&1; then
	t_fail "accepted"
else
	rc=$?
	if [ "$rc" -eq 1 ]; then t_pass; else t_fail "exit status $rc (124 = timeout)"; fi
fi

# hostile sizes: each stops with its error and position at once (libyaml's time grows with the
# square of the nesting; the duplicate-key check was quadratic in the keys)
python3 - "$WORK" <<'PY'
import sys
w = sys.argv[1]
open(w + "/deep.yml", "w").write("[" * 40000 + "\n")
with open(w + "/keys.yml", "w") as f:
    f.write('packages:\n  a:\n    source: {path: .}\n    versions: ["1"]\n    env:\n')
    f.writelines('      K%d: "x"\n' % i for i in range(40000))
    f.write('      K5: "again"\n')
open(w + "/huge.yml", "w").write("# " + "x" * (17 << 20) + "\n")
open(w + "/long.yml", "w").write('defaults: {python: ["' + "3" * (2 << 20) + '"]}\n')
PY
for c in "deep|1:65: error: lists and mappings nested more than 64 deep" \
	"keys|40006:7: error: duplicate key 'K5'" \
	"huge|1:1: error: the file has 17825795 bytes: at most 16777216 are allowed" \
	"long|1:21: error: a value of 2097152 bytes: at most 1048576 are allowed"; do
	name=${c%%|*} want=${c#*|}
	t_case "a hostile config ($name): one clear error at once"
	set +e
	# (5 s, or 30 under the sanitizers, which make the 40000 keys' checks several times slower)
	case ${WG_CONFARGS:-} in *--sanitize*) secs=30 ;; *) secs=5 ;; esac
	timeout "$secs" out/wheelgen check --config "$WORK/$name.yml" >/dev/null 2>"$WORK/$name.err"
	rc=$?
	set -e
	if [ "$rc" -eq 1 ] && grep -q "^$WORK/$name.yml:$want" "$WORK/$name.err" && [ "$(wc -c <"$WORK/$name.err")" -lt 2000 ]; then
		t_pass
	else
		t_fail "exit status $rc (124 = timeout)" "$(head -c 600 "$WORK/$name.err")"
	fi
done

# a full regeneration, then a broken config: ninja must fail and change nothing
t_case "ninja after breaking the config fails and leaves build.ninja and the graph byte-identical"
ninja build.ninja >"$WORK/regen.log" 2>&1 || true
snap() {
	{
		cksum build.ninja out/graph.ninja
		find out/cells -type f -exec cksum {} + | sort
		ls -l --time-style=+%s.%N build.ninja out/graph.ninja
	} >"$1"
}
snap "$WORK/before"
cp examples/quickstart/packages.yml "$WORK/good.yml"
broke=0
for bad in tests/configs/bad/unknown-keys.yml tests/configs/bad/syntax.yml tests/configs/bad/empty.yml; do
	cp "$bad" examples/quickstart/packages.yml
	if ninja >"$WORK/bad.log" 2>&1; then
		t_fail "ninja succeeded with $bad"
		broke=1
		break
	fi
	if ! grep -q "^examples/quickstart/packages.yml:[0-9]*:[0-9]*: error: " "$WORK/bad.log"; then
		t_fail "no file:line:col error for $bad" "$(head -n 10 "$WORK/bad.log")"
		broke=1
		break
	fi
	snap "$WORK/after"
	if ! cmp -s "$WORK/before" "$WORK/after"; then
		t_fail "files changed after $bad" "$(diff "$WORK/before" "$WORK/after" | head -n 20)"
		broke=1
		break
	fi
done
[ "$broke" = 1 ] || t_pass
cp "$WORK/good.yml" examples/quickstart/packages.yml

t_case "after the config is fixed, ninja regenerates again"
t_check ninja build.ninja >"$WORK/fixed.log" 2>&1
