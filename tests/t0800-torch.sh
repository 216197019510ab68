#!/bin/sh
# the torch extension path: torch (from PyPI, whose torch 2.13 is built with CUDA 13.0) in
# the build venv, torch.utils.cpp_extension compiling a .cu file with the cell's nvcc, the
# local version label applied to the file name, METADATA and RECORD, the same torch in the
# test venv, pip installing the wheel from the generated index, and the second Python's
# CUDA object coming from ccache
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure the torch example"
if t_configure "$src" --config examples/torch/packages.yml; then t_pass; else t_fail "$(cat "$src.configure.log")"; exit 0; fi
cd "$src" || exit 1
ninja build.ninja >"$WORK/regen.log" 2>&1 || true
cells=$(out/wheelgen matrix --config examples/torch/packages.yml --host out/host.txt --table | awk '$3 == "yes" {print $1}')
a=$(echo "$cells" | tail -n 1)
b=$(echo "$cells" | tail -n 2 | head -n 1)
t_case "this host can build at least two cells (two Pythons from 3.10 to 3.14, CUDA 13.0)"
if [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ]; then t_pass; else t_fail "buildable: $cells"; exit 0; fi
case $a in *-cu130-torch2.13) ;; *) t_fail "unexpected cell name $a" ;; esac

t_case "ninja test/$a: torch from PyPI, cpp_extension builds the .cu with nvcc, the import test passes"
start=$(date +%s)
if ninja "test/$a" >"$WORK/a.log" 2>&1; then t_pass; else t_fail "$(tail -n 30 "$WORK/a.log")"; exit 0; fi
secs_a=$(($(date +%s) - start))
echo "# cell $a: build and test took ${secs_a}s"
m=out/wheels/$a/manifest
log=out/logs/$a.build.log

t_case "the build installed torch 2.13 from PyPI, built with CUDA 13.0, and compiled scale.cu with nvcc for sm_90"
if grep -q '^wheelgen: torch 2.13.\* from PyPI$' "$log" && grep -q '^torch_version=2\.13\.' "$m" &&
	grep -q '^torch_cuda=13\.0$' "$m" && grep -q 'nvcc.*scale\.cu.*code=sm_90\|code=sm_90.*scale\.cu' "$log"; then
	t_pass
else
	t_fail "$(grep -n 'torch\|nvcc' "$log" | head -n 20)" "$(cat "$m")"
fi

t_case "the local label +cu130torch2.13 is in the file name, the .dist-info name, METADATA and RECORD; METADATA requires torch 2.13"
f=$(sed -n 's/^filename=//p' "$m")
py=$(sed -n 's/^WG_PYTHON_EXE=//p' "out/cells/$a/spec" | tr -d "'")
# shellcheck disable=SC2016
if case $f in wgtorch-0.1.0+cu130torch2.13-cp*.whl) true ;; *) false ;; esac &&
	grep -q '^wheel_version=0.1.0+cu130torch2.13$' "$m" &&
	"$py" - "out/wheels/$a/$f" <<'PY'
import base64, csv, hashlib, io, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
info = "wgtorch-0.1.0+cu130torch2.13.dist-info/"
names = z.namelist()
assert not [n for n in names if ".dist-info/" in n and not n.startswith(info)], names
meta = z.read(info + "METADATA").decode()
assert "\nVersion: 0.1.0+cu130torch2.13\n" in meta, meta[:200]
# the torch it was built against, required (install time, not an "undefined symbol" at import)
assert "\nRequires-Dist: torch>=2.13,<2.14\n" in meta, meta[:400]
rows = list(csv.reader(io.StringIO(z.read(info + "RECORD").decode())))
assert sorted(r[0] for r in rows) == sorted(n for n in names if not n.endswith("/")), rows
for path, h, size in rows:
    if path == info + "RECORD":
        continue
    data = z.read(path)
    want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert h == want and int(size) == len(data), (path, h, want)
PY
then t_pass; else t_fail "filename=$f" "$(cat "$m")"; fi

