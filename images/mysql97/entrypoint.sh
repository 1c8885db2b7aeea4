#!/bin/bash
# Starts MySQL 9.7 as the lab's primary or replica (ROLE), with GTID replication from
# PRIMARY_HOST set up on the replica. /run/lab-ready marks "usable".
set -euo pipefail
: "${ROLE:?ROLE must be primary or replica}" "${SERVER_ID:?}"
DB_USER=${DB_USER:-sbtest} DB_PASSWORD=${DB_PASSWORD:-sbtest}
REPL_PASSWORD=${REPL_PASSWORD:-repl}
REPLICATION=${REPLICATION:-async} SEMI_SYNC_TIMEOUT_MS=${SEMI_SYNC_TIMEOUT_MS:-10000}
case "$REPLICATION" in async|semi-sync) ;; *) echo "REPLICATION must be async or semi-sync" >&2; exit 2 ;; esac
# How often it looks whether the server answers, then whether it replicates (0.1 s on the host:
# Docker's first health check comes 1 s after the start; a guest's exec is dearer: 0.5 s).
READY_POLL_S=${READY_POLL_S:-0.5} READY_LIMIT_S=120

install -d -o mysql -g mysql /run/mysqld
if [ ! -d /var/lib/mysql/mysql ]; then
  cp -a /opt/mysql-initial/. /var/lib/mysql/
  chown mysql:mysql /var/lib/mysql
fi

mysqld --user=mysql --server-id="$SERVER_ID" &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid' TERM INT

answers_by=$((SECONDS + READY_LIMIT_S))
until mysql -N -e 'SELECT 1' >/dev/null 2>&1 || [ "$SECONDS" -ge "$answers_by" ]; do
  sleep "$READY_POLL_S"
done

if [ "$ROLE" = primary ]; then
  mysql <<SQL
CREATE DATABASE IF NOT EXISTS sbtest;
CREATE USER IF NOT EXISTS '$DB_USER'@'%' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON *.* TO '$DB_USER'@'%';
CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY '$REPL_PASSWORD';
GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
SQL
  if [ "$REPLICATION" = semi-sync ]; then
    mysql -e "SET GLOBAL rpl_semi_sync_source_timeout = $SEMI_SYNC_TIMEOUT_MS; SET GLOBAL rpl_semi_sync_source_enabled = ON"
  fi
else
  : "${PRIMARY_HOST:?}"
  # caching_sha2_password over a channel without TLS needs the source's RSA key (docs/facts/mysql.md);
  # the channel's TLS is on by default, the key is asked for in case it is not.
  [ "$REPLICATION" = semi-sync ] && mysql -e "SET GLOBAL rpl_semi_sync_replica_enabled = ON"
  mysql <<SQL
SET GLOBAL super_read_only = ON;
CHANGE REPLICATION SOURCE TO SOURCE_HOST='$PRIMARY_HOST', SOURCE_USER='repl',
  SOURCE_PASSWORD='$REPL_PASSWORD', SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1,
  GET_SOURCE_PUBLIC_KEY=1;
START REPLICA;
SQL
  replicating() {
    local status
    status=$(mysql --vertical -e 'SHOW REPLICA STATUS') || return 1
    grep -q 'Replica_IO_Running: Yes' <<<"$status" && grep -q 'Replica_SQL_Running: Yes' <<<"$status" \
      && mysql -N -e "SELECT 1 FROM mysql.user WHERE user='$DB_USER'" | grep -q 1
  }
  replicating_by=$((SECONDS + READY_LIMIT_S))
  until replicating || [ "$SECONDS" -ge "$replicating_by" ]; do
    sleep "$READY_POLL_S"
  done
fi
touch /run/lab-ready
wait $server_pid
