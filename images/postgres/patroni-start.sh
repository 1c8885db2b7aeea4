#!/bin/bash
# The server under Patroni (PATRONI_DCS set): Patroni runs PostgreSQL, its leader key in etcd at
# PATRONI_DCS. db-primary bootstraps the cluster (initdb, then the lab's accounts); the replica
# starts once db-primary is the leader and is copied by Patroni (pg_basebackup, fast
# checkpoint). Timers: PATRONI_TTL, PATRONI_LOOP_WAIT, PATRONI_RETRY_TIMEOUT (s). REPLICATION=sync
# is Patroni's synchronous_mode (it names the standby in synchronous_standby_names, and promotes
# only a synchronous standby). /run/lab-ready marks "usable", as the plain servers' entrypoint does.
set -euo pipefail
: "${ROLE:?}" "${PATRONI_DCS:?}" "${PATRONI_TTL:?}" "${PATRONI_LOOP_WAIT:?}" "${PATRONI_RETRY_TIMEOUT:?}"
DATA=/var/lib/postgresql/data
address=$(hostname -i | awk '{print $1}')
name=$(hostname)
install -d -o postgres -g postgres -m 0700 "$DATA"
install -d -o postgres -g postgres /run/postgresql
cat > /etc/patroni.yml <<YAML
scope: lab
name: $name
restapi: {listen: "0.0.0.0:8008", connect_address: "$address:8008"}
etcd3: {hosts: "$PATRONI_DCS"}
bootstrap:
  dcs:
    ttl: $PATRONI_TTL
    loop_wait: $PATRONI_LOOP_WAIT
    retry_timeout: $PATRONI_RETRY_TIMEOUT
    synchronous_mode: $([ "${REPLICATION:-async}" = sync ] && echo true || echo false)
    postgresql:
      use_pg_rewind: false
      parameters: {wal_level: replica, hot_standby: "on", max_wal_senders: 10, max_connections: 200,
                   fsync: "off", full_page_writes: "off", shared_buffers: 64MB}
  pg_hba:
    - local all all trust
    - host all all 0.0.0.0/0 scram-sha-256
    - host replication repl 0.0.0.0/0 scram-sha-256
  post_bootstrap: /usr/local/bin/patroni-post-bootstrap
postgresql:
  listen: "0.0.0.0:3306"
  connect_address: "$address:3306"
  data_dir: $DATA
  bin_dir: /usr/lib/postgresql/15/bin
  pgpass: /tmp/pgpass
  basebackup: [{checkpoint: fast}]
  authentication:
    superuser: {username: postgres, password: postgres}
    replication: {username: repl, password: repl}
  parameters: {unix_socket_directories: /run/postgresql, lab.server_name: $name}
YAML
if [ -n "${PATRONI_ROLE_CHANGE_URL:-}" ]; then
  # patroni-dns: when Patroni promotes this server (on_role_change ACTION ROLE SCOPE, ROLE master in
  # Patroni 3.0), ask the director's name server to re-point the database's name at it
  cat > /usr/local/bin/patroni-role-change <<SH
#!/bin/sh
[ "\$2" = master ] || [ "\$2" = primary ] || exit 0
echo "patroni-role-change: \$1 \$2: asking $PATRONI_ROLE_CHANGE_URL" >&2
curl -sS -m 10 -X POST --data "$name" "$PATRONI_ROLE_CHANGE_URL" >&2
SH
  chmod 755 /usr/local/bin/patroni-role-change
  printf '  callbacks: {on_role_change: /usr/local/bin/patroni-role-change}\n' >> /etc/patroni.yml
fi
cat > /usr/local/bin/patroni-post-bootstrap <<'SH'
#!/bin/sh
psql -v ON_ERROR_STOP=1 "$1" -c "CREATE ROLE sbtest LOGIN SUPERUSER PASSWORD 'sbtest'" \
  -c "CREATE DATABASE sbtest OWNER sbtest"
SH
chmod 755 /usr/local/bin/patroni-post-bootstrap
chown postgres /etc/patroni.yml
sql() { psql -qAt -p 3306 -h /run/postgresql -U postgres "$@"; }

if [ "$ROLE" = replica ]; then          # the primary bootstraps and leads first
  for _ in $(seq 1 480); do
    curl -sf -o /dev/null "http://${PRIMARY_HOST:?}:8008/primary" && break
    sleep 0.25
  done
fi
setpriv --reuid=postgres --regid=postgres --init-groups patroni /etc/patroni.yml &
patroni_pid=$!
trap 'kill -TERM $patroni_pid 2>/dev/null; wait $patroni_pid' TERM INT
usable=no
for _ in $(seq 1 960); do
  if [ "$ROLE" = primary ]; then
    curl -sf -o /dev/null http://127.0.0.1:8008/primary && sql -d sbtest -c 'SELECT 1' >/dev/null 2>&1 \
      && usable=yes && break
  else
    # REPLICATION=sync: usable once Patroni has made it the synchronous standby (at its leader's next
    # cycle after it streams): until then the primary's commits do not wait for it.
    [ "$(sql -c "SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming'" 2>/dev/null)" = 1 ] \
      && { [ "${REPLICATION:-async}" != sync ] || curl -sf -o /dev/null http://127.0.0.1:8008/sync; } \
      && usable=yes && break
  fi
  sleep 0.25
done
if [ "$usable" = no ]; then
  echo "patroni-start: $name ($ROLE, REPLICATION=${REPLICATION:-async}) not usable after 240 s" >&2
  exit 1
fi
touch /run/lab-ready
wait $patroni_pid
