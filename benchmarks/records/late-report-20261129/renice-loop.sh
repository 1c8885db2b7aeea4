#!/bin/bash
# the guest's JVM clients to nice -5 (ahead of the lab's plumbing), every 2 s, while a guest runs
while true; do
  for c in /tmp/blackhole-guest-*/ssh-control; do
    [ -S "$c" ] || continue
    ssh -o ControlPath=$c -o BatchMode=yes root@127.0.0.1 'for p in $(pgrep -x java); do renice -n -5 -p $p >/dev/null 2>&1; done' 2>/dev/null
  done
  sleep 2
done
