#!/bin/bash
# Starts PostgreSQL as the lab's primary or replica (ROLE): the replica a streaming replica of
# PRIMARY_HOST, copied with pg_basebackup. /run/lab-ready marks "usable". The server's
# lab.server_name (a setting of the lab's own) is the container's hostname: the probe asks it who answered. REPLICATION=sync: the
# primary's commits wait for the standby (synchronous_standby_names '*', synchronous_commit on),
# with no timeout, once the lab's accounts exist.
set -euo pipefail
: "${ROLE:?ROLE must be primary, replica or dcs}"
DB_USER=${DB_USER:-sbtest} DB_PASSWORD=${DB_PASSWORD:-sbtest}
REPL_PASSWORD=${REPL_PASSWORD:-repl}
REPLICATION=${REPLICATION:-async}
case "$REPLICATION" in async|sync) ;; *) echo "REPLICATION must be async or sync on PostgreSQL" >&2; exit 2 ;; esac
case "$ROLE" in
  dcs)                 # the DCS of the servers under Patroni: one etcd member
    exec etcd --name dcs --data-dir /tmp/etcd --listen-client-urls http://0.0.0.0:2379 \
      --advertise-client-urls "http://$(hostname -i | awk '{print $1}'):2379" \
      --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
      --initial-cluster dcs=http://127.0.0.1:2380 ;;
esac
[ -z "${PATRONI_DCS:-}" ] || exec /usr/local/bin/patroni-start.sh
DATA=/var/lib/postgresql/data
install -d -o postgres -g postgres -m 0700 "$DATA"
install -d -o postgres -g postgres /run/postgresql
# setpriv execs (su would stay the server's parent, and stop itself when a fault stops the server)
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
sql() { psql -qAt -p 3306 -h /run/postgresql -U postgres "$@"; }

if [ "$ROLE" = primary ]; then
  [ -f "$DATA/PG_VERSION" ] || cp -a /opt/pg-initial/. "$DATA/"
else
  : "${PRIMARY_HOST:?}"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    for _ in $(seq 1 240); do
      PGPASSWORD=$REPL_PASSWORD as_postgres pg_basebackup -h "$PRIMARY_HOST" -p 3306 -U repl -D "$DATA" -X stream -R -c fast \
        2>/tmp/basebackup.err && break
      rm -rf "${DATA:?}"/*; sleep 0.5
    done
    [ -f "$DATA/PG_VERSION" ] || { echo "replica: no base backup from $PRIMARY_HOST:" >&2; cat /tmp/basebackup.err >&2; exit 1; }
    # The copy may carry the primary's ALTER SYSTEM (REPLICATION=sync: synchronous_standby_names):
    # promoted, a server that kept it would wait on every commit for a standby it does not have.
    sed -i '/^synchronous_standby_names/d' "$DATA/postgresql.auto.conf"
  fi
fi
chown -R postgres:postgres "$DATA"

as_postgres postgres -D "$DATA" -c lab.server_name="$(hostname)" -c cluster_name="$(hostname)" &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid' TERM INT
for _ in $(seq 1 240); do
  sql -c 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.25
done

if [ "$ROLE" = primary ]; then
  sql <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$DB_USER') THEN
    CREATE ROLE $DB_USER LOGIN SUPERUSER PASSWORD '$DB_PASSWORD';
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'repl') THEN
    CREATE ROLE repl LOGIN REPLICATION PASSWORD '$REPL_PASSWORD';
  END IF;
END \$\$;
SQL
  sql -c "SELECT 1 FROM pg_database WHERE datname = 'sbtest'" | grep -q 1 || sql -c "CREATE DATABASE sbtest OWNER $DB_USER"
  if [ "$REPLICATION" = sync ]; then
    sql -c "ALTER SYSTEM SET synchronous_standby_names = '*'" -c "SELECT pg_reload_conf()" >/dev/null
  fi
else
  for _ in $(seq 1 240); do
    [ "$(sql -c "SELECT count(*) FROM pg_stat_wal_receiver WHERE status = 'streaming'")" = 1 ] \
      && sql -c "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'" | grep -q 1 && break
    sleep 0.25
  done
fi
touch /run/lab-ready
wait $server_pid
