#!/usr/bin/env bash
# This clone's .venv: a link to the virtualenv built once per machine for this requirements.txt
# and this Python (BLACKHOLE_CACHE, ~/.cache/blackhole-lab/venvs/<key>), so a second clone (a CI
# job, a workshop's laptops) does not install the same packages again: 24 s on this 2-core
# machine, 2026-12-06. A clone whose requirements.txt differs gets a virtualenv of its own key.
# PYTHON: the interpreter to build it from (make passes it; at least 3.11).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
"$PYTHON" -c 'import sys; assert sys.version_info >= (3, 11)' 2>/dev/null \
  || { echo "error: $PYTHON is older than 3.11 (or not found); set PYTHON=python3.11" >&2; exit 1; }
CACHE=${BLACKHOLE_CACHE:-$HOME/.cache/blackhole-lab}/venvs
key=$({ "$PYTHON" -c 'import sys; print(sys.executable, sys.version)'; cat requirements.txt; } | sha256sum | cut -c1-16)
shared=$CACHE/$key
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock-$key"
flock 9                                   # another clone may be building the same one
if [ ! -e "$shared/.installed" ]; then
  echo "venv: installing requirements.txt once for this machine in $shared ..."
  rm -rf "$shared"
  "$PYTHON" -m venv "$shared"
  "$shared/bin/python" -m pip install --quiet --disable-pip-version-check -r requirements.txt
  touch "$shared/.installed"
fi
if [ "$(readlink .venv 2>/dev/null)" != "$shared" ]; then
  rm -rf .venv                            # a virtualenv of its own made before, or a link to an old key
  ln -s "$shared" .venv
fi
touch "$shared/.installed"                # newer than this clone's requirements.txt: make's stamp
