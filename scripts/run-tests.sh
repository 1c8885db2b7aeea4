#!/usr/bin/env bash
# make test: the host part (pytest workers side by side) and the guest part (one QEMU guest) run at
# the same time. The guest's labs wait on kernel timers as the host's do, and its Docker engine is
# its own, so neither part's figures lean on the other's dockerd; run one after the other they
# took ~14 + ~21 min here. The guest part's output is shown when both have ended.
# usage: scripts/run-tests.sh PYTHON HOST_WORKERS GUEST_CPUS
set -u
py=$1 workers=$2 guest_cpus=$3
log=$(mktemp /tmp/blackhole-guest-tests.XXXXXX)
temproot=$(mktemp -d /tmp/blackhole-guest-pytest.XXXXXX)   # its own numbered pytest-N directories
GUEST_CPUS=$guest_cpus PYTEST_DEBUG_TEMPROOT=$temproot "$py" -m pytest -m guest tests >"$log" 2>&1 &
guest=$!
# A non-interactive shell starts background jobs with SIGINT ignored: Ctrl-C is passed on by hand,
# so the guest part's fixtures stop its QEMU as the host part's stop their labs.
trap 'kill -INT $guest 2>/dev/null' INT
trap 'kill -TERM $guest 2>/dev/null' TERM
echo "make test: the guest part runs beside the host part; its output: $log"
"$py" -m pytest -n "$workers" --dist loadgroup -m "not guest" tests
host_rc=$?
[ -d /proc/$guest ] && echo "make test: the host part is done; waiting for the guest part ($log)"
wait $guest
guest_rc=$?
echo "---------------- the guest part ----------------"
cat "$log"
rm -f "$log"
rm -rf "$temproot"
echo "make test: host part exit $host_rc, guest part exit $guest_rc"
[ "$host_rc" -eq 0 ] && [ "$guest_rc" -eq 0 ]
