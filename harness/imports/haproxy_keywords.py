"""Every keyword of HAProxy's configuration manual (2.6) that a defaults, listen or backend section
takes (section 4.1's matrix), and every server and default-server option (section 5.2), each with
what the lab does with it (keepalived_keywords.py's verdicts: used, no bearing, not modelled). A
keyword in neither table is not HAProxy's: refused at its line with the nearest one."""
import difflib
from collections.abc import Mapping, Sequence

from .keepalived_keywords import NO_BEARING, NOT_MODELLED, USED, each


def _rows(keywords: str, verdict: str, why: str) -> dict[str, tuple[str, str]]:
    return {keyword.strip(): (verdict, why) for keyword in keywords.split("|")}


HTTP = "HTTP mode only: the lab's backend, as yours, runs in TCP mode"
LOGS = "what HAProxy logs"
ROUTING = "which backend or server a new session picks: the lab's backend has one server and a backup"
CHECK_ASKS = "what a check asks of a live server: the lab's asks a connect or a MySQL handshake"

PROXY = {
    **_rows("mode | retries | timeout check | timeout client | timeout connect | timeout server | timeout tunnel | "
            "option redispatch | option clitcpka | option srvtcpka | option tcpka | option nolinger | "
            "option mysql-check | option tcp-check | srvtcpka-cnt | srvtcpka-idle | srvtcpka-intvl | default-server | "
            "server | bind", USED, "the lab's HAProxy runs with it (haproxy_import.py says how)"),
    **_rows("capture cookie | capture request header | capture response header | compression | cookie | "
            "declare capture | errorfile | errorfiles | errorloc | errorloc302 | errorloc303 | http-after-response | "
            "http-error | http-request | http-response | http-reuse | http-send-name-header | "
            "max-keep-alive-queue | monitor fail | monitor-uri | option accept-invalid-http-request | "
            "option accept-invalid-http-response | option checkcache | option disable-h2-upgrade | "
            "option forwardfor | option h1-case-adjust-bogus-client | option h1-case-adjust-bogus-server | "
            "option http-buffer-request | option http-ignore-probes | option http-keep-alive | option http-no-delay | "
            "option http-pretend-keepalive | option http-restrict-req-hdr-names | option http-server-close | "
            "option http-use-proxy-header | option httpclose | option httplog | option httpslog | option originalto | "
            "option idle-close-on-response | redirect | stats admin | stats auth | stats enable | stats hide-version | "
            "stats http-request | stats realm | stats refresh | stats scope | stats show-desc | stats show-legends | "
            "stats show-node | stats uri | timeout http-keep-alive | timeout http-request | timeout tarpit | "
            "unique-id-format | unique-id-header | use-fcgi-app | option prefer-last-server | option abortonclose",
            NO_BEARING, HTTP),
    **_rows("log | log-format | log-format-sd | log-tag | error-log-format | option tcplog | option dontlognull | "
            "option dontlog-normal | option log-health-checks | option log-separate-errors | option logasap",
            NO_BEARING, LOGS),
    **_rows("description | id | disabled | enabled | email-alert from | email-alert level | email-alert mailers | "
            "email-alert myhostname | email-alert to | bind-process | load-server-state-from-file | "
            "server-state-file-name | option contstats | option socket-stats", NO_BEARING,
            "names, mail, statistics and state files"),
    **_rows("acl | default_backend | use_backend | use-server | force-persist | ignore-persist | stick match | "
            "stick on | stick store-request | stick store-response | stick-table | persist rdp-cookie | "
            "option persist | balance | hash-type | option allbackups | tcp-request connection | "
            "tcp-request content | tcp-request inspect-delay | tcp-request session | tcp-response content | "
            "tcp-response inspect-delay | filter | hash-balance-factor | dynamic-cookie-key | max-session-srv-conns",
            NO_BEARING, ROUTING),
    **_rows("backlog | maxconn | fullconn | rate-limit sessions | option splice-auto | option splice-request | "
            "option splice-response | option tcp-smart-accept | option tcp-smart-connect | option independent-streams | "
            "option transparent | transparent | source", NO_BEARING,
            "how many sessions and how their bytes are moved, not when a dead server is noticed"),
    **_rows("http-check comment | http-check connect | http-check disable-on-404 | http-check expect | "
            "http-check send | http-check send-state | http-check set-var | http-check unset-var | tcp-check comment | "
            "tcp-check connect | tcp-check expect | tcp-check send | tcp-check send-lf | tcp-check send-binary | "
            "tcp-check send-binary-lf | tcp-check set-var | tcp-check unset-var | option httpchk | "
            "option ldap-check | option external-check | option pgsql-check | option redis-check | option smtpchk | "
            "option spop-check | option ssl-hello-chk | external-check command | external-check path", NOT_MODELLED,
            CHECK_ASKS),
    **_rows("clitcpka-cnt | clitcpka-idle | clitcpka-intvl", NOT_MODELLED,
            "the client leg's keepalive timers: the lab's HAProxy takes option clitcpka with the kernel's"),
    **_rows("retry-on | dispatch | server-template | timeout client-fin | timeout server-fin | timeout queue",
            NOT_MODELLED, "what it does to a session the lab does not stand in for"),
}

