#!/usr/bin/env bash
# A Docker engine that answers: installed from Debian's docker.io and started if needed.
set -euo pipefail
fail() { echo "error: $*" >&2; exit 1; }

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then exit 0; fi

if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then
  [ -r /etc/debian_version ] || fail "no Docker engine, and this is not Debian: install Docker yourself, then re-run"
  [ "$(id -u)" = 0 ] || fail "no Docker engine: run as root (or 'sudo apt-get install docker.io') so it can be installed"
  echo "docker: installing Debian's docker.io"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null || fail "apt-get install docker.io failed"
fi
command -v docker >/dev/null || fail "dockerd is installed but no docker client is on PATH"

if ! docker info >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] || fail "the Docker engine is not running and you are not root: start it (systemctl start docker)"
  if command -v systemctl >/dev/null && systemctl is-system-running >/dev/null 2>&1; then
    systemctl start docker || true
  fi
  if ! docker info >/dev/null 2>&1; then
    echo "docker: starting dockerd in the background (log: /var/log/blackhole-dockerd.log)"
    nohup dockerd >/var/log/blackhole-dockerd.log 2>&1 &
  fi
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && exit 0; sleep 0.5; done
  fail "dockerd did not come up in 30 s; see /var/log/blackhole-dockerd.log"
fi
