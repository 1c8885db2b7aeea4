/*
 * libsockopts: LD_PRELOAD library that applies per-socket TCP options, taken from the
 * environment, to every TCP socket a program connects, so unmodified clients (sysbench,
 * mariadb, curl) can be put in the lab's knob grid.
 *
 *   SOCKOPT_TCP_USER_TIMEOUT_MS=N   TCP_USER_TIMEOUT (RFC 5482), milliseconds
 *   SOCKOPT_KEEPALIVE=1             SO_KEEPALIVE
 *   SOCKOPT_KEEPIDLE=S              TCP_KEEPIDLE   (seconds idle before the first probe)
 *   SOCKOPT_KEEPINTVL=S             TCP_KEEPINTVL  (seconds between probes)
 *   SOCKOPT_KEEPCNT=N               TCP_KEEPCNT    (unanswered probes before the socket dies)
 *   SOCKOPT_VERBOSE=1               one line on stderr per option: the value set, and the
 *                                   value the kernel reports back for the socket
 *
 * Unset variables leave the kernel's (namespace's) defaults alone. Options are set before
 * the real connect(), so they hold from the first packet.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>

static int env_int(const char *name, int *value)
{
    const char *text = getenv(name);
    char *end;
    long parsed;

    if (!text || !*text)
        return 0;
    errno = 0;
    parsed = strtol(text, &end, 10);
    if (errno || *end || parsed < 0 || parsed > 0x7fffffff) {
        fprintf(stderr, "libsockopts: ignoring %s=%s (not a non-negative integer)\n", name, text);
        return 0;
    }
    *value = (int)parsed;
    return 1;
}

static int is_tcp(int fd)
{
    int type = 0, domain = 0;
    socklen_t len = sizeof(type);

    if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) || type != SOCK_STREAM)
        return 0;
    len = sizeof(domain);
    if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len))
        return 0;
    return domain == AF_INET || domain == AF_INET6;
}

static void apply(int fd, int level, int option, const char *variable, const char *label)
{
    int value, kernel = -1;
    socklen_t len = sizeof(kernel);

    if (!env_int(variable, &value))
        return;
    if (setsockopt(fd, level, option, &value, sizeof(value))) {
        fprintf(stderr, "libsockopts: fd %d: %s=%d failed: %m\n", fd, label, value);
        return;
    }
    if (getenv("SOCKOPT_VERBOSE")) {
        getsockopt(fd, level, option, &kernel, &len);
        fprintf(stderr, "libsockopts: fd %d: %s=%d (kernel reads back %d)\n", fd, label, value, kernel);
    }
}

int connect(int fd, const struct sockaddr *address, socklen_t length)
{
    static int (*real_connect)(int, const struct sockaddr *, socklen_t);

    if (!real_connect)
        real_connect = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "connect");
    if (is_tcp(fd)) {
        int saved = errno;
        apply(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, "SOCKOPT_TCP_USER_TIMEOUT_MS", "TCP_USER_TIMEOUT");
        apply(fd, SOL_SOCKET, SO_KEEPALIVE, "SOCKOPT_KEEPALIVE", "SO_KEEPALIVE");
        apply(fd, IPPROTO_TCP, TCP_KEEPIDLE, "SOCKOPT_KEEPIDLE", "TCP_KEEPIDLE");
        apply(fd, IPPROTO_TCP, TCP_KEEPINTVL, "SOCKOPT_KEEPINTVL", "TCP_KEEPINTVL");
        apply(fd, IPPROTO_TCP, TCP_KEEPCNT, "SOCKOPT_KEEPCNT", "TCP_KEEPCNT");
        errno = saved;
    }
    return real_connect(fd, address, length);
}
