#!/usr/bin/env bash
# Docker Compose v2 as a CLI plugin. Debian 12 only packages v1, so where v2 is missing
# it is built from source with Go (~2.5 min, once) and installed for this user.
set -euo pipefail
VERSION=v2.29.7
PLUGIN_DIR=${DOCKER_CONFIG:-$HOME/.docker}/cli-plugins

if docker compose version --short 2>/dev/null | grep -q '^v\?2\.'; then exit 0; fi
command -v go >/dev/null || {
  echo "error: Docker Compose v2 is missing and there is no Go toolchain to build it;" \
       "install the docker-compose-plugin package (Docker's apt repository) or Go >= 1.21" >&2
  exit 1
}
echo "compose: building Docker Compose $VERSION from source with Go (~2.5 min, done once)"
gobin=$(mktemp -d)
trap 'rm -rf "$gobin"' EXIT
GOBIN=$gobin go install -ldflags "-X github.com/docker/compose/v2/internal.Version=$VERSION" \
  "github.com/docker/compose/v2/cmd@$VERSION"
mkdir -p "$PLUGIN_DIR"
install -m 0755 "$gobin/cmd" "$PLUGIN_DIR/docker-compose"
docker compose version
