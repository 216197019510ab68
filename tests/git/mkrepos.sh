#!/bin/sh
# tests/git/mkrepos.sh: build the git fixtures of the end-to-end tests.
#
#   tests/git/mkrepos.sh DIR [BASEURL]
#   tests/git/mkrepos.sh --top DIR BASEURL [NAME]
#
# The first form (re)creates the bare repositories DIR/repos/{leaf,mid,top,many}.git from work
# trees in DIR/work/ (both directories are emptied first; DIR is created if missing). BASEURL
# (default: $MKREPOS_BASEURL, else file://DIR/repos) is the absolute url under which the
# repositories are served: top's .gitmodules says BASEURL/mid.git, e.g. git://127.0.0.1:PORT,
# http://127.0.0.1:PORT or file:///abs/DIR/repos. The second form (re)builds only top, as
# DIR/repos/NAME.git (default top) from DIR/work/NAME, with its submodule url BASEURL/mid.git;
# leaf and mid must exist already. Several tops with different urls can live side by side.
#
# Every name, email and date is fixed, so the same BASEURL gives the same commit ids on every run.
# Prints nothing on success; on failure, git's messages and a line saying what failed.
#
#   leaf.git  main: L1 - L2 (v1.0, lightweight) - L3 (v1.1, annotated)
#             files: README.md, leaf.txt, include/leaf.h (LEAF_VERSION "0.9"/"1.0"/"1.1"),
#             from L2 on also run.sh (mode 755) and link (a symlink to leaf.txt)
#   mid.git   main: M1 (v2.0, annotated) - M2 (v2.1, lightweight)
#             include/mid.h (MID_VERSION "2.0"/"2.1"); submodule third_party/leaf,
#             url ../leaf.git (relative), pinned at L2 (= leaf v1.0) in M1 and L3 (= leaf v1.1) in M2
#   top.git   main: T1 (v2.0, annotated) - T2 (v2.1, lightweight) - T3 (main, version 2.2.dev0)
#             plus refs/pull/1/head = P1 (child of T2, on no branch and no tag)
#             a setuptools package "topkg" (version 2.0/2.1) with a C extension topkg._c whose
#             versions() returns {"top":..., "mid":..., "leaf":...}; it includes mid.h and leaf.h,
#             so it builds only with the submodules checked out. Submodule third_party/mid,
#             url BASEURL/mid.git, pinned at M1 in T1 (-> leaf L2) and M2 in T2, T3, P1 (-> leaf L3)
#   many.git  main: 3000 commits (C1..C3000, written by git fast-import), tags v0.1 ... v0.9 on
#             C300 ... C2700 (odd ones annotated, even ones lightweight), v1.0 (annotated) on C3000
set -eu
# shellcheck source-path=SCRIPTDIR
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

