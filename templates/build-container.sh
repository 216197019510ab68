#!/bin/sh
# wheelgen build step in a container (configure --backend docker|podman): see container-run.sh
#   sh templates/build-container.sh [--dry-run] BUILDDIR CELL
exec sh "$(dirname "$0")/container-run.sh" build "$@"
