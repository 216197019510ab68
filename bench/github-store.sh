#!/bin/sh
# bench/github-store.sh [CELLS]: a GitHub store at a farm's size, against tests/fakegithub.py (a
# stand-in that holds GitHub's limits: 1,000 assets a release, 100 a page, 422 for a duplicate,
# 2 GiB an asset): CELLS tiny cells (default 510: 1,530 assets) published by
# templates/publish-github.sh into the releases wheelgen computes from each cell, then a plan
# (0 missing), a restore and a merge-index that links every wheel. It is t1100's last cases at
# size: their lines say what held, "#" lines the seconds each part took.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
WG_GITHUB_CELLS=${1:-510} exec sh "$top/tests/t1100-publish-github.sh"
