#!/bin/sh
# wheelgen test step in a container (configure --backend docker|podman): see container-run.sh
#   sh templates/test-container.sh [--dry-run] BUILDDIR CELL
exec sh "$(dirname "$0")/container-run.sh" test "$@"
