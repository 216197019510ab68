#!/bin/sh
# tests/images/debian.sh ENGINE CACHE-DIR: a manylinux-shaped image for the container backend's
# tests, built here from Debian's packages (no registry): mmdebstrap makes a Debian 12 rootfs
# with gcc, patch, ccache and Python 3.11 (venv, headers), which is linked where manylinux
# images keep their Pythons (/opt/python/cp311-cp311/bin/python); ENGINE imports it. CUDA comes
# from the host's toolkit, mounted read-only at /usr/local/cuda-X.Y (WHEELGEN_CONTAINER_CUDA=host).
# The rootfs tarball is kept in CACHE-DIR/images/ (about 30 s and 500 MB the first time), the
# image in ENGINE's store; both are named by this script's hash, so a change makes new ones.
# Prints the image's name.
set -eu
[ "$#" -eq 2 ] || { echo "usage: tests/images/debian.sh ENGINE CACHE-DIR" >&2; exit 2; }
engine=$1 cache=$2
hash=$(sha256sum "$0" | cut -c1-12)
image=localhost/wheelgen-test-debian:$hash
if "$engine" image inspect "$image" >/dev/null 2>&1; then
	echo "$image"
	exit 0
fi
tar=$cache/images/wheelgen-test-debian-$hash.tar
if [ ! -s "$tar" ]; then
	mkdir -p "$cache/images"
	command -v mmdebstrap >/dev/null 2>&1 || { echo "tests/images/debian.sh: mmdebstrap not found (apt-get install mmdebstrap)" >&2; exit 1; }
	# shellcheck disable=SC2016 # the hook's $1 is mmdebstrap's (the rootfs)
	mmdebstrap --quiet --variant=apt --format=tar \
		--include=python3,python3-venv,python3-dev,gcc,g++,make,patch,ccache,ca-certificates \
		--customize-hook='mkdir -p "$1/opt/python/cp311-cp311/bin" && ln -s /usr/bin/python3 "$1/opt/python/cp311-cp311/bin/python"' \
		bookworm "$tar.tmp" >&2
	mv "$tar.tmp" "$tar"
fi
"$engine" import "$tar" "$image" >/dev/null
echo "$image"
