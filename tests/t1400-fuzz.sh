#!/bin/sh
# the fuzz targets (tests/fuzz/fuzz-*.c): the config loader with the matrix and the cell specs,
# the manifest reader, the PEP 440/503/508 parsers, a stored wheel's zip, a package index's JSON
# and HTML pages (torch-table) and core metadata with its markers, each built with libFuzzer, ASan and UBSan
# and run for WG_FUZZ_SECONDS (default 2; tests/run.sh --fuzz N sets it) from a corpus seeded
# with the configs of tests/configs, examples/ and config/: no crash, no leak, no input that
# takes over a second
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

secs=${WG_FUZZ_SECONDS:-2}
cc=$(command -v clang || true)
targets=$(find "$top/tests/fuzz" -name 'fuzz-*.c' | sed 's|.*/fuzz-||; s/\.c$//' | sort | tr '\n' ' ')
t_case "clang with libFuzzer builds the targets: $targets"
if [ -z "$cc" ]; then
	t_fail "clang not found (tests/run.sh --install-deps installs clang and libclang-rt-14-dev)"
	exit 0
fi
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$top/gen $(pkg-config --cflags yaml-0.1 libgit2 libpcre2-8 zlib)"
libs="$(pkg-config --libs yaml-0.1 libgit2 libpcre2-8 zlib) -pthread"
srcs=$(find "$top/gen" -name '*.c' ! -name main.c ! -path '*/cc/*' ! -path '*/step/*' | sort)
ok=1
# gen/ compiled once for every target
mkdir -p "$WORK/obj"
objs=
for c in $srcs; do
	o=$WORK/obj/$(basename "$c" .c).o
	# (through the suite's ccache: tests/run.sh's WG_TEST_CCACHE)
	# shellcheck disable=SC2086
	${WG_TEST_CCACHE:-} $cc $flags -c -o "$o" "$c" >>"$WORK/build-obj.log" 2>&1 || ok=0
	objs="$objs $o"
done
for t in $targets; do
	# shellcheck disable=SC2086
	$cc $flags -o "$WORK/fuzz-$t" "$top/tests/fuzz/fuzz-$t.c" $objs $libs >"$WORK/build-$t.log" 2>&1 || ok=0
done
if [ "$ok" = 1 ]; then t_pass; else t_fail "$(cat "$WORK"/build-*.log | tail -n 20)"; exit 0; fi

# the seeds
for t in $targets; do mkdir -p "$WORK/corpus-$t"; done
i=0
for f in "$top"/tests/configs/good/*.yml "$top"/tests/configs/bad/*.yml "$top"/config/packages.yml "$top"/examples/*/packages.yml; do
	i=$((i + 1))
	cp "$f" "$WORK/corpus-config/seed$i.yml"
