#!/bin/sh
# bench/family-bench.sh [--pythons N] [--runners R] [--estimate] [family | causal-conv1d | CONFIG]:
# a package's cells for N Pythons (default 3, this host's newest from 3.9 on) built as the workflow
# builds them (docs/manual.md, "Families in the workflow"): the plan's rows
# (wheelgen matrix --github --by-build), each job in a build directory of its own (a copy of the
# tree, configured afresh: empty local caches) holding only what the workflow would hand it (a
# final row: its parts' out/shards/<cell>/K when they are its own, and every part's
# out/families/<family>/), with WHEELGEN_FAMILY_CACHE=1 as the workflow sets it; the part and
# build rows first, then the final rows, R jobs at a time (default 1; each job on a processor of
# its own and configured --max-jobs 1, as a runner of its own would be). Prints each job's objects
# (compiled, reused from parts, from the family), its compile seconds (the processor seconds of
# its compiles: the manifest's compile_seconds) and wall seconds; the family's compile cache as the last final row saw it (what the
# Actions cache would hold); with --estimate, `wheelgen matrix --estimate` of the same plan on R
# runners, fed by what these builds recorded, against the measured wall time; and last
#   family: PACKAGE: N cells, compile total / one cell = R
# (one cell: what the family's parts compiled, every object of its first cell; else the first
# build row's). Fixtures: family (default; examples/family: CUDA kernels, one including
# Python.h, in 2 parts: a few minutes), causal-conv1d (docs/records/causal-conv1d.yml, its
# source the sdist of PyPI, for torch 2.15: about 7 minutes a cell on 2 cores, 2.5 GB of torch
# from PyPI unless uv's cache has it), or a config file. uv's download cache is shared
# (UV_CACHE_DIR, default out/cache/uv): it holds downloads, not compiled objects. WGB_KEEP=1
# keeps the work directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
npy=3
runners=1
estimate=0
what=family
while [ $# -gt 0 ]; do
	case $1 in
	--pythons) npy=$2; shift 2 ;;
	--runners) runners=$2; shift 2 ;;
	--estimate) estimate=1; shift ;;
	-h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) echo "family-bench: unknown option $1" >&2; exit 2 ;;
	*) what=$1; shift ;;
	esac
done
case $npy$runners in *[!0-9]*) echo "family-bench: --pythons and --runners want numbers" >&2; exit 2 ;; esac
if [ -z "${UV:-}" ] && [ -x "$top/out/tools/bin/uv" ]; then UV=$top/out/tools/bin/uv; export UV; fi
UV_CACHE_DIR=${UV_CACHE_DIR:-$top/out/cache/uv}
export UV_CACHE_DIR
work=$(mktemp -d "${TMPDIR:-/tmp}/wgfamilybench.XXXXXX")
[ -n "${WGB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tree"
(cd "$top" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$work/tree"

src=
case $what in
family) cfg=examples/family/packages.yml ;;
causal-conv1d)
	cfg=docs/records/causal-conv1d.yml
	# the source: PyPI's sdist of the recorded version (GitHub may be out of reach), checked
	# against the sha256 of PyPI's link
	v=1.6.1
	link=$(curl -fsS -m 60 "${WGB_PYPI:-https://pypi.org/simple}/causal-conv1d/" | grep -o "href=\"[^\"]*causal_conv1d-$v\.tar\.gz#sha256=[0-9a-f]*\"" | head -n 1)
	[ -n "$link" ] || { echo "family-bench: no causal_conv1d-$v.tar.gz on PyPI's page" >&2; exit 1; }
	url=${link#href=\"}
	url=${url%\"}
	curl -fsS -m 600 -o "$work/sdist.tar.gz" "${url%%#*}"
	[ "$(sha256sum "$work/sdist.tar.gz" | cut -d' ' -f1)" = "${url##*#sha256=}" ] || { echo "family-bench: the sdist's sha256 is not PyPI's" >&2; exit 1; }
	tar -xzf "$work/sdist.tar.gz" -C "$work"
	src=$work/causal_conv1d-$v
	;;
*.yml | *.yaml) cfg=$what ;;
*) echo "family-bench: family, causal-conv1d or a config file, not '$what'" >&2; exit 2 ;;
esac
[ -f "$work/tree/$cfg" ] || { echo "family-bench: no $cfg in the tree" >&2; exit 2; }

