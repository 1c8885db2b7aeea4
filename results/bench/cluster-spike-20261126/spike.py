"""Spike: a single-node cluster in a TCG guest; each component's start-up measured."""
import json, os, shutil, ssl, subprocess, sys, time, urllib.request
sys.path.insert(0, "/work/main")
from harness.lab.guest.engine import GuestEngine
from harness.lab.images import host_image_keys, save_host_images
from harness.lab.guest.qemu import free_port

S = "/tmp/spike"; OPT = f"{S}/opt"
LAB = subprocess.run(["/work/main/scripts/ensure-kube.sh"], capture_output=True, text=True, check=True).stdout.split()[-1]
CL = subprocess.run(["/work/main/scripts/ensure-kube.sh", "cluster"], capture_output=True, text=True, check=True).stdout.split()[-1]
shutil.rmtree(OPT, ignore_errors=True); os.makedirs(f"{OPT}/bin")
for d in (LAB, CL):
    for b in os.listdir(d): shutil.copy2(f"{d}/{b}", f"{OPT}/bin/{b}")
for f in ("node-start", "kubelet.yaml", "10-bridge.conflist"): shutil.copy(f"{S}/{f}", OPT)
os.chmod(f"{OPT}/node-start", 0o755)
def sh(c): subprocess.run(c, shell=True, check=True, cwd=OPT, capture_output=True)
sh('printf \'blackhole-lab-not-a-secret,lab,lab,"system:masters"\\n\' > tokens.csv')
sh("openssl genrsa -out sa.key 2048 && openssl rsa -in sa.key -pubout -out sa.pub")
sh("openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=kube-api -addext subjectAltName=IP:127.0.0.1,IP:10.0.2.15,IP:10.96.0.1 -keyout apiserver.key -out apiserver.crt")
if not os.path.exists(f"{S}/cni/usr/lib/cni/bridge"):
    subprocess.run(f"dpkg-deb -x /tmp/cni-deb/*.deb {S}/cni", shell=True, check=True)
os.makedirs(f"{S}/pause", exist_ok=True)
open(f"{S}/pause/Dockerfile", "w").write('FROM debian:bookworm-slim\nENTRYPOINT ["sleep", "infinity"]\n')
subprocess.run(["docker", "build", "-q", "-t", "registry.k8s.io/pause:3.6", f"{S}/pause"], check=True, capture_output=True)
subprocess.run(["docker", "save", "-o", f"{S}/pause.tar", "registry.k8s.io/pause:3.6"], check=True)

marks = {}
t0 = time.time()
def mark(name):
    marks[name] = round(time.time() - t0, 1); print(f"{marks[name]:7.1f} s  {name}", flush=True)

with GuestEngine("6.12", image_keys=host_image_keys, save_images=save_host_images) as g:
    g.ensure_started(say=print); mark("guest booted, its docker answers")
    opts = g.ssh._options()
    def push(src_dir, dest):
        subprocess.run(f"tar -C {src_dir} -cf - . | ssh {' '.join(opts)} root@127.0.0.1 'mkdir -p {dest} && tar -C {dest} -xf -'",
                       shell=True, check=True)
    push(OPT, "/opt/cluster"); push(f"{S}/cni/usr/lib/cni", "/usr/lib/cni"); mark("binaries pushed")
    subprocess.run(f"ssh {' '.join(opts)} root@127.0.0.1 'cat > /tmp/pause.tar' < {S}/pause.tar", shell=True, check=True)
    g.ssh.run("/opt/cluster/node-start", timeout=60); mark("launched")
    port = free_port()
    fwd = subprocess.Popen(["ssh", *g.ssh._options(shared=False), "-N", "-L", f"127.0.0.1:{port}:127.0.0.1:6443", "root@127.0.0.1"])
    ctx = ssl.create_default_context(); ctx.check_hostname = False; ctx.verify_mode = ssl.CERT_NONE
    def api(path, method="GET", body=None):
        req = urllib.request.Request(f"https://127.0.0.1:{port}{path}", method=method,
                                     data=json.dumps(body).encode() if body else None,
                                     headers={"Authorization": "Bearer blackhole-lab-not-a-secret", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
            return r.read().decode()
    def wait(name, ok, limit=900):
        end = time.time() + limit
        while time.time() < end:
            try:
                if ok(): mark(name); return True
            except Exception as e:
                last = e
            time.sleep(2)
        mark(f"{name}: NOT within {limit} s"); return False
    wait("etcd healthy", lambda: '"health":"true"' in g.ssh.run("exec 3<>/dev/tcp/127.0.0.1/2379; printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3; cat <&3", check=False).stdout)
    wait("API server ready", lambda: api("/readyz") == "ok")
    g.ssh.run("ctr -n k8s.io images import /tmp/pause.tar", timeout=300); mark("pause image imported")
    def node_ready():
        n = json.loads(api("/api/v1/nodes/node"))
        return any(c["type"] == "Ready" and c["status"] == "True" for c in n["status"]["conditions"])
    wait("node Ready", node_ready)
    wait("kube-proxy programmed the kubernetes Service (IPVS)", lambda: "10.96.0.1:443" in g.ssh.run("ipvsadm -Ln", check=False).stdout)
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "first", "namespace": "default"},
           "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.6", "imagePullPolicy": "Never"}]}}
    def sa_ready():
        return "default" in api("/api/v1/namespaces/default/serviceaccounts")
    wait("default service account", sa_ready)
    api("/api/v1/namespaces/default/pods", "POST", pod); mark("pod created")
    wait("pod Running", lambda: json.loads(api("/api/v1/namespaces/default/pods/first"))["status"].get("phase") == "Running", 600)
    print(json.dumps(json.loads(api("/api/v1/namespaces/default/pods/first"))["status"], indent=1)[:1500])
    for log in ("timeline", "kubelet.log"):
        print(f"== {log}"); print(g.ssh.run(f"tail -25 /var/log/cluster/{log}", check=False).stdout)
    json.dump(marks, open(f"{S}/marks.json", "w"), indent=1)
    fwd.terminate()
