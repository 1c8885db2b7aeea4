#!/usr/bin/env bash
# Makes sure debian:<suite>-slim exists locally (suite: bookworm, the default, or sid for the
# MySQL 9.7 image): pulled where a registry answers, otherwise built with debootstrap and
# imported under the same tag, so that the lab's Dockerfiles work unchanged on both kinds of host.
set -euo pipefail
SUITE=${1:-bookworm}
case "$SUITE" in
  bookworm|sid) ;;
  *) echo "error: base image suite '$SUITE': expected bookworm or sid" >&2; exit 2 ;;
esac
IMAGE=debian:$SUITE-slim
LABEL=org.blackhole-lab.base=1

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  exit 0
fi
echo "base image: trying 'docker pull $IMAGE'"
if timeout 60 docker pull -q "$IMAGE" >/dev/null 2>&1; then
  exit 0
fi
echo "base image: no registry reachable; building $IMAGE locally with debootstrap (~40 s)"
if ! command -v debootstrap >/dev/null; then
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq debootstrap >/dev/null
  else
    echo "error: no registry and no debootstrap; install debootstrap (Debian) or make $IMAGE available" >&2
    exit 1
  fi
fi
rootfs=$(mktemp -d /tmp/blackhole-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
debootstrap --variant=minbase "$SUITE" "$rootfs" http://deb.debian.org/debian >"$rootfs.log" 2>&1 || {
  echo "error: debootstrap failed, see $rootfs.log" >&2; exit 1; }
rm -f "$rootfs.log" "$rootfs/etc/apt/sources.list"
if [ "$SUITE" = sid ]; then
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
else
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
tar -C "$rootfs" -c . | docker import --change "LABEL $LABEL" --change 'CMD ["bash"]' - "$IMAGE" >/dev/null
echo "base image: $IMAGE imported"
