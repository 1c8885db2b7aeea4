#!/bin/bash
# Starts MariaDB as the lab's primary or replica (ROLE), with GTID replication
# from PRIMARY_HOST set up on the replica. /run/lab-ready marks "usable".
set -euo pipefail
: "${ROLE:?ROLE must be primary or replica}" "${SERVER_ID:?}"
DB_USER=${DB_USER:-sbtest} DB_PASSWORD=${DB_PASSWORD:-sbtest}
REPL_PASSWORD=${REPL_PASSWORD:-repl}
REPLICATION=${REPLICATION:-async} SEMI_SYNC_TIMEOUT_MS=${SEMI_SYNC_TIMEOUT_MS:-10000}
case "$REPLICATION" in async|semi-sync) ;; *) echo "REPLICATION must be async or semi-sync" >&2; exit 2 ;; esac
# How often it looks whether the server answers, then whether it replicates (0.1 s on the host:
# Docker's first health check comes 1 s after the start; a guest's exec is dearer: 0.5 s).
READY_POLL_S=${READY_POLL_S:-0.5} READY_LIMIT_S=60


mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
if [ ! -d /var/lib/mysql/mysql ]; then
  cp -a /opt/mysql-initial/. /var/lib/mysql/
  chown mysql:mysql /var/lib/mysql
fi

mariadbd --user=mysql --server-id="$SERVER_ID" &
server_pid=$!
trap 'kill -TERM $server_pid 2>/dev/null; wait $server_pid' TERM INT

answers_by=$((SECONDS + READY_LIMIT_S))
until mariadb-admin --silent ping >/dev/null 2>&1 || [ "$SECONDS" -ge "$answers_by" ]; do
  sleep "$READY_POLL_S"
done

if [ "$ROLE" = primary ]; then
  mariadb <<SQL
CREATE DATABASE IF NOT EXISTS sbtest;
CREATE USER IF NOT EXISTS '$DB_USER'@'%' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON *.* TO '$DB_USER'@'%';
CREATE USER IF NOT EXISTS 'repl'@'%' IDENTIFIED BY '$REPL_PASSWORD';
GRANT REPLICATION SLAVE ON *.* TO 'repl'@'%';
CREATE USER IF NOT EXISTS 'haproxy_check'@'%';
SQL
  if [ "$REPLICATION" = semi-sync ]; then
    mariadb -e "SET GLOBAL rpl_semi_sync_master_timeout = $SEMI_SYNC_TIMEOUT_MS; SET GLOBAL rpl_semi_sync_master_enabled = ON"
  fi
else
  : "${PRIMARY_HOST:?}"
  [ "$REPLICATION" = semi-sync ] && mariadb -e "SET GLOBAL rpl_semi_sync_slave_enabled = ON"
  mariadb <<SQL
SET GLOBAL read_only = ON;
STOP SLAVE;
CHANGE MASTER TO MASTER_HOST='$PRIMARY_HOST', MASTER_USER='repl',
  MASTER_PASSWORD='$REPL_PASSWORD', MASTER_USE_GTID=slave_pos,
  MASTER_CONNECT_RETRY=1;
START SLAVE;
SQL
  replicating() {
    local status
    status=$(mariadb -e 'SHOW SLAVE STATUS\G') || return 1
    grep -q 'Slave_IO_Running: Yes' <<<"$status" && grep -q 'Slave_SQL_Running: Yes' <<<"$status" \
      && mariadb -N -e "SELECT 1 FROM mysql.user WHERE user='$DB_USER'" | grep -q 1
  }
  replicating_by=$((SECONDS + READY_LIMIT_S))
  until replicating || [ "$SECONDS" -ge "$replicating_by" ]; do
    sleep "$READY_POLL_S"
  done
fi
touch /run/lab-ready
wait $server_pid
