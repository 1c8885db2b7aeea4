#!/usr/bin/env bash
# beside.sh QUIET_COMMAND... -- MAIN_COMMAND...
# Runs MAIN_COMMAND as usual and, beside it at the lowest CPU priority (nice 19: the scheduler gives
# it only what MAIN_COMMAND leaves idle), QUIET_COMMAND, whose output is kept and printed once
# MAIN_COMMAND has ended. Exits 0 only if both did. make test's host part runs its labs so, with the
# tests that bring no lab up beside them: the labs mostly wait on kernel timers.
set -uo pipefail
quiet=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do quiet+=("$1"); shift; done
[ $# -gt 1 ] && [ ${#quiet[@]} -gt 0 ] || { echo "usage: $0 QUIET_COMMAND... -- MAIN_COMMAND..." >&2; exit 2; }
shift
log=$(mktemp /tmp/blackhole-beside.XXXXXX)
trap 'rm -f "$log"' EXIT
nice -n 19 "${quiet[@]}" > "$log" 2>&1 &
beside=$!
# Ctrl-C reaches MAIN_COMMAND by the terminal; a background job of a script ignores it, so it is passed on.
trap 'kill -INT "$beside" 2>/dev/null' INT
trap 'kill -TERM "$beside" 2>/dev/null' TERM
"$@"
main=$?
if kill -0 "$beside" 2>/dev/null; then
  echo "beside: waiting for: ${quiet[*]}"
fi
wait "$beside"
quiet_code=$?
echo "beside: ${quiet[*]} (nice 19, beside the above): exit $quiet_code"
cat "$log"
[ "$main" -eq 0 ] && [ "$quiet_code" -eq 0 ]
