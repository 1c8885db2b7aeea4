"""What the probe (images/client/probe.py) speaks to an HTTP or a MySQL server: a connection
whose operation() asks one small thing and returns who answered (pg_connection.py: PostgreSQL)."""
import errno
import socket


class HttpConnection:
    def __init__(self, host, port, connect_timeout, read_timeout):
        self.sock = socket.create_connection((host, port), timeout=connect_timeout)
        self.sock.settimeout(read_timeout)
        self.buffer = b""

    def fileno(self):
        return self.sock.fileno()

    def operation(self):
        self.sock.sendall(b"GET / HTTP/1.1\r\nHost: vip\r\n\r\n")
        while b"\r\n\r\n" not in self.buffer:
            self._read()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(self.buffer) < length:
            self._read()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.split(b"\r\n")[0].decode())
        return body.decode().strip()

    def _read(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionResetError(errno.ECONNRESET, "EOF from server")
        self.buffer += chunk

    def close(self):
        self.sock.close()


NO_CONNECT_LIMIT_S = 31_536_000      # PyMySQL's largest


class MysqlConnection:
    def __init__(self, host, port, user, password, connect_timeout, read_timeout):
        import pymysql

        # PyMySQL has no "no connect timeout" (None is refused): a year, past any kernel's SYN retries
        self.conn = pymysql.connect(host=host, port=port, user=user, password=password,
                                    connect_timeout=connect_timeout or NO_CONNECT_LIMIT_S, read_timeout=read_timeout,
                                    write_timeout=read_timeout, autocommit=True)

    def fileno(self):
        return self.conn._sock.fileno()

    def operation(self):
        with self.conn.cursor() as cursor:
            cursor.execute("SELECT @@hostname")
            return cursor.fetchone()[0]

    def close(self):
        try:
            self.conn.close()
        except Exception:
            pass
