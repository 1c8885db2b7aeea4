/*
 * LD_PRELOAD for sysbench as a zoo client: the probe's JSON lines (zoo/README.md) from
 * sysbench's own queries, written to file descriptor 3.
 *
 * Every failed query is a record; a successful one is recorded at most once per
 * SYSBENCH_OPLOG_INTERVAL_MS (sysbench runs thousands a second). Each new connection is
 * asked its server's @@hostname once, so a record says where the query went.
 * Needs --db-ps-mode=disable (queries then go through mysql_real_query) and one thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mysql.h>
#include "zoo.h"
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define OPLOG_FD 3

static MYSQL *current;            /* the connection the numbers below describe */
static int conn_number;
static char server[128];
static double last_ok_logged;

static void quoted(char *out, size_t size, const char *text)
{
    size_t n = 0;

    for (; *text && n + 3 < size; text++) {
        if (*text == '"' || *text == '\\')
            out[n++] = '\\';
        out[n++] = (unsigned char)*text < 0x20 ? ' ' : *text;
    }
    out[n] = 0;
}

static void record(const char *line)
{
    ssize_t unused = write(OPLOG_FD, line, strlen(line));
    (void)unused;
}

static int (*real_query_fn(void))(MYSQL *, const char *, unsigned long)
{
    static int (*real)(MYSQL *, const char *, unsigned long);
    if (!real)
        real = (int (*)(MYSQL *, const char *, unsigned long))dlsym(RTLD_NEXT, "mysql_real_query");
    return real;
}

static void ask_server_name(MYSQL *conn)
{
    MYSQL_RES *result;
    MYSQL_ROW row;

    strcpy(server, "?");
    if (real_query_fn()(conn, "SELECT @@hostname", 17) || !(result = mysql_store_result(conn)))
        return;
    if ((row = mysql_fetch_row(result)) && row[0])
        quoted(server, sizeof(server), row[0]);
    mysql_free_result(result);
}

MYSQL *STDCALL mysql_real_connect(MYSQL *mysql, const char *host, const char *user, const char *passwd,
                                  const char *db, unsigned int port, const char *unix_socket,
                                  unsigned long clientflag)
{
    static MYSQL *(*real)(MYSQL *, const char *, const char *, const char *, const char *, unsigned int,
                          const char *, unsigned long);
    char line[256];
    MYSQL *conn;

    if (!real)
        real = (MYSQL * (*)(MYSQL *, const char *, const char *, const char *, const char *, unsigned int,
                            const char *, unsigned long))dlsym(RTLD_NEXT, "mysql_real_connect");
    conn = real(mysql, host, user, passwd, db, port, unix_socket, clientflag);
    if (conn) {
        current = conn;
        conn_number++;
        snprintf(line, sizeof(line),
                 "{\"connected\": %.6f, \"conn\": %d, \"local_port\": %d, \"driver\": \"sysbench 1.0.20 on MariaDB Connector/C %s\"}\n",
                 now(), conn_number, local_port(conn), mysql_get_client_info());
        record(line);
        ask_server_name(conn);
    }
    return conn;
}

int STDCALL mysql_real_query(MYSQL *mysql, const char *query, unsigned long length)
{
    static double interval_s = -1;
    char line[768], detail[512];
    double t0 = now(), t1;
    int rc = real_query_fn()(mysql, query, length);
    int conn = mysql == current ? conn_number : 0;

    t1 = now();
    if (interval_s < 0)
        interval_s = atof(getenv("SYSBENCH_OPLOG_INTERVAL_MS") ? getenv("SYSBENCH_OPLOG_INTERVAL_MS") : "100") / 1000;
    if (rc) {
        quoted(detail, sizeof(detail), mysql_error(mysql));
        snprintf(line, sizeof(line),
                 "{\"t0\": %.6f, \"t1\": %.6f, \"ok\": false, \"error\": \"MYSQL_%u\", \"detail\": \"%s\", \"conn\": %d}\n",
                 t0, t1, mysql_errno(mysql), detail, conn);
        record(line);
    } else if (t0 - last_ok_logged >= interval_s) {
        last_ok_logged = t0;
        snprintf(line, sizeof(line), "{\"t0\": %.6f, \"t1\": %.6f, \"ok\": true, \"server\": \"%s\", \"conn\": %d}\n",
                 t0, t1, server, conn);
        record(line);
    }
    return rc;
}
