#!/bin/sh
# bench/ci-sim.sh: the cells a CI run builds, commit after commit, today's workflow (every cell
# of the matrix, every time: runners start with an empty out/) against the keyed plan
# (wheelgen matrix --missing: only the cells whose key the store lacks), over the matrix of
# config/packages.yml; then, on the quickstart, runner B's restore-and-index time against
# runner A's build from scratch, in the same run.
#
#   sh bench/ci-sim.sh
#
# The builds of config/packages.yml are stand-ins (hours of nvcc): a planned cell is
# "published" by writing its manifest with its key into a directory store. Its git sources are
# pinned by a lock file of made-up commits, as 'wheelgen lock' pins real ones (a committed lock
# file is what makes a plan exact before anything is checked out). The commits: no change, a
# comment, a new Python, one package's version bumped, a new package, a patch edited. For each
# the number of changed cells is worked out apart from the keys (cell ids that are new, plus the
# cells of the package whose patch changed); the goal is keyed == changed on every commit.
# The quickstart part really builds (two Pythons) and really restores.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
W=$(mktemp -d "$(bench_base)/wgcisim.XXXXXX")
trap 'rm -rf "$W"' EXIT
clone() { # clone DIR: the tracked and untracked-but-not-ignored files of the tree
	mkdir -p "$1"
	(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$1"
}

repo=$W/repo
clone "$repo"
cd "$repo"
./configure >"$W/configure.log" 2>&1 || { cat "$W/configure.log"; exit 1; }
ninja out/wheelgen >/dev/null
store=$W/store
mkdir -p "$store"
WHEELGEN_STORE=$store
export WHEELGEN_STORE
cfg=config/packages.yml

# pin every (package, version) of a git source that the lock lacks with a made-up commit
lockall() {
	out/wheelgen matrix --config "$cfg" --tsv | awk -F'\t' 'NR > 1 && $7 == "" {print $2, $3}' | sort -u |
		while read -r p v; do
			printf '%s %s %s\n' "$p" "$v" "$(printf '%s %s' "$p" "$v" | sha1sum | cut -c1-40)"
		done >>config/packages.lock
}
# the stand-in for build and publish: each planned cell's manifest, with its key, in the store
publish() {
	awk -F'\t' 'NR > 1 {print $1, $7}' "$1" | while read -r cell key; do
		printf 'cell=%s\nkey=%s\n' "$cell" "$key" >"$store/$cell.manifest"
	done
}
ids() { out/wheelgen matrix --config "$cfg" | sort; }

lockall
ids >"$W/ids.prev"
# the state before the first commit: everything of the current config published
out/wheelgen matrix --config "$cfg" --tsv >"$W/plan"
publish "$W/plan"

printf '%-34s %7s %7s %7s %7s  %s\n' commit cells today keyed changed verdict
bad=0
step() { # step TITLE PACKAGE-WHOSE-FILES-CHANGED: after the edit, plan, compare, publish
	lockall
	ids >"$W/ids.now"
	all=$(wc -l <"$W/ids.now" | tr -d ' ')
	out/wheelgen matrix --config "$cfg" --tsv --missing >"$W/plan" 2>/dev/null
	keyed=$(($(wc -l <"$W/plan") - 1))
	# changed, apart from the keys: new cell ids, and the cells of a package whose files changed
	changed=$({
		comm -13 "$W/ids.prev" "$W/ids.now"
		[ -z "$2" ] || grep "^$2-[0-9]" "$W/ids.now"
	} | sort -u | wc -l | tr -d ' ')
	if [ "$keyed" = "$changed" ]; then v=ok; else v="MISMATCH"; bad=1; fi
	printf '%-34s %7s %7s %7s %7s  %s\n' "$1" "$all" "$all" "$keyed" "$changed" "$v"
	publish "$W/plan"
	mv "$W/ids.now" "$W/ids.prev"
}
step "no change" ""
echo "# a comment, as a contributor leaves one" >>"$cfg"
step "a comment" ""
sed -i 's/^  python: \["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t"\]$/  python: ["3.10", "3.11", "3.12", "3.13", "3.14", "3.14t", "3.15"]/' "$cfg"
step "a new Python (3.15)" ""
sed -i 's/^    versions: \["14.2.0"\]$/    versions: ["14.3.0"]/' "$cfg"
step "cupy 14.2.0 -> 14.3.0" ""
sed -i 's/^packages:$/packages:\n  wgsim:\n    source: {git: "https:\/\/example.invalid\/wgsim.git", tag: "v{version}"}\n    versions: ["1.0"]\n    torch: ["2.15"]\n    local_version: "cu{cuda}torch{torch}"\n    test_import: wgsim/' "$cfg"
step "a new package (wgsim)" ""
printf '# a note at the end of the patch\n' >>config/patches/causal-conv1d-1.6-archs.patch
step "causal-conv1d's patch edited" causal-conv1d

# the quickstart: runner A builds and publishes from scratch, runner B restores and indexes
qstore=$W/qstore
for r in a b; do
	clone "$W/q$r"
	{
		sed 's/^  python: .*/  python: ["3.11", "3.12"]/' "$W/q$r/examples/quickstart/packages.yml"
		printf 'publish: {dir: "%s"}\n' "$qstore"
	} >"$W/q$r/examples/quickstart/ci.yml"
	(cd "$W/q$r" && ./configure --config examples/quickstart/ci.yml && ninja out/wheelgen build.ninja) >"$W/q$r.log" 2>&1
done
WHEELGEN_STORE=
now() { date +%s.%N; }
t0=$(now)
(cd "$W/qa" && ninja && ninja publish) >>"$W/qa.log" 2>&1 || { tail -n 20 "$W/qa.log"; exit 1; }
t1=$(now)
(cd "$W/qb" && ninja) >>"$W/qb.log" 2>&1 || { tail -n 20 "$W/qb.log"; exit 1; }
t2=$(now)
restored=$(grep -c '^wheelgen: restored ' "$W/qb.log" || true)
echo
echo "quickstart (2 cells): runner A builds, tests, indexes and publishes; runner B (a fresh clone) restores and indexes"
awk -v a="$(echo "$t1 - $t0" | bc)" -v b="$(echo "$t2 - $t1" | bc)" -v n="$restored" 'BEGIN {
	printf "  A from scratch   %6.2f s\n  B restore+index  %6.2f s   (%d cells restored)\n  ratio            %6.1fx\n", a, b, n, a / b }'
if ! diff -r "$W/qa/out/index/simple" "$W/qb/out/index/simple" >/dev/null; then
	echo "  MISMATCH: B's simple/ differs from A's"
	bad=1
fi
exit "$bad"
