#!/usr/bin/env bash
# What the lab needs from the host, in order, each step idempotent.
set -euo pipefail
here=$(dirname "$0")
"$here/ensure-docker.sh"
"$here/ensure-compose.sh"
"$here/ensure-base-image.sh"
"$here/ensure-base-image.sh" sid          # MySQL 9.7 (images/mysql97): only Debian's unstable suite has it
