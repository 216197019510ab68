"""wheelgen's finder: the wheel of this index that fits this machine, or exactly why none does.

    curl -fsSL INDEX/find.py | python3 - --index INDEX PACKAGE[==VERSION]
    python3 find.py [--index INDEX] [--json] PACKAGE[==VERSION]

The index serves this script at its root, beside wheels.json (every wheel: its package,
version, tags, CUDA, torch and GPU code), which it reads. INDEX is the index's address
(http, https or file URL, or a directory); a copy of find.py run from the index's own
directory finds it there. It reads the machine, in the Python that runs it:
  - that Python: its version, ABI and whether it is free-threaded;
  - the platform: OS, machine and glibc;
  - the torch installed in that Python, if any: its version, torch.version.cuda, C++ ABI;
  - the NVIDIA driver's CUDA version and every GPU's compute capability (nvidia-smi, else torch).
Then it prints the one command that installs the wheel that fits, from its setup's index,
without replacing the torch that is there (and, without torch, the wheel of the newest torch
for the driver's CUDA with that torch), or why no wheel fits, with the nearest the index has.

Options name another machine instead of reading this one (each replaces one reading):
  --python 3.12[t]   --platform x86_64|aarch64|win_amd64   --glibc 2.28
  --torch 2.9[.1][+cu130]|none   --torch-cuda 13.0   --cuda 13.0 (the setup's CUDA)
  --driver 13.0|none (the driver's CUDA)   --gpu 9.0[,8.6]|none
--json prints the same answer as one JSON object. Exit status: 0 a wheel fits, 1 none fits,
2 the index or the arguments are wrong. Standard library only, Python 3.6 and later; what it
reads from the network is bounded and checked before use.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

FORMAT = "wheelgen-wheels/1"
PYPI = "https://pypi.org/simple"
MAX_BYTES = 64 << 20  # wheels.json of a farm: about 1 KB a wheel
MAX_WHEELS = 200000

NAME = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
VERSION = re.compile(r"^(?:(\d+)!)?(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev(\d+))?"
                     r"(?:\+([a-z0-9]+(?:\.[a-z0-9]+)*))?$")
MINOR = re.compile(r"^(\d{1,3})\.(\d{1,3})$")
PYVER = re.compile(r"^(\d)\.(\d{1,2})(t?)$")
TAG = re.compile(r"^[A-Za-z0-9_.]{1,200}$")
ARCH = re.compile(r"^(sm|compute)_(\d{2,3})([af]?)$")
FILENAME = re.compile(r"^[A-Za-z0-9._+!-]{1,255}\.whl$")
URL = re.compile(r"^(?:https?://)?[A-Za-z0-9._~%/:@+!$&()*,;=?#-]{1,2048}$")
INDEX = re.compile(r"^(?:[a-z0-9][a-z0-9.-]{0,99}/)?simple/$")


class Wrong(Exception):
    """The index or the arguments are wrong: exit status 2."""


# --- the index's wheels.json ----------------------------------------------------------------

def check(w, i):
    """w (wheels[i] of wheels.json) as the finder uses it, or Wrong naming what is not right."""
    def fail(key, what):
        raise Wrong("the index's wheels.json: wheels[%d].%s %s" % (i, key, what))

    def text(key, rx=None, optional=True, most=2048):
        v = w.get(key)
        if v is None and optional:
            return None
        if not isinstance(v, str) or not v or len(v) > most or any(ord(c) < 32 or ord(c) == 127 for c in v):
            fail(key, "is not a line of text")
        if rx and not rx.match(v):
            fail(key, "is not what it should be: %r" % v[:80])
        return v

    def words(key, rx, most):
        v = w.get(key)
        if v is None:
            return None
        if not isinstance(v, list) or len(v) > most or not all(isinstance(x, str) and rx.match(x) for x in v):
            fail(key, "is not a list of what it should hold")
        return list(v)

    if not isinstance(w, dict):
        raise Wrong("the index's wheels.json: wheels[%d] is not an object" % i)
    e = {
        "package": text("package", NAME, False, 200),
        "version": text("version", VERSION, False, 200),
        "filename": text("filename", FILENAME, False, 255),
        "url": text("url", URL),
        "sha256": text("sha256", re.compile(r"^[0-9a-f]{64}$")),
        "python": text("python", PYVER),
        "python_tag": text("python_tag", TAG),
        "abi_tag": text("abi_tag", TAG),
        "platform_tag": text("platform_tag", TAG),
        "machine": text("machine", re.compile(r"^[a-z0-9_]{1,40}$")),
        "requires_python": text("requires_python", None, True, 200),
        "cuda": text("cuda", MINOR),
        "torch": text("torch", MINOR),
        "torch_version": text("torch_version", VERSION, True, 200),
        "torch_cuda": text("torch_cuda", MINOR),
        "torch_index": text("torch_index", re.compile(r"^https?://[A-Za-z0-9._~%/:@+-]{1,2000}$")),
        "gpu_archs": words("gpu_archs", ARCH, 64),
        "dependencies": words("dependencies", NAME, 1000),
        "index": text("index", INDEX, False, 120),
        "yanked": text("yanked", None, True, 1000),
    }
    abi = w.get("torch_cxx11_abi")
    if abi is not None and not isinstance(abi, bool):
        fail("torch_cxx11_abi", "is not true, false or null")
    e["torch_cxx11_abi"] = abi
    size = w.get("size", 0)
    if not isinstance(size, int) or isinstance(size, bool) or size < 0:
        fail("size", "is not a size")
    e["size"] = size
    return e


def parse(data):
    """The wheels of wheels.json's bytes (a list of checked entries), or Wrong."""
    try:
        doc = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Wrong("the index's wheels.json is not JSON: %s" % e)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise Wrong("the index's wheels.json is not in the format this finder reads (%s)" % FORMAT)
    wheels = doc.get("wheels")
    if not isinstance(wheels, list) or len(wheels) > MAX_WHEELS:
        raise Wrong("the index's wheels.json has no list of wheels")
    return [check(w, i) for i, w in enumerate(wheels)]