t_case "the test step installed the same torch into a fresh venv and reported the GPU test as skipped here"
tv=$(sed -n 's/^torch_version=//p' "$m")
if grep -q "pip install .*torch==$tv\( --offline\)\?\$" "out/logs/$a.test.log" &&
	{ nvidia-smi -L 2>/dev/null | grep -q '^GPU ' || grep -q '^gpu=skipped$' "out/tests/$a.ok"; }; then
	t_pass
else
	t_fail "$(grep -n 'torch' "out/logs/$a.test.log" | head)" "$(cat "out/tests/$a.ok" 2>/dev/null)"
fi

# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "the torch wheel is tagged manylinux_2_X_x86_64 and auditwheel agrees (the libraries of torch and CUDA excluded); it declares no CUDA library (torch brings them), and its test ran where no CUDA toolkit is seen" '
	w=$(ls out/wheels/$a/*.whl)
	case ${w##*/} in wgtorch-0.1.0+cu130torch2.13-cp*-manylinux_2_*_x86_64.whl) ;; *) echo "$w"; exit 1 ;; esac
	t_auditwheel_agrees "$w"
	unzip -p "$w" "*.dist-info/METADATA" | grep "^Requires-Dist:" | grep -c -v "^Requires-Dist: torch" | grep -qx 0
	grep -q "^wheelgen: repairing .*; CUDA libraries: torch)$" "out/logs/$a.build.log"
	grep -q "^view=clean$" "out/tests/$a.ok"
'