SERVER = {
    **each("check no-check backup inter fastinter downinter fall rise tcp-ut on-marked-down on-marked-up", USED,
            "the lab's HAProxy runs with it (haproxy_import.py says how)"),
    **each("addr port", NO_BEARING, "where the check connects: the lab checks the server's own port"),
    **each("ca-file check-alpn check-proto check-sni check-ssl ciphers ciphersuites crl-file crt force-sslv3 "
            "force-tlsv10 force-tlsv11 force-tlsv12 force-tlsv13 no-check-ssl no-ssl no-ssl-reuse no-sslv3 "
            "no-tls-tickets no-tlsv10 no-tlsv11 no-tlsv12 no-tlsv13 no-verifyhost npn alpn allow-0rtt sni ssl "
            "ssl-max-ver ssl-min-ver ssl-reuse tls-tickets verify verifyhost proto ws", NO_BEARING,
            "TLS and protocols over the server leg: a dead server's TCP is the same"),
    **each("cookie id weight maxconn maxqueue minconn max-reuse pool-low-conn pool-max-conn pool-purge-delay "
            "slowstart redir non-stick stick log-proto namespace init-addr resolve-opts resolve-prefer resolve-net "
            "resolvers source tfo no-tfo socks4 check-via-socks4 send-proxy send-proxy-v2 proxy-v2-options "
            "send-proxy-v2-ssl send-proxy-v2-ssl-cn no-send-proxy no-send-proxy-v2 no-send-proxy-v2-ssl "
            "no-send-proxy-v2-ssl-cn check-send-proxy disabled enabled no-backup", NO_BEARING,
            "how the server is named, weighed, reached or pooled: one server at a time"),
    **each("observe error-limit on-error track agent-check agent-send agent-inter agent-addr agent-port "
            "no-agent-check", NOT_MODELLED,
            "another way to mark the server down (live traffic's errors, another server's state, an agent)"),
}

# the words that follow a server option (0 for a flag); options not listed take one
SERVER_FLAGS = set("check no-check backup no-backup agent-check no-agent-check check-send-proxy check-ssl no-check-ssl "
                   "check-via-socks4 no-ssl no-ssl-reuse ssl ssl-reuse send-proxy send-proxy-v2 send-proxy-v2-ssl "
                   "send-proxy-v2-ssl-cn no-send-proxy no-send-proxy-v2 no-send-proxy-v2-ssl no-send-proxy-v2-ssl-cn "
                   "force-sslv3 force-tlsv10 force-tlsv11 force-tlsv12 force-tlsv13 no-sslv3 no-tlsv10 no-tlsv11 "
                   "no-tlsv12 no-tlsv13 no-tls-tickets tls-tickets no-verifyhost non-stick stick tfo no-tfo "
                   "allow-0rtt disabled enabled".split())


def proxy(words: Sequence[str]) -> tuple[str, tuple[str, str]] | None:
    """(keyword as the table has it, (verdict, why)) for a proxy line's words, the longest keyword
    of one to three words that the table has; None if none."""
    for size in (3, 2, 1):
        keyword = " ".join(words[:size])
        if len(words) >= size and keyword in PROXY:
            return keyword, PROXY[keyword]
    return None


def nearest(keyword: str, table: Mapping[str, object]) -> str | None:
    found = difflib.get_close_matches(keyword, list(table), n=1, cutoff=0.8)
    return found[0] if found else None
