#!/usr/bin/env bash
# Headless Chromium for the report test (Debian's chromium package).
set -euo pipefail
command -v chromium >/dev/null && exit 0
if [ -r /etc/debian_version ] && [ "$(id -u)" = 0 ]; then
  echo "chromium: installing Debian's chromium (for the HTML report test)"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "error: chromium is missing; install it (Debian: apt-get install chromium) to run the report test" >&2
  exit 1
fi