done
printf 'cell=x-1.0-py312-cu130-torch2.9\npackage=x\nversion=1.0\nfilename=x-1.0+cu130-cp312-cp312-linux_x86_64.whl\nsha256=%064d\nsize=9\ncuda=13.0\ntorch=2.9\nupload_time=1700000000\ntested=%064d\n' 0 0 >"$WORK/corpus-manifest/a"
printf 'package=../x\nfilename=a/b.whl\nsha256=z\n' >"$WORK/corpus-manifest/b"
printf 'package=x\nfilename=x-1.0-cp312-cp312-linux_x86_64.whl\nsha256=%064d\ncuda=13.0\ntorch=2.9\ngpu_archs=sm_80 sm_90a compute_120f\ndependencies=einops torch\ntorch_version=2.9.0+cu130\ntorch_cuda=13.0\ntorch_index=https://download.pytorch.org/whl/cu130\ntorch_cxx11_abi=1\n' 0 >"$WORK/corpus-manifest/d"
printf 'package=x\nfilename=x-1.0-cp312-cp312-linux_x86_64-cu130.whl\nsha256=%064d\ncuda=13.0\nvariant_label=cu130\nvariant_properties=nvidia::cuda_version_lower_bound::13.0;nvidia::sm_arch::90_real\n' 0 >"$WORK/corpus-manifest/c"
printf '1.0\n2.0rc1\n1.0.post1.dev2\n1!2.0+local.7\nFoo.Bar_baz\n0.1.linux-x86_64\n' >"$WORK/corpus-pep/a"
# small wheels: deflated and stored members, a compiled module's ELF head, a WHEEL with tags
python3 - "$WORK/corpus-wheel" <<'PY'
import sys, zipfile
d = sys.argv[1]
elf = b"\x7fELF\x02\x01\x01" + b"\0" * 9 + b"\x03\x00\x3e\x00" + b"\0" * 44
for i, method in enumerate((zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED)):
    with zipfile.ZipFile("%s/w%d" % (d, i), "w", method) as z:
        z.writestr("x/__init__.py", "")
        z.writestr("x/_c.cpython-312-x86_64-linux-gnu.so", elf)
        z.writestr("x-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: x\nVersion: 1.0\n")
        z.writestr("x-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\nTag: cp312-cp312-linux_x86_64\n")
        z.writestr("x-1.0.dist-info/RECORD", "")
PY

# an index's pages, PEP 691 and PEP 503, and core metadata (torch's Requires-Dist lines)
cat >"$WORK/corpus-json/a" <<'JSON'
{"files": [{"core-metadata": {"sha256": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}, "filename": "torch-2.10.0-3-cp313-cp313t-manylinux_2_28_x86_64.whl", "hashes": {"sha256": "4aadc7124afc431ac6a227a05dc8eff417b6fd8f90fc6c44d514ddfca9a6b474"}, "requires-python": ">=3.10", "size": 591763257, "upload-time": "2018-12-07T18:56:01.203127Z", "url": "../../packages/fb/torch-2.10.0-3-cp313-cp313t-manylinux_2_28_x86_64.whl", "yanked": "broken \u00e9\ud83d\ude00"}], "meta": {"_last-serial": 1, "api-version": "1.1"}, "name": "torch", "versions": ["2.10.0", 1e-3, -0.5, true, false, null]}
JSON
printf '<html><body><a href="/whl/cu128/torch-2.9.1%%2Bcu128-cp312-cp312-linux_x86_64.whl#sha256=%064d" data-dist-info-metadata="sha256=%064d" data-yanked="" data-requires-python="&gt;=3.9">torch-2.9.1+cu128-cp312-cp312-linux_x86_64.whl</a><br/></body></html>\n' 0 0 >"$WORK/corpus-json/b"
cat >"$WORK/corpus-metadata/a" <<'META'
Metadata-Version: 2.1
Name: torch
Version: 2.10.0
Requires-Dist: nvidia-cuda-runtime-cu12==12.8.90; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: cuda-toolkit[cublas,cudart]==13.2.2; platform_system == "Linux" and (python_version < "3.15" or extra == 'x')
Requires-Dist: triton~=3.9.0; 'x86' in platform_machine and os_name not in "nt"
  and sys.platform != 'win32'

Description text
META

for t in $targets; do
	case $t in config|json) max=8192 ;; manifest) max=2048 ;; wheel|metadata) max=4096 ;; *) max=1024 ;; esac
	t_case "fuzz $t for ${secs}s: no crash, leak or input slower than 1 s"
	rc=0
	(cd "$WORK" && ASAN_OPTIONS=detect_leaks=1 "./fuzz-$t" -max_total_time="$secs" -timeout=1 -rss_limit_mb=2048 \
		-max_len="$max" -artifact_prefix="$WORK/$t-" -print_final_stats=1 "corpus-$t" >"fuzz-$t.log" 2>&1) || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/fuzz-$t.log")
	if [ "$rc" -eq 0 ] && [ -n "$execs" ]; then
		t_pass
		echo "# fuzz $t: $execs runs in ${secs}s, corpus $(find "$WORK/corpus-$t" -type f | wc -l) inputs"
	else
		t_fail "exit status $rc" "$(grep -v '^#\|INFO\|NEW\|REDUCE\|pulse' "$WORK/fuzz-$t.log" | tail -n 25)" \
			"$(for a in "$WORK/$t-"*; do [ -f "$a" ] && { echo "input ($a):"; base64 "$a" | head -c 2000; }; done)"
	fi
