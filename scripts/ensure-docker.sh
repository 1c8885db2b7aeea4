#!/usr/bin/env bash
# A Docker engine that answers: installed from Debian's docker.io and started if needed.
set -euo pipefail
fail() { echo "error: $*" >&2; exit 1; }

# The lab runs on this machine's Docker engine, whose kernel it measures: not on one DOCKER_HOST or
# a docker context names elsewhere (ssh://, tcp://), whose kernel a run would record as this one.
if command -v docker >/dev/null; then
  endpoint=$(docker context inspect --format '{{.Endpoints.docker.Host}}' 2>/dev/null || true)
  case "$endpoint" in
    ""|unix://*) ;;
    *) fail "the docker client points at $endpoint (DOCKER_HOST or its context): the lab runs on this machine's Docker engine, whose kernel it measures; unset DOCKER_HOST or 'docker context use default'" ;;
  esac
fi

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
    # Debian 12's dockerd (20.10) can die of a nil dereference in a health probe
    # (harness/lab/safe_removal.py); started here, it is started again, at most 5 times, after
    # any exit but a requested one (0, or SIGINT/SIGTERM). In a session of its own: a Ctrl-C on the
    # make that started it (its process group) must not stop the engine the lab's cleanup then needs.
    setsid nohup bash -c 'for restart in 1 2 3 4 5; do
        dockerd; code=$?
        case $code in 0|130|143) exit "$code";; esac
        echo "blackhole-lab: dockerd exited with $code; starting it again ($restart of 5)"; sleep 1
      done' >/var/log/blackhole-dockerd.log 2>&1 &
  fi
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && exit 0; sleep 0.5; done
  fail "dockerd did not come up in 30 s; see /var/log/blackhole-dockerd.log"
fi