# wheelgen once, and the Pythons: this host's newest N from 3.9 on
(cd "$work/tree" && ./configure --config "$cfg" >"$work/configure.log" 2>&1) || { tail -n 20 "$work/configure.log" >&2; exit 1; }
pys=$(sed -n 's/^python \(3\.[0-9]*\) .*/\1/p' "$work/tree/out/host.txt" | awk -F. '$2 >= 9' | sort -t. -k2,2n -u | tail -n "$npy")
[ "$(echo "$pys" | wc -w)" -eq "$npy" ] || { echo "family-bench: $npy Pythons from 3.9 on wanted, this host has: $pys" >&2; exit 1; }
list=$(echo "$pys" | sed 's/.*/"&"/' | paste -s -d, - | sed 's/,/, /g')
# (every python: list of the config: its defaults and its torch rows)
sed -i "s/python: \[[^]]*\]/python: [$list]/g" "$work/tree/$cfg"
[ -z "$src" ] || sed -i "s|^    source: .*|    source: {path: $src}|" "$work/tree/$cfg"
wg=$work/tree/out/wheelgen
(cd "$work/tree" && "$wg" matrix --config "$cfg" --host out/host.txt --github --by-build --split 1) >"$work/plan"
echo "# $what: Pythons $(echo "$pys" | tr '\n' ' ')on $runners runner(s); the plan:"
grep -E '^(count|partcount|finalcount)1=' "$work/plan" | tr '\n' ' '
echo

python3 - "$work" "$cfg" "$runners" "$estimate" "$what" <<'PY'
import json, os, shutil, subprocess, sys, time

work, cfg, runners, estimate, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5]
lines = dict(l.split("=", 1) for l in open(os.path.join(work, "plan")).read().splitlines() if "=" in l)
rows = lambda k: json.loads(lines[k])["include"]
parts, builds, finals = rows("parts1"), rows("matrix1"), rows("finals1")
jobs = [("part", r) for r in parts] + [("build", r) for r in builds]
wg = os.path.join(work, "tree", "out", "wheelgen")
env = dict(os.environ, WHEELGEN_FAMILY_CACHE="1")
cpus = os.sched_getaffinity(0)


def fields(path):
    try:
        return dict(l.split("=", 1) for l in open(path).read().splitlines() if "=" in l)
    except OSError:
        return {}


def copytree(a, b):
    if os.path.isdir(a):
        shutil.copytree(a, b, dirs_exist_ok=True)


def start(n, kind, r, slot):
    d = os.path.join(work, "job%02d" % n)
    os.makedirs(d)
    subprocess.run("(cd '%s' && tar --exclude=./out -cf - .) | tar -xf - -C '%s'" % (os.path.join(work, "tree"), d),
                   shell=True, check=True)
    if kind == "final":
        # what the workflow hands a final row: its parts' objects where they are its own, and what
        # every part put into the family's compile cache
        for pd, pr in partdirs:
            if pr["cell"] == r["partsof"] == r["build"]:
                copytree(os.path.join(pd, "out", "shards", pr["cell"], pr["part"]),
                         os.path.join(d, "out", "shards", pr["cell"], pr["part"]))
            copytree(os.path.join(pd, "out", "families", r["family"]), os.path.join(d, "out", "families", r["family"]))
    target = r["targets"] if kind == "part" else "wheel/" + r["build"]
    pin = ["taskset", "-c", str(sorted(cpus)[slot % len(cpus)])] if runners > 1 and shutil.which("taskset") else []
    cmd = pin + ["sh", "-c", "./configure --config %s --wheelgen %s --max-jobs 1 >configure.log 2>&1 && "
                 "t=$(date +%%s.%%N) && ninja %s >ninja.log 2>&1; rc=$?; echo $t >ninja.start; exit $rc" % (cfg, wg, target)]
    return subprocess.Popen(cmd, cwd=d, env=env), d, kind, r, time.time()


