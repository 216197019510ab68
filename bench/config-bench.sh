#!/bin/sh
# bench/config-bench.sh [MB...]: does loading a config stay linear in its size?
#
# Writes configs of realistic shape (packages with a git source, versions, an env mapping of
# 20 keys, extra_deps, a test command; about 1 KB each) of 1, 2.5, 5 and 10 MB (or the sizes
# given), and times `wheelgen check` on each (the loader, every validator and the matrix). It
# prints seconds per MB and, as the ratio, each size's seconds per MB against the smallest
# size's, measured in the same run: about 1 means linear (a quadratic step would make the
# 10 MB ratio about 10). Also the same for a flat mapping of 200,000 env keys (the duplicate-key
# check, once quadratic). Needs a built out/wheelgen.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
wg=${WHEELGEN:-$top/out/wheelgen}
[ -x "$wg" ] || { echo "bench: build $wg first: ./configure && ninja out/wheelgen" >&2; exit 1; }
# shellcheck source=bench/lib.sh
. "$top/bench/lib.sh"
sizes=${*:-1 2.5 5 10}
work=$(mktemp -d "$(bench_base)/wgcfg.XXXXXX")
trap 'rm -rf "$work"' EXIT

# shellcheck disable=SC2086
python3 - "$work" $sizes <<'PY'
import sys
work, sizes = sys.argv[1], sys.argv[2:]
pkg = '''  pkg{i}:
    description: Package number {i} of a large generated config, with a realistic shape
    source: {{git: "https://github.com/example{o}/pkg{i}.git", tag: "v{{version}}"}}
    versions: ["1.{i}.0"]
    python: ["3.12"]
    env:
{env}    extra_deps: [packaging, ninja, "setuptools>=77", wheel]
    memory_per_job_gb: "4"
    test_import: pkg{i}
    test_command: python -c "import pkg{i}; print('pkg{i} ok')"
'''
for mb in sizes:
    with open("%s/cfg-%s.yml" % (work, mb), "w") as f:
        f.write("packages:\n")
        i = 0
        while f.tell() < float(mb) * 1048576:
            env = "".join('      PKG{0}_SETTING_{1}: "value-{1}"\n'.format(i, k) for k in range(20))
            f.write(pkg.format(i=i, o=i % 97, env=env))
            i += 1
with open(work + "/keys.yml", "w") as f:
    f.write('packages:\n  a:\n    source: {path: .}\n    versions: ["1"]\n    python: ["3.12"]\n    env:\n')
    f.writelines('      K%d: "x"\n' % i for i in range(200000))
PY

best() { # best N CMD...: the best of N wall times, in seconds
	n=$1
	shift
	python3 - "$n" "$@" <<'PY'
import subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
t = []
for _ in range(n):
    s = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t.append(time.perf_counter() - s)
    if r.returncode not in (0,):
        sys.exit("bench: %s failed (exit %d)" % (" ".join(cmd), r.returncode))
print("%.4f" % min(t))
PY
}

printf '%-12s %8s %8s %10s %14s\n' config MB check_s s_per_MB ratio_to_first
first=
for mb in $sizes; do
	f=$work/cfg-$mb.yml
	real=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.2f", b / 1048576 }')
	s=$(best 3 "$wg" check --config "$f")
	per=$(awk -v s="$s" -v m="$real" 'BEGIN { printf "%.4f", s / m }')
	[ -n "$first" ] || first=$per
	printf '%-12s %8s %8s %10s %14s\n' "cfg-$mb" "$real" "$s" "$per" "$(awk -v a="$per" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
done
f=$work/keys.yml
real=$(awk -v b="$(wc -c <"$f")" 'BEGIN { printf "%.2f", b / 1048576 }')
s=$(best 3 "$wg" check --config "$f")
per=$(awk -v s="$s" -v m="$real" 'BEGIN { printf "%.4f", s / m }')
printf '%-12s %8s %8s %10s %14s\n' "200k-keys" "$real" "$s" "$per" "$(awk -v a="$per" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
