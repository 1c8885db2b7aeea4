#!/bin/bash
# nginx in front of a deliberately slow upstream (slowserver on 127.0.0.1:8081).
set -euo pipefail
sed -e "s/@PROXY_CONNECT_TIMEOUT@/${PROXY_CONNECT_TIMEOUT:-2s}/" \
    -e "s/@PROXY_READ_TIMEOUT@/${PROXY_READ_TIMEOUT:-4s}/" \
    /etc/nginx/nginx.conf.template > /etc/nginx/nginx.conf
slowserver --port 8081 --backlog "${SLOW_BACKLOG:-128}" --accept-delay-ms "${SLOW_ACCEPT_DELAY_MS:-200}" &
exec nginx