partdirs, done = [], []
t0 = time.time()


def run(phase):
    pending, running = list(phase), []
    slots = list(range(runners))
    while pending or running:
        while pending and slots:
            kind, r = pending.pop(0)
            running.append((start(len(done) + len(running) + 1, kind, r, slots[0]), slots.pop(0)))
        time.sleep(0.5)
        for item in list(running):
            (p, d, kind, r, s), slot = item
            if p.poll() is None:
                continue
            running.remove(item)
            slots.append(slot)
            if p.returncode:
                sys.exit("family-bench: %s %s failed: %s" % (kind, r["cell"], open(os.path.join(d, "ninja.log")).read()[-3000:]))
            done.append((kind, r, d, s, time.time()))
            if kind == "part":
                partdirs.append((d, r))


run(jobs)
run([("final", r) for r in finals])
wall = time.time() - t0
print("%-6s %-44s %8s %6s %6s %7s %8s %7s" % ("job", "cell", "compiled", "reused", "family", "compile", "ninja s", "wall s"))
total = onecell = 0.0
famsize = 0
for kind, r, d, s, e in done:
    cell = r["cell"]
    if kind == "part":
        f = fields(os.path.join(d, "out", "shards", cell, r["part"], "objects"))
        secs = float(f.get("work_seconds", 0))
        onecell += secs
        name = "part%s" % r["part"]
    else:
        f = fields(os.path.join(d, "out", "wheels", r["build"], "manifest"))
        f = {"compiled": f.get("objects_compiled"), "reused": f.get("objects_reused"), "family": f.get("objects_family"),
             "seconds": f.get("compile_seconds")}
        secs = float(f["seconds"] or 0)
        name = kind
        fd = os.path.join(d, "out", "families", r["family"])
        if os.path.isdir(fd):
            famsize = max(famsize, int(subprocess.run(["du", "-sk", fd], capture_output=True, text=True).stdout.split()[0]))
    if kind == "build" and not onecell:
        onecell = secs
    total += secs
    ns = e - float(open(os.path.join(d, "ninja.start")).read())
    print("%-6s %-44s %8s %6s %6s %7.0f %8.0f %7.0f" % (name, cell, f.get("compiled"), f.get("reused"), f.get("family"), secs, ns, e - s))
print("wall: %.0f s on %d runner%s (%d jobs); the family's compile cache as the last final row saw it: %.1f MB"
      % (wall, runners, "" if runners == 1 else "s", len(done), famsize / 1024))
if estimate:
    # the estimate of the same plan, fed by what these builds recorded (the wheels of every row but
    # the parts: a final row's manifest's job_times hold its parts' too), with this machine's
    # overhead of a job (copying the tree and configuring) in place of a runner's
    over = sum(float(open(os.path.join(d, "ninja.start")).read()) - s for kind, r, d, s, e in done) / len(done)
    recs = os.path.join(work, "recorded")
    for kind, r, d, s, e in done:
        if kind != "part":
            copytree(os.path.join(d, "out", "wheels", r["build"]), os.path.join(recs, "wheels", r["build"]))
    for n in sorted({1, 2, runners}):
        out = subprocess.run([wg, "matrix", "--config", cfg, "--host", "out/host.txt", "--builddir", recs, "--estimate",
                              "--runners", str(n), "--job-overhead", "%.2f" % (over / 60)],
                             cwd=os.path.join(work, "tree"), capture_output=True, text=True)
        if n == runners:
            print(out.stdout + out.stderr, end="")
        est = [l for l in out.stdout.splitlines() if l.startswith("wall: ")]
        if est:
            e = float(est[0].split("(")[1].split(" s)")[0])
            print("estimate on %d runner%s: %.0f s%s" % (n, "" if n == 1 else "s", e,
                  ", measured: %.0f s, estimate / measured = %.2f" % (wall, e / wall) if n == runners else ""))
cells = len(builds) + len(finals)
print("family: %s: %d cells, compile total / one cell = %.2f" % (what, cells, total / onecell if onecell else 0))
PY
