"""libpq itself (Debian's libpq5), through ctypes: the few calls the probe and the writer make.

The connect is libpq's blocking one (PQconnectdbParams), as psycopg2's, psql's and most
applications' are: libpq walks a host list (host=a,b) in order and holds each host's try to
connect_timeout, which it enforces only there (its asynchronous connect leaves the timer to the
caller). The statements are sent without blocking, so that the caller's own read timeout ends
the wait for an answer (libpq has none: it waits for the kernel)."""
import ctypes
import ctypes.util

LIB = ctypes.CDLL(ctypes.util.find_library("pq") or "libpq.so.5")
CONNECTION_OK = 0
PGRES_COMMAND_OK, PGRES_TUPLES_OK = 1, 2
PG_DIAG_SQLSTATE = ord("C")

for name, result, arguments in (
        ("PQconnectdbParams", ctypes.c_void_p, [ctypes.POINTER(ctypes.c_char_p), ctypes.POINTER(ctypes.c_char_p),
                                                ctypes.c_int]),
        ("PQstatus", ctypes.c_int, [ctypes.c_void_p]),
        ("PQerrorMessage", ctypes.c_char_p, [ctypes.c_void_p]),
        ("PQsocket", ctypes.c_int, [ctypes.c_void_p]),
        ("PQhost", ctypes.c_char_p, [ctypes.c_void_p]),
        ("PQhostaddr", ctypes.c_char_p, [ctypes.c_void_p]),
        ("PQsetnonblocking", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int]),
        ("PQsendQueryParams", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p,
                                             ctypes.POINTER(ctypes.c_char_p), ctypes.c_void_p, ctypes.c_void_p,
                                             ctypes.c_int]),
        ("PQsendQuery", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]),
        ("PQflush", ctypes.c_int, [ctypes.c_void_p]),
        ("PQconsumeInput", ctypes.c_int, [ctypes.c_void_p]),
        ("PQisBusy", ctypes.c_int, [ctypes.c_void_p]),
        ("PQgetResult", ctypes.c_void_p, [ctypes.c_void_p]),
        ("PQresultStatus", ctypes.c_int, [ctypes.c_void_p]),
        ("PQresultErrorMessage", ctypes.c_char_p, [ctypes.c_void_p]),
        ("PQresultErrorField", ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int]),
        ("PQntuples", ctypes.c_int, [ctypes.c_void_p]),
        ("PQnfields", ctypes.c_int, [ctypes.c_void_p]),
        ("PQgetvalue", ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]),
        ("PQgetisnull", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]),
        ("PQclear", None, [ctypes.c_void_p]),
        ("PQfinish", None, [ctypes.c_void_p])):
    function = getattr(LIB, name)
    function.restype, function.argtypes = result, arguments


class Error(Exception):
    """libpq's own message; pgcode the server's SQLSTATE when the server answered with an error."""

    def __init__(self, message, pgcode=None):
        super().__init__(message.strip())
        self.pgcode = pgcode


def _text(value):
    return value.decode(errors="replace") if value is not None else None


def _strings(values):
    return (ctypes.c_char_p * (len(values) + 1))(*[v.encode() for v in values], None)


class Connection:
    """One PGconn: connected by libpq's blocking connect, or Error with libpq's message (every
    host's failure, one line each)."""

    def __init__(self, parameters):
        names = [name for name, value in parameters.items() if value is not None]
        self.pgconn = LIB.PQconnectdbParams(_strings(names), _strings([str(parameters[n]) for n in names]), 0)
        if not self.pgconn:
            raise MemoryError("libpq: no memory for a connection")
        if LIB.PQstatus(self.pgconn) != CONNECTION_OK:
            message = _text(LIB.PQerrorMessage(self.pgconn))
            self.close()
            raise Error(message)
        LIB.PQsetnonblocking(self.pgconn, 1)

    def fileno(self):
        return LIB.PQsocket(self.pgconn)

    @property
    def host(self):
        """The host (as listed) libpq connected to."""
        return _text(LIB.PQhost(self.pgconn))

    @property
    def hostaddr(self):
        """The address it connected to."""
        return _text(LIB.PQhostaddr(self.pgconn))

    def send(self, sql, params=()):
        """Send a statement ($1, $2, ... for params, sent as text; without params, several statements
        may be sent at once); True once all of it is out."""
        if params:
            sent = LIB.PQsendQueryParams(self.pgconn, sql.encode(), len(params), None,
                                         _strings([str(p) for p in params]), None, None, 0)
        else:
            sent = LIB.PQsendQuery(self.pgconn, sql.encode())
        if not sent:
            raise self._error()
        return LIB.PQflush(self.pgconn) == 0

    def flush(self):
        """True once all that was sent is out; Error if the connection broke."""
        pending = LIB.PQflush(self.pgconn)
        if pending < 0:
            raise self._error()
        return pending == 0

    def consume(self):
        """Read what arrived; True while the answer is still incomplete."""
        if not LIB.PQconsumeInput(self.pgconn):
            raise self._error()
        return bool(LIB.PQisBusy(self.pgconn))

    def result(self):
        """The rows of the answer (list of tuples of str or None; None for a statement without rows),
        or Error with the server's SQLSTATE."""
        rows, error = None, None
        while True:
            res = LIB.PQgetResult(self.pgconn)
            if not res:
                break
            status = LIB.PQresultStatus(res)
            if status == PGRES_TUPLES_OK and error is None:
                rows = [tuple(None if LIB.PQgetisnull(res, r, c) else _text(LIB.PQgetvalue(res, r, c))
                              for c in range(LIB.PQnfields(res))) for r in range(LIB.PQntuples(res))]
            elif status != PGRES_COMMAND_OK and error is None:
                error = Error(_text(LIB.PQresultErrorMessage(res)) or "",
                              _text(LIB.PQresultErrorField(res, PG_DIAG_SQLSTATE)))
            LIB.PQclear(res)
        if error is not None:
            raise error
        return rows

    def _error(self):
        return Error(_text(LIB.PQerrorMessage(self.pgconn)) or "")

    def close(self):
        if self.pgconn:
            LIB.PQfinish(self.pgconn)
            self.pgconn = None
