#!/bin/sh
# the C unit tests (tests/unit/*.c), built by the generated build.ninja
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

t_case "configure and build wheelgen and the unit tests"
if t_configure "$WORK/src" --config examples/quickstart/packages.yml && (cd "$WORK/src" && ninja out/unittest out/wheelgen out/wheelgen-step) >"$WORK/build.log" 2>&1; then
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

t_case "no function in gen/ (and gen/cc/, gen/step/) is longer than 100 lines (the longest are listed)"
awk 'FNR == 1 { name = "" }
	/^[a-z_][a-z0-9_]*\(/ && prev ~ /^[a-z]/ { name = $0; sub(/\(.*/, "", name); start = FNR }
	/^}/ && name != "" { printf "%d %s:%s\n", FNR - start, FILENAME, name; name = "" }
	{ prev = $0 }' "$top"/gen/*.c "$top"/gen/cc/*.c "$top"/gen/step/*.c | sort -rn >"$WORK/lengths"
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

# shellcheck disable=SC2016 # (single-quoted cases: t_expect)
t_expect "one platform table: no file of gen/ but platform.c names a machine (\"x86_64\", \"aarch64\": ELF numbers too), torchindex.h's M_X86, M_ARM are its places, config.c's messages name platforms from it" '
	cd "$top/gen"
	! grep -n "\"[^\" ]*\(x86_64\|aarch64\)\"" *.c cc/*.c step/*.c | grep -v "^platform\.c:" || exit 1
	grep -q "^	{ \"x86_64\", .*\$" platform.c
	[ "$(sed -n "s/^	{ \"\([a-z0-9_]*\)\", \".*/\1/p" platform.c | head -n 2 | tr "\n" " ")" = "x86_64 aarch64 " ]
	grep -q "^enum { M_X86, M_ARM, NMACH };\$" torchindex.h
	! grep -n "\"[^\"]*\(x86_64\|aarch64\|win_amd64\)[^\"]*\"" config.c'
