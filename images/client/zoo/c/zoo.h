/* What the zoo's C programs share: the wall clock the probe's records use, and the local port of
 * a MySQL connection (measurement finds its ss samples by it). */
#ifndef ZOO_H
#define ZOO_H

#include <mysql.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stddef.h>
#include <sys/time.h>

static inline double now(void)
{
    struct timeval tv;

    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec / 1e6;
}

static inline int local_port(MYSQL *conn)
{
    struct sockaddr_storage addr;
    socklen_t len = sizeof(addr);

    if (getsockname(mysql_get_socket(conn), (struct sockaddr *)&addr, &len))
        return -1;
    return ntohs(addr.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&addr)->sin6_port
                                            : ((struct sockaddr_in *)&addr)->sin_port);
}

#endif
