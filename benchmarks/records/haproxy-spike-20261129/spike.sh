#!/bin/bash
# HAProxy 2.6 (Debian bookworm) in TCP mode in front of an echo server that dies silently (every
# packet dropped both ways, nft in its namespace): when HAProxy marks it down, and what a client
# holding a session through each frontend then gets. Internal network; everything removed after.
set -u
out=${1:-/tmp/hx/out}; mkdir -p $out
cleanup() { docker rm -f hx-srv hx-lb hx-cli >/dev/null 2>&1; docker network rm hxnet >/dev/null 2>&1; }
trap cleanup EXIT
cleanup
docker network create --internal --subnet 10.250.1.0/24 hxnet >/dev/null
docker run -d --name hx-srv --network hxnet --ip 10.250.1.20 --cap-add NET_ADMIN hx-spike:dev socat TCP-LISTEN:7000,fork,reuseaddr EXEC:cat >/dev/null
docker run -d --name hx-lb --network hxnet --ip 10.250.1.10 -v /tmp/hx/haproxy.cfg:/etc/haproxy/haproxy.cfg:ro hx-spike:dev haproxy -f /etc/haproxy/haproxy.cfg >/dev/null
docker run -d --name hx-cli --network hxnet --ip 10.250.1.30 -v /tmp/hx/client.py:/client.py:ro --entrypoint sleep blackhole-lab/client:dev 600 >/dev/null
sleep 5
docker exec hx-lb haproxy -v | head -1 > $out/version.txt
for p in "3306 default" "3307 shutdown-sessions" "3308 timeout-server-10s"; do
  set -- $p
  docker exec hx-cli python3 /client.py 10.250.1.10 $1 $2 75 > $out/client-$2.jsonl 2>&1 &
done
sleep 5
date +%s.%N > $out/cut.txt
docker exec -i hx-srv nft -f - <<'NFT'
table inet cut {
  chain in { type filter hook input priority -300; policy drop; }
  chain out { type filter hook output priority -300; policy drop; }
}
NFT
date +%s.%N >> $out/cut.txt
wait
docker logs -t hx-lb > $out/haproxy.log 2>&1
echo done
