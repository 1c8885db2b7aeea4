"""A request in flight when its backend is removed, as real IPVS treats it (tests/guest runs this
on IPVS; tests/lab on the nftables datapath, which must mean the same):
  - nodest=drop (expire_nodest_conn=0): IPVS keeps the entry and drops only what goes to the
    removed backend (ip_vs_in_hook), so the answer already on its way reaches the client; what the
    client sends next is dropped;
  - nodest=reset (expire_nodest_conn=1): deleting the backend flushes its entries (Linux 5.9+),
    so its answer is dropped; the backend had ACKed the request, so the client has nothing to
    send, never meets the reset, and waits as in an app hang, until its own read timeout."""
import json

TIMEOUT_AFTER_ANSWER_S = 3.0      # the client's read timeout: this much longer than the server's sleep
READ_TIMED_OUT = "during query (timed out)"      # PyMySQL's words for its own read timeout (not ETIMEDOUT)

# Runs in a client container: connect through the VIP, wait for a line, then a query the server
# answers argv[2] s later (the swap lands meanwhile), then a second query on the same connection.
CLIENT = """
import json, sys, time, pymysql
def say(**record):
    print(json.dumps(record), flush=True)
sleep_s, read_timeout_s = float(sys.argv[2]), float(sys.argv[3])
conn = pymysql.connect(host=sys.argv[1], user="sbtest", password="sbtest", read_timeout=read_timeout_s)
cursor = conn.cursor()
say(ready=time.time())
sys.stdin.readline()
for query in (f"SELECT @@hostname, SLEEP({sleep_s})", "SELECT @@hostname"):
    t0 = time.time()
    say(sent=t0, query=query)
    try:
        cursor.execute(query)
        say(t0=t0, t1=time.time(), ok=True, server=cursor.fetchone()[0])
    except Exception as exc:
        say(t0=t0, t1=time.time(), ok=False, error=repr(exc)[:200])
        break
"""


def records_until(process, key):
    records = []
    while not records or key not in records[-1]:
        line = process.stdout.readline()
        if not line:
            raise AssertionError(f"the client ended before {key!r}: {process.stderr.read()}")
        records.append(json.loads(line))
    return records


def check(lab, director, client="client", nodest="drop", server_sleep_s=2.0, attempts=3):
    """nodest=drop: the answer to the query in flight at the swap arrives, the next query gets
    nothing until its read timeout; nodest=reset: the query in flight gets neither its answer nor
    a reset, only its read timeout. server_sleep_s: long enough for the swap to land while the
    server sleeps (a TCG guest's takes ~10 s). The client's tcp_retries2 budget must outlast its
    read timeout (server_sleep_s + 3 s): only the application's timer is to end the wait. When the
    harness's own exec of the swap was too slow for the swap to land while the server slept (a
    busy machine: not what is under test), the director is reset and it is tried again with a
    server that sleeps twice as long."""
    for attempt in range(attempts):
        operations, applied = _attempt(lab, director, client, nodest, server_sleep_s)
        if applied < operations[0]["t0"] + server_sleep_s:
            break
        director.reset()
        server_sleep_s *= 2
    else:
        raise AssertionError(f"the swap landed after the answer {attempts} times: nothing was in flight")
    read_timeout_s = server_sleep_s + TIMEOUT_AFTER_ANSWER_S
    in_flight = operations[0]
    if nodest == "reset":
        assert operations == [in_flight] and not in_flight["ok"] and READ_TIMED_OUT in in_flight["error"], \
            f"the removed backend's answer or a reset reached the client: {operations}"
        assert in_flight["t1"] - in_flight["t0"] >= read_timeout_s - 0.1, in_flight
        return
    assert in_flight["ok"] and in_flight["server"] == "db-primary", \
        f"the answer in flight at the swap was lost: {in_flight}"
    [_, after] = operations
    assert not after["ok"] and READ_TIMED_OUT in after["error"], after
    assert after["t1"] - after["t0"] >= read_timeout_s - 0.1, f"something answered a dropped flow: {after}"


def _attempt(lab, director, client, nodest, server_sleep_s):
    """The client's operations and when the swap was applied."""
    read_timeout_s = server_sleep_s + TIMEOUT_AFTER_ANSWER_S
    process = lab.spawn(client, ["python3", "-c", CLIENT, lab.address("director", "front"), str(server_sleep_s),
                                 str(read_timeout_s)])
    try:
        records_until(process, "ready")
        process.stdin.write("go\n")
        process.stdin.flush()
        records_until(process, "sent")
        _, applied = director.swap("mysql", old="db-primary", new="db-replica", nodest=nodest)
        out, _ = process.communicate(timeout=server_sleep_s + read_timeout_s + 60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return [r for r in map(json.loads, out.splitlines()) if "t1" in r], applied
