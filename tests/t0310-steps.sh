#!/bin/sh
# the step scripts (templates/) are one fact with one owner, gen/steps.c's table, which the
# graph's edges and the keys both read: for every backend, the scripts a cell's key hashes are
# exactly the scripts its build and test edges depend on; and touching a script makes ninja
# rerun exactly the edges that run it (ninja -d explain names the script), nothing else
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_copytree "$src"
cd "$src"

# a stand-in podman on PATH: configure --backend podman only needs to find it (nothing runs)
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nexit 0\n' >"$WORK/bin/podman"
chmod +x "$WORK/bin/podman"

# keyscripts CELL: the scripts the cell's key hashes, sorted
keyscripts() {
	out/wheelgen key --host out/host.txt --explain "$1" | sed -n 's/^template \([^ ]*\) .*/\1/p' | sort -u
}
# edgescripts TARGET...: the templates/ inputs of the edges that make TARGET..., sorted
edgescripts() {
	for t in "$@"; do ninja -t query "$t"; done | sed -n 's|^ *[|]* *templates/\([^ ]*\)$|\1|p' | sort -u
}
# the same for a cell: its build and test edges (a shared wheel's: its builder's build edge too)
celledgescripts() {
	set -- "out/wheels/$1/manifest" "out/tests/$1.done"
	from=$(ninja -t query "$1" | sed -n 's|^ *\(out/wheels/[^ ]*/manifest\)$|\1|p' | head -n 1)
	[ -z "$from" ] || set -- "$@" "$from"
	edgescripts "$@"
}

for backend in host podman; do
	for cfg in examples/quickstart/packages.yml examples/cuda/packages.yml examples/torch/packages.yml; do
		t_case "$backend backend, $cfg: each cell's key hashes exactly the scripts its build and test edges depend on"
		# shellcheck disable=SC2086
		if ! PATH=$WORK/bin:$PATH ./configure ${WG_CONFARGS:-} --backend "$backend" --config "$cfg" >"$WORK/configure.log" 2>&1 ||
			! PATH=$WORK/bin:$PATH ninja build.ninja >"$WORK/regen.log" 2>&1; then
			t_fail "$(cat "$WORK/configure.log" "$WORK/regen.log")"
			continue
		fi
		bad='' n=0
		# (the cells this host can build: the others have no build edge, only the reason)
		for cell in $(out/wheelgen matrix --table --config "$cfg" | awk '$3 == "yes" { print $1 }'); do
			keyscripts "$cell" >"$WORK/key.list"
			celledgescripts "$cell" >"$WORK/edge.list"
			n=$((n + 1))
			if [ ! -s "$WORK/key.list" ] || ! cmp -s "$WORK/key.list" "$WORK/edge.list"; then
				bad="$bad$cell: key [$(tr '\n' ' ' <"$WORK/key.list")] edges [$(tr '\n' ' ' <"$WORK/edge.list")]
"
			fi
		done
		if [ -z "$bad" ] && [ "$n" -gt 0 ]; then t_pass; else t_fail "$n cells; $bad"; fi
	done
	t_case "$backend backend: the container scripts are in the keys exactly when the steps run in a container"
	if [ "$backend" = podman ]; then want=3; else want=0; fi
	got=$(keyscripts wgtorch-0.1.0-py312-cu130-torch2.13 | grep -c container || true)
	if [ "$got" -eq "$want" ]; then t_pass; else t_fail "$got container scripts in the key, want $want"; fi
done

# --- touching each script reruns exactly the edges that run it (the host backend, built) -------
# shellcheck disable=SC2086
./configure ${WG_CONFARGS:-} --config examples/quickstart/packages.yml >"$WORK/configure.log" 2>&1
py=$(t_pythons 1)
cell=wgquickstart-0.1.0-py$(echo "$py" | tr -d .)
t_case "the quickstart cell builds and tests (host backend)"
if ninja "test/$cell" >"$WORK/build.log" 2>&1; then t_pass; else t_fail "$(tail -n 30 "$WORK/build.log")"; fi

# rerun SCRIPT: after touching templates/SCRIPT, the outputs whose edge ninja reruns because of
# that very script (ninja -d explain: "... older than most recent input templates/SCRIPT"), as
# "wheel", "test" (the cell's two keyed steps), one word per line, sorted
# (an edge whose input is itself to be rebuilt is explained by that input: so the wheel is
# rebuilt first, restat keeps its manifest's time, and the test edge is asked again)
rerun() {
	sleep 0.01
	touch "templates/$1"
	{
		ninja -n -d explain "test/$cell" 2>&1
		ninja "wheel/$cell" >/dev/null 2>&1
		ninja -n -d explain "test/$cell" 2>&1
	} | sed -n "s|^ninja explain: .*output \([^ ]*\) older than most recent input templates/$1 .*|\1|p" |
		sed -e "s|^out/wheels/$cell/manifest\$|wheel|" -e "s|^out/tests/$cell.done\$|test|" | sort -u
	# the build back in step
	ninja "test/$cell" >/dev/null 2>&1
}
for s in templates/*; do
	s=${s#templates/}
	case $s in
	build-host.sh | wheel-info.py | relabel.py | linux-repair.py) want=wheel ;;
	step-lib.sh | voice.sh | cuda-libs.txt) want="test wheel" ;;
	test.sh | test-host.sh | test-view.sh) want='test' ;;
	*) want= ;; # the container's, the shared wheels', the variants' and the publishers': no edge of this cell's
	esac
	t_case "touch templates/$s: ninja reruns ${want:-nothing} of a host cell"
	got=$(rerun "$s" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then t_pass; else t_fail "reran: '$got', want '$want'"; fi
done
