/*
 * Debian's sysbench 1.0.20 reconnects with mysql_close(con) followed by
 * mysql_real_connect(con, ...) on the same handle, without mysql_init(con) in between.
 * With MariaDB Connector/C that dereferences freed state and crashes (SIGSEGV) on the
 * first reconnect (akopytov/sysbench#527). Re-initialising the handle right after the
 * real close makes the reconnect valid. Safe for sysbench because it allocates its
 * MYSQL handles itself (mysql_close then never frees the struct).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mysql.h>

void STDCALL mysql_close(MYSQL *mysql)
{
    static void (*real_close)(MYSQL *);
    if (!real_close)
        real_close = (void (*)(MYSQL *))dlsym(RTLD_NEXT, "mysql_close");
    real_close(mysql);
    if (mysql)
        mysql_init(mysql);
}