def indexbase(where):
    """The index's address, as URLs are built from it (no '/' at the end): a directory as file://."""
    if re.match(r"^(https?|file)://", where):
        base = where
    else:
        from urllib.parse import quote
        base = "file://" + quote(os.path.abspath(where))
    base = re.sub(r"/(index\.html|wheels\.json|find\.py)$", "", base).rstrip("/")
    if not URL.match(base + "/") or '"' in base or "'" in base:
        raise Wrong("--index %r is not an address this finder takes" % where)
    return base


def fetch(base):
    """The bytes of base/wheels.json (at most MAX_BYTES), or Wrong."""
    url = base + "/wheels.json"
    try:
        if url.startswith("file://"):
            from urllib.parse import unquote
            with open(unquote(url[len("file://"):]), "rb") as f:
                data = f.read(MAX_BYTES + 1)
        else:
            from urllib.request import Request, urlopen
            req = Request(url, headers={"User-Agent": "wheelgen-find/1", "Accept": "application/json"})
            with urlopen(req, timeout=60) as r:
                data = r.read(MAX_BYTES + 1)
    except (OSError, ValueError) as e:
        raise Wrong("cannot read %s: %s (is %s a wheelgen index?)" % (url, e, base))
    if len(data) > MAX_BYTES:
        raise Wrong("%s is larger than %d bytes: not an index's list of wheels" % (url, MAX_BYTES))
    return data


# --- versions, tags and GPU code ------------------------------------------------------------

def vkey(v):
    """A sort key of a PEP 440 version (as the index's entries spell them)."""
    m = VERSION.match(v.lower())
    if not m:
        return ((0,), (-2, 0), -1, float("inf"), "")
    epoch, rel, pl, pn, post, dev, local = m.groups()
    release = tuple(int(x) for x in rel.split("."))
    while len(release) > 1 and release[-1] == 0:
        release = release[:-1]
    if pl:
        pre = ({"a": 0, "b": 1, "rc": 2}[pl], int(pn))
    elif dev is not None and post is None:
        pre = (-1, 0)
    else:
        pre = (9, 0)
    return (int(epoch or 0), release, pre, int(post) if post is not None else -1,
            int(dev) if dev is not None else float("inf"), local or "")


def public(v):
    return v.split("+", 1)[0]


