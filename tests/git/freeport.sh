#!/bin/sh
# tests/git/freeport.sh: print a TCP port on 127.0.0.1 that nothing listens on right now, e.g. to
# build the fixtures with a git:// or http:// BASEURL before the server on that port starts:
#
#   port=$(tests/git/freeport.sh)
#   tests/git/mkrepos.sh DIR "git://127.0.0.1:$port" && tests/git/daemon.sh start DIR "$port"
set -eu
# shellcheck source-path=SCRIPTDIR
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
gf_freeport
