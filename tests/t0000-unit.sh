#!/bin/sh
# the C unit tests (tests/unit/*.c), built by the generated build.ninja
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

t_case "configure and build wheelgen and the unit tests"
if t_configure "$WORK/src" --config examples/quickstart/packages.yml && (cd "$WORK/src" && ninja out/unittest out/wheelgen) >"$WORK/build.log" 2>&1; then
	t_pass
	(cd "$WORK/src" && out/unittest) >"$WORK/unit.log" 2>&1 || true
	grep -v '^unit: ' "$WORK/unit.log" || true
	counts=$(sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$WORK/unit.log")
	if [ -n "$counts" ]; then
		# shellcheck disable=SC2086
		set -- $counts
		t_passed=$((t_passed + $1))
		t_failed=$((t_failed + $2))
		echo "ok - unit: $1 passed, $2 failed"
	else
		t_case "unit test binary ran to the end"
		t_fail "$(tail -n 20 "$WORK/unit.log")"
	fi
else
	t_fail "$(cat "$WORK/src.configure.log" "$WORK/build.log" 2>/dev/null | tail -n 30)"
fi

t_case "no function in gen/ (and gen/cc/) is longer than 100 lines (the longest are listed)"
awk 'FNR == 1 { name = "" }
	/^[a-z_][a-z0-9_]*\(/ && prev ~ /^[a-z]/ { name = $0; sub(/\(.*/, "", name); start = FNR }
	/^}/ && name != "" { printf "%d %s:%s\n", FNR - start, FILENAME, name; name = "" }
	{ prev = $0 }' "$top"/gen/*.c "$top"/gen/cc/*.c | sort -rn >"$WORK/lengths"
echo "# longest functions: $(head -n 3 "$WORK/lengths" | tr '\n' ' ')"
if [ -s "$WORK/lengths" ] && [ "$(head -n 1 "$WORK/lengths" | cut -d' ' -f1)" -le 100 ]; then
	t_pass
else
	t_fail "$(awk '$1 > 100' "$WORK/lengths")"
fi

t_case "wg_header_mtimes: installs whose equal #pragma once headers got other mtimes preprocess alike (the compile cache's key)"
# GCC skips a #pragma once header equal in size, mtime and content to one already included: with
# a.h and b.h unpacked in one second b.h is skipped, in two seconds it is not
for d in one two; do
	mkdir -p "$WORK/once/$d/include"
	printf '#pragma once\nnamespace n {}\n' >"$WORK/once/$d/include/a.h"
	cp "$WORK/once/$d/include/a.h" "$WORK/once/$d/include/b.h"
	printf '#include "include/a.h"\n#include "include/b.h"\n' >"$WORK/once/$d/main.cpp"
done
touch -m -d @1000000000 "$WORK/once/one/include/a.h" "$WORK/once/one/include/b.h" "$WORK/once/two/include/a.h"
touch -m -d @1000000001 "$WORK/once/two/include/b.h"
# shellcheck disable=SC2016
sh -c '. "$1/templates/step-lib.sh"; wg_header_mtimes "$2/one"; wg_header_mtimes "$2/two"' sh "$top" "$WORK/once"
pre() { (cd "$WORK/once/$1" && g++ -E main.cpp); }
if [ "$(pre one)" = "$(pre two)" ]; then t_pass; else t_fail "$(pre one | grep -c 'b\.h') and $(pre two | grep -c 'b\.h') lines name b.h"; fi

t_case "the spec variables are listed once for the steps (step-lib.sh's wg_specvars): the names gen/spec.c writes into cell specs"
want=$(grep -o '"WG_[A-Z_]*' "$top/gen/spec.c" | tr -d '"' | grep -v '^WG_PUBLISH_' ; grep -o 'WG_[A-Z_]*=%' "$top/gen/spec.c" | tr -d '=%')
# shellcheck disable=SC2086 # (one name per word)
want=$(printf '%s\n' $want | sort -u | tr '\n' ' ')
# shellcheck disable=SC2016
got=$(sh -c '. "$1/templates/step-lib.sh"; printf "%s\n" $wg_specvars' sh "$top" | sort -u | tr '\n' ' ')
if [ "$want" = "$got" ]; then t_pass; else t_fail "spec.c: $want" "step-lib: $got"; fi

# shellcheck disable=SC2016 # (a single-quoted case: t_expect)
t_expect "one reader per format: the config is parsed by config.c alone (torch-table and outdated edit the text and tree it read; yamledit.c parses only what it wrote), the plan by json.c, and summary.c greps no message of another room" '
	[ "$(grep -l "ydocparse(" "$top"/gen/*.c | sed "s|.*/||" | tr "\n" " ")" = "config.c yamledit.c ydoc.c " ]
	grep -q "jsonparse(" "$top/gen/summary.c"
	! grep -n "left out \|wheelgen: " "$top/gen/summary.c"'

t_case "one platform table: no file of gen/ but platform.c names a machine (wheelfile.c's ELF numbers are a format's), and torchindex.h's M_X86, M_ARM are its places"
grep -n '"[^" ]*\(x86_64\|aarch64\)"' "$top"/gen/*.c | grep -v '^[^:]*/gen/platform.c:' |
	grep -v '^[^:]*/gen/wheelfile.c:[0-9]*:	case [0-9]*: return "[a-z0-9_]*";$' >"$WORK/machines" || true
if [ ! -s "$WORK/machines" ] && grep -q '^	{ "x86_64", .*$' "$top/gen/platform.c" &&
	[ "$(grep -n '^	{ "[a-z0-9_]*", "' "$top/gen/platform.c" | sed -n 's/^[0-9]*:	{ "\([a-z0-9_]*\)".*/\1/p' | head -n 2 | tr '\n' ' ')" = "x86_64 aarch64 " ] &&
	grep -q '^enum { M_X86, M_ARM, NMACH };$' "$top/gen/torchindex.h"; then
	t_pass
else
	t_fail "$(cat "$WORK/machines")"
fi

t_case "every build-directory path goes through gen/layout.c: no code of gen/ outside it spells a place (\"out/\", %s/wheels/, logs, cells, ..., graph.ninja, the specs, host.txt)"
# shellcheck disable=SC2016 # ($builddir: ninja's, in the pattern)
# (code lines only: comments, usage texts and graph.c's rule texts, lines that are a string
# alone, are left out; gen/manifest.c's tests/<cell>.ok is the manifest room's to move)
grep -n -E '"out/|"[^"]*(%s|\$builddir)/(wheels|logs|cells|tests|publish|shards|src|store|variants|build)([/".]|$)|"[^"]*[/"](config\.ninja|graph\.ninja|publish\.spec|index\.spec|host\.txt|merge-index\.rsp|store-pull\.tsv|index-left-out\.tsv|index\.lock)' \
	"$top"/gen/*.c | sed "s|^$top/||" | grep -v -E '^gen/layout\.c:|^[^:]*:[0-9]*:[[:space:]]*("|/\*|\*)' |
	grep -v '^gen/manifest\.c:[0-9]*:		sbaddf(&p, "%s/tests/%s\.ok", builddir, w->cell);$' >"$WORK/places" || true
if [ ! -s "$WORK/places" ] && grep -q '^	\[BD_GRAPH\] = { "graph.ninja", NULL },$' "$top/gen/layout.c"; then
	t_pass
else
	t_fail "$(cat "$WORK/places")"
fi