t_case "pip installs wgtorch==0.1.0+cu130torch2.13 from the generated index; scale() works on the CPU"
# an index of this one wheel (the index target would build every cell first)
echo "$m" >"$WORK/manifests"
out/wheelgen index --builddir out --manifests "$WORK/manifests" >"$WORK/index.log" 2>&1 || true
t_venv "$WORK/venv" "$py"
if "$WORK/venv/bin/pip" install -q --no-cache-dir --no-deps --index-url "file://$src/out/index/simple" \
	"wgtorch==0.1.0+cu130torch2.13" >"$WORK/pip.log" 2>&1 &&
	if [ -n "${UV:-}" ]; then
		"$UV" pip install -q --python "$WORK/venv/bin/python" "torch==$tv"
	else
		"$WORK/venv/bin/pip" install -q "torch==$tv"
	fi >>"$WORK/pip.log" 2>&1 &&
	(cd / && "$WORK/venv/bin/python" -W ignore -c '
import torch, wgtorch
assert torch.equal(wgtorch.scale(torch.arange(4.0), 3.0), torch.arange(4.0) * 3)
assert wgtorch.cuda_runtime_version() // 1000 == 13, wgtorch.cuda_runtime_version()
print("ok")') >"$WORK/run.log" 2>&1; then
	t_pass
else
	t_fail "$(tail -n 15 "$WORK/pip.log" "$WORK/run.log")"
fi

# A test on another machine (a GPU machine that builds nothing): the test spec and the wheel's
# directory copied there, the spec naming a Python and a uv that machine does not have.
# WHEELGEN_TEST_PYTHON names its Python; WHEELGEN_TEST_TORCH=site uses the torch it has.
elsewhere=$WORK/elsewhere
mkdir -p "$elsewhere/cells/$a" "$elsewhere/wheels"
sed -e "s|^WG_PYTHON_EXE=.*|WG_PYTHON_EXE='/nonexistent/bin/python3'|" -e "s|^WG_UV=.*|WG_UV='/nonexistent/bin/uv'|" \
	"out/cells/$a/test" >"$elsewhere/cells/$a/test"
cp -R "out/wheels/$a" "$elsewhere/wheels/"
cp out/wheelgen-step "$elsewhere/"
t_case "elsewhere: WHEELGEN_TEST_PYTHON and WHEELGEN_TEST_TORCH=site test with that Python's torch, installing only the wheel"
sha=$(sed -n 's/^sha256=//p' "$m")
# ($WORK/venv holds torch and, from the case above, wgtorch itself: the test must use the wheel's
# copy all the same; and WHEELGEN_TEST_PYTHON may be relative)
if (cd "$WORK" && WHEELGEN_TEST_PYTHON=venv/bin/python WHEELGEN_TEST_TORCH=site sh "$src/templates/test-host.sh" elsewhere "$a") >"$WORK/elsewhere.out" 2>&1 &&
	tl=$elsewhere/logs/$a.test.log &&
	grep -q "^wheelgen: testing with $WORK/venv/bin/python (WHEELGEN_TEST_PYTHON), not /nonexistent/bin/python3\$" "$tl" &&
	grep -q "^wheelgen: note: /nonexistent/bin/uv not found here; using the venv module and pip\$" "$tl" &&
	grep -q "^wheelgen: torch $tv (CUDA 13.0) from $WORK/venv/.*site-packages (WHEELGEN_TEST_TORCH=site)" "$tl" &&
	! grep -q 'install.*torch==' "$tl" && grep -q "^imported wgtorch from $elsewhere/build/$a-test/venv/" "$tl" &&
	[ "$(head -n 1 "$elsewhere/tests/$a.ok")" = "$sha" ]; then
	t_pass
else
	t_fail "$(cat "$WORK/elsewhere.out")" "$(grep '^wheelgen\|torch' "$elsewhere/logs/$a.test.log" 2>/dev/null | grep -v '^  |' | head -n 20)"
fi

t_case "elsewhere: a torch of another minor version, a Python of another version, a bad WHEELGEN_TEST_TORCH are refused"
# a stand-in for "the machine's torch is 2.1": only its version is read before the refusal
"$WORK/venv/bin/python" -m venv --without-pip "$WORK/oldtorch" >/dev/null 2>&1
osp=$("$WORK/oldtorch/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
mkdir -p "$osp/torch/version" "$osp/torch-2.1.0.dist-info"
printf 'from . import version\n__version__ = "2.1.0"\n' >"$osp/torch/__init__.py"
printf 'cuda = "13.0"\n' >"$osp/torch/version/__init__.py"
printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.1.0\n' >"$osp/torch-2.1.0.dist-info/METADATA"
other=$(sed -n "s/^WG_PYTHON_EXE='\(.*\)'$/\1/p" "out/cells/$b/test")
want_py=$(sed -n "s/^WG_PYTHON='\(.*\)'$/\1/p" "out/cells/$a/test")
other_v=$(sed -n "s/^WG_PYTHON='\(.*\)'$/\1/p" "out/cells/$b/test")
if ! WHEELGEN_TEST_PYTHON=$WORK/oldtorch/bin/python WHEELGEN_TEST_TORCH=site sh templates/test-host.sh "$elsewhere" "$a" >"$WORK/old.out" 2>&1 &&
	grep -q "has torch 2.1.0, cell $a was built against torch $tv: an extension only loads into the torch minor it was built for" "$WORK/old.out" &&
	[ ! -e "$elsewhere/tests/$a.ok" ] &&
	! WHEELGEN_TEST_PYTHON=$other sh templates/test-host.sh "$elsewhere" "$a" >"$WORK/other.out" 2>&1 &&
	grep -q "is Python $other_v; cell $a needs Python $want_py" "$WORK/other.out" &&
	! WHEELGEN_TEST_PYTHON=$WORK/venv/bin/python WHEELGEN_TEST_TORCH=yes sh templates/test-host.sh "$elsewhere" "$a" >"$WORK/bad.out" 2>&1 &&
	grep -q "WHEELGEN_TEST_TORCH='yes': the only value is 'site'" "$WORK/bad.out"; then
	t_pass
else
	t_fail "$(cat "$WORK/old.out" "$WORK/other.out" "$WORK/bad.out" | grep wheelgen | head -n 20)"
fi

# shellcheck disable=SC2016
t_expect "the index's finder, in the Python that has torch $tv (a stand-in nvidia-smi: GPU 9.0, a driver of CUDA 13.0): its command installs the wheel from its setup's index and leaves torch as it was; in one with torch 2.1: no wheel for it, exit 1" '
	t_fake_gpu "$WORK/gpu" 9.0 13.0
	if [ -n "${UV:-}" ]; then "$UV" pip uninstall -q --python "$WORK/venv/bin/python" wgtorch; else "$WORK/venv/bin/pip" uninstall -q -y wgtorch; fi
	env PATH="$WORK/gpu:$WORK/venv/bin:$PATH" python3 out/index/find.py wgtorch >"$WORK/find.out"
	cat "$WORK/find.out"
	cmd=$(sed -n "s/^  \(python3 -m pip install .*\)/\1/p" "$WORK/find.out")
	[ "$cmd" = "python3 -m pip install --index-url file://$src/out/index/cu130-torch2.13/simple/ wgtorch==0.1.0+cu130torch2.13 torch==$tv" ]
	(PATH=$WORK/venv/bin:$PATH && export PATH && cd "$WORK" && eval "$cmd")
	(cd / && "$WORK/venv/bin/python" -W ignore -c "import importlib.metadata as m, torch, wgtorch
assert (m.version(\"torch\"), m.version(\"wgtorch\")) == (\"$tv\", \"0.1.0+cu130torch2.13\"), (m.version(\"torch\"), m.version(\"wgtorch\"))
assert torch.equal(wgtorch.scale(torch.arange(4.0), 3.0), torch.arange(4.0) * 3)")
	set +e
	env PATH="$WORK/gpu:$PATH" "$WORK/oldtorch/bin/python" out/index/find.py wgtorch >"$WORK/find-old.out"
	rc=$?
	set -e
	cat "$WORK/find-old.out"
	[ "$rc" = 1 ]
	grep -x "  no wheel for torch 2.1 (this index has 2.13)" "$WORK/find-old.out"
'

t_case "ninja wheel/$b (another Python): the CUDA and ops.cpp objects come from ccache (2 of 3; module.cpp includes Python.h)"
start=$(date +%s)
if ninja "wheel/$b" >"$WORK/b.log" 2>&1; then
	secs_b=$(($(date +%s) - start))
	echo "# cell $b: build took ${secs_b}s (cell $a: build and test ${secs_a}s)"
	if ! grep -q '^ccache ' out/host.txt; then
		t_fail "configure found no ccache"
	# (both hit in preprocessor mode: the direct mode hashes the other Python's include
	# directory; and only with torch's headers at one mtime, see step-lib.sh's wg_header_mtimes)
	elif grep -A3 "ccache statistics of this build" "out/logs/$b.build.log" | grep -q "Hits: *2 / 3"; then
		t_pass
	else
		t_fail "$(sed -n '/ccache statistics/,$p' "out/logs/$b.build.log" | head -n 20)"
	fi
else
	t_fail "$(tail -n 30 "$WORK/b.log")"
fi

t_case "a toolkit one minor version off torch's CUDA (13.2 from PyPI, torch built with 13.0): a note, and the build goes on"
# torch 2.13 from PyPI (CUDA 13.0) for a CUDA 13.2 cell: torch_index pointed at PyPI itself
sed -e 's|^  "2.13": {cuda: \[[^]]*\]|  "2.13": {cuda: ["13.0", "13.2"]|' -e 's|^  cuda: \["13.0"\]|  cuda: ["13.2"]|' \
	-e 's|^torch_index: .*|torch_index: "https://pypi.org/simple"|' examples/torch/packages.yml >examples/torch/minor.yml
c=wgtorch-0.1.0-py$(echo "$a" | sed 's/^wgtorch-0.1.0-py\([0-9]*\)-.*/\1/')-cu132-torch2.13
# shellcheck disable=SC2086
if ./configure ${WG_CONFARGS:-} --config examples/torch/minor.yml --cuda-from-pypi 13.2 >"$WORK/minor.configure.log" 2>&1 &&
	ninja "wheel/$c" >"$WORK/minor.log" 2>&1; then
	if grep -q "note: torch was built with CUDA 13.0 and the toolkit is CUDA 13.2" "out/logs/$c.build.log" &&
		grep -q "^torch_cuda=13.0$" "out/wheels/$c/manifest" && grep -q "^torch_index=https://pypi.org/simple$" "out/wheels/$c/manifest"; then
		t_pass
	else
		t_fail "$(grep -n 'torch' "out/logs/$c.build.log" | head -n 10)"
	fi
else
	t_fail "$(tail -n 20 "$WORK/minor.configure.log" "$WORK/minor.log")"
fi
