#!/bin/sh
# wheel repair: auditwheel (from PyPI) vendors a library the extension links (libyaml) and
# retags the wheel manylinux; repair.exclude leaves a library out; the repaired wheel imports
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

src=$WORK/src
t_case "configure a tree with a package that links libyaml"
if ! t_configure "$src" --config examples/quickstart/packages.yml; then t_fail "$(cat "$src.configure.log")"; exit 0; fi
cd "$src" || exit 1
py=$(t_pythons 1)
mkdir -p rpkg/wgyaml
cat >rpkg/setup.py <<'SETUP'
from setuptools import setup, Extension
setup(name="wgyaml", version="0.1.0", packages=["wgyaml"],
      ext_modules=[Extension("wgyaml._c", ["wgyaml/_c.c"], libraries=["yaml"])])
SETUP
echo "from ._c import version" >rpkg/wgyaml/__init__.py
cat >rpkg/wgyaml/_c.c <<'CSRC'
#include <Python.h>
#include <yaml.h>
static PyObject *version(PyObject *self, PyObject *args) { (void)self; (void)args; return PyUnicode_FromString(yaml_get_version_string()); }
static PyMethodDef methods[] = { {"version", version, METH_NOARGS, "libyaml's version"}, {NULL, NULL, 0, NULL} };
static struct PyModuleDef mod = { PyModuleDef_HEAD_INIT, "_c", NULL, -1, methods, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&mod); }
CSRC
writecfg() { # writecfg REPAIR-MAPPING
	cat >rpkg.yml <<CFG
packages:
  wgyaml:
    source: {path: rpkg}
    versions: ["0.1.0"]
    python: ["$py"]
    repair: $1
    test_import: wgyaml
    test_command: python -c "import wgyaml; assert wgyaml.version().startswith('0.')"
CFG
}
writecfg '{plat: manylinux_2_28_x86_64}'
sed -i 's|^config = .*|config = rpkg.yml|' out/config.ninja
cell=wgyaml-0.1.0-py$(echo "$py" | tr -d .)
t_pass

t_case "ninja test/$cell: auditwheel repairs the wheel to manylinux_2_28 and vendors libyaml; it imports"
if ninja "test/$cell" >"$WORK/ninja1.log" 2>&1; then
	f=$(sed -n 's/^filename=//p' "out/wheels/$cell/manifest")
	libs=$(unzip -Z1 "out/wheels/$cell/$f" | grep '^wgyaml\.libs/libyaml' || true)
	case $f in
	*manylinux_2_28_x86_64*.whl)
		if [ -n "$libs" ]; then t_pass; else t_fail "no vendored libyaml in $f: $(unzip -Z1 "out/wheels/$cell/$f")"; fi ;;
	*) t_fail "not retagged: $f" ;;
	esac
else
	t_fail "$(tail -n 30 "$WORK/ninja1.log")"
fi

t_case "repair.exclude leaves libyaml out; the wheel is rebuilt because the spec changed"
writecfg '{exclude: ["libyaml-0.so.*"]}'
if ninja "test/$cell" >"$WORK/ninja2.log" 2>&1; then
	f=$(sed -n 's/^filename=//p' "out/wheels/$cell/manifest")
	if unzip -Z1 "out/wheels/$cell/$f" | grep -q '\.libs/'; then
		t_fail "vendored anyway: $(unzip -Z1 "out/wheels/$cell/$f")"
	elif grep -q -- "--exclude libyaml-0.so.\*" "out/logs/$cell.build.log" &&
		grep -q -- "--exclude libtorch\*.so\*" "out/logs/$cell.build.log"; then
		t_pass
	else
		t_fail "$(grep -n auditwheel "out/logs/$cell.build.log")"
	fi
else
	t_fail "$(tail -n 30 "$WORK/ninja2.log")"
fi

# a C extension that calls dlopen, which glibc 2.34 moved into libc with a new symbol version:
# built here (glibc 2.36) it needs GLIBC_2.34, newer than the manylinux_2_28 its config asks for
mkdir -p rpkg2/wgnew
cat >rpkg2/setup.py <<'SETUP'
from setuptools import setup, Extension
setup(name="wgnew", version="0.1.0", packages=["wgnew"], ext_modules=[Extension("wgnew._c", ["wgnew/_c.c"])])
SETUP
: >rpkg2/wgnew/__init__.py
cat >rpkg2/wgnew/_c.c <<'CSRC'
#include <Python.h>
#include <dlfcn.h>
static PyObject *probe(PyObject *self, PyObject *args) { (void)self; (void)args; return PyBool_FromLong(dlopen("libc.so.6", RTLD_NOW) != NULL); }
static PyMethodDef methods[] = { {"probe", probe, METH_NOARGS, "dlopen libc"}, {NULL, NULL, 0, NULL} };
static struct PyModuleDef mod = { PyModuleDef_HEAD_INIT, "_c", NULL, -1, methods, NULL, NULL, NULL, NULL };
PyMODINIT_FUNC PyInit__c(void) { return PyModule_Create(&mod); }
CSRC
cat >rpkg2.yml <<CFG
packages:
  wgnew:
    source: {path: rpkg2}
    versions: ["0.1.0"]
    python: ["$py"]
    repair: {plat: manylinux_2_28_x86_64}
CFG
sed -i 's|^config = .*|config = rpkg2.yml|' out/config.ninja
# shellcheck disable=SC2034 # (read by the case)
new=wgnew-0.1.0-py$(echo "$py" | tr -d .)
# shellcheck disable=SC2016 # (a case is a single-quoted script: t_expect)
t_expect "a wheel that needs a newer glibc than its platform's floor (repair.plat manylinux_2_28: dlopen@GLIBC_2.34) fails its build, naming the symbol and its file" '
	! ninja "wheel/$new" >"$WORK/new.log" 2>&1
	[ ! -f "out/wheels/$new/manifest" ]
	grep -q "needs glibc 2.34, newer than the floor of its platform, glibc 2.28 (manylinux_2_28_x86_64): dlopen@GLIBC_2.34 in wgnew/_c.cpython-[0-9]*-x86_64-linux-gnu.so" "$WORK/new.log"
'