done

# the finder (templates/find.py) reads an index's wheels.json from the network: mutated copies of
# one (byte flips, and fields given values of every other kind: shell words, control characters,
# numbers, lists) are refused as the index's fault or read; what it reads it can choose from, and
# the command it makes splits back into the words it quoted
# shellcheck disable=SC2016
t_expect "fuzz the finder's reading of wheels.json for ${secs}s: every input read or refused (exit 2's error), never a crash; its commands quoted" '
	python3 - "$top/templates/find.py" "$secs" <<PY
import argparse, importlib.util, json, random, shlex, sys, time
spec = importlib.util.spec_from_file_location("find", sys.argv[1])
find = importlib.util.module_from_spec(spec); spec.loader.exec_module(find)
def wheel(i, cuda, torch):
    return {"package": "pkg", "version": "1.%d+cu%s" % (i, cuda.replace(".", "")), "filename": "pkg-1.%d-cp312-cp312-manylinux_2_28_x86_64.whl" % i,
            "url": "files/pkg-1.%d.whl" % i, "sha256": "0" * 64, "size": 9, "python": "3.12", "python_tag": "cp312", "abi_tag": "cp312",
            "platform_tag": "manylinux_2_28_x86_64", "machine": "x86_64", "requires_python": ">=3.9", "cuda": cuda, "torch": torch,
            "torch_version": torch and torch + ".0", "torch_cuda": cuda if torch else None, "torch_index": None, "torch_cxx11_abi": True,
            "gpu_archs": ["sm_80", "sm_90a", "compute_90"], "dependencies": ["torch", "einops"], "index": "cu%s/simple/" % cuda.replace(".", ""), "yanked": None}
seed = {"format": find.FORMAT, "title": "t", "wheels": [wheel(0, "12.8", "2.9"), wheel(1, "13.0", "2.9"), wheel(2, "13.0", None)]}
junk = ["", "x", "\$(reboot)", "a b", "a;b", "\x00", "\n", "../..", "1" * 5000, 7, -1, 2**70, 1.5, True, None, [], ["sm_90"], {}, "13.0", "2.9", "simple/"]
a = argparse.Namespace(python="3.12", platform="x86_64", glibc="2.28", torch=None, torch_cuda=None, cuda=None, driver="13.0", gpu="9.0")
end, n, read = time.time() + min(float(sys.argv[2]), 3), 0, 0
rng = random.Random(48)
while time.time() < end:
    doc = json.loads(json.dumps(seed))
    for _ in range(rng.randint(1, 4)):
        w = rng.choice(doc["wheels"])
        w[rng.choice(list(w))] = rng.choice(junk)
    data = json.dumps(doc).encode()
    if rng.random() < 0.3:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        data = bytes(b)
    n += 1
    try:
        wheels = find.parse(data)
    except find.Wrong:
        continue
    read += 1
    for torch in (None, "none", "2.9"):
        a.torch = torch
        w, why, rest = find.choose(wheels, "pkg", None, find.Machine(a))
        if w:
            for cmd in find.commands(w, "https://x/i", find.Machine(a), "python3")[:2]:
                words = shlex.split(cmd)
                assert words[-1].startswith(("pkg==", "torch==")) and all("\n" not in x for x in words), cmd
print("%d inputs, %d read" % (n, read))
assert n > 100 and read > 10
PY
'
