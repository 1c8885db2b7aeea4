import socket, sys, time, json
host, port, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
s = socket.create_connection((host, port))
end = time.time() + float(sys.argv[4])
while time.time() < end:
    t0 = time.time()
    try:
        s.sendall(b"ping\n")
        s.settimeout(max(0.1, end - time.time()))
        data = s.recv(100)
        t1 = time.time()
        if not data:
            print(json.dumps({"label": label, "t0": t0, "t1": t1, "end": "EOF (FIN)"}), flush=True); break
    except socket.timeout:
        print(json.dumps({"label": label, "t0": t0, "end": "still waiting at the end"}), flush=True); break
    except OSError as exc:
        print(json.dumps({"label": label, "t0": t0, "t1": time.time(), "end": repr(exc)}), flush=True); break
    print(json.dumps({"label": label, "t0": t0, "t1": t1, "ok": True}), flush=True)
    time.sleep(0.1)
else:
    print(json.dumps({"label": label, "end": "still waiting at the end"}), flush=True)