usage() {
	sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

toponly=0
if [ "${1:-}" = --top ]; then
	toponly=1
	shift
	case $# in 2 | 3) ;; *) usage ;; esac
else
	case $# in 1 | 2) ;; *) usage ;; esac
fi
case ${1:-} in -*) usage ;; esac
mkdir -p "$1"
D=$(gf_abs "$1")
R=$D/repos
W=$D/work
base=${2:-${MKREPOS_BASEURL:-file://$R}}
base=${base%/}
topname=${3:-top}
case $topname in *[!A-Za-z0-9._-]* | "" | .* | leaf | mid | many) gf_die "bad top name '$topname'" ;; esac

# every commit and tag gets the next timestamp: reproducible ids (each repository starts
# from its own base, so that --top builds the same top as the full run)
tick=0
gf_tick() {
	tick=$((tick + 60))
	GIT_AUTHOR_DATE="@$tick +0000"
	GIT_COMMITTER_DATE="@$tick +0000"
	export GIT_AUTHOR_DATE GIT_COMMITTER_DATE
}

# g REPO ARGS...: git in the work tree DIR/work/REPO
g() {
	r=$1
	shift
	git -C "$W/$r" "$@"
}

# commit REPO MESSAGE: commit everything in the work tree (index already holds any gitlinks)
commit() {
	gf_tick
	g "$1" add -A
	g "$1" commit -q --no-verify -m "$2"
}

# tag REPO NAME [annotated]
tag() {
	gf_tick
	if [ "${3:-}" = annotated ]; then
		g "$1" tag -a "$2" -m "$2"
	else
		g "$1" tag "$2"
	fi
}

# gitlink REPO PATH COMMIT URL: record a submodule in the index and .gitmodules
gitlink() {
	git config -f "$W/$1/.gitmodules" "submodule.$2.path" "$2"
	git config -f "$W/$1/.gitmodules" "submodule.$2.url" "$4"
	g "$1" update-index --add --cacheinfo "160000,$3,$2"
	mkdir -p "$W/$1/$2" # an empty directory: an unpopulated submodule, not a deleted one
}

# init REPO: an empty work tree on branch main
init() {
	rm -rf "${W:?}/$1"
	mkdir -p "$W/$1"
	git init -q -b main "$W/$1"
}

# publish REPO [BARENAME]: (re)create the bare repository from the work tree: heads, tags, refs/pull/*
publish() {
	b=$R/${2:-$1}.git
	rm -rf "$b"
	git init -q --bare -b main "$b"
	g "$1" push -q --no-verify "$b" 'refs/heads/*:refs/heads/*' 'refs/tags/*:refs/tags/*'
	if [ -n "$(g "$1" for-each-ref refs/pull/)" ]; then
		g "$1" push -q --no-verify "$b" 'refs/pull/*:refs/pull/*'
	fi
}

rev() { git -C "$R/$1.git" rev-parse --verify -q "$2^{commit}"; }

mkleaf() {
	tick=1700000000
	init leaf
	cat >"$W/leaf/README.md" <<'EOF'
# leaf

The innermost submodule of the wheelgen git fixtures.
EOF
	echo "leaf one" >"$W/leaf/leaf.txt"
	mkdir -p "$W/leaf/include"
	printf '#define LEAF_VERSION "0.9"\n' >"$W/leaf/include/leaf.h"
	commit leaf "leaf: first"
	printf '#define LEAF_VERSION "1.0"\n' >"$W/leaf/include/leaf.h"
	printf '#!/bin/sh\necho leaf\n' >"$W/leaf/run.sh"
	chmod 755 "$W/leaf/run.sh"
	ln -s leaf.txt "$W/leaf/link"
	commit leaf "leaf: 1.0"
	tag leaf v1.0
	printf '#define LEAF_VERSION "1.1"\n' >"$W/leaf/include/leaf.h"
	echo "leaf two" >"$W/leaf/leaf.txt"
	commit leaf "leaf: 1.1"
	tag leaf v1.1 annotated
	publish leaf
}

mkmid() {
	tick=1700100000
	init mid
	cat >"$W/mid/README.md" <<'EOF'
# mid

Has leaf as the submodule third_party/leaf (relative url ../leaf.git).
EOF
	mkdir -p "$W/mid/include"
	printf '#define MID_VERSION "2.0"\n' >"$W/mid/include/mid.h"
	gitlink mid third_party/leaf "$(rev leaf v1.0)" ../leaf.git
	commit mid "mid: 2.0 with leaf 1.0"
	tag mid v2.0 annotated
	printf '#define MID_VERSION "2.1"\n' >"$W/mid/include/mid.h"
	gitlink mid third_party/leaf "$(rev leaf v1.1)" ../leaf.git
	commit mid "mid: 2.1 with leaf 1.1"
	tag mid v2.1
	publish mid
}

# topfiles NAME VERSION: write top's package files for VERSION
topfiles() {
	t=$W/$1
	mkdir -p "$t/topkg"
	cat >"$t/pyproject.toml" <<'EOF'
[build-system]
requires = ["setuptools>=40.8", "wheel"]
build-backend = "setuptools.build_meta"
EOF
	cat >"$t/setup.py" <<EOF
# Metadata lives here (not in [project]) so that old setuptools can build it too.
import os
import sys

from setuptools import Extension, setup

VERSION = "$2"
MID = os.path.join("third_party", "mid", "include")
LEAF = os.path.join("third_party", "mid", "third_party", "leaf", "include")
for header in (os.path.join(MID, "mid.h"), os.path.join(LEAF, "leaf.h")):
    if not os.path.isfile(header):
        sys.exit("topkg: %s is missing: the submodules are not checked out "
                 "(git submodule update --init --recursive)" % header)

setup(
    name="topkg",
    version=VERSION,
    description="wheelgen git fixture: a C extension that needs nested submodules",
    license="MIT",
    packages=["topkg"],
    ext_modules=[
        Extension(
            "topkg._c",
            ["topkg/_c.c"],
            include_dirs=[MID, LEAF],
            define_macros=[("TOPKG_VERSION", '"%s"' % VERSION)],
        )
    ],
    zip_safe=False,
)
EOF
	cat >"$t/MANIFEST.in" <<'EOF'
recursive-include third_party *.h
EOF
	cat >"$t/topkg/__init__.py" <<EOF
from ._c import versions

__version__ = "$2"
EOF
	cat >"$t/topkg/_c.c" <<'EOF'
#include <Python.h>
#include "mid.h"
#include "leaf.h"

static PyObject *versions(PyObject *self, PyObject *args)
{
	(void)self;
	(void)args;
	return Py_BuildValue("{s:s,s:s,s:s}", "top", TOPKG_VERSION, "mid", MID_VERSION, "leaf", LEAF_VERSION);
}

static PyMethodDef methods[] = {
	{"versions", versions, METH_NOARGS, "the versions of top, mid and leaf compiled in"},
	{NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_c", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__c(void)
{
	return PyModule_Create(&module);
}
EOF
	cat >"$t/README.md" <<EOF
# topkg $2

Shaped like xformers: third_party/mid is a submodule (absolute url), which has
third_party/leaf as a submodule (relative url).
EOF
}

mktop() {
	n=$1
	[ -d "$R/leaf.git" ] || gf_die "build leaf and mid first: $0 DIR [BASEURL]"
	[ -d "$R/mid.git" ] || gf_die "build leaf and mid first: $0 DIR [BASEURL]"
	tick=1700200000
	init "$n"
	topfiles "$n" 2.0
	gitlink "$n" third_party/mid "$(rev mid v2.0)" "$base/mid.git"
	commit "$n" "topkg 2.0 with mid 2.0"
	tag "$n" v2.0 annotated
	topfiles "$n" 2.1
	gitlink "$n" third_party/mid "$(rev mid v2.1)" "$base/mid.git"
	commit "$n" "topkg 2.1 with mid 2.1"
	tag "$n" v2.1
	# a pull request: a commit on no branch and no tag
	g "$n" checkout -q -b pr
	echo "a change under review" >"$W/$n/PR.txt"
	commit "$n" "pull request 1"
	g "$n" update-ref refs/pull/1/head HEAD
	g "$n" checkout -q main
	g "$n" branch -q -D pr
	topfiles "$n" 2.2.dev0
	commit "$n" "topkg 2.2.dev0"
	publish "$n"
}

mkmany() {
	rm -rf "$R/many.git"
	git init -q --bare -b main "$R/many.git"
	# the fast-import stream: commit i sets count.txt to i and rewrites one of 10 files
	awk 'BEGIN {
		for (i = 1; i <= 3000; i++) {
			t = 1600000000 + 60 * i
			msg = "commit " i "\n"
			c = i "\n"
			f = "line " i "\n"
			printf "commit refs/heads/main\nmark :%d\n", i
			printf "author wheelgen <wg@example.invalid> %d +0000\n", t
			printf "committer wheelgen <wg@example.invalid> %d +0000\n", t
			printf "data %d\n%s", length(msg), msg
			printf "M 100644 inline count.txt\ndata %d\n%s", length(c), c
			printf "M 100644 inline d/f%d.txt\ndata %d\n%s\n", i % 10, length(f), f
			if (i % 300 == 0) {
				v = (i == 3000) ? "v1.0" : "v0." (i / 300)
				if (i == 3000 || (i / 300) % 2 == 1) {
					m = "many " v "\n"
					printf "tag %s\nfrom :%d\ntagger wheelgen <wg@example.invalid> %d +0000\ndata %d\n%s\n", v, i, t, length(m), m
				} else {
					printf "reset refs/tags/%s\nfrom :%d\n\n", v, i
				}
			}
		}
		print "done"
	}' >"$W/many.fi"
	git -C "$R/many.git" fast-import --quiet --done <"$W/many.fi"
}

# (no "mkleaf || die": set -e does not apply inside a function called that way)
step=
onexit() {
	rc=$?
	[ "$rc" -eq 0 ] || echo "$gf_me: building $step failed (status $rc)" >&2
}
trap onexit EXIT
mkdir -p "$R" "$W"
if [ "$toponly" = 1 ]; then
	step=$topname.git
	mktop "$topname"
	exit 0
fi
rm -rf "${R:?}"/* "${W:?}"/*
step=leaf.git
mkleaf
step=mid.git
mkmid
step=top.git
mktop top
step=many.git
mkmany