def minor(s):
    """'13.0' as (13, 0), or None."""
    m = MINOR.match(s or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def words(items):
    """'a', 'a and b', 'a, b and c' ('none' for none)."""
    items = list(items)
    if not items:
        return "none"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def distinct(values, key):
    return sorted(set(v for v in values if v is not None), key=key)


def pykey(p):
    m = PYVER.match(p)
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else (0, 0, p)


def pyfits(w, py):
    """Can Python py ((major, minor, free-threaded)) install w, by its tags?"""
    maj, mnr, ft = py
    cp = "cp%d%d" % (maj, mnr)
    for pt in (w["python_tag"] or "").split("."):
        for at in (w["abi_tag"] or "").split("."):
            if at == "none" and pt in ("py3", "py%d" % maj, "py%d%d" % (maj, mnr), cp):
                return True
            if at == "abi3" and not ft and re.match(r"^cp3\d+$", pt) and maj == 3 and int(pt[3:]) <= mnr:
                return True
            if at == cp + ("t" if ft else "") and pt == cp:
                return True
    return False


def glibcfloor(w):
    """The lowest manylinux glibc (major, minor) of w's platform tags, or None (not manylinux)."""
    floors = []
    for t in (w["platform_tag"] or "").split("."):
        m = re.match(r"^manylinux_(\d+)_(\d+)_", t)
        if m:
            floors.append((int(m.group(1)), int(m.group(2))))
        elif t.startswith("manylinux2014_"):
            floors.append((2, 17))
        elif t.startswith("manylinux2010_"):
            floors.append((2, 12))
        elif t.startswith("manylinux1_"):
            floors.append((2, 5))
    return min(floors) if floors else None


def platfits(w, machine):
    """Is w for machine (x86_64, aarch64, win_amd64), or for any?"""
    return w["machine"] in ("any", machine) or (w["platform_tag"] or "") == "any"


def archname(a):
    """sm_90 -> 9.0, sm_90a -> 9.0a, compute_90 -> 9.0 (a PTX one: said by the caller)."""
    kind, num, sfx = ARCH.match(a).groups()
    n = int(num)
    return "%d.%d%s" % (n // 10, n % 10, sfx)


def archwords(archs):
    """'8.0 9.0 10.0 12.0' for the cubins, ' (PTX 12.0)' after them for the PTX."""
    real = [archname(a) for a in archs if a.startswith("sm_")]
    ptx = [archname(a) for a in archs if a.startswith("compute_")]
    text = " ".join(real) or "no real cubin"
    return text + (" (PTX %s)" % " ".join(ptx) if ptx else "")


def archsort(archs):
    return sorted(set(archs), key=lambda a: (a.startswith("compute_"), int(ARCH.match(a).group(2)), a))


def gpuruns(archs, cc):
    """Does a GPU of compute capability cc ((major, minor)) run some of the GPU code archs?"""
    for a in archs:
        kind, num, sfx = ARCH.match(a).groups()
        n = int(num)
        code = (n // 10, n % 10)
        if sfx == "a":
            ok = code == cc
        elif kind == "sm" or sfx == "f":
            ok = code[0] == cc[0] and code[1] <= cc[1]
        else:
            ok = code <= cc  # PTX: compiled by the driver for any newer GPU
        if ok:
            return True
    return False


# --- the machine -----------------------------------------------------------------------------

def run(argv, timeout=60):
    """(status, output) of argv; (None, why) when it cannot run."""
    try:
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    except OSError as e:
        return None, "not found" if getattr(e, "errno", 0) == 2 else str(e)
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return None, "timed out after %d s" % timeout
    return p.returncode, out[:1 << 20]


def torchfiles():
    """(version, cuda, its directory) of the torch this Python would import, or None when there is
    none: the version its distribution says (what pip compares a pin with: 2.9.0, where
    torch.__version__ may say 2.9.0+cu130) and torch.version.cuda (None: a CPU build), read from
    its files (an import of torch takes seconds)."""
    try:
        import importlib.util
        spec = importlib.util.find_spec("torch")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    here = os.path.dirname(spec.origin)
    site = os.path.dirname(here)
    version, cuda, found = "", None, False
    try:
        for n in sorted(os.listdir(site)):
            if re.match(r"^torch-[^-]+\.dist-info$", n):
                with open(os.path.join(site, n, "METADATA"), errors="replace") as f:
                    m = re.search(r"^Version:\s*(\S+)", f.read(1 << 16), re.M)
                version = m.group(1) if m else version
    except OSError:
        pass
    for name in ("version.py", os.path.join("version", "__init__.py")):
        try:
            with open(os.path.join(here, name), errors="replace") as f:
                text = f.read(1 << 16)
        except OSError:
            continue
        v = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", text, re.M)
        c = re.search(r"^cuda\s*(?::[^=]*)?=\s*(?:['\"]([^'\"]*)['\"]|None)", text, re.M)
        version = version or (v.group(1) if v else "")
        if c:
            cuda, found = c.group(1) or None, True
    if not found or not version:
        t = torchimport("print(json.dumps([torch.__version__, torch.version.cuda]))")
        if isinstance(t, list) and len(t) == 2:
            version = version or str(t[0])
            cuda = t[1] if isinstance(t[1], str) else None
    return (version, cuda, here)


def torchimport(code):
    """What code prints in a fresh interpreter that imports torch (a JSON value), or None."""
    st, out = run([sys.executable, "-c", "import json, torch\n" + code], timeout=300)
    if st != 0:
        return None
    try:
        return json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def nvidiasmi():
    """(driver CUDA (major, minor) or None, [(index, name, (major, minor))], why none)."""
    st, out = run(["nvidia-smi", "--query-gpu=index,name,compute_cap", "--format=csv,noheader"])
    if st is None:
        return None, [], "nvidia-smi: %s" % out
    if st != 0:
        return None, [], "nvidia-smi: %s" % (out.strip().splitlines() or ["exit status %d" % st])[-1][:200]
    gpus = []
    for line in out.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) >= 3 and minor(parts[-1]):
            gpus.append((parts[0], ",".join(parts[1:-1])[:100], minor(parts[-1])))
    st, out = run(["nvidia-smi"])
    m = re.search(r"CUDA Version\s*:\s*(\d+\.\d+)", out or "")
    return (minor(m.group(1)) if m else None), gpus, "" if m else "nvidia-smi shows no CUDA version"


class Machine:
    """What the finder knows of the machine it answers for, read or told."""

    def __init__(self, a):
        self.told = []
        self.notes = []
        # Python
        if a.python:
            m = PYVER.match(a.python)
            if not m:
                raise Wrong("--python wants a version like 3.12 or 3.14t, not %r" % a.python)
            self.py = (int(m.group(1)), int(m.group(2)), m.group(3) == "t")
            self.told.append("python")
        else:
            import sysconfig
            ft = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
            self.py = (sys.version_info[0], sys.version_info[1], ft)
            import platform
            if platform.python_implementation() != "CPython":
                self.notes.append("this is %s: the wheels are CPython's" % platform.python_implementation())
        # platform
        if a.platform:
            if a.platform not in ("x86_64", "aarch64", "win_amd64"):
                raise Wrong("--platform wants x86_64, aarch64 or win_amd64, not %r" % a.platform)
            self.machine = a.platform
            self.glibc = None
            self.told.append("platform")
        else:
            import platform
            m = platform.machine().lower()
            if sys.platform.startswith("linux"):
                self.machine = {"amd64": "x86_64", "arm64": "aarch64"}.get(m, m)
            elif sys.platform == "win32":
                self.machine = "win_amd64" if m in ("amd64", "x86_64") else "win_" + m
            else:
                self.machine = sys.platform + "_" + m
            self.glibc = None
            if sys.platform.startswith("linux"):
                try:
                    lib = os.confstr("CS_GNU_LIBC_VERSION") or ""
                except (ValueError, OSError, AttributeError):
                    lib = ""
                m = re.match(r"^glibc (\d+)\.(\d+)", lib)
                self.glibc = (int(m.group(1)), int(m.group(2))) if m else "none"
        if a.glibc:
            if not minor(a.glibc):
                raise Wrong("--glibc wants a version like 2.28, not %r" % a.glibc)
            self.glibc = minor(a.glibc)
            self.told.append("glibc")
        # torch
        self.torchabi = None
        self.torchread = False
        self.torchdir = None
        if a.torch:
            self.told.append("torch")
            if a.torch == "none":
                self.torch = None
            else:
                m = re.match(r"^(\d+)\.(\d+)(\.\d+)?(?:\+cu(\d+)(\d))?$", a.torch)
                if not m:
                    raise Wrong("--torch wants none or a version like 2.9, 2.9.1 or 2.9.1+cu130, not %r" % a.torch)
                cuda = "%s.%s" % (m.group(4), m.group(5)) if m.group(4) else None
                self.torch = (a.torch if m.group(3) else None, "%s.%s" % m.group(1, 2), cuda)
        else:
            t = torchfiles()
            self.torch = None
            if t is not None:
                m = re.match(r"^(\d+)\.(\d+)", t[0])
                if m:
                    exact = t[0] if VERSION.match(t[0].lower()) and len(t[0]) <= 200 else None
                    self.torch = (exact, "%s.%s" % m.group(1, 2), t[1])
                    self.torchread, self.torchdir = True, t[2]
                else:
                    self.notes.append("torch is installed but its version cannot be read")
        if a.torch_cuda:
            if not minor(a.torch_cuda) and a.torch_cuda != "none":
                raise Wrong("--torch-cuda wants a version like 13.0 or none, not %r" % a.torch_cuda)
            if self.torch is None:
                raise Wrong("--torch-cuda needs a torch (--torch, or one installed)")
            self.torch = (self.torch[0], self.torch[1], None if a.torch_cuda == "none" else a.torch_cuda)
        # the setup's CUDA, the driver and the GPUs
        if a.cuda and not minor(a.cuda):
            raise Wrong("--cuda wants a version like 13.0, not %r" % a.cuda)
        self.cuda = a.cuda
        self.driver, self.gpus, self.nodriver = None, None, ""
        if a.driver is None or a.gpu is None:
            driver, gpus, why = nvidiasmi()
            if driver is None and not gpus and self.torchread and self.torch[2]:
                t = torchimport("print(json.dumps([torch._C._cuda_getDriverVersion(), [[str(i), torch.cuda.get_device_name(i), "
                                "list(torch.cuda.get_device_capability(i))] for i in range(torch.cuda.device_count())]]))")
                if isinstance(t, list) and len(t) == 2 and isinstance(t[0], int) and t[0] > 0:
                    driver = (t[0] // 1000, t[0] % 1000 // 10)
                    gpus = [(str(g[0]), str(g[1])[:100], (int(g[2][0]), int(g[2][1]))) for g in t[1]
                            if isinstance(g, list) and len(g) == 3 and isinstance(g[2], list) and len(g[2]) == 2]
                    why = ""
                else:
                    why += "; torch sees no driver"
            self.driver, self.gpus, self.nodriver = driver, gpus if gpus else None, why
        if a.driver is not None:
            self.told.append("driver")
            if a.driver == "none":
                self.driver, self.nodriver = None, "--driver none"
            elif minor(a.driver):
                self.driver = minor(a.driver)
            else:
                raise Wrong("--driver wants the driver's CUDA version like 13.0, or none, not %r" % a.driver)
        if a.gpu is not None:
            self.told.append("gpu")
            if a.gpu == "none":
                self.gpus = None
            else:
                ccs = [minor(g) for g in a.gpu.split(",")]
                if not all(ccs):
                    raise Wrong("--gpu wants compute capabilities like 9.0 or 8.6,9.0, or none, not %r" % a.gpu)
                self.gpus = [(str(i), "", cc) for i, cc in enumerate(ccs)]

    def cxx11abi(self):
        """The installed torch's C++ ABI (True: the C++11 one), or None: not known. Its libc10's
        std::string symbols say it (std::__cxx11::basic_string: mangled St7__cxx11) without an
        import of torch (seconds); else torch._C._GLIBCXX_USE_CXX11_ABI."""
        if self.torchread and self.torchabi is None:
            self.torchabi = "unknown"
            lib = os.path.join(self.torchdir or "", "lib", "libc10.so")
            try:
                with open(lib, "rb") as f:
                    data = f.read(256 << 20)
                self.torchabi = b"St7__cxx11" in data if b"basic_string" in data else "unknown"
            except OSError:
                pass
            if self.torchabi == "unknown":
                t = torchimport("print(json.dumps(bool(torch._C._GLIBCXX_USE_CXX11_ABI)))")
                self.torchabi = t if isinstance(t, bool) else "unknown"
        return self.torchabi if isinstance(self.torchabi, bool) else None

    def pywords(self):
        return "%d.%d%s" % (self.py[0], self.py[1], "t" if self.py[2] else "")

    def describe(self):
        """This machine in words: Python 3.12, x86_64, glibc 2.36, torch 2.9.0 (CUDA 13.0), driver CUDA 13.0, GPU 9.0."""
        d = ["Python " + self.pywords(), self.machine]
        if isinstance(self.glibc, tuple):
            d.append("glibc %d.%d" % self.glibc)
        elif self.glibc == "none":
            d.append("no glibc")
        if self.torch:
            cuda = " (CUDA %s)" % self.torch[2] if self.torch[2] else "" if "torch" in self.told else " (CPU)"
            d.append("torch %s%s" % (self.torch[0] or self.torch[1], cuda))
        elif "torch" in self.told or self.torch is None:
            d.append("no torch")
        if self.cuda:
            d.append("CUDA %s" % self.cuda)
        if self.driver:
            d.append("driver CUDA %d.%d" % self.driver)
        elif self.nodriver:
            d.append("no NVIDIA driver")
        if self.gpus:
            d.append(", ".join("GPU %d.%d%s" % (g[2] + (" (%s)" % g[1] if g[1] else "",)) for g in self.gpus))
        return ", ".join(d)

    def record(self):
        return {
            "python": self.pywords(), "machine": self.machine,
            "glibc": "%d.%d" % self.glibc if isinstance(self.glibc, tuple) else None,
            "torch": None if not self.torch else {"version": self.torch[0] or self.torch[1], "cuda": self.torch[2]},
            "cuda": self.cuda,
            "driver_cuda": "%d.%d" % self.driver if self.driver else None,
            "gpus": None if self.gpus is None else [{"index": g[0], "name": g[1], "compute_capability": "%d.%d" % g[2]} for g in self.gpus],
            "told": self.told,
        }


# --- which wheel ------------------------------------------------------------------------------

def choose(wheels, pkg, pin, mc):
    """(the wheel, None, notes) or (None, why none fits, the nearest wheels)."""
    mine = [w for w in wheels if w["package"] == pkg]
    if pin:
        mine = [w for w in mine if public(w["version"]) == pin or w["version"] == pin]
        if not mine:
            have = distinct((public(w["version"]) for w in wheels if w["package"] == pkg), vkey)
            return None, "no wheel of %s %s (this index has %s)" % (pkg, pin, words(have)), []
    else:
        unyanked = [w for w in mine if w["yanked"] is None]
        if not unyanked:
            return None, "every version of %s here is yanked (name one: %s==VERSION)" % (pkg, pkg), mine
        mine = unyanked
    notes = []
    stages = [
        ("platform", lambda w: platfits(w, mc.machine),
         lambda ws: "no wheel of %s for %s (this index has %s)" % (pkg, mc.machine, words(distinct((w["machine"] for w in ws), str)))),
    ]
    if isinstance(mc.glibc, tuple) or mc.glibc == "none":
        def glibcok(w):
            floor = glibcfloor(w)
            return floor is None or (mc.glibc != "none" and floor <= mc.glibc)

        def glibcwhy(ws):
            floor = min(glibcfloor(w) for w in ws if glibcfloor(w))
            if mc.glibc == "none":
                return "this Linux has no glibc (musl?): the wheels need manylinux_%d_%d, glibc %d.%d or newer" % (floor * 2)
            return "glibc %d.%d is older than the manylinux_%d_%d floor of the wheels" % (mc.glibc + floor)
        stages.append(("glibc", glibcok, glibcwhy))
    py = mc.py
    stages.append(("python", lambda w: pyfits(w, py),
                   lambda ws: "no wheel for %sPython %s (this index has %s)" % (
                       "free-threaded " if py[2] else "", mc.pywords(), words(distinct((w["python"] or w["python_tag"] for w in ws), pykey)))))
    torchpkg = any(w["torch"] for w in mine)
    if torchpkg and mc.torch:
        tv, tmin, tcuda = mc.torch
        stages.append(("torch", lambda w: w["torch"] == tmin,
                       lambda ws: "no wheel for torch %s (this index has %s)" % (
                           tmin, words(distinct((w["torch"] for w in ws), minor)))))
        if tcuda is None and ("torch" not in mc.told):
            stages.append(("torch_cuda", lambda w: not w["cuda"],
                           lambda ws: "torch %s is a CPU build: the wheels need a torch built with CUDA (%s)" % (
                               tv or tmin, words(distinct((w["torch_cuda"] or w["cuda"] for w in ws), minor)))))
        elif tcuda is not None:
            stages.append(("torch_cuda", lambda w: (w["torch_cuda"] or w["cuda"]) == tcuda,
                           lambda ws: "no wheel for torch %s with CUDA %s (for torch %s this index has CUDA %s)" % (
                               tmin, tcuda, tmin, words(distinct((w["torch_cuda"] or w["cuda"] for w in ws), minor)))))
        if mc.torchread:
            def abiok(w):
                mine_abi = mc.cxx11abi() if w["torch_cxx11_abi"] is not None else None
                return mine_abi is None or mine_abi == w["torch_cxx11_abi"]

            def abiwhy(ws):
                name = lambda b: "C++11" if b else "pre-C++11"
                return "torch %s uses the %s ABI and the wheels were built against a torch with the %s ABI" % (
                    tv, name(mc.cxx11abi()), name(not mc.cxx11abi()))
            stages.append(("torch_abi", abiok, abiwhy))
    if mc.cuda:
        stages.append(("cuda", lambda w: not w["cuda"] or w["cuda"] == mc.cuda,
                       lambda ws: "no wheel for CUDA %s (this index has %s)" % (
                           mc.cuda, words(distinct((w["cuda"] for w in ws), minor)))))
    installed = torchpkg and mc.torch is not None

    def needs(w):
        """The driver's CUDA w needs: its own, and that of the torch it brings."""
        own = minor(w["cuda"])
        brought = minor(w["torch_cuda"]) if w["torch"] and not installed else None
        return max(own, brought) if brought else own
    if mc.driver:
        stages.append(("driver", lambda w: not w["cuda"] or needs(w) <= mc.driver,
                       lambda ws: "the driver runs CUDA %d.%d and the wheels need %d.%d or newer" % (
                           mc.driver + min(needs(w) for w in ws if w["cuda"]))))
    elif not mc.cuda:
        stages.append(("driver", lambda w: not w["cuda"],
                       lambda ws: "no NVIDIA driver found (%s): the wheels need one that runs CUDA %d.%d or newer "
                                  "(--driver and --gpu name another machine's)" % (
                                      (mc.nodriver or "none",) + min(needs(w) for w in ws if w["cuda"]))))
    if mc.gpus:
        def gpuok(w):
            return not w["cuda"] or not w["gpu_archs"] or all(gpuruns(w["gpu_archs"], g[2]) for g in mc.gpus)

        def gpuwhy(ws):
            archs = archsort(a for w in ws for a in (w["gpu_archs"] or []))
            bad = [g for g in mc.gpus if not any(w["gpu_archs"] and gpuruns(w["gpu_archs"], g[2]) for w in ws)] or mc.gpus
            g = bad[0]
            return "GPU %d.%d%s is not among the wheels' architectures %s" % (
                g[2] + (" (%s)" % g[1] if g[1] else "", archwords(archs)))
        stages.append(("gpu", gpuok, gpuwhy))
    for name, ok, why in stages:
        fits = [w for w in mine if ok(w)]
        if not fits:
            return None, why(mine), mine
        mine = fits
    if mc.gpus is None and any(w["cuda"] and w["gpu_archs"] for w in mine):
        notes.append("no GPU seen: its compute capability was not checked against the wheel's architectures")
    best = max(mine, key=lambda w: (vkey(public(w["version"])), minor(w["torch"]) or (0, 0), minor(w["cuda"]) or (0, 0),
                                     w["abi_tag"] != "abi3", w["filename"]))
    if mc.gpus and best["cuda"] and best["gpu_archs"] is None:
        notes.append("the index does not say which GPUs this wheel was built for (an index written before "
                     "wheelgen recorded it): your GPUs were not checked")
    return best, None, notes


def commands(w, base, mc, py):
    """(pip's command, uv's command, the torch it brings or None) that install w."""
    index = base + "/" + w["index"]
    reqs = ["%s==%s" % (w["package"], w["version"])]
    deps = w["dependencies"]
    extra, brings = [], None
    if w["torch"] and mc.torch is None:
        # no torch here: the one it was built and tested with, from where it came
        brings = {"version": w["torch_version"] or w["torch"] + ".*", "cuda": w["torch_cuda"],
                  "index": w["torch_index"] or PYPI}
        reqs.append("torch==" + brings["version"])
        if brings["index"] != PYPI:
            extra.append(brings["index"])
        extra.append(PYPI)
    else:
        if w["torch"]:
            reqs.append("torch==" + (mc.torch[0] or mc.torch[1] + ".*"))
        if deps is None or [d for d in deps if not (d == "torch" and w["torch"])]:
            extra.append(PYPI)
    q = lambda args: " ".join(shlex.quote(a) for a in args)
    pip = [py, "-m", "pip", "install", "--index-url", index]
    for e in extra:
        pip += ["--extra-index-url", e]
    uv = ["uv", "pip", "install", "--python", py]
    if not extra:
        uv += ["--index-url", index]
    else:
        uv += ["--index", index]
        for e in extra:
            uv += ["--index", e] if e != PYPI else []
        uv += ["--default-index", PYPI] if PYPI in extra else []
    return q(pip + reqs), q(uv + reqs), brings


def interpreter(mc):
    """How the command names the Python: python3 when that is this one (or another is told)."""
    if "python" in mc.told:
        return "python3"
    found = shutil.which("python3")
    here = os.path.abspath(sys.executable or "python3")
    if found and os.path.dirname(os.path.abspath(found)) == os.path.dirname(here):
        try:
            if os.path.samefile(found, here):
                return "python3"
        except OSError:
            pass
    return here


def entry(w):
    keys = ("package", "version", "filename", "url", "python", "python_tag", "abi_tag", "platform_tag", "machine",
            "cuda", "torch", "torch_version", "torch_cuda", "gpu_archs", "index")
    return {k: w[k] for k in keys}


def wheelwords(w):
    d = [w["version"], "Python %s" % (w["python"] or w["python_tag"]), w["machine"] or w["platform_tag"]]
    if w["torch"]:
        d.append("torch %s" % w["torch"])
    if w["cuda"]:
        d.append("CUDA %s" % w["cuda"])
    if w["gpu_archs"]:
        d.append("GPU " + archwords(w["gpu_archs"]))
    return ", ".join(d)


def main(argv):
    ap = argparse.ArgumentParser(prog="find.py", description="The wheel of a wheelgen index that fits this machine, "
                                 "or why none does.", epilog="Exit status: 0 a wheel fits (the command that installs "
                                 "it printed), 1 none fits (why, and the nearest), 2 the index or the arguments are wrong.")
    ap.add_argument("package", help="the package, PACKAGE or PACKAGE==VERSION")
    ap.add_argument("--index", help="the index's address (default: the directory of this script)")
    ap.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    told = ap.add_argument_group("another machine than this one (each replaces one reading)")
    for opt, what in (("python", "3.12, or 3.14t (free-threaded)"), ("platform", "x86_64, aarch64 or win_amd64"),
                      ("glibc", "2.28"), ("torch", "the torch installed: 2.9, 2.9.1, 2.9.1+cu130, or none"),
                      ("torch-cuda", "that torch's CUDA: 13.0, or none (a CPU build)"),
                      ("cuda", "the setup's CUDA (a wheel's): 13.0"), ("driver", "the driver's CUDA: 13.0, or none"),
                      ("gpu", "the GPUs' compute capabilities: 9.0 or 8.6,9.0, or none")):
        told.add_argument("--" + opt, metavar=opt.split("-")[-1].upper(), help=what)
    a = ap.parse_args(argv)
    out = {"package": None}
    try:
        m = re.match(r"^([A-Za-z0-9._-]+)(?:==(\S+))?$", a.package)
        if not m or (m.group(2) and not VERSION.match(m.group(2).lower())):
            raise Wrong("%r is not PACKAGE or PACKAGE==VERSION" % a.package)
        pkg = re.sub(r"[-_.]+", "-", m.group(1)).lower()
        pin = m.group(2).lower() if m.group(2) else None
        out["package"] = pkg
        where = a.index
        if not where:
            here = os.path.dirname(os.path.abspath(__file__)) if os.path.isfile(globals().get("__file__") or "") else None
            if not here or not os.path.isfile(os.path.join(here, "wheels.json")):
                raise Wrong("which index? give --index INDEX, the address find.py came from")
            where = here
        base = indexbase(where)
        wheels = parse(fetch(base))
        if not any(w["package"] == pkg for w in wheels):
            raise Wrong("this index has no wheel of %s (it has: %s)" % (
                pkg, ", ".join(sorted(set(w["package"] for w in wheels))) or "nothing"))
        mc = Machine(a)
    except Wrong as e:
        if a.json:
            print(json.dumps({"status": "error", "package": out["package"], "error": str(e)}, indent=2))
        else:
            sys.stderr.write("find.py: error: %s\n" % e)
        return 2
    w, why, rest = choose(wheels, pkg, pin, mc)
    out.update({"index": base, "machine": mc.record()})
    if w is None:
        near = sorted(rest, key=lambda x: vkey(x["version"]), reverse=True)[:8]
        out.update({"status": "none", "reason": why, "nearest": [entry(x) for x in near], "notes": mc.notes})
        if a.json:
            print(json.dumps(out, indent=2))
        else:
            print("%s: no wheel fits this machine (%s):" % (pkg, mc.describe()))
            print("  " + why)
            if near:
                print("the nearest wheels of this index:")
                for x in near:
                    print("  %s %s" % (pkg, wheelwords(x)))
            for n in mc.notes:
                print("note: " + n)
        return 1
    pip, uv, brings = commands(w, base, mc, interpreter(mc))
    out.update({"status": "found", "wheel": entry(w), "command": pip, "uv_command": uv, "brings_torch": brings,
                "notes": mc.notes + rest})
    if a.json:
        print(json.dumps(out, indent=2))
        return 0
    print("%s %s fits this machine (%s):" % (pkg, w["version"], mc.describe()))
    print("  %s: %s" % (w["filename"], wheelwords(w)))
    if brings:
        print("  with the torch it was built against, torch %s%s, from %s" % (
            brings["version"], " (CUDA %s)" % brings["cuda"] if brings["cuda"] else "", brings["index"]))
    for n in mc.notes + rest:
        print("note: " + n)
    print("install it with:\n\n  %s\n\nor with uv:\n\n  %s\n" % (pip, uv))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:  # (its output piped into head)
        sys.exit(0)
