/*
 * zoo-libmariadb HOST PORT INTERVAL_MS DURATION_S [OPTION=VALUE ...]: one connection through the
 * MySQL C API (MariaDB Connector/C). Options, in seconds: MYSQL_OPT_READ_TIMEOUT,
 * MYSQL_OPT_WRITE_TIMEOUT, MYSQL_OPT_CONNECT_TIMEOUT.
 */
#include <mysql.h>
#include "zoo.h"
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void print_quoted(const char *text)
{
    for (; *text; text++) {
        if (*text == '"' || *text == '\\')
            printf("\\%c", *text);
        else
            putchar((unsigned char)*text < 0x20 ? ' ' : *text);
    }
}

static MYSQL *connect_with(const char *host, unsigned port, int argc, char **argv)
{
    static const struct { const char *name; enum mysql_option option; } known[] = {
        {"MYSQL_OPT_READ_TIMEOUT", MYSQL_OPT_READ_TIMEOUT},
        {"MYSQL_OPT_WRITE_TIMEOUT", MYSQL_OPT_WRITE_TIMEOUT},
        {"MYSQL_OPT_CONNECT_TIMEOUT", MYSQL_OPT_CONNECT_TIMEOUT},
    };
    MYSQL *conn = mysql_init(NULL);

    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        for (size_t k = 0; eq && k < sizeof(known) / sizeof(known[0]); k++) {
            if (strlen(known[k].name) == (size_t)(eq - argv[i]) && !strncmp(argv[i], known[k].name, eq - argv[i])) {
                unsigned int value = (unsigned int)strtoul(eq + 1, NULL, 10);
                mysql_options(conn, known[k].option, &value);
            }
        }
    }
    const char *user = getenv("LAB_DB_USER");
    mysql_real_connect(conn, host, user && *user ? user : "sbtest", "sbtest", NULL, port, NULL, 0);
    return conn;               /* on failure the caller reads the error from it */
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s HOST PORT INTERVAL_MS DURATION_S [OPTION=VALUE ...]\n", argv[0]);
        return 2;
    }
    const char *host = argv[1];
    unsigned port = (unsigned)atoi(argv[2]);
    double interval_s = atof(argv[3]) / 1000, deadline = now() + atof(argv[4]);
    MYSQL *conn = NULL;
    int number = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    do {
        double t0 = now();
        MYSQL_RES *result = NULL;
        MYSQL_ROW row = NULL;

        if (!conn) {
            number++;
            conn = connect_with(host, port, argc - 5, argv + 5);
            if (!mysql_errno(conn))
                printf("{\"connected\": %.6f, \"conn\": %d, \"local_port\": %d, \"driver\": \"libmariadb %s\"}\n",
                       now(), number, local_port(conn), mysql_get_client_info());
        }
        if (!mysql_errno(conn) && !mysql_query(conn, "SELECT @@hostname") && (result = mysql_store_result(conn)))
            row = mysql_fetch_row(result);
        if (row) {
            printf("{\"t0\": %.6f, \"t1\": %.6f, \"ok\": true, \"server\": \"", t0, now());
            print_quoted(row[0]);
            printf("\", \"conn\": %d}\n", number);
        } else {
            printf("{\"t0\": %.6f, \"t1\": %.6f, \"ok\": false, \"error\": \"MYSQL_%u\", \"detail\": \"", t0, now(),
                   mysql_errno(conn));
            print_quoted(mysql_error(conn));
            printf("\", \"conn\": %d}\n", number);
            mysql_close(conn);
            conn = NULL;
        }
        if (result)
            mysql_free_result(result);
        double left = interval_s - (now() - t0);
        if (left > 0)
            usleep((useconds_t)(left * 1e6));
    } while (now() < deadline);
    if (conn)
        mysql_close(conn);
    return 0;
}
