"""A removed backend's answer already on its way still reaches its client; what the client sends
after that is dropped (nodest=drop) or reset (nodest=reset). IPVS acts only on packets to a
destination that is no longer available (ip_vs_in_hook); the nftables datapath must mean the
same. Were the answer dropped, its request already ACKed, the client would have nothing to send:
neither retransmitting into the blackhole nor meeting the reset, it would wait as in an app hang."""
import json

SERVER_SLEEP_S = 2.0
READ_TIMEOUT_S = 4.0

# Runs in a client container: connect through the VIP, wait for a line, then a query the server
# answers SERVER_SLEEP_S later (the swap lands meanwhile), then a second query on the same connection.
CLIENT = f"""
import json, sys, time, pymysql
def say(**record):
    print(json.dumps(record), flush=True)
conn = pymysql.connect(host=sys.argv[1], user="sbtest", password="sbtest", read_timeout={READ_TIMEOUT_S})
cursor = conn.cursor()
say(ready=time.time())
sys.stdin.readline()
for query in ("SELECT @@hostname, SLEEP({SERVER_SLEEP_S})", "SELECT @@hostname"):
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


def check(lab, director, client="client", nodest="drop"):
    """The answer to the query in flight at the swap arrives; the next query gets nothing
    (nodest=drop: its read timeout ends it) or a reset (nodest=reset)."""
    process = lab.spawn(client, ["python3", "-c", CLIENT, lab.address("director", "front")])
    try:
        records_until(process, "ready")
        process.stdin.write("go\n")
        process.stdin.flush()
        records_until(process, "sent")
        applying, applied = director.swap("mysql", old="mysql-primary", new="mysql-replica", nodest=nodest)
        out, err = process.communicate(timeout=SERVER_SLEEP_S + READ_TIMEOUT_S + 30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    operations = [r for r in map(json.loads, out.splitlines()) if "t1" in r]
    answered = operations[0]
    assert applied < answered["t0"] + SERVER_SLEEP_S, "the swap landed after the answer: nothing was in flight"
    assert answered["ok"] and answered["server"] == "mysql-primary", \
        f"the answer in flight at the swap was lost: {answered}"
    [_, after] = operations
    if nodest == "drop":
        assert not after["ok"] and "timed out" in after["error"], after
        assert after["t1"] - after["t0"] >= READ_TIMEOUT_S - 0.1, "something answered a dropped flow"
    else:
        assert not after["ok"] and "reset" in after["error"].lower(), after
        assert after["t1"] - after["t0"] < 1.0, "the reset came late"
