"""What of the host a test can check is left as it was: its links and its default bridge."""
import re
import subprocess

BASE_IMAGE = "debian:bookworm-slim"
# Links other labs add and remove while a test runs (pytest workers side by side): their veth
# ends and their networks' bridges. Everything else on the host must stay as it was.
OTHER_LABS_LINKS = re.compile(r"^(veth[0-9a-f]+|br-[0-9a-f]{12})$")


def host_links():
    """Each host link's name, flags and whether it is a bridge, as `ip -o -d link` shows them."""
    links = {}
    for line in subprocess.run(["ip", "-o", "-d", "link"], capture_output=True, text=True, check=True).stdout.splitlines():
        _, name, rest = line.split(":", 2)
        name = name.strip().split("@")[0]
        if not OTHER_LABS_LINKS.match(name):
            links[name] = (rest.split()[0], " bridge " in rest)
    return links


def run_on_default_bridge():
    """(exit code, the end of stderr) of a container on Docker's default bridge that does nothing."""
    done = subprocess.run(["docker", "run", "--rm", "--network", "bridge", BASE_IMAGE, "true"],
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stderr.strip()[-300:]