# shellcheck disable=SC2016
t_expect "one platform table: no template spells an ELF machine number (62, 183: wheelgen-step elf-machines), a cross compilers' prefix or a manylinux floor (the spec's WG_CROSS_PREFIX, WG_MANYLINUX_FLOOR); configure asks wheelgen for the config's platforms, never greps its text" '
	cd "$top"
	! grep -nw -E "62|183" templates/* || exit 1
	! grep -n -E "linux-gnu-|w64-mingw32|2_28|--at-least [0-9]" templates/*.sh | grep -v -E "^[^:]*:[0-9]*:[[:space:]]*#" || exit 1
	[ "$("$WORK/src/out/wheelgen-step" elf-machines | head -n 2 | tr "\n" " ")" = "62 x86_64 183 aarch64 " ]
	! grep -n "grep[^|]*\"\$config\"" configure || exit 1
	grep -q "matrix --config \"\$config\" --tsv" configure'
# shellcheck disable=SC2016 # (single-quoted cases: t_expect)
t_expect "wheelgen-step writes a manifest as the build step did (manifest.py before it), byte for byte, and reads each field back" '
	st=$WORK/src/out/wheelgen-step sha=$(printf x | sha256sum | cut -c1-64)
	"$st" manifest-write "$WORK/m" --set cell x-1.0-py312 --set package x --set version 1.0 --set python 3.12 --set cuda "" \
		--set torch "" --set wheel_version 1.0 --set filename x-1.0-py3-none-any.whl --set sha256 "$sha" --set size 1 \
		--set requires_python ">=3.8" --set tags py3-none-any --set platform x86_64 --set origin build --set upload_time 7 >"$WORK/said"
	printf "cell=x-1.0-py312\npackage=x\nversion=1.0\npython=3.12\ncuda=\ntorch=\nwheel_version=1.0\nfilename=x-1.0-py3-none-any.whl\nsha256=%s\nsize=1\nrequires_python=>=3.8\ntags=py3-none-any\nplatform=x86_64\norigin=build\nupload_time=7\n" "$sha" >"$WORK/m.want"
	cmp "$WORK/m.want" "$WORK/m" && [ "$(cat "$WORK/said")" = updated ] || exit 1
	[ "$("$st" manifest-write "$WORK/m" --from "$WORK/m")" = unchanged ] || exit 1
	[ "$("$st" manifest-get "$WORK/m" filename)" = x-1.0-py3-none-any.whl ] && [ "$("$st" manifest-get - sha256 <"$WORK/m")" = "$sha" ] || exit 1
	[ "$("$st" manifest-get "$WORK/m" requires_python)" = ">=3.8" ] && [ -z "$("$st" manifest-get "$WORK/m" torch_version)" ] || exit 1
	"$st" manifest-write "$WORK/s" --from "$WORK/m" --drop origin --set cell y --set abi_from x-1.0-py312 >/dev/null
	[ "$(sed -n "1p;\$p" "$WORK/s" | tr "\n" " ")" = "cell=y abi_from=x-1.0-py312 " ] && ! grep -q "^origin=" "$WORK/s" || exit 1
	printf "%s\ngpu=passed\n" "$sha" >"$WORK/rec"
	"$st" manifest-entry "$WORK/e" "$WORK/m" "$WORK/rec" --release wheels-x-1.0-py312
	[ "$(tail -n 4 "$WORK/e" | tr "\n" " ")" = "origin=build tested=$sha gpu=passed stored=wheels-x-1.0-py312/x-1.0-py3-none-any.whl " ] || exit 1
	[ "$("$st" store-blob "$sha" x.whl)" = "blobs/$sha/x.whl" ] || exit 1
'
# shellcheck disable=SC2016
t_expect "wheelgen-step: a field that is not one (a script that misspells it) is an error, and so is a manifest that is none" '
	st=$WORK/src/out/wheelgen-step
	! "$st" manifest-get "$WORK/m" file_name 2>"$WORK/err" && grep -q "^wheelgen-step: error: .file_name. is not a field of a manifest$" "$WORK/err" || exit 1
	! "$st" manifest-write "$WORK/m2" --set sha 0 2>"$WORK/err" && grep -q "is not a field of a manifest" "$WORK/err" && [ ! -e "$WORK/m2" ] || exit 1
	! "$st" manifest-write "$WORK/m2" --set cell "$(printf "a\nb")" 2>/dev/null || exit 1
	printf "package=x\nfilename=../x.whl\nsha256=0\n" >"$WORK/bad"
	! "$st" manifest-get "$WORK/bad" package 2>"$WORK/err" && grep -q "filename is not a plain file name" "$WORK/err" || exit 1
	! "$st" store-blob 0 x.whl 2>/dev/null && ! "$st" store-blob "$(printf x | sha256sum | cut -c1-64)" ../x 2>/dev/null || exit 1
	! "$st" nonsense 2>/dev/null || exit 1
'

# One owner per format (issue 39): the manifest's fields and the store's layout.
# spelled FILE...: each line of code that spells a manifest field as a key -- NAME= right after
# a quote, a regular expression's ^ or a \n (printf's, sbaddf's), NAME one of gen/manifest.c's
# table and not followed by a second = ("torch==2.8.*" is pip's) -- or spells the store's
# directory of blobs (blobs/), as "FILE:LINE:NAME= TEXT". Comments do not count: in C, what
# /* */ encloses (gen/ has no // comments); in a shell or Python script, a line that starts with # and what follows
# " #" (a docstring is not told from code)
fields=$(sed -n 's/^	{ "\([a-z0-9_]*\)", F[A-Z]*, .*/\1/p' "$top/gen/manifest.c" | tr '\n' '|')
spelled() {
	# shellcheck disable=SC2016 # (awk's program)
	WG_RE="([\"'^]|\\\\n)(${fields%|})=([^=]|\$)" awk '
	FNR == 1 { inc = 0 }
	{ line = $0 }
	FILENAME ~ /\.(sh|py)$/ { if (line ~ /^[ \t]*#/) next; sub(/[ \t]#.*/, "", line) }
	FILENAME ~ /\.[ch]$/ {
		if (inc) { if (!(j = index(line, "*/"))) next; line = substr(line, j + 2); inc = 0 }
		while ((i = index(line, "/*")) > 0) {
			rest = substr(line, i + 2)
			if ((j = index(rest, "*/"))) { line = substr(line, 1, i - 1) " " substr(rest, j + 2) }
			else { line = substr(line, 1, i - 1); inc = 1 }
		}
	}
	match(line, ENVIRON["WG_RE"]) { k = substr(line, RSTART, RLENGTH); sub(/^(["\047^]|\\n)/, "", k); sub(/=.*/, "=", k)
		print FILENAME ":" FNR ":" k " " $0; next }
	index(line, "blobs/") { print FILENAME ":" FNR ":blobs/ " $0 }' "$@"
}
t_case "one owner per format: the check finds a field or blobs/ spelled in code (and not in a comment)"
cat >"$WORK/spelled.sh" <<'SH'
# sed -n 's/^sha256=//p' and blobs/ in a comment do not count
filename=$(sed -n 's/^filename=//p' "$m")
printf 'origin=build\ntested=%s\n' "$sha"
set -- "cell=$CELL" "torch==$t.*"
blob=blobs/$sha
SH
printf '\tsbaddf(&b, "blobs/%%s/%%s", sha, file); /* not "key=" here */\n\tsbadd(&s, "stored=");\n' >"$WORK/spelled.c"
spelled "$WORK/spelled.sh" "$WORK/spelled.c" | cut -d: -f2- | cut -d' ' -f1 >"$WORK/spelled"
printf '%s\n' 2:filename= 3:origin= 4:cell= 5:blobs/ 1:blobs/ 2:stored= >"$WORK/spelled.want"
if [ "$fields" != "${fields#cell|package|version|filename|sha256|}" ] && cmp -s "$WORK/spelled.want" "$WORK/spelled"; then
	t_pass
else
	t_fail "fields: $fields" "found: $(cat "$WORK/spelled")"
fi
t_case "one owner per format: no file of gen/ or templates/ but gen/manifest.c spells a manifest field as NAME=, none but gen/storelayout.[ch] spells blobs/ (the steps ask out/wheelgen-step)"
# (other formats that share a name: sha256= of a PEP 503 URL's fragment and of a wheel's RECORD,
# gpu= of the test record, tests/<cell>.ok, that test-host.sh and restore.c write)
spelled "$top"/gen/*.c "$top"/gen/*.h "$top"/gen/cc/*.c "$top"/gen/step/*.c "$top"/templates/*.sh "$top"/templates/*.py |
	sed "s|^$top/||" | grep -v -e '^gen/manifest\.c:[0-9]*:[a-z0-9_]*= ' -e '^gen/storelayout\.[ch]:[0-9]*:blobs/ ' \
		-e '^\(gen/index\.c\|gen/simpleapi\.c\|templates/relabel\.py\):[0-9]*:sha256= ' \
		-e '^\(templates/test-host\.sh\|gen/restore\.c\):[0-9]*:gpu= ' >"$WORK/owners" || true
if [ ! -s "$WORK/owners" ] && [ ! -e "$top/templates/manifest.py" ]; then t_pass; else t_fail "$(cat "$WORK/owners")"; fi
# One voice (issue 49): ownvoice FILE... lists each line of code (a comment line does not count)
# that writes wheelgen's prefix itself -- a string or a sed pattern that starts with "wheelgen: "
# -- or defines a say, warn, die or fail of its own, as FILE:LINE:TEXT; and each script (#!)
# that speaks (wg_say, wg_warn, wg_die, wg_fail, wg_unsay, or through step-lib.sh or
# publish-lib.sh) without sourcing voice.sh, as "FILE: speaks without voice.sh"
ownvoice() {
	# shellcheck disable=SC2016 # (the patterns)
	grep -n -E "['\"^]wheelgen: |(^|[[:space:];])(wg_)?(say|warn|die|fail)[[:space:]]*\(\)" "$@" |
		grep -v -E '^[^:]*:[0-9]*:[[:space:]]*#' || true
	for f in "$@"; do
		head -n 1 "$f" | grep -q '^#!' || continue
		if grep -q -E 'wg_(say|warn|die|fail|unsay)|/(step|publish)-lib\.sh"' "$f" && ! grep -q '^\. ".*/voice\.sh"$' "$f"; then
			echo "$f: speaks without voice.sh"
		fi
	done
}
# shellcheck disable=SC2016 # (single-quoted cases: t_expect)
t_expect "one voice: the check finds a script that spells wheelgen's prefix, defines its own die or say, or speaks without voice.sh (and not a comment)" '
	mkdir -p "$WORK/voice"
	cd "$WORK/voice"
	printf "%s\n" "#!/bin/sh" ". \"\$(dirname \"\$0\")/voice.sh\"" "# prints \"wheelgen: x\" (a comment)" \
		"printf '"'"'wheelgen: http: %s\\n'"'"' \"\$u\" >&2" "echo \"wheelgen: \$cell: gone\"" "sed '"'"'s/^wheelgen: //'"'"'" \
		"die() {" "    wg_say x" "}" "f.write(\"# wheelgen: a file'"'"'s comment\")" >spells.sh
	printf "%s\n" "#!/bin/sh" ". \"\$(dirname \"\$0\")/publish-lib.sh\"" "wg_fail 1 x" >mute.sh
	printf "%s\n" "#!/bin/sh" "exec sh run.sh" >silent.sh
	ownvoice spells.sh mute.sh silent.sh | sed "s/^\\([^:]*:[0-9]*\\):.*/\\1/" >found
	printf "%s\n" spells.sh:4 spells.sh:5 spells.sh:6 spells.sh:7 "mute.sh: speaks without voice.sh" >want
	diff want found'
# shellcheck disable=SC2016
t_expect "one voice: every script of templates/ says things through voice.sh (wg_say, wg_warn, wg_die, wg_fail): none spells \"wheelgen: \" or defines its own die or say, and each that speaks sources it" '
	cd "$top/templates"
	set --
	for f in *.sh; do [ "$f" = voice.sh ] || set -- "$@" "$f"; done
	ownvoice "$@" >"$WORK/voices"
	! grep . "$WORK/voices" || exit 1
	[ "$(grep -c "^    printf \"wheelgen: %s" voice.sh)" = 2 ]
	[ "$(grep -l "^\. \".*/voice\.sh\"$" *.sh | wc -l)" -ge 12 ]'

# shellcheck disable=SC2016
t_expect "one depfile writer: esc.c's escdepfile (escdep is called nowhere else), which a wheel's (key.c), a part's (wheelgen-step depfile, build-host.sh's) and a skipped compile's (wheelgen-cc) go through; no template writes a depfile line itself" '
	cd "$top/gen"
	[ "$(grep -l "escdep(" *.c cc/*.c step/*.c)" = esc.c ]
	[ "$(grep -l "escdepfile(" *.c cc/*.c step/*.c | tr "\n" " ")" = "esc.c key.c cc/wheelgen-cc.c step/wheelgen-step.c " ]
	[ "$(grep -c "\"\$B/wheelgen-step\" depfile " ../templates/build-host.sh)" = 2 ]
	! grep -n "printf .%s:" ../templates/*.sh'

t_case "one HTTP client: no file of gen/ but http.c runs curl or a shell (popen), and no template but publish-lib.sh (wg_auth, wg_curl) builds an Authorization header or hands curl a header file"
grep -n 'popen(\|"curl[ "]' "$top"/gen/*.c "$top"/gen/cc/*.c "$top"/gen/step/*.c | grep -v '^[^:]*/gen/http\.c:' >"$WORK/curls" || true
grep -n 'Authorization\|-H *@\|--header *@\|--location-trusted' "$top"/templates/* | grep -v '^[^:]*/templates/publish-lib\.sh:' |
	grep -v '^[^:]*:[0-9]*:[[:space:]]*#' >>"$WORK/curls" || true
if [ ! -s "$WORK/curls" ] && grep -q 'posix_spawnp(&x->pid, "curl"' "$top/gen/http.c" &&
	grep -q '^wg_auth() {$' "$top/templates/publish-lib.sh"; then
	t_pass
else
	t_fail "$(cat "$WORK/curls")"
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
